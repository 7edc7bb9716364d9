// tilesim/python/src/layouts.cpp: `tilesim layout`'s built-in layouts and CuTe's swizzle, for Python.
//
// layout_grid("cute-swizzle", ["--bits", "2"]) builds the layout exactly as `tilesim layout cute-swizzle --bits 2`
// does (cli/layouts.hpp: the spec/ descriptor evaluated at every (row, col)) and returns its offsets as a
// rows x cols int64 array with the header lines. swizzle(3, 3, 3, [72]) == [64]: spec/'s swizzle_offset over an
// array, the parameters checked by spec/'s swizzle rules first (|S| >= B, ...). tma_box(8, 64, 2, 3) is where a
// Hopper TMA load with SWIZZLE_128B puts each element of an 8 x 64 fp16 box (spec/hopper/tma.hpp), in elements.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "cli/layouts.hpp"
#include "python/src/bindings.hpp"
#include "spec/hopper/tma.hpp"
#include "spec/spec.hpp"

namespace py = pybind11;

namespace tilesim::python {
namespace {

// The options of `tilesim layout` that change a layout itself (cli/tilesim.cpp's common options, same ranges).
std::vector<cli::option_spec> layout_shaping_options() {
  return {{"elem-bytes", "bytes per element (ck-xor also derives MLdsLayer from it)", 2, 1, 16},
          {"banks", "LDS banks of 4 bytes (ck-xor derives MLdsLayer from it)", 32, 1, 1024}};
}

const cli::layout_entry& entry_named(const std::string& name) {
  const cli::layout_entry* e = cli::find_layout(name);
  if (!e) throw cli::usage_error("unknown layout '" + name + "' (known: " + cli::layout_names() + ")");
  return *e;
}

// {"name", "about", "rows", "cols", "row_name", "col_name", "element_space", "offsets" (rows x cols int64)}.
py::dict layout_grid(const std::string& name, const std::vector<std::string>& args) {
  const cli::layout_entry& e = entry_named(name);
  std::vector<cli::option_spec> specs = e.params;
  for (cli::option_spec& s : layout_shaping_options()) specs.push_back(std::move(s));
  const cli::layout_grid g = e.build(cli::parse_options(args, specs, "layout " + name));
  py::array_t<std::int64_t> offsets({g.rows, g.cols});
  auto out = offsets.mutable_unchecked<2>();
  for (index_t r = 0; r < g.rows; ++r)
    for (index_t c = 0; c < g.cols; ++c) out(r, c) = g.at(r, c);
  py::dict d;
  d["name"] = g.name;
  d["about"] = g.about;
  d["rows"] = g.rows;
  d["cols"] = g.cols;
  d["row_name"] = g.row_name;
  d["col_name"] = g.col_name;
  d["element_space"] = g.element_space;
  d["offsets"] = offsets;
  return d;
}

// [(option, default, min, max, help)] of one layout, for help texts and keyword checks.
py::list layout_options(const std::string& name) {
  std::vector<cli::option_spec> specs = entry_named(name).params;
  for (cli::option_spec& s : layout_shaping_options()) specs.push_back(std::move(s));
  py::list out;
  for (const cli::option_spec& s : specs) out.append(py::make_tuple(s.name, s.default_value, s.min, s.max, s.help));
  return out;
}

// CuTe's Swizzle<B,M,S> applied to every offset of `offsets` (spec/transforms/swizzle.hpp).
py::array_t<std::int64_t> swizzle_array(int bits, int base, int shift, py::array_t<std::int64_t, py::array::c_style | py::array::forcecast> offsets) {
  // spec/'s rules for B, M, S (the length rule is the descriptor's, not the function's): spec_error on a break.
  const violation v = tilesim::swizzle{bits, base, shift, 1}.check();
  if (v && v.what != rule::swizzle_length_not_whole_blocks) require(v);
  py::array_t<std::int64_t> out(offsets.request().shape);
  const std::int64_t* in = offsets.data();
  std::int64_t* o = out.mutable_data();
  for (py::ssize_t i = 0; i < offsets.size(); ++i) {
    if (in[i] < 0) throw std::invalid_argument("swizzle: offset " + std::to_string(in[i]) + " is negative");
    o[i] = swizzle_offset(bits, base, shift, in[i]);
  }
  return out;
}

// Element offsets (rows x cols) where TMA places a rows x cols box (dim 0 = cols, contiguous) with swizzle B
// (0 none, 1 32B, 2 64B, 3 128B); the driver's rules (cuTensorMapEncodeTiled) are checked first.
py::array_t<std::int64_t> tma_box(index_t rows, index_t cols, index_t elem_bytes, int swizzle_bits) {
  if (swizzle_bits < 0 || swizzle_bits > 3)
    throw std::invalid_argument("tma_box: swizzle must be 0 (none), 1 (32B), 2 (64B) or 3 (128B) (got " +
                                std::to_string(swizzle_bits) + ")");
  hopper::tma_map m;
  m.rank = 2;
  m.elem_bytes = elem_bytes;
  m.global_dims[0] = cols;
  m.global_dims[1] = rows;
  m.global_strides[1] = (cols * elem_bytes + 15) / 16 * 16;  // any legal pitch: the placement does not use it
  m.box_dims[0] = cols;
  m.box_dims[1] = rows;
  m.swizzle = static_cast<hopper::tma_swizzle>(swizzle_bits);
  require(m.check());
  py::array_t<std::int64_t> offsets({rows, cols});
  auto out = offsets.mutable_unchecked<2>();
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c) out(r, c) = m.smem_offset(hopper::box_index{{c, r}}) / elem_bytes;
  return offsets;
}

}  // namespace

void bind_layouts(py::module_& m) {
  m.def("layout_names", [] { return cli::layout_names(); }, "The built-in layouts: 'row-major padded ck-xor ...'");
  m.def("layout_grid", &layout_grid, py::arg("name"), py::arg("args"),
        "A built-in layout as `tilesim layout NAME ARGS...` builds it: a dict with its offsets (rows x cols)");
  m.def("layout_options", &layout_options, py::arg("name"), "[(option, default, min, max, help)] of one layout");
  m.def("swizzle", &swizzle_array, py::arg("bits"), py::arg("base"), py::arg("shift"), py::arg("offsets"),
        "CuTe's Swizzle<B,M,S> of every offset: swizzle(3, 3, 3, [72]) == [64]");
  m.def("tma_box", &tma_box, py::arg("rows"), py::arg("cols"), py::arg("elem_bytes"), py::arg("swizzle"),
        "Element offsets where a Hopper TMA load places a rows x cols box (spec/hopper/tma.hpp)");
}

}  // namespace tilesim::python
