// tilesim/gpu/crosscheck/ncu.cpp: Nsight Compute's counters for a command's kernels (see ncu.hpp).
#include "gpu/crosscheck/ncu.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include "gpu/runtime/device_error.hpp"

namespace tilesim::gpu {

std::string ncu_program() {
  if (const char* env = std::getenv("NCU"); env && *env) return env;
  if (std::system("command -v ncu > /dev/null 2>&1") == 0) return "ncu";
  for (const char* p : {"/usr/local/cuda/bin/ncu", "/opt/nvidia/nsight-compute/ncu"})
    if (access(p, X_OK) == 0) return p;
  throw device_error("Nsight Compute (ncu) not found: set NCU or PATH, or pass --no-counters");
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> f(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) f.emplace_back();
    else f.back() += c;
  }
  return f;
}

std::vector<ncu_launch> read_ncu_csv(const std::string& csv_path) {
  std::ifstream f(csv_path);
  if (!f) throw device_error("ncu wrote no CSV at " + csv_path);
  std::map<std::size_t, ncu_launch> launches;
  std::vector<std::string> header;
  std::map<std::string, std::size_t> col;
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("==", 0) == 0 || line.empty()) continue;
    const std::vector<std::string> row = split_csv(line);
    if (header.empty()) {
      if (row[0] != "ID") continue;
      header = row;
      for (std::size_t i = 0; i < row.size(); ++i) col[row[i]] = i;
      for (const char* need : {"ID", "Kernel Name", "Metric Name", "Metric Value"})
        if (!col.count(need)) throw device_error(std::string("ncu's CSV has no column \"") + need + "\"");
      continue;
    }
    if (row.size() < header.size()) continue;
    const std::size_t id = std::stoul(row[col["ID"]]);
    std::string value = row[col["Metric Value"]];
    value.erase(std::remove(value.begin(), value.end(), ','), value.end());
    ncu_launch& l = launches[id];
    l.id = id;
    l.kernel = row[col["Kernel Name"]];
    set_counter(l.measured, row[col["Metric Name"]], std::stod(value));
  }
  std::vector<ncu_launch> out;
  for (auto& [id, l] : launches) out.push_back(std::move(l));
  return out;
}

std::vector<ncu_launch> count_with_ncu(const std::string& extra_ncu_args, const std::string& command,
                                       const std::string& env_prefix) {
  char dir[] = "/tmp/tilesim-ncu-XXXXXX";
  if (!mkdtemp(dir)) throw device_error("cannot make a temporary directory for ncu's output");
  const std::string csv = std::string(dir) + "/counters.csv", err = std::string(dir) + "/ncu.err";
  std::string metrics;
  for (const std::string& m : counter_metrics()) metrics += (metrics.empty() ? "" : ",") + m;
  const std::string full = env_prefix + ncu_program() + " --csv --clock-control none --log-file " + csv +
                           " --metrics " + metrics + (extra_ncu_args.empty() ? "" : " " + extra_ncu_args) + " " +
                           command + " > " + err + " 2>&1";
  std::cout << "counting with Nsight Compute: " << full << "\n" << std::flush;
  const int status = std::system(full.c_str());
  struct remove_dir {  // the temporary folder goes on every path, a failure's included
    std::string path;
    ~remove_dir() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } cleanup{dir};
  if (status != 0 || access(csv.c_str(), R_OK) != 0) {
    std::ifstream e(err);
    std::stringstream s;
    s << e.rdbuf();
    throw device_error("ncu failed (status " + std::to_string(status) + "): " + s.str());
  }
  return read_ncu_csv(csv);
}

}  // namespace tilesim::gpu
