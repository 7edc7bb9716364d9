"""Bridges: CuTe's printed notation and Triton's printed linear layouts read into tilesim Layouts whose offsets
equal `tilesim layout`'s for the same layout, priced as the command prices them; what cannot be expressed is
refused with NotExpressible saying why."""
import re

import numpy as np
import pytest

import tilesim
from tilesim import NotExpressible, cute, triton, triton_price
from test_banks import cli_bank, pattern_line
from test_layouts import cli_offsets


@pytest.mark.parametrize("b,m,s,rows,cols", [(3, 3, 3, 8, 64), (2, 3, 3, 128, 32), (1, 4, 3, 16, 16), (2, 2, 4, 16, 32)])
def test_cute_swizzle_equals_the_cli(cli, b, m, s, rows, cols):
    """LAW: Sw<B,M,S> o (R,C):(C,1) in CuTe's spelling (static `_` ints too) is `tilesim layout cute-swizzle`."""
    want, _ = cli_offsets(cli, "cute-swizzle", {"bits": b, "base": m, "shift": s, "rows": rows, "row_length": cols})
    for text in (f"Sw<{b},{m},{s}> o ({rows},{cols}):({cols},1)", f"Sw<{b},{m},{s}> o _0 o (_{rows},_{cols}):(_{cols},_1)"):
        L = cute(text)
        assert (L.offsets == want).all(), text
        assert L.is_bijective()


def test_every_cute_swizzle_of_a_tile_equals_the_cli(cli):
    """LAW: for every Swizzle<B,M,S> (B <= 3, M <= 4, B <= S <= 5) whose block divides a 32 x 64 tile, the CuTe
    text and `tilesim layout cute-swizzle` agree element by element, and the bijection verdicts agree."""
    checked = 0
    for b in range(4):
        for m in range(5):
            for s in range(max(b, 1), 6):
                if (32 * 64) % (1 << (b + m + s)):
                    continue
                opts = {"bits": b, "base": m, "shift": s, "rows": 32, "row_length": 64}
                want, bijective = cli_offsets(cli, "cute-swizzle", opts)
                L = cute(f"Sw<{b},{m},{s}> o (32,64):(64,1)")
                assert (L.offsets == want).all(), opts
                assert L.is_bijective() == bijective, opts
                checked += 1
    assert checked >= 60


def test_cute_byte_swizzle_is_the_element_one():
    """LAW: the GMMA atom printed with smem_ptr[16b] swizzles byte addresses: Sw<3,4,3> on bytes of fp16 is
    Sw<3,3,3> on elements (the SW128 atom)."""
    a = cute("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)")
    assert a.elem_bytes == 2
    assert (a.offsets == cute("Sw<3,3,3> o (8,64):(64,1)").offsets).all()
    assert (cute("Sw<3,4,3> o (8,64):(64,1)", units="bytes").offsets == a.offsets).all()


def test_cute_nested_shapes_are_colexicographic():
    """LAW: a nested mode splits its coordinate first sub-mode fastest: ((8,2),64):((64,512),1) puts row 8 at 512
    and equals row-major 16 x 64; (8,(4,16)):(64,(16,1)) permutes the columns of each row."""
    L = cute("((8,2),64):((64,512),1)")
    assert L.shape == (16, 64)
    assert L.offset(8, 0) == 512 and L.offset(7, 3) == 7 * 64 + 3
    r, c = np.indices((16, 64))
    assert (L.offsets == r * 64 + c).all()
    P = cute("(8,(4,16)):(64,(16,1))")
    assert P.offset(0, 1) == 16 and P.offset(0, 4) == 1 and P.is_bijective()


@pytest.mark.parametrize("text,why", [
    ("(4,8,2):(16,1,128)", "3 top modes"),
    ("Sw<3,1,3> o smem_ptr[32b](unset) o (8,32):(32,1)", "bytes inside an element"),
    ("(8,8):(1@0,1@1)", "basis strides"),
    ("_5 o (8,8):(-8,1)", "negative offsets"),
])
def test_cute_says_what_cannot_be_expressed(text, why):
    """LAW: a readable layout tilesim cannot hold raises NotExpressible (a ValueError) naming the reason."""
    with pytest.raises(NotExpressible, match=why):
        cute(text)


@pytest.mark.parametrize("text,where", [("(8,64):(64)", "same nesting"), ("(8,64)(64,1)", "':' expected"),
                                        ("(8,64:(64,1)", re.escape("',' or ')' expected")), ("(8,x):(64,1)", "found 'x")])
def test_cute_malformed_text_is_located(text, where):
    """LAW: a malformed text is a ValueError saying what was expected where."""
    with pytest.raises(ValueError, match=where):
        cute(text)


def test_cute_layout_priced_as_the_cli(cli):
    """LAW: a CuTe-notation layout's down-rows read costs on sm90 what the command says for the same lines, and
    the SW128-style swizzle beats row-major's on it."""
    swz = cute("Sw<3,3,3> o (8,64):(64,1)").price("sm90", read="down-rows", threads=32)
    plain = cute("(8,64):(64,1)").price("sm90", read="down-rows", threads=32)
    for p in (swz, plain):
        lines = [pattern_line(f"i{k}", i["width"], "load", i["addresses"]) for k, i in enumerate(p["instructions"])]
        want = cli_bank(cli, "sm90", lines)
        assert [i["wavefronts"] for i in p["instructions"]] == [want[f"i{k}"]["wavefronts"] for k in range(len(lines))]
    assert swz["wavefronts"] < plain["wavefronts"]


