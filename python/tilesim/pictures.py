"""tilesim.pictures: the bank heat map of one instruction, as SVG (tilesim's own) or a matplotlib figure.

bank_svg(arch, width, op, addresses) is sim/report's heat map (phases x banks; a cell's number is the distinct
4-byte words that bank serves in that phase), the picture `tilesim run --svg` draws. plot_banks(...) draws the
same counts with matplotlib for a notebook; matplotlib is optional (an ImportError says so when it is missing).
"""
import numpy as np

from . import _tilesim


def bank_svg(arch, width, op, addresses, label="python"):
    """SVG text of the heat map; write it to a file or show it with IPython.display.SVG."""
    return _tilesim.bank_svg(arch, int(width), op, np.asarray(addresses, dtype=np.int64), label)


def bank_counts(arch, width, op, addresses):
    """phases x banks array: distinct words each bank serves in each counted phase (the heat map's numbers)."""
    d = _tilesim.lds_cost(arch, int(width), op, np.asarray(addresses, dtype=np.int64), True)
    return np.array([[len(words) for words in p["words"]] for p in d["phases"]], dtype=np.int64).reshape(-1, d["banks"])


def plot_banks(arch, width, op, addresses, ax=None, title=None):
    """A matplotlib heat map of bank_counts (needs matplotlib: apt-get install python3-matplotlib)."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError("tilesim.plot_banks needs matplotlib (Debian: python3-matplotlib); bank_svg needs nothing") from e
    counts = bank_counts(arch, width, op, addresses)
    if ax is None:
        _, ax = plt.subplots(figsize=(max(4, counts.shape[1] / 4), max(2, counts.shape[0] / 3)))
    image = ax.imshow(counts, cmap="Reds", vmin=0, aspect="auto")
    ax.set_xlabel("bank")
    ax.set_ylabel("phase")
    ax.set_title(title or f"{arch}: {width} B {op}, max {counts.max()}-way")
    ax.figure.colorbar(image, ax=ax, label="distinct words")
    return ax.figure
