"""Incremental, bounded extraction: which messages an update sends, in how many calls.

Pure functions, no I/O:

- :func:`message_key` names a message (LangGraph id plus a digest of its
  text, else a content hash); :func:`with_keys` gives id-less messages an id
  that keys as that hash (and carries the digest it is checked against);
  :class:`ExtractedKeys` says which messages a watermark records (and which
  were edited since).
- :func:`select_new_messages` splits a thread at its :class:`ExtractionWatermark`:
  every message up to the newest already-extracted one is old; what follows is
  new. A short tail of old messages can go along as context. A history whose
  ids change on every run (re-sent whole, without a checkpointer) is split
  where its texts line up with the watermark's newest ones. A delete's fence
  (a :class:`Fence`) marks the messages it holds as old one by one; only a
  whole run of them stands for older messages before it (see :func:`_fence_cut`).
- :func:`plan_chunks` packs the new messages, oldest first, into chunks whose
  rendered text fits the conversation token budget; a single message larger
  than the budget is cut into consecutive parts. With ``max_parts``, a message
  needing more parts than that keeps its first ``max_parts`` and says, in its
  last part, how many characters were not sent (:attr:`Chunk.cut_chars`).
- :func:`cap_chunks` keeps at most ``max_calls`` chunks (never ending inside a
  split message); the rest is left out of the watermark, so the thread's next
  update sends it.
- :func:`advance_watermark` records a processed chunk, bounded: a thread
  keeps its newest :data:`MAX_KEYS_PER_THREAD` keys; the :data:`MAX_THREADS`
  most recently updated threads keep their watermark whole, the
  :data:`MAX_COMPACT_THREADS` before them a *compact* mark (their newest 2
  keys, :data:`COMPACT_KEYS` of id-less messages: enough for the boundary),
  and only threads older than all those are dropped (their next update sends
  their history again). A delete's sealed marks are never dropped.

Why compact marks: a user with hundreds of conversations reopening an old one
would otherwise have its whole history read again, and what it said then
("I live in Berlin") would override what a later thread taught ("Munich
now"); a delete could not fence it either. Why a bound still: with
36-character thread and message ids a compact mark costs about 290 bytes of
``memory.json`` (225 as a store's compact JSON; a whole watermark about
1,100), so a user of 2,200 threads or more carries about 0.8 MB of
watermarks (0.2 MB with whole ones only), which every full rewrite of the
document, and every save of a store backend, writes.

How one message is rendered is not decided here: a ``render`` callable is
passed in (default :func:`render_message`), so budgets are counted on exactly
the text the prompt will carry.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Callable, Container, Iterable, Sequence, Sized
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from deerflow_memory.caching import TextCache
from deerflow_memory.capture.messages import message_text
from deerflow_memory.models import ExtractionWatermark, MemoryDocument, replace_surrogates
from deerflow_memory.update.encoding import writable_text
from deerflow_memory.update.prompt import memory_for_prompt, render_message_for_update

__all__ = [
    "COMPACT_KEYS",
    "FENCE_RUN",
    "MAX_COMPACT_THREADS",
    "MAX_KEYS_PER_THREAD",
    "MAX_THREADS",
    "Chunk",
    "ExtractedKeys",
    "Fence",
    "advance_watermark",
    "as_fence",
    "budgeted_memory_text",
    "cap_chunks",
    "estimate_tokens",
    "identities",
    "key_id",
    "message_key",
    "plan_chunks",
    "render_message",
    "restore_keyed_ids",
    "select_new_indices",
    "select_new_messages",
    "watermark_for",
    "with_keys",
]

MAX_KEYS_PER_THREAD = 16
"""Keys a thread's watermark keeps (its newest)."""
MAX_THREADS = 200
"""Threads whose watermark is kept whole: the most recently updated ones."""
COMPACT_KEYS = 4
"""Keys a compact mark keeps at most: what the boundary rules read (see :func:`_compacted`)."""
MAX_COMPACT_THREADS = 2_000
"""Threads past :data:`MAX_THREADS` that keep a compact mark; older ones lose their mark."""
FENCE_RUN = MAX_KEYS_PER_THREAD // 2
"""Fenced messages in a row that stand for the older messages before them (a full fence)."""

Render = Callable[[BaseMessage], str]
CountTokens = Callable[[str], int]


