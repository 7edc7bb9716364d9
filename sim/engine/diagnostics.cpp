// tilesim/sim/engine/diagnostics.cpp: one-line descriptions of the engine's findings.
#include "sim/engine/diagnostics.hpp"

#include <algorithm>

namespace tilesim::sim {

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::string access_words(access_kind k, bool atomic, memory_space s) {
  return std::string(space_name(s)) + " " + (atomic ? "atomic add" : kind_name(k));
}

std::string groups(const std::vector<id_group>& g, const char* noun) {
  std::string s;
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (i) s += "; ";
    s += std::string(noun) + " " + id_ranges(g[i].ids) + ": " + g[i].what;
  }
  return s;
}

std::string side(const race_side& s, memory_space space) {
  return describe(s.who) + " " + access_words(s.kind, s.atomic, space) + " " + quoted(s.label) + " (interval " +
         std::to_string(s.interval) + ")";
}

}  // namespace

std::string id_ranges(const std::vector<int>& ids_in) {
  std::vector<int> ids = ids_in;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::string s;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!s.empty()) s += ", ";
    s += std::to_string(ids[i]);
    if (j > i) {  // two appends: GCC 12 -O3 warns falsely (-Wrestrict) about "-" + std::to_string(...)
      s += '-';
      s += std::to_string(ids[j]);
    }
    i = j + 1;
  }
  return s;
}

const char* space_name(memory_space s) { return s == memory_space::lds ? "lds" : "global"; }
const char* kind_name(access_kind k) { return k == access_kind::load ? "load" : "store"; }

std::string describe(const thread_ref& t) {
  return "block " + std::to_string(t.block) + " thread " + std::to_string(t.thread) + " (wave " +
         std::to_string(t.wave) + ", lane " + std::to_string(t.lane) + ")";
}

std::string describe(const race& r) {
  return "race on " + r.buffer_name + " bytes [" + std::to_string(r.begin) + ", " + std::to_string(r.end) +
         "): " + side(r.first, r.space) + " and " + side(r.second, r.space);
}

std::string describe(const bounds_error& e) {
  return describe(e.who) + " " + access_words(e.kind, e.atomic, e.space) + " " + quoted(e.label) + " (interval " +
         std::to_string(e.interval) + ") of elements [" + std::to_string(e.element_offset) + ", " +
         std::to_string(e.element_offset + e.elements) + ") = bytes [" + std::to_string(e.byte_offset) + ", " +
         std::to_string(e.byte_offset + e.width) + ") of " + e.buffer_name + " (" +
         std::to_string(e.buffer_elements) + " elements): " + std::to_string(e.outside) +
         " element(s) outside the buffer, " + (e.kind == access_kind::load ? "read as 0" : "dropped");
}

std::string describe(const misaligned_access& m) {
  return describe(m.who) + " " + access_words(m.kind, false, m.space) + " " + quoted(m.label) + " (interval " +
         std::to_string(m.interval) + ") of " + std::to_string(m.width) + " bytes at address " +
         std::to_string(m.address) + " of " + m.buffer_name + ": not a multiple of " + std::to_string(m.alignment);
}

std::string describe(const ambiguity& a) {
  return "ambiguous grouping in block " + std::to_string(a.block) + " wave " + std::to_string(a.wave) +
         " interval " + std::to_string(a.interval) + " instruction " + std::to_string(a.position) + ": " +
         groups(a.lanes, "lanes");
}

std::string describe(const divergence& d) {
  return "divergent lanes in block " + std::to_string(d.block) + " wave " + std::to_string(d.wave) + " interval " +
         std::to_string(d.interval) + ": " + groups(d.lanes, "lanes");
}

std::string describe(const barrier_mismatch& b) {
  return "barrier " + std::to_string(b.barrier) + " of block " + std::to_string(b.block) +
         " reached from different places: " + groups(b.threads, "threads");
}

}  // namespace tilesim::sim
