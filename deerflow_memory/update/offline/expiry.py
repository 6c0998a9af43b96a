"""The offline extractor's expiry rule: a goal or plan that names a time frame ends with it.

"User plans a trip to Sanya next week" gets ``expiresAt`` = the Monday after
next week; "用户打算明年春节去三亚过年" ends a week after next year's Spring
Festival. Only goals and context facts are read this way: "Likes summer" is
a preference, not a plan. A date that comes back every year ("User's birthday
is March 3", "用户生日是5月20号", "born in May") and an age ("用户今年30岁")
are lasting facts, never given an end (an expired fact is removed). The phrase
parsing is
:func:`deerflow_memory.update.dates.expiry_for_text`.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from deerflow_memory.models import FactCategory, MemoryUpdate
from deerflow_memory.update.dates import expiry_for_text

__all__ = ["with_time_frames"]

_TIMED_CATEGORIES = frozenset({FactCategory.GOAL, FactCategory.CONTEXT})

# A fact that states a yearly date ("User's birthday is March 3", "用户生日是5月20号", "born
# in May"), unless of this or next one ("用户下个月生日"), or the user's age: not an event
# that mentions one ("a birthday dinner on Saturday", "带80岁的奶奶去三亚").
_YEARLY = re.compile(
    r"\b(?:birthday|anniversary)(?:'s| is| falls)\b|\bborn\b"
    r"|(?:生日|纪念日)(?:是|在)?[\d一二三四五六七八九十]|(?:号|日)出生|出生(?:于|在)",
    re.I,
)
_THIS_ONE = re.compile(
    r"\b(?:next|this|coming|upcoming)\b|下(?:个|周|星期)|这(?:个|周)|明年|今年", re.I
)
_AGE = re.compile(
    r"^(?:the )?user is (?:now )?\d{1,3} years old|^用户(?:今年|现在|已经)?\d{1,3}周?岁"
    r"|今年(?:已经)?(?:\d{1,3}|[一二三四五六七八九十]{1,4})周?岁",
    re.I,
)


def _lasting(text: str) -> bool:
    """A birthday, an anniversary or an age: true beyond any year it names."""
    return bool(_AGE.search(text) or (_YEARLY.search(text) and not _THIS_ONE.search(text)))


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
        if (
            fact.expires_at is None
            and fact.category in _TIMED_CATEGORIES
            and not _lasting(fact.content)
        ):
            expires = expiry_for_text(fact.content, now)
            if expires is not None:
                fact = fact.model_copy(update={"expires_at": expires})
                changed = True
        facts.append(fact)
    return update.model_copy(update={"new_facts": tuple(facts)}) if changed else update
