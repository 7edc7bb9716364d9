#!/usr/bin/env bash
# Runs the probe on the device machine: builds smem_probe, measures the H200 truth patterns (harness check)
# and the probe pattern files, writes TSVs to ${OUT:-.}.
# Usage: bash sim/calibration/probe/run_probe.sh [counts,time]   (default both; `time` alone skips ncu)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/out}
mkdir -p "$out"
work=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/device.txt" 2>&1
nvcc --version | tail -2 >> "$out/device.txt"
ncu --version | tail -1 >> "$out/device.txt"
nvcc -O2 -std=c++17 -arch=sm_90 -o "$work/smem_probe" "$here/smem_probe.cu" || exit 1
smem_metrics=smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
global_metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum
count() {  # count MODE PATTERNS METRICS SPACE OUTNAME
  ncu --clock-control none --csv --metrics "$3" "$work/smem_probe" "$1" "$2" "$work/names" > "$work/csv" 2> "$work/err" \
    || { cat "$work/err"; return 1; }
  python3 "$here/merge_ncu.py" "$work/names" "$work/csv" "$4" > "$out/$5"
}
truth=${TRUTH:-$here/../h200-smem-known.patterns}
steps=${1:-counts,time}
if [[ $steps == *counts* ]]; then
count count "$truth" $smem_metrics smem known.counts.tsv
count count "$here/../h200-smem-probe.patterns" $smem_metrics smem smem-probe.counts.tsv
count gcount "$here/../h200-global-probe.patterns" $global_metrics global global-probe.counts.tsv
fi
if [[ $steps == *time* ]]; then
"$work/smem_probe" time "$truth" > "$out/known.cycles.tsv"
"$work/smem_probe" time "$here/../h200-smem-probe.patterns" > "$out/smem-probe.cycles.tsv"
"$work/smem_probe" latency > "$out/latency.txt"
fi
cat "$out/device.txt" "$out/latency.txt"
echo "done"
