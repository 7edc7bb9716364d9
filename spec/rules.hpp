// tilesim/spec/rules.hpp: every parameter rule of spec/, and how a broken one is reported.
//
// A transform, descriptor or named layout states its parameter rules in one `check()` function that returns
// the first `violation` (a rule plus the named values that break it). The same check serves three callers:
//
//   * run time: the `make_*` factories call `require(t.check())`, which throws `tilesim::spec_error` with a
//     message naming the transform, the rule and the values:
//       "tilesim: xor_t: the second length L1 must be a power of two (L1 = 6)"
//   * compile time, template parameters: `static_require<V>()` turns each rule into a `static_assert` whose
//     message is the rule's text, e.g. fixed<xor_t{{4, 6}}> fails with
//       "xor_t: the second length L1 must be a power of two"
//   * compile time, constant evaluation of a `make_*` factory: the evaluation stops at a call of the
//     non-constexpr function `compile_time_error::<rule name>()`, which the compiler names in its error.
//
// Rules live in the X-macro list below so that the text is written once for all three.
#pragma once

#include <cstdio>  // printf: the device pass reports a broken rule before trapping

#include "spec/config.hpp"

#include <stdexcept>
#include <string>

// X(rule_name, "text that names the parameter")
#define TILESIM_RULES(X)                                                                                     \
  X(length_not_positive, "every length must be >= 1")                                                       \
  X(extent_too_large, "a length, a product of lengths or an element space exceeds 2^40")                    \
  X(pad_negative, "pad: the left and right padding must be >= 0")                                           \
  X(slice_out_of_range, "slice: the bounds must satisfy 0 <= begin < end <= length")                        \
  X(modulus_not_positive, "modulo: the modulus m must be >= 1")                                             \
  X(xor_length_not_power_of_two, "xor_t: the second length L1 must be a power of two")                      \
  X(swizzle_bits_negative, "swizzle: B and M must be >= 0")                                                 \
  X(swizzle_shift_smaller_than_bits, "swizzle: |S| must be >= B")                                           \
  X(swizzle_length_not_whole_blocks, "swizzle: the length must be a multiple of the block 2^(B+M+|S|)")     \
  X(morton_length_not_power_of_two, "morton: both lengths must be powers of two")                           \
  X(alignment_not_positive, "make_naive_descriptor_aligned: the alignment must be >= 1")                    \
  X(dim_out_of_range, "transform step: a lower dimension is not one of the old top dimensions")             \
  X(dim_consumed_twice, "transform step: an old top dimension is consumed by two transforms")               \
  X(dim_not_consumed, "transform step: an old top dimension is consumed by no transform")                   \
  X(new_dim_out_of_range, "transform step: an upper dimension is not one of the new top positions")         \
  X(new_dim_assigned_twice, "transform step: two transforms claim the same new top position")               \
  X(ck_lds_k_pack_not_dividing, "ck_lds_xor: KPerBlock must be a multiple of KPack")                        \
  X(ck_lds_layers_not_dividing, "ck_lds_xor: MPerBlock must be a multiple of MLdsLayer")                    \
  X(ck_lds_banks_invalid, "ck_lds_xor: the bank count must be a power of two and the element size >= 1")      \
  X(gf2_length_not_power_of_two, "gf2_linear: the length must be a power of two")                          \
  X(gf2_bits_mismatch, "gf2_linear: keep >= 0 and keep + the matrix size n (at most 40) must equal log2 of the length") \
  X(gf2_column_out_of_range, "gf2_linear: every column of the matrix must be in [0, 2^n)")                  \
  X(gf2_not_invertible, "gf2_linear: the matrix must be invertible over GF(2) (and the stored inverse its inverse)") \
  X(padded_xor_parameters, "row_linear_xor: base must be in [0, 40) and the key count in [0, 24]")          \
  X(padded_xor_key_out_of_range, "row_linear_xor: every key << base must be below the largest power of two dividing cols") \
  X(encoding_too_large, "encoding: too many R, X, H, P or Y components for the fixed capacity")            \
  X(encoding_p_count, "encoding: there must be 1 P dim (lane) or 2 (warp, lane)")                           \
  X(encoding_rh_out_of_range, "encoding: a P or Y names an (major, minor) that is no R or H component")     \
  X(encoding_y_names_r, "encoding: a Y names an R component; R components belong to P dims only")           \
  X(encoding_rh_claimed_twice, "encoding: an R or H component is named by two P/Y entries")                 \
  X(encoding_h_unclaimed, "encoding: an H component is named by no P or Y")                                 \
  X(encoding_threads, "encoding: the P lengths need more warps or lanes than the launch has")               \
  X(sfc_vector_not_dividing, "space_filling_curve: a vector length must divide its dimension's length")     \
  X(sfc_order_not_permutation, "space_filling_curve: the dim order must name every dim exactly once")         \
  X(encoding_embed_mismatch, "encoding embed: the outer and inner encodings must have the same X count")    \
  X(encoding_reduce_dim_out_of_range, "encoding reduce: a reduced X dim is not one of the encoding's X dims") \
  X(distributed_tensor_too_small, "distributed_tensor: the encoding needs more elements than the capacity")  \
  X(window_shape_mismatch, "tile_window: the view, the window lengths and the encoding's X must agree")       \
  X(window_buffer_too_small, "tensor_view: the buffer holds fewer elements than the descriptor's space") \
  X(window_vector_too_long, "tile_window: one vector access may move at most 64 elements") \
  X(encoding_embed_p_count, "encoding embed: outer and inner need 1 P dim each (the outer's becomes the warp, the inner's the lane)") \
  X(encoding_reduce_every_dim, "encoding reduce: at least one X dim must remain") \
  X(pattern_not_dividing, "encoding pattern: every split must be exact: vector | cols, warp size | threads, X1 = min(vector, rows*cols/threads) >= 1, X1 | cols, cols/X1 | warp size, threads/(cols/X1) | rows") \
  X(tile_not_dividing, "tiling: the tile side must divide the lengths it tiles")                            \
  X(tile_too_large, "tiling: the tile side is above the layout's fixed capacity")                          \
  X(launch_split_not_exact, "program: the work must split exactly over the launch (the values say which split)") \
  X(tma_rank, "tma: the tensor rank must be 1..5")                                                            \
  X(tma_elem_bytes, "tma: the element size must be 1, 2, 4 or 8 bytes")                                       \
  X(tma_global_dim, "tma: every global dimension must be in 1..2^32")                                         \
  X(tma_global_stride, "tma: every global byte stride (dims 1..rank-1) must be a multiple of 16 and < 2^40")  \
  X(tma_box_dim, "tma: every box dimension must be in 1..256")                                                \
  X(tma_elem_stride, "tma: every element stride must be in 1..8")                                             \
  X(tma_inner_box_bytes, "tma: the inner box dimension in bytes (boxDim[0] * element size) must be a multiple of 16") \
  X(tma_inner_box_span, "tma: with swizzle the inner box dimension in bytes must not exceed the swizzle span") \
  X(tma_smem_base_128, "tma: the shared-memory destination must be 128-byte aligned")                         \
  X(tma_smem_base_repeat, "tma: with swizzle the shared-memory destination must be aligned to the pattern's repeat (256/512/1024 bytes for 32B/64B/128B)") \
  X(wgmma_field_range, "wgmma descriptor: start, LBO and SBO must be multiples of 16 in [0, 2^18), base offset in 0..7") \
  X(wgmma_shape, "wgmma operand: A is m64, B has n a multiple of 8 in 8..256")                                \
  X(wgmma_mn_major_type, "wgmma operand: MN-major (transposed) operands exist for 16-bit types (f16, bf16) only") \
  X(wgmma_mapping, "tma-wgmma: the operand's K and MN must map onto distinct box dims inside the box")

