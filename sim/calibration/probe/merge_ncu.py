#!/usr/bin/env python3
"""Joins an `ncu --csv` run of `smem_probe count|gcount` with the names it wrote:
  merge_ncu.py NAMES CSV smem|global  ->  NAME WIDTH OP per-instruction values (TSV)"""
import csv, sys
from collections import OrderedDict

names = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
rows = [r for r in csv.reader(l for l in open(sys.argv[2]) if not l.startswith("=="))]
hdr = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
cols = rows[hdr]
idx = {c: cols.index(c) for c in ("ID", "Metric Name", "Metric Value")}
per = OrderedDict()
for r in rows[hdr + 1:]:
    if len(r) < len(cols):
        continue
    per.setdefault(r[idx["ID"]], {})[r[idx["Metric Name"]]] = float(r[idx["Metric Value"]].replace(",", ""))
assert len(per) == len(names), (len(per), len(names))
space = sys.argv[3]
if space == "smem":
    print("name\twidth\top\twavefronts\tconflicts\tinstructions\thw_wavefronts")
else:
    print("name\twidth\top\tsectors\trequests\tinstructions")
for (name, width, op), m in zip(names, per.values()):
    k = "ld" if op == "load" else "st"
    if space == "smem":
        inst = m[f"smsp__sass_inst_executed_op_shared_{k}.sum"]
        wf = m[f"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{k}.sum"]
        bc = m[f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{k}.sum"]
        hw = m.get(f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{k}.sum", float("nan"))
    else:
        inst = m[f"smsp__sass_inst_executed_op_global_{k}.sum"]
        wf = m[f"l1tex__t_sectors_pipe_lsu_mem_global_op_{k}.sum"]
        bc = m[f"l1tex__t_requests_pipe_lsu_mem_global_op_{k}.sum"]
    extra = f"\t{hw / inst:g}" if space == "smem" else ""
    print(f"{name}\t{width}\t{op}\t{wf / inst:g}\t{bc / inst:g}\t{inst:g}{extra}")
