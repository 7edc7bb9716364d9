#!/usr/bin/env bash
# tilesim/scripts/calibrate/run_calibration.sh: measures the calibration patterns on the device machine (H100/H200).
#
# WHAT IT DOES, in order (every step timed; ~100 s on an H200 for ~1000 patterns, ncu ~0.09 s per pattern):
#   1. compiles calibrate.cu with the machine's nvcc (PATH, else /usr/local/cuda/bin/nvcc), or uses
#      $CALIBRATE_BIN when set (a binary built elsewhere: the CUDA runtime is linked statically);
#   2. checks every pattern file with `calibrate check` before touching the GPU (exit 2 on bad input);
#   3. records the provenance: date (UTC), nvidia-smi's name/driver/clocks, nvcc and ncu versions, the
#      repository commit when git can tell, and the exact commands below;
#   4. counts: ONE `ncu --clock-control none --csv` process over `calibrate count` for the known patterns
#      (data/calibration/h200-smem-known.patterns: the harness check), the calibration patterns and any extra
#      shared-memory files (one kernel launch per pattern), and one more for extra global files (`gcount`);
#   5. time: `calibrate time` over the same shared-memory files (looped and unrolled cycles, best of 5);
#   6. latency: `calibrate latency` (pointer chase);
#   7. merge.py joins it all into $OUT/h200-calibration.truth.tsv, $OUT/known-check.tsv, one
#      BASENAME.truth.tsv per extra file, $OUT/summary.txt (printed at the end) and $OUT/raw.tgz (ncu CSVs,
#      launch lists, time TSV, logs: everything the truth files were computed from).
#
# USAGE (from anywhere; the device tool runs it in the repository root with $OUT set):
#   bash scripts/calibrate/run_calibration.sh                                   # calibration + harness check
#   bash scripts/calibrate/run_calibration.sh data/calibration/h200-smem-probe.patterns \
#        data/calibration/h200-global-probe.patterns                         # + the probe files (smem, global)
# An extra file is measured as global memory when its name contains "global" or it is given as global:FILE.
# STEPS=counts,time,latency (default all three) selects steps, e.g. STEPS=time for a run without ncu.
#
# WORKED EXAMPLE of the outputs: $OUT/h200-calibration.truth.tsv starts with `# ` provenance lines, then
#   name  width  op  wavefronts  hw_wavefronts  bank_conflicts  cycles_per_warp_access  cycles_unrolled
#   ld_w4_stride_01w  4  load  1  1  0  1.674  1.016
#   ld_w4_stride_32w  4  load  32  32  31  32.013  32.015
# and $OUT/summary.txt says e.g. "harness check (46 known patterns): wavefronts 46/46 equal; looped cycles vs
# truth: worst -3.47 % (ld_w4_half_same_word), mean |error| 0.81 %" (H200, 2026-11-22).
#
# INVARIANTS: $OUT holds at most 4 + (extra files) files; the exit status is 0 only when every step ran and
# merge.py found no ERROR (harness-check deviations are WARNINGs in the summary); a failing step prints its
# own stderr and the script still merges whatever was measured, so nothing measured is lost.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo" || exit 1
out=${OUT:-$repo/build-calibration-out}
mkdir -p "$out" || exit 1
work=$(mktemp -d)
steps=${STEPS:-counts,time,latency}
status=0
t_start=$SECONDS

say() { echo "[calibration $((SECONDS - t_start))s] $*"; }
fail() { echo "run_calibration.sh: $*" >&2; status=1; }

known=data/calibration/h200-smem-known.patterns
primary=data/calibration/h200-calibration.patterns
smem_files=("$known" "$primary")
global_files=()
for arg in "$@"; do
  case "$arg" in
    global:*) global_files+=("${arg#global:}") ;;
    smem:*) smem_files+=("${arg#smem:}") ;;
    *) if [[ $(basename "$arg") == *global* ]]; then global_files+=("$arg"); else smem_files+=("$arg"); fi ;;
  esac
done

# --- 1. the harness binary ---------------------------------------------------------------------------------
nvcc_bin=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
ncu_bin=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
compile=("$nvcc_bin" -O2 -std=c++17 -arch=sm_90 -o "$work/calibrate" gpu/calibrate/calibrate.cu)
if [[ -n ${CALIBRATE_BIN:-} ]]; then
  cp "$CALIBRATE_BIN" "$work/calibrate" || { echo "run_calibration.sh: cannot copy CALIBRATE_BIN=$CALIBRATE_BIN" >&2; exit 1; }
  compile=(cp "$CALIBRATE_BIN" "$work/calibrate")
  say "using the prebuilt $CALIBRATE_BIN"
else
  say "compiling: ${compile[*]}"
  "${compile[@]}" > "$work/compile.log" 2>&1 || { cat "$work/compile.log" >&2; echo "run_calibration.sh: nvcc failed" >&2; exit 1; }
fi
bin=$work/calibrate

