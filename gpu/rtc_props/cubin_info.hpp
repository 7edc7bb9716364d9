// tilesim/gpu/rtc_props/cubin_info.hpp: a kernel's stack frame and registers read from its CUBIN, not from ptxas's log.
//
// DEFINITION. A CUBIN is an ELF file. Its ".nv.info" section is a list of attributes, each
//   u8 format, u8 attribute, u16 (format 0x04: the size of the bytes that follow; else a value or padding);
// the per-function ones (format 0x04, size 8) hold u32 symbol index (.symtab) and u32 value. Three are read:
//   0x2f REGCOUNT        registers per thread
//   0x11 FRAME_SIZE      bytes of stack frame (spills live in it)
//   0x12 MIN_STACK_SIZE  bytes of stack the function needs, callees included
// cubin_frame(cubin, name) finds the symbol `name` and its three values. compile_kernel falls back to it when ptxas's
// log has no "Function properties" for the kernel: on the H100/H200 (2026-11-27) NVRTC 13.0 returned an empty log
// for a few small kernels (seed 18, case 0: tilesim_props_80125a8f792eae45) that this machine's NVRTC logs.
//
// WORKED EXAMPLE (.nv.info of seed 18 case 0's H100 cubin, `readelf -x .nv.info`):
//   04 2f 0800 69020000 12000000   REGCOUNT       symbol 0x269 (tilesim_props_80125a8f792eae45): 18
//   04 11 0800 69020000 00000000   FRAME_SIZE     0
//   04 12 0800 69020000 00000000   MIN_STACK_SIZE 0
//   -> cubin_frame(cubin, "tilesim_props_80125a8f792eae45") == cubin_frame_info{18, 0, 0}
//
// INVARIANTS. nullopt for anything that is not a 64-bit little-endian ELF holding `name` and all three attributes
// (never a read outside the bytes given); for every kernel both exist, the values equal ptxas -v's (registers,
// stack frame) (rtc_sample.test.cpp checks this over generated kernels and a kernel with a 64-byte frame).
#pragma once

#include <optional>
#include <string>

namespace tilesim::gpu::props {

struct cubin_frame_info {
  int registers = 0;
  long long frame_bytes = 0;      // EIATTR_FRAME_SIZE
  long long min_stack_bytes = 0;  // EIATTR_MIN_STACK_SIZE
  bool operator==(const cubin_frame_info&) const = default;
};

// Kernel `name`'s registers, frame and stack size from the CUBIN's .nv.info; nullopt if any is missing.
std::optional<cubin_frame_info> cubin_frame(const std::string& cubin, const std::string& name);

}  // namespace tilesim::gpu::props
