#!/usr/bin/env python3
"""scripts/calibrate/matrix_phase_tsv.py LAUNCHES NCU_CSV [HEADER...]: the TSV of data/calibration/h200-*matrix-phases.tsv
from a phase probe's run under Nsight Compute (gpu/calibrate/ldmatrix_phase_probe.cu, stmatrix_phase_probe.cu).

LAUNCHES is the probe's stdout ("launch K: stmatrix.x4 one-row" per launch, then "ok"); NCU_CSV is ncu's --csv output
(--log-file), one row per launch and metric, launch K's rows with ID K. Each launch becomes one row
`instruction<TAB>pattern<TAB>instructions<TAB>wavefronts`, read from the metrics of its instruction's class:
  ldmatrix.xN  ..._op_ldsm      stmatrix.xN  ..._op_stsm      LDS.128  ..._op_ld / op_shared_ld
  STS.128      ..._op_st / op_shared_st
(smsp__sass_inst_executed_<op>.sum and smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_<op>.sum). Each HEADER
argument is printed first as a '# ' comment line. Exit 1 naming the launch when a metric is missing or the probe did
not end with "ok"; exit 2 when a file cannot be read.

Example: matrix_phase_tsv.py launches.txt ncu.csv "gpu/calibrate/stmatrix_phase_probe.cu on NVIDIA H200 ..." > t.tsv
"""
import csv
import re
import sys

OPS = {"ldmatrix": ("op_ldsm", "op_ldsm"), "stmatrix": ("op_stsm", "op_stsm"),
       "LDS.128": ("op_shared_ld", "op_ld"), "STS.128": ("op_shared_st", "op_st")}


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError as e:
        print(f"matrix_phase_tsv.py: cannot read {path}: {e}", file=sys.stderr)
        sys.exit(2)


def main(argv):
    if len(argv) < 3:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    launches, lines = {}, read(argv[1]).splitlines()
    for line in lines:
        m = re.fullmatch(r"launch (\d+): (\S+) (\S+)", line.strip())
        if m:
            launches[int(m.group(1))] = (m.group(2), m.group(3))
    if not lines or lines[-1].strip() != "ok":
        print(f"{argv[1]}: the probe did not end with 'ok' (last line: {lines[-1] if lines else 'none'!r})")
        return 1
    values = {}  # (launch, metric) -> value
    text = read(argv[2])
    rows = csv.reader(line for line in text.splitlines() if line.startswith('"'))
    header = None
    for row in rows:
        if header is None:
            header = row
            continue
        r = dict(zip(header, row))
        if r.get("ID", "").isdigit() and "Metric Name" in r:
            values[(int(r["ID"]), r["Metric Name"])] = r["Metric Value"].replace(",", "")
    for h in argv[3:]:
        print("# " + h)
    print("instruction\tpattern\tinstructions\twavefronts")
    for k in sorted(launches):
        instruction, pattern = launches[k]
        family = next((f for f in ("ldmatrix", "stmatrix") if instruction.startswith(f)), instruction)
        if family not in OPS:
            print(f"launch {k}: unknown instruction {instruction}")
            return 1
        inst_op, wave_op = OPS[family]
        inst = values.get((k, f"smsp__sass_inst_executed_{inst_op}.sum"))
        wave = values.get((k, f"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_{wave_op}.sum"))
        if inst == "n/a" and family == "stmatrix":
            # ncu 2025.3.1 on an H200 has no op_stsm instruction count (2026-11-29: "n/a"), only its wavefronts; the
            # probe issues exactly one instruction per launch (one warp, one stmatrix).
            inst = "1"
        if inst is None or wave is None:
            print(f"launch {k} ({instruction} {pattern}): ncu's CSV has no {inst_op} / {wave_op} metric for it")
            return 1
        print(f"{instruction}\t{pattern}\t{int(float(inst))}\t{int(float(wave))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
