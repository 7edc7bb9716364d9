// tilesim/sim/synth/family_brute_force.cpp: every member of a family, priced (see the header).
#include "sim/synth/family_brute_force.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace tilesim::synth {
namespace {

int log2_of(long long v) { return v > 0 && (v & (v - 1)) == 0 ? std::countr_zero(static_cast<unsigned long long>(v)) : -1; }

// Rank over GF(2) of columns (each an f-bit value).
int rank_of(const std::vector<std::uint32_t>& cols) {
  std::uint32_t basis[32] = {};
  int rank = 0;
  for (std::uint32_t v : cols)
    for (int b = 31; b >= 0 && v; --b) {
      if (!((v >> b) & 1u)) continue;
      if (!basis[b]) {
        basis[b] = v;
        ++rank;
        v = 0;
      } else {
        v ^= basis[b];
      }
    }
  return rank;
}

}  // namespace

brute_force_result brute_force_family(const synth_request& r, xor_family family, long long limit) {
  brute_force_result out;
  const tile_shape& t = r.tile;
  const int eb = log2_of(t.elem_bytes), rb = log2_of(t.rows), cbits = log2_of(t.cols);
  const int keep = std::max(r.writer.max_elems(), r.reader.max_elems());
  const int vbytes = std::max(4, keep * t.elem_bytes);
  const int vb = log2_of(vbytes);
  if (eb < 0 || rb < 0 || cbits < 0 || vb < 0) return out;
  const int z = vb - 2, cb = cbits + eb - vb, m = cb + rb, f = log2_of(r.arch->banks) - z;
  const int e0 = vb - eb;  // element bits inside a chunk
  if (cb < 0 || f < 1 || m < f || m > 26) return out;
  // Free choices: one value per source bit, `bits` wide.
  int sources = 0, bits = 0;
  switch (family) {
    case xor_family::row_xor: sources = rb, bits = std::min(cb, f); break;
    case xor_family::graph: sources = m - f, bits = f; break;
    case xor_family::gf2: sources = m, bits = f; break;
  }
  const int total_bits = sources * bits;
  out.members = total_bits >= 62 ? -1 : (1LL << total_bits);
  if (total_bits >= 62 || out.members > limit) return out;
  const auto n = static_cast<std::size_t>(t.elements());
  std::vector<index_t> off(n);
  std::vector<std::uint32_t> cols(static_cast<std::size_t>(sources));
  for (long long code = 0; code < out.members; ++code) {
    for (int s = 0; s < sources; ++s)
      cols[static_cast<std::size_t>(s)] = static_cast<std::uint32_t>((code >> (s * bits)) & ((1LL << bits) - 1));
    // The map of chunk indices h -> h'.
    std::vector<std::uint32_t> img(static_cast<std::size_t>(m));  // image of unit vector e_j
    if (family == xor_family::row_xor) {
      for (int j = 0; j < m; ++j) img[static_cast<std::size_t>(j)] = (1u << j) | (j >= cb ? cols[static_cast<std::size_t>(j - cb)] : 0u);
    } else if (family == xor_family::graph) {
      for (int j = 0; j < m; ++j) img[static_cast<std::size_t>(j)] = (1u << j) | (j >= f ? cols[static_cast<std::size_t>(j - f)] : 0u);
    } else {
      if (rank_of(cols) < f) continue;
      // L in the low f bits; the high bits copy the bits outside a set of pivot columns (an invertible completion).
      std::vector<std::uint32_t> basis(static_cast<std::size_t>(f), 0);
      std::vector<int> pivot_of_bit;  // chunk bits that are pivots of L (f of them)
      {
        std::uint32_t b2[32] = {};
        for (int j = 0; j < m; ++j) {
          std::uint32_t v = cols[static_cast<std::size_t>(j)];
          for (int b = 31; b >= 0 && v; --b) {
            if (!((v >> b) & 1u)) continue;
            if (!b2[b]) {
              b2[b] = v;
              pivot_of_bit.push_back(j);
              v = 0;
            } else {
              v ^= b2[b];
            }
          }
        }
      }
      int next = f;
      for (int j = 0; j < m; ++j) {
        std::uint32_t v = cols[static_cast<std::size_t>(j)];
        if (std::find(pivot_of_bit.begin(), pivot_of_bit.end(), j) == pivot_of_bit.end()) v |= 1u << next++;
        img[static_cast<std::size_t>(j)] = v;
      }
    }
    const std::uint32_t low = (1u << e0) - 1u;
    for (std::size_t e = 0; e < n; ++e) {
      const std::uint32_t h = static_cast<std::uint32_t>(e) >> e0;
      std::uint32_t hp = 0;
      for (std::uint32_t b = h; b; b &= b - 1) hp ^= img[static_cast<std::size_t>(std::countr_zero(b))];
      off[e] = static_cast<index_t>((static_cast<std::uint64_t>(hp) << e0) | (e & low));
    }
    const long long c = r.write_weight * price_side(*r.arch, t, r.writer, off).wavefronts +
                        r.read_weight * price_side(*r.arch, t, r.reader, off).wavefronts;
    if (!out.best || c < *out.best) out.best = c;
  }
  return out;
}

}  // namespace tilesim::synth
