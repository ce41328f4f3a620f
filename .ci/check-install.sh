#!/usr/bin/env bash
# Checks that the library installs and is found the CMake way: installs it to a temporary prefix,
# compiles each installed header on its own, builds kernels/examples/consumer against the prefix
# (find_package), builds kernels/examples/subproject (add_subdirectory) and configures it with
# FetchContent, and runs the consumers where a GPU is present. One line per check; non-zero on failure.
# Usage, from anywhere: .ci/check-install.sh [BUILD_DIR]
#   BUILD_DIR: an existing CUDA build of primlab to install from; without it a fresh library-only
#   Release build is made. CUDAARCHS and CMAKE_BUILD_PARALLEL_LEVEL are honoured as usual.
set -euo pipefail
build=${1:+$(realpath "$1")}
cd "$(dirname "$0")/.."
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
if ! command -v nvcc >/dev/null; then
  echo "check-install: nvcc not found - the library needs CUDA; nothing to check"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
jobs=-j"${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
prefix=$work/prefix

# Runs a command quietly; prints "ok   NAME", or its output and "FAIL NAME" and stops.
check() {
  local name=$1
  shift
  if "$@" >"$work/log" 2>&1; then
    echo "ok   $name"
  else
    cat "$work/log"
    echo "FAIL $name"
    exit 1
  fi
}

# A library-only configure must not look up any of the app's, tests' or bench's dependencies.
library_only() {
  ! grep -E '^(glfw3_DIR|IMGUI_|PRIMLAB_IMGUI_LIB|PRIMLAB_GLAD|PRIMLAB_EGL_LIB|PRIMLAB_STB_LIB|PRIMLAB_GIF_LIB|CLI11_DIR|GTest_DIR|nlohmann_json_DIR)' \
    "$1/CMakeCache.txt"
}

if [[ -z $build ]]; then
  build=$work/build
  check "configure a library-only Release build" \
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
          -DPRIMLAB_WITH_APP=OFF -DPRIMLAB_WITH_TESTS=OFF -DPRIMLAB_WITH_BENCH=OFF
  check "library-only build looks up no app, test or bench dependency" library_only "$build"
fi
check "build the library in $build" cmake --build "$build" --target primlab "$jobs"
check "cmake --install to a temporary prefix" cmake --install "$build" --prefix "$prefix"
check "installed primlabConfig.cmake, primlabConfigVersion.cmake and the library" \
  ls "$prefix"/lib*/cmake/primlab/primlabConfig.cmake "$prefix"/lib*/cmake/primlab/primlabConfigVersion.cmake \
     "$prefix"/lib*/libprimlab.a

# Each installed header alone, with only the prefix and CUDA on the include path: it includes no
# header that was not installed, and compiles without warnings under g++ -Wpedantic and nvcc.
headers_compile() {
  local cuda_include h
  cuda_include=$(dirname "$(command -v nvcc)")/../include
  for h in "${installed_headers[@]}"; do
    echo "#include \"primlab/${h##*/}\"" >"$work/header.cpp"
    g++ -std=c++17 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$prefix/include" \
        -isystem "$cuda_include" "$work/header.cpp" || return 1
    cat "$work/header.cpp" >>"$work/headers.cu"
  done
  nvcc -std=c++17 -Werror all-warnings -I"$prefix/include" -c "$work/headers.cu" -o "$work/headers.o"
}
installed_headers=("$prefix"/include/primlab/*.h)
check "installed headers (${#installed_headers[@]}) compile alone, g++ -Wpedantic -Werror and nvcc" \
  headers_compile

check "find_package: configure kernels/examples/consumer against the prefix" \
  cmake -S kernels/examples/consumer -B "$work/consumer" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix"
check "find_package: build the consumer (g++ -Wall -Wextra -Wpedantic -Werror)" \
  cmake --build "$work/consumer" "$jobs"

# The subproject proves the CMake wiring, not the architectures (the install above has every
# default one): one PTX target keeps its second compile of the library short.
check "add_subdirectory: configure kernels/examples/subproject" \
  cmake -S kernels/examples/subproject -B "$work/subproject" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CUDA_ARCHITECTURES=75-virtual
check "add_subdirectory: primlab builds only the library" library_only "$work/subproject"
check "add_subdirectory: build the consumer" cmake --build "$work/subproject" "$jobs"
check "FetchContent: configure kernels/examples/subproject (primlab::primlab resolves)" \
  cmake -S kernels/examples/subproject -B "$work/fetch" -DCMAKE_BUILD_TYPE=Release -DPRIMLAB_CONSUMER_FETCH=ON \
        -DCMAKE_CUDA_ARCHITECTURES=75-virtual
check "FetchContent: primlab builds only the library" library_only "$work/fetch"

# The consumer prints "consumer: primlab <version>, sort ok, scan ok" when the GPU's results match the host's.
runs_ok() {
  local out
  out=$("$1") && echo "$out" && [[ $out == *"sort ok, scan ok"* ]]
}
if nvidia-smi -L >/dev/null 2>&1; then
  check "run the find_package consumer on the GPU" runs_ok "$work/consumer/consumer"
  check "run the add_subdirectory consumer on the GPU" runs_ok "$work/subproject/consumer"
else
  echo "skip running the consumers: no GPU here"
fi
