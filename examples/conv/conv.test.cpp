// Laws of the conv example (kernel/conv/conv.hpp, conv_variants.hpp): the window and im2col descriptors address the
// input pixel (n, ho*sh + r*dh - ph, wo*sw + s*dw - pw, c) for every index and are valid exactly inside the
// image; every mode of every case equals Eigen; the three modes agree bit for bit; each case's global sectors
// and LDS wavefronts, priced on its arch, are pinned (several derived by hand below); broken rules name values;
// the compiled form (constant<conv_shape>) of every case records the run-time form's accesses and output.
#include <doctest/doctest.h>

#include <cmath>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "examples/conv/conv_variants.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/engine.hpp"
#include "sim/models/global_coalescing.hpp"
#include "sim/report/program_report.hpp"
#include "sim/engine/same_accesses.test.hpp"

using namespace tilesim;
using namespace tilesim::examples;

namespace {

// The two problems of conv_cases(): the 6x6 single-channel image and the NHWC 2x8x8x4 -> 8 one.
conv_params six_by_six() { return conv_cases()[0].params; }
conv_params nhwc() { return conv_cases()[6].params; }

// Extra parameter sets with stride, dilation and padding (not in the table): params and a launch (grid, block).
struct extra_case {
  const char* what;
  conv_params params;
  int grid, block;
};
std::vector<extra_case> extra_cases() {
  conv_params a;  // 7x7x2 -> 4, stride 2, pad 1: 4x4 output
  a.h = a.w = 7;
  a.c_in = 2;
  a.c_out = 4;
  a.stride_h = a.stride_w = 2;
  a.pad_h = a.pad_w = 1;
  a.vector = 2;
  conv_params b;  // 2 x 7x9x1 -> 2, dilation 2: 3x5 output, two workgroups of 30 threads
  b.n = 2;
  b.h = 7;
  b.w = 9;
  b.c_out = 2;
  b.dilation_h = b.dilation_w = 2;
  conv_params c;  // 5x8x4 -> 4, stride (2, 1), dilation (1, 2), pad (2, 0): 4x4 output, ho = 0 starts in padding
  c.h = 5;
  c.w = 8;
  c.c_in = 4;
  c.c_out = 4;
  c.stride_h = 2;
  c.dilation_w = 2;
  c.pad_h = 2;
  c.vector = 4;
  return {{"stride 2, pad 1", a, 1, 64}, {"dilation 2", b, 2, 30}, {"stride (2,1), dilation (1,2), pad (2,0)", c, 1, 64}};
}

// The input pixel an (n, ho, wo, r, s) window element reads, and whether it is inside the image.
struct pixel {
  index_t h, w;
  bool inside;
};
pixel source(const conv_params& p, index_t ho, index_t wo, index_t r, index_t s) {
  const index_t h = ho * p.stride_h + r * p.dilation_h - p.pad_h, w = wo * p.stride_w + s * p.dilation_w - p.pad_w;
  return {h, w, h >= 0 && h < p.h && w >= 0 && w < p.w};
}

// How many (m, k) of the im2col descriptor miss the offset of their pixel (inside the image) or its validity.
int im2col_mismatches(const conv_params& p) {
  const auto a = make_conv_im2col_descriptor(p);
  const index_t ho = conv_out_length(p.h, p.pad_h, p.r, p.stride_h, p.dilation_h);
  const index_t wo = conv_out_length(p.w, p.pad_w, p.s, p.stride_w, p.dilation_w);
  int bad = a.lengths() != multi_index<2>{p.n * ho * wo, p.r * p.s * p.c_in};
  for (index_t m = 0; m < p.n * ho * wo; ++m)
    for (index_t k = 0; k < p.r * p.s * p.c_in; ++k) {
      const index_t n = m / (ho * wo), y = m / wo % ho, x = m % wo;
      const index_t r = k / (p.s * p.c_in), s = k / p.c_in % p.s, c = k % p.c_in;
      const pixel px = source(p, y, x, r, s);
      const auto coord = a.make_coordinate({m, k});
      bad += a.is_valid(coord) != px.inside;
      if (px.inside) {
        const index_t want = ((n * p.h + px.h) * p.w + px.w) * p.c_in + c;
        bad += a.calculate_offset({m, k}) != want;
        bad += coord.offset() != want;
      }
    }
  return bad;
}

// The same for the window descriptor, every (n, ho, wo, r, s, c), also reached by moves from (n, ho, wo, 0, 0, 0).
int window_mismatches(const conv_params& p) {
  const auto d = make_conv_window_descriptor(p);
  const index_t ho = conv_out_length(p.h, p.pad_h, p.r, p.stride_h, p.dilation_h);
  const index_t wo = conv_out_length(p.w, p.pad_w, p.s, p.stride_w, p.dilation_w);
  int bad = d.lengths() != multi_index<6>{p.n, ho, wo, p.r, p.s, p.c_in};
  for (index_t n = 0; n < p.n; ++n)
    for (index_t y = 0; y < ho; ++y)
      for (index_t x = 0; x < wo; ++x) {
        multi_index<6> at{n, y, x, 0, 0, 0};
        auto moved = d.make_coordinate(at);
        for (index_t r = 0; r < p.r; ++r)
          for (index_t s = 0; s < p.s; ++s)
            for (index_t c = 0; c < p.c_in; ++c) {
              const multi_index<6> top{n, y, x, r, s, c};
              d.move(moved, top - at);
              at = top;
              const pixel px = source(p, y, x, r, s);
              bad += d.is_valid(d.make_coordinate(top)) != px.inside;
              bad += d.is_valid(moved) != px.inside;
              if (px.inside) {
                const index_t want = ((n * p.h + px.h) * p.w + px.w) * p.c_in + c;
                bad += d.calculate_offset(top) != want;
                bad += moved.offset() != want;
              }
            }
      }
  return bad;
}

// Runs p in `mode` on `arch` with conv_inputs operands; returns the run and its output.
struct mode_run {
  sim::run_result run;
  std::vector<float> out;
  conv_check check;
};
mode_run run_mode(conv_params p, conv_mode mode, const std::string& arch, int grid, int block) {
  p.mode = mode;
  const conv_operands ops = conv_inputs(p);
  sim::run_result r = run_conv(launch_on(arch, grid, block), p, ops.input, ops.weights);
  std::vector<float> out = r.memory.get<float>(2);
  conv_check check = check_conv_result(p, ops.input, ops.weights, out);
  return {std::move(r), std::move(out), std::move(check)};
}

// The message of the spec_error behind a run_error (the program's rule check), or "".
std::string rule_message(const conv_params& p, int grid, int block, const std::string& arch = "sm90") {
  const conv_operands ops = conv_inputs(p);
  try {
    (void)run_conv(launch_on(arch, grid, block), p, ops.input, ops.weights);
  } catch (const sim::run_error& e) {
    return e.what();
  }
  return "";
}

// Runs `body` on case c's launch over conv_inputs operands, laid out as run_conv does (in, w, out = NaN).
template <class Body>
sim::run_result run_conv_body(const conv_case& c, Body&& body) {
  const conv_operands ops = conv_inputs(c.params);
  sim::global_memory mem;
  mem.add<float>("in", ops.input);
  mem.add<float>("w", ops.weights);
  mem.add<float>("out", conv_output_count(c.params), std::numeric_limits<float>::quiet_NaN());
  return sim::run(launch_on(c.arch, c.grid, c.block), std::move(mem), std::forward<Body>(body));
}

// The geometry of the worked examples, at compile time: 6x6 on sm90, and the NHWC im2col split on both waves.
constexpr conv_geometry six_geometry = make_conv_geometry(conv_example_shapes[0]);
static_assert(six_geometry.ho == 4 && six_geometry.wo == 4 && six_geometry.m == 16 && six_geometry.k == 9);
static_assert(six_geometry.lanes == 16 && six_geometry.warps == 1 && six_geometry.rows_per_warp == 16);
constexpr conv_geometry nhwc_geometry = make_conv_geometry(conv_example_shapes[10]);
static_assert(nhwc_geometry.m == 72 && nhwc_geometry.k == 36 && nhwc_geometry.k_per_block == 12);
static_assert(nhwc_geometry.warps == 6 && nhwc_geometry.rows_per_warp == 4 && nhwc_geometry.rows_per_block == 24);
static_assert(make_conv_geometry(conv_example_shapes[11]).warps == 3);
// A constant shape's thread buffers are exact: KPerBlock floats, not conv_max_k_per_block.
static_assert(decltype(make_distributed_tensor<float, conv_max_k_per_block>(
                  constant<make_conv_a_encoding(conv_example_shapes[10].params, nhwc_geometry)>{}))::capacity == 12);

}  // namespace

