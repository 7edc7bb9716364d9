#!/usr/bin/env bash
# tests/consumer/gpu/run.sh BUILD_DIR SOURCE_ROOT SANITIZE NVCC: a user's own GPU program built out of tree
# against the installed package (issue 20, examples/user_program/).
#
# THE LAW. Where tilesim was built with nvcc and libcudart_static, what `meson install` puts in a prefix is enough
# to build a user's program as a kernel plus its one-call cross-check, outside this tree:
# examples/user_program/column_sums_kernel.cu compiled by nvcc, column_sums_crosscheck.cpp by the host compiler,
# linked against the install
#   1. CMake: find_package(tilesim COMPONENTS gpu) in tests/consumer/gpu/CMakeLists.txt, tilesim::gpu;
#   2. pkg-config: nvcc $(pkg-config --cflags tilesim-gpu) -c ...cu, then
#      c++ ...cpp kernel.o $(pkg-config --cflags --libs tilesim-gpu).
# The program's sources are copied to a directory of their own (only the install is on the include path), and
# the installed headers must hold their own include closure (.hpp and .cuh). Each build is run: exit 0 (every
# output and counter agreed) on a machine with a GPU; on one without, exit 77 with "no GPU" in its report,
# which is this test's expected result there (CI: nvcc, no GPU). Any other exit fails.
#
# Exit 77 (skipped) under a sanitizer build, or where cmake / pkg-config is missing; 1 with the failing step's
# log; 0 when both builds link and run as above. BUILD_DIR is installed as built (--no-rebuild, --destdir).
set -uo pipefail
unset LD_LIBRARY_PATH  # meson test points it at the build tree; the programs here must use the install
build=$(cd "$1" && pwd) source=$(cd "$2" && pwd) sanitize=${3:-none} nvcc=${4:-nvcc}
if [ "$sanitize" != none ]; then echo "skipped: b_sanitize=$sanitize (the consumer links no sanitizer runtime)"; exit 77; fi
for tool in cmake pkg-config c++ "$nvcc"; do
  command -v "$tool" >/dev/null || { echo "skipped: $tool is not installed (scripts/setup.sh installs it)"; exit 77; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tilesim-gpu-consumer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $1"; [ -f "${2:-}" ] && tail -n 40 "$2"; exit 1; }
check_run() {  # check_run WHAT BINARY: 0 on a GPU; 77 with "no GPU" without one
  local out rc
  out=$("$2" 2>&1); rc=$?
  printf '%s\n' "$out" >"$tmp/run.log"
  if [ "$rc" = 0 ]; then echo "ok: $1: ran on a GPU, every output and counter agreed"; return; fi
  if [ "$rc" = 77 ] && [[ $out == *"no GPU"* ]]; then
    echo "ok: $1: built and ran; exit 77, skipped: no GPU (the expected result on a machine without one)"; return
  fi
  fail "$1: $2 exited $rc" "$tmp/run.log"
}

# The install, staged under $tmp/stage; its prefix and directories as this build configured them.
. "$(dirname "${BASH_SOURCE[0]}")/../install_stage.sh"
stage_install "$build"
for f in "$inc/gpu/user/user_crosscheck.hpp" "$inc/gpu/user/user_kernel.cuh" "$lib/libtilesim_user_crosscheck.a" \
         "$lib/libtilesim_gpu_report.a" "$lib/pkgconfig/tilesim-gpu.pc" "$lib/cmake/tilesim/tilesimConfig.cmake"; do
  [ -e "$f" ] || fail "the install lacks ${f#"$tmp/stage"}" "$tmp/install.log"
done
check_include_closure "gpu/ " "$inc/gpu" -name '*.hpp' -o -name '*.cuh'

# The user's tree: the program's three files under examples/user_program/, nothing else of tilesim's source.
src=$tmp/src
mkdir -p "$src/examples/user_program"
cp "$source/examples/user_program/column_sums.hpp" "$source/examples/user_program/column_sums_kernel.cu" \
   "$source/examples/user_program/column_sums_crosscheck.cpp" "$src/examples/user_program/"
cp "$source/tests/consumer/gpu/CMakeLists.txt" "$src/"

# 1. CMake against the install (CUDA language for the kernel file).
CUDACXX=$(command -v "$nvcc") cmake -S "$src" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$root" -DCMAKE_BUILD_TYPE=Release \
  >"$tmp/cmake.log" 2>&1 && cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1 \
  || fail "CMake build of tests/consumer/gpu" "$tmp/cmake.log"
check_run "CMake find_package(tilesim COMPONENTS gpu), tilesim::gpu" "$tmp/cmake/column-sums-crosscheck"

# 2. pkg-config against the install (prefix redefined to the staging directory: the .pc's CUDA -L is absolute).
pc() { PKG_CONFIG_PATH="$lib/pkgconfig" pkg-config --define-variable=prefix="$root" "$@"; }
cflags=$(pc --cflags tilesim-gpu) && libs=$(pc --libs tilesim-gpu) || fail "pkg-config --cflags --libs tilesim-gpu"
# shellcheck disable=SC2086  # the flags are words
"$nvcc" -std=c++20 -O3 -arch=sm_90 $cflags -I"$src" -c "$src/examples/user_program/column_sums_kernel.cu" \
  -o "$tmp/column_sums_kernel.o" >"$tmp/pc.log" 2>&1 || fail "nvcc column_sums_kernel.cu $cflags" "$tmp/pc.log"
# shellcheck disable=SC2086
c++ -std=c++20 -O2 -I"$src" "$src/examples/user_program/column_sums_crosscheck.cpp" "$tmp/column_sums_kernel.o" \
  $cflags $libs -Wl,-rpath,"$lib" -o "$tmp/column-sums-pc" >>"$tmp/pc.log" 2>&1 \
  || fail "c++ column_sums_crosscheck.cpp column_sums_kernel.o $cflags $libs" "$tmp/pc.log"
loaded=$(ldd "$tmp/column-sums-pc")  # whole, not piped into grep -q (pipefail would see ldd's SIGPIPE)
[[ $loaded == *"$lib/libtilesim_sim.so.0"* ]] || fail "column-sums-pc does not load the installed libtilesim_sim.so.0: $loaded"
check_run "pkg-config tilesim-gpu ($libs)" "$tmp/column-sums-pc"
