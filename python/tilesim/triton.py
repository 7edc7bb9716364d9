"""tilesim.triton: a Triton linear layout in the form Triton prints it, as a tilesim Layout, and priced.

DEFINITION. A Triton LinearLayout maps input dims (register, lane, warp, block for a distributed layout; offset,
block for a shared one) to output dims (dim0, dim1) linearly over GF(2): input value x is a sum of powers of
two, and its image is the XOR of the bases of its set bits. LinearLayout::toString() prints one basis per line,

     - offset=1 -> (0, 1)
       offset=2 -> (0, 2)
       ...
       offset=64 -> (1, 8)
     - block is a size 1 dimension
    where out dims are: [dim0 (size 8), dim1 (size 64)]

and the #ttg.linear attribute spells the same as `register = [[0, 1], ...], lane = [...], warp = [], block = []`;
parse() reads both. A SHARED layout (input dim `offset`) is inverted into a tilesim Layout: element (dim0, dim1)
-> the offset that holds it. A DISTRIBUTED layout says which lane holds which element: triton_price(distributed,
shared, arch) makes each warp's LDS instructions from it (lane l's vector of register group g is element
L(register=g, lane=l, warp=w); the vector is the widest run of registers along dim1 that is contiguous in the
shared layout, at most 16 bytes) and prices them in tilesim's bank model (`tilesim bank`).

WORKED EXAMPLE. The listing above with offset=128 -> (2, 16) and offset=256 -> (4, 32) added is Triton's
nvmma_shared 128-byte swizzle of an 8 x 64 fp16 tile: the same map as CuTe's Sw<3,3,3> o (8,64):(64,1) and
`tilesim layout cute-swizzle` (python/tests/test_bridges.py holds the three equal).

WHAT CANNOT BE EXPRESSED (NotExpressible, saying why): more than two output dims; a shared layout that is not
a bijection between offsets and elements (broadcast bases); a distributed layout over several CTAs (block
bases), or whose lanes are not exactly the architecture's wave; elements the shared layout does not hold.
"""
import re

import numpy as np

from . import _tilesim
from .cute import NotExpressible
from .layout import Layout

_BASIS = re.compile(r"^\s*(?:-\s*)?(\w+)\s*=\s*(\d+)\s*->\s*\(([^)]*)\)\s*$")
_SIZE1 = re.compile(r"^\s*-\s*(\w+) is a size 1 dimension\s*$")
_OUT = re.compile(r"where out dims are:\s*\[(.*)\]")
_OUT_DIM = re.compile(r"\s*(\w+)(?:\s*\(size\s*(\d+)\))?\s*")
_ATTR = re.compile(r"(\w+)\s*=\s*\[((?:\s*\[[^\]]*\]\s*,?)*)\s*\]")


def parse(text):
    """{"bases": {in_dim: [basis tuple per bit]}, "out_dims": [(name, size or None)]} of a printed layout."""
    if not isinstance(text, str):
        raise TypeError(f"triton: a layout text is a str (got {type(text).__name__})")
    bases, out_dims = {}, None
    if "->" not in text and _ATTR.search(text):  # #ttg.linear<{register = [[0, 1]], lane = [...], ...}>
        for name, body in _ATTR.findall(text):
            bases[name] = [tuple(int(v) for v in b.split(",") if v.strip()) for b in re.findall(r"\[([^\]]*)\]", body)]
    else:
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            if m := _OUT.search(line):
                out_dims = []
                for part in m.group(1).split(","):
                    d = _OUT_DIM.fullmatch(part)
                    if not d:
                        raise ValueError(f"triton: line {number}: cannot read the out dim {part.strip()!r}")
                    out_dims.append((d.group(1), int(d.group(2)) if d.group(2) else None))
            elif m := _SIZE1.match(line):
                bases.setdefault(m.group(1), [])
            elif m := _BASIS.match(line):
                name, value = m.group(1), int(m.group(2))
                got = bases.setdefault(name, [])
                if value != 1 << len(got):
                    raise ValueError(f"triton: line {number}: {name}={value} where {name}={1 << len(got)} was due")
                got.append(tuple(int(v) for v in m.group(3).split(",")))
            else:
                raise ValueError(f"triton: line {number}: cannot read {line.strip()!r} (expected 'DIM=2^k -> (a, b)', "
                                 f"'- DIM is a size 1 dimension' or 'where out dims are: [...]')")
    widths = {len(b) for bs in bases.values() for b in bs}
    if len(widths) > 1:
        raise ValueError(f"triton: bases of different lengths {sorted(widths)}")
    if not widths:
        raise ValueError("triton: no basis found in the text")
    n_out = widths.pop()
    if out_dims is None:
        out_dims = [(f"dim{i}", None) for i in range(n_out)]
    if len(out_dims) != n_out:
        raise ValueError(f"triton: {len(out_dims)} out dims named but the bases have {n_out} values")
    # A size not printed: the smallest power of two holding every reachable value (the OR of the bases).
    out_dims = [(name, size if size is not None else
                 1 << int(np.bitwise_or.reduce([0] + [b[i] for bs in bases.values() for b in bs])).bit_length())
                for i, (name, size) in enumerate(out_dims)]
    return {"bases": bases, "out_dims": out_dims}


def apply(parsed, **inputs):
    """Output coordinates (one array per out dim) of the inputs: apply(p, offset=np.arange(512))."""
    n_out = len(parsed["out_dims"])
    shape = np.broadcast_shapes(*(np.shape(v) for v in inputs.values()))
    out = [np.zeros(shape, dtype=np.int64) for _ in range(n_out)]
    for name, values in inputs.items():
        if name not in parsed["bases"]:
            raise ValueError(f"triton: the layout has no input dim {name!r} (it has {sorted(parsed['bases'])})")
        v = np.broadcast_to(np.asarray(values, dtype=np.int64), shape)
        bs = parsed["bases"][name]
        if (v < 0).any() or (v >= 1 << len(bs)).any():
            raise ValueError(f"triton: {name} values must be in [0, {1 << len(bs)})")
        for bit, basis in enumerate(bs):
            on = (v >> bit) & 1
            for i in range(n_out):
                out[i] ^= on * basis[i]
    return out


