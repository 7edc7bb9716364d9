// tilesim/python/src/banks.cpp: the bank model (sim/models/lds_banks.hpp) for one wave's lane addresses, and
// a tile side (sim/synth/tile_access.hpp) priced under any offset table.
//
// lds_cost("sm90", 16, "load", [0, 128, ..., 3968]) == {"wavefronts": 32, "ideal": 4, "max_ways": 8, ...}: the
// numbers `tilesim bank --arch sm90 --detail` prints for the same line, and "cycles" its steady-state cycles.
// Addresses are byte offsets, one per lane of the wave (32 on sm90, 64 on AMD); 4294967295 or any negative
// value marks an inactive lane, as in the pattern files. detail=True adds "phases": per counted phase its
// lanes, its ways and the distinct 4-byte words each bank serves.
// price_side("gfx942", 64, 32, 2, "down-rows", offsets) prices every instruction of a built-in tile side (or a
// CK encoding's text) with the addresses offsets[row, col] * elem_bytes: what `tilesim synth` sums per layout.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "cli/encodings.hpp"
#include "python/src/bindings.hpp"
#include "sim/arch/arch.hpp"
#include "sim/models/global_coalescing.hpp"
#include "sim/models/lds_banks.hpp"
#include "sim/models/lds_timing.hpp"
#include "sim/patterns/pattern_file.hpp"
#include "sim/report/program_report.hpp"
#include "sim/synth/synth.hpp"

namespace py = pybind11;

namespace tilesim::python {
namespace {

using addresses_t = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

sim::access_kind kind_named(const std::string& op) {
  if (op == "load") return sim::access_kind::load;
  if (op == "store") return sim::access_kind::store;
  throw std::invalid_argument("op must be 'load' or 'store' (got '" + op + "')");
}

// The wave_access of one line of a pattern file, with the same checks pattern_reader makes.
sim::wave_access access_of(const sim::arch_table& arch, int width, const std::string& op, const addresses_t& addresses,
                           sim::memory_space space, const std::string& label) {
  if (addresses.ndim() != 1 || addresses.size() != arch.wave_size)
    throw std::invalid_argument("addresses: " + std::string(arch.name) + " needs one address per lane, " +
                                std::to_string(arch.wave_size) + " in a 1-D array (got " +
                                std::to_string(addresses.size()) + " in " + std::to_string(addresses.ndim()) + "-D)");
  if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16)
    throw std::invalid_argument("width must be 1, 2, 4, 8 or 16 bytes per lane (got " + std::to_string(width) + ")");
  sim::wave_access a;
  a.label = label;
  a.kind = kind_named(op);
  a.space = space;
  a.width = width;
  const std::int64_t* in = addresses.data();
  for (int lane = 0; lane < arch.wave_size; ++lane) {
    const std::int64_t v = in[lane];
    if (v < 0 || static_cast<std::uint64_t>(v) == sim::inactive_offset) {
      a.address.push_back(sim::no_address);
      continue;
    }
    if (static_cast<std::uint64_t>(v) > sim::inactive_offset)
      throw std::invalid_argument("lane " + std::to_string(lane) + ": offset " + std::to_string(v) +
                                  " is out of range (at most 4294967295, which marks an inactive lane)");
    if (v % width != 0)
      throw std::invalid_argument("lane " + std::to_string(lane) + ": offset " + std::to_string(v) +
                                  " is not a multiple of the width " + std::to_string(width));
    a.address.push_back(static_cast<sim::address_t>(v));
  }
  return a;
}

py::dict cost_dict(const sim::arch_table& arch, const sim::wave_access& a, const sim::lds_cost& c) {
  py::dict d;
  d["wavefronts"] = c.wavefronts;
  d["cycles"] = sim::steady_cycles(arch, a, c);
  d["ideal"] = c.ideal;
  d["excess"] = c.excess;
  d["max_ways"] = c.max_ways;
  d["n_way"] = c.max_ways;
  d["passes"] = c.passes;
  d["bank_conflicts"] = c.bank_conflicts;
  d["pipe_slots"] = c.pipe_slots;
  d["active"] = c.active;
  d["packed"] = c.packed;
  return d;
}

py::dict lds_cost(const std::string& arch_name, int width, const std::string& op, const addresses_t& addresses,
                  bool detail) {
  const sim::arch_table& arch = sim::arch_named(arch_name);
  const sim::wave_access a = access_of(arch, width, op, addresses, sim::memory_space::lds, "python");
  if (!detail) return cost_dict(arch, a, sim::lds_instruction_cost(arch, a));
  const sim::lds_detail det = sim::lds_instruction_detail(arch, a);
  py::dict d = cost_dict(arch, a, det.cost);
  py::list phases;
  for (const sim::lds_phase_detail& p : det.phases) {
    py::dict ph;
    ph["lanes"] = p.lanes;
    ph["ways"] = p.ways;
    ph["merged"] = p.merged;
    ph["words"] = p.words;  // per bank: the distinct word indices it serves
    phases.append(ph);
  }
  d["banks"] = det.banks;
  d["phases"] = phases;
  return d;
}

py::dict global_cost(const std::string& arch_name, int width, const std::string& op, const addresses_t& addresses) {
  const sim::arch_table& arch = sim::arch_named(arch_name);
  const sim::global_cost g =
      sim::global_instruction_cost(arch, access_of(arch, width, op, addresses, sim::memory_space::global, "python"));
  py::dict d;
  d["sectors"] = g.sectors;
  d["lines"] = g.lines;
  d["ideal_sectors"] = g.ideal_sectors;
  d["ideal_lines"] = g.ideal_lines;
  d["bytes"] = g.bytes;
  return d;
}

std::string bank_svg(const std::string& arch_name, int width, const std::string& op, const addresses_t& addresses,
                     std::string label) {
  for (char& ch : label)  // bank_heat_map_svg does not escape XML (as cli/synth.cpp does for its labels)
    if (ch == '<' || ch == '>' || ch == '&') ch = ch == '<' ? '(' : ch == '>' ? ')' : '+';
  const sim::arch_table& arch = sim::arch_named(arch_name);
  return sim::bank_heat_map_svg(arch, access_of(arch, width, op, addresses, sim::memory_space::lds, label));
}

// A built-in side name, or a CK tile_distribution_encoding's text (as `tilesim synth --read-encoding` reads it).
synth::tile_side side_named(const std::string& side, const sim::arch_table& arch, const synth::tile_shape& tile,
                            index_t threads, index_t vector, sim::access_kind kind) {
  if (side.find('<') != std::string::npos)
    return synth::side_from_encoding(cli::parse_ck_encoding(side), tile, threads, arch.wave_size, vector, kind,
                                     "encoding");
  return synth::named_side(side, tile, threads, arch.wave_size, vector, kind);
}

py::dict price_side(const std::string& arch_name, index_t rows, index_t cols, int elem_bytes, const std::string& side,
                    const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& offsets, index_t threads,
                    index_t vector, const std::string& op) {
  const sim::arch_table& arch = sim::arch_named(arch_name);
  if (rows < 1 || cols < 1 || elem_bytes < 1 || elem_bytes > 16)
    throw std::invalid_argument("tile " + std::to_string(rows) + " x " + std::to_string(cols) + " of " +
                                std::to_string(elem_bytes) + "-byte elements: rows, cols >= 1, elem_bytes in [1, 16]");
  if (offsets.size() != rows * cols)
    throw std::invalid_argument("offsets: " + std::to_string(offsets.size()) + " values for a " + std::to_string(rows) +
                                " x " + std::to_string(cols) + " tile");
  const synth::tile_shape tile{rows, cols, elem_bytes};
  const index_t v = vector > 0 ? vector : std::max<index_t>(1, 16 / elem_bytes);  // `tilesim synth`'s default
  const synth::tile_side s = side_named(side, arch, tile, threads, v, kind_named(op));
  if (auto broken = synth::check_side(s, tile, arch.wave_size)) throw std::invalid_argument(*broken);
  std::vector<index_t> off(offsets.data(), offsets.data() + offsets.size());
  for (std::size_t i = 0; i < off.size(); ++i)
    if (off[i] < 0 || off[i] * elem_bytes >= (index_t{1} << 32) - 16)
      throw std::invalid_argument("offsets: element (" + std::to_string(i / cols) + ", " + std::to_string(i % cols) +
                                  ") has offset " + std::to_string(off[i]) + ", outside [0, 2^32 / elem_bytes)");
  py::list per_instruction;
  for (const synth::tile_instruction& ins : s.instructions) {
    const sim::wave_access a = synth::wave_access_of(tile, ins, off);
    py::dict d = cost_dict(arch, a, sim::lds_instruction_cost(arch, a));
    d["label"] = ins.label;
    d["width"] = a.width;
    std::vector<std::int64_t> addr;
    for (sim::address_t x : a.address) addr.push_back(x == sim::no_address ? -1 : static_cast<std::int64_t>(x));
    d["addresses"] = addr;
    per_instruction.append(d);
  }
  const synth::side_cost c = synth::price_side(arch, tile, s, off);
  py::dict d;
  d["side"] = s.name;
  d["wavefronts"] = c.wavefronts;
  d["ideal"] = c.ideal;
  d["max_ways"] = c.max_ways;
  d["worst_instruction"] = c.worst_instruction;
  d["instructions"] = per_instruction;
  return d;
}

}  // namespace

