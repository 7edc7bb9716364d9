// tilesim/gpu/crosscheck/program_adapter.hpp: what the cross-check needs to know of one catalogue program.
//
// DEFINITION. A program_adapter is one catalogue program as the cross-check sees it: its name (the recordings'
// "program"), its kernel's name (what Nsight Compute lists), its own catalogue points, how fresh inputs are
// made, how the simulator runs it on the compiled shape, how an output is checked, its parameters' JSON form,
// whether a point's shape is compiled, how the GPU runs it, (when it is cheap) its LDS bytes without the
// simulator and (for a program with a run-time loop count) that count. The adapter alone knows its program's
// parameter type: a point names its adapter (crosscheck_point::program, the adapter's name) and holds the
// parameters opaquely (point_params.hpp), which the adapter reads back as its own type. crosscheck.cpp and
// points.cpp hold no per-program code: make_inputs, simulate, check_output, to_json, point_from_json and
// catalogue() look the point's adapter up (p.adapter()) and call it.
// Each adapter lives beside its program's other host code (examples/adapters/<program>.hpp) and is named once
// in the registration list (examples/adapters/adapters.cpp), which defines registered_programs() and
// registered_example_points(); this file only declares them, so gpu/ includes nothing above it.
//
// WORKED EXAMPLE.
//   const program_adapter& a = *adapter_named("copy_fp16");
//   a.kernel == std::string("copy_fp16_kernel")
//   crosscheck_point p = a.builtin_points()[0];        // "copy fp16 64x32 v8 row_major", grid 64
//   p.program == "copy_fp16";  &p.adapter() == &a;  p.params.as<programs::copy_params>().rows == 64
//   point_inputs in = make_inputs(p, 7);               // a.make_inputs fills buffers and the output's geometry
//
// INVARIANTS: registered_programs() holds each program once, under a name and a kernel no other has, in
// catalogue order (the built-in points of the first program come first); every point an adapter makes names
// that adapter and holds its parameter type; an adapter's functions are all set except lds_bytes (nullptr:
// the simulator says) and iterations / with_iterations (both nullptr: no run-time loop count); run_on_device
// throws device_error where the kernels are not linked (CPU-only builds).
#pragma once

#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "gpu/crosscheck/crosscheck.hpp"

namespace tilesim::gpu {

struct program_adapter {
  const char* name;    // "copy_fp16": the recordings' "program", crosscheck_point::program
  const char* kernel;  // "copy_fp16_kernel": the kernel template Nsight Compute names
  // The program's own points of the catalogue (an example's cases come from registered_example_points()).
  std::vector<crosscheck_point> (*builtin_points)();
  // Fills in.buffers (outputs poisoned) and the output's slot, rows and cols from g (seeded from in.seed).
  void (*make_inputs)(const crosscheck_point& p, std::mt19937_64& g, point_inputs& in);
  // Runs the program on the compiled shape of p on launch l over in; sets s.run and s.buffers.
  void (*simulate)(const crosscheck_point& p, const point_inputs& in, const sim::launch& l, simulated& s);
  // check_output (crosscheck.hpp) for this program.
  output_check (*check_output)(const crosscheck_point& p, const point_inputs& in, const std::vector<byte_buffer>& buffers,
                               const simulated* sim);
  // The point's "params" object, and back (throws json_error naming a missing or unknown field).
  void (*params_to_json)(const crosscheck_point& p, util::json_value& params);
  void (*params_from_json)(const util::json_value& params, crosscheck_point& p);
  // True when gpu/kernels/compiled_shapes.hpp holds the point's shape (the kernel the GPU runs exists).
  bool (*has_compiled_kernel)(const crosscheck_point& p);
  // Runs the point's kernel on the GPU (gpu/kernels/device_run.hpp).
  device_result (*run_on_device)(const crosscheck_point& p, const device_launch& l, std::vector<byte_buffer> buffers);
  // The point's LDS bytes from host descriptors alone, or nullptr (then: the simulator's).
  std::size_t (*lds_bytes)(const crosscheck_point& p);
  // A program with a run-time loop count (the LDS sweep's iterations: tilesim-gpu --sweep-iterations and the
  // zero-iteration baseline), else both nullptr: the point's count, and the point with count n, renamed to say
  // it ("lds_sweep u32 32x32 v4 padded x1024" -> "... x5").
  long long (*iterations)(const crosscheck_point& p);
  crosscheck_point (*with_iterations)(const crosscheck_point& p, long long n);
};

// Every catalogue program's adapter, in catalogue order (defined by the registration list).
const std::vector<const program_adapter*>& registered_programs();
// Every sm90 case of every example as a point, named "example NAME: CASE" (defined by the registration list).
std::vector<crosscheck_point> registered_example_points();

// The adapter whose name is `name`, or nullptr: adapter_named("gemm_fp32")->kernel == std::string("gemm_f32_kernel").
const program_adapter* adapter_named(const std::string& name);

}  // namespace tilesim::gpu
