"""What may be injected now: a document without its expired facts, cheap enough for every turn.

A fact whose ``expiresAt`` has passed (a goal "for next week", a plan "this
summer") is never injected, even before the next update moves it to
``supersededFacts``. :func:`live_document` answers from a per-document cache
(keyed on the frozen document object, held weakly): a document without any
``expiresAt`` costs one dictionary lookup and one comparison per turn, and
the same document object comes back, so the rendering cache keeps hitting.

An ``expiresAt`` that does not parse is treated as no expiry (the fact stays);
nothing here raises.
"""

from __future__ import annotations

import math
import threading
import weakref

from deerflow_memory.models import MemoryDocument, parse_timestamp

__all__ = ["live_document"]


class _Entry:
    __slots__ = ("doc", "expiries", "next_expiry", "view")

    def __init__(self, doc: MemoryDocument) -> None:
        self.doc = weakref.ref(doc)  # weak: the cache must not keep documents alive
        stamps = [parse_timestamp(f.expires_at) for f in doc.facts]
        self.expiries: tuple[float, ...] = tuple(math.inf if s is None else s for s in stamps)
        self.next_expiry = min(self.expiries, default=math.inf)
        # The filtered copy and the moments between which it is right (from the
        # last expiry it leaves out to the next one), set as one tuple so a thread
        # never pairs one call's copy with another call's moments.
        self.view: tuple[MemoryDocument, float, float] | None = None


_cache: dict[int, _Entry] = {}
_lock = threading.Lock()
_MAX_ENTRIES = 256


def _entry(doc: MemoryDocument) -> _Entry:
    entry = _cache.get(id(doc))
    if entry is not None and entry.doc() is doc:
        return entry
    entry = _Entry(doc)
    with _lock:
        if len(_cache) >= _MAX_ENTRIES:
            # Drop entries whose documents are gone, then the oldest if still full.
            for key in [k for k, e in _cache.items() if e.doc() is None]:
                del _cache[key]
            while len(_cache) >= _MAX_ENTRIES:
                del _cache[next(iter(_cache))]
        _cache[id(doc)] = entry
    return entry


def live_document(document: MemoryDocument, now: float) -> MemoryDocument:
    """``document`` without the facts expired at ``now`` (epoch seconds).

    Returns ``document`` itself when nothing has expired, and the same filtered
    object on repeated calls while no further fact expires.
    """
    entry = _entry(document)
    if now < entry.next_expiry:
        return document
    cached = entry.view
    if cached is not None and cached[1] <= now < cached[2]:
        return cached[0]
    expiries = entry.expiries
    kept = tuple(f for f, t in zip(document.facts, expiries, strict=True) if t > now)
    view = document.model_copy(update={"facts": kept})
    since = max((t for t in expiries if t <= now), default=-math.inf)
    entry.view = (view, since, min((t for t in expiries if t > now), default=math.inf))
    return view
