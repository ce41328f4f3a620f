#!/usr/bin/env bash
# Makes the bundle for the GPU half of the Python package's checks on one GPU machine with no
# network and Python 3.12 (CuPy, PyTorch, JAX, Numba and pytest installed there): a cp312 wheel of
# primlab for sm_90, the cuda-cccl wheel (cuda.compute; its other dependencies are on the device),
# the C++ baseline call-overhead, the tests, the benchmark and device_run.sh, into DIR (default
# .dev/python, which the device run carries). On the device, from the repository's top folder:
#   OUT=<folder> DIR/device_run.sh
# Usage: bench/python/device_bundle.sh [DIR]   (PYTHON312: the python3.12 to build with;
# PRIMLAB_NCCL_ROOT: where NCCL is, for primlab.distributed across GPUs, by default the CUDA
# toolkit's folder when it holds libnccl (a wheel without NCCL fails the GPU test test_nccl_loads);
# BUILD: the build folder, kept for the next run)
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-.dev/python}
python312=${PYTHON312:-python3.12}
build=${BUILD:-$PWD/build-wheel312}
toolkit=$(dirname "$(dirname "$(command -v nvcc)")")
nccl_root=${PRIMLAB_NCCL_ROOT:-}
if [ -z "$nccl_root" ] && [ -e "$toolkit/lib/libnccl.so.2" ]; then nccl_root=$toolkit; fi
rm -rf "$dir"
mkdir -p "$dir"
CUDAARCHS=90 "$python312" -m pip wheel -q --no-deps -w "$dir" ./python -C build-dir="$build" \
  -C cmake.define.PRIMLAB_NCCL_ROOT="$nccl_root"
# cuda-cccl's x86-64 wheels are tagged manylinux_2_26, which pip does not infer from 2_28.
"$python312" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_26_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 -d "$dir" cuda-cccl
nvcc -O2 -std=c++17 -arch=sm_90 -Ikernels/include -I"$build"/kernels/include bench/python/call_overhead.cpp \
  "$build"/kernels/libprimlab.a -o "$dir/call-overhead"
cp -r python/tests "$dir/tests"
rm -rf "$dir/tests/__pycache__"
cp bench/python/sort_from_python.py bench/python/device_run.sh "$dir/"
git rev-parse --short HEAD > "$dir/COMMIT"
du -sh "$dir"
ls -la "$dir"
