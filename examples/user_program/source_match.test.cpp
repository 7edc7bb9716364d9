// Nsight Compute's per-instruction source counters matched to a program's labels (source_counters.hpp,
// source_match.hpp). Laws:
//   - classify_sass names the memory class of every LDS / STS / LDSM / LDG / STG / atomic form, none otherwise;
//   - the CSV reader finds columns by name, reads thousands separators, refuses a missing Address, Source or
//     Instructions Executed column (naming it) and a page holding two launches; a missing cost column reads 0;
//   - a row reduction in registers (no LDS access: Nsight's page has no "L1 Wavefronts Shared" column) matches
//     the simulator label by label, and a tampered sector count on that page is still named;
//   - a source page that counts exactly what the simulator ran (built here from the run: one SASS instruction per
//     k-th occurrence of a label in a wave) matches every label "equal"; one tampered count turns exactly that
//     label to "DIFFER" (wavefronts, sectors) or "unmatched" (executed counts), never silently "equal";
//   - the H100 recordings data/recordings/h100-user-program-source-{0,1}.csv (record_user_source.sh: layout 0
//     row-major, 1 Swizzle<2,3,7>) match the column-sums program on the simulator label by label, every count
//     equal (N-way <= wavefronts per instruction; the conflict-free STS.128: 1-way, 4 per instruction), and a
//     tampered copy of each is reported as a disagreement.
//   - with the kernel's -lineinfo SASS listing (data/recordings/h100-user-program.sass) each row names the program
//     line that issued it (row-major: every label its own column_sums.hpp line); a page whose instruction differs
//     from the listing's at the same offset is refused, naming the offset;
//   - docs/programming-guide.md's per-instruction excerpt is that comparison's table, line for line.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "examples/user_program/column_sums.hpp"
#include "kernel/model/program.hpp"
#include "gpu/crosscheck/ncu.hpp"
#include "gpu/crosscheck/sass_lines.hpp"
#include "gpu/crosscheck/source_match.hpp"
#include "sim/engine/engine.hpp"
#include "sim/models/global_coalescing.hpp"
#include "sim/models/lds_banks.hpp"

using namespace tilesim;

