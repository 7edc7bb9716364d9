"""Layouts: tilesim.layout(NAME, **options) holds the same offsets `tilesim layout NAME --options` prints, and
the Layout laws (inverse, bijectivity, vectorised offset) hold on them."""
import re

import numpy as np
import pytest

import tilesim

CASES = [
    ("row-major", {}),
    ("padded", {"rows": 8, "cols": 16, "pad": 2}),
    ("ck-xor", {}),
    ("ck-xor", {"m_per_block": 64, "k_per_block": 32, "k_pack": 4, "elem_bytes": 4}),
    ("ck-xor", {"banks": 64}),
    ("cute-swizzle", {}),
    ("cute-swizzle", {"bits": 2, "base": 2, "shift": 4, "rows": 16, "row_length": 32}),
    ("morton", {"rows": 8, "cols": 8}),
]


def cli_offsets(cli, name, options):
    """The offsets grid `tilesim layout NAME ... --show offsets` prints, every row and column."""
    args = ["layout", name, "--show", "offsets", "--max-rows", "0", "--max-cols", "0"]
    for k, v in options.items():
        args += ["--" + k.replace("_", "-"), v]
    out = cli(*args)
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if re.match(r"^\s*\d+ \|", line)]
    table = np.array([[int(v) for v in line.split("|")[1].split()] for line in rows])
    return table, "bijection onto" in out.stdout and ": yes" in out.stdout


@pytest.mark.parametrize("name,options", CASES)
def test_offsets_equal_the_cli(cli, name, options):
    """LAW: the module's offsets are the command's, element by element, and so is the bijection verdict."""
    L = tilesim.layout(name, **options)
    table, bijective = cli_offsets(cli, name, options)
    assert L.offsets.shape == table.shape
    assert (L.offsets == table).all()
    assert L.is_bijective() == bijective


@pytest.mark.parametrize("name,options", CASES)
def test_inverse_undoes_offset(name, options):
    """LAW: for a bijective layout inverse(offset(r, c)) == (r, c) for every element."""
    L = tilesim.layout(name, **options)
    r, c = np.indices(L.shape)
    if not L.is_bijective():
        with pytest.raises(ValueError, match="no element is stored"):
            L.inverse(np.setdiff1d(np.arange(L.element_space), L.offsets)[:1])
        return
    rr, cc = L.inverse(L.offset(r, c).ravel())
    assert (rr == r.ravel()).all() and (cc == c.ravel()).all()


def test_offset_is_vectorised_and_checked():
    """LAW: offset over arrays broadcasts like NumPy and equals the scalar calls; a coordinate outside the tile
    is an IndexError naming it."""
    L = tilesim.layout("cute-swizzle")
    rows = np.arange(8)[:, None]
    cols = np.array([0, 8, 63])[None, :]
    got = L.offset(rows, cols)
    assert got.shape == (8, 3)
    assert all(got[r, i] == L.offset(r, int(c)) for r in range(8) for i, c in enumerate(cols.ravel()))
    assert L.offset(1, 0) == 72  # spec/layouts/cute_swizzle.hpp's worked example
    with pytest.raises(IndexError, match="row 8 is outside"):
        L.offset(8, 0)
    with pytest.raises(IndexError, match="col -1 is outside"):
        L.offset(0, [-1, 0])


def test_padded_is_not_bijective():
    """LAW: a padded layout leaves holes, so it is not a bijection and its holes have no inverse."""
    L = tilesim.layout("padded", rows=4, cols=4, pad=1)
    assert not L.is_bijective()
    assert L.offset(1, 0) == 5
    with pytest.raises(ValueError, match="offset 4"):
        L.inverse(4)


@pytest.mark.parametrize("options,flag", [({"k_pack": 3}, None), ({"rows": 0}, "--rows"), ({"bogus": 1}, "--bogus")])
def test_bad_options_give_the_cli_error(cli, options, flag):
    """LAW: a bad option raises ValueError with the sentence of the command's one error line."""
    name = "ck-xor" if "k_pack" in options else "row-major"
    with pytest.raises(ValueError) as e:
        tilesim.layout(name, **options)
    args = ["layout", name] + [a for k, v in options.items() for a in ("--" + k.replace("_", "-"), v)]
    out = cli(*args)
    assert out.returncode == 2
    assert out.stderr.startswith("tilesim: error: ")
    # The same sentence; an unknown option's list names the module's options (no display options like --show).
    sentence = str(e.value).removeprefix("tilesim: ").split(" (its options")[0]
    assert sentence in out.stderr and out.stderr.count("\n") == 1


def test_swizzle_rules_are_specs():
    """LAW: CuTe's swizzle refuses |S| < B with spec/'s rule and values, and is an involution otherwise."""
    x = np.arange(4096)
    y = tilesim._tilesim.swizzle(3, 3, 3, x)
    assert (tilesim._tilesim.swizzle(3, 3, 3, y) == x).all()
    with pytest.raises(ValueError, match=r"B = 3, S = 2"):
        tilesim._tilesim.swizzle(3, 3, 2, x)


@pytest.mark.parametrize("rows,cols,elem_bytes,swizzle,cute_text", [
    (8, 64, 2, "128B", "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"),
    (16, 32, 2, "64B", "Sw<2,4,3> o smem_ptr[16b](unset) o (16,32):(32,1)"),
    (8, 8, 4, "32B", "Sw<1,4,3> o smem_ptr[32b](unset) o (8,8):(8,1)"),
    (4, 16, 2, "none", "(4,16):(16,1)"),
])
def test_tma_box_is_cutes_atom(rows, cols, elem_bytes, swizzle, cute_text):
    """LAW (spec/hopper/tma.hpp): TMA's SWIZZLE_{32,64,128}B placement is CuTe's Swizzle<B,4,3> on byte addresses,
    a bijection of the box."""
    T = tilesim.tma_box(rows, cols, elem_bytes, swizzle)
    assert (T.offsets == tilesim.cute(cute_text).offsets).all()
    assert T.is_bijective()


def test_tma_box_obeys_the_driver():
    """LAW: a box the driver refuses (inner box wider than the 128-byte span) raises spec/'s rule with values."""
    with pytest.raises(ValueError, match="span"):
        tilesim.tma_box(8, 128, 2, "128B")
    with pytest.raises(ValueError, match="swizzle must be one of"):
        tilesim.tma_box(8, 64, 2, "256B")