TEST_CASE("conv: the worked example: 6x6 im2col rows 0 and 5, offset 7 in four rows; NHWC A[37][5] is offset 265") {
  const auto a = make_conv_im2col_descriptor(six_by_six());
  CHECK(a.lengths() == multi_index<2>{16, 9});
  const index_t row0[9] = {0, 1, 2, 6, 7, 8, 12, 13, 14}, row5[9] = {7, 8, 9, 13, 14, 15, 19, 20, 21};
  for (index_t k = 0; k < 9; ++k) {
    CHECK(a.calculate_offset({0, k}) == row0[k]);
    CHECK(a.calculate_offset({5, k}) == row5[k]);
  }
  CHECK(a.calculate_offset({0, 4}) == 7);
  CHECK(a.calculate_offset({1, 3}) == 7);
  CHECK(a.calculate_offset({4, 1}) == 7);
  CHECK(a.calculate_offset({5, 0}) == 7);
  const auto w = make_conv_window_descriptor(six_by_six());
  CHECK(w.lengths() == multi_index<6>{1, 4, 4, 3, 3, 1});
  CHECK(w.calculate_offset({0, 1, 1, 2, 2, 0}) == 21);
  const auto b = make_conv_im2col_descriptor(nhwc());
  CHECK(b.lengths() == multi_index<2>{72, 36});
  CHECK(b.calculate_offset({37, 5}) == 265);
  // The K dim keeps the input's 4-float channel vector through pass-through and merge (what im2col reads).
  CHECK(b.top_vectors()[1].length == 4);
  CHECK(b.top_vectors()[1].stride == 1);
}