def _two_out_dims(p, what):
    if len(p["out_dims"]) != 2:
        raise NotExpressible(f"triton: {what} has {len(p['out_dims'])} out dims; a tilesim Layout is a rows x cols "
                             f"tile (dim0 x dim1)")


def triton(text, elem_bytes=2):
    """A Triton SHARED linear layout (input dim `offset`) as a tilesim Layout: element (dim0, dim1) -> offset."""
    p = parse(text)
    _two_out_dims(p, "the layout")
    if "offset" not in p["bases"]:
        raise NotExpressible("triton: this is not a shared-memory layout (no input dim 'offset'; it has "
                             f"{sorted(p['bases'])}): a distributed layout says which lane holds which element; "
                             "price it against a shared layout with triton_price(distributed, shared, arch)")
    for name, bs in p["bases"].items():
        if name != "offset" and bs:
            raise NotExpressible(f"triton: the shared layout has {len(bs)} bases in {name!r}: several CTAs' memory")
    (_, rows), (_, cols) = p["out_dims"]
    n = 1 << len(p["bases"]["offset"])
    offsets = np.arange(n, dtype=np.int64)
    d0, d1 = apply(p, offset=offsets)
    if n != rows * cols or (d0 >= rows).any() or (d1 >= cols).any():
        raise NotExpressible(f"triton: {n} offsets for a {rows} x {cols} tile: not a bijection of offsets and elements")
    table = np.full((rows, cols), -1, dtype=np.int64)
    table[d0, d1] = offsets
    if (table < 0).any():
        r, c = np.argwhere(table < 0)[0]
        raise NotExpressible(f"triton: no offset holds element ({r}, {c}): the bases are not independent (broadcast)")
    return Layout("triton shared", table, element_space=n, elem_bytes=elem_bytes, about=["Triton linear layout"])


def triton_price(distributed, shared, arch, op="load", elem_bytes=None):
    """Prices the LDS instructions a Triton DISTRIBUTED layout makes against `shared` (a tilesim Layout, e.g.
    from triton() or cute(), or a shared layout's text) on `arch`: {"wavefronts", "ideal", "max_ways", "vector",
    "instructions": [per instruction: "label", "width", "addresses" and `tilesim bank`'s numbers]}."""
    p = parse(distributed)
    _two_out_dims(p, "the distributed layout")
    if isinstance(shared, str):
        shared = triton(shared, elem_bytes=2 if elem_bytes is None else elem_bytes)
    eb = shared.elem_bytes if elem_bytes is None else int(elem_bytes)
    if p["bases"].get("block"):
        raise NotExpressible("triton: the distributed layout spans several CTAs (block bases): price one CTA's")
    wave = _tilesim.arch_info(arch)["wave_size"]
    lanes = 1 << len(p["bases"].get("lane", []))
    if lanes != wave:
        raise NotExpressible(f"triton: the layout has {lanes} lanes per warp; {arch}'s wave is {wave}")
    regs = p["bases"].get("register", [])
    warps = 1 << len(p["bases"].get("warp", []))
    lane = np.arange(wave)
    # The widest run of registers that walks dim1 by 1, 2, 4, ... and stays contiguous in shared memory.
    k = 0
    while k < len(regs) and tuple(regs[k]) == (0, 1 << k) and (eb << (k + 1)) <= 16:
        k += 1
    inputs = {"lane": lane}
    if "warp" in p["bases"]:
        inputs["warp"] = 0
    while k > 0:
        ok = True
        for w in range(warps):
            for g in range(0, 1 << len(regs), 1 << k):
                if "warp" in p["bases"]:
                    inputs["warp"] = w
                if regs:
                    inputs["register"] = g
                d0, d1 = apply(p, **inputs)
                if (d0 >= shared.rows).any() or (d1 + (1 << k) > shared.cols).any():
                    ok = False
                    break
                run = shared.offsets[d0[:, None], d1[:, None] + np.arange(1 << k)]
                if ((run - run[:, :1]) != np.arange(1 << k)).any() or (run[:, 0] % (1 << k)).any():
                    ok = False
                    break
            if not ok:
                break
        if ok:
            break
        k -= 1
    vec = 1 << k
    instructions, total, ideal, ways = [], 0, 0, 0
    for w in range(warps):
        for g in range(0, max(1, 1 << len(regs)), vec):
            if "warp" in p["bases"]:
                inputs["warp"] = w
            if regs:
                inputs["register"] = g
            d0, d1 = apply(p, **inputs)
            if (d0 >= shared.rows).any() or (d1 >= shared.cols).any():
                bad = int(np.argmax((d0 >= shared.rows) | (d1 >= shared.cols)))
                raise NotExpressible(f"triton: warp {w} lane {bad} register {g} holds element ({d0[bad]}, {d1[bad]}), "
                                     f"outside the {shared.rows} x {shared.cols} shared layout")
            addresses = shared.offsets[d0, d1] * eb
            c = _tilesim.lds_cost(arch, vec * eb, op, addresses, False)
            c.update(label=f"w{w}_r{g}", width=vec * eb, addresses=addresses.tolist())
            instructions.append(c)
            total, ideal, ways = total + c["wavefronts"], ideal + c["ideal"], max(ways, c["max_ways"])
    return {"wavefronts": total, "ideal": ideal, "max_ways": ways, "vector": vec, "instructions": instructions}
