#!/usr/bin/env python3
"""tilesim/scripts/calibrate/make_patterns.py: writes the calibration pattern files (the `tilesim bank` format).

WHAT IT IS. A deterministic generator of warp-wide shared-memory accesses for sm90 (32 lanes) that the
sm90 model must reproduce once they are measured on an H100/H200 (run_calibration.sh, calibrate.cu):

    python3 scripts/calibrate/make_patterns.py                  # writes data/calibration/h200-calibration.patterns
    python3 scripts/calibrate/make_patterns.py --out FILE       # the same, elsewhere ("-" = stdout)
    python3 scripts/calibrate/make_patterns.py --probe smem     # h200-smem-probe.patterns (the 2026-11-22 probe)
    python3 scripts/calibrate/make_patterns.py --probe global   # h200-global-probe.patterns

WORKED EXAMPLE. The family `stride` holds, for s = 3 words, the offsets 12 i (lane i, 4 bytes): two lines

    ld_w4_stride_03w 4 load 0 12 24 ... 372
    st_w4_stride_03w 4 store 0 12 24 ... 372

Every offset set is written twice like that, as a load (`ld_` prefix) and as a store (`st_`) of the same
offsets; names say width, family and parameters (`ld_w16_cute_swz3_v16_r128_col`: CuTe Swizzle<3,4,3> on
16-byte vectors in 128-byte rows, lane i reading row i).

FAMILIES (`# family` comment lines in the output): stride (1..64 words and byte strides for 1/2-byte
widths), random (uniform over 16 KiB), cluster (random rows, 1..4 banks or bank groups), repeat (whole-warp
broadcasts; 2/4/8/16-lane groups sharing an address; lane^1..lane^16 pairs; half or quarter warp broadcast
+ the rest linear; a few random lanes copying another lane's address; same word, different bytes for
1/2-byte widths), mask (first k lanes, every other / every 4th lane, single lanes, upper half, random masks),
swizzle (CuTe Swizzle<B,M,S> for B = 0..3 on 8/16-byte vectors in 64/128-byte rows, a CK-style XOR
preshuffle, +4/+8/+16 bytes of padding per row, Morton order).

INVARIANTS (asserted before anything is written): every offset is a multiple of its width and below 48 KiB
(or 4294967295, an inactive lane), every line has 32 offsets and at least one active lane, names are
unique and differ from the names of the other data/calibration pattern files, the output is the same on
every run and Python 3 version (the random families use splitmix64 with fixed seeds, not `random`),
and there are at least 560 patterns. Patterns listed in DROPPED (name -> reason) are left out, so a
pattern that cannot be measured is removed here, reproducibly, with its reason kept.
"""
import argparse
import os
import sys

X = 4294967295  # an inactive lane
LANES = range(32)
LIMIT = 48 * 1024
WIDTHS = (1, 2, 4, 8, 16)
MIN_PATTERNS = 560

# Patterns removed after measurement: name -> why (none so far).
DROPPED = {}

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DEFAULT_OUT = os.path.join(REPO, "data", "calibration", "h200-calibration.patterns")
OTHER_FILES = ("h200-smem-known.patterns", "h200-smem-probe.patterns", "h200-global-probe.patterns")