TEST_CASE("conv: the im2col descriptor maps every (m, k) to the offset of input (n, ho*sh + r*dh - ph, wo*sw + s*dw - pw, c)") {
  CHECK(im2col_mismatches(six_by_six()) == 0);
  CHECK(im2col_mismatches(nhwc()) == 0);
  for (const extra_case& e : extra_cases()) {
    CAPTURE(e.what);
    CHECK(im2col_mismatches(e.params) == 0);
  }
}

TEST_CASE("conv: the sliding (embed) descriptor maps every (n, ho, wo, r, s, c) likewise, evaluated and moved") {
  CHECK(window_mismatches(six_by_six()) == 0);
  CHECK(window_mismatches(nhwc()) == 0);
  for (const extra_case& e : extra_cases()) {
    CAPTURE(e.what);
    CHECK(window_mismatches(e.params) == 0);
  }
}

TEST_CASE("conv: every case's output equals Eigen; every run is clean and uniform") {
  for (const conv_case& c : conv_cases()) {
    CAPTURE(c.name);
    CAPTURE(c.arch);
    const outcome o = run_conv_case(c);
    CHECK(o.passed);
    CHECK(o.check.rfind("out == Eigen (max |err| ", 0) == 0);
    CHECK(o.run.clean());
    CHECK(o.run.uniform());
  }
}

