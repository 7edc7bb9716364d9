"""docs/python.md is a notebook: its ```python blocks run in order in one namespace and must not fail."""
import pathlib
import re

PAGE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"


def python_blocks(text):
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_every_block_runs(tmp_path, monkeypatch):
    """LAW: every ```python block of docs/python.md runs, in order, in one namespace (files land in a scratch
    directory), and the page has the ten-line session the README points to."""
    blocks = python_blocks(PAGE.read_text())
    assert len(blocks) >= 3, "docs/python.md lost its blocks"
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "docs_python_md"}
    for i, block in enumerate(blocks):
        exec(compile(block, f"{PAGE}:block{i + 1}", "exec"), namespace)  # noqa: S102 (our own page)
