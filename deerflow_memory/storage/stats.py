"""Noise ratio (seed 001 §5.1): how much of a memory is used, and how much cleaning happened.

:func:`memory_stats` reads one document; :func:`storage_stats` every document
of a storage (the ``deerflow-memory stats`` command and the HTTP status route
call it). Figures per (user, agent):

- facts by category;
- facts never injected in the last ``window_days`` (30): no ``lastAccessedAt``
  in the window — the share of these is the noise ratio to watch;
- duplicates merged, facts expired, facts retired by staleness review, and
  candidates the judge dropped: running totals kept in the document
  (``hygiene``), so they survive the cap on ``supersededFacts``.

Read-only and pure apart from loading; a document that cannot be read is
reported with its error instead of failing the whole listing.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from deerflow_memory.arguments import expect, expect_document, expect_number, expect_text
from deerflow_memory.errors import InvalidNameError
from deerflow_memory.models import MemoryDocument, parse_timestamp
from deerflow_memory.storage.base import MemoryStorage

__all__ = ["MemoryStats", "memory_stats", "storage_stats"]

_DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class MemoryStats:
    """Hygiene figures of one memory document.

    Attributes:
        user_id: whose memory.
        agent_name: which agent's (``None``: the default agent).
        facts: current facts.
        by_category: current facts per category value.
        never_injected: current facts not injected within ``window_days``.
        never_injected_share: ``never_injected / facts`` (0.0 for no facts).
        window_days: the window of ``never_injected``.
        merged: near-duplicates merged into another fact (running total).
        expired: facts whose ``expiresAt`` passed (running total).
        retired: due facts the staleness review removed (running total).
        judged_out: candidate facts the judge dropped (running total).
        superseded: entries in ``supersededFacts`` now (capped history).
        error: why the document could not be read (other fields then zero).
    """

    user_id: str
    agent_name: str | None
    facts: int = 0
    by_category: dict[str, int] = field(default_factory=dict)
    never_injected: int = 0
    never_injected_share: float = 0.0
    window_days: float = 30.0
    merged: int = 0
    expired: int = 0
    retired: int = 0
    judged_out: int = 0
    superseded: int = 0
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping (snake_case keys)."""
        return asdict(self)


def _check_filters(
    user_id: object, agent_name: object, now: object, window_days: object, *, user_optional: bool
) -> None:
    expect_text(user_id, "user_id", InvalidNameError, optional=user_optional)
    expect_text(agent_name, "agent_name", InvalidNameError, optional=True)
    expect_number(now, "now", optional=True)
    expect_number(window_days, "window_days")


def memory_stats(
    document: MemoryDocument,
    *,
    user_id: str,
    agent_name: str | None = None,
    now: float | None = None,
    window_days: float = 30.0,
) -> MemoryStats:
    """The :class:`MemoryStats` of one document.

    Args:
        document: the stored document.
        user_id: reported as is.
        agent_name: reported as is.
        now: epoch seconds (default: the current time).
        window_days: a fact injected within this many days counts as used.

    Raises:
        InvalidDocumentError: ``document`` is not a :class:`MemoryDocument`.
        InvalidNameError: ``user_id`` or ``agent_name`` is not text.
        InvalidArgumentError: ``now`` or ``window_days`` is not a number.
    """
    expect_document(document)
    _check_filters(user_id, agent_name, now, window_days, user_optional=False)
    now = time.time() if now is None else now
    cutoff = now - window_days * _DAY
    unused = 0
    for fact in document.facts:
        accessed = parse_timestamp(fact.last_accessed_at)
        if accessed is None or accessed < cutoff:
            unused += 1
    counts = Counter(f.category.value for f in document.facts)
    hygiene = document.hygiene
    total = len(document.facts)
    return MemoryStats(
        user_id=user_id,
        agent_name=agent_name,
        facts=total,
        by_category=dict(sorted(counts.items())),
        never_injected=unused,
        never_injected_share=round(unused / total, 4) if total else 0.0,
        window_days=window_days,
        merged=hygiene.merged if hygiene else 0,
        expired=hygiene.expired if hygiene else 0,
        retired=hygiene.retired if hygiene else 0,
        judged_out=hygiene.judged_out if hygiene else 0,
        superseded=len(document.superseded_facts),
    )


def storage_stats(
    storage: MemoryStorage,
    *,
    user_id: str | None = None,
    agent_name: str | None = None,
    now: float | None = None,
    window_days: float = 30.0,
) -> list[MemoryStats]:
    """:func:`memory_stats` of every document in ``storage`` (or of one user), sorted by user.

    Args:
        storage: any memory storage.
        user_id: only this user's documents (every agent's; with ``agent_name``
            only that one).
        agent_name: only documents of this agent.
        now: epoch seconds (default: the current time).
        window_days: see :func:`memory_stats`.

    Returns:
        One entry per document :meth:`~MemoryStorage.list_documents` lists (what
        only a delete left is not one); an unreadable one carries ``error``.

    Raises:
        InvalidArgumentError: ``storage`` is not a :class:`MemoryStorage`, or
            ``now`` or ``window_days`` is not a number.
        InvalidNameError: ``user_id`` or ``agent_name`` is neither text nor None.
    """
    expect(storage, MemoryStorage, "storage", "a MemoryStorage")
    _check_filters(user_id, agent_name, now, window_days, user_optional=True)
    keys = sorted(storage.list_documents(), key=lambda k: (k[0], k[1] or ""))
    if user_id is not None:
        keys = [k for k in keys if k[0] == user_id]
    if agent_name is not None:
        keys = [k for k in keys if k[1] == agent_name]
    result = []
    for user, agent in keys:
        try:
            document = storage.load(user, agent)
        except Exception as e:  # one corrupt document must not hide the others
            result.append(MemoryStats(user, agent, error=f"{type(e).__name__}: {e}"))
            continue
        result.append(
            memory_stats(document, user_id=user, agent_name=agent, now=now, window_days=window_days)
        )
    return result