namespace tilesim {

enum class rule {
  none,
#define TILESIM_RULE_ENUM(name, text) name,
  TILESIM_RULES(TILESIM_RULE_ENUM)
#undef TILESIM_RULE_ENUM
};

// The rule's text: rule_text(rule::pad_negative) == "pad: the left and right padding must be >= 0".
TILESIM_HOST_DEVICE constexpr const char* rule_text(rule r) {
  switch (r) {
#define TILESIM_RULE_TEXT(name, text) \
  case rule::name:                    \
    return text;
    TILESIM_RULES(TILESIM_RULE_TEXT)
#undef TILESIM_RULE_TEXT
    case rule::none:
      break;
  }
  return "no rule is broken";
}

// One value in an error message: {"L1", 6} prints as "L1 = 6".
struct named_value {
  const char* name = nullptr;
  index_t value = 0;
};

// The first broken rule of an object, with the object's name and up to four values; empty when valid.
struct violation {
  rule what = rule::none;
  const char* where = nullptr;
  named_value values[4] = {};

  TILESIM_HOST_DEVICE constexpr explicit operator bool() const { return what != rule::none; }
};

// violation{} when `ok`, else the rule with its values: broken_if(!is_power_of_two(l1), ...).
TILESIM_HOST_DEVICE constexpr violation broken_unless(bool ok, rule r, const char* where, named_value a = {},
                                                      named_value b = {}, named_value c = {},
                                                      named_value d = {}) {
  if (ok) return {};
  return violation{r, where, {a, b, c, d}};
}

// What run-time factories throw; what() is the full sentence with the values.
class spec_error : public std::invalid_argument {
 public:
  explicit spec_error(const violation& v) : std::invalid_argument(format(v)), broken(v.what) {}
  rule broken;