void bind_banks(py::module_& m) {
  m.def("arch_names", [] { return sim::arch_names(); }, "'sm90, gfx90a, gfx942, gfx950'");
  m.def("arch_info", [](const std::string& name) {
    const sim::arch_table& a = sim::arch_named(name);
    py::dict d;
    d["name"] = std::string(a.name);
    d["description"] = std::string(a.description);
    d["wave_size"] = a.wave_size;
    d["banks"] = a.banks;
    d["bank_bytes"] = a.bank_bytes;
    return d;
  }, py::arg("arch"), "wave size, banks and description of one architecture");
  m.def("lds_cost", &lds_cost, py::arg("arch"), py::arg("width"), py::arg("op"), py::arg("addresses"),
        py::arg("detail") = false, "One LDS instruction's cost, as `tilesim bank --detail` prices it");
  m.def("global_cost", &global_cost, py::arg("arch"), py::arg("width"), py::arg("op"), py::arg("addresses"),
        "One global instruction's sectors, as `tilesim global --detail` counts them");
  m.def("bank_svg", &bank_svg, py::arg("arch"), py::arg("width"), py::arg("op"), py::arg("addresses"),
        py::arg("label") = "python", "The bank heat map (phases x banks) of one LDS instruction, as SVG text");
  m.def("price_side", &price_side, py::arg("arch"), py::arg("rows"), py::arg("cols"), py::arg("elem_bytes"),
        py::arg("side"), py::arg("offsets"), py::arg("threads") = 256, py::arg("vector") = 0, py::arg("op") = "load",
        "Every instruction of a tile side priced under an offset table (what `tilesim synth` sums per layout)");
}

}  // namespace tilesim::python
