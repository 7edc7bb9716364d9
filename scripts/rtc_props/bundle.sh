#!/usr/bin/env bash
# scripts/rtc_props/bundle.sh BUILD_DIR OUT_DIR: what a GPU machine needs to run `tilesim-gpu props` from a copy of the
# working tree: tilesim-gpu and the shared libraries it links that a bare CUDA image may lack (Boost.Context
# for the simulator's fibers) and libcu++'s headers as a fallback, about 14 MB. libnvrtc comes from the machine's
# CUDA 13 (/usr/local/cuda/lib64, the binary's rpath). Run it there as  LD_LIBRARY_PATH=$PWD/OUT_DIR OUT_DIR/tilesim-gpu props ...  from the
# repository root (the kernels include gpu/rtc_props/ and spec/ from the tree).
set -euo pipefail
build=$1 out=$2
mkdir -p "$out"
cp "$build/cli/tilesim-gpu" "$out/"
ldd "$build/cli/tilesim-gpu" | awk '/boost/ {print $3}' | while read -r lib; do cp -L "$lib" "$out/"; done
# libcu++ (8 MB), which NVRTC compiles the kernels against; used only where the machine has no
# /usr/local/cuda/include/cccl (rtc_compiler.hpp: find_cccl).
mkdir -p "$out/cccl"
cp -r /usr/local/cuda/include/cccl/cuda /usr/local/cuda/include/cccl/nv "$out/cccl/"
ls -la "$out"
