"""tilesim.layout: a 2-D tile layout as an object: offsets, inverse, bijectivity, bank pricing.

DEFINITION. A Layout maps each element (row, col) of a rows x cols tile to an element offset in memory. It
holds the whole map as a rows x cols table (computed once by spec/ for the built-in layouts, by the CuTe or
Triton bridge for theirs), so offset() is one NumPy gather, vectorised over any arrays of rows and cols.

WORKED EXAMPLE. CuTe's Swizzle<3,3,3> on an 8 x 64 fp16 tile (`tilesim layout cute-swizzle`):
    >>> L = tilesim.layout("cute-swizzle")
    >>> L.offset(1, [0, 8])            # row 1's first two 8-element chunks swap
    array([72, 64])
    >>> L.inverse(72)                  # (row, col) arrays
    (array([1]), array([0]))
    >>> L.is_bijective()               # onto [0, 512)
    True
    >>> L.price("sm90", read="down-rows", threads=32)["wavefronts"]   # row-major 8 x 64: 32
    16

INVARIANTS. offsets has shape (rows, cols) and non-negative int64 values; is_bijective() is True exactly when
the values are a permutation of [0, element_space); inverse(offset(r, c)) == (r, c) for a bijective layout.
Pricing addresses byte offset * elem_bytes, as `tilesim synth` and `tilesim bank` do.
"""
import numpy as np

from . import _tilesim


class Layout:
    """A rows x cols tile's element offsets (see the module's essay)."""

    def __init__(self, name, offsets, element_space=None, elem_bytes=2, about=()):
        table = np.asarray(offsets, dtype=np.int64)
        if table.ndim != 2 or table.size == 0:
            raise ValueError(f"layout {name}: offsets must be a non-empty rows x cols table (got shape {table.shape})")
        if (table < 0).any():
            r, c = np.argwhere(table < 0)[0]
            raise ValueError(f"layout {name}: element ({r}, {c}) has a negative offset {table[r, c]}")
        self.name = name
        self.offsets = table
        self.offsets.setflags(write=False)
        self.element_space = int(element_space if element_space is not None else table.max() + 1)
        self.elem_bytes = int(elem_bytes)
        self.about = list(about)

    @property
    def shape(self):
        """(rows, cols)."""
        return self.offsets.shape

    @property
    def rows(self):
        return self.offsets.shape[0]

    @property
    def cols(self):
        return self.offsets.shape[1]

    def __repr__(self):
        return f"<tilesim.Layout {self.name}: {self.rows} x {self.cols}, element space {self.element_space}>"

    def offset(self, row, col):
        """Element offsets of (row, col), broadcast over arrays: L.offset([0, 1], 0) -> array([0, 72])."""
        r, c = np.broadcast_arrays(np.asarray(row), np.asarray(col))
        for what, v, n in (("row", r, self.rows), ("col", c, self.cols)):
            if not np.issubdtype(v.dtype, np.integer):
                raise ValueError(f"layout {self.name}: {what} must be integers (got dtype {v.dtype})")
            bad = (v < 0) | (v >= n)
            if bad.any():
                raise IndexError(f"layout {self.name}: {what} {v[bad].flat[0]} is outside [0, {n})")
        return self.offsets[r, c]

    __call__ = offset

    def is_bijective(self):
        """True when the offsets are each of [0, element_space) exactly once."""
        flat = np.sort(self.offsets, axis=None)
        return flat.size == self.element_space and bool((flat == np.arange(self.element_space)).all())

    def inverse(self, offsets):
        """(rows, cols) arrays of the elements stored at `offsets`; ValueError for an offset no element or
        more than one element has: L.inverse([72, 64]) -> (array([1, 1]), array([0, 8]))."""
        want = np.atleast_1d(np.asarray(offsets, dtype=np.int64))
        where = np.full(max(self.element_space, int(self.offsets.max()) + 1), -1, dtype=np.int64)
        flat = self.offsets.ravel()
        counts = np.bincount(flat, minlength=where.size)
        where[flat] = np.arange(flat.size)
        for o in want.ravel():
            if o < 0 or o >= where.size or counts[o] == 0:
                raise ValueError(f"layout {self.name}: no element is stored at offset {o}")
            if counts[o] > 1:
                raise ValueError(f"layout {self.name}: {counts[o]} elements are stored at offset {o}: not invertible")
        idx = where[want]
        return idx // self.cols, idx % self.cols

    def addresses(self, rows, cols):
        """Byte addresses offset(r, c) * elem_bytes (int64), e.g. one lane's element each."""
        return self.offset(rows, cols).astype(np.int64) * self.elem_bytes

    def price(self, arch, read="default", write=None, threads=256, vector=0):
        """Prices a tile side on `arch` under this layout: {"wavefronts", "ideal", "max_ways", "instructions",
        ...}; `read` (a load) or `write` (a store) names a built-in side (warp-raked, thread-raked, block-raked,
        down-rows, mfma, mfma16, ldmatrix; default: mfma on AMD, ldmatrix on sm90) or is a CK encoding's text.
        `tilesim synth` sums exactly these for each candidate layout."""
        if write is not None:
            side, op = write, "store"
        else:
            side, op = read, "load"
            if side == "default":
                side = "ldmatrix" if _tilesim.arch_info(arch)["wave_size"] == 32 else "mfma"
        return _tilesim.price_side(arch, self.rows, self.cols, self.elem_bytes, side, self.offsets, threads, vector, op)

    def svg(self, arch, read="default", write=None, threads=256, vector=0):
        """The bank heat map (SVG text) of the side's instruction with the most excess wavefronts under this
        layout, as `tilesim synth --svg` draws each side's worst instruction."""
        p = self.price(arch, read=read, write=write, threads=threads, vector=vector)
        if p["worst_instruction"] < 0:
            raise ValueError(f"layout {self.name}: the side {p['side']} has no instruction to draw")
        worst = p["instructions"][p["worst_instruction"]]
        op = "store" if write is not None else "load"
        label = f"{self.name}, {p['side']} '{worst['label']}'"
        return _tilesim.bank_svg(arch, worst["width"], op, np.asarray(worst["addresses"], dtype=np.int64), label)

    def banks(self, banks=32, bank_bytes=4):
        """Bank of each element: (offset * elem_bytes // bank_bytes) % banks, as `tilesim layout` prints it."""
        return (self.offsets * self.elem_bytes // bank_bytes) % banks
