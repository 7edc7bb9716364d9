// tilesim/gpu/rtc_props/amd_check.hpp: the LDS instructions of one kernel in hipcc's AMD assembly.
//
// DEFINITION. amd_lds_instructions(assembly, name) reads the body of kernel `name` (from its "name:" label to
// its .Lfunc_end) and counts its LDS memory instructions by (0 load / 1 store, bytes per lane):
// ds_read_b128 is (0, 16), ds_write_b16 (1, 2), ds_read_u16 (0, 2); a pair (ds_read2_b64, ds_write2_b32) counts
// as one access of twice the width when its offsets are adjacent (offset1 == offset0 + 1), else as a problem
// (the simulator prices each lane access as one instruction; a split pair has other bank behaviour).
// examples/amd_kernels.test.cpp holds the catalogue's kernels to the same rule; this is its reading for one
// generated kernel (the test's reader is local to that test).
//
// WORKED EXAMPLE. For "k:\n ds_write_b128 v1, v[2:5]\n ds_read2_b32 v[6:7], v1 offset1:1\n.Lfunc_end0:" the
// counts are {(1, 16): 1, (0, 8): 1}.
//
// INVARIANTS: a kernel that is not in the text gives found == false; atomics and ds_bpermute are not counted.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tilesim::gpu::props {

struct amd_lds_use {
  bool found = false;
  std::map<std::pair<int, int>, int> counts;
  std::vector<std::string> problems;  // "ds_read2_b32 v[6:7], v1 offset1:2: a pair with non-adjacent offsets"
};

amd_lds_use amd_lds_instructions(const std::string& assembly, const std::string& name);

}  // namespace tilesim::gpu::props
