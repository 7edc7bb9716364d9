// tilesim/examples/row_sums/row_sums_variants.cpp: see row_sums_variants.hpp.
#include "examples/row_sums/row_sums_variants.hpp"

#include <string>

#include "examples/row_sums/row_sums.hpp"

namespace tilesim::examples {

std::vector<variant> row_sums_variants() {
  return {{"row-sums", "shuffle butterfly, 128 x 256", "sm90", [] {
             const std::vector<float> in = row_sums_inputs(128, 20261129);
             sim::global_memory m;
             const int src = m.add<float>("in", in);
             const int dst = m.add<float>("out", 128, -1.0f);
             const row_sums_128 program{src, dst};
             outcome o;
             o.run = sim::run(launch_on("sm90", 16, 256), std::move(m), [&](sim::thread_context& ctx) { program(ctx); });
             const std::vector<float> got = o.run.memory.get<float>(1);
             o.passed = true;
             o.check = "out == row sums";
             for (index_t r = 0; r < 128 && o.passed; ++r) {
               float want = 0;
               for (index_t c = 0; c < 256; ++c) want += in[static_cast<std::size_t>(r * 256 + c)];
               if (got[static_cast<std::size_t>(r)] != want) {
                 o.passed = false;
                 o.check = "out[" + std::to_string(r) + "] = " + std::to_string(got[static_cast<std::size_t>(r)]) +
                           ", expected " + std::to_string(want);
               }
             }
             return o;
           }}};
}

}  // namespace tilesim::examples
