#!/usr/bin/env python3
"""scripts/calibrate/copy_layout_tables.py: the catalogue copies' lane addresses as data, for copy_layout_probe.cu.

DEFINITION. For each copy kernel of issue 12's two outlier pairs (gpu/kernels/programs/copy_fp16.hpp copy_fp16_shapes[I]: the
128x32 fp16 tile of lds-index-swap and the cute-swizzle 8x32 examples, 256 threads), evaluates its SASS per thread
(sass_lane_addresses.py, on the H100 dump data/calibration/h100-catalogue-sass.gz) and prints one row per thread:
  NAME  KIND  TID  LDG0 LDG1  STS0 STS1  READ0 READ1  STG0 .. STGn
KIND is lds128 (2 LDS.128 reads, 2 STG.E.128 of 16 bytes) or ldsm (2 LDSM.16.M88.4 row addresses, 8 STG.E of 4
bytes, STG k storing register k % 4 of LDSM k / 4, as the hand-written twins do). Global addresses are byte offsets
into the input (LDG) and output (STG) tiles; shared addresses byte offsets into the 8 KiB (10 KiB padded) tile.
So copy_layout_probe.cu can run every layout through one compiled kernel: the same code, only the data differ.

WORKED EXAMPLE.
  python3 scripts/calibrate/copy_layout_tables.py > tables.tsv
writes 9 x 256 rows; the row `sw64 lds128 0 0 512 0 512 0 32 0 32` says thread 0 of the SW64 copy loads input bytes
0 and 512, stores them at shared bytes 0 and 512, reads shared 0 and 32 and writes output bytes 0 and 32.

INVARIANTS. Each kernel's memory stream is exactly LDG, LDG, STS, STS, then 2 LDS.128 + 2 STG.E.128 or 2 LDSM + 8
STG.E (exit 1 naming the kernel otherwise); the output tile's base (0x100000 in the evaluation) is subtracted.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sass_lane_addresses  # noqa: E402

DUMP = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'data', 'calibration',
                    'h100-catalogue-sass.gz')
OUTPUT_BASE = 0x100000

# name, compiled_shapes index, kind
KERNELS = [
    ('row_major', 7, 'lds128'), ('padded', 8, 'lds128'), ('ck_xor_2024', 9, 'lds128'), ('ck_xor_2025', 10, 'lds128'),
    ('sw64', 17, 'lds128'),
    ('row_major', 24, 'ldsm'), ('padded', 25, 'ldsm'), ('ck_xor_2024', 26, 'ldsm'), ('ck_xor_2025', 27, 'ldsm'),
]
SHAPES = {'lds128': ['LDG', 'LDG', 'STS', 'STS', 'LDS', 'LDS'] + ['STG'] * 2,
          'ldsm': ['LDG', 'LDG', 'STS', 'STS', 'LDSM', 'LDSM'] + ['STG'] * 8}


def rows(name, index, kind, dump=DUMP):
    """The per-thread rows of one kernel."""
    stream = sass_lane_addresses.memory_stream(dump, 'copy_fp16_kernelILi%dEE' % index)
    ops = [op.split('.')[0] for _, op, _ in stream]
    if ops != SHAPES[kind]:
        sys.exit('copy_fp16_kernel<%d> (%s): memory stream %s is not the %s shape %s' % (index, name, ops, kind,
                                                                                          SHAPES[kind]))
    out = []
    for tid in range(len(stream[0][2])):
        addresses = [a[2][tid] - (OUTPUT_BASE if a[1].startswith('STG') else 0) for a in stream]
        out.append('%s\t%s\t%d\t%s' % (name, kind, tid, '\t'.join(str(a) for a in addresses)))
    return out


def main():
    for name, index, kind in KERNELS:
        print('\n'.join(rows(name, index, kind)))


if __name__ == '__main__':
    main()
