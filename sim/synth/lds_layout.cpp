// tilesim/sim/synth/lds_layout.cpp: evaluation and the three spellings of a synthesized layout (see the header).
#include "sim/synth/lds_layout.hpp"

#include <bit>
#include <cstdint>
#include <sstream>
#include <stdexcept>

#include "spec/layouts/cute_swizzle.hpp"
#include "spec/layouts/row_major.hpp"
#include "spec/transforms/swizzle.hpp"

namespace tilesim::synth {
namespace {

int log2_exact(index_t v) {
  int k = 0;
  while ((index_t{1} << k) < v) ++k;
  return (index_t{1} << k) == v ? k : -1;
}

std::string cute_term(const swizzle_term& t) {
  return "Swizzle<" + std::to_string(t.bits) + "," + std::to_string(t.base) + "," + std::to_string(t.shift) + ">";
}

// "{9,16,32}"
std::string brace_list(const std::vector<index_t>& v) {
  std::string s = "{";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "}";
}

// The spec/ parameter blocks of the two realised families (too many bits: spec_error from their check).
gf2_matrix matrix_of(const lds_layout& l) {
  gf2_matrix m;
  if (l.gf2_columns.size() > static_cast<std::size_t>(gf2_max_bits))
    throw std::invalid_argument(l.name() + ": more than " + std::to_string(gf2_max_bits) + " columns");
  m.n = static_cast<int>(l.gf2_columns.size());
  for (int j = 0; j < m.n; ++j) m.col[j] = l.gf2_columns[static_cast<std::size_t>(j)];
  return m;
}
row_xor_keys keys_of(const lds_layout& l) {
  row_xor_keys k;
  if (l.row_keys.size() > static_cast<std::size_t>(padded_xor_max_keys))
    throw std::invalid_argument(l.name() + ": more than " + std::to_string(padded_xor_max_keys) + " row keys");
  k.n = static_cast<int>(l.row_keys.size());
  for (int i = 0; i < k.n; ++i) k.key[i] = l.row_keys[static_cast<std::size_t>(i)];
  return k;
}

std::string order_name(ck_lds_order o) { return o == ck_lds_order::k0_l_2024 ? "2024" : "2025"; }

// Evaluates descriptor d at every (r, c) of l's tile.
template <class D>
std::vector<index_t> evaluate(const D& d, const lds_layout& l) {
  std::vector<index_t> out(static_cast<std::size_t>(l.rows * l.cols));
  for (index_t r = 0; r < l.rows; ++r)
    for (index_t c = 0; c < l.cols; ++c) out[static_cast<std::size_t>(r * l.cols + c)] = d.calculate_offset({r, c});
  return out;
}

// The five fields of one term on the flat offset: (hi, YYY, mid, ZZZ, lo), most significant first.
multi_index<5> term_fields(const swizzle_term& t, index_t n) {
  const index_t y = index_t{1} << t.bits;
  return {n >> (t.base + t.shift + t.bits), y, index_t{1} << (t.shift - t.bits), y, index_t{1} << t.base};
}

// spec/ chain of swizzle steps on the flat offset, terms [i, end), then the (rows, cols) unmerge on top.
template <int K, class D>
std::vector<index_t> swizzle_chain(const D& d, const lds_layout& l, std::size_t i) {
  if constexpr (K == 0) {
    return evaluate(transform_descriptor(d, step(make_unmerge<2>({l.rows, l.cols}), {0}, {0, 1})), l);
  } else {
    const swizzle_term& t = l.terms[i];
    auto next = transform_descriptor(d, step(make_swizzle(t.bits, t.base, t.shift, l.rows * l.cols), {0}, {0}));
    return swizzle_chain<K - 1>(next, l, i + 1);
  }
}

// spec/'s mirror of the CK Tile code: per term unmerge into fields, xor (YYY, ZZZ), merge back.
template <int K, class D>
std::vector<index_t> ck_chain(const D& d, const lds_layout& l, std::size_t i) {
  if constexpr (K == 0) {
    return evaluate(transform_descriptor(d, step(make_unmerge<2>({l.rows, l.cols}), {0}, {0, 1})), l);
  } else {
    const multi_index<5> f = term_fields(l.terms[i], l.rows * l.cols);
    auto split = transform_descriptor(d, step(make_unmerge<5>(f), {0}, {0, 1, 2, 3, 4}));
    auto xored = transform_descriptor(split, step(make_pass_through(f[0]), {0}, {0}), step(make_xor(f[1], f[3]), {1, 3}, {1, 3}),
                                      step(make_pass_through(f[2]), {2}, {2}), step(make_pass_through(f[4]), {4}, {4}));
    auto merged = transform_descriptor(xored, step(make_merge<5>(f), {0, 1, 2, 3, 4}, {0}));
    return ck_chain<K - 1>(merged, l, i + 1);
  }
}

// The swizzle chain (ck false) or the CK mirror (ck true) for 1..8 terms; more terms have no spelling here.
std::vector<index_t> dispatch_terms(const lds_layout& l, bool ck) {
  const auto flat = make_naive_descriptor_packed<1>({l.rows * l.cols}, l.rows * l.cols);
  switch (l.terms.size()) {
    case 1: return ck ? ck_chain<1>(flat, l, 0) : swizzle_chain<1>(flat, l, 0);
    case 2: return ck ? ck_chain<2>(flat, l, 0) : swizzle_chain<2>(flat, l, 0);
    case 3: return ck ? ck_chain<3>(flat, l, 0) : swizzle_chain<3>(flat, l, 0);
    case 4: return ck ? ck_chain<4>(flat, l, 0) : swizzle_chain<4>(flat, l, 0);
    case 5: return ck ? ck_chain<5>(flat, l, 0) : swizzle_chain<5>(flat, l, 0);
    case 6: return ck ? ck_chain<6>(flat, l, 0) : swizzle_chain<6>(flat, l, 0);
    case 7: return ck ? ck_chain<7>(flat, l, 0) : swizzle_chain<7>(flat, l, 0);
    case 8: return ck ? ck_chain<8>(flat, l, 0) : swizzle_chain<8>(flat, l, 0);
    default: break;
  }
  throw std::invalid_argument("a layout of " + std::to_string(l.terms.size()) +
                              " XOR terms has no descriptor spelling (1 to " + std::to_string(max_spelled_terms) + " terms)");
}

std::string num(index_t v) { return "number<" + std::to_string(v) + ">{}"; }

std::string numbers(const multi_index<5>& f) {
  std::string s;
  for (int i = 0; i < 5; ++i) s += (i ? ", " : "") + num(f[i]);
  return s;
}

// The CuTe term equal to a ck layout in the 2025 order (see the header), when the tile has its bits.
std::optional<swizzle_term> ck_as_cute(const lds_layout& l) {
  if (l.ck.order != ck_lds_order::l_k0_2025 || l.ck.check()) return std::nullopt;
  const index_t L = l.ck.layers(), K0 = l.ck.k0();
  const int s = log2_exact(K0 * L), m = log2_exact(l.ck.k_pack), rows_bits = log2_exact(l.rows / L);
  if (s < 0 || m < 0 || rows_bits < 0) return std::nullopt;
  return swizzle_term{s < rows_bits ? s : rows_bits, m, s};
}

}  // namespace

std::string family_name(layout_family f) {
  switch (f) {
    case layout_family::row_major: return "row-major";
    case layout_family::padded: return "padded";
    case layout_family::cute: return "cute";
    case layout_family::xor_linear: return "xor";
    case layout_family::ck: return "ck";
    case layout_family::gf2: return "gf2";
    case layout_family::padded_xor: return "padded-xor";
  }
  return "?";
}

std::string lds_layout::name() const {
  switch (family) {
    case layout_family::row_major: return "row-major";
    case layout_family::padded: return "padded +" + std::to_string(pad);
    case layout_family::cute: return terms.empty() ? "row-major" : cute_term(terms[0]);
    case layout_family::xor_linear: {
      std::string s = "xor";
      for (std::size_t i = 0; i < terms.size(); ++i) s += (i ? " * " : " ") + cute_term(terms[i]);
      return s;
    }
    case layout_family::ck:
      return "ck-xor " + order_name(ck.order) + " KPack " + std::to_string(ck.k_pack) + " L " +
             std::to_string(ck.layers());
    case layout_family::gf2: return "gf2 keep " + std::to_string(keep_bits) + " " + brace_list(gf2_columns);
    case layout_family::padded_xor:
      return "padded-xor +" + std::to_string(pad) + " keys " + brace_list(row_keys) + " on " +
             std::to_string(index_t{1} << keep_bits) + "-element chunks";
  }
  return "?";
}

index_t lds_layout::element_space() const {
  return rows * (cols + (family == layout_family::padded || family == layout_family::padded_xor ? pad : 0));
}

int lds_layout::xor_bits() const {
  int n = 0;
  if (family == layout_family::cute || family == layout_family::xor_linear)
    for (const swizzle_term& t : terms) n += t.bits;
  if (family == layout_family::ck) n = log2_exact(ck.k0() * ck.layers());
  if (family == layout_family::gf2)
    for (std::size_t j = 0; j < gf2_columns.size(); ++j) n += std::popcount(static_cast<std::uint64_t>(gf2_columns[j] ^ (index_t{1} << j)));
  if (family == layout_family::padded_xor)
    for (index_t k : row_keys) n += std::popcount(static_cast<std::uint64_t>(k));
  return n;
}

std::vector<index_t> layout_offsets(const lds_layout& l) {
  std::vector<index_t> out(static_cast<std::size_t>(l.rows * l.cols));
  const index_t n = l.rows * l.cols;
  for (const swizzle_term& t : l.terms) require(make_swizzle(t.bits, t.base, t.shift, n).check());
  if (l.family == layout_family::ck) require(l.ck.check());
  gf2_linear g{};
  row_linear_xor x{};
  if (l.family == layout_family::gf2) g = make_gf2_linear(n, l.keep_bits, matrix_of(l));
  if (l.family == layout_family::padded_xor) {
    require(broken_unless(l.pad >= 0, rule::pad_negative, "padded_xor", {"pad", l.pad}));
    x = make_row_linear_xor(l.rows, l.cols, l.keep_bits, keys_of(l));
  }
  for (index_t r = 0; r < l.rows; ++r)
    for (index_t c = 0; c < l.cols; ++c) {
      index_t o = r * l.cols + c;
      switch (l.family) {
        case layout_family::row_major: break;
        case layout_family::padded: o = r * (l.cols + l.pad) + c; break;
        case layout_family::cute:
        case layout_family::xor_linear:
          for (const swizzle_term& t : l.terms) o = swizzle_offset(t.bits, t.base, t.shift, o);
          break;
        case layout_family::ck: {
          const index_t L = l.ck.layers(), K0 = l.ck.k0(), KP = l.ck.k_pack;
          const index_t mp = r / L, li = r % L, k0 = c / KP, kp = c % KP;
          const index_t s = l.ck.order == ck_lds_order::k0_l_2024 ? k0 * L + li : li * K0 + k0;
          o = (s ^ (mp % (K0 * L))) * KP + mp * (l.cols * L) + kp;
          break;
        }
        case layout_family::gf2: {
          const index_t low = o & ((index_t{1} << l.keep_bits) - 1);
          o = (gf2_apply(g.map, o >> l.keep_bits) << l.keep_bits) | low;
          break;
        }
        case layout_family::padded_xor: o = r * (l.cols + l.pad) + (c ^ x.mask(r)); break;
      }
      out[static_cast<std::size_t>(r * l.cols + c)] = o;
    }
  return out;
}

std::vector<index_t> descriptor_offsets(const lds_layout& l) {
  switch (l.family) {
    case layout_family::row_major: return evaluate(make_row_major_descriptor(l.rows, l.cols), l);
    case layout_family::padded: return evaluate(make_row_major_descriptor(l.rows, l.cols, l.pad), l);
    case layout_family::ck: return evaluate(make_ck_lds_xor_descriptor(l.ck), l);
    case layout_family::cute:
      if (l.terms.size() == 1) {
        const swizzle_term& t = l.terms[0];
        return evaluate(make_cute_swizzle_descriptor(t.bits, t.base, t.shift, l.rows, l.cols), l);
      }
      [[fallthrough]];
    case layout_family::xor_linear: return dispatch_terms(l, false);
    case layout_family::gf2: return evaluate(make_gf2_linear_descriptor(l.rows, l.cols, l.keep_bits, matrix_of(l)), l);
    case layout_family::padded_xor:
      return evaluate(make_padded_xor_descriptor(l.rows, l.cols, l.pad, l.keep_bits, keys_of(l)), l);
  }
  return {};
}

bool has_ck_spelling(const lds_layout& l) {
  return l.family != layout_family::gf2 && l.family != layout_family::padded_xor;
}

std::vector<index_t> ck_mirror_offsets(const lds_layout& l) {
  switch (l.family) {
    case layout_family::row_major:
    case layout_family::padded:
      return evaluate(make_naive_descriptor<2>({l.rows, l.cols}, {l.cols + l.pad, 1}), l);
    case layout_family::ck: return evaluate(make_ck_lds_xor_descriptor(l.ck), l);
    case layout_family::cute:
    case layout_family::xor_linear: return dispatch_terms(l, true);
    case layout_family::gf2:
    case layout_family::padded_xor: break;
  }
  throw std::invalid_argument(l.name() + " has no CK Tile spelling (no CK transform is a general GF(2) map or a row-linear XOR)");
}

std::optional<std::vector<index_t>> cute_offsets(const lds_layout& l) {
  std::vector<swizzle_term> terms;
  if (l.family == layout_family::row_major) {
  } else if (l.family == layout_family::cute) {
    terms = l.terms;
  } else if (l.family == layout_family::ck) {
    const auto t = ck_as_cute(l);
    if (!t) return std::nullopt;
    terms = {*t};
  } else {
    return std::nullopt;
  }
  std::vector<index_t> out(static_cast<std::size_t>(l.rows * l.cols));
  for (index_t a = 0; a < l.rows * l.cols; ++a) {
    index_t o = a;
    for (const swizzle_term& t : terms) o = swizzle_offset(t.bits, t.base, t.shift, o);
    out[static_cast<std::size_t>(a)] = o;
  }
  return out;
}

std::string spec_spelling(const lds_layout& l) {
  std::ostringstream s;
  const index_t n = l.rows * l.cols;
  switch (l.family) {
    case layout_family::row_major:
      s << "auto lds = make_row_major_descriptor(" << l.rows << ", " << l.cols << ");";
      break;
    case layout_family::padded:
      s << "auto lds = make_row_major_descriptor(" << l.rows << ", " << l.cols << ", " << l.pad << ");";
      break;
    case layout_family::ck:
      s << "auto lds = make_ck_lds_xor_descriptor({.m_per_block = " << l.ck.m_per_block << ", .k_per_block = "
        << l.ck.k_per_block << ", .k_pack = " << l.ck.k_pack << ", .element_bytes = " << l.ck.element_bytes
        << ", .m_lds_layer = " << l.ck.layers() << ", .banks = " << l.ck.banks << ", .order = ck_lds_order::"
        << (l.ck.order == ck_lds_order::k0_l_2024 ? "k0_l_2024" : "l_k0_2025") << "});";
      break;
    case layout_family::cute:
      if (l.terms.size() == 1) {
        const swizzle_term& t = l.terms[0];
        s << "auto lds = make_cute_swizzle_descriptor(" << t.bits << ", " << t.base << ", " << t.shift << ", " << l.rows
          << ", " << l.cols << ");";
        break;
      }
      [[fallthrough]];
    case layout_family::xor_linear: {
      s << "auto d0 = make_naive_descriptor_packed<1>({" << n << "}, " << n << ");\n";
      for (std::size_t i = 0; i < l.terms.size(); ++i) {
        const swizzle_term& t = l.terms[i];
        s << "auto d" << i + 1 << " = transform_descriptor(d" << i << ", step(make_swizzle(" << t.bits << ", " << t.base
          << ", " << t.shift << ", " << n << "), {0}, {0}));\n";
      }
      s << "auto lds = transform_descriptor(d" << l.terms.size() << ", step(make_unmerge<2>({" << l.rows << ", "
        << l.cols << "}), {0}, {0, 1}));";
      break;
    }
    case layout_family::gf2: {
      std::string cols = brace_list(l.gf2_columns);
      for (std::size_t i = 1; i < cols.size(); ++i)
        if (cols[i - 1] == ',') cols.insert(i, " ");
      s << "// offset bits [" << l.keep_bits << ", " << l.keep_bits + static_cast<int>(l.gf2_columns.size())
        << ") through A; column j = the image of bit " << l.keep_bits << " + j\n"
        << "auto lds = make_gf2_linear_descriptor(" << l.rows << ", " << l.cols << ", " << l.keep_bits << ", gf2_matrix{"
        << l.gf2_columns.size() << ", " << cols << "});";
      break;
    }
    case layout_family::padded_xor: {
      std::string keys = brace_list(l.row_keys);
      for (std::size_t i = 1; i < keys.size(); ++i)
        if (keys[i - 1] == ',') keys.insert(i, " ");
      s << "auto lds = make_padded_xor_descriptor(" << l.rows << ", " << l.cols << ", " << l.pad << ", " << l.keep_bits
        << ", row_xor_keys{" << l.row_keys.size() << ", " << keys << "});";
      break;
    }
  }
  return s.str();
}

std::string ck_spelling(const lds_layout& l) {
  std::ostringstream s;
  const index_t n = l.rows * l.cols;
  switch (l.family) {
    case layout_family::row_major:
    case layout_family::padded:
      s << "constexpr auto lds_desc = make_naive_tensor_descriptor(make_tuple(" << num(l.rows) << ", " << num(l.cols)
        << "), make_tuple(" << num(l.cols + l.pad) << ", number<1>{}));";
      break;
    case layout_family::ck: {
      const index_t L = l.ck.layers(), K0 = l.ck.k0(), KP = l.ck.k_pack, M = l.ck.m_per_block;
      const bool o24 = l.ck.order == ck_lds_order::k0_l_2024;
      s << "// MPerBlock " << M << ", KPerBlock " << l.ck.k_per_block << ", KPack " << KP << ", MLdsLayer " << L
        << ", " << order_name(l.ck.order) << " unmerge order\n"
        << "constexpr auto d0 = make_naive_tensor_descriptor(make_tuple(" << num(K0 * L) << ", " << num(M / L) << ", "
        << num(KP) << "), make_tuple(" << num(KP) << ", " << num(l.ck.k_per_block * L) << ", number<1>{}), " << num(KP)
        << ", number<1>{});\n"
        << "constexpr auto d1 = transform_tensor_descriptor(d0,\n"
        << "    make_tuple(make_xor_transform(make_tuple(" << num(M / L) << ", " << num(K0 * L)
        << ")), make_pass_through_transform(" << num(KP) << ")),\n"
        << "    make_tuple(sequence<1, 0>{}, sequence<2>{}), make_tuple(sequence<1, 0>{}, sequence<2>{}));\n"
        << "constexpr auto d2 = transform_tensor_descriptor(d1,\n"
        << "    make_tuple(make_unmerge_transform(make_tuple(" << (o24 ? num(K0) + ", " + num(L) : num(L) + ", " + num(K0))
        << ")), make_pass_through_transform(" << num(M / L) << "), make_pass_through_transform(" << num(KP) << ")),\n"
        << "    make_tuple(sequence<0>{}, sequence<1>{}, sequence<2>{}),\n"
        << "    make_tuple(sequence<" << (o24 ? "2, 0" : "0, 2") << ">{}, sequence<1>{}, sequence<3>{}));\n"
        << "constexpr auto lds_desc = transform_tensor_descriptor(d2,\n"
        << "    make_tuple(make_merge_transform(make_tuple(" << num(M / L) << ", " << num(L)
        << ")), make_merge_transform(make_tuple(" << num(K0) << ", " << num(KP) << "))),\n"
        << "    make_tuple(sequence<1, 0>{}, sequence<2, 3>{}), make_tuple(sequence<0>{}, sequence<1>{}));";
      break;
    }
    case layout_family::cute:
    case layout_family::xor_linear: {
      s << "constexpr auto d0 = make_naive_tensor_descriptor_packed(make_tuple(" << num(n) << "));\n";
      int d = 0;
      for (const swizzle_term& t : l.terms) {
        const multi_index<5> f = term_fields(t, n);
        s << "// " << cute_term(t) << ": offset bits [" << t.base + t.shift << ", " << t.base + t.shift + t.bits
          << ") XOR-ed into [" << t.base << ", " << t.base + t.bits << ")\n"
          << "constexpr auto d" << d + 1 << " = transform_tensor_descriptor(d" << d
          << ", make_tuple(make_unmerge_transform(make_tuple(" << numbers(f)
          << "))),\n    make_tuple(sequence<0>{}), make_tuple(sequence<0, 1, 2, 3, 4>{}));\n"
          << "constexpr auto d" << d + 2 << " = transform_tensor_descriptor(d" << d + 1
          << ",\n    make_tuple(make_pass_through_transform(" << num(f[0]) << "), make_xor_transform(make_tuple("
          << num(f[1]) << ", " << num(f[3]) << ")),\n               make_pass_through_transform(" << num(f[2])
          << "), make_pass_through_transform(" << num(f[4]) << ")),\n"
          << "    make_tuple(sequence<0>{}, sequence<1, 3>{}, sequence<2>{}, sequence<4>{}),\n"
          << "    make_tuple(sequence<0>{}, sequence<1, 3>{}, sequence<2>{}, sequence<4>{}));\n"
          << "constexpr auto d" << d + 3 << " = transform_tensor_descriptor(d" << d + 2
          << ", make_tuple(make_merge_transform(make_tuple(" << numbers(f)
          << "))),\n    make_tuple(sequence<0, 1, 2, 3, 4>{}), make_tuple(sequence<0>{}));\n";
        d += 3;
      }
      s << "constexpr auto lds_desc = transform_tensor_descriptor(d" << d << ", make_tuple(make_unmerge_transform(make_tuple("
        << num(l.rows) << ", " << num(l.cols) << "))),\n    make_tuple(sequence<0>{}), make_tuple(sequence<0, 1>{}));";
      break;
    }
    case layout_family::gf2:
    case layout_family::padded_xor:
      s << "// none: no CK Tile transform is " << (l.family == layout_family::gf2 ? "a general GF(2) map of the offset bits"
                                                                                   : "an XOR keyed by a linear function of the row")
        << "; the spec/ descriptor above is constexpr and runs in HIP and CUDA kernels";
      break;
  }
  return s.str();
}

std::optional<std::string> cute_spelling(const lds_layout& l) {
  std::optional<swizzle_term> t;
  if (l.family == layout_family::row_major) t = swizzle_term{0, 0, 0};
  if (l.family == layout_family::cute && l.terms.size() == 1) t = l.terms[0];
  if (l.family == layout_family::ck) t = ck_as_cute(l);
  if (!t) return std::nullopt;
  std::string s = cute_term(*t) + " o (" + std::to_string(l.rows) + "," + std::to_string(l.cols) + "):(" +
                  std::to_string(l.cols) + ",1) in elements";
  const int eb = log2_exact(l.elem_bytes);
  if (t->bits > 0 && eb >= 0) {
    const swizzle_term bytes{t->bits, t->base + eb, t->shift};
    s += "; " + cute_term(bytes) + " on byte addresses";
    if (bytes.base == 4 && bytes.shift == 3 && bytes.bits >= 1 && bytes.bits <= 3)
      s += std::string(" (the SW") + (bytes.bits == 1 ? "32" : bytes.bits == 2 ? "64" : "128") + " atom)";
  }
  return s;
}

std::optional<std::string> check_bijection(const lds_layout& l, const std::vector<index_t>& offsets) {
  const index_t space = l.element_space();
  std::vector<index_t> owner(static_cast<std::size_t>(space), -1);
  for (index_t e = 0; e < static_cast<index_t>(offsets.size()); ++e) {
    const index_t o = offsets[static_cast<std::size_t>(e)];
    if (o < 0 || o >= space)
      return l.name() + ": element (" + std::to_string(e / l.cols) + ", " + std::to_string(e % l.cols) +
             ") at offset " + std::to_string(o) + ", outside [0, " + std::to_string(space) + ")";
    index_t& who = owner[static_cast<std::size_t>(o)];
    if (who >= 0)
      return l.name() + ": elements (" + std::to_string(who / l.cols) + ", " + std::to_string(who % l.cols) + ") and (" +
             std::to_string(e / l.cols) + ", " + std::to_string(e % l.cols) + ") share offset " + std::to_string(o);
    who = e;
    if (l.family == layout_family::padded || l.family == layout_family::padded_xor) {
      const index_t r = e / l.cols, row0 = r * (l.cols + l.pad);
      if (o < row0 || o >= row0 + l.cols)
        return l.name() + ": element (" + std::to_string(r) + ", " + std::to_string(e % l.cols) + ") at offset " +
               std::to_string(o) + ", outside its row's [" + std::to_string(row0) + ", " + std::to_string(row0 + l.cols) + ")";
    }
  }
  return std::nullopt;
}

std::optional<std::string> check_vectors(const tile_side& s, const lds_layout& l, const std::vector<index_t>& offsets) {
  for (const tile_instruction& i : s.instructions) {
    if (i.elems == 1) continue;
    for (std::size_t lane = 0; lane < i.lanes.size(); ++lane) {
      const lane_coord c = i.lanes[lane];
      if (!c.active()) continue;
      const index_t base = offsets[static_cast<std::size_t>(c.row * l.cols + c.col)];
      for (int k = 1; k < i.elems; ++k)
        if (offsets[static_cast<std::size_t>(c.row * l.cols + c.col + k)] != base + k)
          return l.name() + " splits the " + std::to_string(i.elems) + "-element vector of " + s.name + " '" + i.label +
                 "' lane " + std::to_string(lane) + " at (" + std::to_string(c.row) + ", " + std::to_string(c.col) + ")";
    }
  }
  return std::nullopt;
}

}  // namespace tilesim::synth
