"""Two captures of one queue key as one conversation: the newer if it extends the older, else both.

The queue keeps one pending job per key ``(thread_id, user_id, agent_name)``.
A checkpointed thread's newer capture holds the whole history, so it can
simply replace the older one. Many compositions do not grow one history: a
graph without a checkpointer (every turn holds only its own messages, and
without a ``thread_id`` every turn has the key ``"unknown"``), a stateless
client sending only its newest message, ``Send`` fan-out branches sharing one
config. There the newer capture lacks the older one's messages, and replacing
would lose what the user said. :func:`merge_messages` keeps both.

Messages are compared by the updater's key (:func:`~deerflow_memory.update.incremental.message_key`:
the LangGraph id, else a hash of type, text and predecessor), so what the
union keeps once is what the updater sends once. A positional check runs
first: when the older capture is a prefix of the newer one (same objects, or
same id, type and text), nothing is hashed (the capture hot path).
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage

from deerflow_memory.update.incremental import message_key

__all__ = ["merge_messages"]


def _same(a: BaseMessage, b: BaseMessage) -> bool:
    """True when ``b`` is ``a`` as a later capture holds it (same id, type and text)."""
    if a is b:
        return True
    if a.id != b.id or a.type != b.type:
        return False
    # A tool result is never read by the updater: its id (or position) is enough.
    return a.type == "tool" or a.content == b.content


def _is_prefix(older: Sequence[BaseMessage], newer: Sequence[BaseMessage]) -> bool:
    if len(older) > len(newer):
        return False
    return all(_same(a, b) for a, b in zip(older, newer, strict=False))


def _keys(messages: Sequence[BaseMessage]) -> list[str]:
    keys = []
    previous: BaseMessage | None = None
    for message in messages:
        keys.append(message_key(message, previous))
        previous = message
    return keys


def merge_messages(
    older: Sequence[BaseMessage], newer: Sequence[BaseMessage]
) -> tuple[BaseMessage, ...]:
    """One conversation holding both captures of a key; ``newer`` itself when it holds ``older``.

    Returns ``newer`` unchanged when every message of ``older`` is in it (a
    growing history: the cheap replacement). Otherwise every message of both,
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
    position: dict[str, int] = {}
    for index, key in enumerate(_keys(new)):
        position.setdefault(key, index)
    merged: list[BaseMessage] = []
    taken = 0  # messages of ``new`` already in ``merged``
    lacking = False
    for message, key in zip(older, _keys(older), strict=True):
        at = position.get(key)
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
