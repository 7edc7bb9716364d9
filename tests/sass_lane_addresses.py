#!/usr/bin/env python3
"""tests/sass_lane_addresses.py: scripts/calibrate/sass_lane_addresses.py held to the H100's own counts.

Law 1: the LDS / STS / LDSM wavefronts that the script derives from the recorded SASS of a catalogue copy kernel
(data/calibration/h100-catalogue-sass.gz: cuobjdump -sass on the H100, tree 52a178c; the sum over an instruction's
8-lane phases of its bank ways, over the 8 warps of the one 256-thread block) equal what Nsight Compute counted for
that kernel's point in data/recordings/h100-zero-overhead.json, for the nine kernels behind issue 12's outliers
(data/calibration/h100-copy-pairs-sass.txt names them).
Law 2: each of those kernels and its hand-written twin issue the same memory instructions at the same lane
addresses (so the twins' different cycles are not a different memory stream).
Law 3: the address tables scripts/calibrate/copy_layout_tables.py derives from that SASS (what copy_layout_probe.cu runs
through its one kernel) move the tile as the kernels do: for each of its 9 layouts, the copy the table implies (shared
tile written by the STS, read back by LDS.128 or by ldmatrix.x4's fragment rule, stored by the STG) is the identity.
Usage: sass_lane_addresses.py SOURCE_ROOT; prints one line per kernel and exits 1 on the first broken law.
"""
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else '.'
sys.path.insert(0, os.path.join(root, 'scripts', 'calibrate'))
import sass_lane_addresses as sla  # noqa: E402

DUMP = os.path.join(root, 'data', 'calibration', 'h100-catalogue-sass.gz')
# copy_fp16_kernel<I> (gpu/kernels/programs/copy_fp16.hpp copy_fp16_shapes[I]), its point, its twin copy_reference<J>.
KERNELS = [
    (7, 'example lds-index-swap: row-major, LDS.128 at ldmatrix rows', 10),
    (8, 'example lds-index-swap: padded, LDS.128 at ldmatrix rows', 11),
    (9, 'example lds-index-swap: ck-xor 2024, LDS.128 at ldmatrix rows', 12),
    (10, 'example lds-index-swap: ck-xor 2025, LDS.128 at ldmatrix rows', 13),
    (17, 'example cute-swizzle: SW64 Swizzle<2,4,3> 8x32', 20),
    (24, 'example lds-index-swap: row-major, ldmatrix.x4', 26),
    (25, 'example lds-index-swap: padded, ldmatrix.x4', 27),
    (26, 'example lds-index-swap: ck-xor 2024, ldmatrix.x4', 28),
    (27, 'example lds-index-swap: ck-xor 2025, ldmatrix.x4', 29),
]


def wavefronts(kernel):
    """{'ld', 'st', 'ldsm'}: the kernel's shared-memory wavefronts over one 256-thread block, from its SASS."""
    out = {'ld': 0, 'st': 0, 'ldsm': 0}
    for _, op, addrs in sla.accesses(sla.kernel_text(DUMP, kernel), 256):
        if op.startswith(('LDS', 'STS')):
            kind = 'ldsm' if op.startswith('LDSM') else 'st' if op.startswith('STS') else 'ld'
            out[kind] += sum(ways * phases for ways, phases in sla.lds_ways(op, addrs)[1].items())
    return out


def memory_stream(kernel):
    """(opcode family, lane addresses) of each memory instruction but the clock's STG.E.64."""
    return [(op.split('.')[0], addrs) for _, op, addrs in sla.memory_stream(DUMP, kernel)]


points = {p['name']: p for p in json.load(open(os.path.join(root, 'data', 'recordings', 'h100-zero-overhead.json')))['points']}
failed = 0
for index, name, twin in KERNELS:
    gpu = points[name]['hardware']['counters']
    measured = {'ld': gpu['lds_wavefronts_ld'], 'st': gpu['lds_wavefronts_st'], 'ldsm': gpu['lds_wavefronts_ldsm']}
    derived = wavefronts('copy_fp16_kernelILi%dEE' % index)
    same = memory_stream('copy_fp16_kernelILi%dEE' % index) == memory_stream('copy_referenceILi%dEE' % twin)
    ok = derived == measured and same
    failed += not ok
    print('%s copy_fp16_kernel<%d> (%s): wavefronts from the SASS %s, Nsight %s; twin copy_reference<%d> %s' %
          ('ok  ' if ok else 'FAIL', index, name, derived, measured, twin,
           'same memory stream' if same else 'DIFFERENT memory stream'))
print('sass-lane-addresses: %d of %d kernels hold both laws' % (len(KERNELS) - failed, len(KERNELS)))

import copy_layout_tables  # noqa: E402


def implied_copy(rows, kind, tile):
    """The output tile a layout's table rows imply (lane l of ldmatrix gets row l / 4 of matrix i, bytes (l % 4) * 4)."""
    shared, out = bytearray(10240), bytearray(len(tile))
    for r in rows:
        for k in range(2):
            shared[r[2 + k]:r[2 + k] + 16] = tile[r[k]:r[k] + 16]
    for t, r in enumerate(rows):
        if kind == 'lds128':
            for k in range(2):
                out[r[6 + k]:r[6 + k] + 16] = shared[r[4 + k]:r[4 + k] + 16]
            continue
        warp, lane = t // 32, t % 32
        for k in range(8):
            row_address = rows[warp * 32 + (k % 4) * 8 + lane // 4][4 + k // 4] + (lane % 4) * 4
            out[r[6 + k]:r[6 + k] + 4] = shared[row_address:row_address + 4]
    return bytes(out)


tile = bytes((i * 7 + i // 256 + 1) & 0xFF for i in range(8192))
tables_failed = 0
for name, index, kind in copy_layout_tables.KERNELS:
    rows = [[int(x) for x in line.split('\t')[3:]] for line in copy_layout_tables.rows(name, index, kind, DUMP)]
    ok = implied_copy(rows, kind, tile) == tile
    tables_failed += not ok
    print('%s copy_layout_tables %s %s (copy_fp16_kernel<%d>): the implied copy is %s' %
          ('ok  ' if ok else 'FAIL', name, kind, index, 'the identity' if ok else 'NOT the identity'))
sys.exit(1 if failed or tables_failed else 0)
