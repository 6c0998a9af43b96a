"""The "add memory to your graph" notebook teaches the README's imports, not internal modules."""

from __future__ import annotations

import json
import re
from pathlib import Path

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "02_add_memory_to_your_graph.ipynb"


def test_notebook_02_imports_only_from_the_public_package() -> None:
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    assert "from deerflow_memory import" in code
    assert re.findall(r"(?:from|import) deerflow_memory\.\w+", code) == []
