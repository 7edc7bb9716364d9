// tilesim/spec/layouts/padded_xor.hpp: padded rows whose columns are XOR-ed with a linear function of the row.
//
// DEFINITION. A rows x cols tile stored in rows of cols + pad elements; inside its row, element c moves to
// c XOR (f(r) << base), with f linear over GF(2) in the row's bits: f(r) = XOR of keys[i] over the set bits i of r.
//
//   offset(r, c) = r * (cols + pad) + (c XOR (f(r) << base))
//
// base is log2 of the elements of one vector (16-byte chunk), so whole chunks move and vectors stay contiguous.
// pad = 0 is the row-XOR family (CuTe's Swizzle<B,M,S> with S = log2(cols), CK's XOR preshuffle at MLdsLayer 1:
// keys = {1, 2, 4, ...}); keys all 0 is the padded row-major tile (row_major.hpp). Padding shifts each row's
// banks by a constant and the XOR permutes the chunks inside it: the two together reach bank maps neither does
// alone (`tilesim synth`'s padded-xor family answers in this form). The transform row_linear_xor is the XOR on
// (row, col); make_padded_xor_descriptor puts it on top of the padded row-major tile.
//
// WORKED EXAMPLE (4 x 4, pad 1, base 0, keys {1, 2}: f(r) = r). Rows start at 0, 5, 10, 15 and row r stores
// column c at c XOR r:
//   r0:  0  1  2  3    r1:  6  5  8  7    r2: 12 13 10 11    r3: 18 17 16 15
// e.g. (3, 1): 15 + (1 XOR 3) = 17. Offsets 4, 9, 14 (the pads) are left free; element space 4 * 5 - 1 = 19.
//
// INVARIANTS: injective, and row r fills exactly [r*(cols+pad), r*(cols+pad) + cols) (a bijection onto the
// footprint) whenever every key << base is below the largest power of two dividing cols (check() rejects others
// with rule::padded_xor_key_out_of_range: c XOR key would leave the row); the low `base` bits of c never move, so
// a vector of 2^base elements stays contiguous (upper_vectors limits a guarantee to 2^base).
#pragma once

#include "spec/descriptor.hpp"
#include "spec/transform.hpp"

namespace tilesim {

// Most row bits f may use.
inline constexpr int padded_xor_max_keys = 24;

// f's images of the row bits: keys[i] = f(2^i).
struct row_xor_keys {
  int n = 0;
  index_t key[padded_xor_max_keys] = {};
};

struct row_linear_xor {
  multi_index<2> lengths;  // (rows, cols)
  int base;                // log2 of the elements that move together
  row_xor_keys keys;

  static constexpr int n_lower = 2, n_upper = 2;
  static constexpr bool always_valid = true, invertible = true;

  // f(r): row_linear_xor{{4, 4}, 0, {2, {1, 2}}}.mask(3) == 3.
  TILESIM_HOST_DEVICE constexpr index_t mask(index_t r) const {
    index_t m = 0;
    for (int i = 0; i < keys.n; ++i)
      if ((r >> i) & 1) m ^= keys.key[i];
    return m << base;
  }
  TILESIM_HOST_DEVICE constexpr multi_index<2> upper_lengths() const { return lengths; }
  TILESIM_HOST_DEVICE constexpr multi_index<2> lower_index(const multi_index<2>& up) const {
    return {up[0], up[1] ^ mask(up[0])};
  }
  TILESIM_HOST_DEVICE constexpr multi_index<2> update_lower_index(const multi_index<2>&, const multi_index<2>& up,
                                                                  multi_index<2>& low) const {
    return recompute_lower(*this, up, low);
  }
  TILESIM_HOST_DEVICE constexpr bool is_valid_upper(const multi_index<2>&) const { return true; }
  TILESIM_HOST_DEVICE constexpr inverse_result<2> upper_index(const multi_index<2>& low) const {
    return {lower_index(low), true};  // XOR with the same row's mask undoes itself
  }
  // The row moves the column: no guarantee on dim 0; dim 1 keeps 2^base.
  TILESIM_HOST_DEVICE constexpr vector_guarantees<2> upper_vectors(const vector_guarantees<2>& low) const {
    vector_guarantees<2> v{};
    v[1] = limit_vector(low[1], index_t{1} << base);
    return v;
  }
  TILESIM_HOST_DEVICE constexpr violation check() const {
    const char* where = "row_linear_xor";
    if (violation v = check_lengths(where, lengths)) return v;
    if (violation v = broken_unless(base >= 0 && base < 40 && keys.n >= 0 && keys.n <= padded_xor_max_keys,
                                    rule::padded_xor_parameters, where, {"base", base}, {"keys", keys.n}))
      return v;
    const index_t span = lengths[1] & -lengths[1];  // the largest power of two dividing cols
    for (int i = 0; i < keys.n; ++i)
      if (violation v = broken_unless(keys.key[i] == 0 || (keys.key[i] > 0 && keys.key[i] < (span >> base)),  // key << base < span
                                      rule::padded_xor_key_out_of_range,
                                      where, {"row bit", i}, {"key", keys.key[i]}, {"base", base}, {"cols", lengths[1]}))
        return v;
    return {};
  }
  std::string cpp() const {
    std::string s = "make_row_linear_xor(" + std::to_string(lengths[0]) + ", " + std::to_string(lengths[1]) + ", " +
                    std::to_string(base) + ", row_xor_keys{" + std::to_string(keys.n) + ", {";
    for (int i = 0; i < keys.n; ++i) s += (i ? ", " : "") + std::to_string(keys.key[i]);
    return s + "}})";
  }
};

// make_row_linear_xor(4, 4, 0, row_xor_keys{2, {1, 2}}): (r, c) -> (r, c XOR r).
TILESIM_HOST_DEVICE constexpr row_linear_xor make_row_linear_xor(index_t rows, index_t cols, int base,
                                                                 const row_xor_keys& keys) {
  row_linear_xor t{{rows, cols}, base, keys};
  require(t.check());
  return t;
}

// make_padded_xor_descriptor(4, 4, 1, 0, row_xor_keys{2, {1, 2}}): the essay's tile; top (row, col).
TILESIM_HOST_DEVICE constexpr auto make_padded_xor_descriptor(index_t rows, index_t cols, index_t pad, int base,
                                                              const row_xor_keys& keys) {
  require(broken_unless(pad >= 0, rule::pad_negative, "padded_xor", {"pad", pad}));
  auto stored = make_naive_descriptor<2>({rows, cols}, {cols + pad, 1}, cols, 1);
  return transform_descriptor(stored, step(make_row_linear_xor(rows, cols, base, keys), {0, 1}, {0, 1}));
}

}  // namespace tilesim
