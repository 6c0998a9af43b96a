"""Relevance ranking that survives a failing embedder: semantic when it works, lexical when not.

The embedder is a remote service in most deployments, so it will be down at
times. :func:`rank_facts` runs :func:`~deerflow_memory.inject.retrieval.select_relevant_facts`
with the semantic source (an embedder, or scores from a store's vector index)
and, when that raises :class:`~deerflow_memory.errors.EmbeddingError`, runs it
again without one: BM25 alone, the path a service without a model takes.
Guaranteed facts (constraints, guaranteed categories) come either way. The
error is returned so the caller can report it (the ``error`` of the
``memory_injection`` and ``memory_recall_end`` events).

:class:`FailureBurst` keeps the log readable while the embedder is down: one
WARNING when a burst of failures starts, one reminder every
``repeat_seconds`` while it lasts (with the count), and one INFO line when
the embedder answers again; never a line per turn.

How it fails: only :class:`EmbeddingError` is caught. Anything else (a bug)
propagates.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from deerflow_memory.errors import EmbeddingError
from deerflow_memory.inject.retrieval import RetrievalResult, select_relevant_facts
from deerflow_memory.inject.vectors import Embedder
from deerflow_memory.logs import package_logger
from deerflow_memory.models import MemoryDocument

__all__ = ["FailureBurst", "rank_facts"]

logger = package_logger(__name__)


class FailureBurst:
    """Logs a run of failures of one dependency once, not once per call. Thread-safe.

    Args:
        what: names the dependency in the log lines (e.g. ``"embedder"``).
        log: the logger to write to.
        repeat_seconds: while failing, log a reminder at most this often.
        clock: seconds, monotonic (for tests).
    """

    def __init__(
        self,
        what: str,
        log: logging.Logger = logger,
        *,
        repeat_seconds: float = 300.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what = what
        self._log = log
        self._repeat = repeat_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self.failures = 0
        """Failures since the last success (0 when healthy)."""
        self._logged_at = 0.0

    def failed(self, error: BaseException, action: str) -> None:
        """Count a failure; log it when it starts a burst or a reminder is due.

        Args:
            error: what failed.
            action: what is done instead (e.g. ``"ranking lexically"``).
        """
        now = self._clock()
        with self._lock:
            self.failures += 1
            count = self.failures
            due = count == 1 or now - self._logged_at >= self._repeat
            if due:
                self._logged_at = now
        if not due:
            return
        if count == 1:
            self._log.warning("%s failed, %s until it recovers: %s", self.what, action, error)
        else:
            self._log.warning(
                "%s still failing (%d times since it last worked), %s: %s",
                self.what,
                count,
                action,
                error,
            )

    def succeeded(self) -> None:
        """End a burst, if one is running (one INFO line); cheap when healthy."""
        if not self.failures:
            return
        with self._lock:
            count, self.failures = self.failures, 0
        if count:
            self._log.info("%s works again after %d failures", self.what, count)


def rank_facts(
    document: MemoryDocument,
    query: str,
    *,
    burst: FailureBurst,
    embedder: Embedder | None = None,
    semantic: Callable[[], Mapping[str, float] | None] | None = None,
    **options: Any,
) -> tuple[RetrievalResult, str | None]:
    """``select_relevant_facts`` with a semantic source, falling back to lexical on failure.

    Args:
        document: the user's memory document.
        query: the current request.
        burst: where failures are counted and logged.
        embedder: the embedding model, if any.
        semantic: called once for similarity by fact id from elsewhere (a
            store's vector index); used instead of ``embedder`` when it
            returns a mapping. May raise :class:`EmbeddingError`.
        options: the other keyword arguments of ``select_relevant_facts``.

    Returns:
        The selection, and ``None`` or the reason it is lexical only
        (``"embedding failed, ranked lexically: ..."``).
    """
    if not query.strip():  # nothing to rank: no embedding, no news about the embedder
        return select_relevant_facts(document, query, **options), None
    try:
        scores = semantic() if semantic is not None else None
        if embedder is None and scores is None:
            return select_relevant_facts(document, query, **options), None
        result = select_relevant_facts(
            document, query, embedder=embedder, semantic_scores=scores, **options
        )
    except EmbeddingError as e:
        burst.failed(e, "ranking memory lexically")
        lexical = select_relevant_facts(document, query, **options)
        return lexical, f"embedding failed, ranked lexically: {e}"
    burst.succeeded()
    return result, None
