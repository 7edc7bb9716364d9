// tilesim/sim/synth/prove.hpp: a layout claim checked over a whole parameter grid, split into shards.
//
// DEFINITION. A `claim` is a grid (named parameters, each a list of values in ascending order; points in
// row-major order, the last parameter fastest) and a check of one point: holds, fails (with what failed) or
// skipped (the point is not a valid parameter set for the layout or its accesses). run_claim checks every
// point of a shard: shard I of N (1-based) takes the points whose index mod N is I-1, so N machines (a CI
// matrix, a Slurm array, GNU parallel) split any grid evenly and deterministically. A failing point is shrunk
// greedily (each parameter moved to the smallest earlier value that still fails, until none moves) and printed
// with a command that reproduces it. merge_reports adds shard reports of one claim, refusing reports of
// different claims or grids (fingerprint), repeated or missing shards; the first counterexample is the one
// of lowest point index.
//
// Built-in claims (make_claim):
//   ck-lds bijective        CK's XOR LDS layout over elem bytes x MPerBlock x KPerBlock x KPack x MLdsLayer
//                           (0 = CK's derivation) x order x banks: the spec/ descriptor is a bijection onto
//                           [0, M*K) that keeps each KPack vector contiguous
//   ck-lds conflict-free    the same layouts on every arch, written warp-raked and read by `read` (mfma on
//                           AMD, ldmatrix on sm90 by default), KPack elements per access: wavefronts == ideal
//   cute bijective          every Swizzle<B,M,S> (B 0..5, M 0..5, S B..8) on every rows x cols (powers of two
//                           up to 256): a bijection when 2^(B+M+S) divides rows*cols
//   cute conflict-free      the swizzles with 2^M = a 16-byte vector of fp16 on every arch, tiles 16..128 rows
//                           x 16..128 cols, warp-raked writes and the arch's operand read
//
// WORKED EXAMPLE. tilesim prove ck-lds --where elem=2,kpack=8 restricts the grid to 16-byte fp16 vectors;
// tilesim prove ck-lds --shard 2/3 checks points 1, 4, 7, ... of the ck-lds grid; the three
// shard reports merged (tilesim prove --merge a.json b.json c.json) say "holds on N points (S skipped)".
//
// INVARIANTS: the shards of one grid are disjoint and cover it; merging them gives the counts of an unsharded
// run and its first counterexample (tested in prove.test.cpp).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tilesim::synth {

struct grid_param {
  std::string name;
  std::vector<long long> values;  // ascending
};

using grid_point = std::vector<long long>;  // one value per parameter

enum class verdict { holds, fails, skipped };

struct point_result {
  verdict v = verdict::holds;
  std::string detail;  // what failed, or why skipped
};

struct claim {
  std::string name;                       // "ck-lds bijective"
  std::vector<grid_param> grid;
  std::function<point_result(const grid_point&)> check;
  std::function<std::string(const grid_point&)> reproduce;  // a paste-able command for one point
  long long points() const;
  grid_point point_at(long long index) const;
  std::string describe(const grid_point& p) const;  // "elem=2 m=128 k=32 ..."
  std::string fingerprint() const;                  // the claim name and the grid's values, hashed
};

struct counterexample {
  long long index = -1;       // of the first failing point in grid order
  std::string point;          // describe() of the shrunk point
  std::string detail;         // what fails there
  std::string reproduce;      // the command
};

struct prove_report {
  std::string claim, fingerprint;
  long long grid_points = 0;
  int shard = 1, shards = 1;  // 1-based shard index and count; merged: shard 0
  std::vector<int> merged;    // shards a merged report contains
  long long checked = 0, held = 0, failed = 0, skipped = 0;
  std::optional<counterexample> first;
};

// The built-in claim `name` ("ck-lds", "cute") of `kind` ("bijective", "conflict-free"); `read` names the
// reader for conflict-free ("default": mfma on AMD, ldmatrix on sm90). Throws std::invalid_argument naming
// the known ones.
claim make_claim(const std::string& name, const std::string& kind, const std::string& read = "default");

// Keeps only the listed values of some parameters: restrict_claim(c, "elem=2,kpack=8,order=2024,arch=gfx942|gfx950")
// (arch by name, order by year). Changes the fingerprint, so shards of one restricted grid merge only with each
// other. Throws std::invalid_argument naming an unknown parameter or a value outside its list.
void restrict_claim(claim& c, const std::string& where);

// Checks the points of shard `shard` of `shards`; `only` (a point as describe() prints it) restricts the run to
// that one point. Throws std::invalid_argument for a bad shard or point.
prove_report run_claim(const claim& c, int shard, int shards, const std::optional<std::string>& only = std::nullopt);

// One JSON object; parse_report reads exactly what to_json writes (throws std::invalid_argument otherwise).
// Its first field is "schema": prove_schema (docs/schema/prove.schema.json); parse_report also reads reports
// without it (written before issue 16) and rejects another version, naming it.
inline constexpr const char* prove_schema = "tilesim.prove/1";
std::string to_json(const prove_report& r);
prove_report parse_report(const std::string& text);

// Adds shard reports (see the essay); throws std::invalid_argument naming the mismatch.
prove_report merge_reports(const std::vector<prove_report>& parts);

}  // namespace tilesim::synth
