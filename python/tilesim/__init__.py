"""tilesim from Python: layouts, bank pricing, synthesis and the simulator's reports (issue 37).

The engine is tilesim's C++ (spec/, sim/), reached through the extension module tilesim._tilesim; every
number here is the one the `tilesim` command prints for the same inputs (python/tests/ holds them equal).
docs/python.md is the guide; in short:

    import tilesim
    L = tilesim.cute("Sw<3,3,3> o (8,64):(64,1)")       # CuTe's printed notation (tilesim.cute says what is refused)
    L.offset(1, [0, 8]), L.is_bijective(), L.inverse(72)
    L.price("sm90", read="down-rows")                    # LDS wavefronts of a tile side under this layout
    tilesim.bank("sm90", 16, "load", addresses)          # one wave's lane addresses, per phase with detail=True
    best = tilesim.synth("gfx942", rows=128, cols=32, write="warp-raked", read="mfma")
    report = tilesim.run("copy", layout="ck-xor")        # `tilesim run copy --layout ck-xor --json` as a dict
"""
import json

import numpy as np

from . import _tilesim
from ._tilesim import UsageError
from .cute import NotExpressible, cute
from .layout import Layout
from .pictures import bank_svg, plot_banks
from .triton import triton, triton_price

__all__ = ["Layout", "NotExpressible", "UsageError", "arch_names", "arch_info", "bank", "bank_svg", "cute",
           "global_sectors", "layout", "layout_names", "tma_box", "plot_banks", "run", "synth", "triton", "triton_price"]


def arch_names():
    """['sm90', 'gfx90a', 'gfx942', 'gfx950']."""
    return [a.strip() for a in _tilesim.arch_names().split(",")]


def arch_info(arch):
    """{"name", "description", "wave_size", "banks", "bank_bytes"} of one architecture."""
    return _tilesim.arch_info(arch)


def layout_names():
    """The built-in layouts of `tilesim layout`: ['row-major', 'padded', 'ck-xor', 'cute-swizzle', 'morton']."""
    return _tilesim.layout_names().split()


def _option_args(options):
    """{"m_per_block": 64} -> ["--m-per-block", "64"]: keyword arguments as the command's options."""
    args = []
    for key, value in options.items():
        if isinstance(value, bool) or not isinstance(value, (int, np.integer, str)):
            raise UsageError(f"option {key}: {value!r} is not an integer or a word")
        args += ["--" + key.replace("_", "-"), str(value)]
    return args


def layout(name, **options):
    """A built-in layout exactly as `tilesim layout NAME --option VALUE...` builds it from spec/:
    layout("ck-xor", m_per_block=64, k_per_block=32, k_pack=8). Options are the command's, '-' spelled '_'
    (elem_bytes and banks included: ck-xor derives MLdsLayer from them)."""
    g = _tilesim.layout_grid(name, _option_args(options))
    return Layout(g["name"], g["offsets"], element_space=g["element_space"],
                  elem_bytes=options.get("elem_bytes", 2), about=g["about"])


_TMA_SWIZZLE = {"none": 0, "32B": 1, "64B": 2, "128B": 3}


def tma_box(rows, cols, elem_bytes=2, swizzle="128B"):
    """Where a Hopper TMA load (cp.async.bulk.tensor) puts each element of a rows x cols box, cols contiguous,
    with swizzle "none", "32B", "64B" or "128B" (spec/hopper/tma.hpp; the driver's rules checked): a Layout in
    elements. tma_box(8, 64) is CuTe's SW128 atom, Sw<3,4,3> on the bytes of fp16."""
    if swizzle not in _TMA_SWIZZLE:
        raise UsageError(f"tma_box: swizzle must be one of {', '.join(_TMA_SWIZZLE)} (got {swizzle!r})")
    table = _tilesim.tma_box(rows, cols, elem_bytes, _TMA_SWIZZLE[swizzle])
    return Layout(f"TMA box {rows} x {cols}, SWIZZLE_{swizzle.upper()}", table, element_space=rows * cols,
                  elem_bytes=elem_bytes, about=["spec/hopper/tma.hpp: tma_map::smem_offset"])


def bank(arch, width, op, addresses, detail=False):
    """One wave-level LDS instruction priced as `tilesim bank --arch ARCH --detail` prices its line: addresses
    are byte offsets, one per lane (-1 or 4294967295: inactive). Returns {"wavefronts", "cycles", "ideal",
    "excess", "max_ways" (= "n_way"), "passes", "bank_conflicts", "pipe_slots", ...}; detail=True adds "phases"
    (per phase: "lanes", "ways", "words" per bank)."""
    return _tilesim.lds_cost(arch, int(width), op, np.asarray(addresses, dtype=np.int64), detail)


def global_sectors(arch, width, op, addresses):
    """One global instruction's 32-byte sectors, as `tilesim global --detail` counts them."""
    return _tilesim.global_cost(arch, int(width), op, np.asarray(addresses, dtype=np.int64))


def synth(arch="gfx942", rows=128, cols=32, elem_bytes=2, write="warp-raked", read="default", threads=256,
          vector=0, family="all", budget=20000000):
    """`tilesim synth` (same options and defaults, '-' spelled '_') as a dict: what `--json` prints, plus
    result["layout"], the best layout as a tilesim.Layout, and result["certificate"], the XOR-linear
    analysis's verdict. write/read name built-in sides or are CK encodings' texts; family is a comma list."""
    families = family.split(",") if isinstance(family, str) else list(family)
    r = _tilesim.synth(arch, rows, cols, elem_bytes, write, read, threads, vector, families, budget)
    best = r["best"]
    r["layout"] = Layout(best["name"], best.pop("offsets"), element_space=best["element_space"],
                         elem_bytes=elem_bytes, about=[best["spec"]])
    return r


def run(program, check=True, svg=None, **options):
    """`tilesim run PROGRAM --option VALUE... --json` as a dict (docs/schema/run.schema.json): run("copy",
    layout="ck-xor")["totals"]. check=True raises RuntimeError when the program's result is wrong (the
    command's exit code 1); svg=PATH also writes the bank heat map of the worst LDS instruction."""
    args = [program] + _option_args(options)
    if svg is not None:
        args += ["--svg", str(svg)]
    code, text = _tilesim.run_json(args)
    report = json.loads(text)
    if check and code != 0:
        raise RuntimeError(f"tilesim run {' '.join(args)}: the program's result is wrong (exit {code})")
    return report
