// tilesim/examples/adapters/copy_common.hpp: what the copy adapters (copy_fp16, copy_fp32) and the LDS sweep's share.
//
// DEFINITION. The three programs move a rows x cols tile per workgroup through LDS (kernel/copy/copy.hpp,
// kernel/lds_sweep/lds_sweep.hpp), so they share the parameters' JSON form (copy_params_to_json and back),
// the LDS bytes from the copy's LDS descriptor alone, and the output check: element by element, bit for bit,
// against an expected buffer (the input for a copy; the input times the iterations for the sweep).
//
// WORKED EXAMPLE. check_copy_bits(p, in, buffers, sim, copy_of(p), 2, in.buffers[0]) on an fp16 copy whose output
// element 197 * 32 + 8 was not written: mismatches 1, first_mismatch "block 3 thread 70 (row 197, col 8):
// expected 0x1234, got 0xffff".
//
// INVARIANTS: compared is the expected buffer's element count; the first mismatch is the lowest index.
#pragma once

#include <cstring>

#include "examples/adapters/param_names.hpp"
#include "gpu/crosscheck/adapter_kit.hpp"

namespace tilesim::examples::adapters {

// The copy parameters as a recording's "params" holds them (after any program field written first).
inline void copy_params_to_json(const programs::copy_params& c, util::json_value& params) {
  params.set("rows", static_cast<long long>(c.rows));
  params.set("cols", static_cast<long long>(c.cols));
  params.set("vector", static_cast<long long>(c.vector));
  params.set("layout", name_of(c.layout));
  params.set("read", name_of(c.read));
  params.set("lane_rows", static_cast<long long>(c.lane_rows));
  params.set("ck_order", name_of(c.ck_order));
  params.set("pad", static_cast<long long>(c.pad));
  params.set("swizzle_bits", c.swizzle_bits);
  params.set("swizzle_base", c.swizzle_base);
  params.set("swizzle_shift", c.swizzle_shift);
  params.set("ck_banks", static_cast<long long>(c.ck_banks));
}

// And back (from the defaults); lane_rows and ck_order may be absent (recordings older than them).
inline programs::copy_params copy_params_from_json(const util::json_value& q) {
  programs::copy_params c{};
  using programs::copy_lds_layout;
  using programs::copy_read_order;
  auto n = [&](const char* key) { return static_cast<index_t>(q[key].number()); };
  c.rows = n("rows"), c.cols = n("cols"), c.vector = n("vector"), c.pad = n("pad"), c.ck_banks = n("ck_banks");
  c.layout = enum_named(q["layout"].string(),
                        {copy_lds_layout::row_major, copy_lds_layout::padded, copy_lds_layout::ck_xor,
                         copy_lds_layout::cute_swizzle},
                        "layout");
  c.read = enum_named(q["read"].string(),
                      {copy_read_order::same_as_write, copy_read_order::lanes_down_rows, copy_read_order::gemm_operand,
                       copy_read_order::ldmatrix_operand},
                      "read order");
  if (const util::json_value* r = q.get("lane_rows")) c.lane_rows = static_cast<index_t>(r->number());
  if (const util::json_value* o = q.get("ck_order")) c.ck_order = enum_named(o->string(), all_ck_orders, "ck order");
  c.swizzle_bits = static_cast<int>(n("swizzle_bits"));
  c.swizzle_base = static_cast<int>(n("swizzle_base"));
  c.swizzle_shift = static_cast<int>(n("swizzle_shift"));
  return c;
}

// The tile's LDS bytes from its host descriptor (no simulator run): elements x element bytes.
inline std::size_t copy_lds_bytes(const programs::copy_params& tile, std::size_t element) {
  std::size_t bytes = 0;
  programs::with_copy_lds_descriptor(tile, static_cast<index_t>(element), [&](const auto& d) {
    bytes = (bytes + 15) / 16 * 16 + static_cast<std::size_t>(d.element_space_size) * element;
  });
  return bytes;
}

// The output (rows of grid x tile.rows, tile.cols each) against `expected`, `es` bytes per element, bit for bit.
inline gpu::output_check check_copy_bits(const gpu::crosscheck_point& p, const gpu::point_inputs& in,
                                         const std::vector<gpu::byte_buffer>& buffers, const gpu::simulated* sim,
                                         const programs::copy_params& tile, std::size_t es,
                                         const gpu::byte_buffer& expected) {
  gpu::output_check c;
  const gpu::byte_buffer& out = buffers.at(static_cast<std::size_t>(in.output_slot));
  c.method = "bit-exact";
  c.compared = static_cast<long long>(expected.size() / es);
  for (std::size_t i = 0; i < expected.size() / es; ++i) {
    if (std::memcmp(expected.data() + i * es, out.data() + i * es, es) == 0) continue;
    if (c.mismatches++ == 0) {
      std::uint32_t want = 0, got = 0;
      std::memcpy(&want, expected.data() + i * es, es);
      std::memcpy(&got, out.data() + i * es, es);
      c.first_mismatch = gpu::element_at(p, in, sim, static_cast<index_t>(i), es, tile.rows, tile.cols, 1) +
                         ": expected " + gpu::hex(want, static_cast<int>(2 * es)) + ", got " +
                         gpu::hex(got, static_cast<int>(2 * es));
    }
  }
  return c;
}

// The output geometry of a copy-shaped point: the tile's output slot, grid x rows rows of cols.
inline void copy_output_geometry(const gpu::crosscheck_point& p, const programs::copy_params& tile, gpu::point_inputs& in) {
  in.output_slot = tile.output;
  in.output_rows = static_cast<index_t>(p.grid) * tile.rows;
  in.output_cols = tile.cols;
}

}  // namespace tilesim::examples::adapters
