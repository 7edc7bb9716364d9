// tilesim/gpu/rtc_props/props_json.cpp: props_case <-> JSON (props_json.hpp).
#include "gpu/rtc_props/props_json.hpp"

#include <cmath>

#include "gpu/rtc_props/kernel_source.hpp"
#include "gpu/rtc_props/props_generators.hpp"

namespace tilesim::gpu::props {

using util::json_value;
using util::json_error;
namespace {

json_value rh_json(const rh& a) { return json_value::array{json_value(a.major), json_value(a.minor)}; }

json_value encoding_json(const tile_distribution_encoding& e) {
  json_value v;
  json_value::array r, h, p, y;
  for (int i = 0; i < e.n_r; ++i) r.push_back(static_cast<long long>(e.r[i]));
  for (int x = 0; x < e.n_x; ++x) {
    json_value::array hx;
    for (int k = 0; k < e.n_h[x]; ++k) hx.push_back(static_cast<long long>(e.h[x][k]));
    h.push_back(hx);
  }
  for (int q = 0; q < e.n_p; ++q) {
    json_value::array pq;
    for (int k = 0; k < e.p_size[q]; ++k) pq.push_back(rh_json(e.p[q][k]));
    p.push_back(pq);
  }
  for (int j = 0; j < e.n_y; ++j) y.push_back(rh_json(e.y[j]));
  v.set("r", r);
  v.set("h", h);
  v.set("p", p);
  v.set("y", y);
  v.set("cpp", e.cpp());
  return v;
}

long long integer(const json_value& v, const std::string& what) {
  if (!v.is_number() || std::floor(v.number()) != v.number()) throw json_error(what + " must be an integer");
  return static_cast<long long>(v.number());
}

rh rh_from(const json_value& v, const std::string& what) {
  if (!v.is_array() || v.elements().size() != 2) throw json_error(what + " must be [major, minor]");
  return {static_cast<int>(integer(v[0], what)), static_cast<int>(integer(v[1], what))};
}

// Fills a list field with a capacity check.
template <class F>
int fill(const json_value& list, int capacity, const std::string& what, F&& f) {
  if (!list.is_array()) throw json_error(what + " must be an array");
  if (static_cast<int>(list.elements().size()) > capacity) throw json_error(what + " has too many entries");
  for (std::size_t i = 0; i < list.elements().size(); ++i) f(static_cast<int>(i), list[i]);
  return static_cast<int>(list.elements().size());
}

tile_distribution_encoding encoding_from(const json_value& v, const std::string& what) {
  using E = tile_distribution_encoding;
  E e{};
  e.n_r = fill(v["r"], E::max_components, what + ".r", [&](int i, const json_value& x) { e.r[i] = integer(x, what + ".r"); });
  e.n_x = fill(v["h"], E::max_x, what + ".h", [&](int i, const json_value& hx) {
    e.n_h[i] = fill(hx, E::max_components, what + ".h", [&](int k, const json_value& x) { e.h[i][k] = integer(x, what + ".h"); });
  });
  e.n_p = fill(v["p"], E::max_p, what + ".p", [&](int q, const json_value& pq) {
    e.p_size[q] = fill(pq, E::max_components, what + ".p", [&](int k, const json_value& x) { e.p[q][k] = rh_from(x, what + ".p"); });
  });
  e.n_y = fill(v["y"], E::max_y, what + ".y", [&](int j, const json_value& x) { e.y[j] = rh_from(x, what + ".y"); });
  return e;
}

}  // namespace

json_value to_json(const props_case& c) {
  json_value v;
  v.set("element_bytes", c.element_bytes);
  v.set("threads", static_cast<long long>(c.threads));
  v.set("grid", static_cast<long long>(c.grid));
  v.set("wave", static_cast<long long>(c.wave));
  v.set("rows", static_cast<long long>(c.rows()));
  v.set("cols", static_cast<long long>(c.cols()));
  v.set("tensor_rows", static_cast<long long>(c.tensor_rows));
  v.set("tensor_cols", static_cast<long long>(c.tensor_cols));
  v.set("layout", layout_name(c.layout));
  v.set("pad", static_cast<long long>(c.pad));
  v.set("ck_k_pack", static_cast<long long>(c.ck_k_pack));
  v.set("ck_m_lds_layer", static_cast<long long>(c.ck_m_lds_layer));
  v.set("ck_banks", static_cast<long long>(c.ck_banks));
  v.set("ck_order", c.ck_order == ck_lds_order::l_k0_2025 ? "l_k0_2025" : "k0_l_2024");
  v.set("swizzle_b", c.swizzle_b);
  v.set("swizzle_m", c.swizzle_m);
  v.set("swizzle_s", c.swizzle_s);
  v.set("fault", c.fault);
  v.set("writer", encoding_json(c.writer));
  v.set("reader", encoding_json(c.reader));
  v.set("kind", kind_name(c.kind));
  if (c.kind == props_kind::stencil) {
    json_value::array offsets;
    for (int k = 0; k < c.stencil_points; ++k)
      offsets.push_back(json_value::array{json_value(static_cast<long long>(c.stencil_dr[k])),
                                          json_value(static_cast<long long>(c.stencil_dc[k]))});
    v.set("stencil_offsets", offsets);
  }
  if (c.kind == props_kind::loop) {
    v.set("loop_tiles", static_cast<long long>(c.loop_tiles));
    v.set("double_buffer", c.double_buffer);
  }
  return v;
}

props_case case_from_json(const json_value& v) {
  props_case c;
  c.element_bytes = static_cast<int>(integer(v["element_bytes"], "element_bytes"));
  c.threads = integer(v["threads"], "threads");
  c.grid = integer(v["grid"], "grid");
  c.wave = v.get("wave") ? integer(v["wave"], "wave") : 32;
  c.tensor_rows = integer(v["tensor_rows"], "tensor_rows");
  c.tensor_cols = integer(v["tensor_cols"], "tensor_cols");
  const std::string layout = v["layout"].string();
  bool known = false;
  for (props_layout l : {props_layout::row_major, props_layout::padded, props_layout::ck_xor, props_layout::cute_swizzle,
                         props_layout::morton})
    if (layout == layout_name(l)) c.layout = l, known = true;
  if (!known) throw json_error("layout \"" + layout + "\" is not one of row_major, padded, ck_xor, cute_swizzle, morton");
  c.pad = integer(v["pad"], "pad");
  c.ck_k_pack = integer(v["ck_k_pack"], "ck_k_pack");
  c.ck_m_lds_layer = integer(v["ck_m_lds_layer"], "ck_m_lds_layer");
  c.ck_banks = integer(v["ck_banks"], "ck_banks");
  const std::string order = v["ck_order"].string();
  if (order != "l_k0_2025" && order != "k0_l_2024") throw json_error("ck_order must be l_k0_2025 or k0_l_2024");
  c.ck_order = order == "l_k0_2025" ? ck_lds_order::l_k0_2025 : ck_lds_order::k0_l_2024;
  c.swizzle_b = static_cast<int>(integer(v["swizzle_b"], "swizzle_b"));
  c.swizzle_m = static_cast<int>(integer(v["swizzle_m"], "swizzle_m"));
  c.swizzle_s = static_cast<int>(integer(v["swizzle_s"], "swizzle_s"));
  c.fault = static_cast<int>(integer(v["fault"], "fault"));
  c.writer = encoding_from(v["writer"], "writer");
  c.reader = encoding_from(v["reader"], "reader");
  // "kind": absent in the recordings made before issue 33, which are all copies.
  const std::string kind = v.get("kind") ? v["kind"].string() : "copy";
  bool known_kind = false;
  for (props_kind k : {props_kind::copy, props_kind::stencil, props_kind::reduce, props_kind::loop})
    if (kind == kind_name(k)) c.kind = k, known_kind = true;
  if (!known_kind) throw json_error("kind \"" + kind + "\" is not one of copy, stencil, reduce, loop");
  if (c.kind == props_kind::loop) {
    c.loop_tiles = integer(v["loop_tiles"], "loop_tiles");
    c.double_buffer = static_cast<int>(integer(v["double_buffer"], "double_buffer"));
  }
  if (c.kind == props_kind::stencil) {
    c.stencil_points = fill(v["stencil_offsets"], props_max_stencil_points, "stencil_offsets", [&](int k, const json_value& x) {
      const rh o = rh_from(x, "stencil_offsets");
      c.stencil_dr[k] = o.major, c.stencil_dc[k] = o.minor;
    });
  }
  if (const std::string why = check_props_case(c); !why.empty()) throw json_error("case is invalid: " + why);
  return c;
}

}  // namespace tilesim::gpu::props
