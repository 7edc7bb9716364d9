// Laws of spec/hopper/ (tilesim tma-wgmma): TMA boxes and wgmma descriptors built to agree are proved
// consistent; one field perturbed, the checker finds a mismatch (or the broken alignment rule) and names it.
#include <doctest/doctest.h>

#include <string>

#include "props/generators.hpp"
#include "spec/hopper/tma_wgmma.hpp"
#include "spec/transforms/swizzle.hpp"

using namespace tilesim;
using namespace tilesim::hopper;
using namespace tilesim::props;
namespace gen = rc::gen;

namespace {

const char* const swizzle_names[4] = {"none", "32B", "64B", "128B"};

// One generated pairing and how it was built (printed when a law fails).
struct hopper_case {
  tma_wgmma_pair p;
  std::string how;
};
void showValue(const hopper_case& c, std::ostream& os) {
  os << c.how << " | smem " << c.p.smem_base << " desc{start " << c.p.desc.start << ", lbo " << c.p.desc.lbo << ", sbo "
     << c.p.desc.sbo << ", base " << c.p.desc.base_offset << ", " << swizzle_names[swizzle_bits(c.p.desc.swizzle)] << "}";
}

// Sets a packed global tensor equal to the box (strides: the box's dense pitches) and the box dims.
void set_box(tma_map& m, int rank, const index_t (&box)[tma_max_rank]) {
  m.rank = rank;
  index_t pitch = m.elem_bytes;
  for (int d = 0; d < rank; ++d) {
    m.box_dims[d] = m.global_dims[d] = box[d];
    m.global_strides[d] = d == 0 ? 0 : pitch;
    pitch *= box[d];
  }
}

// A pairing whose descriptor is the canonical layout of the box TMA wrote (the PTX ISA's table, spec/hopper).
rc::Gen<hopper_case> gen_consistent() {
  return gen::exec([] {
    hopper_case c;
    tma_wgmma_pair& p = c.p;
    const bool mn = *gen::arbitrary<bool>();
    p.op.major = mn ? operand_major::mn : operand_major::k;
    p.op.type = mn ? *gen_pick<wgmma_type>({wgmma_type::f16, wgmma_type::bf16})
                   : *gen_pick<wgmma_type>({wgmma_type::bf16, wgmma_type::tf32, wgmma_type::e4m3, wgmma_type::s8});
    p.op.is_b = *gen::arbitrary<bool>();
    p.op.n = 8 * (1 + *gen_index_below(16));  // n 8..128
    const tma_swizzle s = static_cast<tma_swizzle>(*gen_index_below(4));
    const index_t eb = p.op.eb(), rows = p.op.rows(), w = swizzle_span(s), k = p.op.k_elems();
    p.map.elem_bytes = eb;
    p.map.swizzle = s;
    p.smem_base = 1024 * *gen_index_below(16);
    index_t box[tma_max_rank] = {1, 1, 1, 1, 1};
    c.how = std::string(mn ? "MN" : "K") + "-major " + std::to_string(eb) + "B " + (p.op.is_b ? "B n" : "A m") +
            std::to_string(rows) + " " + swizzle_names[swizzle_bits(s)];
    if (!mn && s != tma_swizzle::none) {  // rows of W bytes: K inside the span, MN down the box
      const index_t extra = *gen_index_below(rows >= 256 ? 1 : 9);
      box[0] = w / eb, box[1] = rows + extra;
      set_box(p.map, 2, box);
      p.mapping = default_mapping(p.op.major, 2);
      p.mapping.k_at = k * *gen_index_below(w / 32);
      p.mapping.mn_at = *gen_index_below(extra + 1);
      p.desc = {0, 16 * *gen_index_below(1024), 8 * w, 0, s};
    } else if (!mn) {  // core matrices: {16 B of K, MN rows, K chunks}, or {16 B of K, 8 rows, K chunks, row groups}
      const index_t chunks = 2 + *gen_index_below(3);
      if (*gen::arbitrary<bool>() || rows % 8 != 0) {
        box[0] = 16 / eb, box[1] = rows, box[2] = chunks;
        set_box(p.map, 3, box);
        p.mapping.k_dims[0] = 0, p.mapping.k_dims[1] = 2, p.mapping.n_k = 2;
        p.mapping.mn_dims[0] = 1, p.mapping.n_mn = 1;
        p.desc = {0, 16 * rows, 128, 0, s};
        c.how += " {K16B, MN, Kchunks}";
      } else {
        box[0] = 16 / eb, box[1] = 8, box[2] = chunks, box[3] = rows / 8;
        set_box(p.map, 4, box);
        p.mapping.k_dims[0] = 0, p.mapping.k_dims[1] = 2, p.mapping.n_k = 2;
        p.mapping.mn_dims[0] = 1, p.mapping.mn_dims[1] = 3, p.mapping.n_mn = 2;
        p.desc = {0, 128, 128 * chunks, 0, s};
        c.how += " {K16B, 8 rows, Kchunks, row groups}";
      }
      p.mapping.k_at = (16 / eb) * *gen_index_below(chunks - 1);  // whole 16-byte chunks; K spans two of them
    } else {  // MN-major: {W (or 16) bytes of MN, K rows, MN groups}
      const index_t mn_in = (s == tma_swizzle::none ? 16 : w) / eb, k_rows = 16 + *gen_index_below(17);
      box[0] = mn_in, box[1] = k_rows, box[2] = (rows + mn_in - 1) / mn_in;
      set_box(p.map, 3, box);
      p.mapping = default_mapping(p.op.major, 3);
      p.mapping.k_at = *gen_index_below(k_rows - 16 + 1);
      const index_t group = mn_in * eb * k_rows;  // bytes from one MN group to the next
      p.desc = s == tma_swizzle::none ? matrix_descriptor{0, 128, group, 0, s} : matrix_descriptor{0, group, 8 * w, 0, s};
    }
    for (int d = 0; d < p.map.rank; ++d) p.corner[d] = *gen_index_below(9) - 4;  // some boxes hang over the edge
    p.desc.start = p.natural_start();
    return c;
  });
}

// A field to perturb that changes some address of the operand.
enum class perturb { sbo, lbo, swizzle, base_offset, start, smem_base };

}  // namespace