NVMMA_128B_8x64 = """
 - offset=1 -> (0, 1)
   offset=2 -> (0, 2)
   offset=4 -> (0, 4)
   offset=8 -> (0, 8)
   offset=16 -> (0, 16)
   offset=32 -> (0, 32)
   offset=64 -> (1, 8)
   offset=128 -> (2, 16)
   offset=256 -> (4, 32)
 - block is a size 1 dimension
where out dims are: [dim0 (size 8), dim1 (size 64)]
"""

# A blocked layout's linear form: sizePerThread [1, 8], threadsPerWarp [4, 8], warpsPerCTA [2, 1], order [1, 0],
# over an 8 x 64 tile: lane l holds row l/8 (+4 for warp 1), columns 8*(l%8) .. +7.
BLOCKED_1x8 = ("#ttg.linear<{register = [[0, 1], [0, 2], [0, 4]], lane = [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], "
               "warp = [[4, 0]], block = []}>")
# Column reads: lanes 0-7 go down the 8 rows of one column, lanes 8, 16 step 8 columns, warps and the register
# step the column: scalar 2-byte loads, each instruction four columns 8 apart read top to bottom.
COLUMNS = """
 - register=1 -> (0, 32)
 - lane=1 -> (1, 0)
   lane=2 -> (2, 0)
   lane=4 -> (4, 0)
   lane=8 -> (0, 8)
   lane=16 -> (0, 16)
 - warp=1 -> (0, 1)
   warp=2 -> (0, 2)
   warp=4 -> (0, 4)
 - block is a size 1 dimension
where out dims are: [dim0 (size 8), dim1 (size 64)]
"""


def test_triton_shared_layout_equals_cute_and_the_cli(cli):
    """LAW: Triton's printed 128-byte-swizzled shared layout of an 8 x 64 fp16 tile is CuTe's Sw<3,3,3> o
    (8,64):(64,1) and `tilesim layout cute-swizzle`, element by element; the #ttg.linear spelling reads alike."""
    want, _ = cli_offsets(cli, "cute-swizzle", {})
    L = triton(NVMMA_128B_8x64)
    assert (L.offsets == want).all()
    assert (L.offsets == cute("Sw<3,3,3> o (8,64):(64,1)").offsets).all()
    attr = "#ttg.linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32]]}>"
    assert (triton(attr).offsets == want).all()


def test_triton_price_equals_the_cli(cli):
    """LAW: the LDS instructions a distributed layout makes against a shared one cost what the command says;
    16-byte row vectors are conflict-free on either layout, scalar column reads are 8-way on row-major and 4-way
    on the swizzled one."""
    swz, plain = triton(NVMMA_128B_8x64), cute("(8,64):(64,1)")
    for dist, shared in ((BLOCKED_1x8, swz), (BLOCKED_1x8, plain), (COLUMNS, swz), (COLUMNS, plain)):
        p = triton_price(dist, shared, "sm90")
        lines = [pattern_line(i["label"], i["width"], "load", i["addresses"]) for i in p["instructions"]]
        want = cli_bank(cli, "sm90", lines)
        for i in p["instructions"]:
            assert i["wavefronts"] == want[i["label"]]["wavefronts"]
            assert i["max_ways"] == want[i["label"]]["max_ways"]
    assert triton_price(BLOCKED_1x8, swz, "sm90")["vector"] == 8
    assert triton_price(COLUMNS, swz, "sm90")["vector"] == 1
    assert triton_price(BLOCKED_1x8, plain, "sm90")["max_ways"] == 1
    assert triton_price(COLUMNS, plain, "sm90")["max_ways"] == 8
    # The swizzle moves whole 16-byte chunks: 32 scalars at one position of their chunks can use only 8 banks.
    assert triton_price(COLUMNS, swz, "sm90")["max_ways"] == 4


@pytest.mark.parametrize("text,why", [
    (BLOCKED_1x8, "not a shared-memory layout"),
    (" - offset=1 -> (0, 1, 0)\nwhere out dims are: [dim0 (size 1), dim1 (size 2), dim2 (size 1)]", "3 out dims"),
    (" - offset=1 -> (0, 1)\n   offset=2 -> (0, 1)\nwhere out dims are: [dim0 (size 2), dim1 (size 2)]",
     "not independent"),
])
def test_triton_says_what_cannot_be_expressed(text, why):
    """LAW: a readable Triton layout tilesim cannot hold raises NotExpressible naming the reason."""
    with pytest.raises(NotExpressible, match=why):
        triton(text)


def test_triton_wave_must_match_the_arch():
    """LAW: a 32-lane distributed layout is refused on a 64-lane AMD wave, naming both."""
    with pytest.raises(NotExpressible, match="32 lanes per warp; gfx942's wave is 64"):
        triton_price(BLOCKED_1x8, triton(NVMMA_128B_8x64), "gfx942")
