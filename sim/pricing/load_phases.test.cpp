// The load path priced per phase (sm90's global.load_phase_bytes), held to the H100 probe that found it:
// data/calibration/h100-conv-probe.tsv (gpu/calibrate/conv_probe.cu). The probe is the im2col convolution's load
// pattern, NHWC 2x8x8x4, 3x3 filter, 8 output channels, grid 3 x 192: per thread 9 16-byte loads of its pixel
// row ("A": the 8 lanes of a quarter warp read one 16-byte pixel) and 9 of its weights row ("B": the 8 lanes of
// a quarter warp read 8 rows 144 bytes apart, 8 sectors), all issued before the first use. The laws:
//   every variant's predicted block cycles within 25 % of the median block's clock64;
//   B alone costs the GPU 1.67x what A alone does (the same sectors from L2, the same lane bytes); the model
//   priced per phase predicts that ratio within 15 %, the model priced per instruction (load_phase_bytes 0)
//   does not (so the law can fail).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "sim/arch/arch.hpp"
#include "sim/engine/engine.hpp"
#include "kernel/model/program.hpp"
#include "sim/report/program_report.hpp"

using namespace tilesim;
using namespace tilesim::sim;

namespace {

constexpr index_t n = 2, h = 8, w = 8, ci = 4, co = 8, r_len = 3, s_len = 3, ho_len = 6, wo_len = 6;
constexpr index_t k_len = r_len * s_len * ci, kb = s_len * ci;

// conv_probe.cu's kernel: thread o loads its im2col A row and its B (weights) row as 4-float vectors, then sums.
struct probe_program {
  bool use_a = true, use_b = true;
  void operator()(thread_context& ctx) const {
    const auto x = global_buffer<float>(ctx, 0);
    const auto wt = global_buffer<float>(ctx, 1);
    const auto out = global_buffer<float>(ctx, 2);
    const index_t o = ctx.block_id() * ctx.block_size() + ctx.thread_id();
    const index_t m = o / co, c = o % co, wo = m % wo_len, ho = m / wo_len % ho_len, b = m / (wo_len * ho_len);
    float v[k_len] = {}, f[k_len] = {};
    for (index_t k0 = 0; k0 < k_len; k0 += kb) {
      for (index_t j = 0; j < kb && use_a; j += 4) {
        const index_t k = k0 + j, r = k / (s_len * ci), s = k / ci % s_len;
        ctx.label("A load");
        load_vector<4>(x, ((b * h + ho + r) * w + wo + s) * ci, &v[k], true);
      }
      for (index_t j = 0; j < kb && use_b; j += 4) {
        ctx.label("B load");
        load_vector<4>(wt, c * k_len + k0 + j, &f[k0 + j], true);
      }
    }
    float acc = 0;
    for (index_t k = 0; k < k_len; ++k) acc += v[k] * f[k];
    alu(ctx, alu_op::fma, k_len);
    ctx.label("out store");
    store_element(out, o, acc);
  }
};

double predicted(const arch_table& arch, bool use_a, bool use_b, int grid, int block) {
  global_memory mem;
  mem.add<float>("x", n * h * w * ci, 1.0f);
  mem.add<float>("w", co * k_len, 1.0f);
  mem.add<float>("out", n * ho_len * wo_len * co, 0.0f);
  const run_result run = sim::run(launch{.grid = grid, .block = block, .wave_size = 32}, std::move(mem),
                                  probe_program{use_a, use_b});
  return make_program_report(arch, run).cycles_per_workgroup;
}

// The recording's block cycles per variant: the most any warp of its median block took (each row is one warp's).
std::map<std::string, double> measured_block_cycles() {
  std::ifstream f("data/calibration/h100-conv-probe.tsv");
  REQUIRE_MESSAGE(f.good(), "data/calibration/h100-conv-probe.tsv is missing (the test runs in the repository root)");
  std::map<std::string, double> out;
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("variant", 0) == 0) continue;
    std::istringstream s(line);
    std::string variant, load, arrival, issued, block;
    std::getline(s, variant, '\t');
    std::getline(s, load, '\t');
    std::getline(s, arrival, '\t');
    std::getline(s, issued, '\t');
    std::getline(s, block, '\t');
    out[variant] = std::max(out[variant], std::stod(block));
  }
  return out;
}

struct variant {
  const char* name;
  bool use_a, use_b;
  int grid, block;
};
constexpr variant variants[] = {{"cold", true, true, 3, 192},
                                {"a_only", true, false, 3, 192},
                                {"b_only", false, true, 3, 192},
                                {"one_warp", true, true, 18, 32},
                                {"one_block", true, true, 1, 192}};

}  // namespace

TEST_CASE("conv probe (H100): every variant's block cycles predicted within 25 %") {
  const std::map<std::string, double> measured = measured_block_cycles();
  const arch_table sm90 = arch_named("sm90");
  for (const variant& v : variants) {
    const std::string name = v.name;
    CAPTURE(name);
    REQUIRE(measured.count(v.name) == 1);
    const double p = predicted(sm90, v.use_a, v.use_b, v.grid, v.block), m = measured.at(v.name);
    MESSAGE(name << ": measured " << m << ", predicted " << p << " (" << 100 * (p - m) / m << " %)");
    CHECK(std::fabs(p - m) / m <= 0.25);
  }
}

TEST_CASE("conv probe (H100): the weights' scattered loads cost what their sectors per quarter warp say") {
  const std::map<std::string, double> measured = measured_block_cycles();
  const double measured_ratio = measured.at("b_only") / measured.at("a_only");
  const arch_table phased = arch_named("sm90");
  REQUIRE(phased.global.load_phase_bytes == 128);
  arch_table whole = phased;  // each distinct sector of an instruction once, as before the probe
  whole.global.load_phase_bytes = 0;
  const double phased_ratio = predicted(phased, false, true, 3, 192) / predicted(phased, true, false, 3, 192);
  const double whole_ratio = predicted(whole, false, true, 3, 192) / predicted(whole, true, false, 3, 192);
  MESSAGE("B alone / A alone: measured " << measured_ratio << ", per phase " << phased_ratio << ", per instruction "
                                         << whole_ratio);
  CHECK(std::fabs(phased_ratio - measured_ratio) / measured_ratio <= 0.15);
  CHECK(std::fabs(whole_ratio - measured_ratio) / measured_ratio > 0.15);
}
