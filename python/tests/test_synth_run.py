"""Synthesis and runs: tilesim.synth(...) answers what `tilesim synth --json` answers for the same options, and
tilesim.run(...) is `tilesim run ... --json` as a dict."""
import json

import pytest

import tilesim

SYNTH_CASES = [
    {"arch": "gfx942", "rows": 128, "cols": 32, "write": "warp-raked", "read": "mfma"},
    {"arch": "sm90", "rows": 64, "cols": 32, "write": "warp-raked", "read": "down-rows"},
    {"arch": "gfx950", "rows": 128, "cols": 64, "write": "warp-raked", "read": "mfma", "family": "ck"},
]


def cli_args(options):
    return [a for k, v in options.items() for a in ("--" + k.replace("_", "-"), v)]


@pytest.mark.parametrize("options", SYNTH_CASES)
def test_synth_equals_the_cli(cli, options):
    """LAW: best layout, its wavefronts and spellings, row-major's, the ideal, the candidates, the checks and the
    XOR analysis equal the command's JSON."""
    got = tilesim.synth(**options)
    out = cli("synth", *cli_args(options), "--json")
    assert out.returncode == 0, out.stderr
    want = json.loads(out.stdout)
    for key in ("schema", "arch", "rows", "cols", "elem_bytes", "writer", "reader", "ideal", "reaches_ideal",
                "candidates", "checked"):
        assert got[key] == want[key], key
    for key, value in want["best"].items():
        assert got["best"][key] == value, key
    for key, value in want["row_major"].items():
        assert got["row_major"][key] == value, key
    for key in ("applicable", "feasible", "exhaustive", "lower_bound", "nodes"):
        assert got["xor"][key] == want["xor"][key], key


@pytest.mark.parametrize("options", SYNTH_CASES)
def test_synth_layout_prices_as_it_says(options):
    """LAW: the returned Layout, priced side by side, costs the wavefronts synth reports; it is a bijection
    unless padded; it never costs more than row-major."""
    r = tilesim.synth(**options)
    L = r["layout"]
    write = L.price(options["arch"], write=options["write"])
    read = L.price(options["arch"], read=options["read"])
    assert (write["wavefronts"], read["wavefronts"]) == (r["best"]["write"], r["best"]["read"])
    assert L.is_bijective() or r["best"]["family"] == "padded"
    assert r["best"]["wavefronts"] <= r["row_major"]["wavefronts"]
    assert r["certificate"]["lower_bound"] == r["xor"]["lower_bound"]


def test_synth_bad_input_is_a_usage_error():
    """LAW: an unknown side or family is a UsageError naming it."""
    with pytest.raises(tilesim.UsageError, match="write: .*'sideways'"):
        tilesim.synth(write="sideways")
    with pytest.raises(tilesim.UsageError, match="unknown family 'swirl'"):
        tilesim.synth(family="swirl")


def without_timing(report):
    """The report less what measures this machine rather than the program (none today: kept for safety)."""
    return {k: v for k, v in report.items() if k not in ("wall_seconds",)}


@pytest.mark.parametrize("program,options", [("copy", {}), ("copy", {"layout": "ck-xor"}),
                                             ("copy", {"arch": "sm90", "layout": "cute-swizzle"}), ("gemm", {}),
                                             ("gemm", {"arch": "sm90", "jobs": 2})])
def test_run_equals_the_cli(cli, program, options):
    """LAW: tilesim.run(PROGRAM, **options) is the command's --json report, key for key."""
    got = tilesim.run(program, **options)
    out = cli("run", program, *cli_args(options), "--json")
    assert out.returncode == 0, out.stderr
    assert without_timing(got) == without_timing(json.loads(out.stdout))


def test_run_reports_the_known_copy_numbers():
    """LAW (README's first look): on gfx942 the copy's row-major LDS read is 2-way, CK's XOR makes it 1-way."""
    def lds_load(report):
        return next(i for i in report["instructions"] if i["label"] == "lds load")
    plain, xor = tilesim.run("copy"), tilesim.run("copy", layout="ck-xor")
    assert (lds_load(plain)["wavefronts"], lds_load(xor)["wavefronts"]) == (64, 32)


def test_run_bad_option_is_a_usage_error(cli):
    """LAW: a bad option raises UsageError with the command's sentence."""
    with pytest.raises(tilesim.UsageError) as e:
        tilesim.run("copy", layout="zigzag")
    out = cli("run", "copy", "--layout", "zigzag")
    assert out.returncode == 2 and out.stderr.strip() == "tilesim: error: " + str(e.value)


def test_run_svg_equals_the_cli(cli, tmp_path):
    """LAW: run(..., svg=PATH) writes the heat map `tilesim run --svg PATH` writes, byte for byte."""
    ours, theirs = tmp_path / "ours.svg", tmp_path / "theirs.svg"
    tilesim.run("copy", svg=ours)
    assert cli("run", "copy", "--svg", theirs).returncode == 0
    assert ours.read_bytes() == theirs.read_bytes()


def test_bank_svg_draws_the_counts():
    """LAW: the heat map is well-formed SVG naming the instruction, and bank_counts (its numbers) has one row
    per counted phase whose largest cell is that phase's ways."""
    import xml.etree.ElementTree as ET
    col = [lane * 128 for lane in range(32)]
    svg = tilesim.bank_svg("sm90", 16, "load", col, label="Sw<3,3,3> column")
    assert ET.fromstring(svg).tag.endswith("svg") and "Sw(3,3,3) column" in svg
    counts = tilesim.pictures.bank_counts("sm90", 16, "load", col)
    detail = tilesim.bank("sm90", 16, "load", col, detail=True)
    assert counts.shape == (len(detail["phases"]), 32)
    assert list(counts.max(axis=1)) == [p["ways"] for p in detail["phases"]]


def test_plot_banks_draws_or_says_what_it_needs():
    """LAW: with matplotlib, plot_banks draws the heat map's numbers; without it, an ImportError names the
    package to install (matplotlib stays optional)."""
    col = [lane * 128 for lane in range(32)]
    try:
        import matplotlib
    except ImportError:
        with pytest.raises(ImportError, match="python3-matplotlib"):
            tilesim.plot_banks("sm90", 16, "load", col)
        return
    matplotlib.use("Agg")
    fig = tilesim.plot_banks("sm90", 16, "load", col)
    image = fig.axes[0].images[0].get_array()
    assert (image == tilesim.pictures.bank_counts("sm90", 16, "load", col)).all()


def test_layout_svg_draws_the_worst_instruction():
    """LAW: Layout.svg draws the instruction price() names worst, the one with the most excess wavefronts."""
    L = tilesim.cute("(128,32):(32,1)")
    p = L.price("gfx942", read="mfma")
    worst = p["instructions"][p["worst_instruction"]]
    assert worst["excess"] == max(i["excess"] for i in p["instructions"]) > 0
    svg = L.svg("gfx942", read="mfma")
    assert svg == tilesim.bank_svg("gfx942", worst["width"], "load", worst["addresses"],
                                   label=f"{L.name}, mfma '{worst['label']}'")
