// tilesim/gpu/user/doctest_crosscheck.hpp: a user's test suite asserts a GPU cross-check in one line.
//
// DEFINITION. TILESIM_CHECK_CROSSCHECK(call) evaluates call (a tilesim::gpu::crosscheck(...), user_crosscheck.hpp)
// once. Skipped (no GPU, or this process is the Nsight Compute pass of another call): a doctest MESSAGE
// "skipped: no GPU: ..." and nothing checked. Otherwise CHECKs that the kernel ran (no gpu_error) and that
// outputs and counters agree, with the report's text as context, so a failure shows which buffer element or
// counter differed; counters ncu could not measure (missing, or refused: ERR_NVGPUCTRPERM) are a MESSAGE.
//
// WORKED EXAMPLE (examples/user_program/column_sums_gpu.test.cpp):
//   TEST_CASE("column sums on the GPU equal the simulator") {
//     TILESIM_CHECK_CROSSCHECK(tilesim::gpu::crosscheck(column_sums{in, out}, launch, buffers));
//   }
// prints on a machine without a GPU: "MESSAGE: skipped: no GPU: hipGetDeviceCount says ..." and passes.
//
// INVARIANTS: the call is evaluated exactly once; a skipped report never fails the test.
#pragma once

#include <doctest/doctest.h>

#include "gpu/user/user_crosscheck.hpp"

#define TILESIM_CHECK_CROSSCHECK(call)                               \
  do {                                                               \
    const ::tilesim::gpu::user_report tilesim_report_ = (call);      \
    if (tilesim_report_.skipped) {                                   \
      MESSAGE("skipped: " << tilesim_report_.why_skipped);           \
    } else {                                                         \
      INFO(tilesim_report_.text);                                    \
      CHECK(tilesim_report_.gpu_error.empty());                      \
      CHECK(tilesim_report_.results_equal);                          \
      if (!tilesim_report_.why_counters_skipped.empty())             \
        MESSAGE("counters skipped: " << tilesim_report_.why_counters_skipped); \
      if (tilesim_report_.counters_measured) CHECK(tilesim_report_.counters_equal); \
    }                                                                \
  } while (0)
