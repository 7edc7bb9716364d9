// tilesim/examples/lds_index_swap/lds_index_swap_variants.cpp: the cases and their runs (see the header).
#include "examples/lds_index_swap/lds_index_swap_variants.hpp"

#include "gpu/crosscheck/crosscheck.hpp"  // the points' type

namespace tilesim::examples {

namespace {

using programs::copy_lds_layout;

// The A tile of the essay: 128 x 32 fp16, KPack 8, read as the GEMM operand with R rows per lane group.
programs::copy_params a_tile(copy_lds_layout layout, ck_lds_order order, index_t lane_rows, index_t ck_banks,
                             programs::copy_read_order read = programs::copy_read_order::gemm_operand) {
  programs::copy_params p;
  p.rows = 128;
  p.cols = 32;
  p.vector = 8;
  p.layout = layout;
  p.read = read;
  p.lane_rows = lane_rows;
  p.pad = 0;  // padded: one vector (8 elements) per row
  p.ck_banks = ck_banks;
  p.ck_order = order;
  return p;
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
      {"sm90", "LDS.128 at ldmatrix rows", 16, 32}};
  std::vector<lds_index_swap_case> cases;
  for (const arch_choice& a : arches)
    for (const layout_choice& c : layouts)
      cases.push_back({std::string(c.name) + ", " + a.read, a.arch, a_tile(c.layout, c.order, a.lane_rows, a.banks), 256});
  // sm90 through ldmatrix.x4 itself (op_ldsm), its registers stored as mma.sync's A fragment.
  for (const layout_choice& c : layouts)
    cases.push_back({std::string(c.name) + ", ldmatrix.x4", "sm90",
                     a_tile(c.layout, c.order, 16, 32, programs::copy_read_order::ldmatrix_operand), 256});
  // gfx950 with the MLdsLayer a 32-bank policy derives (L = 2), both orders.
  cases.push_back({"ck-xor 2024 L=2, mfma read", "gfx950",
                   a_tile(copy_lds_layout::ck_xor, ck_lds_order::k0_l_2024, 32, 32), 256});
  cases.push_back({"ck-xor 2025 L=2, mfma read", "gfx950",
                   a_tile(copy_lds_layout::ck_xor, ck_lds_order::l_k0_2025, 32, 32), 256});
  return cases;
}

std::vector<variant> lds_index_swap_variants() { return copy_variants("lds-index-swap", lds_index_swap_cases()); }

std::vector<gpu::crosscheck_point> lds_index_swap_crosscheck_points() {
  return copy_crosscheck_points("lds-index-swap", lds_index_swap_cases());
}

}  // namespace tilesim::examples
