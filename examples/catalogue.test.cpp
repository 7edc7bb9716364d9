// tilesim/examples/catalogue.test.cpp: the main job's table, row by row: every variant passes its result check,
// and each row's LDS wavefronts and global sectors are pinned, so a model change that moves one is seen here
// (the example folders' own tests say why each number is what it is, instruction by instruction).
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>

#include "examples/catalogue.hpp"

using namespace tilesim;

namespace {

struct pinned {
  const char* example;
  const char* variant;
  const char* arch;
  long long ideal_wavefronts, wavefronts, ideal_sectors, sectors;
};

// The summary table's numbers, in table order.
const pinned table[] = {
      {"lds-index-swap", "row-major, mfma read", "gfx90a", 128, 320, 512, 512},
      {"lds-index-swap", "padded, mfma read", "gfx90a", 128, 192, 512, 512},
      {"lds-index-swap", "ck-xor 2024, mfma read", "gfx90a", 128, 192, 512, 512},
      {"lds-index-swap", "ck-xor 2025, mfma read", "gfx90a", 128, 128, 512, 512},
      {"lds-index-swap", "row-major, mfma read", "gfx942", 128, 320, 512, 512},
      {"lds-index-swap", "padded, mfma read", "gfx942", 128, 192, 512, 512},
      {"lds-index-swap", "ck-xor 2024, mfma read", "gfx942", 128, 192, 512, 512},
      {"lds-index-swap", "ck-xor 2025, mfma read", "gfx942", 128, 128, 512, 512},
      {"lds-index-swap", "row-major, mfma read", "gfx950", 96, 192, 512, 512},
      {"lds-index-swap", "padded, mfma read", "gfx950", 96, 96, 512, 512},
      {"lds-index-swap", "ck-xor 2024, mfma read", "gfx950", 96, 128, 512, 512},
      {"lds-index-swap", "ck-xor 2025, mfma read", "gfx950", 96, 96, 512, 512},
      {"lds-index-swap", "row-major, LDS.128 at ldmatrix rows", "sm90", 128, 320, 512, 512},
      {"lds-index-swap", "padded, LDS.128 at ldmatrix rows", "sm90", 128, 192, 512, 512},
      {"lds-index-swap", "ck-xor 2024, LDS.128 at ldmatrix rows", "sm90", 128, 192, 512, 512},
      {"lds-index-swap", "ck-xor 2025, LDS.128 at ldmatrix rows", "sm90", 128, 128, 512, 512},
      // ldmatrix.x4: the same LDS wavefronts; the A fragments leave as 4-byte stores, 16 bytes per tile row
      // and instruction: 8 sectors per store (256 ideal + 256 more than the 16-byte stores' 256)
      {"lds-index-swap", "row-major, ldmatrix.x4", "sm90", 128, 320, 512, 768},
      {"lds-index-swap", "padded, ldmatrix.x4", "sm90", 128, 192, 512, 768},
      {"lds-index-swap", "ck-xor 2024, ldmatrix.x4", "sm90", 128, 192, 512, 768},
      {"lds-index-swap", "ck-xor 2025, ldmatrix.x4", "sm90", 128, 128, 512, 768},
      {"lds-index-swap", "ck-xor 2024 L=2, mfma read", "gfx950", 96, 96, 512, 512},
      {"lds-index-swap", "ck-xor 2025 L=2, mfma read", "gfx950", 96, 128, 512, 512},
      {"cute-swizzle", "row-major 8x64", "sm90", 256, 1152, 1024, 1024},
      {"cute-swizzle", "Swizzle<1,3,3> 8x64", "sm90", 256, 640, 1024, 1024},
      {"cute-swizzle", "Swizzle<2,3,3> 8x64", "sm90", 256, 384, 1024, 1024},
      {"cute-swizzle", "Swizzle<3,3,3> 8x64", "sm90", 256, 256, 1024, 1024},
      {"cute-swizzle", "row-major 8x16", "sm90", 64, 96, 256, 256},
      {"cute-swizzle", "SW32 Swizzle<1,4,3> 8x16", "sm90", 64, 64, 256, 256},
      {"cute-swizzle", "row-major 8x32", "sm90", 128, 320, 512, 512},
      {"cute-swizzle", "SW64 Swizzle<2,4,3> 8x32", "sm90", 128, 128, 512, 512},
      {"cute-swizzle", "SW128 Swizzle<3,4,3> 8x64", "sm90", 256, 256, 1024, 1024},
      {"cute-swizzle", "row-major 8x64, mfma read", "gfx942", 256, 1152, 1024, 1024},
      {"cute-swizzle", "Swizzle<1,3,3> 8x64, mfma read", "gfx942", 256, 640, 1024, 1024},
      {"cute-swizzle", "Swizzle<2,3,3> 8x64, mfma read", "gfx942", 256, 384, 1024, 1024},
      {"cute-swizzle", "Swizzle<3,3,3> 8x64, mfma read", "gfx942", 256, 256, 1024, 1024},
      {"morton", "row-major, 8x4 reads", "sm90", 0, 0, 1024, 2048},
      {"morton", "morton T=8 (transforms), 8x4 reads", "sm90", 0, 0, 1024, 1536},
      {"morton", "morton T=8 (bits), 8x4 reads", "sm90", 0, 0, 1024, 1536},
      {"morton", "morton T=8 (transforms), 8x4 reads, LDS in Z order", "sm90", 256, 768, 1024, 1024},
      {"morton", "row-major, 8x8 reads", "gfx942", 0, 0, 1024, 1024},
      {"morton", "morton T=8 (transforms), 8x8 reads", "gfx942", 0, 0, 1024, 1024},
      {"morton", "morton T=8 (bits), 8x8 reads", "gfx942", 0, 0, 1024, 1024},
      {"morton", "morton T=8 (bits), 8x8 reads, LDS in Z order", "gfx942", 256, 640, 1024, 1024},
      {"gemm", "row-major, 32x32x8", "sm90", 3584, 5632, 2560, 3072},
      {"gemm", "padded, 32x32x8", "sm90", 3584, 4096, 2560, 3072},
      {"gemm", "ck-xor, 32x32x8", "sm90", 3584, 3584, 2560, 3072},
      {"gemm", "row-major, 32x32x8", "gfx942", 4608, 6656, 2560, 2560},
      {"gemm", "padded, 32x32x8", "gfx942", 4608, 5120, 2560, 2560},
      {"gemm", "ck-xor, 32x32x8", "gfx942", 4608, 4608, 2560, 2560},
      {"gemm", "mma.sync row-major, 128x128x32", "sm90", 16384, 53248, 24576, 24576},
      {"gemm", "mma.sync padded, 128x128x32", "sm90", 16384, 20480, 24576, 24576},
      {"gemm", "mma.sync ck-xor 2024, 128x128x32", "sm90", 16384, 28672, 24576, 24576},
      {"gemm", "mma.sync ck-xor 2025, 128x128x32", "sm90", 16384, 16384, 24576, 24576},
      {"conv", "naive, 6x6 3x3", "sm90", 0, 0, 29, 43},
      {"conv", "naive, 6x6 3x3", "gfx942", 0, 0, 29, 43},
      {"conv", "sliding, 6x6 3x3", "sm90", 0, 0, 29, 43},
      {"conv", "sliding, 6x6 3x3", "gfx942", 0, 0, 29, 43},
      {"conv", "im2col, 6x6 3x3", "sm90", 0, 0, 29, 43},
      {"conv", "im2col, 6x6 3x3", "gfx942", 0, 0, 29, 43},
      {"conv", "naive, NHWC 2x8x8x4 3x3 -> 8", "sm90", 0, 0, 1368, 6840},
      {"conv", "naive, NHWC 2x8x8x4 3x3 -> 8", "gfx942", 0, 0, 720, 4176},
      {"conv", "sliding, NHWC 2x8x8x4 3x3 -> 8", "sm90", 0, 0, 1368, 6840},
      {"conv", "sliding, NHWC 2x8x8x4 3x3 -> 8", "gfx942", 0, 0, 720, 4176},
      {"conv", "im2col, NHWC 2x8x8x4 3x3 -> 8", "sm90", 0, 0, 1044, 1764},
      {"conv", "im2col, NHWC 2x8x8x4 3x3 -> 8", "gfx942", 0, 0, 720, 1098},
      {"synthesized", "hand ck-xor 2025, mfma read", "gfx942", 128, 128, 512, 512},
      {"synthesized", "synth Swizzle<2,3,3>, mfma read", "gfx942", 128, 128, 512, 512},
      {"synthesized", "hand ck-xor 2025, mfma read", "gfx950", 96, 96, 512, 512},
      {"synthesized", "synth Swizzle<2,3,4>, mfma read", "gfx950", 96, 96, 512, 512},
      {"synthesized", "hand derived Swizzle<2,3,2> 64x32, down-rows read", "sm90", 64, 96, 256, 256},
      {"synthesized", "synth Swizzle<2,3,3> 64x32, down-rows read", "sm90", 64, 64, 256, 256},
      {"synthesized", "hand row-major 128x64, down-rows read", "sm90", 256, 640, 1024, 1024},
      {"synthesized", "synth Swizzle<2,4,2> 128x64, down-rows read", "sm90", 256, 256, 1024, 1024},
      {"synthesized", "hand row-major 64x128, down-rows read", "sm90", 256, 384, 1024, 1024},
      {"synthesized", "synth Swizzle<1,5,2> 64x128, down-rows read", "sm90", 256, 256, 1024, 1024},
      {"stencil", "pitch 34, rows packed", "sm90", 3152, 3152, 4368, 4768},
      {"stencil", "pitch 36, padded", "sm90", 3152, 3648, 4368, 4768},
      {"row-sums", "shuffle butterfly, 128 x 256", "sm90", 0, 0, 4224, 4224},
      {"fp16-transpose", "row-major 64x64", "sm90", 3072, 17408, 8192, 8192},
      {"fp16-transpose", "padded 72", "sm90", 3072, 17408, 8192, 8192},
      {"fp16-transpose", "Swizzle<3,3,6>", "sm90", 3072, 3072, 8192, 8192},
};

}  // namespace

