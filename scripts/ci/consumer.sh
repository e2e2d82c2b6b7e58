#!/usr/bin/env bash
# CI: obliq used as a library by a separate project (examples/host_api). Installs the build
# tree that scripts/test.sh made into a scratch prefix, builds the example against it with
# find_package(obliq), builds it again with obliq as a subproject (add_subdirectory), and runs
# both builds' programs. Also checks that the README's host-API snippet is the example's
# main.cpp, so the README shows a program that compiles and runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
build=${OBLIQ_BUILD_DIR:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. The README's snippet is examples/host_api/main.cpp, verbatim.
awk '/^<!-- host-api-snippet: examples\/host_api\/main.cpp -->$/ {grab=1; next}
     grab && /^```cpp$/ {inside=1; next}
     inside && /^```$/ {exit}
     inside {print}' README.md > "$work/readme_snippet.cpp"
if ! diff -u examples/host_api/main.cpp "$work/readme_snippet.cpp"; then
  echo "consumer: the README's host-API snippet differs from examples/host_api/main.cpp" >&2
  exit 1
fi

# 2. Against the installed package.
cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -f "$work/prefix/lib/cmake/obliq/obliqConfig.cmake" || test -f "$work/prefix/lib64/cmake/obliq/obliqConfig.cmake"
"$work/prefix/bin/obliq" --version
cmake -S examples/host_api -B "$work/installed" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/installed"
"$work/installed/main"
"$work/installed/monte_carlo" --draws 100000 --threads 2

# 3. As a subproject (no tests, benchmarks, command line, model layer or CUDA get built).
cmake -S examples/host_api -B "$work/subproject" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOBLIQ_SOURCE_DIR="$PWD" >/dev/null
cmake --build "$work/subproject"
"$work/subproject/main"
"$work/subproject/monte_carlo" --draws 10000 --threads 1

echo "consumer: $(( $(date +%s) - start )) s"