class Rng:
    """splitmix64: the same numbers on every platform and Python version."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def below(self, n):
        """A number in [0, n) (n small: the modulo bias is below 2^-50)."""
        return self.next() % n

    def sample(self, population, k):
        """k distinct elements of population, in drawn order (partial Fisher-Yates)."""
        pool = list(population)
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


class Writer:
    """Collects offset sets; each becomes a load and a store line, checked against the invariants."""

    def __init__(self):
        self.lines = []
        self.names = set()
        self.families = {}
        self.family = None

    def begin(self, family, comment):
        """Starts a family: a comment line in the output."""
        self.family = family
        self.lines.append(f"# {family}: {comment}")

    def both(self, stem, width, offs):
        """Adds ld_<stem> and st_<stem> for one offset set (stem starts with w<width>_)."""
        assert stem.startswith(f"w{width}_"), stem
        assert len(offs) == 32, (stem, len(offs))
        assert any(o != X for o in offs), f"{stem}: no active lane"
        for o in offs:
            assert o == X or (0 <= o < LIMIT and o % width == 0), f"{stem}: offset {o} (width {width})"
        for prefix, op in (("ld_", "load"), ("st_", "store")):
            name = prefix + stem
            assert name not in self.names, f"duplicate name {name}"
            self.names.add(name)
            if name in DROPPED:
                continue
            self.lines.append(f"{name} {width} {op} " + " ".join(str(o) for o in offs))
            self.families[self.family] = self.families.get(self.family, 0) + 1


def masked(offs, keep):
    """offs with the lanes where keep(lane) is false made inactive."""
    return [o if keep(i) else X for i, o in enumerate(offs)]


def strides(w):
    w.begin("stride", "lane i at i * s words (4-byte: s = 1..64; 8/16-byte: s a multiple of 2/4; 1/2-byte: "
            "word and byte strides)")
    for s in range(1, 65):
        w.both(f"w4_stride_{s:02d}w", 4, [4 * s * i for i in LANES])
    for s in (2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 24, 28, 32, 34, 48, 64):
        w.both(f"w8_stride_{s:02d}w", 8, [4 * s * i for i in LANES])
    for s in (4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 48, 64):
        w.both(f"w16_stride_{s:02d}w", 16, [4 * s * i for i in LANES])
    for width in (1, 2):
        for s in (1, 2, 3, 4, 8, 16, 17, 32, 33):
            w.both(f"w{width}_stride_{s:02d}w", width, [4 * s * i for i in LANES])
    for b in (1, 2, 3, 5):
        w.both(f"w1_stride_{b}b", 1, [b * i for i in LANES])
    for b in (2, 6, 10):
        w.both(f"w2_stride_{b}b", 2, [b * i for i in LANES])


def random_uniform(w):
    w.begin("random", "every lane at a uniformly random aligned offset below 16 KiB (splitmix64, fixed seeds)")
    for width in WIDTHS:
        for seed in range(5):
            r = Rng(1000 * width + seed)
            w.both(f"w{width}_rand_u16k_s{seed}", width, [r.below(16384 // width) * width for _ in LANES])


def clustered(w):
    w.begin("cluster", "random 128-byte rows below 16 KiB, every lane in one of k random banks (k = 1..4); "
            "8/16-byte: k of the 16/8 slots of a row")
    for width, seeds in ((4, 2), (8, 1), (16, 1), (1, 1), (2, 1)):
        slot = max(width, 4)
        for k in range(1, 5):
            for seed in range(seeds):
                r = Rng(7000 + 100 * width + 10 * k + seed)
                slots = r.sample(range(128 // slot), k)
                offs = []
                for _ in LANES:
                    sub = r.below(4 // width) * width if width < 4 else 0
                    offs.append(r.below(128) * 128 + slots[r.below(k)] * slot + sub)
                suffix = f"_s{seed}" if seeds > 1 else ""
                w.both(f"w{width}_cluster_{k}banks{suffix}", width, offs)


def pair_rank(m):
    """Lane i -> index of its lane^m pair (pairs numbered in lane order)."""
    reps = [i for i in LANES if i & m == 0]
    return [reps.index(i & ~m) for i in LANES]


def repeats(w):
    w.begin("repeat", "repeated addresses: broadcasts, lane groups and lane^m pairs sharing an address, "
            "half/quarter warp broadcast + rest linear, random lanes copying another lane, same word other bytes")
    for width in WIDTHS:
        w.both(f"w{width}_bcast_all_at1040", width, [1040 for _ in LANES])
    for width in (4, 8, 16):
        for g in (2, 4, 8, 16):
            w.both(f"w{width}_group{g}_linear", width, [(i // g) * width for i in LANES])
            w.both(f"w{width}_group{g}_conf128", width, [(i // g) * 128 for i in LANES])
    for width in (1, 2):
        for g in (2, 8):
            w.both(f"w{width}_group{g}_conf128", width, [(i // g) * 128 for i in LANES])
    for width in (4, 8, 16):
        for m in (1, 2, 4, 8, 16):
            rank = pair_rank(m)
            w.both(f"w{width}_xor{m}_pairs_linear", width, [rank[i] * width for i in LANES])
            if m <= 4:
                w.both(f"w{width}_xor{m}_pairs_conf128", width, [rank[i] * 128 for i in LANES])
    for width in WIDTHS:
        w.both(f"w{width}_lo_bcast_hi_linear", width, [0 if i < 16 else 512 + width * (i - 16) for i in LANES])
        w.both(f"w{width}_lo_linear_hi_bcast", width, [width * i if i < 16 else 512 for i in LANES])
    for width in (4, 8, 16):
        w.both(f"w{width}_q0_bcast_rest_linear", width, [0 if i < 8 else 512 + width * i for i in LANES])
    for width in (4, 8, 16):
        for base, stem in ((width, "linear"), (128, "conf128")):
            for k in ((2, 3, 5) if stem == "linear" else (3,)):
                r = Rng(9000 + 100 * width + 10 * k + base)
                offs = [base * i for i in LANES]
                for lane in r.sample(LANES, k):
                    offs[lane] = offs[r.below(32)]
                w.both(f"w{width}_{stem}_{k}lanes_copy", width, offs)
    w.both("w1_4lanes_per_word_bank0", 1, [128 * (i // 4) + i % 4 for i in LANES])
    w.both("w1_word5_all_bytes", 1, [20 + i % 4 for i in LANES])
    w.both("w1_2words_2banks_bytes", 1, [4 * (i // 16) + i % 4 for i in LANES])
    w.both("w1_2words_bank0_bytes", 1, [128 * (i // 16) + i % 4 for i in LANES])
    w.both("w1_scrambled_bytes_8words", 1, [4 * (i // 4) + (i * 7) % 4 for i in LANES])
    w.both("w2_2lanes_per_word_bank0", 2, [128 * (i // 2) + 2 * (i % 2) for i in LANES])
    w.both("w2_halves_stride33w", 2, [132 * (i // 2) + 2 * (i % 2) for i in LANES])
    w.both("w2_word0_both_halves", 2, [2 * (i % 2) for i in LANES])
    w.both("w2_halves_4words_bank0", 2, [128 * (i % 4 // 2) + 2 * (i % 2) + 512 * (i // 16) for i in LANES])


def masks(w):
    w.begin("mask", "partly active warps: first k lanes, every other / 4th lane, single lanes, upper half, "
            "random masks (inactive lanes are 4294967295)")
    for width in (4, 8, 16):
        for k in (1, 2, 4, 7, 8, 12, 16, 24, 31):
            w.both(f"w{width}_first{k:02d}_linear", width, masked([width * i for i in LANES], lambda i: i < k))
    for width in (4, 16):
        for k in (4, 12, 24):
            w.both(f"w{width}_first{k:02d}_conf128", width, masked([128 * i for i in LANES], lambda i: i < k))
    for width in (4, 8, 16):
        w.both(f"w{width}_even_lanes_linear", width, masked([width * i for i in LANES], lambda i: i % 2 == 0))
        w.both(f"w{width}_odd_lanes_linear", width, masked([width * i for i in LANES], lambda i: i % 2 == 1))
        w.both(f"w{width}_every4th_linear", width, masked([width * i for i in LANES], lambda i: i % 4 == 0))
    for width in (4, 8):
        w.both(f"w{width}_even_lanes_conf128", width, masked([128 * i for i in LANES], lambda i: i % 2 == 0))
    for width in (1, 16):
        for lane in (0, 13, 31):
            w.both(f"w{width}_only_lane{lane:02d}", width, masked([width * i for i in LANES], lambda i: i == lane))
    for width in (4, 8):
        w.both(f"w{width}_only_lane05", width, masked([width * i for i in LANES], lambda i: i == 5))
    for width in WIDTHS:
        w.both(f"w{width}_upper_half_linear", width, masked([width * i for i in LANES], lambda i: i >= 16))
    w.both("w16_upper_half_conf128", 16, masked([128 * i for i in LANES], lambda i: i >= 16))
    for width in (4, 8, 16):
        for quarters in (1, 2, 3):
            r = Rng(11000 + 100 * width + quarters)
            keep = [r.below(4) < quarters for _ in LANES]
            keep[r.below(32)] = True
            offs = [r.below(16384 // width) * width for _ in LANES]
            w.both(f"w{width}_randmask{25 * quarters}_rand", width, masked(offs, lambda i: keep[i]))
    for width in (1, 2):
        r = Rng(12000 + width)
        keep = [r.below(2) == 0 for _ in LANES]
        keep[0] = True
        w.both(f"w{width}_randmask50_linear", width, masked([width * i for i in LANES], lambda i: keep[i]))
    for m, width, seeds in ((1, 16, 6), (1, 8, 3), (2, 16, 3)):
        for seed in range(seeds):
            r = Rng(13000 + 10 * width + seed + 1000 * (m - 1))
            rank = pair_rank(m)
            keep = [r.below(4) != 0 for _ in LANES]
            keep[0] = True
            w.both(f"w{width}_xor{m}_pairs_randmask_s{seed}", width,
                   masked([rank[i] * width for i in LANES], lambda i: keep[i]))
    # Conflicts next to phases with no active lane (8/16-byte: 2/4 phases of 16/8 lanes).
    for width, lanes, label in ((16, range(0, 2), "lanes00_01"), (16, range(0, 8), "lanes00_07"),
                                (16, range(8, 16), "lanes08_15"), (16, [0, 1, 2, 3, 16, 17, 18, 19], "lanes0_3_16_19"),
                                (8, range(0, 4), "lanes00_03"), (8, range(0, 8), "lanes00_07"),
                                (8, range(0, 16), "lanes00_15"), (8, range(16, 24), "lanes16_23")):
        on = set(lanes)
        w.both(f"w{width}_{label}_conf128", width, masked([128 * i for i in LANES], lambda i: i in on))


def cute_swizzle(b, m, s):
    """CuTe's Swizzle<B,M,S> on a byte offset: the B bits at M+S.. are XORed into the B bits at M.."""
    return lambda x: x ^ ((x >> s) & (((1 << b) - 1) << m))


