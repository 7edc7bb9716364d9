#!/usr/bin/env python3
"""Prints a priced recording (tilesim-gpu crosscheck --report with the hand-written twins) as a Markdown table:
per point the kernel's registers and local bytes, tilesim and hand-written cycles per block, their ratio, the
simulator's prediction and whether the counters agreed; then the ratio summary per program.
Usage: price_table.py data/recordings/h100-zero-overhead.json"""
import json
import statistics
import sys

rows = json.load(open(sys.argv[1]))["points"]
print("| point | registers | local B | tilesim cycles | hand-written | ratio | simulator | counters |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
per_program = {}
for r in rows:
    hw, tw = r["hardware"], r.get("hand_written")
    ratio = r.get("tilesim_over_hand_written")
    per_program.setdefault(r["program"], []).append(ratio)
    print(f"| {r['name']} | {hw['registers']} | {hw['local_bytes_per_thread']} | {hw['cycles_per_block_median']:.0f} | "
          f"{tw['cycles_per_block_median']:.0f} | {ratio:.3f} | {r['simulator']['cycles_per_workgroup']:.0f} | "
          f"{'equal' if r.get('counters_equal') else 'DIFFER'} |")
print()
print("| program | points | median ratio | worst ratio |")
print("| --- | --- | --- | --- |")
for program, ratios in sorted(per_program.items()):
    print(f"| {program} | {len(ratios)} | {statistics.median(ratios):.3f} | {max(ratios):.3f} |")
