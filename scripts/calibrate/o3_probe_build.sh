#!/usr/bin/env bash
# Builds the o3-probe variants against a configured build directory (default build-gpu, which has the
# crosscheck library): o3-probe-<variant> for
#   plain       today's device code at -O3 (no printf, __trap())
#   printf      + the rule report's printf on the device (TILESIM_DEVICE_RULE_TEXT)
#   asmtrap     + printf + the old trap: asm volatile("trap;") then __builtin_unreachable()
#   o1          asmtrap at NVVM -O1 (-Xcicc -O1), the old workaround
#   oldprog     the convolution program as it was at commit 9545463 (its encodings built inline in
#               conv_im2col from nested braced lists), with today's spec/ and gpu/, at -O3
#   oldprogvol  oldprog + the old asm volatile loads (gpu/runtime/vector_access.hpp at 8dad05f)
#   oldprogvoltrap  oldprogvol + printf + the old asm trap
# each with TILESIM_DEVICE_STRICT (every launch check on the device, as the old code had). The old files are
# taken from git into a shadow include directory that comes before the tree's.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-gpu}
nvcc=/usr/local/cuda/bin/nvcc
libs="$build/gpu/libtilesim_crosscheck.a $(find "$build/examples" -type f -name '*.a' | tr '\n' ' ') $build/sim/libtilesim_sim.a"
g++ -std=c++20 -O2 -I. -I/usr/include/eigen3 -c gpu/calibrate/o3-probe/main.cpp -o "$build/o3-probe-main.o"
variant() {
  local name=$1; shift
  "$nvcc" -std=c++20 -O3 -arch=sm_90 "$@" -I. -DTILESIM_DEVICE_STRICT -c gpu/calibrate/o3-probe/conv_runtime.cu \
    -o "$build/o3-probe-$name.o"
  g++ "$build/o3-probe-main.o" "$build/o3-probe-$name.o" $libs $libs -L/usr/local/cuda/lib64 -lcudart_static \
    -ldl -lrt -lpthread -o "$build/o3-probe-$name"
}
shadow=$build/o3-probe-shadow
mkdir -p "$shadow/old/examples/conv" "$shadow/vol/gpu"
git show 9545463:kernel/conv/conv.hpp > "$shadow/old/kernel/conv/conv.hpp"
git show 8dad05f:gpu/runtime/vector_access.hpp > "$shadow/vol/gpu/runtime/vector_access.hpp"
cat >> "$shadow/vol/gpu/runtime/vector_access.hpp" <<'CPP'
namespace tilesim::gpu {  // today's device_context calls reload_bytes: the old loads were all volatile anyway
template <int Bytes, memory_space Space>
__device__ __forceinline__ void reload_bytes(const void* p, std::uint32_t* r) { load_bytes<Bytes, Space>(p, r); }
}
CPP
old_trap='-DTILESIM_DEVICE_TRAP()=do { asm volatile("trap;"); __builtin_unreachable(); } while (0)'
variant plain
variant printf -DTILESIM_DEVICE_RULE_TEXT
variant asmtrap -DTILESIM_DEVICE_RULE_TEXT "$old_trap"
variant o1 -DTILESIM_DEVICE_RULE_TEXT "$old_trap" -Xcicc -O1
variant oldprog -I"$shadow/old"
variant oldprogvol -I"$shadow/old" -I"$shadow/vol"
variant oldprogvoltrap -I"$shadow/old" -I"$shadow/vol" -DTILESIM_DEVICE_RULE_TEXT "$old_trap"
ls -la "$build"/o3-probe-{plain,printf,asmtrap,o1,oldprog,oldprogvol,oldprogvoltrap}