def swizzles(w):
    w.begin("swizzle", "CuTe Swizzle<B,M,S> (B = 0 is the plain tile), CK-style XOR preshuffle, padded rows, "
            "Morton order; tiles of 8/16-byte vectors in 64/128-byte rows")
    log2 = {8: 3, 16: 4, 64: 6, 128: 7}
    for vec, row in ((16, 128), (16, 64), (8, 128), (8, 64)):
        per_row = row // vec
        m = log2[vec]
        s = log2[row] - m
        for b in range(0, 4):
            if b > s or (1 << b) > per_row:
                continue
            f = cute_swizzle(b, m, s)
            orders = {
                "col": [f(i * row) for i in LANES],                                     # lane i: row i, chunk 0
                "row": [f((i // per_row) * row + (i % per_row) * vec) for i in LANES],  # row-major vectors
                "8x4": [f((i % 8) * row + (i // 8 % per_row) * vec) for i in LANES],    # 8 rows x 4 chunks
            }
            for order, offs in orders.items():
                w.both(f"w{vec}_cute_swz{b}_v{vec}_r{row}_{order}", vec, offs)
    f = cute_swizzle(3, 4, 3)
    w.both("w4_cute_swz3_v16_r128_col", 4, [f(i * 128) for i in LANES])
    w.both("w4_cute_swz3_v16_r128_col_word2", 4, [f(i * 128) + 8 for i in LANES])
    w.both("w8_cute_swz3_v16_r128_col", 8, [f(i * 128) for i in LANES])
    # CK-style XOR preshuffle (our formulation): vector chunk c of row r is stored at chunk c ^ (r mod chunks).
    for vec, row in ((16, 64), (16, 128), (8, 64), (8, 128)):
        chunks = row // vec
        xor = lambda r, c: r * row + ((c ^ (r % chunks)) * vec)
        w.both(f"w{vec}_ck_xor_v{vec}_r{row}_col", vec, [xor(i, 0) for i in LANES])
        w.both(f"w{vec}_ck_xor_v{vec}_r{row}_8x4", vec, [xor(i % 8, i // 8 % chunks) for i in LANES])
    # "merged": 64-byte rows, two to a 128-byte line (row r is half r % 2 of line r // 2); the chunk within
    # the line is XORed with (line mod chunks per line). Lane i reads chunk 0 of row i.
    for vec in (16, 8):
        per_line = 128 // vec
        offs = []
        for i in LANES:
            line, half = i // 2, i % 2
            offs.append(line * 128 + ((half * per_line // 2) ^ (line % per_line)) * vec)
        w.both(f"w{vec}_ck_xor_v{vec}_merged_rows_col", vec, offs)
    for row in (64, 128, 256):
        for pad in (4, 8, 16):
            for width in (4, 8, 16):
                if width > pad:
                    continue
                w.both(f"w{width}_pad{pad}_r{row}_col", width, [i * (row + pad) for i in LANES])
    for pad in (4, 8, 16):
        w.both(f"w{pad}_pad{pad}_r128_8x4", pad, [(i % 8) * (128 + pad) + (i // 8) * pad for i in LANES])

    def morton(i, xbits):
        """Lane i -> (x, y): even bits of i to x, odd bits to y, x taking xbits bits (the rest go to y)."""
        x = y = 0
        xb = yb = 0
        for bit in range(5):
            v = (i >> bit) & 1
            if (bit % 2 == 0 and xb < xbits) or yb >= 5 - xbits:
                x |= v << xb
                xb += 1
            else:
                y |= v << yb
                yb += 1
        return x, y

    for width, pitch in ((4, 128), (4, 256), (8, 128), (8, 256), (16, 256), (16, 512)):
        offs = []
        for i in LANES:
            x, y = morton(i, 3)
            offs.append(y * pitch + x * width)
        w.both(f"w{width}_morton8x4_p{pitch}", width, offs)
    for xbits, label in ((2, "4x8"), (4, "16x2")):
        offs = []
        for i in LANES:
            x, y = morton(i, xbits)
            offs.append(y * 128 + x * 4)
        w.both(f"w4_morton{label}_p128", 4, offs)


def calibration_lines():
    """The calibration file's lines (comments included) and the per-family counts."""
    w = Writer()
    strides(w)
    random_uniform(w)
    clustered(w)
    repeats(w)
    masks(w)
    swizzles(w)
    for other in OTHER_FILES:
        path = os.path.join(REPO, "data", "calibration", other)
        if os.path.exists(path):
            with open(path) as f:
                theirs = {l.split()[0] for l in f if l.strip() and not l.startswith("#")}
            clash = sorted(w.names & theirs)
            assert not clash, f"names also in {other}: {clash[:5]}"
    count = sum(w.families.values())
    assert count >= MIN_PATTERNS, f"only {count} patterns (at least {MIN_PATTERNS})"
    header = [
        "# h200-calibration.patterns: warp-wide shared-memory accesses for the sm90 model (tilesim bank format).",
        "# Generated by scripts/calibrate/make_patterns.py (deterministic); measured by scripts/calibrate/run_calibration.sh.",
        f"# {count} patterns: " + ", ".join(f"{k} {v}" for k, v in w.families.items()) + ".",
    ]
    return header + w.lines, w.families


# ---- the 2026-11-22 probe files (formerly data/calibration/probe/make_patterns.py), byte-identical ----

def probe_line(name, width, op, offs):
    assert len(offs) == 32
    return f"{name} {width} {op} " + " ".join(str(o) for o in offs)


def probe_smem():
    out = []

    def both(name, width, offs):
        out.append(probe_line("ld_" + name, width, "load", offs))
        out.append(probe_line("st_" + name, width, "store", offs))

    L = LANES
    both("w16_cross_phase_dup", 16, [(i % 8) * 16 for i in L])
    both("w16_cross_phase_dup_conf", 16, [(i % 8) * 128 for i in L])
    both("w16_half_bcast_half_linear", 16, [0 if i < 16 else 256 + 16 * (i - 16) for i in L])
    both("w16_pairs_one_broken", 16, [(i >> 1) * 16 if i != 31 else 512 for i in L])
    both("w16_pairs_xor2", 16, [((i >> 2) * 2 + (i & 1)) * 16 for i in L])
    both("w16_quads_same", 16, [(i >> 2) * 16 for i in L])
    both("w16_octets_same", 16, [(i >> 3) * 16 for i in L])
    both("w16_pairs_conf128", 16, [(i >> 1) * 128 for i in L])
    both("w16_pairs_stride64", 16, [(i >> 1) * 64 for i in L])
    both("w16_pairs_last_inactive", 16, [(i >> 1) * 16 if i != 31 else X for i in L])
    both("w16_pairs_last_pair_inactive", 16, [(i >> 1) * 16 if i < 30 else X for i in L])
    both("w16_odd_even_two_conf", 16, [(i & 1) * 128 for i in L])
    both("w16_halves_same", 16, [(i % 16) * 16 for i in L])
    both("w16_xor4_same", 16, [((i >> 3) * 4 + (i & 3)) * 16 for i in L])
    both("w16_lane0_only", 16, [0 if i == 0 else X for i in L])
    both("w16_every8th", 16, [16 * i if i % 8 == 0 else X for i in L])
    both("w16_first8", 16, [16 * i if i < 8 else X for i in L])
    both("w16_bcast_conf_pairs", 16, [0 if i % 2 == 0 else 128 for i in L])
    both("w16_pairs_pairs_conf", 16, [(i >> 1) % 2 * 128 + (i >> 2) * 16 for i in L])
    both("w16_two_addr_phase0", 16, [0 if i < 4 else (128 if i < 8 else 16 * i) for i in L])
    both("w16_bcast_one_diff", 16, [0 if i != 5 else 128 for i in L])
    both("w16_bcast_one_diff_nc", 16, [0 if i != 5 else 16 for i in L])
    both("w16_mixed_xor1_xor2", 16, [(i >> 1) * 16 if i < 8 else
                                      ((((i - 8) >> 2) * 2 + (i & 1)) * 16 + 64 if i < 16 else (i >> 1) * 16)
                                      for i in L])
    both("w16_pairs_half0_only", 16, [(i >> 1) * 16 if i < 16 else 16 * i for i in L])
    both("w16_sparse_vacuous_pairs", 16, [{0: 0, 8: 16, 16: 32, 24: 48}.get(i, X) for i in L])
    both("w16_two_lanes_differ", 16, [{0: 0, 1: 16}.get(i, X) for i in L])
    both("w16_lanes01_same_2_3_differ", 16, [{0: 0, 1: 0, 2: 16, 3: 32}.get(i, X) for i in L])
    both("w8_mixed_xor1_xor2", 8, [(i >> 1) * 8 if i < 16 else 64 + (((i - 16) >> 2) * 2 + (i & 1)) * 8
                                   for i in L])
    both("w8_cross_phase_dup", 8, [(i % 16) * 8 for i in L])
    both("w8_cross_phase_dup_conf", 8, [(i % 16) * 128 for i in L])
    both("w8_pairs_same", 8, [(i >> 1) * 8 for i in L])
    both("w8_pairs_conf128", 8, [(i >> 1) * 128 for i in L])
    both("w8_quads_conf", 8, [(i >> 2) * 128 for i in L])
    both("w8_odd_even_two_conf", 8, [(i & 1) * 128 for i in L])
    both("w8_bcast_one_diff", 8, [0 if i != 5 else 128 for i in L])
    both("w8_half_bcast_half_linear", 8, [0 if i < 16 else 128 + 8 * (i - 16) for i in L])
    both("w8_every16th", 8, [8 * i if i % 16 == 0 else X for i in L])
    both("w8_pairs_last_inactive", 8, [(i >> 1) * 8 if i != 31 else X for i in L])
    both("w4_cross_dup_conf", 4, [(i % 16) * 128 for i in L])
    both("w4_lane0_only", 4, [0 if i == 0 else X for i in L])
    both("w4_half_active_conf", 4, [128 * i if i < 16 else X for i in L])
    both("w1_linear", 1, [i for i in L])
    both("w1_stride4", 1, [4 * i for i in L])
    both("w1_stride128", 1, [128 * i for i in L])
    both("w1_same_word_bytes", 1, [i % 4 for i in L])
    both("w1_stride33", 1, [33 * i for i in L])
    both("w2_linear", 2, [2 * i for i in L])
    both("w2_stride64", 2, [64 * i for i in L])
    both("w2_same_word_halves", 2, [2 * (i % 2) for i in L])
    both("w2_stride130", 2, [130 * i for i in L])
    return out


def probe_global():
    out = []

    def both(name, width, offs):
        out.append(probe_line("gld_" + name, width, "load", offs))
        out.append(probe_line("gst_" + name, width, "store", offs))

    L = LANES
    both("w4_linear", 4, [4 * i for i in L])
    both("w4_stride32", 4, [32 * i for i in L])
    both("w4_stride8", 4, [8 * i for i in L])
    both("w4_linear_off4", 4, [4 + 4 * i for i in L])
    both("w4_linear_off96", 4, [96 + 4 * i for i in L])
    both("w4_broadcast", 4, [0 for i in L])
    both("w4_half_active", 4, [4 * i if i < 16 else X for i in L])
    both("w4_stride128", 4, [128 * i for i in L])
    both("w4_reverse", 4, [4 * (31 - i) for i in L])
    both("w8_linear", 8, [8 * i for i in L])
    both("w8_stride16", 8, [16 * i for i in L])
    both("w16_linear", 16, [16 * i for i in L])
    both("w16_linear_off16", 16, [16 + 16 * i for i in L])
    both("w16_stride32", 16, [32 * i for i in L])
    both("w16_broadcast", 16, [0 for i in L])
    both("w1_linear", 1, [i for i in L])
    both("w2_linear", 2, [2 * i for i in L])
    both("w1_stride32", 1, [32 * i for i in L])
    both("w4_random", 4, [(i * 2654435761 % 4093) * 4 for i in L])
    both("w16_lanes_0_8_16_24", 16, [16 * i if i % 8 == 0 else X for i in L])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="output file (default: data/calibration/h200-calibration.patterns; - = stdout)")
    ap.add_argument("--probe", choices=("smem", "global"), help="write a probe file instead (stdout by default)")
    args = ap.parse_args()
    if args.probe:
        lines = ["# generated by make_patterns.py " + args.probe] + (probe_smem() if args.probe == "smem"
                                                                  else probe_global())
        out = args.out or "-"
        families = None
    else:
        lines, families = calibration_lines()
        out = args.out or DEFAULT_OUT
    text = "\n".join(lines) + "\n"
    if out == "-":
        sys.stdout.write(text)
    else:
        with open(out, "w") as f:
            f.write(text)
    if families:
        print(f"{out}: {sum(families.values())} patterns ("
              + ", ".join(f"{k} {v}" for k, v in families.items()) + ")", file=sys.stderr)


if __name__ == "__main__":
    main()
