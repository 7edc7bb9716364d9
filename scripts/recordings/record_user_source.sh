#!/usr/bin/env bash
# Records, on a GPU machine, Nsight Compute's per-instruction source counters of the user program's kernel
# (examples/user_program, column sums, both layouts), for issue 20's per-instruction comparison:
#   record_user_source.sh COLUMN_SUMS_CROSSCHECK OUT_DIR [PREFIX]
# writes PREFIX-user-program-source-{0,1}.csv (ncu --page source --csv --print-source sass of layout 0 = row-major
# and 1 = Swizzle<2,3,7>), PREFIX-user-program-source-{0,1}.ncu-rep (the saved reports) and
# PREFIX-user-program.sass (nvdisasm -g -gi of the kernel compiled with -lineinfo: SASS with inlined line info).
set -uo pipefail
bin=$1 out=$2
export PATH=$PATH:/usr/local/cuda/bin
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
prefix=${3:-$(echo "$gpu" | grep -oiE 'h[0-9]{3}' | head -1 | tr 'A-Z' 'a-z')}
stamp="# device: $gpu, driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
for layout in 0 1; do
  TILESIM_CROSSCHECK_COUNTERS=$layout ncu --section SourceCounters --clock-control none --kernel-name regex:user_kernel \
    --launch-count 1 -f -o "$out/$prefix-user-program-source-$layout" "$bin" --no-counters > "$out/ncu-$layout.log" 2>&1
  echo "ncu layout $layout exit $?"
  ncu -i "$out/$prefix-user-program-source-$layout.ncu-rep" --page source --csv --print-source sass \
    > "$out/$prefix-user-program-source-$layout.csv" 2>&1
  echo "source page $layout exit $?, $(wc -l < "$out/$prefix-user-program-source-$layout.csv") lines"
done
nvcc -std=c++20 -O3 -arch=sm_90 -lineinfo -I . -cubin -o /tmp/column_sums.cubin examples/user_program/column_sums_kernel.cu &&
  { echo "$stamp"; echo "# nvcc -std=c++20 -O3 -arch=sm_90 -lineinfo -cubin examples/user_program/column_sums_kernel.cu; nvdisasm -g -gi"
    nvdisasm -g -gi /tmp/column_sums.cubin; } > "$out/$prefix-user-program.sass" 2>&1
echo "nvdisasm exit $?"
