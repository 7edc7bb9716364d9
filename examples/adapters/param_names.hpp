// tilesim/examples/adapters/param_names.hpp: the names the recordings give the programs' enum parameters.
//
// DEFINITION. name_of(e) is the text a recording's "params" holds for e; enum_named(text, all, what) reads it
// back from the list of every value, or throws json_error("unknown WHAT \"TEXT\"").
//
// WORKED EXAMPLE. name_of(copy_lds_layout::ck_xor) == "ck_xor";
//   enum_named("padded", {gemm_lds_layout::row_major, gemm_lds_layout::padded}, "layout") == gemm_lds_layout::padded
//
// INVARIANTS: enum_named(name_of(e), all, w) == e for every e in all (the names are distinct).
#pragma once

#include <cstddef>
#include <string>

#include "util/json.hpp"
#include "kernel/copy/copy.hpp"
#include "kernel/gemm_tile/gemm_tile.hpp"

namespace tilesim::examples::adapters {

inline const char* name_of(programs::copy_lds_layout l) {
  switch (l) {
    case programs::copy_lds_layout::row_major: return "row_major";
    case programs::copy_lds_layout::padded: return "padded";
    case programs::copy_lds_layout::ck_xor: return "ck_xor";
    case programs::copy_lds_layout::cute_swizzle: return "cute_swizzle";
  }
  return "?";
}
inline const char* name_of(programs::gemm_lds_layout l) {
  switch (l) {
    case programs::gemm_lds_layout::row_major: return "row_major";
    case programs::gemm_lds_layout::padded: return "padded";
    case programs::gemm_lds_layout::ck_xor: return "ck_xor";
  }
  return "?";
}
inline const char* name_of(programs::copy_read_order r) {
  switch (r) {
    case programs::copy_read_order::same_as_write: return "same_as_write";
    case programs::copy_read_order::lanes_down_rows: return "lanes_down_rows";
    case programs::copy_read_order::gemm_operand: return "gemm_operand";
    case programs::copy_read_order::ldmatrix_operand: return "ldmatrix_operand";
  }
  return "?";
}
inline const char* name_of(ck_lds_order o) { return o == ck_lds_order::k0_l_2024 ? "k0_l_2024" : "l_k0_2025"; }

template <class Enum, std::size_t N>
Enum enum_named(const std::string& s, const Enum (&all)[N], const char* what) {
  for (Enum e : all)
    if (s == name_of(e)) return e;
  throw util::json_error(std::string("unknown ") + what + " \"" + s + "\"");
}

// Every GEMM LDS layout, every CK order: the lists enum_named reads them from.
inline constexpr programs::gemm_lds_layout all_gemm_layouts[] = {
    programs::gemm_lds_layout::row_major, programs::gemm_lds_layout::padded, programs::gemm_lds_layout::ck_xor};
inline constexpr ck_lds_order all_ck_orders[] = {ck_lds_order::l_k0_2025, ck_lds_order::k0_l_2024};

}  // namespace tilesim::examples::adapters
