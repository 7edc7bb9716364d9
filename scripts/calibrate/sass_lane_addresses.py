#!/usr/bin/env python3
"""scripts/calibrate/sass_lane_addresses.py: the lane addresses of a straight-line kernel, read from its SASS.

DEFINITION. Takes a `cuobjdump -sass` dump and one kernel in it (a substring of its mangled name), evaluates the
kernel's integer code per thread (S2R SR_TID.X = tid, SR_CTAID.X = block, shared memory based at 0, the first
global buffer at 0 and the second at 0x100000), and prints every memory instruction with its per-warp shape: LDS /
STS / LDSM bank ways per phase of the sm90 rule (8 lanes of 16 bytes, 16 of 8, 32 of <= 4) and global sectors and
lines per warp. With a second kernel it compares the two lane by lane (same memory instructions, same order, same
addresses?). Branches and predicated code are skipped (the copy kernels have none in their timed region but the
clock's `@P0` prologue and epilogue); loaded values are not tracked, so it is for addresses that depend on the
thread and block index only. It knows the integer SASS nvcc emits for the catalogue's copies (LOP3, SHF, IMAD.*,
LEA(.HI), IADD3, VIADD); anything else leaves its destination unchanged.

WORKED EXAMPLE (the evidence of data/calibration/h100-copy-pairs-sass.txt):
  python3 scripts/calibrate/sass_lane_addresses.py catalogue.sass copy_fp16_kernelILi10EE copy_referenceILi13EE
prints the tilesim CK 2025 LDS.128 copy's 2 LDG, 2 STS (1 way), 2 LDS (1 way), 2 STG (16 sectors per warp) and
"same memory instructions at the same lane addresses" for its hand-written twin.
"""
import collections
import functools
import gzip
import re
import sys

MASK = 0xFFFFFFFF


def lop3(a, b, c, lut):
    """LOP3.LUT: bit i of the result is lut[(a_i << 2) | (b_i << 1) | c_i]."""
    r = 0
    for i in range(32):
        idx = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1)
        r |= ((lut >> idx) & 1) << i
    return r


@functools.lru_cache(maxsize=4)
def functions(dump):
    """{mangled name: [(pc, instruction)]} of every function in a `cuobjdump -sass` dump, in dump order."""
    out, name = {}, None
    for line in (gzip.open(dump, 'rt') if dump.endswith('.gz') else open(dump)):
        m = re.search(r'Function : (\S+)', line)
        if m:
            name = m.group(1)
            out[name] = []
            continue
        m = re.match(r'\s+/\*([0-9a-f]{4})\*/\s+(.*?)\s*;', line)
        if m and name:
            out[name].append((int(m.group(1), 16), re.sub(r'\s+', ' ', m.group(2))))
    return out


def kernel_text(dump, name):
    """The (pc, instruction) list of the first function in `dump` whose name contains `name`."""
    for function, code in functions(dump).items():
        if name in function and code:
            return code
    sys.exit('no function containing %r in %s' % (name, dump))


def run_thread(code, tid, block=0, buffers=(0, 0x100000)):
    """The (pc, opcode, address) of each memory instruction one thread executes."""
    reg, mem = {}, []
    carry = {}

    def val(op):  # an operand's 32-bit value
        op = op.strip().replace('.reuse', '')
        neg, op = op.startswith('-'), op.lstrip('-')
        inv, op = op.startswith('~'), op.lstrip('~')
        if op.startswith('0x'):
            v = int(op, 16)
        elif op in ('RZ', 'URZ', 'PT'):
            v = 0
        elif op.startswith('c[0x0][0x210]'):
            v = buffers[0]
        elif op.startswith('c[0x0][0x218]'):
            v = buffers[1]
        else:
            v = reg.get(op, 0)
        v = (~v if inv else v) & MASK
        return (-v if neg else v) & MASK

    def pair(op):  # a 64-bit register pair's value (R16 with R17)
        op = op.strip().replace('.reuse', '')
        m = re.match(r'(U?R)(\d+)$', op)
        return val(op) | (reg.get('%s%d' % (m.group(1), int(m.group(2)) + 1), 0) << 32) if m else 0

    def put(d, v):  # writes a destination register
        if d not in ('RZ', 'URZ', 'PT'):
            reg[d] = v & MASK

    def address(text):  # the last [...] of a memory instruction
        inner = re.findall(r'\[([^\]]*)\]', text)[-1].replace('.64', '')
        total = 0
        for part in re.findall(r'[+-]?[^+-]+', inner):
            part = part.strip()
            total += -int(part[1:], 16) if part.startswith('-0x') else val(part.lstrip('+'))
        return total & MASK

    for pc, text in code:
        if text.startswith('@'):
            continue
        op, _, rest = text.partition(' ')
        ops = [o.strip() for o in re.split(r',(?![^\[]*\])', rest)] if rest else []
        base = op.split('.')[0]
        if base == 'S2R':
            put(ops[0], tid if 'TID.X' in ops[1] else block if 'CTAID.X' in ops[1] else 0)
        elif base in ('S2UR', 'ULEA'):
            put(ops[0], 0)  # shared memory window base: 0
        elif base in ('UMOV', 'MOV'):
            put(ops[0], val(ops[1]))
        elif base == 'ULDC':
            put(ops[0], val(ops[1]))
            put('UR%d' % (int(ops[0][2:]) + 1), 0)
        elif base == 'LOP3':
            put(ops[0], lop3(val(ops[1]), val(ops[2]), val(ops[3]), int(ops[4], 16)))
        elif base == 'SHF':
            a, sh, b = val(ops[1]), int(ops[2], 16), val(ops[3])
            if '.R' in op and '.HI' in op:
                put(ops[0], b >> sh)
            elif '.R' in op:
                put(ops[0], ((b << 32 | a) >> sh))
            elif '.HI' in op:
                put(ops[0], (b << 32 | a) << sh >> 32)
            else:
                put(ops[0], a << sh)
        elif base == 'IMAD':
            if '.MOV' in op:
                put(ops[0], val(ops[3]))
            elif '.WIDE' in op:
                v = (val(ops[1]) * (int(ops[2], 16) if ops[2].startswith('0x') else -int(ops[2][1:], 16)
                                    if ops[2].startswith('-0x') else val(ops[2])) + pair(ops[3])) % (1 << 64)
                put(ops[0], v)
                put('R%d' % (int(ops[0][1:]) + 1), v >> 32)
            elif '.X' in op:
                put(ops[0], val(ops[1]) * val(ops[2]) + val(ops[3]) + carry.get(ops[4], 0))
            else:
                put(ops[0], val(ops[1]) * val(ops[2]) + val(ops[3]))
        elif base == 'VIADD':
            put(ops[0], val(ops[1]) + val(ops[2]))
        elif base == 'IADD3':
            if ops[1].startswith('P') and ops[1] != 'PT':
                v = sum(val(s) for s in ops[2:5])
                carry[ops[1]] = v >> 32
            else:
                v = sum(val(s) for s in ops[1:4])
            put(ops[0], v)
        elif base == 'LEA':
            if '.X' in op:
                put(ops[0], 0)  # the high word of an address: not tracked
            elif '.HI' in op:
                put(ops[0], ((val(ops[3]) << 32 | val(ops[1])) >> (32 - int(ops[4], 16))) + val(ops[2]))
            else:
                a, b, s = (ops[2], ops[3], ops[4]) if ops[1].startswith('P') else (ops[1], ops[2], ops[3])
                put(ops[0], (val(a) << int(s, 16)) + val(b))
        elif base in ('LDG', 'STG', 'LDS', 'STS', 'LDSM'):
            mem.append((pc, op, address(text)))
    return mem


