// tilesim/sim/synth/tile_access.cpp: sides from encodings, built-in names and pattern files (see the header).
#include "sim/synth/tile_access.hpp"

#include <stdexcept>

#include "sim/patterns/pattern_file.hpp"
#include "kernel/copy/copy.hpp"
#include "spec/window/load_store_traits.hpp"
#include "spec/window/tile_window.hpp"

namespace tilesim::synth {

int tile_side::max_elems() const {
  int m = 1;
  for (const tile_instruction& i : instructions) m = i.elems > m ? i.elems : m;
  return m;
}

tile_side side_from_encoding(const tile_distribution_encoding& e, const tile_shape& tile, index_t threads, int wave,
                             index_t vector, sim::access_kind kind, std::string name) {
  require(e.check());
  require(e.check_launch(threads, wave));
  if (e.n_x != 2 || e.x_length(0) != tile.rows || e.x_length(1) != tile.cols)
    throw std::invalid_argument("the encoding's X lengths (" + std::to_string(e.n_x == 2 ? e.x_length(0) : -1) + " x " +
                                std::to_string(e.n_x == 2 ? e.x_length(1) : -1) + ") are not the tile's " +
                                std::to_string(tile.rows) + " x " + std::to_string(tile.cols));
  vector_guarantees<2> v{};
  v[0] = {1, tile.cols};
  v[1] = {vector, 1};
  const load_store_traits t = make_load_store_traits(e, v);
  tile_side s;
  s.name = std::move(name);
  const index_t waves = threads / wave;
  for (index_t w = 0; w < waves; ++w)
    for (index_t a = 0; a < t.num_access; ++a) {
      tile_instruction ins;
      ins.label = "w" + std::to_string(w) + " a" + std::to_string(a);
      ins.kind = kind;
      ins.elems = static_cast<int>(t.scalars_per_vector);
      ins.lanes.resize(static_cast<std::size_t>(wave));
      for (int l = 0; l < wave; ++l) {
        const auto x = e.x_of(partition_index(e, w, l), t.first_y(a));
        if (x[0] >= 0 && x[0] < tile.rows && x[1] >= 0 && x[1] < tile.cols) ins.lanes[static_cast<std::size_t>(l)] = {x[0], x[1]};
      }
      s.instructions.push_back(std::move(ins));
    }
  return s;
}

std::string side_names() { return "warp-raked thread-raked block-raked down-rows mfma mfma16 ldmatrix"; }

tile_side named_side(std::string_view name, const tile_shape& tile, index_t threads, int wave, index_t vector,
                     sim::access_kind kind) {
  const auto need_wave = [&](int w) {
    if (wave != w)
      throw std::invalid_argument("pattern '" + std::string(name) + "' needs a wave of " + std::to_string(w) +
                                  " lanes (the arch has " + std::to_string(wave) + ")");
  };
  tile_distribution_encoding e{};
  if (name == "warp-raked") {
    e = make_warp_raked_encoding(threads, wave, tile.rows, tile.cols, vector);
  } else if (name == "thread-raked") {
    e = make_thread_raked_encoding(threads, wave, tile.rows, tile.cols, vector);
  } else if (name == "block-raked") {
    e = make_block_raked_encoding(threads, wave, tile.rows, tile.cols, vector);
  } else if (name == "down-rows") {
    e = programs::make_lanes_down_rows_encoding(threads, wave, tile.rows, tile.cols, vector);
  } else if (name == "mfma" || name == "mfma16" || name == "ldmatrix") {
    need_wave(name == "ldmatrix" ? 32 : 64);
    const index_t r = name == "mfma" ? 32 : 16;
    e = programs::operand_read_pattern{threads, wave, tile.rows, tile.cols, vector, r}.encoding();
  } else {
    throw std::invalid_argument("unknown pattern '" + std::string(name) + "' (known: " + side_names() + ")");
  }
  return side_from_encoding(e, tile, threads, wave, vector, kind, std::string(name));
}

tile_side side_from_patterns(std::istream& in, const sim::arch_table& arch, const tile_shape& tile,
                             sim::access_kind kind, std::string name, std::vector<std::string>& errors) {
  tile_side s;
  s.name = std::move(name);
  sim::pattern_reader reader(in, arch, sim::memory_space::lds);
  sim::wave_access a;
  const auto eb = static_cast<std::uint64_t>(tile.elem_bytes);
  for (;;) {
    const auto r = reader.next(a);
    if (r == sim::pattern_reader::result::end) break;
    if (r == sim::pattern_reader::result::error) {
      errors.push_back(reader.error().text());
      continue;
    }
    const std::string where = "line " + std::to_string(reader.line_number()) + ": ";
    if (a.width % tile.elem_bytes != 0) {
      errors.push_back(where + "width " + std::to_string(a.width) + " is not a whole number of " +
                       std::to_string(tile.elem_bytes) + "-byte elements");
      continue;
    }
    tile_instruction ins;
    ins.label = a.label;
    ins.kind = kind;
    ins.elems = a.width / tile.elem_bytes;
    ins.lanes.resize(a.address.size());
    bool ok = true;
    for (std::size_t l = 0; l < a.address.size() && ok; ++l) {
      const sim::address_t off = a.address[l];
      if (off == sim::no_address) continue;
      const auto element = static_cast<index_t>(off / eb);
      if (off % eb != 0 || element + ins.elems > tile.elements()) {
        errors.push_back(where + "lane " + std::to_string(l) + ": offset " + std::to_string(off) +
                         " is not an element of the " + std::to_string(tile.rows) + " x " + std::to_string(tile.cols) +
                         " tile of " + std::to_string(tile.elem_bytes) + "-byte elements");
        ok = false;
      }
      ins.lanes[l] = {element / tile.cols, element % tile.cols};
    }
    if (ok) s.instructions.push_back(std::move(ins));
  }
  return s;
}

std::optional<std::string> check_side(const tile_side& s, const tile_shape& tile, int wave) {
  for (const tile_instruction& i : s.instructions) {
    const std::string where = s.name + " instruction '" + i.label + "': ";
    const int bytes = i.elems * tile.elem_bytes;
    if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16)
      return where + std::to_string(i.elems) + " elements of " + std::to_string(tile.elem_bytes) + " bytes = " +
             std::to_string(bytes) + " bytes per lane, not 1, 2, 4, 8 or 16";
    if (static_cast<int>(i.lanes.size()) != wave)
      return where + std::to_string(i.lanes.size()) + " lanes, the wave has " + std::to_string(wave);
    if (i.weight < 0 || i.weight > 1'000'000)
      return where + "weight " + std::to_string(i.weight) + " is not 0 to 10^6";
    for (std::size_t l = 0; l < i.lanes.size(); ++l) {
      const lane_coord c = i.lanes[l];
      if (!c.active()) continue;
      if (c.row >= tile.rows || c.col < 0 || c.col + i.elems > tile.cols)
        return where + "lane " + std::to_string(l) + " at (" + std::to_string(c.row) + ", " + std::to_string(c.col) +
               ") + " + std::to_string(i.elems) + " elements leaves the " + std::to_string(tile.rows) + " x " +
               std::to_string(tile.cols) + " tile";
      if (c.col % i.elems != 0)
        return where + "lane " + std::to_string(l) + " at column " + std::to_string(c.col) +
               " is not aligned to its vector of " + std::to_string(i.elems);
    }
  }
  return std::nullopt;
}

}  // namespace tilesim::synth
