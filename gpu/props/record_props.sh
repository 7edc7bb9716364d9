#!/usr/bin/env bash
# Records `tilesim-gpu props` on a GPU machine (run from the repository root of a copy of the working tree):
#   bash gpu/props/record_props.sh BUNDLE OUT [CASES] [SEED]          the property run (default 500 cases, seed 18)
#   bash gpu/props/record_props.sh BUNDLE OUT fault [CASES] [SEED]    the harness failing on purpose (--fault swizzle-bit)
# BUNDLE is gpu/props/bundle.sh's folder (tilesim-gpu + Boost.Context). Writes OUT/props-PREFIX.json (the report,
# which gpu/recordings/ keeps and the CPU test gpu-props replays), OUT/props-PREFIX.log (stdout: the verdicts, a
# failure's minimal case and kernel source) and OUT/props-PREFIX.err (stderr: the progress bars); PREFIX is the
# GPU's short name (h100, h200), with -fault for the fault run.
set -uo pipefail
bundle=$1 out=$2
shift 2
mode=run
if [ "${1:-}" = fault ]; then mode=fault; shift; fi
cases=${1:-500} seed=${2:-18}
export PATH=$PATH:/usr/local/cuda/bin
export LD_LIBRARY_PATH=$PWD/$bundle${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
prefix=props-$(echo "$gpu" | grep -oiE 'h[0-9]{3}' | head -1 | tr 'A-Z' 'a-z')
"$bundle/tilesim-gpu" device
if [ "$mode" = fault ]; then
  prefix=$prefix-fault
  "$bundle/tilesim-gpu" props --cases "$cases" --seed "$seed" --fault swizzle-bit --sanitize-cases 0 \
    --report "$out/$prefix.json" > "$out/$prefix.log" 2> "$out/$prefix.err"
else
  "$bundle/tilesim-gpu" props --cases "$cases" --seed "$seed" --report "$out/$prefix.json" \
    > "$out/$prefix.log" 2> "$out/$prefix.err"
fi
status=$?
echo "tilesim-gpu props exit $status"
tail -n 40 "$out/$prefix.log"
tail -c 2000 "$out/$prefix.err" | tr '\r' '\n' | tail -n 8
exit $status
