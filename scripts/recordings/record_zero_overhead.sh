#!/usr/bin/env bash
# Records, on a GPU machine, everything gpu/crosscheck/zero_overhead.test.cpp and replay.test.cpp hold CI to:
#   [SEED=N] record_zero_overhead.sh TILESIM_GPU OUT_DIR [PREFIX]
# writes PREFIX-zero-overhead.json / .log (tilesim-gpu crosscheck: outputs, Nsight Compute counters, price tags
# against the hand-written twins), PREFIX-resource-usage.txt (cuobjdump --dump-resource-usage of the binary)
# and PREFIX-sanitizer-{memcheck,initcheck,racecheck,synccheck}.txt (compute-sanitizer over counters-pass, which
# launches every catalogue kernel once). PREFIX defaults to the GPU's short name (h100, h200); SEED (the inputs'
# seed) to 20261124, the first recording's.
set -uo pipefail
bin=$1 out=$2 seed=${SEED:-20261124}
export PATH=$PATH:/usr/local/cuda/bin
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
prefix=${3:-$(echo "$gpu" | grep -oiE 'h[0-9]{3}' | head -1 | tr 'A-Z' 'a-z')}
header() {  # what, where, when, with which driver
  echo "# $1"
  echo "# device: $gpu, driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
}
{ header "cuobjdump --dump-resource-usage tilesim-gpu"; cuobjdump --dump-resource-usage "$bin"; } > "$out/$prefix-resource-usage.txt" 2>&1
"$bin" crosscheck --seed "$seed" --repeat 10 --report "$out/$prefix-zero-overhead.json" > "$out/$prefix-zero-overhead.log" 2>&1
echo "crosscheck exit $?"
for tool in memcheck initcheck racecheck synccheck; do
  { header "compute-sanitizer --tool $tool tilesim-gpu counters-pass --seed $seed"
    compute-sanitizer --tool "$tool" "$bin" counters-pass --seed "$seed"; } > "$out/$prefix-sanitizer-$tool.txt" 2>&1
  echo "$tool exit $?: $(grep -h 'ERROR SUMMARY' "$out/$prefix-sanitizer-$tool.txt" | tail -1)"
done
