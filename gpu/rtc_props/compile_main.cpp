// tilesim/gpu/rtc_props/compile_main.cpp: `tilesim-props-compile`, the CPU half of tilesim-gpu props (no GPU needed).
//
//   tilesim-props-compile [--cases N] [--seed S] [--compiler nvrtc|nvcc|hipcc] [--arch A] [--wave 32|64]
//                         [--jobs J] [--pool processes|threads] [--cache DIR] [--root DIR] [--from I]
//                         [--fault swizzle-bit] [--kinds copy,stencil,reduce,loop]
// Generates cases I .. I+N-1 of the seed exactly as tilesim-gpu props does, compiles each kernel with the chosen
// run-time compiler J at a time (default: the cores this process may use; NVRTC in J worker processes, or J
// threads with --pool threads, which NVRTC serializes: compile_batch.hpp), no cache unless --cache, and prints
// one line per case (its layout, tile, compile seconds, ptxas stack frame, spills and registers), then the
// median, the wall time and the CPU time of this process and its workers (CPU / wall = the cores kept busy).
// --fault swizzle-bit draws the cases `tilesim-gpu props --fault swizzle-bit` draws (their kernels differ); --kinds
// those of `tilesim-gpu props --kinds` (props_case.hpp's kinds; default copy). With
// --cache DIR it fills a module cache a GPU machine can start from (record_props.sh: CACHE_FROM=DIR).
// --compiler hipcc compiles wave-64 cases (--wave 64) for AMD (--arch gfx90a or gfx940) and reports the
// assembly's ScratchSize as the stack. Exit 0 when every kernel compiled with 0 bytes of stack and no spills, 1
// otherwise, 2 on bad options. CI runs it on a sample; it is also how NVRTC and nvcc, and threads and worker
// processes, were measured against each other (docs/gpu.md, "Property tests on the GPU").
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>

#include "util/args.hpp"
#include "gpu/rtc_props/compile_batch.hpp"
#include "gpu/rtc_props/kernel_source.hpp"
#include "gpu/rtc_props/props_generators.hpp"

