// tilesim/examples/lds_index_swap/lds_index_swap_variants.cpp: the cases and their runs (see the header).
#include "examples/lds_index_swap/lds_index_swap_variants.hpp"

#include <cstdint>

#include "sim/programs/copy_run.hpp"

namespace tilesim::examples {

namespace {

using programs::copy_lds_layout;

// The A tile of the essay: 128 x 32 fp16, KPack 8, read as the GEMM operand with R rows per lane group.
programs::copy_params a_tile(copy_lds_layout layout, ck_lds_order order, index_t lane_rows, index_t ck_banks) {
  programs::copy_params p;
  p.rows = 128;
  p.cols = 32;
  p.vector = 8;
  p.layout = layout;
  p.read = programs::copy_read_order::gemm_operand;
  p.lane_rows = lane_rows;
  p.pad = 0;  // padded: one vector (8 elements) per row
  p.ck_banks = ck_banks;
  p.ck_order = order;
  return p;
}

// Copies the case's tile once on one workgroup and compares the output with the input element by element.
outcome run_case(const lds_index_swap_case& c) {
  const sim::launch l = launch_on(c.arch, 1, c.block);
  const std::vector<std::uint16_t> input = programs::copy_input<std::uint16_t>(programs::copy_elements(l, c.params));
  outcome o;
  o.run = programs::run_copy<std::uint16_t>(l, c.params, input);
  const std::vector<std::uint16_t> out = o.run.memory.get<std::uint16_t>(1);
  for (std::size_t i = 0; i < input.size(); ++i)
    if (i >= out.size() || out[i] != input[i]) {
      o.check = "out[" + std::to_string(i) + "] = " + (i < out.size() ? std::to_string(out[i]) : "missing") +
                ", expected " + std::to_string(input[i]);
      return o;
    }
  o.passed = out.size() == input.size();
  o.check = o.passed ? "output == input" : "the output holds " + std::to_string(out.size()) + " elements";
  return o;
}

}  // namespace

std::vector<lds_index_swap_case> lds_index_swap_cases() {
  struct layout_choice {
    const char* name;
    copy_lds_layout layout;
    ck_lds_order order;
  };
  const layout_choice layouts[] = {
      {"row-major", copy_lds_layout::row_major, ck_lds_order::l_k0_2025},
      {"padded", copy_lds_layout::padded, ck_lds_order::l_k0_2025},
      {"ck-xor 2024", copy_lds_layout::ck_xor, ck_lds_order::k0_l_2024},
      {"ck-xor 2025", copy_lds_layout::ck_xor, ck_lds_order::l_k0_2025},
  };
  struct arch_choice {
    const char* arch;
    const char* read;
    index_t lane_rows;
    index_t banks;
  };
  const arch_choice arches[] = {
      {"gfx90a", "mfma read", 32, 32}, {"gfx942", "mfma read", 32, 32}, {"gfx950", "mfma read", 32, 64},
      {"sm90", "ldmatrix read", 16, 32}};
  std::vector<lds_index_swap_case> cases;
  for (const arch_choice& a : arches)
    for (const layout_choice& c : layouts)
      cases.push_back({std::string(c.name) + ", " + a.read, a.arch, a_tile(c.layout, c.order, a.lane_rows, a.banks), 256});
  // gfx950 with the MLdsLayer a 32-bank policy derives (L = 2), both orders.
  cases.push_back({"ck-xor 2024 L=2, mfma read", "gfx950",
                   a_tile(copy_lds_layout::ck_xor, ck_lds_order::k0_l_2024, 32, 32), 256});
  cases.push_back({"ck-xor 2025 L=2, mfma read", "gfx950",
                   a_tile(copy_lds_layout::ck_xor, ck_lds_order::l_k0_2025, 32, 32), 256});
  return cases;
}

std::vector<variant> lds_index_swap_variants() {
  std::vector<variant> out;
  for (const lds_index_swap_case& c : lds_index_swap_cases())
    out.push_back({"lds-index-swap", c.name, c.arch, [c] { return run_case(c); }});
  return out;
}

}  // namespace tilesim::examples
