// tilesim/gpu/crosscheck/counters.cpp: Nsight Compute's counters, the simulator's prediction of them (counters.hpp).
#include "gpu/crosscheck/counters.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>

namespace tilesim::gpu {

using util::json_value;

const std::vector<std::string>& counter_metrics() {
  static const std::vector<std::string> m = {
      "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      "smsp__sass_inst_executed_op_shared_ld.sum",
      "smsp__sass_inst_executed_op_shared_st.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "smsp__sass_inst_executed_op_global_ld.sum",
      "smsp__sass_inst_executed_op_global_st.sum",
      "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",  // local memory (spills, stack): the simulator's 0
      "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
      "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",  // ldmatrix: counted apart from op_ld
      "smsp__sass_inst_executed_op_ldsm.sum",
      "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",  // cp.async: apart from op_st
      "smsp__sass_inst_executed_op_ldgsts.sum",  // (its global sectors count in ..._global_op_ld: H200, 2026-11-29)
  };
  return m;
}

namespace {
long long* field(counters& c, std::size_t i) {
  long long* f[] = {&c.lds_wavefronts_ld,   &c.lds_wavefronts_st,   &c.lds_instructions_ld,   &c.lds_instructions_st,
                    &c.global_sectors_ld,   &c.global_sectors_st,   &c.global_instructions_ld, &c.global_instructions_st,
                    &c.local_sectors_ld,    &c.local_sectors_st,  &c.lds_wavefronts_ldsm, &c.lds_instructions_ldsm,
                    &c.lds_wavefronts_ldgsts, &c.instructions_ldgsts};
  return f[i];
}
const char* field_names[] = {"lds_wavefronts_ld",   "lds_wavefronts_st",   "lds_instructions_ld",
                             "lds_instructions_st", "global_sectors_ld",   "global_sectors_st",
                             "global_instructions_ld", "global_instructions_st", "local_sectors_ld",
                             "local_sectors_st",    "lds_wavefronts_ldsm", "lds_instructions_ldsm",
                             "lds_wavefronts_ldgsts", "instructions_ldgsts"};
// Recordings made before local memory was counted have the first 8 fields only, before ldmatrix the first 10,
// before cp.async the first 12.
bool has_member(const json_value& v, const std::string& key) {
  for (const auto& m : v.members())
    if (m.first == key) return true;
  return false;
}
}  // namespace

bool set_counter(counters& c, const std::string& metric, double value) {
  const auto& m = counter_metrics();
  for (std::size_t i = 0; i < m.size(); ++i)
    if (m[i] == metric) return *field(c, i) = std::llround(value), true;
  return false;
}

json_value to_json(const counters& c) {
  json_value v;
  counters copy = c;
  for (std::size_t i = 0; i < counter_metrics().size(); ++i) v.set(field_names[i], *field(copy, i));
  return v;
}

counters counters_from_json(const json_value& v) {
  counters c;
  for (std::size_t i = 0; i < counter_metrics().size(); ++i)
    if (i < 8 || has_member(v, field_names[i])) *field(c, i) = std::llround(v[field_names[i]].number());
  return c;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

counters predicted_counters(const sim::program_report& report) {
  counters c;
  for (const sim::instruction_report& i : report.instructions) {
    const bool ld = i.kind == sim::access_kind::load;
    if (i.async_copy) {  // one LDGSTS: its global row counts the instruction and the sectors, its landing the wavefronts
      if (i.space == sim::memory_space::lds) {
        c.lds_wavefronts_ldgsts += i.wavefronts;
      } else {
        c.global_sectors_ld += i.sectors;
        c.instructions_ldgsts += i.instances;
      }
    } else if (i.space == sim::memory_space::lds) {
      if (i.matrix_access && ld) {  // ldmatrix (an stmatrix is not counted apart yet: op_st)
        c.lds_wavefronts_ldsm += i.wavefronts;
        c.lds_instructions_ldsm += i.instances;
      } else {
        (ld ? c.lds_wavefronts_ld : c.lds_wavefronts_st) += i.wavefronts;
        (ld ? c.lds_instructions_ld : c.lds_instructions_st) += i.instances;
      }
    } else {
      (ld ? c.global_sectors_ld : c.global_sectors_st) += i.sectors;
      (ld ? c.global_instructions_ld : c.global_instructions_st) += i.instances;
    }
  }
  return c;
}

std::size_t lds_bytes_of(const sim::run_result& run) {
  std::size_t bytes = 0;
  for (const sim::workgroup_record& w : run.workgroups) bytes = std::max(bytes, w.lds_bytes);
  return bytes;
}

}  // namespace tilesim::gpu