TEST_CASE("conv: naive, sliding and im2col give bit-identical outputs on every problem and arch") {
  for (const conv_case& c : conv_cases()) {
    if (c.params.mode != conv_mode::naive) continue;
    CAPTURE(c.name);
    CAPTURE(c.arch);
    const mode_run naive = run_mode(c.params, conv_mode::naive, c.arch, c.grid, c.block);
    const mode_run sliding = run_mode(c.params, conv_mode::sliding, c.arch, c.grid, c.block);
    const mode_run im2col = run_mode(c.params, conv_mode::im2col, c.arch, c.grid, c.block);
    CHECK(naive.out.size() == static_cast<std::size_t>(conv_output_count(c.params)));
    CHECK(naive.out == sliding.out);  // NaN never compares equal: every element was written
    CHECK(naive.out == im2col.out);
  }
}

TEST_CASE("conv: stride, dilation and padding: every mode equals Eigen and the modes agree, on wave 32 and 64") {
  for (const extra_case& e : extra_cases())
    for (const char* arch : {"sm90", "gfx942"}) {
      CAPTURE(e.what);
      CAPTURE(arch);
      const mode_run naive = run_mode(e.params, conv_mode::naive, arch, e.grid, e.block);
      const mode_run sliding = run_mode(e.params, conv_mode::sliding, arch, e.grid, e.block);
      const mode_run im2col = run_mode(e.params, conv_mode::im2col, arch, e.grid, e.block);
      CHECK_MESSAGE(naive.check.passed, naive.check.text);
      CHECK_MESSAGE(sliding.check.passed, sliding.check.text);
      CHECK_MESSAGE(im2col.check.passed, im2col.check.text);
      CHECK(naive.out == sliding.out);
      CHECK(naive.out == im2col.out);
      CHECK(naive.run.clean());
      CHECK(im2col.run.clean());
    }
}

TEST_CASE("conv: global sectors and LDS wavefronts per case, priced on the case's arch") {
  // Totals over the run: global sectors (actual, ideal); the program uses no LDS, so wavefronts are 0 / 0.
  struct expected {
    long long sectors, ideal;
  };
  const expected table[] = {
      {43, 29},     {43, 29},     // naive, 6x6 3x3: sm90, gfx942
      {43, 29},     {43, 29},     // sliding: the same addresses through the embed descriptor
      {43, 29},     {43, 29},     // im2col: vector 1 (CIn = 1), so the same 4-byte accesses again
      {6840, 1368}, {4176, 720},  // naive, NHWC: one float per access
      {6840, 1368}, {4176, 720},  // sliding
      {1764, 1044}, {1098, 720},  // im2col: 16-byte A and B vectors
  };
  const std::vector<conv_case> cases = conv_cases();
  REQUIRE(cases.size() == 12);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const conv_case& c = cases[i];
    CAPTURE(c.name);
    CAPTURE(c.arch);
    const sim::program_report rep = sim::make_program_report(sim::arch_named(c.arch), run_conv_case(c).run);
    CHECK(rep.sectors == table[i].sectors);
    CHECK(rep.ideal_sectors == table[i].ideal);
    CHECK(rep.wavefronts == 0);
    CHECK(rep.ideal == 0);
    for (const sim::instruction_report& ins : rep.instructions) CHECK(ins.space == sim::memory_space::global);
  }
}

