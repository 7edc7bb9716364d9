#!/usr/bin/env python3
"""tests/timing_harness_sass.py: where the timed kernels' clock64 span ends, read from their H100 SASS.

Every timed catalogue kernel (and hand-written twin) ends its span with BAR, then CS2R Rx, SR_CLOCKLO. A global store
issued before the barrier reads its registers later, when it leaves the warp; if Rx is one of them, the clock read
waits for that (a write-after-read wait) and the span includes the stores leaving, else it does not.
Law 1 (data/calibration/h100-catalogue-sass.gz, cuobjdump -sass on the H100, tree 52a178c, before 6edb4e5): the last
clock register is a global store operand in 106 of the 118 timed functions, and not in SW64's copy_fp16_kernel<17>,
padded's <8> or the 64x64 cute-swizzle copy's <6>, the three tilesim copies that measured fast against the model
(docs/accuracy.md, "Where a block's time ends"; Nsight's stall samples in
data/calibration/h100-copy-end-clock-stalls.txt).
Law 2 (data/calibration/h100-catalogue-fenced-sass.gz, the binary of data/recordings/h100-fenced-timing.json, with
gpu/runtime/device_context.hpp's block fence): every timed function has a MEMBAR between its last global store and its last
clock read, so every span ends once the stores have left, whichever register the clock gets.
Usage: timing_harness_sass.py SOURCE_ROOT; prints what it found and exits 1 on a broken law.
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else '.'
sys.path.insert(0, os.path.join(root, 'scripts', 'calibrate'))
import sass_lane_addresses  # noqa: E402
STORE = ('STG', 'RED', 'ATOMG', 'ATOM')


def opcode(text):
    """The opcode of an instruction, its predicate dropped: '@!P0 STG.E [R4.64], R2' -> 'STG.E'."""
    return re.sub(r'^@!?U?P\w+ ', '', text).split(' ')[0]


def end_of_span(code):
    """(index of the last CS2R ..., SR_CLOCKLO, its register pair) of a timed function, or None if untimed."""
    clocks = [i for i, t in enumerate(code) if opcode(t) == 'CS2R' and 'SR_CLOCKLO' in t]
    if len(clocks) < 2:
        return None
    reg = int(re.search(r'CS2R R(\d+)', code[clocks[-1]]).group(1))
    return clocks[-1], {reg, reg + 1}, clocks[0]


def clock_waits_for_stores(code):
    """Whether the last clock register is an operand of a global store issued in the span."""
    end, regs, start = end_of_span(code)
    for t in code[start:end]:
        if opcode(t).startswith(STORE):
            operands = t.split(' ', 1)[1] if ' ' in t else ''
            if {int(r) for r in re.findall(r'\bR(\d+)\b', operands)} & regs:
                return True
    return False


def fenced(code):
    """Whether a MEMBAR lies between the span's last global store and its last clock read."""
    end, _, start = end_of_span(code)
    stores = [i for i in range(start, end) if opcode(code[i]).startswith(STORE)]
    last = stores[-1] if stores else start
    return any(opcode(t).startswith('MEMBAR') for t in code[last:end])


def timed_functions(dump):
    """{name: [instruction text]} of the dump's functions that time their span."""
    dumped = sass_lane_addresses.functions(os.path.join(root, 'data', 'calibration', dump))
    code = {n: [t for _, t in c] for n, c in dumped.items()}
    return {n: c for n, c in code.items() if end_of_span(c)}


failed = 0
old = timed_functions('h100-catalogue-sass.gz')
waiting = {n for n, c in old.items() if clock_waits_for_stores(c)}
clean = sorted(n for n in old if n not in waiting)
print('law 1: before the fence, the last clock read waits for the stores in %d of %d timed functions; not in:' %
      (len(waiting), len(old)))
for n in clean:
    print('  ' + n)
expected_clean = ['copy_fp16_kernelILi17EE', 'copy_fp16_kernelILi8EE', 'copy_fp16_kernelILi6EE']
if len(old) != 118 or len(waiting) != 106 or not all(any(k in n for n in clean) for k in expected_clean):
    print('FAIL law 1: expected 106 of 118, with %s among the rest' % expected_clean)
    failed += 1
new = timed_functions('h100-catalogue-fenced-sass.gz')
unfenced = sorted(n for n, c in new.items() if not fenced(c))
print('law 2: with the fence, %d of %d timed functions fence their stores before the last clock read' %
      (len(new) - len(unfenced), len(new)))
if len(new) != 118 or unfenced:
    print('FAIL law 2: expected all 118; unfenced: %s' % unfenced)
    failed += 1
sys.exit(1 if failed else 0)