namespace {

const char* header =
    "\"Address\",\"Source\",\"Warp Stall Sampling (All Samples)\",\"Instructions Executed\",\"L1 Wavefronts Shared\","
    "\"L1 Wavefronts Shared Ideal\",\"L2 Theoretical Sectors Global\",\"L2 Theoretical Sectors Global Excessive\"\n";

sim::run_result column_sums_run(bool swizzled) {
  sim::global_memory m;
  const int a = m.add<float>("in", examples::column_sums_inputs(4, 20261124));
  const int b = m.add<float>("out", 4 * 64, -1.0f);
  const examples::column_sums<4> program{a, b, swizzled};
  return sim::run({.grid = 4, .block = 256, .wave_size = 32}, std::move(m), [&](sim::thread_context& ctx) { program(ctx); });
}

// The source page a GPU that did exactly what the simulator did would show: SASS instruction (label, k) is the
// k-th occurrence of the label in a wave, executed once per wave that has it; an FFMA, a BAR and an LDS of a
// branch never taken sit between them.
std::string page_of(const sim::run_result& run, const sim::arch_table& arch) {
  struct sass {
    std::pair<int, int> first{1 << 30, 1 << 30};
    std::string text;
    long long executed = 0, wavefronts = 0, sectors = 0;
  };
  std::map<std::pair<std::string, int>, sass> rows;
  for (const auto& w : run.workgroups)
    for (const auto& wave : w.waves) {
      std::map<std::string, int> seen;
      for (const sim::wave_instruction& i : wave.instructions) {
        sass& s = rows[{i.access.label, seen[i.access.label]++}];
        s.first = std::min(s.first, std::pair<int, int>{i.interval, i.position});
        const bool lds = i.access.space == sim::memory_space::lds, load = i.access.kind == sim::access_kind::load;
        const std::string width = i.access.width == 16 ? ".128" : i.access.width == 8 ? ".64" : "";
        s.text = lds ? (load ? "LDS" : "STS") + width + " R4, [R2]" : (load ? "LDG.E" : "STG.E") + width + " R4, desc[UR4][R2.64]";
        ++s.executed;
        if (lds) s.wavefronts += sim::lds_instruction_cost(arch, i.access).wavefronts;
        else s.sectors += sim::global_instruction_cost(arch, i.access).sectors;
      }
    }
  std::vector<sass> ordered;
  for (auto& r : rows) ordered.push_back(r.second);
  std::stable_sort(ordered.begin(), ordered.end(), [](const sass& a, const sass& b) { return a.first < b.first; });
  std::string csv = std::string("==PROF== Disconnected\n") + header;
  int address = 0;
  auto line = [&](const std::string& text, long long e, long long wf, long long sec) {
    csv += "\"0x" + std::to_string(1000 + address) + "\",\"" + text + "\",\"0\",\"" + std::to_string(e) + "\",\"" +
           std::to_string(wf) + "\",\"0\",\"" + std::to_string(sec) + "\",\"0\"\n";
    address += 16;
  };
  line("FFMA R1, R2, R3, R1", 256, 0, 0);
  for (const sass& s : ordered) {
    line(s.text, s.executed, s.wavefronts, s.sectors);
    line("BAR.SYNC.DEFER_BLOCKING 0x0", 32, 0, 0);
    line("@P0 LDS.128 R8, [R9]", 0, 0, 0);  // another branch: never executed
  }
  return csv;
}

// The CSV text `csv` without the columns named in `drop` (header and rows alike), as Nsight writes a page that lacks them.
std::string without_columns(const std::string& csv, const std::vector<std::string>& drop) {
  std::istringstream in(csv);
  std::string line, out;
  std::vector<bool> keep;
  while (std::getline(in, line)) {
    if (line.rfind("==", 0) == 0) {
      out += line + "\n";
      continue;
    }
    const std::vector<std::string> f = gpu::split_csv(line);
    if (keep.empty())
      for (const std::string& h : f) keep.push_back(std::find(drop.begin(), drop.end(), h) == drop.end());
    std::string kept;
    for (std::size_t i = 0; i < f.size(); ++i)
      if (i >= keep.size() || keep[i]) kept += (kept.empty() ? "\"" : ",\"") + f[i] + "\"";
    out += kept + "\n";
  }
  return out;
}

// A row reduction in registers: thread t sums row t of an 8-column tile (8 global loads) and stores it; no LDS.
struct row_sums {
  int in = 0, out = 1;
  template <class Ctx>
  void operator()(Ctx& ctx) const {
    const auto a = global_buffer<float>(ctx, in);
    const auto b = global_buffer<float>(ctx, out);
    const index_t row = ctx.block_id() * ctx.block_size() + ctx.thread_id();
    float sum = 0;
    ctx.label("row read");
    for (int c = 0; c < 8; ++c) sum += load_element(a, row * 8 + c);
    ctx.label("row store");
    store_element(b, row, sum);
  }
};

const gpu::source_row* row_named(const gpu::source_comparison& c, const std::string& label) {
  for (const gpu::source_row& r : c.rows)
    if (r.name() == label) return &r;
  return nullptr;
}

}  // namespace

TEST_CASE("classify_sass: the memory class of each SASS opcode form; none for the rest") {
  using gpu::sass_op;
  using gpu::sass_space;
  struct known {
    const char* sass;
    sass_space space;
    sass_op op;
    int width;
    bool matrix;
  };
  const known table[] = {
      {"LDS R5, [R2+0x400]", sass_space::lds, sass_op::load, 4, false},
      {"@!P0 LDS.128 R4, [R2]", sass_space::lds, sass_op::load, 16, false},
      {"LDS.U16 R4, [R2]", sass_space::lds, sass_op::load, 2, false},
      {"STS.64 [R3], R4", sass_space::lds, sass_op::store, 8, false},
      {"STS.U8 [R3], R4", sass_space::lds, sass_op::store, 1, false},
      {"LDSM.16.M88.4 R4, [R2]", sass_space::lds, sass_op::load, 16, true},
      {"LDG.E.128 R4, desc[UR4][R2.64]", sass_space::global, sass_op::load, 16, false},
      {"LDG.E.CONSTANT R4, desc[UR4][R2.64]", sass_space::global, sass_op::load, 4, false},
      {"STG.E desc[UR4][R2.64], R5", sass_space::global, sass_op::store, 4, false},
      {"ATOMS.ADD R4, [R2], R5", sass_space::lds, sass_op::atomic, 4, false},
      {"RED.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R5", sass_space::global, sass_op::atomic, 4, false},
  };
  for (const known& k : table) {
    CAPTURE(k.sass);
    const gpu::sass_class c = gpu::classify_sass(k.sass);
    CHECK(c.space == k.space);
    CHECK(c.op == k.op);
    CHECK(c.width == k.width);
    CHECK(c.matrix == k.matrix);
  }
  for (const char* other : {"FFMA R1, R2, R3, R1", "BAR.SYNC.DEFER_BLOCKING 0x0", "S2R R0, SR_TID.X", "EXIT", ""})
    CHECK(gpu::classify_sass(other).space == gpu::sass_space::none);
}

