// tilesim/gpu/rtc_props/props_sim.hpp: a generated case's inputs, its simulator side and its output check.
//
// DEFINITION. For a props_case c and a seed:
//   make_case_inputs   slot 0: tensor_rows x tensor_cols elements of random bits (never all ones); slot 1: the
//                      output, every byte 0xFF (the poison a lost element keeps)
//   simulate_case      runs props_copy<T>(ctx, c) (the value form) on the simulator, sm90 (wave 32; gfx942 for
//                      the AMD check's wave 64), and totals
//                      what Nsight Compute counts (gpu/crosscheck's predicted_counters): LDS wavefronts and
//                      instructions, global sectors and instructions (ld, st), local 0; the median
//                      workgroup's predicted cycles; the run's findings (races, bounds, misaligned); and whether
//                      each output element was stored exactly once (a reduce: column 0 once, the rest never)
//   reference_output   the output the kind defines, computed on the host from the input alone: a copy's is the
//                      input; a stencil's element (r, c) of block b's tile is the wrapping sum over its offsets of
//                      tile((r + dr) mod rows, (c + dc) mod cols), the tile being the input with 0 in the pads;
//                      a reduce's is the poison with (row, 0) = the row's wrapping sum
//   check_case_output  output == reference_output, bit for bit, over the tensor (the kind's law); first mismatch named
// GPU and simulator outputs both go through check_case_output; the simulator's counters are read once
// (simulate_case), the GPU's from Nsight Compute.
//
// WORKED EXAMPLE.
//   case_inputs in = make_case_inputs(c, 7);
//   case_simulation s = simulate_case(c, in);
//   check_case_output(c, in, s.buffers[1]).mismatches == 0 && s.stores_per_element_ok
//
// INVARIANTS: inputs depend only on (c's tensor shape, element size, seed); the counters do not depend on the
// data (addresses are data-independent), so a recording replays from the case alone.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <string>
#include <vector>

#include "gpu/crosscheck/crosscheck.hpp"
#include "gpu/rtc_props/props_case.hpp"
#include "sim/arch/arch.hpp"

namespace tilesim::gpu::props {

struct case_inputs {
  std::uint64_t seed = 0;
  std::vector<byte_buffer> buffers;  // [input, output]
};

case_inputs make_case_inputs(const props_case& c, std::uint64_t seed);

struct case_simulation {
  counters predicted;
  double cycles_per_workgroup = 0;
  std::size_t lds_bytes = 0;
  std::vector<byte_buffer> buffers;  // both slots after the run
  bool clean = false;                // no race, bounds error, misaligned access or barrier mismatch
  std::string findings;              // "" or "2 races, 1 misaligned"
  bool stores_per_element_ok = false;  // every tensor element stored exactly once
  std::string stores_note;             // the first element that was not, when one was not
  std::map<std::pair<int, int>, int> lds_per_wave;  // (0 load / 1 store, bytes) -> LDS instructions of one wave
  bool lds_uniform = true;                           // every wave issues those same LDS instructions
};

// The architecture c is simulated on: gfx942 for a wave of 64, else sm90 (props_arch(c).name == "sm90").
const sim::arch_table& props_arch(const props_case& c);

// Runs c on the simulator over `in`; throws sim::run_error / spec_error when the program cannot run.
case_simulation simulate_case(const props_case& c, const case_inputs& in);

struct case_check {
  long long compared = 0, mismatches = 0;
  std::string first_mismatch;  // "(row 3, col 7): expected 0x1234, got 0xffff"
};

// The output c must produce over `in` (see above), as bytes of the output slot.
byte_buffer reference_output(const props_case& c, const case_inputs& in);

case_check check_case_output(const props_case& c, const case_inputs& in, const byte_buffer& output);

// The LDS bytes the program allocates (one tile in c's layout, two for a double-buffered loop): what a launch's dynamic shared memory must hold.
std::size_t lds_bytes_of(const props_case& c);

// The product of the reader's R lengths: how many threads store each element.
index_t reader_replication(const props_case& c);

}  // namespace tilesim::gpu::props
