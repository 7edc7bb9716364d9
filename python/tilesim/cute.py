"""tilesim.cute: a CuTe layout in the notation CuTe prints, as a tilesim Layout.

DEFINITION. CuTe prints a layout as SHAPE:STRIDE, nested tuples of integers (`_8` is a static 8), and a
swizzled one as a composition `Sw<B,M,S> o OFFSET o SHAPE:STRIDE` (print(composition(Swizzle<3,3,3>{},
layout)) gives `Sw<3,3,3> o _0 o (_8,_64):(_64,_1)`; the GMMA atoms print `smem_ptr[16b](unset)` where the
offset stands: their swizzle acts on BYTE addresses). The map: a coordinate of each top mode is split over
that mode's nested shape colexicographically (first sub-mode fastest), offset = OFFSET + sum(coord_i *
stride_i), then the swizzle: o XOR ((o >> S) & (2^B - 1) << M), spec/'s swizzle_offset.

WORKED EXAMPLE. `Sw<3,3,3> o (8,64):(64,1)` is tilesim's `cute-swizzle` layout: row 1, col 0 -> 64 -> 72.
`((8,2),64):((64,512),1)` is a 16 x 64 tile whose rows 8-15 start at 512; `Sw<3,4,3> o smem_ptr[16b](unset) o
(_8,_64):(_64,_1)` is the SW128 K-major fp16 atom, the same map as element-unit Sw<3,3,3>.

WHAT CANNOT BE EXPRESSED (each raises NotExpressible, a ValueError, saying so): a layout of more than two
top modes (a tilesim Layout is a rows x cols tile: group the modes, ((a,b),c), first); a byte-address swizzle
whose M is below the element's bits (it would move bytes inside an element); strides that are not integers
(CuTe's `1@0` basis strides of TMA coordinate layouts); negative offsets. Zero strides (broadcast) are kept:
such a layout is priced but is not bijective.

INVARIANT. For a plain 2-mode layout with integer strides the offsets equal the formula above element by
element; `cute(text).offsets` with a swizzle equals spec/'s make_cute_swizzle_descriptor for (R,C):(C,1).
"""
import re

import numpy as np

from . import _tilesim
from .layout import Layout


class NotExpressible(ValueError):
    """A layout text that reads correctly but that a tilesim Layout cannot hold; the message says why."""


_TOKEN = re.compile(r"\s*(?:(?P<int>-?_?\d+)|(?P<punct>[(),:])|(?P<other>\S))")


def _parse_tuple(text, pos, what):
    """Parses an int or a nested tuple at text[pos:]; returns (value, next position)."""
    m = _TOKEN.match(text, pos)
    if not m:
        raise ValueError(f"cute: {what} expected at column {pos + 1} of {text!r}, found the end")
    if m.group("int") is not None:
        return int(m.group("int").replace("_", "")), m.end()
    if m.group("punct") == "(":
        items, pos = [], m.end()
        while True:
            item, pos = _parse_tuple(text, pos, what)
            items.append(item)
            m = _TOKEN.match(text, pos)
            if m and m.group("punct") == ",":
                pos = m.end()
                continue
            if m and m.group("punct") == ")":
                return tuple(items), m.end()
            found = text[pos:].strip()[:10] or "the end"
            raise ValueError(f"cute: ',' or ')' expected in the {what} at column {pos + 1} of {text!r}, found {found!r}")
    bad = text[m.start(m.lastgroup):].split()[0] if text[m.start(m.lastgroup):].split() else ""
    raise ValueError(f"cute: an integer or '(' expected in the {what} at column {m.start(m.lastgroup) + 1} of "
                     f"{text!r}, found {bad!r}")


def _flatten(t):
    return [t] if isinstance(t, int) else [x for item in t for x in _flatten(item)]


def _congruent(shape, stride):
    if isinstance(shape, int) or isinstance(stride, int):
        return isinstance(shape, int) and isinstance(stride, int)
    return len(shape) == len(stride) and all(_congruent(a, b) for a, b in zip(shape, stride))


def _mode_offsets(shape, stride):
    """Offsets of each coordinate of one mode, split colexicographically over its nested shape."""
    sizes, strides = _flatten(shape), _flatten(stride)
    n = int(np.prod(sizes))
    idx = np.arange(n, dtype=np.int64)
    out = np.zeros(n, dtype=np.int64)
    for size, st in zip(sizes, strides):
        out += (idx % size) * st
        idx //= size
    return out


_PREFIX = re.compile(r"\s*(?:Sw|Swizzle)\s*<\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*>\s*o\s*")
_OFFSET = re.compile(r"\s*(?:(?P<ptr>smem_ptr\[(?P<bits>\d+)b\](?:\([^)]*\))?)|(?P<off>_?\d+))\s*o\s*")


