"""Bank pricing: tilesim.bank(arch, width, op, addresses) gives `tilesim bank --arch ARCH --detail`'s numbers for
the same line, on every architecture; Layout.price gives the same numbers per instruction."""
import numpy as np
import pytest

import tilesim

INACTIVE = 4294967295


def cli_bank(cli, arch, lines):
    """{name: {"wavefronts", "cycles", "ideal", ...}} from `tilesim bank --arch ARCH --detail` on `lines`."""
    out = cli("bank", "--arch", arch, "--detail", input="".join(lines))
    assert out.returncode == 0, out.stderr
    result = {}
    for line in out.stdout.splitlines():
        name, wavefronts, cycles, *rest = line.split()
        d = {"wavefronts": int(wavefronts), "cycles": cycles}
        d.update({k: int(v) for k, v in (kv.split("=") for kv in rest)})
        result[name] = d
    return result


def pattern_line(name, width, op, addresses):
    return f"{name} {width} {op} " + " ".join(str(INACTIVE if a < 0 else a) for a in addresses) + "\n"


def random_accesses(arch, count, seed):
    """Strides, random words, broadcasts and partial masks: (name, width, op, addresses)."""
    rng = np.random.default_rng(seed)
    wave = tilesim.arch_info(arch)["wave_size"]
    out = []
    for i in range(count):
        width = int(rng.choice([1, 2, 4, 8, 16]))
        op = "load" if i % 3 else "store"
        kind = i % 4
        if kind == 0:
            addr = np.arange(wave) * width * int(rng.integers(1, 40))
        elif kind == 1:
            addr = rng.integers(0, 2048, wave) * width
        elif kind == 2:
            addr = (np.arange(wave) % int(rng.choice([1, 2, 4, 8]))) * width * int(rng.integers(1, 9))
        else:
            addr = rng.integers(0, 512, wave) * width
            addr[rng.random(wave) < 0.4] = -1
        out.append((f"p{i}", width, op, addr.astype(np.int64)))
    return out


@pytest.mark.parametrize("arch", ["sm90", "gfx90a", "gfx942", "gfx950"])
def test_bank_equals_the_cli(cli, arch):
    """LAW: every number of tilesim.bank equals the command's for the same line (200 lines per arch)."""
    accesses = random_accesses(arch, 200, seed=len(arch))
    want = cli_bank(cli, arch, [pattern_line(*a) for a in accesses])
    for name, width, op, addr in accesses:
        got = tilesim.bank(arch, width, op, addr)
        w = want[name]
        assert f"{got['cycles']:.3f}" == w["cycles"], name
        for key in ("wavefronts", "ideal", "excess", "max_ways", "passes", "bank_conflicts", "pipe_slots"):
            assert got[key] == w[key], (name, key, got[key], w[key])


@pytest.mark.parametrize("arch", ["sm90", "gfx942", "gfx950"])
def test_phase_detail_adds_up(arch):
    """LAW: the per-phase detail is the counted view: its ways sum to the wavefronts, its largest is max_ways,
    and each phase's ways is its busiest bank's distinct words."""
    for name, width, op, addr in random_accesses(arch, 60, seed=7):
        d = tilesim.bank(arch, width, op, addr, detail=True)
        assert sum(p["ways"] for p in d["phases"]) == d["wavefronts"], name
        assert max([p["ways"] for p in d["phases"]] + [0]) == d["max_ways"], name
        for p in d["phases"]:
            assert p["ways"] == max((len(w) for w in p["words"]), default=0)


def test_bank_rejects_bad_lines():
    """LAW: a wrong lane count, width or misaligned offset is a ValueError naming the value."""
    with pytest.raises(ValueError, match="32 in a 1-D array"):
        tilesim.bank("sm90", 4, "load", np.zeros(64, dtype=np.int64))
    with pytest.raises(ValueError, match=r"got 3\)"):
        tilesim.bank("sm90", 3, "load", np.zeros(32, dtype=np.int64))
    with pytest.raises(ValueError, match="lane 1: offset 6 is not a multiple of the width 4"):
        tilesim.bank("sm90", 4, "load", [0, 6] + [0] * 30)
    with pytest.raises(ValueError, match="unknown architecture 'sm91'"):
        tilesim.bank("sm91", 4, "load", np.zeros(32, dtype=np.int64))


@pytest.mark.parametrize("arch,side", [("sm90", "down-rows"), ("sm90", "ldmatrix"), ("gfx942", "mfma"),
                                       ("gfx950", "down-rows")])
def test_layout_price_equals_the_cli(cli, arch, side):
    """LAW: Layout.price's instructions, written as a pattern file, get the same wavefronts from the command,
    and its totals are their sums."""
    L = tilesim.layout("ck-xor")  # 128 x 32 fp16, KPack 8
    p = L.price(arch, read=side)
    lines = [pattern_line(i["label"].replace(" ", "_"), i["width"], "load", i["addresses"]) for i in p["instructions"]]
    want = cli_bank(cli, arch, lines)
    for i in p["instructions"]:
        assert i["wavefronts"] == want[i["label"].replace(" ", "_")]["wavefronts"]
    assert p["wavefronts"] == sum(i["wavefronts"] for i in p["instructions"])
    assert p["ideal"] <= p["wavefronts"]
