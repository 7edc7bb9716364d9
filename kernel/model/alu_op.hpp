// tilesim/kernel/model/alu_op.hpp: the classes of arithmetic a tile program states for the timing model.
//
// DEFINITION. A program's memory accesses are recorded as it runs; its arithmetic is not visible to the
// simulator, so the program states it: alu(ctx, alu_op::fma, 16) says "this thread now executes 16
// floating-point multiply-adds" (program.hpp). The timing model issues each stated instruction on the wave's
// scheduler at the rate its architecture table gives for the class (sim/arch: issue_timing::alu_cycles).
//
// WORKED EXAMPLE. A 4x4 register tile updated by one k step: alu(ctx, alu_op::fma, 16); on sm90 one warp
// instruction per clock each, so the warp's scheduler is busy 16 clocks; on gfx942 (wave64 on SIMD16) 64.
//
// INVARIANTS: the values index issue_timing::alu_cycles and alu_work (fma = 0, integer = 1, shuffle = 2,
// matrix = 3); programs state fma and integer work, the context's collectives their own shuffle and matrix work.
#pragma once

namespace tilesim {

enum class alu_op : int {
  fma = 0,      // floating-point arithmetic (FFMA, FADD, FMUL, v_fma_f32)
  integer = 1,  // index and address arithmetic, bit manipulation (IMAD, LOP3, SHF, v_add_u32)
  shuffle = 2,  // a warp shuffle (SHFL, ds_bpermute): stated by the context's shuffles themselves
  matrix = 3,   // warp-wide matrix work in units of 2048 multiply-adds (one mma.sync m16n8k16; an MFMA 16x16x16
                // is 2, 32x32x8 is 4): stated by the context's mma / mfma themselves
};
inline constexpr int alu_op_count = 4;

}  // namespace tilesim