def parse(text):
    """The parts of a CuTe layout text: {"swizzle": (B, M, S) or None, "offset": int, "ptr_bits": int or None,
    "shape": nested tuple, "stride": nested tuple}. parse("(8,64):(64,1)")["shape"] == (8, 64)."""
    if not isinstance(text, str):
        raise TypeError(f"cute: a layout text is a str (got {type(text).__name__})")
    if "@" in text or "E<" in text:
        raise NotExpressible(f"cute: {text!r} holds basis strides (like 1@0, a TMA coordinate layout): only integer "
                             f"strides map elements to memory offsets")
    pos, swz, offset, ptr_bits = 0, None, 0, None
    m = _PREFIX.match(text, pos)
    if m:
        swz = tuple(int(g) for g in m.groups())
        pos = m.end()
    m = _OFFSET.match(text, pos)
    if m:
        if m.group("ptr"):
            ptr_bits = int(m.group("bits"))
        else:
            offset = int(m.group("off").replace("_", ""))
        pos = m.end()
    shape, pos = _parse_tuple(text, pos, "shape")
    m = _TOKEN.match(text, pos)
    if not m or m.group("punct") != ":":
        raise ValueError(f"cute: ':' expected after the shape at column {pos + 1} of {text!r} (SHAPE:STRIDE)")
    stride, pos = _parse_tuple(text, m.end(), "stride")
    if text[pos:].strip():
        raise ValueError(f"cute: unexpected {text[pos:].strip()!r} after the stride in {text!r}")
    if not _congruent(shape, stride):
        raise ValueError(f"cute: shape {shape} and stride {stride} do not have the same nesting")
    if any(s <= 0 for s in _flatten(shape)):
        raise ValueError(f"cute: every extent must be positive (shape {shape})")
    return {"swizzle": swz, "offset": offset, "ptr_bits": ptr_bits, "shape": shape, "stride": stride}


def cute(text, elem_bytes=None, units="elements"):
    """A tilesim Layout from CuTe's printed notation: cute("Sw<3,3,3> o (8,64):(64,1)").offset(1, 0) == 72.
    The swizzle acts on element offsets (units="elements", as composition(Swizzle, layout) prints), or on
    byte addresses (units="bytes"; implied by `smem_ptr[Nb]`, which also gives the element size)."""
    p = parse(text)
    if units not in ("elements", "bytes"):
        raise ValueError(f"cute: units must be 'elements' or 'bytes' (got {units!r})")
    if p["ptr_bits"] is not None:
        if p["ptr_bits"] % 8 or p["ptr_bits"] == 0:
            raise NotExpressible(f"cute: smem_ptr[{p['ptr_bits']}b]: elements of a fraction of a byte")
        implied = p["ptr_bits"] // 8
        if elem_bytes is not None and elem_bytes != implied:
            raise ValueError(f"cute: elem_bytes={elem_bytes} but the text's smem_ptr[{p['ptr_bits']}b] says {implied}")
        elem_bytes, units = implied, "bytes"
    elem_bytes = 2 if elem_bytes is None else int(elem_bytes)
    if elem_bytes < 1 or elem_bytes > 16:
        raise ValueError(f"cute: elem_bytes must be in [1, 16] (got {elem_bytes})")
    modes = list(zip(p["shape"], p["stride"])) if isinstance(p["shape"], tuple) else [(p["shape"], p["stride"])]
    if len(modes) > 2:
        raise NotExpressible(f"cute: {text!r} has {len(modes)} top modes; a tilesim Layout is a rows x cols tile: "
                             f"group them into two, e.g. ((a,b),c):((sa,sb),sc)")
    if len(modes) == 1:
        modes = [(1, 0)] + modes  # one row
    rows, cols = (_mode_offsets(*m) for m in modes)
    table = p["offset"] + rows[:, None] + cols[None, :]
    if (table < 0).any():
        raise NotExpressible(f"cute: {text!r} has negative offsets (down to {table.min()}): not a memory layout")
    swz = p["swizzle"]
    name = text.strip()
    if swz is not None:
        b, m, s = swz
        if units == "bytes":
            k = elem_bytes.bit_length() - 1
            if 1 << k != elem_bytes:
                raise NotExpressible(f"cute: a byte-address swizzle over {elem_bytes}-byte elements (not a power of two)")
            if m < k:
                raise NotExpressible(f"cute: Sw<{b},{m},{s}> on byte addresses keeps only {m} low bits, fewer than the "
                                     f"{k} of one {elem_bytes}-byte element: it would move bytes inside an element")
            m -= k  # the same XOR on element offsets
        table = _tilesim.swizzle(b, m, s, table)
    return Layout(name, table, elem_bytes=elem_bytes, about=[f"CuTe {name}"])
