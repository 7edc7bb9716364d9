// tilesim/sim/models/truth_file.test.hpp: reading data/calibration's hardware truth in doctest tests.
//
// The truth files are TSVs measured on a GPU (one line per pattern, first column the pattern's NAME) next to
// the pattern files they measure (`tilesim bank` format). Tests run from the repository root.
//
//   const tsv truth = read_tsv("data/calibration/h200-calibration.truth.tsv");
//   const std::size_t wf = truth.column("wavefronts");          // fails the test if there is no such column
//   for (const wave_access& p : read_patterns("data/calibration/h200-calibration.patterns", sm90))
//     if (truth.rows.count(p.label)) use(std::stod(truth.rows.at(p.label)[wf]));
//   pattern_line(p) == "ld_w4_stride_03w 4 load 0 12 24 ... 372"   // paste into `tilesim bank`
//
// TSV FORMAT: lines starting with '#' are comments (provenance) wherever they appear; the first other line is
// the header; every further non-empty line is a row (read_tsv: by NAME, each once; read_tsv_rows: all, in file
// order). INVARIANTS: a file that cannot be opened, a row whose field count differs from the header's, or a NAME
// given twice (read_tsv) fails the test with the path and line; a malformed pattern line fails it with the
// reader's message ("line 7: ...").
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/patterns/pattern_file.hpp"
#include "sim/wave_access.hpp"

namespace tilesim::sim::truth_file {

// Index of the column named `name` in `header`; fails the test (naming `path`) when there is none.
inline std::size_t column_of(const std::string& path, const std::vector<std::string>& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  FAIL(path << " has no column '" << name << "'");
  return 0;
}

// Every row of a TSV in file order, rows free to share their first field (a probe's repeated rounds).
struct tsv_rows {
  std::string path;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<int> lines;  // the file line of each row

  std::size_t column(const std::string& name) const { return column_of(path, header, name); }
};

struct tsv {
  std::string path;
  std::vector<std::string> header;
  std::map<std::string, std::vector<std::string>> rows;  // by the first field

  // Index of the column named `name`; fails the test when the header has none.
  std::size_t column(const std::string& name) const { return column_of(path, header, name); }
};

// True when `path` can be opened for reading.
inline bool readable(const std::string& path) { return std::ifstream(path).good(); }

// The '#'-commented TSV at `path` (see the format above), every row in file order.
inline tsv_rows read_tsv_rows(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path << " (run the tests from the repository root)");
  tsv_rows t;
  t.path = path;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::stringstream s(line);
    for (std::string f; std::getline(s, f, '\t');) fields.push_back(f);
    if (t.header.empty()) {
      t.header = fields;
      continue;
    }
    REQUIRE_MESSAGE(fields.size() == t.header.size(), path << ":" << number << ": " << fields.size()
                                                           << " fields, the header has " << t.header.size());
    t.rows.push_back(fields);
    t.lines.push_back(number);
  }
  return t;
}

// The '#'-commented TSV at `path` (see the format above), rows by their first field (each NAME once).
inline tsv read_tsv(const std::string& path) {
  const tsv_rows all = read_tsv_rows(path);
  tsv t{all.path, all.header, {}};
  for (std::size_t r = 0; r < all.rows.size(); ++r) {
    const std::vector<std::string>& fields = all.rows[r];
    REQUIRE_MESSAGE(t.rows.count(fields[0]) == 0, path << ":" << all.lines[r] << ": " << fields[0] << " given twice");
    t.rows[fields[0]] = fields;
  }
  return t;
}

// Every pattern of a pattern file (failing the test on a malformed line).
inline std::vector<wave_access> read_patterns(const std::string& path, const arch_table& arch) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path << " (run the tests from the repository root)");
  pattern_reader reader(in, arch, memory_space::lds);
  std::vector<wave_access> v;
  wave_access a;
  for (pattern_reader::result r; (r = reader.next(a)) != pattern_reader::result::end;) {
    REQUIRE_MESSAGE(r == pattern_reader::result::pattern, path << ": " << reader.error().text());
    v.push_back(a);
  }
  return v;
}

// The access as one pattern-file line: NAME WIDTH OP OFF_0 ... (4294967295 for an inactive lane).
inline std::string pattern_line(const wave_access& a) {
  std::ostringstream s;
  s << a.label << ' ' << a.width << ' ' << (a.kind == access_kind::load ? "load" : "store");
  for (address_t x : a.address) s << ' ' << (x == no_address ? inactive_offset : x);
  return s.str();
}

}  // namespace tilesim::sim::truth_file