  static std::string format(const violation& v) {
    std::string s = "tilesim: ";
    const std::string text = rule_text(v.what);
    if (v.where && text.rfind(std::string(v.where) + ":", 0) != 0) s += std::string(v.where) + ": ";
    s += text;
    bool first = true;
    for (const named_value& nv : v.values) {
      if (!nv.name) continue;
      s += first ? " (" : ", ";
      s += std::string(nv.name) + " = " + std::to_string(nv.value);
      first = false;
    }
    if (!first) s += ")";
    return s;
  }
};

// Functions named after the rules, deliberately not constexpr: reaching one during constant evaluation
// makes the compiler print "call to non-constexpr function compile_time_error::<rule>()".
namespace compile_time_error {
#define TILESIM_RULE_FN(name, text) void name();
TILESIM_RULES(TILESIM_RULE_FN)
#undef TILESIM_RULE_FN
}  // namespace compile_time_error

namespace detail {
// Out of line and cold on the host: one copy of the reporting code, not one per rule check. Inline in GPU
// code: clang 15's AMDGPU backend cannot annotate a call to a noreturn function inside a divergent loop
// ("failed to annotate CFG"; inlined, its trap is a loop it accepts), and under nvcc 13 the out-of-line
// version made the GEMM kernel fail its own encoding checks on an H200 (data/recordings/README.md).
#if defined(__HIPCC__) || defined(__CUDACC__)
#define TILESIM_COLD
#else
#define TILESIM_COLD __attribute__((noinline, cold))
#endif
[[noreturn]] TILESIM_HOST_DEVICE TILESIM_COLD inline void fail(const violation& v) {
#if TILESIM_DEVICE_PASS
  // The GPU cannot throw: the thread stops (the host sees the launch fail). No printf by default: its argument
  // buffer and call would sit in every kernel with a rule check (docs/design/zero-overhead-device-code.md, R6); a
  // compile-time structure's checks fold away before code is made. TILESIM_DEVICE_RULE_TEXT prints the rule
  // and its values first (NVIDIA), for debugging a run-time structure on a device.
#if defined(__CUDA_ARCH__) && defined(TILESIM_DEVICE_RULE_TEXT)
  printf("tilesim: %s: %s (%s = %lld, %s = %lld, %s = %lld, %s = %lld)\n", v.where ? v.where : "", rule_text(v.what),
         v.values[0].name ? v.values[0].name : "-", static_cast<long long>(v.values[0].value),
         v.values[1].name ? v.values[1].name : "-", static_cast<long long>(v.values[1].value),
         v.values[2].name ? v.values[2].name : "-", static_cast<long long>(v.values[2].value),
         v.values[3].name ? v.values[3].name : "-", static_cast<long long>(v.values[3].value));
#else
  (void)v;
#endif
  TILESIM_DEVICE_TRAP();
#else
  throw spec_error(v);
#endif
}
}  // namespace detail

// Reports a violation: throws on the host, traps on a device, fails compilation in a constant expression.
TILESIM_HOST_DEVICE constexpr void require(const violation& v) {
  if (!v) return;
#if !TILESIM_DEVICE_PASS  // the host pass of the same code already names the rule at compile time
  if (__builtin_is_constant_evaluated()) {
    switch (v.what) {
#define TILESIM_RULE_CALL(name, text) \
  case rule::name:                    \
    compile_time_error::name();       \
    break;
      TILESIM_RULES(TILESIM_RULE_CALL)
#undef TILESIM_RULE_CALL
      case rule::none:
        break;
    }
  }
#endif
  detail::fail(v);
}

// A launch precondition (buffer sizes, the workgroup shape a kernel was compiled for, LDS bytes): require() on
// the host, where the simulator runs the very instance a kernel runs, with the same buffers, before the GPU
// does (gpu/crosscheck); on a device nothing, unless built with TILESIM_DEVICE_STRICT. A check at the start of
// a kernel sits on its critical path (a constant-bank load and a branch each, ahead of the first access).
TILESIM_HOST_DEVICE constexpr void require_launch(const violation& v) {
#if !TILESIM_DEVICE_PASS || defined(TILESIM_DEVICE_STRICT)
  require(v);
#else
  (void)v;
#endif
}

// Compile-time check of a value given as a template argument: one static_assert per rule.
template <auto Value>
constexpr bool static_require() {
  constexpr violation v = Value.check();
#define TILESIM_RULE_ASSERT(name, text) static_assert(v.what != rule::name, text);
  TILESIM_RULES(TILESIM_RULE_ASSERT)
#undef TILESIM_RULE_ASSERT
  return true;
}

// A compile-time transform, descriptor or layout parameter set, checked rule by rule with static_assert:
// `fixed<xor_t{{4, 8}}>` is that transform as a constant; offsets computed from it fold to constants.
template <auto Value>
  requires(static_require<Value>())
inline constexpr auto fixed = Value;

}  // namespace tilesim