TEST_CASE("conv: sectors derived by hand: weights 8 rows 144 B apart, 16-byte B vectors, broadcasts, coalesced stores") {
  auto report = [](const conv_case& c) { return sim::make_program_report(sim::arch_named(c.arch), run_conv_case(c).run); };
  auto find = [](const sim::program_report& r, const std::string& label) {
    for (const sim::instruction_report& i : r.instructions)
      if (i.label == label) return i;
    FAIL("no instruction " << label);
    return sim::instruction_report{};
  };
  const std::vector<conv_case> cases = conv_cases();
  // NHWC, K = 36, COut = 8, 2*6*6*8 = 576 threads in 3 workgroups of 192: 18 warps of 32 (sm90), 9 waves of 64.
  const index_t k = 36, warps_sm90 = 18, waves_gfx942 = 9;
  {
    // naive "w load", sm90: lane l reads w[(l % 8)*36 + k]: 8 distinct floats 144 B apart, each in its own 32-byte
    // sector (144 > 32) -> 8 sectors; ideal = ceil(8 * 4 B / 32) = 1. One instruction per k per warp.
    const sim::instruction_report w = find(report(cases[6]), "w load");
    CHECK(w.instances == k * warps_sm90);
    CHECK(w.sectors == 8 * k * warps_sm90);  // 5184
    CHECK(w.ideal_sectors == 1 * k * warps_sm90);
    // gfx942: 64 lanes still name the same 8 floats: 8 sectors per wave instruction, half as many instructions.
    const sim::instruction_report w64 = find(report(cases[7]), "w load");
    CHECK(w64.sectors == 8 * k * waves_gfx942);  // 2592
  }
  {
    // im2col "B global load", sm90: lane l reads 16 bytes at (l % 8)*144 + 16j (j = k/4, 9 vectors per thread);
    // 144 = 4*32 + 16, so every vector starts at 0 or 16 within a sector and never straddles: 8 sectors; the
    // 8 * 16 distinct bytes fill ideal ceil(128 / 32) = 4.
    const sim::instruction_report b = find(report(cases[10]), "B global load");
    CHECK(b.width == 16);
    CHECK(b.instances == (k / 4) * warps_sm90);
    CHECK(b.sectors == 8 * (k / 4) * warps_sm90);  // 1296
    CHECK(b.ideal_sectors == 4 * (k / 4) * warps_sm90);
    // The A loads are 16 bytes too: 32 lanes = 4 GEMM rows (8 lanes each read the same pixel, 16 B apart in
    // NHWC): ideal 64 B = 2 sectors. Output rows are Wo = 6 long, so of a workgroup's 6 warps (rows 4w..4w+3)
    // 4 read 4 consecutive pixels of one row and 2 read 2 + 2 pixels of two rows. At filter column s = 1 the
    // pixels start odd (16 mod 32): 4 in a row touch 3 sectors, 2 + 2 touch 4; at s = 0, 2 they touch 2.
    // Per workgroup and r: 12 instructions of 2 sectors, 4 of 3 and 2 of 4; times 3 r, 3 workgroups:
    // 108 * 2 + 36 * 3 + 18 * 4 = 396.
    const sim::instruction_report a = find(report(cases[10]), "A global load");
    CHECK(a.ideal_sectors == 2 * (k / 4) * warps_sm90);  // 324
    CHECK(a.sectors == 108 * 2 + 36 * 3 + 18 * 4);
  }
  {
    // "out store": lane l writes 4 bytes at 4*(block*b + t), 128 contiguous aligned bytes per warp of 32
    // (4 sectors), 256 per wave of 64 (8): 72 sectors either way, all ideal.
    const sim::instruction_report o32 = find(report(cases[6]), "out store");
    const sim::instruction_report o64 = find(report(cases[7]), "out store");
    CHECK(o32.sectors == 4 * warps_sm90);
    CHECK(o64.sectors == 8 * waves_gfx942);
    CHECK(o32.ideal_sectors == 72);
    CHECK(o64.ideal_sectors == 72);
  }
  {
    // 6x6, 16 threads (one partial warp): "w load" is a broadcast (every lane reads w[k]): 1 sector per k, 9.
    // "out store": 16 floats = 64 aligned bytes: 2 sectors. "x load" at (r, s): 4 rows of 16 bytes, rows 24 B
    // apart starting at 24r + 4s: r = s = 0 touches bytes 0-15, 24-39, 48-63, 72-87 -> sectors {0, 1, 2}: 3.
    const sim::program_report r = report(cases[0]);
    CHECK(find(r, "w load").sectors == 9);
    CHECK(find(r, "out store").sectors == 2);
    const sim::run_result run = run_conv_case(cases[0]).run;
    const sim::wave_instruction& first = run.workgroups[0].waves[0].instructions[0];
    CHECK(first.access.label == "x load");
    CHECK(sim::global_instruction_cost(sim::arch_named("sm90"), first.access).sectors == 3);
    CHECK(find(r, "x load").sectors == 32);
    CHECK(find(r, "x load").ideal_sectors == 18);  // 64 distinct bytes per instruction: 2
  }
}