TEST_CASE("source page CSV: columns by name, thousands separators, a missing counting column or a second page is "
          "refused; a missing cost column reads 0") {
  const std::string one = std::string(header) + "\"0x0470\",\"LDS R5, [R2+0x400]\",\"3\",\"1,024\",\"4,096\",\"1024\",\"\",\"\"\n";
  const std::vector<gpu::sass_row> rows = gpu::parse_source_csv(one, "one.csv");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].address == 0x470);
  CHECK(rows[0].executed == 1024);
  CHECK(rows[0].wavefronts == 4096);
  CHECK(rows[0].sectors == 0);
  CHECK(rows[0].cls.text() == "lds load 4 B");
  bool threw = false;
  try {
    (void)gpu::parse_source_csv("\"Address\",\"Source\",\"L1 Wavefronts Shared\"\n", "short.csv");
  } catch (const std::exception& e) {
    threw = true;
    CHECK(std::string(e.what()).find("no column \"Instructions Executed\"") != std::string::npos);
    CHECK(std::string(e.what()).find("(columns: Address, Source, L1 Wavefronts Shared)") != std::string::npos);
  }
  CHECK(threw);
  // Neither cost column (a kernel with no memory access Nsight would cost): every row reads 0 wavefronts and sectors.
  const std::vector<gpu::sass_row> bare = gpu::parse_source_csv(
      "\"Address\",\"Source\",\"Instructions Executed\"\n\"0x10\",\"LDG.E R2, desc[UR4][R2.64]\",\"7\"\n", "bare.csv");
  REQUIRE(bare.size() == 1);
  CHECK(bare[0].executed == 7);
  CHECK(bare[0].wavefronts == 0);
  CHECK(bare[0].sectors == 0);
  CHECK_THROWS(gpu::parse_source_csv(one + one, "two.csv"));
  CHECK_THROWS(gpu::parse_source_csv("no page here\n", "none.csv"));
}

TEST_CASE("a source page that counts what the simulator ran matches every label; a tampered count is named") {
  const sim::arch_table& sm90 = sim::arch_named("sm90");
  for (const bool swizzled : {false, true}) {
    CAPTURE(swizzled);
    const sim::run_result run = column_sums_run(swizzled);
    const std::string page = page_of(run, sm90);
    const gpu::source_comparison c = gpu::compare_source_counters(sm90, run, gpu::parse_source_csv(page, "sim"), "sim");
    CHECK(c.all_equal);
    for (const char* label : {"tile load", "tile store", "column read", "partial store", "final read", "sum store"}) {
      CAPTURE(label);
      const gpu::source_row* r = row_named(c, label);
      REQUIRE(r != nullptr);
      CHECK(r->status == "equal");
      CHECK(r->gpu_executed == r->sim_instances);
    }
    CHECK(row_named(c, "column read")->sass_instructions == 16);  // 16 loads per thread, unrolled
    CHECK(row_named(c, "column read")->sim_wavefronts == (swizzled ? 512 : 2048));
    // Tamper: the first LDS load with 32 executions gets one more wavefront -> "column read" DIFFERs, alone.
    std::string bad = page;
    const std::size_t at = bad.find("\"LDS R4, [R2]\",\"0\",\"32\",\"");
    REQUIRE(at != std::string::npos);
    const std::size_t value = at + std::string("\"LDS R4, [R2]\",\"0\",\"32\",\"").size();
    const std::size_t end = bad.find('"', value);
    bad.replace(value, end - value, std::to_string(std::stoll(bad.substr(value, end - value)) + 1));
    const gpu::source_comparison t = gpu::compare_source_counters(sm90, run, gpu::parse_source_csv(bad, "bad"), "bad");
    CHECK_FALSE(t.all_equal);
    for (const gpu::source_row& r : t.rows) {
      CAPTURE(r.name());
      CHECK(r.status == (r.name() == "column read" ? "DIFFER" : "equal"));
    }
    CHECK(gpu::source_table(t, "  ").find("NOT every label agrees") != std::string::npos);
    // Tamper: that instruction executed 33 times -> "column read" cannot be aligned: unmatched, not equal.
    std::string off = page;
    off.replace(at + std::string("\"LDS R4, [R2]\",\"0\",\"").size(), 2, "33");
    const gpu::source_comparison u = gpu::compare_source_counters(sm90, run, gpu::parse_source_csv(off, "off"), "off");
    CHECK_FALSE(u.all_equal);
    CHECK(row_named(u, "column read")->status == "unmatched");
  }
}

