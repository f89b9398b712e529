"""MkDocs hook: the tutorial page is built from the notebook (docs/tutorial.ipynb), its one
source, so the page and the notebook the test suite runs never differ."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def on_page_read_source(page: Any, config: Any) -> str | None:
    """tutorial.md's text: the notebook's Markdown cells as they are, its code cells as
    Python blocks."""
    if page.file.src_path != "tutorial.md":
        return None
    notebook = json.loads((Path(config["docs_dir"]) / "tutorial.ipynb").read_text())
    parts = []
    for cell in notebook["cells"]:
        text = "".join(cell["source"])
        parts.append(text if cell["cell_type"] == "markdown" else f"```python\n{text}\n```")
    return "\n\n".join(parts) + "\n"