TEST_CASE("conv: a launch or params that do not split exactly stop the run with the rule and the values") {
  const conv_params six = six_by_six();
  CHECK(rule_message(six, 1, 32).find("conv: one output per thread") != std::string::npos);
  CHECK(rule_message(six, 1, 32).find("(grid * block = 32, N*Ho*Wo*COut = 16)") != std::string::npos);
  conv_params p = nhwc();
  p.mode = conv_mode::im2col;
  p.c_out = 3;  // 2*6*6*3 = 216 outputs = 27 x 8 threads, but 3 lanes per GEMM row do not divide 8 lanes
  CHECK(rule_message(p, 27, 8).find("(lanes = 8, COut = 3)") != std::string::npos);
  CHECK(rule_message(p, 1, 216).find("(block = 216, warp size = 32)") != std::string::npos);
  p = nhwc();
  p.vector = 3;
  CHECK(rule_message(p, 3, 192).find("(CIn = 4, vector = 3)") != std::string::npos);
  p = nhwc();
  p.mode = conv_mode::im2col;
  p.k_per_block = 8;
  CHECK(rule_message(p, 3, 192).find("(K = 36, K per block = 8)") != std::string::npos);
  p.k_per_block = 72;
  CHECK(rule_message(p, 3, 192).find("(K = 36, K per block = 72)") != std::string::npos);
  p = six;
  p.r = 9;
  CHECK(spec_error::format(check_conv(p, 16, 1, 32)) ==
        "tilesim: conv output height: every length must be >= 1 (Ho = 0, H = 6, R = 9, dilation h = 1)");
  CHECK_THROWS_WITH_AS(run_conv(launch_on("sm90", 1, 16), p, conv_inputs(p).input, conv_inputs(p).weights),
                       "tilesim: conv output height: every length must be >= 1 (Ho = 0, H = 6, R = 9, dilation h = 1)",
                       spec_error);
  CHECK_THROWS_AS(make_conv_geometry(six, 32, 1, 32), spec_error);
  CHECK(conv_shape{six, 32, 32, 1}.check().what == rule::launch_split_not_exact);  // what a constant shape static_asserts
  CHECK(conv_shape{six, 16, 32, 1}.check().what == rule::none);
  CHECK(check_conv(six, 16, 1, 32).what == rule::none);
  CHECK(check_conv(six, 16, 1, 32 * 1024).what == rule::none);
  CHECK_THROWS_WITH_AS(run_conv(launch_on("sm90", 1, 16), six, std::vector<float>(35), conv_inputs(six).weights),
                       "conv: the input must hold N*H*W*CIn and the weights COut*R*S*CIn floats (input holds 35, "
                       "expected 36; weights hold 9, expected 9; outputs 16)",
                       std::invalid_argument);
}

