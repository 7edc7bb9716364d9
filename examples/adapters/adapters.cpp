// tilesim/examples/adapters/adapters.cpp: THE registration list of the cross-check's catalogue programs
// (gpu/crosscheck/program_adapter.hpp), and every example case the cross-check runs.
//
// A new catalogue program is its kernel/<program>/ folder, its adapter header here (one program_adapter: its
// points, inputs, simulator run, output check, parameters' JSON, compiled shapes, device runner) and one line in
// registered_programs() below. The catalogue's built-in points come in this list's order, then the examples'.
#include "examples/adapters/conv_f32.hpp"
#include "examples/adapters/copy_fp16.hpp"
#include "examples/adapters/copy_fp32.hpp"
#include "examples/adapters/gemm_fp32.hpp"
#include "examples/adapters/lds_sweep_u32.hpp"
#include "examples/adapters/mma_gemm_f16.hpp"
#include "examples/adapters/morton_f32.hpp"
#include "examples/adapters/transpose_f32.hpp"
#include "examples/cute_swizzle/cute_swizzle_variants.hpp"
#include "examples/lds_index_swap/lds_index_swap_variants.hpp"
#include "examples/synthesized/synthesized_variants.hpp"
#include "kernel/gemm_tile/gemm_reference.hpp"
#include "kernel/mma_gemm/mma_gemm_reference.hpp"
#include "sim/arch/arch.hpp"

namespace tilesim::gpu {

const std::vector<const program_adapter*>& registered_programs() {
  using namespace examples::adapters;
  static const std::vector<const program_adapter*> all = {
      &copy_fp16_program, &copy_fp32_program,   &gemm_fp32_program,    &lds_sweep_u32_program,
      &transpose_f32_program, &morton_f32_program, &conv_f32_program, &mma_gemm_f16_program,
  };
  return all;
}

std::vector<crosscheck_point> registered_example_points() {
  std::vector<crosscheck_point> v;
  auto add = [&v](program_kind kind, const std::string& example, const std::string& name, int grid, int block) {
    crosscheck_point p;
    p.program = kind;
    p.example = example;
    p.name = "example " + example + ": " + name;
    p.grid = grid;
    p.block = block;
    p.wave_size = sim::arch_named("sm90").wave_size;
    v.push_back(p);
    return &v.back();
  };
  for (const examples::lds_index_swap_case& c : examples::lds_index_swap_cases())
    if (c.arch == "sm90") add(program_kind::copy_fp16, "lds-index-swap", c.name, 1, c.block)->copy = c.params;
  for (const examples::cute_swizzle_case& c : examples::cute_swizzle_cases())
    if (c.arch == "sm90") add(program_kind::copy_fp16, "cute-swizzle", c.name, 1, c.block)->copy = c.params;
  for (const examples::morton_case& c : examples::morton_cases())
    if (c.arch == "sm90") add(program_kind::morton_f32, "morton", c.name, c.grid, c.block)->morton = c.params;
  for (const examples::gemm_case& c : examples::gemm_cases())
    if (c.arch == "sm90")
      add(program_kind::gemm_fp32, "gemm", c.name, programs::gemm_workgroups(c.params), c.block)->gemm = c.params;
  for (const examples::mma_gemm_case& c : examples::mma_gemm_cases())
    if (c.arch == "sm90")
      add(program_kind::mma_gemm_f16, "gemm", c.name, programs::mma_gemm_workgroups(c.params), c.block)->mma_gemm = c.params;
  for (const examples::conv_case& c : examples::conv_cases())
    if (c.arch == "sm90") add(program_kind::conv_f32, "conv", c.name, c.grid, c.block)->conv = c.params;
  for (const examples::copy_case& c : examples::synthesized_cases())
    if (c.arch == "sm90") add(program_kind::copy_fp16, "synthesized", c.name, 1, c.block)->copy = c.params;
  return v;
}

}  // namespace tilesim::gpu
