// tilesim/props/chain_layers.hpp: bases, layers and slots of the random chains (chains_*.cpp).
//
// A chain is a 2-D base tensor followed by layers, each drawn from a *slot*: a list of layer kinds. Every
// layer keeps a 2-D top, so any layer can follow any other; the first entry of each slot passes the dims
// through, so shrinking a layer choice removes the layer. Each (base, layer, layer, ...) choice is its own
// C++ type, so the slots are kept short: compile time grows with the product of their sizes.
#pragma once

#include <algorithm>
#include <optional>

#include "props/chain.hpp"
#include "props/generators.hpp"

namespace tilesim::props::layers {

namespace gen = rc::gen;

// n in [lo, hi], uniform, shrinking toward lo.
inline index_t pick_between(index_t lo, index_t hi) { return lo + *gen_index_below(hi - lo + 1); }
// A dim of the 2-D top, shrinking toward 0.
inline index_t pick_dim() { return *gen_pick<index_t>({0, 1}); }

// The divisors of n, ascending.
inline std::vector<index_t> divisors(index_t n) {
  std::vector<index_t> small, large;
  for (index_t k = 1; k * k <= n; ++k)
    if (n % k == 0) {
      small.push_back(k);
      if (k * k != n) large.push_back(n / k);
    }
  small.insert(small.end(), large.rbegin(), large.rend());
  return small;
}

// A divisor of l0 * l1, as a divisor of l0 times a divisor of l1.
inline index_t pick_divisor_of_product(index_t l0, index_t l1) {
  return *gen_pick(divisors(l0)) * *gen_pick(divisors(l1));
}

// The exponent of 2 in n: trailing_zeros(24) == 3.
inline int trailing_zeros(index_t n) {
  int k = 0;
  while (n % 2 == 0 && k < 62) n /= 2, ++k;
  return k;
}

// Swizzle bits (B, M, S) with |S| >= B and B + M + |S| <= max_total; S negative half of the time.
struct swizzle_bits {
  int b, m, s;
};
inline swizzle_bits pick_swizzle_bits(int max_total, family f) {
  const int total = static_cast<int>(pick_between(0, std::min(max_total, 12)));
  const int b = static_cast<int>(pick_between(0, total / 2));
  // family::vectors: |S| = B most of the time, leaving the low M bits (the vector) as long as possible
  const int abs_s =
      f == family::vectors && *gen_pick<int>({0, 1, 1}) ? b : static_cast<int>(pick_between(b, total - b));
  const int sign = *gen_pick<int>({1, -1});
  return {b, total - b - abs_s, sign * abs_s};
}

// A pad amount; for family::vectors mostly a small multiple of a power of two, which cuts a guarantee to a
// shorter one rather than to 1.
inline index_t pick_pad(index_t length, family f) {
  if (f == family::vectors && *gen_pick<int>({0, 1, 2}) > 0) return *gen_pick<index_t>({0, 2, 4, 6, 8, 12, 16});
  return *gen::weightedOneOf<index_t>({{3, gen::just<index_t>(0)},
                                       {2, gen::map(gen_index_below(4), [](index_t x) { return x + 1; })},
                                       {1, gen::map(gen_index_below(length), [](index_t x) { return x + 1; })}});
}

// A base length; for family::vectors mostly a power of two, so that gcd cuts leave long vectors.
inline index_t pick_length(family f) {
  if (f == family::vectors && *gen_pick<int>({0, 1, 2}) > 0) return index_t{1} << pick_between(0, 9);
  return *gen_length();
}

// Whether (i, j) -> i c0 + j c1 is one-to-one on [0, a) x [0, b).
inline bool embed_is_injective(index_t a, index_t b, index_t c0, index_t c1) {
  std::vector<index_t> seen;
  for (index_t i = 0; i < a; ++i)
    for (index_t j = 0; j < b; ++j) seen.push_back(i * c0 + j * c1);
  std::sort(seen.begin(), seen.end());
  return std::adjacent_find(seen.begin(), seen.end()) == seen.end();
}

// An embed (a, b) : (c0, c1) whose offsets stay inside [0, n): for `bijective` it covers [0, n) exactly,
// for `injective` it is one-to-one (any injective coefficients, not only row-major ones), else anything.
struct embed_params {
  index_t a, b, c0, c1;
};
inline embed_params pick_embed(index_t n, family f) {
  if (f == family::bijective) {
    const index_t a = *gen_pick(divisors(n));
    return *gen_pick<embed_params>({{a, n / a, n / a, 1}, {a, n / a, 1, a}});
  }
  const index_t a = 1 + *gen_index_below(std::min<index_t>(n, 16));
  const index_t b = 1 + *gen_index_below(std::min<index_t>(n / a, 16));
  const index_t c0 = *gen_index_below(n), c1 = *gen_index_below(n);
  const bool fits = (a - 1) * c0 + (b - 1) * c1 < n;
  if (fits && (f != family::injective || embed_is_injective(a, b, c0, c1))) return {a, b, c0, c1};
  return {a, b, b, 1};
}

// ---- layers: each takes a chain with a 2-D top to one with a 2-D top ----

struct keep_layer {  // both dims passed through, perhaps swapped
  static bool applies(const point&, family) { return true; }
  template <class D>
  static auto apply(const chain<D>& c, family) {
    const point l = c.lengths();
    const index_t p = pick_dim();
    return c.then("pass_through", step(make_pass_through(l[0]), {0}, {p}), step(make_pass_through(l[1]), {1}, {1 - p}));
  }
};

struct pad_layer {  // both dims padded; each pad may be 0
  static bool applies(const point&, family f) { return f != family::bijective; }
  template <class D>
  static auto apply(const chain<D>& c, family f) {
    const point l = c.lengths();
    const index_t lp0 = pick_pad(l[0], f), rp0 = pick_pad(l[0], f), lp1 = pick_pad(l[1], f), rp1 = pick_pad(l[1], f);
    return c.then("pad", step(make_pad(l[0], lp0, rp0), {0}, {0}), step(make_pad(l[1], lp1, rp1), {1}, {1}));
  }
};

// A start in [0, length); for family::vectors often a small multiple of a power of two (see pick_pad).
inline index_t pick_start(index_t length, family f) {
  if (f == family::vectors && *gen_pick<int>({0, 1}) > 0) return *gen_pick<index_t>({0, 2, 4, 6, 8, 12, 16}) % length;
  return *gen_index_below(length);
}

struct window_layer {  // a slice of one dim and an offset window [o, o + length) of the other
  static bool applies(const point&, family f) { return f != family::bijective; }
  template <class D>
  static auto apply(const chain<D>& c, family f) {
    const point l = c.lengths();
    const index_t k = pick_dim(), begin = pick_start(l[k], f), end = pick_between(begin + 1, l[k]);
    const index_t amount = pick_start(l[1 - k], f), length = pick_between(1, l[1 - k] - amount);
    auto r = c.then("slice", step(make_slice(l[k], begin, end), {k}, {k}),
                    step(make_offset(length, amount), {1 - k}, {1 - k}));
    r.kinds.push_back("offset");
    return r;
  }
};

struct modulo_layer {  // one dim wrapped around a modulus m <= its length; its upper length is free
  static bool applies(const point&, family f) { return f == family::any || f == family::vectors; }
  template <class D>
  static auto apply(const chain<D>& c, family) {
    const point l = c.lengths();
    const index_t k = pick_dim(), m = pick_between(1, l[k]), length = pick_between(1, 3 * l[k]);
    return c.then("modulo", step(make_modulo(m, length), {k}, {k}),
                  step(make_pass_through(l[1 - k]), {1 - k}, {1 - k}));
  }
};

struct swizzle_layer {  // a swizzle of one dim; its block divides the length
  static bool applies(const point&, family) { return true; }
  template <class D>
  static auto apply(const chain<D>& c, family f) {
    const point l = c.lengths();
    const index_t k = pick_dim();
    const swizzle_bits s = pick_swizzle_bits(trailing_zeros(l[k]), f);
    return c.then("swizzle", step(make_swizzle(s.b, s.m, s.s, l[k]), {k}, {k}),
                  step(make_pass_through(l[1 - k]), {1 - k}, {1 - k}));
  }
};

struct xor_layer {  // xor_t keyed by dim k; the xor-ed dim has a power-of-two length (descriptors reject others)
  static bool applies(const point& l, family f) {
    return f != family::vectors && (is_power_of_two(l[0]) || is_power_of_two(l[1]));
  }
  template <class D>
  static auto apply(const chain<D>& c, family) {
    const point l = c.lengths();
    std::vector<index_t> keys;
    for (index_t k : {0, 1})
      if (is_power_of_two(l[1 - k])) keys.push_back(k);
    const index_t k = *gen_pick(keys);
    return c.then("xor_t", step(make_xor(l[k], l[1 - k]), {k, 1 - k}, {k, 1 - k}));
  }
};

template <class Rotation>
struct rotation_layer {
  static bool applies(const point&, family f) { return f != family::vectors; }
  template <class D>
  static auto apply(const chain<D>& c, family) {
    const point l = c.lengths();
    const index_t k = pick_dim();
    const Rotation r{{l[k], l[1 - k]}};
    require(r.check());
    return c.then(std::is_same_v<Rotation, cyclic_shift> ? "cyclic_shift" : "inverse_cyclic_shift",
                  step(r, {k, 1 - k}, {k, 1 - k}));
  }
};

// Both dims merged into one (either order); the helpers below split it again.
template <class D>
auto merged(const chain<D>& c) {
  const point l = c.lengths();
  const index_t p = pick_dim();
  return c.then("merge", step(make_merge<2>({l[p], l[1 - p]}), {p, 1 - p}, {0}));
}

struct reshape_layer {  // merge, then unmerge into another factorisation
  static bool applies(const point&, family) { return true; }
  template <class D>
  static auto apply(const chain<D>& c, family) {
    const point l = c.lengths();
    const index_t n = l[0] * l[1], a = pick_divisor_of_product(l[0], l[1]);
    return merged(c).then("unmerge", step(make_unmerge<2>({a, n / a}), {0}, {0, 1}));
  }
};

struct flat_swizzle_layer {  // CuTe style: merge, swizzle the flat offset, unmerge
  static bool applies(const point&, family) { return true; }
  template <class D>
  static auto apply(const chain<D>& c, family f) {
    const point l = c.lengths();
    const index_t n = l[0] * l[1];
    const swizzle_bits s = pick_swizzle_bits(trailing_zeros(n), f);
    const index_t a = pick_divisor_of_product(l[0], l[1]);
    return merged(c)
        .then("swizzle", step(make_swizzle(s.b, s.m, s.s, n), {0}, {0}))
        .then("unmerge", step(make_unmerge<2>({a, n / a}), {0}, {0, 1}));
  }
};

struct morton_layer {  // merge, then Morton order over a power-of-two R x C
  static bool applies(const point& l, family) { return is_power_of_two(l[0] * l[1]); }
  template <class D>
  static auto apply(const chain<D>& c, family) {
    const point l = c.lengths();
    const index_t n = l[0] * l[1], rows = index_t{1} << pick_between(0, log2_exact(n));
    return merged(c).then("morton", step(make_morton(rows, n / rows), {0}, {0, 1}));
  }
};

struct embed_layer {  // merge, then an embed whose offsets stay inside the merged length
  static bool applies(const point&, family f) { return f != family::vectors; }
  template <class D>
  static auto apply(const chain<D>& c, family f) {
    const point l = c.lengths();
    const embed_params e = pick_embed(l[0] * l[1], f);
    return merged(c).then("embed", step(make_embed<2>({e.a, e.b}, {e.c0, e.c1}), {0}, {0, 1}));
  }
};

struct freeze_layer {  // one dim frozen at a value, the other embedded into two (im2col-like)
  static bool applies(const point&, family f) { return f == family::any; }
  template <class D>
  static auto apply(const chain<D>& c, family f) {
    const point l = c.lengths();
    const index_t k = pick_dim(), value = *gen_index_below(l[k]);
    const embed_params e = pick_embed(l[1 - k], f);
    auto r = c.then("freeze", step(make_freeze(value), {k}, {}),
                    step(make_embed<2>({e.a, e.b}, {e.c0, e.c1}), {1 - k}, {0, 1}));
    r.kinds.push_back("embed");
    return r;
  }
};

template <class Broadcast>
struct broadcast_layer {  // both dims merged into one, plus an insert or replicate dim
  static bool applies(const point&, family f) { return f == family::any || f == family::vectors; }
  template <class D>
  static auto apply(const chain<D>& c, family) {
    const point l = c.lengths();
    const index_t p = pick_dim(), q = pick_dim(), extra = 1 + *gen_index_below(8);
    const auto mergeit = step(make_merge<2>({l[p], l[1 - p]}), {p, 1 - p}, {q});
    if constexpr (std::is_same_v<Broadcast, insert>) {
      auto r = c.then("insert", mergeit, step(make_insert(extra), {}, {1 - q}));
      r.kinds.push_back("merge");
      return r;
    } else {
      auto r = c.then("replicate", mergeit, step(make_replicate<1>({extra}), {}, {1 - q}));
      r.kinds.push_back("merge");
      return r;
    }
  }
};

// ---- slots ----

template <class... Layers>
struct slot {};

// No slot left: the chain is done.
template <class D>
any_descriptor grow(const chain<D>& c, family) {
  return c.done();
}

// One layer from the first slot (among those that apply to the current lengths), then the other slots.
template <class D, class... Layers, class... Rest>
any_descriptor grow(const chain<D>& c, family f, slot<Layers...>, Rest... rest) {
  const point l = c.lengths();
  std::vector<int> usable;
  int i = 0;
  ((Layers::applies(l, f) ? usable.push_back(i) : void(), ++i), ...);
  const int pick = *gen_pick(usable);
  std::optional<any_descriptor> r;
  i = 0;
  ((i++ == pick ? void(r.emplace(grow(Layers::apply(c, f), f, rest...))) : void()), ...);
  return *r;
}

// A guaranteed vector length for the last dim of length `last`, or none.
inline index_t pick_vector_length(index_t last, family f) {
  if (f == family::vectors) return *gen_pick<index_t>({last, 1, 2, 4, 8, 16, last});
  return *gen_pick<index_t>({unknown, unknown, 1, 2, 4, 8, last});
}

// Strides for an l0 x l1 base: packed for `bijective`, row- or column-major with gaps for `injective`, and
// anything (aliasing too) otherwise.
struct strides2 {
  index_t s0, s1;
};
inline strides2 pick_strides(index_t l0, index_t l1, family f) {
  if (f == family::bijective) return *gen_pick<strides2>({{l1, 1}, {1, l0}});
  const index_t s1 = pick_between(1, 3), s0 = l1 * s1 + *gen_index_below(8);  // row-major with gaps
  const index_t t0 = pick_between(1, 3), t1 = l0 * t0 + *gen_index_below(8);  // column-major with gaps
  if (f == family::injective) return *gen_pick<strides2>({{s0, s1}, {t0, t1}});
  const index_t any0 = *gen_index_below(2 * std::max(l0, l1)), any1 = *gen_index_below(2 * std::max(l0, l1));
  return *gen_pick<strides2>({{s0, s1}, {t0, t1}, {any0, any1}});  // the last may alias
}

// ---- bases ----

// A strided l0 x l1 base (make_naive_descriptor or make_naive_descriptor_aligned), then the slots' layers.
template <class... Slots>
any_descriptor grow_from_strided_base(family f, Slots... slots) {
  const index_t l0 = pick_length(f), l1 = pick_length(f);
  const std::string lens = "{" + std::to_string(l0) + ", " + std::to_string(l1) + "}";
  if (f != family::bijective && *gen_pick<int>({0, 1}) == 1) {  // aligned strides leave gaps
    const index_t alignment = pick_between(1, 16);
    return grow(
        start_chain(make_naive_descriptor_aligned<2>({l0, l1}, alignment),
                    "make_naive_descriptor_aligned<2>(" + lens + ", " + std::to_string(alignment) + ")", "embed"),
        f, slots...);
  }
  const strides2 s = pick_strides(l0, l1, f);
  const index_t gl = pick_vector_length(l1, f);
  return grow(start_chain(make_naive_descriptor<2>({l0, l1}, {s.s0, s.s1}, gl, s.s1),
                          "make_naive_descriptor<2>(" + lens + ", {" + std::to_string(s.s0) + ", " +
                              std::to_string(s.s1) + "}, " + index_cpp(gl) + ", " + std::to_string(s.s1) + ")",
                          "embed"),
              f, slots...);
}

// A packed l0 x l1 base (make_naive_descriptor_packed), then the slots' layers.
template <class... Slots>
any_descriptor grow_from_packed_base(family f, Slots... slots) {
  const index_t l0 = pick_length(f), l1 = pick_length(f);
  const index_t gl = pick_vector_length(l1, f);
  return grow(start_chain(make_naive_descriptor_packed<2>({l0, l1}, gl),
                          "make_naive_descriptor_packed<2>({" + std::to_string(l0) + ", " + std::to_string(l1) + "}, " +
                              index_cpp(gl) + ")",
                          "unmerge"),
              f, slots...);
}

// The linear slot every shape uses.
using linear_slot = slot<keep_layer, pad_layer, window_layer, modulo_layer, swizzle_layer>;

}  // namespace tilesim::props::layers
