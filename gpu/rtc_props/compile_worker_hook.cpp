// tilesim/gpu/rtc_props/compile_worker_hook.cpp: lets the unit-test binary serve as compile_batch's worker process.
//
// compile_all (props_command.cpp) starts its workers as `/proc/self/exe props-pass --compile-worker ...`, which
// tilesim-gpu's main hands to compile_worker_main. gpu_props_unit runs run_props in-process (flow.test.cpp), so
// its workers are gpu_props_unit itself, whose main is doctest's: this static object reads the command line
// (/proc/self/cmdline) before main and, when it is a worker's, runs compile_worker_main and exits. So the tests
// drive the same worker processes a real run does. Linked into gpu_props_unit only.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "gpu/rtc_props/compile_batch.hpp"

namespace {

// This process's arguments, argv[0] first.
std::vector<std::string> command_line() {
  std::ifstream f("/proc/self/cmdline", std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<std::string> args;
  for (std::size_t at = 0; at < all.size();) {
    const std::size_t end = all.find('\0', at);
    args.push_back(all.substr(at, end - at));
    at = end == std::string::npos ? all.size() : end + 1;
  }
  return args;
}

const int worker_status = [] {
  const std::vector<std::string> a = command_line();
  if (a.size() < 3 || a[1] != "props-pass" || a[2] != "--compile-worker") return -1;
  const int status = tilesim::gpu::props::compile_worker_main({a.begin() + 3, a.end()});
  std::fflush(stdout);
  _exit(status);
}();

}  // namespace