TEST_CASE("catalogue: every variant of every example passes its result check, and its run is clean") {
  const std::vector<examples::variant> all = examples::all_variants();
  REQUIRE(all.size() == std::size(table));
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  for (const examples::variant& v : all) {
    CAPTURE(v.example + " / " + v.name + " / " + v.arch);
    CHECK_MESSAGE(seen.insert({v.example, v.name, v.arch}).second, "two variants share example, name and arch");
    const examples::outcome o = v.run();
    CHECK(o.run.clean());
    CHECK_MESSAGE(o.passed, o.check);
  }
}

TEST_CASE("catalogue: each row's wavefronts (ideal / actual) and sectors (ideal / actual) are the pinned ones") {
  const std::vector<examples::variant> all = examples::all_variants();
  REQUIRE(all.size() == std::size(table));
  for (std::size_t i = 0; i < all.size(); ++i) {
    const examples::variant& v = all[i];
    const pinned& want = table[i];
    CAPTURE(v.example + " / " + v.name + " / " + v.arch);
    REQUIRE(v.example == want.example);  // the table's order is the catalogue's
    REQUIRE(v.name == want.variant);
    REQUIRE(v.arch == want.arch);
    const examples::summary_row r = examples::summarize(v, v.run());
    CHECK(r.ideal_wavefronts == want.ideal_wavefronts);
    CHECK(r.wavefronts == want.wavefronts);
    CHECK(r.ideal_sectors == want.ideal_sectors);
    CHECK(r.sectors == want.sectors);
    CHECK(r.ideal_wavefronts <= r.wavefronts);  // the law behind every row
    CHECK(r.ideal_sectors <= r.sectors);
    CHECK(r.cycles > 0);
  }
}

