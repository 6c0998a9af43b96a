"""Two captures of one queue key as one conversation: the newer if it extends the older, else both.

The queue keeps one pending job per key ``(thread_id, user_id, agent_name)``.
A checkpointed thread's newer capture holds the whole history, so it can
simply replace the older one. Many compositions do not grow one history: a
graph without a checkpointer (every turn holds only its own messages, and
without a ``thread_id`` every turn has the key ``"unknown"``), a stateless
client sending only its newest message, ``Send`` fan-out branches sharing one
config. There the newer capture lacks the older one's messages, and replacing
would lose what the user said. :func:`merge_messages` keeps both.

Messages are compared by what the updater's key is a digest of
(:func:`~deerflow_memory.update.incremental.identities`: the LangGraph
id, type and text, else type, text and predecessor's text; text as the outbox
stores it), so what the union keeps once is what the updater sends once, also
for a capture recovered from the outbox. A positional check runs first: when
the older capture is a prefix of the newer one (same objects, or same id, type
and text), no identity is built (the capture hot path). For a long
history that check samples positions (all of the last 24, 8 spread over the
rest) to stay within a few µs: a history rewritten *in place* in its older
part (same length, same ids at the sampled positions) counts as extended.
With LangGraph's ``add_messages`` a message keeps its position only when it
keeps its id (an edit), so that needs an edit of an old message, at an
unsampled position, while the thread's update is queued.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain
from typing import cast

from langchain_core.messages import BaseMessage, ToolMessage

from deerflow_memory.update.incremental import identities

__all__ = ["merge_messages"]


FULL_CHECK = 32
"""Captures of up to this many messages are compared position by position in full."""
TAIL_CHECK = 24
"""In a longer one, its last messages compared in full (where a new turn differs)..."""
SPREAD_CHECK = 8
"""...and this many positions spread over the rest."""


def _is_prefix(older: Sequence[BaseMessage], newer: Sequence[BaseMessage]) -> bool:
    """True when ``newer`` starts with ``older``'s messages (same objects, or same id, type, text).

    Costs a few µs whatever the length: a long ``older`` is compared at its
    last :data:`TAIL_CHECK` positions and :data:`SPREAD_CHECK` spread over the
    rest. A tool result (never read by the updater) is compared by id only.
    """
    n = len(older)
    if n > len(newer):
        return False
    positions: Iterable[int]
    if n <= FULL_CHECK:
        positions = range(n)
    else:
        cut = n - TAIL_CHECK
        positions = chain(range(0, cut, -(-cut // SPREAD_CHECK)), range(cut, n))
    for i in positions:
        a, b = older[i], newer[i]
        if a is b:
            continue
        if type(a) is not type(b) or a.id != b.id:
            return False
        if type(a) is not ToolMessage and a.content != b.content:
            return False
    return True


def _keys(messages: Sequence[BaseMessage]) -> list[tuple[object, object]]:
    """Each message's identity (equal exactly when its ``message_key`` is) and text identity.

    The text identity (type, text, predecessor's text, whatever the id) is None
    for block content. A client re-sending its whole history without ids (no
    checkpointer) gets new random ids from LangGraph on every run: the texts
    still say it is the same turn.
    """
    keys = cast(list[tuple[object, object]], identities(messages))  # edited in place
    texts = True  # this message's predecessor has string content
    for index, message in enumerate(messages):
        text = isinstance(message.content, str)
        if not (text and texts):
            keys[index] = (keys[index][0], None)
        texts = text
    return keys


def merge_messages(
    older: Sequence[BaseMessage], newer: Sequence[BaseMessage]
) -> tuple[BaseMessage, ...]:
    """One conversation holding both captures of a key; ``newer`` itself when it holds ``older``.

    Returns ``newer`` unchanged when every message of ``older`` is in it (a
    growing history: the cheap replacement; a message also counts as in it when
    ``newer`` has its type and text after the same predecessor text, as in a
    history re-sent with new ids). Otherwise every message of both,
    each once, keeping the order of each capture: a message of ``older`` that
    ``newer`` lacks stays where it was relative to the messages the two share
    (before them when it came before them), and ``newer``'s own messages keep
    their order. So two unrelated turns give ``older`` then ``newer``, and a
    summarization flush (the removed head of a thread) merged with the queued
    whole thread gives the thread in its order.

    Args:
        older, newer: LangChain messages, oldest first (any filtering is the
            updater's: tool and system messages are kept as they are).
    """
    new = tuple(newer)
    if not older or _is_prefix(older, new):
        return new
    position: dict[object, int] = {}
    for index, (key, text_key) in enumerate(_keys(new)):
        position.setdefault(key, index)
        if text_key is not None:
            position.setdefault(text_key, index)
    merged: list[BaseMessage] = []
    taken = 0  # messages of ``new`` already in ``merged``
    lacking = False
    for message, (key, text_key) in zip(older, _keys(older), strict=True):
        at = position.get(key)
        if at is None and text_key is not None:
            at = position.get(text_key)  # the same turn re-sent under another id
        if at is None:
            merged.append(message)
            lacking = True
        elif at >= taken:
            merged += new[taken : at + 1]
            taken = at + 1
    if not lacking:
        return new
    merged += new[taken:]
    return tuple(merged)
