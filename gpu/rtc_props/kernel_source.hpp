// tilesim/gpu/rtc_props/kernel_source.hpp: a props_case as the CUDA source of the kernel a user would ship.
//
// DEFINITION. kernel_source(c, name) is one translation unit: the project's own headers
// (gpu/runtime/device_context.hpp, gpu/rtc_props/props_program.hpp), a constexpr function returning c field by field
// (encodings as the make_encoding(...) calls that rebuild them), and
//   extern "C" __global__ void __launch_bounds__(threads, blocks) NAME(tilesim::gpu::kernel_args a)
// whose body runs props_copy<T>(ctx, constant<case>{}) through gpu::run_program (clock64 per block when
// timed), T = uint16_t / uint32_t / uint64_t by the element size; blocks = max(1, 65536 / (threads * 128)) per SM,
// gpu/kernels/kernels.cu's budget of at most 128 registers per thread. The same text compiles under NVRTC
// (gpu/rtc_props/rtc_include supplies the std headers) and nvcc. case_cpp(c) is the case alone, a C++ snippet a
// person can paste into a test (a copy's text is what it was before kinds: no kind lines); kernel_name(c) is "tilesim_props_" + 16 hex digits of the case's hash.
//
// WORKED EXAMPLE. kernel_source(c, kernel_name(c)) for a 64-thread fp32 case contains
//   "__launch_bounds__(64, 8)" and "props_copy<std::uint32_t>(ctx, tilesim::constant<props_case_value()>{})".
//
// INVARIANTS: the source names c completely (the kernel depends on nothing else); equal cases give equal
// text and name; no text depends on the machine (the module cache key is the text).
#pragma once

#include <cstdint>
#include <string>

#include "gpu/rtc_props/props_case.hpp"

namespace tilesim::gpu::props {

// "uint16_t" / "uint32_t" / "uint64_t".
const char* element_type(int element_bytes);
// The statements that set every field of a props_case named `c` (one per line, `indent` spaces before each).
std::string case_cpp(const props_case& c, int indent = 2);
// FNV-1a 64 of case_cpp(c).
std::uint64_t case_hash(const props_case& c);
// "tilesim_props_0123456789abcdef".
std::string kernel_name(const props_case& c);
// The kernel's translation unit (see above).
std::string kernel_source(const props_case& c, const std::string& name);
// FNV-1a 64 of any text (the module cache's key).
std::uint64_t fnv1a(const std::string& text);
// The family's name in the report and in case_cpp: "ck_xor".
const char* layout_name(props_layout l);
// The kind's name in the report, in --kinds and in case_cpp: "stencil".
const char* kind_name(props_kind k);

}  // namespace tilesim::gpu::props