TEST_SUITE("hopper") {
  TEST_CASE("the TMA swizzle of every mode is CuTe's Swizzle<B,4,3> on byte offsets") {
    const auto law = [] {
      const tma_swizzle s = static_cast<tma_swizzle>(*gen_index_below(4));
      const index_t o = *gen::inRange<index_t>(0, index_t{1} << 40);
      RC_ASSERT(tma_place_offset(s, o) == swizzle_offset(swizzle_bits(s), 4, 3, o));
    };
    CHECK(rc::check("tma_place_offset(mode, o) == swizzle_offset(B, 4, 3, o)", law));
  }

  TEST_CASE("a descriptor built as the canonical layout of the TMA box is consistent") {
    const auto law = [] {
      const hopper_case c = *gen_consistent();
      RC_TAG(c.how.substr(0, c.how.find(' ')), swizzle_names[swizzle_bits(c.p.map.swizzle)]);
      RC_ASSERT(c.p.check().what == rule::none);
      const element_check e = first_mismatch(c.p);
      if (!e.ok)
        RC_FAIL("(mn " + std::to_string(e.mn) + ", k " + std::to_string(e.k) + "): TMA " +
                std::to_string(e.tma_address) + ", wgmma " + std::to_string(e.wgmma_address));
      RC_ASSERT(consistent(c.p));
      RC_ASSERT(decode_descriptor(c.p.desc.encode()) == c.p.desc);
    };
    CHECK(rc::check("consistent(canonical pairing) for K- and MN-major, every swizzle, A and B", law));
  }

  TEST_CASE("one field perturbed: the checker finds it inconsistent and names that field; every fix it names works") {
    const auto law = [] {
      hopper_case c = *gen_consistent();
      tma_wgmma_pair& p = c.p;
      const tma_swizzle s = p.desc.swizzle;
      perturb what = *gen_pick<perturb>({perturb::sbo, perturb::lbo, perturb::swizzle, perturb::base_offset,
                                         perturb::start, perturb::smem_base});
      if ((what == perturb::sbo && !sbo_used(p.op, s)) || (what == perturb::lbo && !lbo_used(p.op, s)) ||
          (what == perturb::base_offset && s == tma_swizzle::none))
        what = perturb::start;
      fix_field named = fix_field::start;
      const index_t delta = 16 * (1 + *gen_index_below(64));
      switch (what) {
        case perturb::sbo: p.desc.sbo = (p.desc.sbo + delta) % descriptor_address_limit, named = fix_field::sbo; break;
        case perturb::lbo: p.desc.lbo = (p.desc.lbo + delta) % descriptor_address_limit, named = fix_field::lbo; break;
        case perturb::swizzle:
          p.desc.swizzle = static_cast<tma_swizzle>((swizzle_bits(s) + 1 + *gen_index_below(3)) % 4);
          named = fix_field::wgmma_swizzle;
          break;
        case perturb::base_offset: {
          const int m = (1 << swizzle_bits(s)) - 1;  // only the low B bits of the base offset count
          p.desc.base_offset = (p.desc.base_offset + 1 + static_cast<int>(*gen_index_below(m))) & 7;
          named = fix_field::base_offset;
          break;
        }
        case perturb::start: p.desc.start = (p.desc.start + delta) % descriptor_address_limit; break;
        case perturb::smem_base: {
          const index_t off = s == tma_swizzle::none ? 16 * (1 + *gen_index_below(7))
                                                     : 128 * (1 + *gen_index_below(swizzle_repeat(s) / 128 - 1));
          p.smem_base += off, p.desc.start += off, named = fix_field::smem_base;
          break;
        }
      }
      RC_TAG(c.how.substr(0, c.how.find(' ')), static_cast<int>(what));
      RC_ASSERT(!consistent(p));
      if (what == perturb::smem_base) RC_ASSERT(alignment_of(p).what != rule::none);
      const fix_list fixes = find_fixes(p);
      bool names_it = false;
      for (int i = 0; i < fixes.count; ++i) {
        names_it = names_it || fixes.items[i].field == named;
        const tma_wgmma_pair q = apply_fix(p, fixes.items[i]);
        RC_ASSERT(first_mismatch(q).ok);
        if (fixes.items[i].field == fix_field::smem_base) RC_ASSERT(consistent(q));
      }
      if (!names_it) RC_FAIL("no fix names the perturbed field " + std::to_string(static_cast<int>(named)));
    };
    CHECK(rc::check("perturbing SBO, LBO, swizzle, base offset, start or the destination is found and named", law));
  }
}
