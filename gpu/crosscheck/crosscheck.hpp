// tilesim/gpu/crosscheck/crosscheck.hpp: one program, one parameter point, run twice: simulator and GPU.
//
// DEFINITION. A crosscheck_point is a built-in program (copy of fp16 or fp32, fp32 GEMM, the LDS-bound
// 32-bit sweep) or a reference program of examples/ (every sm90 case of every example: LDS index swapping and
// CuTe swizzle run the fp16 copy, the 32x32x8 GEMM runs gemm_tile, the matrix-core GEMM mma_gemm (ldmatrix +
// mma.sync), Morton reads and convolutions their own programs) with its parameters and launch. For a point and a seed:
//   make_inputs    fresh random inputs (replayable from the seed) and outputs poisoned (fp16 0xFFFF, fp32
//                  -1.0 for copies, NaN for GEMM's C; random copy data never holds the poison)
//   simulate       runs the program on the simulator for sm90 (wave 32) and totals what Nsight Compute
//                  counts: LDS wavefronts and instructions (ld, st), global sectors and instructions (ld,
//                  st), and the slowest workgroup's predicted cycles
//   check_output   compares an output (GPU or simulator) with the truth: bit for bit against the input for
//                  copies and Morton reads (the input read back through its layout); for GEMM and
//                  convolution (examples/conv's check) against C = A * B^T computed by Eigen in double, per element within
//                  k * 2^-23 * sum_k |a_ik * b_jk| (twice the classic recursive-summation bound, any order,
//                  FMA or not); the first mismatch names block, thread, coordinate and both values
//
// WORKED EXAMPLE.
//   crosscheck_point p = catalogue()[0];               // copy fp16 64x32 v8, row_major LDS, grid 64
//   point_inputs in = make_inputs(p, 7);
//   simulated s = simulate(p, in);
//   s.predicted.lds_wavefronts_ld == 512               // 64 blocks x 8 warps x 1 LDS.128 at 8-way... (see tests)
//   check_output(p, in, s.buffers, &s).mismatches == 0
//
// The point names its program by its adapter's name (`program`) and holds the program's parameters opaquely
// (`params`, point_params.hpp): what is a program's own (its parameter type, its inputs, its simulator run, its
// check, its parameters' JSON) only its adapter knows (program_adapter.hpp; one per program, registered in
// examples/adapters/adapters.cpp); these functions look the point's adapter up (p.adapter()) and call it, so
// this file names no program.
//
// INVARIANTS: the simulator's counters do not depend on the data (these programs' addresses are
// data-independent), so a recording's counters replay from the point alone; inputs depend only on
// (point, seed).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu/crosscheck/counters.hpp"
#include "gpu/crosscheck/point_params.hpp"
#include "util/json.hpp"
#include "gpu/kernels/device_run.hpp"
#include "sim/engine/run_result.hpp"
#include "sim/report/program_report.hpp"

namespace tilesim::gpu {

struct program_adapter;

struct crosscheck_point {
  std::string name;     // "copy fp16 64x32 v8 ck_xor"
  std::string program;  // "copy_fp16": its adapter's name (program_adapter.hpp), the recordings' "program"
  point_params params;  // the program's parameters (programs::copy_params for the copies); only its adapter reads them
  std::string example;  // examples/' example name ("lds-index-swap") for a reference program's case, else ""
  int grid = 1, block = 256, wave_size = 32;

  // The adapter registered under `program`; std::logic_error naming the point when there is none.
  const program_adapter& adapter() const;
};

// Every built-in program at several parameter points (LDS layouts, tile shapes, element types), then every
// sm90 case of every example (named "example NAME: CASE").
std::vector<crosscheck_point> catalogue();

util::json_value to_json(const crosscheck_point& p);
// The point a recording describes; throws util::json_error naming a missing or unknown field. An example's case is
// found by name in catalogue() (its parameters live in examples/); one that is gone is a util::json_error.
crosscheck_point point_from_json(const util::json_value& v);

struct point_inputs {
  std::uint64_t seed = 0;
  std::vector<byte_buffer> buffers;  // global slots as the program's params number them
  int output_slot = 0;
  index_t output_rows = 0, output_cols = 0;
};

// Fresh inputs for `p` from `seed`, outputs poisoned.
point_inputs make_inputs(const crosscheck_point& p, std::uint64_t seed);

struct simulated {
  sim::run_result run;
  sim::program_report report;
  counters predicted;
  double cycles_per_workgroup = 0;
  std::size_t lds_bytes = 0;
  std::vector<byte_buffer> buffers;  // every slot after the run
};

// Runs `p` on the simulator (sm90 tables) over `in`; throws sim::run_error / std::invalid_argument.
simulated simulate(const crosscheck_point& p, const point_inputs& in);

struct output_check {
  std::string method;              // "bit-exact" or "|c - fp64| <= k * 2^-23 * sum|a*b|"
  long long compared = 0, mismatches = 0;
  double max_error = 0;            // GEMM: the largest |c - fp64| / bound (<= 1 passes); copies: 0
  std::string first_mismatch;      // "block 3 thread 70 (row 197, col 8): expected 0x1234, got 0xffff"
};
util::json_value to_json(const output_check& c);

// Compares the output slot of `buffers` with the truth for `in`; `sim` (when given) names the writing thread.
output_check check_output(const crosscheck_point& p, const point_inputs& in, const std::vector<byte_buffer>& buffers,
                          const simulated* sim);

}  // namespace tilesim::gpu
