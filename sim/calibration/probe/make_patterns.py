#!/usr/bin/env python3
"""Writes the probe pattern files (sm90, 32 lanes) that settle the questions the H200 truth leaves open:
which repeated-address loads merge, sub-word widths, partially active warps, and global sectors.
  python3 make_patterns.py smem > ../h200-smem-probe.patterns
  python3 make_patterns.py global > ../h200-global-probe.patterns"""
import sys

X = 4294967295
lanes = range(32)


def line(name, width, op, offs):
    assert len(offs) == 32
    return f"{name} {width} {op} " + " ".join(str(o) for o in offs)


def smem():
    out = []
    def both(name, width, offs):
        out.append(line("ld_" + name, width, "load", offs))
        out.append(line("st_" + name, width, "store", offs))
    # 16-byte accesses with repeated addresses
    both("w16_cross_phase_dup", 16, [(i % 8) * 16 for i in lanes])
    both("w16_cross_phase_dup_conf", 16, [(i % 8) * 128 for i in lanes])
    both("w16_half_bcast_half_linear", 16, [0 if i < 16 else 256 + 16 * (i - 16) for i in lanes])
    both("w16_pairs_one_broken", 16, [(i >> 1) * 16 if i != 31 else 512 for i in lanes])
    both("w16_pairs_xor2", 16, [((i >> 2) * 2 + (i & 1)) * 16 for i in lanes])
    both("w16_quads_same", 16, [(i >> 2) * 16 for i in lanes])
    both("w16_octets_same", 16, [(i >> 3) * 16 for i in lanes])
    both("w16_pairs_conf128", 16, [(i >> 1) * 128 for i in lanes])
    both("w16_pairs_stride64", 16, [(i >> 1) * 64 for i in lanes])
    both("w16_pairs_last_inactive", 16, [(i >> 1) * 16 if i != 31 else X for i in lanes])
    both("w16_pairs_last_pair_inactive", 16, [(i >> 1) * 16 if i < 30 else X for i in lanes])
    both("w16_odd_even_two_conf", 16, [(i & 1) * 128 for i in lanes])
    both("w16_halves_same", 16, [(i % 16) * 16 for i in lanes])
    both("w16_xor4_same", 16, [((i >> 3) * 4 + (i & 3)) * 16 for i in lanes])
    both("w16_lane0_only", 16, [0 if i == 0 else X for i in lanes])
    both("w16_every8th", 16, [16 * i if i % 8 == 0 else X for i in lanes])
    both("w16_first8", 16, [16 * i if i < 8 else X for i in lanes])
    both("w16_bcast_conf_pairs", 16, [0 if i % 2 == 0 else 128 for i in lanes])
    both("w16_pairs_pairs_conf", 16, [(i >> 1) % 2 * 128 + (i >> 2) * 16 for i in lanes])
    both("w16_two_addr_phase0", 16, [0 if i < 4 else (128 if i < 8 else 16 * i) for i in lanes])
    both("w16_bcast_one_diff", 16, [0 if i != 5 else 128 for i in lanes])
    both("w16_bcast_one_diff_nc", 16, [0 if i != 5 else 16 for i in lanes])
    both("w16_mixed_xor1_xor2", 16, [(i >> 1) * 16 if i < 8 else
                                      ((((i - 8) >> 2) * 2 + (i & 1)) * 16 + 64 if i < 16 else (i >> 1) * 16)
                                      for i in lanes])
    both("w16_pairs_half0_only", 16, [(i >> 1) * 16 if i < 16 else 16 * i for i in lanes])
    both("w16_sparse_vacuous_pairs", 16, [{0: 0, 8: 16, 16: 32, 24: 48}.get(i, X) for i in lanes])
    both("w16_two_lanes_differ", 16, [{0: 0, 1: 16}.get(i, X) for i in lanes])
    both("w16_lanes01_same_2_3_differ", 16, [{0: 0, 1: 0, 2: 16, 3: 32}.get(i, X) for i in lanes])
    # 8-byte accesses with repeated addresses
    both("w8_mixed_xor1_xor2", 8, [(i >> 1) * 8 if i < 16 else 64 + (((i - 16) >> 2) * 2 + (i & 1)) * 8
                                   for i in lanes])
    both("w8_cross_phase_dup", 8, [(i % 16) * 8 for i in lanes])
    both("w8_cross_phase_dup_conf", 8, [(i % 16) * 128 for i in lanes])
    both("w8_pairs_same", 8, [(i >> 1) * 8 for i in lanes])
    both("w8_pairs_conf128", 8, [(i >> 1) * 128 for i in lanes])
    both("w8_quads_conf", 8, [(i >> 2) * 128 for i in lanes])
    both("w8_odd_even_two_conf", 8, [(i & 1) * 128 for i in lanes])
    both("w8_bcast_one_diff", 8, [0 if i != 5 else 128 for i in lanes])
    both("w8_half_bcast_half_linear", 8, [0 if i < 16 else 128 + 8 * (i - 16) for i in lanes])
    both("w8_every16th", 8, [8 * i if i % 16 == 0 else X for i in lanes])
    both("w8_pairs_last_inactive", 8, [(i >> 1) * 8 if i != 31 else X for i in lanes])
    # 4-byte and sub-word
    both("w4_cross_dup_conf", 4, [(i % 16) * 128 for i in lanes])
    both("w4_lane0_only", 4, [0 if i == 0 else X for i in lanes])
    both("w4_half_active_conf", 4, [128 * i if i < 16 else X for i in lanes])
    both("w1_linear", 1, [i for i in lanes])
    both("w1_stride4", 1, [4 * i for i in lanes])
    both("w1_stride128", 1, [128 * i for i in lanes])
    both("w1_same_word_bytes", 1, [i % 4 for i in lanes])
    both("w1_stride33", 1, [33 * i for i in lanes])
    both("w2_linear", 2, [2 * i for i in lanes])
    both("w2_stride64", 2, [64 * i for i in lanes])
    both("w2_same_word_halves", 2, [2 * (i % 2) for i in lanes])
    both("w2_stride130", 2, [130 * i for i in lanes])
    return out


