// tilesim/examples/adapters/adapters.cpp: THE registration list of the cross-check's catalogue programs
// (gpu/crosscheck/program_adapter.hpp), and every example case the cross-check runs (from registered_examples()).
//
// A new catalogue program is its kernel/<program>/ folder, its compiled kernel (gpu/kernels/programs/<program>.hpp and
// its TILESIM_CATALOGUE_KERNEL line in gpu/kernels/kernels.cu), its adapter header here (one program_adapter: its
// points, inputs, simulator run, output check, parameters' JSON, compiled shapes, device runner) and one line in
// registered_programs() below; no file of gpu/crosscheck/ changes (a point names its adapter and holds the
// parameters opaquely: crosscheck.hpp). The catalogue's built-in points come in this list's order, then the examples' (their
// one list is examples/catalogue.cpp's registered_examples()).
#include "examples/adapters/conv_f32.hpp"
#include "examples/adapters/copy_fp16.hpp"
#include "examples/adapters/copy_fp32.hpp"
#include "examples/adapters/gemm_fp32.hpp"
#include "examples/adapters/lds_sweep_u32.hpp"
#include "examples/adapters/mma_gemm_f16.hpp"
#include "examples/adapters/morton_f32.hpp"
#include "examples/adapters/transpose_f32.hpp"
#include "examples/catalogue.hpp"

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
  for (const examples::example_entry& e : examples::registered_examples())
    if (e.crosscheck_points)
      for (crosscheck_point& p : e.crosscheck_points()) v.push_back(std::move(p));
  return v;
}

}  // namespace tilesim::gpu
