#!/usr/bin/env bash
# Records `tilesim-gpu props` on a GPU machine within one device call (run from the repository root of a copy of
# the working tree; BUNDLE is scripts/rtc_props/bundle.sh's folder: tilesim-gpu, Boost.Context, libcu++):
#   bash scripts/rtc_props/record_props.sh BUNDLE OUT [CASES] [SEED]
#       everything in BUDGET seconds (default 570: a 10-minute call less its start): first the harness failing on
#       purpose (--fault swizzle-bit over FAULT_CASES = 100 cases, caught and shrunk, no counters), then the
#       property run (default 500 cases, seed 18) with the compute-sanitizer memcheck + racecheck sample and
#       Nsight Compute in batches of COUNTERS_BATCH = 50 kernels until a deadline that leaves 120 s for the
#       sanitizer and shrinking; counters that did not fit stay pending in the report (summary.counters_pending).
#   bash scripts/rtc_props/record_props.sh BUNDLE OUT counters REPORT
#       a later call: copies REPORT (the first call's OUT/props-h100.json, put back into the tree) to OUT and
#       measures its pending counters there (tilesim-gpu props --counters-only), compiling first what this fresh
#       machine's cache lacks.
#   bash scripts/rtc_props/record_props.sh BUNDLE OUT fault [CASES] [SEED]
#       the fault run alone.
# PROPS_ARGS adds options to the property run and the counters call (e.g. PROPS_ARGS='--counters-batch 25' for the
# counters call, which COUNTERS_BATCH does not reach).
# Writes OUT/PREFIX.json (the report: data/recordings/ keeps it, the CPU test gpu-props replays it), OUT/PREFIX.log
# (stdout: verdicts, a failure's minimal case and kernel source) and OUT/PREFIX.err (stderr: progress bars),
# PREFIX = props-h100 (the GPU's short name) and props-h100-fault. Each step runs under `timeout`, so a step that
# overruns is stopped with its report (or the interim one, written before the counters) kept; the script's last
# lines say how long each step took.
set -uo pipefail
bundle=$1 out=$2
shift 2
mode=all
case "${1:-}" in fault | counters) mode=$1; shift ;; esac
start=$(date +%s)
budget=${BUDGET:-570}
end=$((start + budget))
export PATH=$PATH:/usr/local/cuda/bin
export LD_LIBRARY_PATH=$PWD/$bundle${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
prefix=props-$(echo "$gpu" | grep -oiE 'h[0-9]{3}' | head -1 | tr '[:upper:]' '[:lower:]')
"$bundle/tilesim-gpu" device
# CACHE_FROM=DIR or FILE.tgz: a module cache compiled beforehand (tilesim-props-compile --cases 500 --seed 18
# --cache DIR, then tar czf FILE.tgz -C DIR .: the same NVRTC 13.0 and include paths give the same keys; the
# cubins are ~160 KB each, ~16 KB compressed), copied in so that a later call (counters) need not compile again;
# entries it lacks are compiled here. The first call compiles on the GPU machine (the 16-core measurement).
if [ -n "${CACHE_FROM:-}" ]; then
  mkdir -p /tmp/tilesim-props-cache
  if [ -d "$CACHE_FROM" ]; then cp -n "$CACHE_FROM"/* /tmp/tilesim-props-cache/ 2> /dev/null
  else tar xzf "$CACHE_FROM" -C /tmp/tilesim-props-cache; fi
  echo "module cache: $(find /tmp/tilesim-props-cache -name '*.cubin' | wc -l) kernels from $CACHE_FROM"
fi
read -r -a extra <<< "${PROPS_ARGS:-}"
status=0
left() { echo $((end - $(date +%s))); }
atleast() { [ "$2" -gt "$1" ] && echo "$2" || echo "$1"; }  # atleast LOW N: max(LOW, N)

# One tilesim-gpu props run: NAME, its time limit in seconds, its arguments; stdout/stderr to OUT/NAME.log/.err.
step() {
  local name=$1 limit=$2 t0 rc
  shift 2
  t0=$(date +%s)
  echo "== $name: tilesim-gpu props $* (limit ${limit} s)"
  timeout -k 10 "$limit" "$bundle/tilesim-gpu" props "$@" > "$out/$name.log" 2> "$out/$name.err"
  rc=$?
  echo "== $name: exit $rc after $(($(date +%s) - t0)) s"
  tail -n 25 "$out/$name.log"
  tail -c 1500 "$out/$name.err" | tr '\r' '\n' | grep -v '^\(compile\|run\|counters\) *\[' | tail -n 6
  [ "$rc" -ne 0 ] && status=$rc
  return 0
}

case $mode in
  counters)
    report=$1
    cp "$report" "$out/$prefix.json"
    step "$prefix-counters" "$(atleast 30 $(($(left) - 5)))" --counters-only --report "$out/$prefix.json" \
      --counters-deadline "$(atleast 10 $(($(left) - 20)))" "${extra[@]}"
    ;;
  fault)
    step "$prefix-fault" "$(atleast 30 $(($(left) - 5)))" --cases "${1:-100}" --seed "${2:-18}" --fault swizzle-bit --no-counters \
      --sanitize-cases 0 --shrink-seconds 150 --report "$out/$prefix-fault.json"
    ;;
  all)
    cases=${1:-500} seed=${2:-18}
    # 1. The harness failing on purpose: ~15 s to compile 100 kernels on 16 cores, ~20 s to run, shrinking
    #    stopped at 100 s (each step one compile, ~1.7 s, and one launch).
    #    SKIP_FAULT=1 leaves it out (a re-recording after a simulator or kernel change whose fault harness is
    #    unchanged): its ~200 s go to the counters instead.
    if [ -z "${SKIP_FAULT:-}" ]; then
      step "$prefix-fault" 200 --cases "${FAULT_CASES:-100}" --seed "$seed" --fault swizzle-bit --no-counters \
        --sanitize-cases 0 --shrink-seconds 100 --report "$out/$prefix-fault.json"
    fi
    # 2. The property run: ~60 s to compile 500 kernels, then the runs, then ncu in batches until the deadline,
    #    which leaves 120 s for the compute-sanitizer sample (8 cases, memcheck and racecheck), shrinking a
    #    failure (at most 40 s) and the report. The report is rewritten after the runs and after the counters,
    #    so a step stopped by its limit still leaves them.
    room=$(left)
    step "$prefix" "$(atleast 60 $((room - 5)))" --cases "$cases" --seed "$seed" --counters-batch "${COUNTERS_BATCH:-50}" \
      --counters-deadline "$(atleast 10 $((room - 120)))" --sanitize-cases 8 --shrink-seconds 40 \
      --report "$out/$prefix.json" "${extra[@]}"
    ;;
esac
echo "record_props.sh: $mode done in $(($(date +%s) - start)) s of ${budget}; exit $status"
ls -la "$out"
exit $status
