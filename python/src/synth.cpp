// tilesim/python/src/synth.cpp: synthesize() (sim/synth/synth.hpp) for Python, through one thin layer.
//
// synth("gfx942", 128, 32, 2, "warp-raked", "mfma") runs the search `tilesim synth --arch gfx942 --rows 128
// --cols 32 --write warp-raked --read mfma` runs and returns what its --json prints (docs/schema/synth.schema.json:
// best, row_major, ideal, reaches_ideal, candidates, checked, xor), plus what only a library caller wants: the
// best layout's offsets (rows x cols) and a "certificate" dict: the XOR-linear analysis's verdict as data
// ({"verdict": "conflict-free layout exists" | "none exists" | "unknown", "exhaustive", "nodes", "lower_bound",
// "rank_notes"}). Only this file and synth_result_dict know synth_result's fields, so a richer certificate
// (branch synth36) is one more key here. Sides are built-in names or CK encodings' texts, as on the command line.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "cli/encodings.hpp"
#include "python/src/bindings.hpp"
#include "sim/synth/synth.hpp"
#include "util/args.hpp"

namespace py = pybind11;

namespace tilesim::python {
namespace {

std::vector<synth::layout_family> families_named(const std::vector<std::string>& names) {
  std::vector<synth::layout_family> out;
  for (const std::string& w : names) {
    if (w == "all") return {};
    if (w == "row-major") out.push_back(synth::layout_family::row_major);
    else if (w == "padded") out.push_back(synth::layout_family::padded);
    else if (w == "cute") out.push_back(synth::layout_family::cute);
    else if (w == "xor") out.push_back(synth::layout_family::xor_linear);
    else if (w == "ck") out.push_back(synth::layout_family::ck);
    else throw cli::usage_error("family: unknown family '" + w + "' (known: all, xor, cute, ck, padded, row-major)");
  }
  return out;
}

synth::tile_side side_of(const std::string& which, const std::string& side, const sim::arch_table& arch,
                         const synth::tile_shape& tile, index_t threads, index_t vector, sim::access_kind kind) {
  try {
    if (side.find('<') != std::string::npos)
      return synth::side_from_encoding(cli::parse_ck_encoding(side), tile, threads, arch.wave_size, vector, kind,
                                       which + " encoding");
    return synth::named_side(side, tile, threads, arch.wave_size, vector, kind);
  } catch (const std::invalid_argument& e) {
    if (dynamic_cast<const spec_error*>(&e)) throw;
    throw cli::usage_error(which + ": " + e.what());
  }
}

py::dict cost_of(const synth::priced_layout& p) {
  py::dict d;
  d["wavefronts"] = p.total();
  d["write"] = p.write.wavefronts;
  d["read"] = p.read.wavefronts;
  d["write_max_ways"] = p.write.max_ways;
  d["read_max_ways"] = p.read.max_ways;
  return d;
}

py::dict synth_result_dict(const synth::synth_request& r, const synth::synth_result& s) {
  const synth::lds_layout& b = s.best.layout;
  py::dict best = cost_of(s.best);
  best["name"] = b.name();
  best["family"] = synth::family_name(b.family);
  best["spec"] = synth::spec_spelling(b);
  best["ck_tile"] = synth::ck_spelling(b);
  const std::optional<std::string> cute = synth::cute_spelling(b);
  best["cute"] = cute ? py::object(py::str(*cute)) : py::object(py::none());
  best["element_space"] = b.element_space();
  const std::vector<index_t> off = synth::layout_offsets(b);
  py::array_t<std::int64_t> offsets({r.tile.rows, r.tile.cols});
  std::copy(off.begin(), off.end(), offsets.mutable_data());
  best["offsets"] = offsets;
  const synth::xor_analysis& x = s.xor_info;
  py::dict xd;
  xd["applicable"] = x.applicable;
  xd["not_applicable"] = x.not_applicable;
  xd["feasible"] = x.feasible;
  xd["exhaustive"] = x.exhaustive;
  xd["lower_bound"] = x.lower_bound;
  xd["nodes"] = x.nodes;
  py::dict cert;
  cert["verdict"] = !x.applicable ? "not applicable"
                    : x.feasible  ? "conflict-free XOR-linear layout exists"
                    : x.exhaustive ? "no conflict-free XOR-linear layout (exhaustive search)"
                                   : "unknown (search budget spent)";
  cert["exhaustive"] = x.exhaustive;
  cert["nodes"] = x.nodes;
  cert["lower_bound"] = x.lower_bound;
  cert["rank_notes"] = x.rank_notes;
  cert["unavoidable"] = x.unavoidable ? py::object(py::str(*x.unavoidable)) : py::object(py::none());
  py::dict d;
  d["schema"] = "tilesim.synth/1";
  d["arch"] = std::string(r.arch->name);
  d["rows"] = r.tile.rows;
  d["cols"] = r.tile.cols;
  d["elem_bytes"] = r.tile.elem_bytes;
  d["writer"] = r.writer.name;
  d["reader"] = r.reader.name;
  d["best"] = best;
  d["row_major"] = cost_of(s.row_major);
  d["ideal"] = s.ideal;
  d["reaches_ideal"] = s.reaches_ideal();
  d["candidates"] = s.candidates;
  d["rejected"] = s.rejected;
  d["checked"] = s.checked;
  d["xor"] = xd;
  d["certificate"] = cert;
  return d;
}

py::dict run_synth(const std::string& arch_name, index_t rows, index_t cols, int elem_bytes, const std::string& write,
                   const std::string& read, index_t threads, index_t vector, const std::vector<std::string>& families,
                   long long budget) {
  synth::synth_request r;
  r.arch = &sim::arch_named(arch_name);
  if (rows < 1 || cols < 1 || rows > 4096 || cols > 4096 || elem_bytes < 1 || elem_bytes > 16 || threads < 1 ||
      threads > 1024 || vector < 0 || vector > 64 || budget < 1)
    throw cli::usage_error("synth: rows, cols in [1, 4096], elem_bytes in [1, 16], threads in [1, 1024], vector in "
                           "[0, 64], budget >= 1 (got rows " + std::to_string(rows) + ", cols " + std::to_string(cols) +
                           ", elem_bytes " + std::to_string(elem_bytes) + ", threads " + std::to_string(threads) +
                           ", vector " + std::to_string(vector) + ", budget " + std::to_string(budget) + ")");
  r.tile = {rows, cols, elem_bytes};
  if (r.tile.elements() > (index_t{1} << 22)) throw cli::usage_error("synth: a tile over 2^22 elements is refused");
  const index_t v = vector > 0 ? vector : std::max<index_t>(1, 16 / elem_bytes);
  const std::string reader = read == "default" ? (r.arch->wave_size == 32 ? "ldmatrix" : "mfma") : read;
  r.writer = side_of("write", write, *r.arch, r.tile, threads, v, sim::access_kind::store);
  r.reader = side_of("read", reader, *r.arch, r.tile, threads, v, sim::access_kind::load);
  r.families = families_named(families);
  r.search_budget = budget;
  synth::synth_result s;
  try {
    s = synth::synthesize(r);
  } catch (const std::invalid_argument& e) {
    if (dynamic_cast<const spec_error*>(&e)) throw;
    throw cli::usage_error(std::string("synth: ") + e.what());
  }
  return synth_result_dict(r, s);
}

}  // namespace

void bind_synth(py::module_& m) {
  m.def("synth", &run_synth, py::arg("arch"), py::arg("rows"), py::arg("cols"), py::arg("elem_bytes"),
        py::arg("write"), py::arg("read"), py::arg("threads"), py::arg("vector"), py::arg("families"),
        py::arg("budget"), "synthesize(): the cheapest LDS layout for a writer and a reader, as `tilesim synth --json`");
}

}  // namespace tilesim::python
