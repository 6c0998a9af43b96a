"""The offline extractor's expiry rule: a goal or plan that names a time frame ends with it.

"User plans a trip to Sanya next week" gets ``expiresAt`` = the Monday after
next week; "用户打算明年春节去三亚过年" ends a week after next year's Spring
Festival. Only goals and context facts are read this way: "Likes summer" is
a preference, not a plan. The phrase parsing is
:func:`deerflow_memory.update.dates.expiry_for_text`.
"""

from __future__ import annotations

from datetime import UTC, datetime

from deerflow_memory.models import FactCategory, MemoryUpdate
from deerflow_memory.update.dates import expiry_for_text

__all__ = ["with_time_frames"]

_TIMED_CATEGORIES = frozenset({FactCategory.GOAL, FactCategory.CONTEXT})


def with_time_frames(update: MemoryUpdate, today: str) -> MemoryUpdate:
    """``update`` with ``expiresAt`` set on goals and context facts that name a time frame.

    Args:
        update: the offline extractor's update.
        today: ``YYYY-MM-DD`` the conversation happened; ``""`` leaves ``update`` as is.
    """
    if not today or not update.new_facts:
        return update
    try:
        now = datetime.fromisoformat(today[:10]).replace(tzinfo=UTC)
    except ValueError:
        return update
    facts = []
    changed = False
    for fact in update.new_facts:
        if fact.expires_at is None and fact.category in _TIMED_CATEGORIES:
            expires = expiry_for_text(fact.content, now)
            if expires is not None:
                fact = fact.model_copy(update={"expires_at": expires})
                changed = True
        facts.append(fact)
    return update.model_copy(update={"new_facts": tuple(facts)}) if changed else update
