// tilesim/examples/copy_case.hpp: one run of the copy program, the shape of the two LDS-layout examples.
//
// DEFINITION. lds_index_swap/ and cute_swizzle/ both show an LDS layout through the copy program
// (kernel/copy/copy.hpp: global -> LDS with 16-byte stores -> read back in a chosen pattern -> global),
// one workgroup per case. A copy_case is that: a name, an arch, the copy's parameters and the block size.
//   run_copy_case(c)    runs it in the simulator on c.arch's wave size and checks output == input
//   price_copy_case(c)  also prices it: the LDS store's and load's wavefronts (actual, ideal, worst N-way)
//
// WORKED EXAMPLE. {"ck-xor 2025, mfma read", "gfx942", <128 x 32 fp16, ck_xor, gemm_operand R 32>, 256}:
// run_copy_case gives passed, "output == input"; price_copy_case gives store 64 / 64 and load 64 / 64.
//
// INVARIANTS: the input is copy_input (element i = i, never the output's poison -1), so a missed element
// shows; the GPU cross-check launches the same params on copy_tile<std::uint16_t> (gpu/crosscheck).
#pragma once

#include <string>
#include <vector>

#include "examples/example.hpp"
#include "kernel/copy/copy.hpp"

namespace tilesim::examples {

struct copy_case {
  std::string name;              // "ck-xor 2025, mfma read"
  std::string arch;              // "gfx942" (sim::arch_named)
  programs::copy_params params;  // fp16 tile, layout, read order
  int block = 256;               // threads of the one workgroup
};

// Copies the case's fp16 tile on one workgroup; passed when every output element equals its input.
outcome run_copy_case(const copy_case& c);

// One variant per case of `example`, each running run_copy_case: copy_variants("cute-swizzle", cute_swizzle_cases()).
std::vector<variant> copy_variants(const std::string& example, const std::vector<copy_case>& cases);
// Each sm90 case of `example` as a cross-check point of the fp16 copy (examples/example_point.hpp).
std::vector<gpu::crosscheck_point> copy_crosscheck_points(const std::string& example, const std::vector<copy_case>& cases);

// LDS wavefronts of the copy's "lds store" and "lds load", summed over waves, and their worst phase.
struct copy_lds_cost {
  long long store = 0, store_ideal = 0, load = 0, load_ideal = 0;
  int store_ways = 0, load_ways = 0;
};

// Runs the case and prices it on its arch; moves the run into *keep when given.
copy_lds_cost price_copy_case(const copy_case& c, sim::run_result* keep = nullptr);

// The case named `name` on `arch` (std::out_of_range naming both when there is none).
const copy_case& find_copy_case(const std::vector<copy_case>& cases, const std::string& name, const std::string& arch);

}  // namespace tilesim::examples
