"""The worked examples in the package's essays (the >>> lines of tilesim/layout.py) are doctests: they run."""
import doctest
import sys

import numpy as np

import tilesim


def test_layout_essay_runs():
    """LAW: every >>> line of tilesim/layout.py's essay prints what the essay says."""
    module = sys.modules["tilesim.layout"]  # the attribute tilesim.layout is the function layout()
    result = doctest.testmod(module, extraglobs={"tilesim": tilesim, "np": np}, verbose=False)
    assert result.attempted >= 5 and result.failed == 0
