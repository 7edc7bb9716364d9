#!/usr/bin/env bash
# The GPU toolchain: setup.sh (which installs Debian 12's hipcc, for the AMD compile-only build: gfx90a, gfx940)
# and a check for the NVIDIA compiler. Afterwards scripts/test.sh builds and checks the NVIDIA code too.
#   NVIDIA: nvcc from CUDA 12 or newer (spec/ is C++20; Debian 12's CUDA 11.8 nvcc stops at C++17, see
#   gpu/runtime/hip_runtime.hpp). It is looked for on PATH and in /usr/local/cuda/bin; Debian has no such package,
#   so this script only reports it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "setup_gpu: hipcc $(command -v hipcc || echo missing)"
nvcc_path=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; } || true)
if [ -n "$nvcc_path" ]; then
  echo "setup_gpu: nvcc $nvcc_path ($("$nvcc_path" --version | grep -o 'release [0-9.]*'))"
else
  echo "setup_gpu: no nvcc (CUDA 12+): the NVIDIA kernels and tilesim-gpu are skipped; the rest builds"
fi
