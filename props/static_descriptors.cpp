// tilesim/props/static_descriptors.cpp: compile-time descriptors, for laws over random indices and steps.
//
// Each one is a constant expression (named layouts with template parameters, fixed<...> transforms, constexpr
// factories), so these laws also cover the constant-folded path the simulator and kernels use.
#include "props/generators.hpp"

namespace tilesim::props {
namespace {

constexpr auto ck_fp16 = ck_lds_xor_descriptor<ck_lds_xor_params{128, 32, 8}>;
constexpr auto ck_fp16_gfx950 = ck_lds_xor_descriptor<ck_lds_xor_params{64, 64, 8, 2, 0, 64}>;
constexpr auto ck_fp32 = ck_lds_xor_descriptor<ck_lds_xor_params{32, 16, 4, 4}>;
constexpr auto cute_333 = make_cute_swizzle_descriptor(3, 3, 3, 8, 64);
constexpr auto cute_negative_shift = make_cute_swizzle_descriptor(2, 3, -3, 16, 32);
constexpr auto morton_8x16 = make_morton_descriptor(8, 16);
constexpr auto morton_digits = make_morton_descriptor_from_digits<3>();
constexpr auto row_major_padded = make_row_major_descriptor(16, 16, 1);
constexpr auto fixed_xor =
    transform_descriptor(make_naive_descriptor_packed<2>({8, 8}, 8), step(fixed<xor_t{{8, 8}}>, {0, 1}, {0, 1}));
constexpr auto fixed_pads =
    transform_descriptor(make_naive_descriptor_packed<2>({6, 6}, 2), step(fixed<pad{6, 1, 1}>, {0}, {0}),
                         step(fixed<pad{6, 2, 0}>, {1}, {1}));
constexpr auto frozen_im2col =
    transform_descriptor(make_naive_descriptor_packed<2>({4, 8}), step(make_freeze(2), {0}, {}),
                         step(make_embed<2>({3, 6}, {1, 1}), {1}, {0, 1}));

struct static_entry {
  any_descriptor d;
  std::vector<family> families;
};

std::vector<static_entry> make_table() {
  using F = family;
  const std::vector<std::string> ck_kinds{"embed", "xor_t", "pass_through", "unmerge", "merge"};
  return {
      {{ck_fp16, "constexpr auto d = ck_lds_xor_descriptor<ck_lds_xor_params{128, 32, 8}>;\n", ck_kinds},
       {F::bijective, F::injective, F::vectors, F::any}},
      {{ck_fp16_gfx950, "constexpr auto d = ck_lds_xor_descriptor<ck_lds_xor_params{64, 64, 8, 2, 0, 64}>;\n",
        ck_kinds},
       {F::bijective, F::injective, F::vectors, F::any}},
      {{ck_fp32, "constexpr auto d = ck_lds_xor_descriptor<ck_lds_xor_params{32, 16, 4, 4}>;\n", ck_kinds},
       {F::bijective, F::injective, F::vectors, F::any}},
      {{cute_333,
        "constexpr auto d = make_cute_swizzle_descriptor(3, 3, 3, 8, 64);\n",
        {"unmerge", "swizzle", "unmerge"}},
       {F::bijective, F::injective, F::vectors, F::any}},
      {{cute_negative_shift,
        "constexpr auto d = make_cute_swizzle_descriptor(2, 3, -3, 16, 32);\n",
        {"unmerge", "swizzle", "unmerge"}},
       {F::bijective, F::injective, F::vectors, F::any}},
      {{morton_8x16, "constexpr auto d = make_morton_descriptor(8, 16);\n", {"unmerge", "morton"}},
       {F::bijective, F::injective, F::any}},
      {{morton_digits,
        "constexpr auto d = make_morton_descriptor_from_digits<3>();\n",
        {"unmerge", "unmerge", "merge"}},
       {F::bijective, F::injective, F::any}},
      {{row_major_padded, "constexpr auto d = make_row_major_descriptor(16, 16, 1);\n", {"embed"}},
       {F::injective, F::vectors, F::any}},
      {{fixed_xor,
        "constexpr auto d = transform_descriptor(make_naive_descriptor_packed<2>({8, 8}, 8),\n"
        "                                        step(fixed<xor_t{{8, 8}}>, {0, 1}, {0, 1}));\n",
        {"unmerge", "xor_t"}},
       {F::bijective, F::injective, F::any}},
      {{fixed_pads,
        "constexpr auto d = transform_descriptor(make_naive_descriptor_packed<2>({6, 6}, 2),\n"
        "    step(fixed<pad{6, 1, 1}>, {0}, {0}), step(fixed<pad{6, 2, 0}>, {1}, {1}));\n",
        {"unmerge", "pad"}},
       {F::injective, F::vectors, F::any}},
      {{frozen_im2col,
        "constexpr auto d = transform_descriptor(make_naive_descriptor_packed<2>({4, 8}), step(make_freeze(2), {0}, "
        "{}),\n"
        "    step(make_embed<2>({3, 6}, {1, 1}), {1}, {0, 1}));\n",
        {"unmerge", "freeze", "embed"}},
       {F::any}},
  };
}

}  // namespace

rc::Gen<any_descriptor> gen_static_descriptor(family f) {
  static const std::vector<static_entry> table = make_table();
  std::vector<any_descriptor> members;
  for (const static_entry& e : table)
    for (family g : e.families)
      if (g == f) members.push_back(e.d);
  return gen_pick(members);
}

}  // namespace tilesim::props
