// tilesim/sim/arch/async_copy_burst.test.cpp: sm90's cp.async numbers against the H200 burst they were fitted to.
//
// data/calibration/h200-ldgsts-burst.tsv (gpu/calibrate/global_memory.cu `burst_async`) times a block's load phase
// with N cp.async.cg of 16 bytes per thread (LDGSTS) beside the LDG burst of the same shape, on fresh memory
// (burst_*_cold). A least-squares line through the 256-1024-sector points of one grid is latency + sectors / rate;
// e.g. 16 blocks of LDGSTS: 570, 625, 801 cycles for 256, 512, 1024 sectors: 482 + sectors / 3.26.
// The laws: sm90's async_copy rate and latency are the mean of the 8- and 16-block fits (within 2 %), and in the
// same run a copy into shared memory streams faster per SM than a load into registers (the reason it has its own).
// Runs from the repository root (meson's sim test sets it).
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/models/truth_file.test.hpp"

using namespace tilesim::sim;

namespace {

struct line_fit {
  double latency = 0, rate = 0;  // cycles = latency + sectors / rate
};

// (experiment, blocks) -> the fit over its points of >= 256 sectors; experiment "burst_async_cold.load" etc.
std::map<std::pair<std::string, int>, line_fit> burst_fits(const std::string& path) {
  const truth_file::tsv_rows t = truth_file::read_tsv_rows(path);
  const std::size_t experiment = t.column("experiment"), value = t.column("value"), detail = t.column("detail");
  std::map<std::pair<std::string, int>, std::vector<std::pair<double, double>>> points;
  const std::regex shape(R"((\d+) blocks .* (\d+) sectors per block)");
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const std::vector<std::string>& f = t.rows[r];
    std::smatch m;
    REQUIRE_MESSAGE(std::regex_search(f[detail], m, shape), path << " line " << t.lines[r] << ": no blocks and sectors in \"" << f[detail] << "\"");
    const double sectors = std::stod(m[2].str());
    if (sectors >= 256) points[{f[experiment], std::stoi(m[1].str())}].emplace_back(sectors, std::stod(f[value]));
  }
  std::map<std::pair<std::string, int>, line_fit> fits;
  for (const auto& [key, p] : points) {
    double n = static_cast<double>(p.size()), sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (auto [x, y] : p) sx += x, sy += y, sxx += x * x, sxy += x * y;
    const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    fits[key] = {(sy - slope * sx) / n, 1 / slope};
  }
  return fits;
}

}  // namespace

TEST_CASE("sm90's cp.async rate and latency are the H200 LDGSTS burst's (8 and 16 blocks, cold); it outstreams LDG") {
  const auto fits = burst_fits("data/calibration/h200-ldgsts-burst.tsv");
  double rate = 0, latency = 0;
  for (int blocks : {8, 16}) {
    REQUIRE_MESSAGE(fits.count({"burst_async_cold.load", blocks}), "no cold LDGSTS burst of " << blocks << " blocks");
    REQUIRE_MESSAGE(fits.count({"burst_cold.load", blocks}), "no cold LDG burst of " << blocks << " blocks");
    const line_fit a = fits.at({"burst_async_cold.load", blocks}), l = fits.at({"burst_cold.load", blocks});
    MESSAGE(blocks << " blocks: LDGSTS " << a.latency << " + sectors / " << a.rate << ", LDG " << l.latency << " + sectors / " << l.rate);
    CHECK_MESSAGE(a.rate > 1.2 * l.rate, blocks << " blocks: LDGSTS " << a.rate << " sectors/clock is not above LDG's " << l.rate);
    rate += a.rate / 2, latency += a.latency / 2;
  }
  const async_copy_timing& t = arch_named("sm90").async_copy;
  CHECK_MESSAGE(std::abs(t.sm_sectors_per_clock - rate) <= 0.02 * rate,
                "sm90 async_copy.sm_sectors_per_clock " << t.sm_sectors_per_clock << ", the burst's " << rate);
  CHECK_MESSAGE(std::abs(t.first_touch_latency - latency) <= 0.02 * latency,
                "sm90 async_copy.first_touch_latency " << t.first_touch_latency << ", the burst's " << latency);
}
