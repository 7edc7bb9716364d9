// tilesim/cli/encodings.hpp: `tilesim encoding`, the tile distribution encoding explainer.
//
//   tilesim encoding NAME [options]            a built-in encoding (CK's raked patterns, reference examples A-D)
//   tilesim encoding --encoding TEXT [options] an encoding pasted from CK source, in CK's own spelling
//
// OUTPUT (tilesim encoding docs-4x4 --vector 4 --max-extra 2, abridged where marked):
//
//   encoding docs-4x4: the CK docs' 4 x 4 example (ck-tile-semantics.md §3.3; make_docs_4x4_encoding)
//     x0 = 2*warp + y0, x1 = 2*lane + y1, d = 2*y0 + y1; the docs launch 2 warps, so lanes 2.. of ...
//   tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>, sequence<2, 2>>, tuple<sequence<1>, ...>
//     X0: H0 = <2, 2>, length 4
//     ...                                            (X1, P0, P1, Y0, Y1 alike)
//     X lengths 4 x 4 = 16 elements; P lengths 2 x 2 = 4 threads; Y lengths 2 x 2 = 4 elements per thread ...
//   launch: 128 threads in warps of 64 (2 warps); P needs 2 warps x 2 lanes: ok, 124 extra threads (listed below)
//   load/store traits (--vector 4: X1 guarantees 4 consecutive elements at stride 1; --order linear):
//     vector Y dim: Y1 = H1[1], the last H component of X1: gcd(4, 2) = 2 scalars per vector
//     accesses per thread: 4 elements / 2 = 2; first y of each: (0, 0) (1, 0)
//   threads of P: (warp, lane) -> x = (x0, x1) of each access, a vector access as its run along x1:
//     a0: y = (0, 0..1), d = 0..1
//     a1: y = (1, 0..1), d = 2..3
//   warp lane |        a0        a1
//   ----------+--------------------
//      0    0 | (0, 0..1) (1, 0..1)
//      0    1 | (0, 2..3) (1, 2..3)
//      1    0 | (2, 0..1) (3, 0..1)
//      1    1 | (2, 2..3) (3, 2..3)
//   coverage: each of the 16 elements is held by exactly 1 thread
//   extra threads, not masked: 124 of the 128 launched threads lie beyond P and run like the others; ...
//   warp lane |        a0        a1
//   ----------+--------------------
//      0    2 | (0, 4..5) (1, 4..5)  outside the tile
//      0    3 | (0, 6..7) (1, 6..7)  outside the tile
//   (122 more not listed; --max-extra 0 lists all 124)
//
// Under R, a column r gives each thread's replica index and a note "replica of (w, l)" marks threads holding
// the same elements as an earlier one. --svg FILE draws a 2-D tile (render_svg in encodings.cpp).
//
// Everything is computed by spec/ (tile_distribution_encoding::x_of, check, check_launch,
// make_load_store_traits); this file only parses, lays out and draws.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "util/args.hpp"
#include "spec/distribution/encoding.hpp"

namespace tilesim::cli {

// A built-in encoding with the words that explain where it comes from.
struct built_encoding {
  tile_distribution_encoding encoding;
  std::vector<std::string> about;  // header lines: source, parameters, formulas
  index_t threads = 0;             // the launch the encoding is meant for; 0: what its P needs
};

struct encoding_entry {
  std::string name;
  std::string summary;              // one line for --help
  std::vector<option_spec> params;  // its own options (a pattern's --threads replaces the common one)
  std::function<built_encoding(const options&)> build;  // throws spec_error for parameters spec/ rejects
};

// Every built-in encoding, in help order.
const std::vector<encoding_entry>& encodings();

// The entry named `name`, or nullptr.
const encoding_entry* find_encoding(std::string_view name);

// "docs-4x4 warp-raked block-raked ..."
std::string encoding_names();

// Parses CK's spelling, e.g. "ck_tile::tile_distribution_encoding<sequence<>, tuple<sequence<2, 2>>, ...>{}":
// free whitespace, an optional ck_tile:: on every name, an optional trailing {}. A malformed text is a
// usage_error naming the column and the token ("--encoding: column 40: expected ',' or '>', found 'x' ...");
// a well-formed but invalid encoding is the spec_error of tile_distribution_encoding::check().
tile_distribution_encoding parse_ck_encoding(std::string_view text);

// `tilesim encoding --help`.
void print_encoding_help(std::ostream& out);

// `tilesim encoding ARGS...`: prints the explanation (and writes --svg FILE); returns the exit code. Throws
// usage_error or spec_error for bad input, before anything is printed or written.
int run_encoding(const std::vector<std::string>& args);

}  // namespace tilesim::cli
