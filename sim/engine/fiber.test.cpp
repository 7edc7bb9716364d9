// Laws of fiber.hpp: suspend/resume interleave as written, stacks are separate, bad sizes are refused.
#include <doctest/doctest.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "sim/engine/fiber.hpp"

using tilesim::sim::fiber_set;

namespace {

struct log_arg {
  fiber_set* fibers;
  std::string* log;
  char* locals[4] = {};  // where each fiber's array lives (escaped, so it must stay in memory)
};

// Appends its index, suspends, appends it again.
void twice(void* p, int index) {
  auto& a = *static_cast<log_arg*>(p);
  *a.log += static_cast<char>('0' + index);
  a.fibers->suspend();
  *a.log += static_cast<char>('a' + index);
}

// Keeps a local across a suspend and writes it back: each fiber has its own stack.
void keeps_local(void* p, int index) {
  auto& a = *static_cast<log_arg*>(p);
  char mine[256];
  std::memset(mine, 'A' + index, sizeof mine);
  a.locals[index] = mine;
  a.fibers->suspend();
  *a.log += mine[0];
  *a.log += mine[255];
}

}  // namespace

TEST_CASE("fiber: resume runs a fiber up to its suspend; a second resume finishes it") {
  fiber_set fs(2, 64 * 1024);
  std::string log;
  log_arg a{&fs, &log};
  fs.start(0, twice, &a);
  fs.start(1, twice, &a);
  fs.resume(0);
  fs.resume(1);
  CHECK(log == "01");
  CHECK_FALSE(fs.finished(0));
  fs.resume(1);
  fs.resume(0);
  CHECK(log == "01ba");
  CHECK(fs.finished(0));
  CHECK(fs.finished(1));
  CHECK(fs.current() == -1);
}

TEST_CASE("fiber: locals survive a suspend while other fibers run (one stack per fiber)") {
  fiber_set fs(3, 32 * 1024);
  std::string log;
  log_arg a{&fs, &log};
  for (int i = 0; i < 3; ++i) fs.start(i, keeps_local, &a);
  for (int i = 0; i < 3; ++i) fs.resume(i);
  for (int i = 2; i >= 0; --i) fs.resume(i);
  CHECK(log == "CCBBAA");
}

TEST_CASE("fiber: a finished fiber can be started again (stacks are reused between workgroups)") {
  fiber_set fs(1, 32 * 1024);
  std::string log;
  log_arg a{&fs, &log};
  for (int round = 0; round < 3; ++round) {
    fs.start(0, twice, &a);
    fs.resume(0);
    fs.resume(0);
  }
  CHECK(log == "0a0a0a");
}

TEST_CASE("fiber: a measured stack reports the bytes used, more than the locals and less than the stack") {
  fiber_set fs(1, 64 * 1024);
  std::string log;
  log_arg a{&fs, &log};
  fs.start(0, keeps_local, &a, true);
  fs.resume(0);
  fs.resume(0);
  CHECK(fs.stack_used(0) >= 256);
  CHECK(fs.stack_used(0) < 64 * 1024);
}

TEST_CASE("fiber: bad counts, small stacks and resuming a finished fiber are refused with the values named") {
  CHECK_THROWS_WITH_AS(fiber_set(0, 64 * 1024), "fiber_set: count must be >= 1 (count = 0)", std::invalid_argument);
  CHECK_THROWS_WITH_AS(fiber_set(1, 1024), "fiber_set: a stack needs >= 16384 bytes (stack_bytes = 1024)",
                       std::invalid_argument);
  fiber_set fs(1, 32 * 1024);
  CHECK_THROWS_AS(fs.resume(0), std::logic_error);  // never started
  CHECK_THROWS_AS(fs.resume(3), std::out_of_range);
  CHECK_THROWS_AS(fs.suspend(), std::logic_error);  // not inside a fiber
}

TEST_CASE("fiber: a set serves one OS thread after another (the engine's worker threads share spare sets)") {
  // fcontext switches carry no thread affinity: a fiber suspended under one thread's scheduler resumes under
  // another's with its stack intact (ASan is told each thread's stack at every switch).
  fiber_set fs(2, 64 * 1024);
  std::string log;
  log_arg a{&fs, &log};
  fs.start(0, keeps_local, &a);
  fs.start(1, twice, &a);
  std::thread([&] {
    fs.resume(0);
    fs.resume(1);
  }).join();
  std::thread([&] {
    fs.resume(1);
    fs.resume(0);
  }).join();
  CHECK(log == "1bAA");
  CHECK(fs.finished(0));
  CHECK(fs.finished(1));
}