def accesses(code, threads):
    """Per memory instruction: (pc, opcode, [address of each thread])."""
    per = [run_thread(code, t) for t in range(threads)]
    return [(per[0][k][0], per[0][k][1], [per[t][k][2] for t in range(threads)]) for k in range(len(per[0]))]


def width_of(op):
    """Bytes per lane of a memory opcode (LDSM.x4: 16, a row address per lane)."""
    return 16 if '.128' in op or op.startswith('LDSM') else 8 if '.64' in op else 4


def lds_ways(op, addrs):
    """An LDS/STS/LDSM instruction's phases (lanes per phase, Counter {ways: phases}): 16-byte lanes in 8s."""
    w = width_of(op)
    lanes = max(1, 128 // w) if w > 4 else 32
    ways = collections.Counter()
    for first in range(0, len(addrs), lanes):
        words = collections.defaultdict(set)
        for a in set(addrs[first:first + lanes]):
            for b in range(a // 4, (a + w) // 4):
                words[b % 32].add(b)
        ways[max(len(s) for s in words.values())] += 1
    return lanes, ways


def describe(pc, op, addrs, wave=32):
    """One line: the instruction and, over all warps, its LDS ways per phase or its global sectors per warp."""
    if op.startswith(('LDS', 'STS')):
        lanes, ways = lds_ways(op, addrs)
        return '%04x %-22s phases of %d lanes by ways: %s' % (pc, op, lanes, dict(sorted(ways.items())))
    sectors = [len({a // 32 for a in addrs[i:i + wave]}) for i in range(0, len(addrs), wave)]
    lines = [len({a // 128 for a in addrs[i:i + wave]}) for i in range(0, len(addrs), wave)]
    return '%04x %-22s sectors per warp %s, lines per warp %s' % (pc, op, sorted(set(sectors)), sorted(set(lines)))


def memory_stream(dump, kernel, threads=256):
    """accesses() of a kernel of `dump` but the clock's own store (STG.E.64)."""
    return [a for a in accesses(kernel_text(dump, kernel), threads) if a[1] != 'STG.E.64']


def main(argv):
    """Prints one kernel's memory instructions, or compares two kernels' lane addresses."""
    if len(argv) not in (3, 4):
        sys.exit(__doc__.split('WORKED EXAMPLE')[0] + '\nusage: sass_lane_addresses.py DUMP KERNEL [KERNEL2] (256 threads)')
    mine = memory_stream(argv[1], argv[2])
    for pc, op, addrs in mine:
        print(describe(pc, op, addrs))
    if len(argv) == 4:
        second = memory_stream(argv[1], argv[3])
        same_ops = [a[1].split('.')[0] for a in mine] == [b[1].split('.')[0] for b in second]
        differ = [a[1] for a, b in zip(mine, second) if a[2] != b[2]]
        if same_ops and not differ:
            print('same memory instructions at the same lane addresses')
        else:
            print('instruction order equal: %s; lane addresses differ at: %s' % (same_ops, differ))


if __name__ == '__main__':
    main(sys.argv)
