// tilesim/gpu/crosscheck/source_counters.cpp: Nsight Compute's source page as rows (source_counters.hpp).
#include "gpu/crosscheck/source_counters.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "gpu/crosscheck/ncu.hpp"
#include "gpu/runtime/device_error.hpp"

namespace tilesim::gpu {

namespace {

// The dot-separated parts of an opcode: "LDG.E.128" -> {"LDG", "E", "128"}.
std::vector<std::string> parts_of(const std::string& opcode) {
  std::vector<std::string> p(1);
  for (char c : opcode) {
    if (c == '.') p.emplace_back();
    else p.back() += c;
  }
  return p;
}

// Bytes per lane a load/store suffix names: 128 -> 16, 64 -> 8, U16/S16 -> 2, U8/S8 -> 1, none -> 4.
int width_of(const std::vector<std::string>& parts) {
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string& s = parts[i];
    if (s == "128") return 16;
    if (s == "64") return 8;
    if (s == "U16" || s == "S16") return 2;
    if (s == "U8" || s == "S8") return 1;
  }
  return 4;
}

// A count cell: "1,024" -> 1024, "" -> 0; anything else is an error naming the cell.
long long count_of(std::string cell, const std::string& origin, const std::string& column, std::size_t line) {
  cell.erase(std::remove(cell.begin(), cell.end(), ','), cell.end());
  cell.erase(std::remove(cell.begin(), cell.end(), ' '), cell.end());
  if (cell.empty() || cell == "-") return 0;
  char* end = nullptr;
  const double v = std::strtod(cell.c_str(), &end);
  if (end == cell.c_str() || *end != '\0')
    throw device_error(origin + ":" + std::to_string(line) + ": column \"" + column + "\" holds \"" + cell +
                       "\", not a number");
  return std::llround(v);
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw device_error("cannot read Nsight Compute source page \"" + path + "\"");
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// `ncu -i REPORT --page source --csv --print-source sass > CSV`; a device_error quoting ncu when it fails.
void export_source_page(const std::string& report, const std::string& csv) {
  const std::string command = ncu_program() + " -i '" + report + "' --page source --csv --print-source sass > '" + csv +
                              "' 2>&1";
  if (std::system(command.c_str()) != 0)
    throw device_error("ncu could not export the source page of " + report + ": " + slurp(csv));
}

}  // namespace

std::string sass_class::text() const {
  if (space == sass_space::none) return "-";
  const std::string what = matrix ? "ldmatrix" : async_copy ? "cp.async" : op == sass_op::load ? "load" : op == sass_op::store ? "store" : "atomic";
  return std::string(space == sass_space::lds ? "lds " : "global ") + what + " " + std::to_string(width) + " B";
}

sass_class classify_sass(const std::string& sass) {
  std::istringstream in(sass);
  std::string opcode;
  in >> opcode;
  if (!opcode.empty() && opcode[0] == '@') in >> opcode;  // a predicate guards it
  const std::vector<std::string> p = parts_of(opcode);
  const std::string& op = p[0];
  sass_class c;
  if (op == "LDS" || op == "STS") {
    c.space = sass_space::lds;
    c.op = op == "LDS" ? sass_op::load : sass_op::store;
    c.width = width_of(p);
  } else if (op == "LDSM") {
    c.space = sass_space::lds;
    c.op = sass_op::load;
    c.width = 16;
    c.matrix = true;
  } else if (op == "LDGSTS") {
    c.space = sass_space::global;
    c.op = sass_op::load;
    c.width = width_of(p);
    c.async_copy = true;
  } else if (op == "LDG" || op == "STG") {
    c.space = sass_space::global;
    c.op = op == "LDG" ? sass_op::load : sass_op::store;
    c.width = width_of(p);
  } else if (op == "ATOMS") {
    c.space = sass_space::lds;
    c.op = sass_op::atomic;
    c.width = width_of(p);
  } else if (op == "ATOMG" || op == "ATOM" || op == "RED") {
    c.space = sass_space::global;
    c.op = sass_op::atomic;
    c.width = width_of(p);
  }
  return c;
}

std::vector<sass_row> parse_source_csv(const std::string& text, const std::string& origin) {
  std::istringstream in(text);
  std::string line;
  std::map<std::string, std::size_t> col;
  std::vector<std::string> header;
  std::vector<sass_row> rows;
  std::size_t number = 0, headers = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.rfind("==", 0) == 0) continue;
    const std::vector<std::string> f = split_csv(line);
    if (std::find(f.begin(), f.end(), "Address") != f.end() && std::find(f.begin(), f.end(), "Source") != f.end()) {
      if (++headers > 1)
        throw device_error(origin + ":" + std::to_string(number) +
                           ": a second source page: this CSV holds several launches (export one: --launch-count 1)");
      header = f;
      for (std::size_t i = 0; i < f.size(); ++i) col.emplace(f[i], i);
      // The cost columns are not required: Nsight leaves out "L1 Wavefronts Shared" for a kernel without
      // shared-memory accesses and "L2 Theoretical Sectors Global" for one without global ones (cell() reads 0).
      for (const char* need : {"Address", "Source", "Instructions Executed"})
        if (!col.count(need)) {
          std::string present;
          for (const std::string& h : header) present += (present.empty() ? "" : ", ") + h;
          throw device_error(origin + ": no column \"" + need + "\" in Nsight Compute's source page (columns: " + present +
                             "); record it with --section SourceCounters");
        }
      continue;
    }
    if (header.empty() || f.size() < header.size()) continue;  // before the page, or a note line
    auto cell = [&](const char* name) -> std::string {
      const auto it = col.find(name);
      return it == col.end() ? std::string() : f[it->second];
    };
    sass_row r;
    const std::string address = cell("Address");
    char* end = nullptr;
    r.address = std::strtoull(address.c_str(), &end, 0);
    if (address.empty() || *end != '\0')
      throw device_error(origin + ":" + std::to_string(number) + ": Address \"" + address + "\" is not a number");
    r.sass = cell("Source");
    r.cls = classify_sass(r.sass);
    r.executed = count_of(cell("Instructions Executed"), origin, "Instructions Executed", number);
    if (col.count("Predicated-On Thread Instructions Executed")) {
      r.threads_on = count_of(cell("Predicated-On Thread Instructions Executed"), origin,
                              "Predicated-On Thread Instructions Executed", number);
      r.predicated_off = r.executed > 0 && r.threads_on == 0;
    }
    r.wavefronts = count_of(cell("L1 Wavefronts Shared"), origin, "L1 Wavefronts Shared", number);
    r.wavefronts_ideal = count_of(cell("L1 Wavefronts Shared Ideal"), origin, "L1 Wavefronts Shared Ideal", number);
    r.sectors = count_of(cell("L2 Theoretical Sectors Global"), origin, "L2 Theoretical Sectors Global", number);
    r.sectors_excessive = count_of(cell("L2 Theoretical Sectors Global Excessive"), origin,
                                   "L2 Theoretical Sectors Global Excessive", number);
    rows.push_back(std::move(r));
  }
  if (header.empty())
    throw device_error(origin + ": no Nsight Compute source page (no header line with \"Address\" and \"Source\")");
  std::sort(rows.begin(), rows.end(), [](const sass_row& a, const sass_row& b) { return a.address < b.address; });
  return rows;
}

std::vector<sass_row> read_source_counters(const std::string& path) {
  if (ends_with(path, ".ncu-rep")) {
    const std::string csv = path.substr(0, path.size() - 8) + ".source.csv";
    export_source_page(path, csv);
    return parse_source_csv(slurp(csv), csv);
  }
  return parse_source_csv(slurp(path), path);
}

std::vector<sass_row> measure_source_counters(const std::string& filter, const std::string& command,
                                              const std::string& env_prefix, const std::string& base) {
  const std::string run = env_prefix + ncu_program() + " --section SourceCounters --clock-control none " + filter +
                          " -f -o '" + base + "' " + command + " > '" + base + ".log' 2>&1";
  std::printf("source counters with Nsight Compute: %s\n", run.c_str());
  std::fflush(stdout);
  if (std::system(run.c_str()) != 0) throw device_error("ncu --section SourceCounters failed: " + slurp(base + ".log"));
  export_source_page(base + ".ncu-rep", base + ".csv");
  return parse_source_csv(slurp(base + ".csv"), base + ".csv");
}

}  // namespace tilesim::gpu
