"""Fixtures of the Python suite: the built `tilesim` binary ($TILESIM, set by python/meson.build's test), run
the way a user runs it, so every test can hold the module's answer equal to the command's."""
import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def cli():
    """cli(*args, input=None) -> CompletedProcess of `tilesim ARGS...` (text, never raising on its exit code)."""
    exe = os.environ.get("TILESIM")
    if not exe or not os.access(exe, os.X_OK):
        pytest.fail(f"$TILESIM must name the built tilesim binary (got {exe!r}); run the suite through meson test")

    def run(*args, input=None):
        return subprocess.run([exe, *map(str, args)], input=input, capture_output=True, text=True, timeout=120)

    return run