TEST_CASE("a row reduction without LDS: a source page with no \"L1 Wavefronts Shared\" column matches every label") {
  const sim::arch_table& sm90 = sim::arch_named("sm90");
  sim::global_memory m;
  std::vector<float> tile(2 * 64 * 8);
  for (std::size_t i = 0; i < tile.size(); ++i) tile[i] = static_cast<float>(i % 13);
  const int a = m.add<float>("in", tile);
  const int b = m.add<float>("out", 2 * 64, -1.0f);
  const sim::run_result run =
      sim::run({.grid = 2, .block = 64, .wave_size = 32}, std::move(m), [&](sim::thread_context& ctx) { row_sums{a, b}(ctx); });
  const std::string page = without_columns(page_of(run, sm90), {"L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal"});
  REQUIRE(page.find("L1 Wavefronts Shared") == std::string::npos);
  const gpu::source_comparison c = gpu::compare_source_counters(sm90, run, gpu::parse_source_csv(page, "no-lds.csv"), "no-lds.csv");
  CHECK(c.all_equal);
  const gpu::source_row* read = row_named(c, "row read");
  REQUIRE(read != nullptr);
  CHECK(read->status == "equal");
  CHECK(read->sass_instructions == 8);          // 8 loads per thread, unrolled
  CHECK(read->gpu_executed == 8 * 2 * 2);       // each executed by 2 warps in each of 2 blocks
  CHECK(read->sim_sectors == read->gpu_sectors);
  CHECK(read->sim_sectors > 0);
  REQUIRE(row_named(c, "row store") != nullptr);
  CHECK(row_named(c, "row store")->status == "equal");
  // The page still counts: one more sector on the store is named.
  std::string bad = page;
  const std::size_t at = bad.find("\"STG.E R4, desc[UR4][R2.64]\",\"0\",\"4\",\"");
  REQUIRE(at != std::string::npos);
  const std::size_t value = at + std::string("\"STG.E R4, desc[UR4][R2.64]\",\"0\",\"4\",\"").size();
  const std::size_t end = bad.find('"', value);
  bad.replace(value, end - value, std::to_string(std::stoll(bad.substr(value, end - value)) + 1));
  const gpu::source_comparison t = gpu::compare_source_counters(sm90, run, gpu::parse_source_csv(bad, "bad.csv"), "bad.csv");
  CHECK_FALSE(t.all_equal);
  CHECK(row_named(t, "row store")->status == "DIFFER");
  CHECK(row_named(t, "row read")->status == "equal");
}

TEST_CASE("H100 source counters of the user program: every label's counts equal the simulator's; tampered ones do not") {
  const sim::arch_table& sm90 = sim::arch_named("sm90");
  int pages = 0;
  for (const int layout : {0, 1}) {
    const std::string path = "data/recordings/h100-user-program-source-" + std::to_string(layout) + ".csv";
    if (!std::filesystem::exists(path)) continue;
    CAPTURE(path);
    const sim::run_result run = column_sums_run(layout == 1);
    const std::vector<gpu::sass_row> rows = gpu::read_source_counters(path);
    const gpu::source_comparison c = gpu::compare_source_counters(sm90, run, rows, path);
    INFO(gpu::source_table(c, "  "));
    CHECK(c.all_equal);
    for (const gpu::source_row& r : c.rows) {
      CAPTURE(r.name());
      CHECK(r.status == "equal");
      if (r.cls.space == gpu::sass_space::lds) CHECK(r.sim_max_ways * r.sim_instances <= r.sim_wavefronts);  // N-way <= wf/inst
    }
    // N-way is not Nsight's wavefronts per instruction: the conflict-free STS.128 is 1-way, 4 per instruction.
    const gpu::source_row* store = row_named(c, "tile store");
    REQUIRE(store != nullptr);
    CHECK(store->sim_max_ways == 1);
    CHECK(store->gpu_wavefronts == 4 * store->gpu_executed);
    // Tampered: one more wavefront on the first executed shared-memory SASS instruction.
    std::vector<gpu::sass_row> bad = rows;
    for (gpu::sass_row& r : bad)
      if (r.cls.space == gpu::sass_space::lds && r.executed > 0) {
        r.wavefronts += 1;
        break;
      }
    const gpu::source_comparison t = gpu::compare_source_counters(sm90, run, bad, path + " (tampered)");
    CHECK_FALSE(t.all_equal);
    CHECK(std::count_if(t.rows.begin(), t.rows.end(), [](const gpu::source_row& r) { return r.status == "DIFFER"; }) == 1);
    ++pages;
  }
  CHECK_MESSAGE(pages == 2, "expected data/recordings/h100-user-program-source-{0,1}.csv (record_user_source.sh)");
}