using namespace tilesim::gpu::props;

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "--compile-worker")  // one of compile_batch's worker processes
    return compile_worker_main(std::vector<std::string>(args.begin() + 1, args.end()));
  try {
    for (const std::string& a : args)
      if (a == "--help" || a == "-h") {
        std::puts("usage: tilesim-props-compile [--cases N] [--seed S] [--compiler nvrtc|nvcc|hipcc] [--arch A]\n"
                  "                             [--wave 32|64] [--jobs J] [--pool processes|threads] [--cache DIR] [--root DIR]\n"
                  "                             [--from I] [--fault swizzle-bit] [--kinds copy,stencil,reduce,loop]\n"
                  "Compiles generated tile programs as tilesim-gpu props does (no GPU needed).\n"
                  "exit codes: 0 every kernel compiled with 0 bytes of stack and no spills; 1 one did not; 2 bad options.");
        return 0;
      }
    const auto cases = tilesim::cli::take_text_option(args, "cases");
    const auto seed = tilesim::cli::take_text_option(args, "seed");
    const auto compiler = tilesim::cli::take_text_option(args, "compiler");
    const auto jobs = tilesim::cli::take_text_option(args, "jobs");
    const auto cache = tilesim::cli::take_text_option(args, "cache");
    const auto root = tilesim::cli::take_text_option(args, "root");
    const auto from = tilesim::cli::take_text_option(args, "from");
    const auto arch = tilesim::cli::take_text_option(args, "arch");
    const auto wave = tilesim::cli::take_text_option(args, "wave");
    const auto pool = tilesim::cli::take_text_option(args, "pool");
    const auto fault = tilesim::cli::take_text_option(args, "fault");
    const auto kinds_list = tilesim::cli::take_text_option(args, "kinds");
    if (!args.empty()) throw tilesim::cli::usage_error("unknown argument \"" + args[0] + "\"");
    if (compiler && *compiler != "nvrtc" && *compiler != "nvcc" && *compiler != "hipcc")
      throw tilesim::cli::usage_error("--compiler must be nvrtc, nvcc or hipcc");
    if (fault && *fault != "swizzle-bit") throw tilesim::cli::usage_error("--fault takes swizzle-bit (got \"" + *fault + "\")");
    std::vector<props_kind> kinds = {props_kind::copy};
    if (kinds_list) {
      try {
        kinds = parse_kinds(*kinds_list);
      } catch (const std::invalid_argument& e) {
        throw tilesim::cli::usage_error(std::string("--kinds: ") + e.what());
      }
    }
    if (pool && *pool != "processes" && *pool != "threads")
      throw tilesim::cli::usage_error("--pool must be processes or threads (got \"" + *pool + "\")");
    if (wave && *wave != "32" && *wave != "64") throw tilesim::cli::usage_error("--wave must be 32 or 64");
    const long long n = cases ? tilesim::cli::parse_int(*cases, "option --cases") : 8;
    const long long first = from ? tilesim::cli::parse_int(*from, "option --from") : 0;
    const long long j = jobs ? tilesim::cli::parse_int(*jobs, "option --jobs") : default_compile_jobs();
    if (n < 1 || n > 100000 || first < 0 || j < 1) throw tilesim::cli::usage_error("--cases, --from and --jobs must be positive");
    const std::uint64_t s = seed ? static_cast<std::uint64_t>(tilesim::cli::parse_int(*seed, "option --seed")) : 1;
    rtc_options o;
    o.backend = !compiler || *compiler == "nvrtc" ? rtc_backend::nvrtc : *compiler == "nvcc" ? rtc_backend::nvcc : rtc_backend::hipcc;
    if (o.backend == rtc_backend::hipcc) o.arch = arch.value_or("gfx90a");
    else if (arch) o.arch = *arch;
    const tilesim::index_t w = wave ? std::stoi(*wave) : o.backend == rtc_backend::hipcc ? 64 : 32;
    o.cache = cache.value_or("");
    o.root = find_root(root.value_or("."));
    std::vector<props_case> list;
    for (long long i = first; i < first + n; ++i) list.push_back(generate_case(s, static_cast<int>(i), fault ? 1 : 0, w, kinds).value());
    const auto t0 = std::chrono::steady_clock::now();
    const compile_pool how = pool && *pool == "threads" ? compile_pool::threads : compile_pool::processes;
    const std::vector<compiled_kernel> k = compile_batch(list, o, static_cast<int>(j), nullptr, {}, how);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double cpu = 0;  // this process and its (waited-for) workers, user + system
    for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
      rusage u{};
      getrusage(who, &u);
      cpu += static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
    }
    std::vector<double> seconds;
    int bad = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const props_case& c = list[i];
      const bool ok = k[i].ok && k[i].stack_bytes == 0 && k[i].spill_store_bytes == 0 && k[i].spill_load_bytes == 0;
      bad += !ok;
      if (!k[i].cached) seconds.push_back(k[i].seconds);
      std::printf("case %lld: %-12s %d B x %lldx%lld, %lld threads: %s %.2f s, stack %lld B, spills %lld/%lld B, %d registers%s\n",
                  first + static_cast<long long>(i), layout_name(c.layout), c.element_bytes, static_cast<long long>(c.rows()),
                  static_cast<long long>(c.cols()), static_cast<long long>(c.threads), k[i].ok ? "compiled" : "FAILED",
                  k[i].seconds, k[i].stack_bytes, k[i].spill_store_bytes, k[i].spill_load_bytes, k[i].registers,
                  k[i].cached ? " (cached)" : "");
      if (!k[i].ok) std::printf("%s\n", k[i].log.c_str());
    }
    std::sort(seconds.begin(), seconds.end());
    const bool processes = o.backend == rtc_backend::nvrtc && how == compile_pool::processes && j > 1;
    std::printf("%s: %zu kernels in %.1f s wall, %.1f s CPU, %lld %s; median %.2f s per case; %d with stack, spills or errors\n",
                backend_version(o).c_str(), list.size(), wall, cpu, j, processes ? "processes" : "threads",
                seconds.empty() ? 0.0 : seconds[seconds.size() / 2], bad);
    return bad ? 1 : 0;
  } catch (const tilesim::cli::usage_error& e) {
    std::fprintf(stderr, "tilesim-props-compile: %s\n", e.what());
    return 2;
  }
}