TEST_CASE("catalogue: the table has a header and one aligned line per row; failures say FAIL") {
  const std::vector<examples::variant> all = examples::all_variants();
  std::vector<examples::summary_row> rows = {examples::summarize(all[0], all[0].run()),
                                             examples::summarize(all[1], all[1].run())};
  rows[1].passed = false;
  const std::string t = examples::summary_table(rows);
  CHECK(t.rfind("example ", 0) == 0);
  CHECK(std::count(t.begin(), t.end(), '\n') == 3);
  CHECK(t.find("pass: output == input") != std::string::npos);
  CHECK(t.find("FAIL: output == input") != std::string::npos);
  const std::size_t header_check = t.find("check"), row_check = t.find("pass:");
  CHECK(header_check % (t.find('\n') + 1) == row_check % (t.find('\n') + 1));  // same column in both lines
}

TEST_CASE("catalogue: heat map file names keep letters, digits, - _ . and squeeze the rest to one -") {
  examples::summary_row r;
  r.example = "cute-swizzle";
  r.variant = "Swizzle<3,3,3> 8x64";
  r.arch = "sm90";
  CHECK(examples::heat_map_file_name(r) == "cute-swizzle_Swizzle-3-3-3-8x64_sm90.svg");
  r.variant = "ck-xor 2025, mfma read";
  CHECK(examples::heat_map_file_name(r) == "cute-swizzle_ck-xor-2025-mfma-read_sm90.svg");
  r.variant = "../../etc/passwd";
  CHECK(examples::heat_map_file_name(r).find('/') == std::string::npos);
}