TEST_CASE("docs/programming-guide.md's per-instruction table is what the comparison prints for the H100 page") {
  // The block after "<!-- source-table: PAGE LAYOUT -->": a command line, then source_table(..., "  ") of PAGE
  // against the column-sums program of LAYOUT, line for line.
  std::ifstream f("docs/programming-guide.md");  // the suite runs in the repository root
  std::stringstream text;
  text << f.rdbuf();
  const std::string readme = text.str(), marker = "<!-- source-table: ";
  const std::size_t at = readme.find(marker);
  REQUIRE(at != std::string::npos);
  std::istringstream head(readme.substr(at + marker.size(), readme.find("-->", at) - at - marker.size()));
  std::string page, layout, listing;
  head >> page >> layout >> listing;
  const std::size_t open = readme.find("```text\n", at), close = readme.find("\n```", open + 8);
  REQUIRE(open != std::string::npos);
  std::string shown = readme.substr(open + 8, close + 1 - open - 8);
  shown = shown.substr(shown.find('\n') + 1);  // after the command line
  const sim::arch_table& sm90 = sim::arch_named("sm90");
  const sim::run_result run = column_sums_run(layout == "swizzled");
  std::vector<gpu::sass_row> rows = gpu::read_source_counters(page);
  gpu::attach_source_lines(rows, gpu::read_sass_lines(listing), listing);
  CHECK(shown == gpu::source_table(gpu::compare_source_counters(sm90, run, rows, page), "  "));
}

TEST_CASE("the -lineinfo SASS listing names each label's program line; a listing of another build is refused") {
  const std::string listing = "data/recordings/h100-user-program.sass";
  const std::vector<gpu::sass_function> functions = gpu::read_sass_lines(listing);
  REQUIRE(functions.size() == 1);
  CHECK(gpu::normalized_sass("@P1   BAR.SYNC.DEFER_BLOCKING 0x0 ;") == "@P1 BAR.SYNC.DEFER_BLOCKING 0x0");
  const sim::arch_table& sm90 = sim::arch_named("sm90");
  const std::map<std::string, std::string> row_major_lines = {
      {"tile load", "column_sums.hpp:80"},    {"tile store", "column_sums.hpp:82"}, {"column read", "column_sums.hpp:88"},
      {"partial store", "column_sums.hpp:91"}, {"final read", "column_sums.hpp:96"}, {"sum store", "column_sums.hpp:99"}};
  for (const int layout : {0, 1}) {
    const std::string page = "data/recordings/h100-user-program-source-" + std::to_string(layout) + ".csv";
    CAPTURE(page);
    std::vector<gpu::sass_row> rows = gpu::read_source_counters(page);
    gpu::attach_source_lines(rows, functions, listing);
    const gpu::source_comparison c = gpu::compare_source_counters(sm90, column_sums_run(layout == 1), rows, page);
    for (const gpu::source_row& r : c.rows) {
      CAPTURE(r.name());
      REQUIRE(r.program_lines.size() == 1);
      CHECK(r.program_lines[0].rfind("column_sums.hpp:", 0) == 0);
      // Row-major: each label its own line. (Swizzled: nvcc's line table gives the final read's LDS line 88.)
      if (layout == 0) CHECK(r.program_lines[0] == row_major_lines.at(r.name()));
    }
    // Another build: one LDS's text changed at its offset -> refused, naming the offset.
    for (gpu::sass_row& r : rows)
      if (r.cls.space == gpu::sass_space::lds && r.executed > 0) {
        r.sass = "LDS R99, [R99]";
        break;
      }
    bool refused = false;
    try {
      gpu::attach_source_lines(rows, functions, listing);
    } catch (const std::exception& e) {
      refused = true;
      CHECK(std::string(e.what()).find("is not the profiled kernel's build") != std::string::npos);
      CHECK(std::string(e.what()).find("LDS R99, [R99]") != std::string::npos);
    }
    CHECK(refused);
  }
}