def estimate_tokens(text: str) -> int:
    """Token estimate: UTF-8 bytes / 3 (a CJK character ≈ 1 token; English over-counted)."""
    return -(-len(text.encode("utf-8")) // 3)


def render_message(message: BaseMessage) -> str:
    """One message as the update prompt shows it (``User: "…"``), uncut; ``""`` if not shown."""
    return render_message_for_update(message, max_chars=10**9) or ""


_DIGEST = 12  # hex characters of the text digest in a key
_HASH = 22  # characters of an id-less message's key: "h:" + 20 hex
# The ids with_keys gives id-less messages: the key, "~" and the digest of the message's type
# and text. Such an id keys as its hash only while that digest is the message's own.
_KEYED_ID = re.compile(r"h:[0-9a-f]{20}~[0-9a-f]{12}")
# The ids versions before that gave (the bare hash; a client may send that shape too).
_HASH_ID = re.compile(r"h:[0-9a-f]{20}")


def _text(message: BaseMessage | None) -> str:
    # As the outbox and dead letters store it (NUL and lone surrogates as U+FFFD), so a
    # message keys the same live, after a restart and in a delete's fence.
    if message is None:
        return ""
    content = message.content
    if isinstance(content, str):
        if content.isascii() and "\x00" not in content:
            return content
        return _stored_text(content)  # the queue's merge reads a queued capture's again
    return writable_text(message_text(message))


# message_text of string content, as stored; non-ASCII texts need two UTF-8 encodes.
_stored_text = TextCache(
    lambda text: writable_text(replace_surrogates(text)), max_entries=4096, max_chars=2_000_000
)


def identities(messages: Sequence[BaseMessage]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each message's (identity, text identity), after its predecessor in ``messages``.

    The identity is what :func:`message_key` is a digest of: ``(id, type,
    text)`` for a message with an id (whatever its shape: a client's ``"h:…"``
    id is not trusted as a hash), else its text identity ``("", type, text,
    predecessor's text)`` (which a turn re-sent under new ids keeps); text as
    the outbox stores it. Comparing identities (the queue's merge of two
    captures) is the same test as comparing keys, without a SHA-256 per
    message. (An id :func:`with_keys` gave keys as the hash it names; such ids
    never reach a capture, and equal identities still give equal keys.)

    Reads each message's text once, :func:`_text` inlined: the merge runs this
    on the capture path.
    """
    found: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    append = found.append
    before = ""
    for message in messages:
        content = message.content
        if type(content) is not str:
            text = _text(message)
        elif content.isascii() and "\x00" not in content:
            text = content
        else:
            text = _stored_text(content)
        kind = message.type
        as_text = ("", kind, text, before)
        ident = message.id
        if ident:
            if type(ident) is not str:
                ident = str(ident)
            append(((ident, kind, text), as_text))
        else:
            append((as_text, as_text))
        before = text
    return found


def message_key(message: BaseMessage, previous: BaseMessage | None = None) -> str:
    """``{id}~{digest}``, else ``h:`` + a hash of its type and text and of ``previous``'s text.

    The digest (of the message's type and text) makes a message edited in place
    (same id, see ``update_state``) or an id a client reuses in a later session
    ("1", "2", … again) a new message. An id-less message hashes its
    predecessor too, which keeps two equal texts apart ("Noted." after two
    different user turns). :func:`with_keys` gives it the id ``{hash}~{digest}``,
    which keys as ``{hash}`` while the digest is the message's own: a client's
    id of any shape (``"h:…"`` included), or a keyed message whose text changed,
    gets its digest like any other id. Keys are stable across restarts. Bare
    ids, the keys of versions before the digest, still match (see
    :class:`ExtractedKeys`).
    """
    ident = message.id
    if not ident:
        named = f"{message.type}\x1f{_text(message)}\x1f{_text(previous)}"
        return "h:" + hashlib.sha256(named.encode()).hexdigest()[:20]
    ident = str(ident)
    key = f"{ident}~{_digest(message)}"
    if (
        ident[:2] == "h:"
        and _KEYED_ID.fullmatch(ident) is not None
        and key[-_DIGEST - 1 :] == (ident[_HASH:])
    ):
        return ident[:_HASH]  # a with_keys id of this very text: the hash it names
    return key


def _digest(message: BaseMessage) -> str:
    named = f"{message.type}\x1f{_text(message)}"
    return hashlib.sha256(named.encode()).hexdigest()[:_DIGEST]


_HEX = frozenset("0123456789abcdef")


def _split_key(key: str) -> tuple[str, str] | None:
    ident, sep, digest = key.rpartition("~")
    if sep and len(digest) == _DIGEST and _HEX.issuperset(digest):
        return ident, digest
    return None


def key_id(key: str) -> str:
    """The message id a :func:`message_key` names (the key itself for an id-less message)."""
    parts = _split_key(key)
    return parts[0] if parts else key


@runtime_checkable
class Fence(Protocol):
    """What a delete fenced of one thread (see :mod:`~deerflow_memory.update.sealing`).

    ``key in fence``: the message of that :func:`message_key` (its id *and*
    text) was said before the delete. ``holds_id(id)``: a message with that
    id was (with whatever text). ``full``: older messages of the thread may
    have fallen off the fence (it holds as many keys as a thread keeps,
    :data:`MAX_KEYS_PER_THREAD`, or it fenced a compact mark). ``run``: for a
    full fence, how many fenced messages in a row stand for the older ones
    before them (:data:`FENCE_RUN`, fewer for a fence of fewer keys).
    """

    @property
    def full(self) -> bool: ...

    @property
    def run(self) -> int: ...

    def __contains__(self, key: object, /) -> bool: ...

    def holds_id(self, ident: str) -> bool: ...


class _KeyFence:
    """A :class:`Fence` of plain message keys (any container; ids read from the keys)."""

    __slots__ = ("_ids", "_keys", "full", "run")

    def __init__(self, keys: Container[str]) -> None:
        self._keys = keys
        self._ids: set[str] | None = None
        # A container that cannot say its size may have lost keys: count it as full.
        self.full = not isinstance(keys, Sized) or len(keys) >= MAX_KEYS_PER_THREAD
        self.run = FENCE_RUN

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def holds_id(self, ident: str) -> bool:
        if self._ids is None:
            found = self._keys if isinstance(self._keys, Iterable) else ()
            self._ids = {parts[0] for key in found if (parts := _split_key(key)) is not None}
        return ident in self._ids


def as_fence(fenced: Container[str] | None) -> Fence | None:
    """``fenced`` as a :class:`Fence` (a plain container of keys is wrapped), or None."""
    if fenced is None or isinstance(fenced, Fence):
        return fenced
    return _KeyFence(fenced)


class ExtractedKeys:
    """The messages a watermark (and a delete's fence) records as extracted.

    A message is extracted when its key is recorded, or, for keys written
    before keys carried a digest (bare ids), when its id is. A message whose
    id is recorded (or fenced) with another digest was *edited* (or its id
    reused): it is new although it sits before the boundary.

    A bare key shaped ``h:`` + 20 hex is a content hash, never a bare id.
    Versions before keys stopped trusting that shape recorded a client's
    ``"h:…"`` ids bare: such a message is sent to the model once more after
    the upgrade (its key then carries its digest). Matching the bare key as an
    old id instead would take a later message reusing that id, with other
    text, as extracted, and it would never be learned.

    Args:
        keys: the watermark's keys.
        fenced: what a delete fenced of the thread (a :class:`Fence`, or any
            container of its keys), or None.
    """

    __slots__ = ("_fenced", "_ids", "_keys", "_legacy")

    def __init__(self, keys: Iterable[str], fenced: Container[str] | None = None) -> None:
        self._keys = set(keys)
        self._fenced = as_fence(fenced)
        self._ids: set[str] = set()  # the id part of digest keys
        self._legacy: set[str] = set()  # bare ids
        for key in self._keys:
            parts = _split_key(key)
            if parts is not None:
                self._ids.add(parts[0])
            elif not key.startswith("h:"):
                self._legacy.add(key)

    def recorded(self, message: BaseMessage, key: str | None = None) -> bool:
        """True when the watermark (not the fence) records ``message`` as it reads now."""
        if key is None:
            key = message_key(message)
        return key in self._keys or (bool(self._legacy) and str(message.id) in self._legacy)

    def has(self, message: BaseMessage, key: str | None = None) -> bool:
        """True when ``message`` as it reads now was extracted or fenced (``key``: its key)."""
        if key is None:
            key = message_key(message)
        return self.recorded(message, key) or (self._fenced is not None and key in self._fenced)

    def edited(
        self, message: BaseMessage, key: str | None = None, *, fenced_ids: bool = True
    ) -> bool:
        """True when a message with ``message``'s id was extracted or fenced with another text.

        ``fenced_ids`` False: the watermark's ids only (below the watermark's
        own boundary, where the fence cuts nothing off).
        """
        if not message.id:
            return False
        ident = str(message.id)
        known = ident in self._ids or (
            fenced_ids and self._fenced is not None and self._fenced.holds_id(ident)
        )
        return known and not self.has(message, key)


def with_keys(messages: Sequence[BaseMessage]) -> tuple[list[BaseMessage], list[str]]:
    """``messages`` with every id-less message given an id that keys as its hash, and their keys.

    The id is ``{message_key}~{digest of its type and text}`` (on a copy):
    :func:`message_key` of the copy is the id-less message's key (after its
    predecessor here), which watermarks and fences record.

    Returns:
        (the messages, each one's :func:`message_key`, in order). The keys
        are hashed here once: pass them on (``keys=`` of
        :func:`select_new_messages`, :func:`select_new_indices`,
        :func:`plan_chunks`) rather than keying the copies again.
    """
    keyed: list[BaseMessage] = []
    keys: list[str] = []
    previous: BaseMessage | None = None
    for message in messages:
        if message.id:
            key = message_key(message)
        else:
            key = message_key(message, previous)
            message = message.model_copy(update={"id": f"{key}~{_digest(message)}"})
        keyed.append(message)
        keys.append(key)
        previous = message
    return keyed, keys


def restore_keyed_ids(messages: Sequence[BaseMessage], keys: Sequence[str]) -> list[BaseMessage]:
    """``messages`` (copies where changed) with the bare ``h:`` ids older versions gave keyed.

    For dead letters written before letters said what their ids are
    (``DeadLetter.message_ids_are`` None); a letter that says so is read as
    it says, never by this guess. Before :func:`with_keys` ids carried their
    digest, a keyed message's id was its bare hash, and a dead letter stored
    it so, with each message's key in ``keys``. Only such a letter is changed:
    every message's recorded key is its bare ``h:`` id or its
    :func:`message_key`. Its bare ``h:`` ids then get the form :func:`with_keys`
    gives now, so they keep their keys. Otherwise (a letter of raw ids, written
    from the outbox; ids that do not line up) an ``"h:…"`` id stays a client's
    id and ``messages`` are returned as they are. (An old outbox letter whose
    every id is hash-shaped is indistinguishable from a letter of keys: it is
    read as one, as those versions read it.)
    """
    if len(keys) != len(messages):
        return list(messages)
    bare = []
    for message, key in zip(messages, keys, strict=True):
        ident = message.id
        if isinstance(ident, str) and ident == key and _HASH_ID.fullmatch(ident):
            bare.append(True)
        elif key and message_key(message) == key:
            bare.append(False)
        else:
            return list(messages)  # not a letter of keys
    return [
        m.model_copy(update={"id": f"{m.id}~{_digest(m)}"}) if was_bare else m
        for m, was_bare in zip(messages, bare, strict=True)
    ]


def watermark_for(document: MemoryDocument, thread_id: str) -> ExtractionWatermark | None:
    """The (plain, not sealed) watermark of ``thread_id`` in ``document``, if any."""
    for mark in document.extraction_watermarks:
        if mark.thread_id == thread_id and not mark.sealed:
            return mark
    return None


def select_new_messages(
    messages: Sequence[BaseMessage],
    watermark: ExtractionWatermark | None,
    *,
    context_messages: int = 1,
    fenced: Container[str] | None = None,
    keys: Sequence[str] | None = None,
) -> tuple[list[BaseMessage], list[BaseMessage]]:
    """Split filtered ``messages`` into (already-extracted context tail, new messages).

    The newest message the watermark records (see :class:`ExtractedKeys`)
    marks the boundary: what follows it is new, and so is a message before it
    that was edited since (same id, other text). When none of them is in
    ``messages`` (no watermark, or the history was rewritten), every message
    is new. New messages keep their order. ``keys``: each message's
    :func:`message_key` when known (as :func:`with_keys` returns them).

    ``fenced`` (what a delete fenced of the thread, see
    :mod:`~deerflow_memory.update.sealing`; a :class:`Fence` or a container of
    keys) marks each message it holds as old, by its key (id and text), and
    only that message: a client numbering each session's messages from "1"
    again, or a session repeating old lines word for word, says something new
    around them. Only a whole run of fenced messages (see :func:`_fence_cut`)
    is a boundary too.
    """
    context, new = select_new_indices(
        messages, watermark, context_messages=context_messages, fenced=fenced, keys=keys
    )
    return [messages[i] for i in context], [messages[i] for i in new]


def select_new_indices(
    messages: Sequence[BaseMessage],
    watermark: ExtractionWatermark | None,
    *,
    context_messages: int = 1,
    fenced: Container[str] | None = None,
    keys: Sequence[str] | None = None,
) -> tuple[list[int], list[int]]:
    """:func:`select_new_messages` as positions in ``messages``: (context, new).

    Raises:
        ValueError: ``keys`` given, but not one per message.
    """
    if keys is not None and len(keys) != len(messages):
        raise ValueError(f"{len(keys)} keys for {len(messages)} messages")
    if fenced is None and (watermark is None or not watermark.message_keys):
        return [], list(range(len(messages)))
    if keys is None:
        keys = [message_key(m) for m in messages]  # each hashed once
    fence = as_fence(fenced)
    recorded = watermark.message_keys if watermark else ()
    done = ExtractedKeys(recorded, fence)
    where = {key: j for j, key in enumerate(recorded)}  # a watermark holds each key once
    boundary = -1
    for i in range(len(messages) - 1, -1, -1):
        if done.recorded(messages[i], keys[i]) and _follows_record(keys, i, recorded, where, fence):
            boundary = i
            break
    if boundary < 0 and watermark is not None:
        boundary = _aligned(keys, watermark.message_keys)
    cut = -1  # where a run of a full fence ends, when after the watermark's boundary
    if fence is not None and fence.full:
        cut = _fence_cut(keys, fence, start=max(0, boundary + 2 - fence.run))
        boundary = max(boundary, cut)
    # An id the list holds more than once (a caller's own numbering) says nothing of edits.
    counts = Counter(str(m.id) for m in messages if m.id)
    edited = {
        i
        for i in range(boundary + 1)
        if counts[str(messages[i].id)] == 1
        and done.edited(messages[i], keys[i], fenced_ids=i <= cut)
    }
    new = sorted(edited) + [
        i for i in range(boundary + 1, len(messages)) if not done.has(messages[i], keys[i])
    ]
    start = max(0, boundary + 1 - context_messages)
    context = [i for i in range(start, boundary + 1) if i not in edited]
    return context, new


_ALIGN = COMPACT_KEYS  # at most this many recorded messages must match in a row


def _fence_cut(keys: Sequence[str], fence: Fence, start: int = 0) -> int:
    """The end of the last run of ``fence.run`` or more fenced ``keys[start:]``; -1: none.

    A fence keeps a thread's newest :data:`MAX_KEYS_PER_THREAD` keys (a
    compact mark's fence its newest :data:`COMPACT_KEYS`): of a longer
    thread, the messages before them were said before the delete too, but
    the fence cannot name them. A history that goes on from the fenced one
    holds the fenced messages in a row, right after those older ones, so the
    end of such a run is where what was said before the delete ends. Called
    only for a full fence (else it holds every key it was given, and each
    fenced message is old on its own). Fewer fenced messages in a row (a new
    session whose numbering restarts, lines repeated word for word) stand
    only for themselves: what comes before them is learned. (A compact mark's
    fence needs all its few keys in a row: a thread reopened after hundreds
    of newer ones repeating them, ids and texts, is taken as going on.)
    """
    run = fence.run
    i = len(keys) - 1
    while i >= start:  # from the newest: a history going on from the fence ends soon after it
        if keys[i] not in fence:
            i -= 1
            continue
        first = i
        while first > start and keys[first - 1] in fence:
            first -= 1
        if i - first + 1 >= run:
            return i
        i = first - 2  # keys[first - 1] is not fenced
    return -1


def _follows_record(
    keys: Sequence[str],
    i: int,
    recorded: Sequence[str],
    where: dict[str, int],
    fenced: Fence | None,
) -> bool:
    """Whether ``keys[i]``, a recorded key, can end what was extracted.

    A message without an id keys as a hash of its text and its predecessor's,
    so an exchange said again later ("thanks" / "You're welcome") keys as the
    recorded one. Taken for the boundary, it would make every turn before it
    look extracted, and those words would never be learned. So a content-hash
    key counts only when each message before it (up to :data:`_ALIGN` in all)
    carries the key recorded at that distance before it, or, past the oldest
    key recorded, a key the fence holds (a fence has no order): the turn after
    a delete starts a watermark whose first keys have only fenced messages
    before them. The oldest key a full watermark kept, with nothing recorded
    or fenced before it, does not count.
    Ids count as they are: an id names one message.
    """
    key = keys[i]
    if not key.startswith("h:") or "~" in key:
        return True
    j = where.get(key, -1)
    for d in range(1, min(_ALIGN, i + 1)):
        if d <= j:
            if keys[i - d] != recorded[j - d]:
                return False
        elif fenced is None or keys[i - d] not in fenced:
            return False  # nothing recorded this far back: only the fence can vouch for it
    return True


def _aligned(message_keys: Sequence[str], keys: Sequence[str]) -> int:
    """Where the watermark's ``keys`` end in a history (its ``message_keys``), by text; -1 if not.

    For a thread whose messages get new ids on every run: LangGraph gives
    id-less input messages random ids, so a client that re-sends the whole
    history without a checkpointer matches no key, and each update would
    send everything again. The watermark's last (up to :data:`_ALIGN`, at
    least 2) digest keys must match consecutive messages' digests. The
    *earliest* such run wins: the true one is never before it, so a later
    turn repeating those texts makes the update send more, never skip a
    message.
    """
    tail: list[str] = []
    for key in reversed(keys):
        parts = _split_key(key)
        if parts is None:
            break
        tail.append(parts[1])
        if len(tail) == _ALIGN:
            break
    if len(tail) < 2:
        return -1
    tail.reverse()
    digests = [_split_key(key) for key in message_keys]
    width = len(tail)
    for end in range(width - 1, len(digests)):
        window = digests[end - width + 1 : end + 1]
        if all(d is not None and d[1] == t for d, t in zip(window, tail, strict=True)):
            return end
    return -1


@dataclass(frozen=True, slots=True)
class Chunk:
    """Messages for one model call, their rendered tokens, and the keys it completes.

    ``completes`` holds the keys of messages fully sent once this chunk is saved
    (a message cut into parts completes with its last part).
    """

    messages: tuple[BaseMessage, ...]
    tokens: int
    completes: tuple[str, ...]
    partial: bool = False
    """A part of a split message that is not its last (the message completes later)."""
    cut_chars: int = 0
    """Characters of a split message that were not sent (over ``max_parts``)."""


def plan_chunks(
    messages: Sequence[BaseMessage],
    budget_tokens: int,
    *,
    render: Render = render_message,
    count_tokens: CountTokens = estimate_tokens,
    max_parts: int | None = None,
    keys: Sequence[str] | None = None,
) -> list[Chunk]:
    """Pack ``messages`` (oldest first) into chunks of at most ``budget_tokens`` rendered tokens.

    Rendered lines are joined by a newline (counted). A message over the
    budget on its own is cut into parts of its text, each its own chunk; with
    ``max_parts``, only its first ``max_parts`` parts are kept, the last one
    saying how much was cut (``Chunk.cut_chars``). ``keys``: each message's
    :func:`message_key` when known (else computed here).

    Raises:
        ValueError: ``budget_tokens`` < 16, or ``keys`` not one per message.
    """
    if budget_tokens < 16:
        raise ValueError(f"budget_tokens must be at least 16, got {budget_tokens}")
    if keys is None:
        keys = [message_key(m) for m in messages]
    elif len(keys) != len(messages):
        raise ValueError(f"{len(keys)} keys for {len(messages)} messages")
    chunks: list[Chunk] = []
    current: list[BaseMessage] = []
    done: list[str] = []  # completed by the chunk being built (invisible messages too)
    used = 0
    for message, key in zip(messages, keys, strict=True):
        text = render(message)
        if not text:
            done.append(key)  # nothing to show, but processed with its neighbours
            continue
        tokens = count_tokens(text) + (1 if current else 0)  # the "\n" between lines
        if current and used + tokens > budget_tokens:
            chunks.append(Chunk(tuple(current), used, tuple(done)))
            current, done, used = [], [], 0
            tokens = count_tokens(text)
        if tokens > budget_tokens:
            parts = _split(message, key, budget_tokens, render, count_tokens)
            cut = 0
            if max_parts is not None and len(parts) > max_parts:
                parts, cut = _cut(message, parts[:max_parts], render, count_tokens)
            final = len(parts) - 1
            for i, (part, part_tokens) in enumerate(parts):
                completes = (*done, key) if i == final else ()
                cut_here = cut if i == final else 0
                chunks.append(Chunk((part,), part_tokens, completes, i < final, cut_here))
            done = []
            continue
        current.append(message)
        done.append(key)
        used += tokens
    if current or not chunks:
        if current or done:
            chunks.append(Chunk(tuple(current), used, tuple(done)))
    elif done:  # trailing invisible messages ride on the last chunk
        last = chunks[-1]
        chunks[-1] = Chunk(last.messages, last.tokens, (*last.completes, *done))
    return chunks


def _split(
    message: BaseMessage, key: str, budget: int, render: Render, count_tokens: CountTokens
) -> list[tuple[BaseMessage, int]]:
    """Cut one message's text into consecutive parts that each render within ``budget``."""
    text = message_text(message)
    kind = HumanMessage if isinstance(message, HumanMessage) else AIMessage
    pieces = max(2, math.ceil(count_tokens(render(message)) / budget))
    while True:
        size = math.ceil(len(text) / pieces)
        parts: list[tuple[BaseMessage, int]] = []
        for i in range(pieces):
            piece = text[i * size : (i + 1) * size]
            if not piece:
                continue
            label = f"[part {i + 1}/{pieces} of one long message] "
            part = kind(content=label + piece, id=f"{key}#part{i + 1}")
            parts.append((part, count_tokens(render(part))))
        if all(tokens <= budget for _, tokens in parts) or size <= 1:
            return parts
        pieces = math.ceil(pieces * 1.25) + 1


def _cut(
    message: BaseMessage,
    kept: list[tuple[BaseMessage, int]],
    render: Render,
    count_tokens: CountTokens,
) -> tuple[list[tuple[BaseMessage, int]], int]:
    """``kept`` parts with the last one saying the rest was cut; returns (parts, chars cut)."""
    last, _ = kept[-1]
    label, _, piece = message_text(last).partition("] ")
    # Characters of the message not carried by the parts before the last one.
    rest = len(message_text(message)) - sum(
        len(message_text(m).partition("] ")[2]) for m, _ in kept[:-1]
    )
    # Shorten the last piece to leave room for the note (and its longer count) in the label.
    room = len(_cut_note(rest - len(piece))) + 8
    piece = piece[: max(0, len(piece) - room)]
    cut = rest - len(piece)
    text = f"{label}{_cut_note(cut)}] {piece}"
    part = type(last)(content=text, id=last.id)
    return [*kept[:-1], (part, count_tokens(render(part)))], cut


def _cut_note(cut: int) -> str:
    return f"; cut here, the last {cut:,} characters were not sent"


def cap_chunks(chunks: Sequence[Chunk], max_calls: int) -> tuple[list[Chunk], int]:
    """The first ``max_calls`` chunks (fewer rather than end inside a split message).

    Returns:
        (chunks to send now, how many were left for the thread's next update).
        What is left is not in the watermark, so nothing of it is lost.
    """
    keep = min(len(chunks), max(1, max_calls))
    while keep < len(chunks) and keep > 0 and chunks[keep - 1].partial:
        keep -= 1
    if keep == 0:  # a split message longer than max_calls (plan with max_parts): send it
        keep = min(len(chunks), max(1, max_calls))
    return list(chunks[:keep]), len(chunks) - keep


def advance_watermark(
    document: MemoryDocument,
    thread_id: str,
    keys: Sequence[str],
    now: str,
    *,
    max_threads: int | None = MAX_THREADS,
    max_compact: int = MAX_COMPACT_THREADS,
) -> MemoryDocument:
    """``document`` with ``keys`` (in order) added to ``thread_id``'s watermark, bounded.

    A thread keeps its newest :data:`MAX_KEYS_PER_THREAD` keys. The
    ``max_threads`` most recently updated threads (this one included; None:
    no bound at all) keep their plain watermark whole; the ``max_compact``
    before them keep a compact mark, their newest :data:`COMPACT_KEYS` keys
    (``truncated`` when keys went): the boundary rules read no more, so such
    a thread reopened sends only what came after it. Plain marks older than
    those are dropped, the least recently updated first: such a thread's
    next update sends its history again. A delete's sealed marks are never
    dropped nor compacted: a thread whose fence went would have its words
    said before the delete learned again. Those are bounded by the threads a
    delete found (its watermarks, pending conversations and dead letters).
    A compact mark updated again keeps ``truncated`` until it holds
    :data:`MAX_KEYS_PER_THREAD` keys.
    """
    if not keys:
        return document
    old = watermark_for(document, thread_id)
    merged = [*(old.message_keys if old else ()), *keys]
    seen: set[str] = set()
    newest_first = []
    for key in reversed(merged):
        if key not in seen:
            seen.add(key)
            newest_first.append(key)
        if len(newest_first) == MAX_KEYS_PER_THREAD:
            break
    mark = ExtractionWatermark(
        thread_id=thread_id,
        message_keys=tuple(reversed(newest_first)),
        updated_at=now,
        truncated=old is not None and old.truncated and len(newest_first) < MAX_KEYS_PER_THREAD,
    )
    others = [m for m in document.extraction_watermarks if m.thread_id != thread_id or m.sealed]
    others.sort(key=lambda m: m.updated_at)
    if max_threads is not None:
        others = _bounded(others, max(0, max_threads - 1), max(0, max_compact))
    marks = (*others, mark)
    return document.model_copy(update={"extraction_watermarks": marks})


def _bounded(
    marks: list[ExtractionWatermark], whole: int, compact: int
) -> list[ExtractionWatermark]:
    """``marks`` (oldest first), the newest ``whole`` plain ones whole, ``compact`` more compacted.

    Plain marks older than those are dropped; sealed ones all stay. A mark
    already compact (or short) is kept as the same object, so a save's
    journal record spells out only the marks that changed.
    """
    over = sum(1 for m in marks if not m.sealed) - whole  # plain marks past the whole ones
    if over <= 0:
        return marks
    drop = max(0, over - compact)
    kept = []
    for m in marks:
        if over and not m.sealed:
            over -= 1
            if drop:
                drop -= 1
                continue
            if len(m.message_keys) > _ID_KEYS:  # else compact already (most are: kept cheap)
                keys = _compacted(m.message_keys)
                if keys is not m.message_keys:
                    m = m.model_copy(update={"message_keys": keys, "truncated": True})
        kept.append(m)
    return kept


_ID_KEYS = 2  # keys a compact mark keeps when its newest names a message id


def _compacted(keys: tuple[str, ...]) -> tuple[str, ...]:
    """A watermark's newest ``keys``, as few as still end what was extracted; ``keys`` if all.

    A message id names one message: the newest key alone is the boundary
    (:func:`_follows_record`), and one more lets a history re-sent under new
    ids line up with it (:func:`_aligned` reads 2 to :data:`COMPACT_KEYS`).
    A content hash (an id-less message's key) counts only after the keys
    recorded before it (up to :data:`COMPACT_KEYS` in all).
    """
    newest = keys[-1] if keys else ""
    content_hash = newest.startswith("h:") and "~" not in newest
    keep = COMPACT_KEYS if content_hash else _ID_KEYS
    return keys[-keep:] if len(keys) > keep else keys


def budgeted_memory_text(
    document: MemoryDocument, budget_tokens: int, *, count_tokens: CountTokens = estimate_tokens
) -> tuple[str, int]:
    """The memory part of the prompt within ``budget_tokens``; returns (text, facts shown).

    All summaries are always shown. When every fact does not fit, facts are
    kept by confidence then recency until the budget is used, and the JSON
    says how many were left out (``factsNotShown``; the model then cannot
    remove those, only add).
    """
    full = memory_for_prompt(document)
    if count_tokens(full) <= budget_tokens:
        return full, len(document.facts)
    base = memory_for_prompt(document.model_copy(update={"facts": ()}))
    left = budget_tokens - count_tokens(base) - 16
    ranked = sorted(
        range(len(document.facts)),
        key=lambda i: (document.facts[i].confidence, document.facts[i].created_at),
        reverse=True,
    )
    kept: list[int] = []
    for i in ranked:
        f = document.facts[i]
        cost = count_tokens(f.content) + 40  # id, category, confidence, dates, JSON syntax
        if cost > left:
            if left < 40:
                break
            continue
        kept.append(i)
        left -= cost
    # The per-fact cost above is an estimate: trim the least important until the text fits.
    while True:
        chosen = sorted(kept)
        shown = document.model_copy(update={"facts": tuple(document.facts[i] for i in chosen)})
        text = memory_for_prompt(shown, facts_not_shown=len(document.facts) - len(chosen))
        if not kept or count_tokens(text) <= budget_tokens:
            return text, len(chosen)
        del kept[-max(1, len(kept) // 10) :]
