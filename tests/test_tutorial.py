"""The tutorial notebook (docs/tutorial.ipynb) runs from top to bottom in a real kernel."""

from __future__ import annotations

import pytest

from .conftest import ROOT


def test_the_tutorial_notebook_runs() -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = nbformat.read(ROOT / "docs" / "tutorial.ipynb", as_version=4)
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT)}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs)
    assert "decoded and checked: sat | another solution: False" in text
    assert "28 steps, grade rule" in text
    # the last cell shows the puzzle itself: a notebook draws it as SVG
    assert "image/svg+xml" in notebook.cells[-1].outputs[-1].data
