# Which CUDA architectures obliq compiles for, and how fast nvcc compiles device code
# (docs/cuda.md "Building"). Included by the top-level CMakeLists.txt once nvcc is found and
# before enable_language(CUDA), on every configure of a build folder.
#
# CMAKE_CUDA_ARCHITECTURES, in this order of precedence, honoured on a reconfigure of an existing
# build folder as on the first configure:
#   1. a value given with -DCMAKE_CUDA_ARCHITECTURES=... (or edited in the cache): kept until the
#      next such value (-UCMAKE_CUDA_ARCHITECTURES hands the choice back to 2 and 3);
#   2. the CUDAARCHS environment variable, when it is set;
#   3. else the value chosen before in this folder (by 2 or 3), else OBLIQ_CUDA_DEFAULT_ARCHITECTURES
#      (90-virtual: PTX for compute_90 only, no machine code; the test build's default).
# A build that is to run on a GPU asks for machine code: bench/gpu_check.sh passes
# -DCMAKE_CUDA_ARCHITECTURES=90 (sm_90, H100/H200). A PTX-only build still runs on a GPU: the
# driver compiles the PTX at first load (slowly, and at OBLIQ_CUDA_FAST_COMPILE's optimization).
#
# OBLIQ_CUDA_FAST_COMPILE (default ON): when every architecture is PTX-only (-virtual) and nvcc
# knows --Ofast-compile, obliq's CUDA sources are compiled with -Ofc=max (nvcc's fastest device
# compile; the Simulator's kernels: about 8 s of CPU instead of 230 s to PTX), unless the user's
# flags already give a -Ofc level. Never with machine code, whose speed is what a GPU build is for.
set(OBLIQ_CUDA_DEFAULT_ARCHITECTURES 90-virtual CACHE STRING
  "CUDA architectures when neither -DCMAKE_CUDA_ARCHITECTURES nor CUDAARCHS says (PTX only)")
option(OBLIQ_CUDA_FAST_COMPILE "nvcc -Ofc=max for PTX-only builds (every architecture -virtual)" ON)

# OBLIQ_CUDA_ARCHITECTURES_SET records what this file last put in the cache, and
# OBLIQ_CUDA_ARCHITECTURES_SOURCE where it came from (user, env or default): a cached value that
# differs from the record was given by the user since.
set(_obliq_env "$ENV{CUDAARCHS}")
if(DEFINED CACHE{CMAKE_CUDA_ARCHITECTURES}
   AND NOT "$CACHE{CMAKE_CUDA_ARCHITECTURES}" STREQUAL "$CACHE{OBLIQ_CUDA_ARCHITECTURES_SET}")
  # New since the last configure: -D on this command line, a cache edit, or a folder configured
  # before this file existed (CMake itself caches CUDAARCHS at the first configure).
  if(NOT DEFINED CACHE{OBLIQ_CUDA_ARCHITECTURES_SET} AND "$CACHE{CMAKE_CUDA_ARCHITECTURES}" STREQUAL "${_obliq_env}")
    set(_obliq_source env)
  else()
    set(_obliq_source user)
  endif()
  set(_obliq_archs "$CACHE{CMAKE_CUDA_ARCHITECTURES}")
elseif(DEFINED CACHE{CMAKE_CUDA_ARCHITECTURES} AND "$CACHE{OBLIQ_CUDA_ARCHITECTURES_SOURCE}" STREQUAL "user")
  set(_obliq_source user)
  set(_obliq_archs "$CACHE{CMAKE_CUDA_ARCHITECTURES}")
elseif(NOT _obliq_env STREQUAL "")
  set(_obliq_source env)
  set(_obliq_archs "${_obliq_env}")
elseif(DEFINED CACHE{CMAKE_CUDA_ARCHITECTURES})
  # CUDAARCHS unset now (a re-run of CMake started by the build, another shell): keep what this
  # folder was configured with rather than switch architectures and recompile every kernel.
  set(_obliq_source "$CACHE{OBLIQ_CUDA_ARCHITECTURES_SOURCE}")
  set(_obliq_archs "$CACHE{CMAKE_CUDA_ARCHITECTURES}")
else()
  set(_obliq_source default)
  set(_obliq_archs "${OBLIQ_CUDA_DEFAULT_ARCHITECTURES}")
endif()
if(_obliq_archs STREQUAL "")
  message(FATAL_ERROR "obliq: CMAKE_CUDA_ARCHITECTURES is empty (from ${_obliq_source}); give one, "
    "such as -DCMAKE_CUDA_ARCHITECTURES=90 (sm_90 machine code) or 90-virtual (PTX only)")
endif()
set(CMAKE_CUDA_ARCHITECTURES "${_obliq_archs}" CACHE STRING "CUDA architectures (docs/cuda.md \"Building\")" FORCE)
set(OBLIQ_CUDA_ARCHITECTURES_SET "${_obliq_archs}" CACHE INTERNAL "")
set(OBLIQ_CUDA_ARCHITECTURES_SOURCE "${_obliq_source}" CACHE INTERNAL "")

# PTX only: every entry ends in -virtual.
set(OBLIQ_CUDA_PTX_ONLY ON)
foreach(_obliq_arch IN LISTS _obliq_archs)
  if(NOT _obliq_arch MATCHES "-virtual$")
    set(OBLIQ_CUDA_PTX_ONLY OFF)
  endif()
endforeach()
set(OBLIQ_CUDA_FAST_COMPILE_FLAGS "")
# A -Ofc level of the user's own (CMAKE_CUDA_FLAGS, NVCC_APPEND_FLAGS) wins, and keeps the
# command lines (and so the ccache entries) of builds made with it.
if("${CMAKE_CUDA_FLAGS} $ENV{NVCC_APPEND_FLAGS} $ENV{NVCC_PREPEND_FLAGS}" MATCHES "(^| )(-Ofc|--Ofast-compile)")
  set(_obliq_user_ofc ON)
else()
  set(_obliq_user_ofc OFF)
endif()
if(OBLIQ_CUDA_PTX_ONLY AND OBLIQ_CUDA_FAST_COMPILE AND NOT _obliq_user_ofc)
  execute_process(COMMAND "${CMAKE_CUDA_COMPILER}" --help OUTPUT_VARIABLE _obliq_help ERROR_QUIET)
  if(_obliq_help MATCHES "--Ofast-compile")
    set(OBLIQ_CUDA_FAST_COMPILE_FLAGS -Ofc=max)
  endif()
endif()
if(_obliq_user_ofc)
  set(_obliq_fast "the user's -Ofc")
elseif(OBLIQ_CUDA_FAST_COMPILE_FLAGS)
  set(_obliq_fast "${OBLIQ_CUDA_FAST_COMPILE_FLAGS}")
else()
  set(_obliq_fast off)
endif()
message(STATUS "obliq: CUDA architectures ${_obliq_archs} (from ${_obliq_source}; "
  "PTX only ${OBLIQ_CUDA_PTX_ONLY}; fast device compile: ${_obliq_fast})")
unset(_obliq_env)
unset(_obliq_source)
unset(_obliq_archs)
unset(_obliq_help)
unset(_obliq_user_ofc)
unset(_obliq_fast)
