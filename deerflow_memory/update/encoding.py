"""LangChain messages ⇄ JSON that every backend accepts (outbox records, dead letters).

:func:`encode_messages` is ``messages_to_dict`` made safe for any JSON writer
(``json`` for the file journal, ``orjson`` in ``SqliteStore``, ``jsonb`` in
Postgres): a captured turn may carry anything in ``additional_kwargs`` or
``response_metadata`` (bytes of an attachment, datetimes, UUIDs, Decimals,
sets) and text with lone surrogates or NUL characters, and one record that
cannot be written must never block the outbox. So, by :func:`json_safe`:

- text: lone surrogates and NUL become U+FFFD (neither UTF-8 nor ``jsonb`` can hold them);
- ``bytes``: base64 text; ``datetime``/``date``/``time``: ISO 8601; enums: their value;
- integers beyond 64 bits, NaN and infinities: their ``str`` form;
- sets and tuples: lists; mapping keys: strings;
- anything else: its ``str`` form (``repr`` if that fails); nesting deeper than
  :data:`MAX_DEPTH`: the text ``"<nested too deep>"``.

Message text and ids are kept as they are apart from those characters, so
the updater sees the same conversation after a restart.
"""

from __future__ import annotations

import base64
import datetime as dt
import enum
import json
import math
import re
import threading
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    FunctionMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    message_to_dict,
    messages_from_dict,
)

__all__ = [
    "MAX_DEPTH",
    "MessageEncoder",
    "decode_messages",
    "encode_messages",
    "json_safe",
    "writable_text",
]

MAX_DEPTH = 64
_UNWRITABLE = re.compile("[\x00\ud800-\udfff]")
_INT_RANGE = (-(2**63), 2**64 - 1)  # what orjson writes as a number


def writable_text(text: str) -> str:
    """``text`` with lone surrogates and NUL replaced by U+FFFD (``text`` itself if it has none)."""
    if "\x00" not in text:  # C-speed checks first: message keys read every message's text
        if text.isascii():
            return text
        try:
            text.encode()  # strict UTF-8 fails on surrogates and nothing else
        except UnicodeEncodeError:
            pass
        else:
            return text
    return _UNWRITABLE.sub("\ufffd", text)


def json_safe(value: Any, depth: int = 0) -> Any:
    """``value`` as plain JSON data any backend writes (see the module docstring); pure."""
    if isinstance(value, str):
        return writable_text(value)
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if _INT_RANGE[0] <= value <= _INT_RANGE[1] else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if depth >= MAX_DEPTH:
        return "<nested too deep>"
    if isinstance(value, Mapping):
        return {_key(k): json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [json_safe(v, depth + 1) for v in value]
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, enum.Enum):
        return json_safe(value.value, depth + 1)
    return writable_text(_text_of(value))


def _key(key: Any) -> str:
    return writable_text(key if isinstance(key, str) else _text_of(key))


def _text_of(value: Any) -> str:
    try:
        return str(value)
    except Exception:
        try:
            return repr(value)
        except Exception:
            return f"<{type(value).__name__}>"


# The ``type`` values ``messages_from_dict`` reads back, and the classes whose type an
# app's own subclass is written as (the first it derives from).
_READABLE = frozenset(
    {"human", "ai", "system", "chat", "function", "tool", "remove"}
    | {f"{kind}MessageChunk" for kind in ("AI", "Human", "Function", "Tool", "System", "Chat")}
)
_BASES = (HumanMessage, AIMessage, SystemMessage, ToolMessage, FunctionMessage, ChatMessage)


def _readable_dict(message: BaseMessage) -> dict[str, Any]:
    """``message_to_dict(message)``, written so that ``messages_from_dict`` reads it back."""
    return _readable(message, message_to_dict(message))


def _readable(message: BaseMessage, plain: dict[str, Any]) -> dict[str, Any]:
    """``plain`` (``message_to_dict(message)``) as ``messages_from_dict`` reads it back.

    An app's own message class has a ``type`` LangChain does not know: a
    subclass of ``HumanMessage`` (or another LangChain class) is written as that
    class, its fields kept; any other ``BaseMessage`` as a ``ChatMessage`` whose
    role is its type (the memory filter keeps neither more nor less of it).
    Written as it was, it could not be read back after a crash, and the whole
    captured turn would go with it. ``plain`` itself is left as it is.
    """
    if plain["type"] in _READABLE:
        return plain
    data = dict(plain["data"])
    for base in _BASES:
        if isinstance(message, base):
            kind = base.model_fields["type"].default
            data["type"] = kind
            return {"type": kind, "data": data}
    data["role"], data["type"] = plain["type"], "chat"
    return {"type": "chat", "data": data}


def encode_messages(messages: Sequence[BaseMessage]) -> list[Any]:
    """LangChain messages as JSON-safe dicts (``messages_to_dict``, then :func:`json_safe`).

    An app's own message class is written as the LangChain class it derives
    from (see :func:`_readable_dict`), so that :func:`decode_messages` reads it.
    """
    return [json_safe(_readable_dict(m)) for m in messages]