def glob():
    out = []
    def both(name, width, offs):
        out.append(line("gld_" + name, width, "load", offs))
        out.append(line("gst_" + name, width, "store", offs))
    both("w4_linear", 4, [4 * i for i in lanes])
    both("w4_stride32", 4, [32 * i for i in lanes])
    both("w4_stride8", 4, [8 * i for i in lanes])
    both("w4_linear_off4", 4, [4 + 4 * i for i in lanes])
    both("w4_linear_off96", 4, [96 + 4 * i for i in lanes])
    both("w4_broadcast", 4, [0 for i in lanes])
    both("w4_half_active", 4, [4 * i if i < 16 else X for i in lanes])
    both("w4_stride128", 4, [128 * i for i in lanes])
    both("w4_reverse", 4, [4 * (31 - i) for i in lanes])
    both("w8_linear", 8, [8 * i for i in lanes])
    both("w8_stride16", 8, [16 * i for i in lanes])
    both("w16_linear", 16, [16 * i for i in lanes])
    both("w16_linear_off16", 16, [16 + 16 * i for i in lanes])
    both("w16_stride32", 16, [32 * i for i in lanes])
    both("w16_broadcast", 16, [0 for i in lanes])
    both("w1_linear", 1, [i for i in lanes])
    both("w2_linear", 2, [2 * i for i in lanes])
    both("w1_stride32", 1, [32 * i for i in lanes])
    both("w4_random", 4, [(i * 2654435761 % 4093) * 4 for i in lanes])
    both("w16_lanes_0_8_16_24", 16, [16 * i if i % 8 == 0 else X for i in lanes])
    return out


if __name__ == "__main__":
    print("# generated by make_patterns.py " + sys.argv[1])
    print("\n".join(smem() if sys.argv[1] == "smem" else glob()))
