// tilesim/gpu/crosscheck/adapter_kit.hpp: the pieces every program adapter (program_adapter.hpp) is made of.
//
// DEFINITION. Buffers travel as bytes (byte_buffer); typed<T> and bytes_of move them to and from typed vectors.
// unit_float draws an input element; compiled_run runs a program on the simulator at the compiled shape the
// GPU kernel runs (gpu/kernels/compiled_shapes.hpp); element_at names an output element for a mismatch: the
// simulated thread that stored it when the simulator's run is at hand, else its block.
//
// WORKED EXAMPLE.
//   typed<float>(bytes_of(std::vector<float>{1, 2})) == std::vector<float>{1, 2}
//   hex(0x1234, 4) == "0x1234"
//   element_at(p, in, &s, 197 * 32 + 8, 2, 64, 32, 1) == "block 3 thread 70 (row 197, col 8)"   // a 32-column output
//
// INVARIANTS: typed<T>(b) has b.size() / sizeof(T) elements; compiled_run throws std::invalid_argument naming
// the launch when the table has no entry equal to the shape.
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpu/crosscheck/crosscheck.hpp"
#include "gpu/crosscheck/program_adapter.hpp"
#include "gpu/kernels/compiled_shapes.hpp"
#include "gpu/runtime/device_error.hpp"
#include "sim/engine/engine.hpp"

namespace tilesim::gpu {

// The buffer's bytes as T elements (a trailing partial element is dropped).
template <class T>
std::vector<T> typed(const byte_buffer& b) {
  std::vector<T> v(b.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

// The elements' bytes.
template <class T>
byte_buffer bytes_of(const std::vector<T>& v) {
  byte_buffer b(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// A float in [-1, 1) with 24 significant bits: every product of two is exact in double.
inline float unit_float(std::mt19937_64& g) {
  return static_cast<float>(static_cast<double>(g() >> 40) / (1 << 23) - 1.0);
}

// "0x00ff" for hex(255, 4).
std::string hex(std::uint32_t v, int digits);

// Which thread's global store covered `address` (from the simulator's records): "block 3 thread 70".
std::string writer_of(const simulated& s, sim::address_t address, int wave_size);

// Output element i (row-major, in.output_cols columns, element_bytes each) of a grid whose blocks own
// block_rows x block_cols tiles, blocks_n of them per row: "block 3 thread 70 (row 197, col 8)" with the
// simulator's run (the storing thread), "block 3 (row 197, col 8)" without.
std::string element_at(const crosscheck_point& p, const point_inputs& in, const simulated* sim, index_t i,
                       std::size_t element_bytes, index_t block_rows, index_t block_cols, index_t blocks_n);

// Runs program<S> on the simulator for the compiled shape S == shape of `Table` (the instance the GPU kernel
// runs: gpu/kernels/compiled_shapes.hpp); a shape with no entry is std::invalid_argument.
template <const auto& Table, class Shape, class Program>
sim::run_result compiled_run(const Shape& shape, const sim::launch& l, sim::global_memory mem, Program program) {
  sim::run_result r;
  const bool found = compiled::with_compiled_shape<Table>(shape, [&]<int I>() {
    r = sim::run(l, std::move(mem), [&](sim::thread_context& ctx) { program.template operator()<Table[I]>(ctx); });
  });
  if (!found)
    throw std::invalid_argument("no compiled kernel for this point's shape (grid " + std::to_string(l.grid) + ", block " +
                                std::to_string(l.block) + "): add it to its table in gpu/kernels/programs/");
  return r;
}

// The simulator's run of Entry (gpu/kernels/programs/) at `shape`: Entry::run<S>(ctx, arguments...), the body
// its GPU kernel runs.
template <class Entry, class Shape, class... Arguments>
sim::run_result simulate_entry(const Shape& shape, const sim::launch& l, sim::global_memory mem, Arguments... arguments) {
  return compiled_run<Entry::shapes>(shape, l, std::move(mem), [&]<auto S>(sim::thread_context& ctx) {
    Entry::template run<S>(ctx, arguments...);
  });
}

// True when Entry's table holds `shape` (its kernel is compiled).
template <class Entry, class Shape>
bool entry_has(const Shape& shape) {
  return compiled::find_shape(Entry::shapes, shape) >= 0;
}

// The device runner `f` (gpu/kernels/device_run.hpp), or device_error where this binary does not link the kernels
// (its weak reference is null): linked(run_copy_on_device, "run_copy_on_device")(p.copy, l, buffers).
template <class R, class... A>
auto linked(R (*f)(A...), const char* name) {
  if (f == nullptr)
    throw device_error(std::string("this program is built without the GPU kernels (") + name +
                       "): run it from tilesim-gpu");
  return f;
}

// Runs Entry's kernel on the GPU at `shape` (launch l, run-time argument where the kernel has one); a shape
// with no entry is a device_error naming the launch, before any launch.
template <class Entry, class Shape>
device_result run_entry_on_device(const Shape& shape, const device_launch& l, std::vector<byte_buffer> buffers,
                                  index_t argument = 0) {
  const int at = compiled::find_shape(Entry::shapes, shape);
  if (at < 0)
    throw device_error(std::string("no compiled ") + Entry::title + " kernel for this shape (grid " +
                       std::to_string(l.grid) + ", block " + std::to_string(l.block) +
                       "): add it to its table in gpu/kernels/programs/");
  return linked(run_compiled_kernel, "run_compiled_kernel")(Entry::kernel, at, l, std::move(buffers), argument);
}

}  // namespace tilesim::gpu
