// tilesim/sim/engine/internal/block_state.hpp: (engine-internal) what the threads of one running workgroup share.
//
// DEFINITION. One block_state per workgroup_runner, reset for each workgroup: the launch, the global memory,
// the label table, the LDS storage and its allocations, the fibers, the open interval's touches, and the finding lists (with the
// workgroup's counts that cap them at launch::max_reports; the run's cap is applied when workgroups are put
// together, in block order). Programs never see it; thread_context and access_recorder reach it through a
// pointer.
//
// EXAMPLE. Thread 3's first lds<float>(64) creates allocation 0 at LDS offset 0 (the first caller creates,
// later callers must ask for the same type and count); its second lds<int>(10) creates allocation 1 at 256.
//
// INVARIANTS: allocations are 16-byte aligned, disjoint, and end at or before launch::max_lds_bytes; label 0
// is ""; a finding list never holds more than max_reports entries of one workgroup.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <unordered_map>
#include <vector>

#include "sim/engine/diagnostics.hpp"
#include "sim/engine/fiber.hpp"
#include "sim/engine/global_memory.hpp"
#include "sim/engine/interval_touches.hpp"
#include "sim/engine/launch.hpp"
#include "sim/engine/run_result.hpp"
#include "sim/engine/type_key.hpp"
#include "sim/engine/window_memo.hpp"

namespace tilesim::sim::detail {

// Thrown out of barrier() to unwind a parked thread when the run is abandoned; caught at the fiber's base.
// Not a std::exception, so a program's catch (const std::exception&) lets it through.
struct fiber_cancelled {};

// Labels by number; 0 is "".
struct label_table {
  std::vector<std::string> names{""};
  std::unordered_map<std::string, int> numbers{{"", 0}};
  // Names recently asked for, by address (a program's string literals): a hit is checked against the name, so a
  // buffer whose text changed is looked up again; 256 threads labelling the same steps skip the hash lookup.
  // The slot of an address is its top recent_bits after a Fibonacci multiply, so literals a few bytes apart (a
  // program's labels, laid out one after another) land in different slots.
  static constexpr int recent_bits = 6;
  std::array<std::pair<const char*, int>, std::size_t{1} << recent_bits> recent{};
  // The number of `name`, added when new: intern("lds store") == 1 on a fresh table.
  int intern(const char* name) {
    auto& slot = recent[(reinterpret_cast<std::uintptr_t>(name) * 0x9e3779b97f4a7c15ull) >> (64 - recent_bits)];
    if (name && slot.first == name && names[static_cast<std::size_t>(slot.second)] == name) return slot.second;
    std::string key = name ? name : "";
    auto [it, added] = numbers.emplace(std::move(key), static_cast<int>(names.size()));
    if (added) names.push_back(it->first);
    if (name) slot = {name, it->second};
    return it->second;
  }
};

struct lds_slot {
  lds_allocation info;
  type_key type = nullptr;
};

struct block_state {
  const launch* config = nullptr;
  global_memory* memory = nullptr;
  fiber_set* fibers = nullptr;
  label_table labels;
  diagnostic_counts* found = nullptr;  // the workgroup's counts (finished_workgroup::found)
  diagnostic_counts listed;            // how many of each the workgroup listed so far

  int block = 0;
  std::unique_ptr<unsigned char[]> lds_storage;  // max_lds_bytes, 16-byte aligned by new[]'s guarantee; an
                                                 // allocation's bytes are zeroed when it is made
  std::size_t lds_used = 0;
  std::vector<lds_slot> lds;

  workgroup_record* record = nullptr;  // the workgroup being run: findings go here
  interval_touches touches;            // the open barrier interval's touches, as recorded
  std::vector<race> async_races;       // a thread touching bytes its own cp.async has in flight (async_copies.cpp)
  window_memo windows;                 // window setups and walks the threads share (shared_window.hpp)

  // Counts one finding of a kind and says whether it may be listed: room(&diagnostic_counts::races).
  bool room(std::size_t diagnostic_counts::*kind) {
    ++(found->*kind);
    if (listed.*kind >= static_cast<std::size_t>(config->max_reports)) return false;
    ++(listed.*kind);
    return true;
  }
  // "lds allocation 2" or "global buffer 1 ('out')".
  std::string buffer_name(memory_space space, int id) const {
    if (space == memory_space::lds) return "lds allocation " + std::to_string(id);
    return "global buffer " + std::to_string(id) + " ('" + memory->info(id).name + "')";
  }
};

}  // namespace tilesim::sim::detail