# --- 2. check every pattern file (no GPU) ------------------------------------------------------------------
for f in "${smem_files[@]}" "${global_files[@]}"; do
  "$bin" check "$f" > /dev/null || { echo "run_calibration.sh: $f is not a valid pattern file (above)" >&2; exit 2; }
done
say "pattern files: ${smem_files[*]} ${global_files[*]}"

# --- 3. provenance -----------------------------------------------------------------------------------------
smem_metrics=smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
global_metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum
ncu_common=(--clock-control none --cache-control none --csv --print-units base)
count_cmd=("$ncu_bin" "${ncu_common[@]}" --metrics "$smem_metrics" calibrate count "${smem_files[@]}" NAMES)
gcount_cmd=("$ncu_bin" "${ncu_common[@]}" --metrics "$global_metrics" calibrate gcount "${global_files[@]}" NAMES)
{
  echo "date (UTC): $(date -u '+%Y-%m-%d %H:%M:%S')"
  echo "device (nvidia-smi name, driver, SM clock now, max SM clock): $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | head -1)"
  echo "nvcc: $("$nvcc_bin" --version 2>&1 | grep -i release | head -1)"
  echo "ncu: $("$ncu_bin" --version 2>&1 | tail -1)"
  echo "repository: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git status --porcelain 2>/dev/null | grep -q . && echo ' (with uncommitted changes)')"
  echo "compile: ${compile[*]/#$work\//}"
  echo "counts: ${count_cmd[*]}"
  echo "  (one warp, 64 repetitions per pattern, one kernel per pattern; counters / instructions: merge.py)"
  echo "time: calibrate time ${smem_files[*]}"
  echo "  (32 warps x 256 repetitions; looped = #pragma unroll 1, unrolled = 8 per iteration; best of 5, empty loop subtracted)"
  [[ ${#global_files[@]} -gt 0 ]] && echo "global counts: ${gcount_cmd[*]}"
} > "$work/provenance.txt"
sed 's/^/  /' "$work/provenance.txt"

# --- 4. counts under Nsight Compute ------------------------------------------------------------------------
if [[ $steps == *counts* ]]; then
  say "ncu over $(cat "${smem_files[@]}" | grep -cv '^\s*\(#\|$\)') shared-memory patterns"
  "$ncu_bin" "${ncu_common[@]}" --metrics "$smem_metrics" "$bin" count "${smem_files[@]}" "$work/smem.names" \
    > "$work/smem.csv" 2> "$work/smem.ncu.log" || { tail -20 "$work/smem.ncu.log" >&2; fail "ncu (shared) failed"; }
  if [[ ${#global_files[@]} -gt 0 ]]; then
    say "ncu over the global files"
    "$ncu_bin" "${ncu_common[@]}" --metrics "$global_metrics" "$bin" gcount "${global_files[@]}" "$work/global.names" \
      > "$work/global.csv" 2> "$work/global.ncu.log" || { tail -20 "$work/global.ncu.log" >&2; fail "ncu (global) failed"; }
  fi
fi

# --- 5. time, 6. latency -----------------------------------------------------------------------------------
if [[ $steps == *time* ]]; then
  say "time mode"
  "$bin" time "${smem_files[@]}" > "$work/time.tsv" 2> "$work/time.log" || { cat "$work/time.log" >&2; fail "time mode failed"; }
fi
if [[ $steps == *latency* ]]; then
  "$bin" latency > "$work/latency.txt" 2> "$work/latency.log" || { cat "$work/latency.log" >&2; fail "latency failed"; }
  sed 's/^/latency: /' "$work/latency.txt" >> "$work/provenance.txt"
fi

# --- 7. merge ----------------------------------------------------------------------------------------------
say "merging"
if [[ ! -f $work/smem.names ]]; then
  # Without the counts step the launch list is written from the files themselves.
  for f in "${smem_files[@]}"; do
    grep -v '^\s*\(#\|$\)' "$f" | sed 's/#.*//' | awk -v f="$f" '{print $1 "\t" $2 "\t" $3 "\t" f}'
  done > "$work/smem.names"
fi
merge=(python3 "$here/merge.py" --provenance "$work/provenance.txt" --names "$work/smem.names" --out "$out"
       --primary "$primary" --known "$known")
[[ $steps == *counts* ]] && merge+=(--csv "$work/smem.csv")
[[ $steps == *time* ]] && merge+=(--time "$work/time.tsv")
if [[ ${#global_files[@]} -gt 0 && $steps == *counts* ]]; then
  merge+=(--global-names "$work/global.names" --global-csv "$work/global.csv")
fi
"${merge[@]}" || fail "merge.py reported errors (summary above)"
tar czf "$out/raw.tgz" -C "$work" . 2>/dev/null || fail "could not write $out/raw.tgz"
rm -rf "$work"
say "done (exit status $status); outputs in $out: $(ls "$out" | tr '\n' ' ')"
exit $status
