// tilesim/examples/row_sums/row_sums_variants.cpp: see row_sums_variants.hpp.
#include "examples/row_sums/row_sums_variants.hpp"

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
             std::vector<float> want(128, 0.0f);  // the host's sums, in the program's order of columns
             for (index_t r = 0; r < 128; ++r)
               for (index_t c = 0; c < 256; ++c) want[static_cast<std::size_t>(r)] += in[static_cast<std::size_t>(r * 256 + c)];
             check_output(o, o.run.memory.get<float>(1), want, "out == row sums");
             return o;
           }}};
}

}  // namespace tilesim::examples