TEST_CASE("conv: the check names the first bad (n, ho, wo, co) with both values; NaN (an unwritten element) fails") {
  const conv_params p = nhwc();
  const conv_operands ops = conv_inputs(p);
  const conv_reference ref = eigen_conv(p, ops.input, ops.weights);
  std::vector<float> out = ref.out;
  CHECK(check_conv_result(p, ops.input, ops.weights, out).text == "out == Eigen (max |err| 0)");
  const std::size_t bad = ((1 * 6 + 2) * 6 + 3) * 8 + 5;  // (n, ho, wo, co) = (1, 2, 3, 5)
  out[bad] += 1.0f;
  const conv_check c = check_conv_result(p, ops.input, ops.weights, out);
  CHECK_FALSE(c.passed);
  CHECK(c.text.rfind("out(n, ho, wo, co) = (1, 2, 3, 5) = ", 0) == 0);
  CHECK(c.text.find(", Eigen ") != std::string::npos);
  CHECK(c.max_err == doctest::Approx(1.0));
  out = ref.out;
  out[0] = std::nanf("");
  CHECK_FALSE(check_conv_result(p, ops.input, ops.weights, out).passed);
  // The tolerance is K * 2^-23 * sum |a*b|: a one-ulp change of a large element passes, a large one does not.
  CHECK(ref.magnitude[bad] > 0);
}

TEST_CASE("conv: the catalogue rows: example conv, 12 variants = 3 modes x 2 problems x {sm90, gfx942}") {
  const std::vector<variant> rows = conv_variants();
  REQUIRE(rows.size() == 12);
  CHECK(rows[0].example == "conv");
  CHECK(rows[0].name == "naive, 6x6 3x3");
  CHECK(rows[0].arch == "sm90");
  CHECK(rows[1].arch == "gfx942");
  CHECK(rows[11].name == "im2col, NHWC 2x8x8x4 3x3 -> 8");
  const outcome o = rows[4].run();
  CHECK(o.passed);
  for (const conv_case& c : conv_cases()) CHECK(static_cast<index_t>(c.grid) * c.block == conv_output_count(c.params));
}

TEST_CASE("conv: the compiled form (constant<conv_shape>) of every case records the run-time form's accesses and output") {
  const std::vector<conv_case> cases = conv_cases();
  REQUIRE(cases.size() == std::size(conv_example_shapes));
  static_for<static_cast<index_t>(std::size(conv_example_shapes))>([&](auto i) {
    using shape = constant<conv_example_shapes[decltype(i)::value]>;
    const conv_shape s = value_of(shape{});
    const conv_case& c = cases[static_cast<std::size_t>(i)];
    CAPTURE(c.name);
    CAPTURE(c.arch);
    CHECK(s.params == c.params);
    CHECK(s.threads == c.block);
    CHECK(s.grid == c.grid);
    CHECK(s.warp_size == launch_on(c.arch, c.grid, c.block).wave_size);
    const conv_params p = c.params;
    const sim::run_result runtime = run_conv_body(c, [&p](sim::thread_context& ctx) { conv(ctx, p); });
    const sim::run_result compiled = run_conv_body(c, [](sim::thread_context& ctx) { conv(ctx, shape{}); });
    CHECK(runtime.clean());
    CHECK(compiled.clean());
    sim::testing::check_same_accesses(compiled, runtime);
    const std::vector<float> out = compiled.memory.get<float>(2);
    CHECK(out == runtime.memory.get<float>(2));  // NaN never compares equal: every element was written
    const conv_operands ops = conv_inputs(c.params);
    CHECK(check_conv_result(c.params, ops.input, ops.weights, out).passed);
  });
}

TEST_CASE("conv: a compiled shape run on another launch stops with the compiled launch shape rule") {
  const conv_case gfx = conv_cases()[1];  // naive 6x6 on gfx942 (wave 64); the shape below is compiled for wave 32
  std::string message;
  try {
    (void)run_conv_body(gfx, [](sim::thread_context& ctx) { conv(ctx, constant<conv_example_shapes[0]>{}); });
  } catch (const sim::run_error& e) {
    message = e.what();
  }
  CHECK(message.find("compiled launch shape") != std::string::npos);
}