class _Encoded:
    __slots__ = ("fields", "message", "text", "value")

    def __init__(self, message: weakref.ref[BaseMessage], fields: Any, value: Any) -> None:
        self.message = message
        self.fields = fields  # the message's fields as dumped (message_to_dict's "data")
        self.value = value  # json_safe(_readable(message, dump))
        self.text: str | None = None  # its compact JSON, once asked for


class MessageEncoder:
    """:func:`encode_messages`, remembering the encoding of each live message object.

    A checkpointed thread hands the capture node its whole history on every
    turn, and the outbox writes the captured conversation each time: making
    20 messages JSON-safe and dumping them anew cost about 200 µs of the
    writer thread's CPU per turn. Here each message object's encoding is kept
    while the object lives (a weak reference: nothing is kept alive) and
    reused while the object's fields still equal what was dumped (a deep
    comparison in C): a message edited in place (its content list extended, a
    field set) is encoded afresh, so the journal always holds what the
    message says now.

    Args:
        max_entries: most message objects remembered (the oldest go first).

    Returns (on call):
        The same list as ``encode_messages(messages)``. Its items may be shared
        with earlier calls: never mutate them.
    """

    def __init__(self, max_entries: int = 8192) -> None:
        self._max_entries = max_entries
        self._entries: dict[int, _Encoded] = {}
        self._lock = threading.Lock()
        # Messages gone since: (id, reference), purged under the lock by the next
        # insert. The weak-reference callback may run inside the lock (a garbage
        # collection during an insert), so it only appends here.
        self._gone: list[tuple[int, weakref.ref[BaseMessage]]] = []

    def __call__(self, messages: Sequence[BaseMessage]) -> list[Any]:
        return [self._entry(message).value for message in messages]

    def json_texts(self, messages: Sequence[BaseMessage]) -> list[str]:
        """Each message's encoding as compact JSON text (``ensure_ascii=False``), remembered too."""
        texts = []
        for message in messages:
            entry = self._entry(message)
            text = entry.text
            if text is None:
                text = entry.text = json.dumps(
                    entry.value, ensure_ascii=False, separators=(",", ":")
                )
            texts.append(text)
        return texts

    def _entry(self, message: BaseMessage) -> _Encoded:
        entry = self._entries.get(id(message))
        if entry is not None and entry.message() is message and _same(entry.fields, message):
            return entry
        return self._remember(message)

    def _remember(self, message: BaseMessage) -> _Encoded:
        key = id(message)
        dump = message_to_dict(message)
        gone = self._gone

        def went(ref: weakref.ref[BaseMessage]) -> None:
            gone.append((key, ref))

        ref = weakref.ref(message, went)
        entry = _Encoded(ref, dump["data"], json_safe(_readable(message, dump)))
        if not _compared_by_value(dump["data"]):
            return entry  # an edit in place would not show against the dump: not kept
        entries = self._entries
        with self._lock:
            while gone:
                dead_key, dead_ref = gone.pop()
                found = entries.get(dead_key)
                if found is not None and found.message is dead_ref:  # not a reused id
                    del entries[dead_key]
            while len(entries) >= self._max_entries:
                del entries[next(iter(entries))]
            entries[key] = entry
        return entry


_VALUE_LEAVES = (str, int, float, bytes, type(None), dt.datetime, dt.date, dt.time, enum.Enum)


def _compared_by_value(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` (a message's dumped fields) holds only what the dump copied.

    ``model_dump`` copies dicts and lists but hands other objects over as they
    are (a ``bytearray``, an app's own object in ``additional_kwargs``): one
    edited in place would compare equal to itself in the dump, and the cached
    encoding would go stale. Messages holding such a value are not cached.
    """
    if isinstance(value, _VALUE_LEAVES):  # (bool is an int)
        return True
    if depth >= MAX_DEPTH:
        return False
    if isinstance(value, dict):
        return all(_compared_by_value(v, depth + 1) for v in value.values())
    if isinstance(value, list | tuple):
        return all(_compared_by_value(v, depth + 1) for v in value)
    return False


def _same(fields: Any, message: BaseMessage) -> bool:
    """Whether ``message``'s fields still equal ``fields`` (as dumped when it was encoded).

    A deep comparison in C that allocates nothing (a dump costs ~8x as much).
    A value whose ``==`` raises (an array or a tensor an app keeps in
    ``additional_kwargs``) or does not answer a bool counts as changed: the
    message is encoded afresh, as :func:`encode_messages` writes it.
    """
    try:
        return bool(fields == message.__dict__)
    except Exception:
        return False


def decode_messages(data: list[Any]) -> tuple[BaseMessage, ...]:
    """Inverse of :func:`encode_messages` (values made safe stay in their safe form)."""
    return tuple(messages_from_dict(data))
