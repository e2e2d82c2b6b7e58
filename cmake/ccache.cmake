# obliq_use_ccache(LANG): compile LANG through ccache when it is installed and the user has set no
# launcher of their own (CMAKE_<LANG>_COMPILER_LAUNCHER as a -D, a cache entry or an environment
# variable). Top-level builds only: as a subproject obliq leaves its parent's settings alone.
# -DOBLIQ_USE_CCACHE=OFF turns it off (docs/development.md "Building").
option(OBLIQ_USE_CCACHE "Compile through ccache when it is found and no compiler launcher is set" ON)
function(obliq_use_ccache lang)
  if(NOT PROJECT_IS_TOP_LEVEL OR NOT OBLIQ_USE_CCACHE OR DEFINED CMAKE_${lang}_COMPILER_LAUNCHER
     OR DEFINED ENV{CMAKE_${lang}_COMPILER_LAUNCHER})
    return()
  endif()
  find_program(OBLIQ_CCACHE_PROGRAM ccache)
  if(OBLIQ_CCACHE_PROGRAM)
    set(CMAKE_${lang}_COMPILER_LAUNCHER "${OBLIQ_CCACHE_PROGRAM}" CACHE STRING "Compiler launcher for ${lang} (ccache, found)")
    message(STATUS "obliq: ${lang} compiled through ${OBLIQ_CCACHE_PROGRAM}")
  endif()
endfunction()
