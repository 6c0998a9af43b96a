"""Reading the memory model's answer: one update object, or an :class:`UpdateParseError`.

:func:`parse_update` accepts what chat models actually return: ``<think>``
blocks before the answer (a tag inside the answer, such as a fact about
``<think>`` tags, is text and is kept), code fences, prose around **one** object, a one-key wrapper
(``{"result": {...}}``, up to three deep, comments beside it allowed), a
one-element list, snake_case or camelCase keys, ``factsToRemove`` as bare
ids, commentary keys (``reasoning``, ``notes``, …) of any type. It never
guesses, and it never returns a partial update. Where the object is looked for, in this order:

1. the whole answer, when it is JSON;
2. else what the ``` fenced blocks hold, read like a whole answer by rule 3
   when a block is not all JSON (prose outside the blocks is then ignored);
3. else the *top-level* balanced ``{...}`` spans of the text.

Only a whole top-level value is a candidate: an object nested inside a span
that failed to decode (single quotes, a ``//`` comment, Python ``None``) is
never taken instead of it, and such a span that names an update key makes
the answer invalid. Two different update objects in one answer are
ambiguous and invalid too.

An answer counts as "nothing to learn" only when it says so in the update's
own shape: ``{}``, or known keys with empty lists and sections. When nothing
usable is left after validation and the answer held more (top-level keys the
update does not have, such as the stored document's ``facts``, or parts that
were all rejected for their shape, such as facts without ``content``), it is
malformed, not empty. The model path asks once more, then keeps the turn as
a dead letter (``update/llm.py``, ``update/updater.py``), so the thread's
watermark does not move past words that were never read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from deerflow_memory.errors import UpdateParseError
from deerflow_memory.models import MemoryUpdate

__all__ = ["parse_update"]

_THINK_LEADING = re.compile(r"\s*<think(?:ing)?>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</think(?:ing)?>", re.IGNORECASE)
_THINK_OPEN = re.compile(r"<think(?:ing)?>", re.IGNORECASE)
_UPDATE_KEYS = frozenset(
    {
        "user",
        "history",
        "newFacts",
        "new_facts",
        "factsToRemove",
        "facts_to_remove",
        "factsToConfirm",
        "facts_to_confirm",
        "factsToMerge",
        "facts_to_merge",
    }
)
# A span that names an update key, in double or single quotes: if it does not
# decode, the answer is truncated or broken and nothing else in it may be taken.
_NAMES_UPDATE_KEY = re.compile(r"""["'](?:""" + "|".join(sorted(_UPDATE_KEYS)) + r""")["']\s*:""")
_FENCE = re.compile(r"```[^\n`]*\n(.*?)```", re.DOTALL)
_SPAN_TOKENS = re.compile(r'[{}"\\]')
_UNWRAP_LEVELS = 3  # {"a": {"b": {"c": {...}}}} at most
# Keys under which chatty models explain themselves: never facts in a shape we do not read,
# whatever their value (a string, a list of notes, an object of reasons).
_COMMENTARY_KEYS = frozenset(
    {
        "reasoning",
        "reason",
        "notes",
        "note",
        "explanation",
        "analysis",
        "thoughts",
        "thinking",
        "comment",
        "comments",
        "rationale",
    }
)


def parse_update(text: str) -> MemoryUpdate:
    """Parse the memory model's answer into a :class:`MemoryUpdate`.

    Args:
        text: the model's raw answer.

    Returns:
        The validated update (possibly with ``rejected`` parts, when others stand).

    Raises:
        UpdateParseError: no update object in ``text``, or more than one; it is
            truncated or invalid JSON; it does not match the schema; or nothing
            in it was usable although it was not explicitly empty (unknown
            top-level lists or objects only, or every part rejected; a top-level
            string, or any value under a commentary key such as ``reasoning``,
            beside an empty answer is a comment, not a refusal). Nothing partial is
            ever returned.

    Example:
        >>> parse_update('Sure!\\n```json\\n{"newFacts": []}\\n```').new_facts
        ()
    """
    if not isinstance(text, str):
        raise UpdateParseError(f"memory model answer must be text, got {type(text).__name__}")
    data = _find_update_object(text)
    update = MemoryUpdate.from_mapping(_normalise_keys(data))
    _refuse_hollow(update)
    return update


# --- reasoning before the answer --------------------------------------------------------


def _without_reasoning(text: str) -> str:
    """``text`` without the reasoning a model writes before its answer.

    Reasoning comes first: ``<think>…</think>`` blocks at the start (each
    ending at its first closing tag), or text up to a first ``</think>`` with
    no opening tag before it (the opening tag was in the prompt template) that
    is not inside a ``{...}`` span. A tag anywhere else is part of the answer,
    such as a fact about ``<think>`` tags in a JSON string. Asked only of an
    answer that is not JSON as a whole (:func:`_find_update_object`).

    Raises:
        UpdateParseError: the answer ends inside a leading ``<think>`` block.
    """
    close = _THINK_CLOSE.search(text)
    if (
        close is not None
        and not _THINK_OPEN.search(text, 0, close.start())
        and not _inside_span(text, close.start())
    ):
        text = text[close.end() :]
    while (opened := _THINK_LEADING.match(text)) is not None:
        close = _THINK_CLOSE.search(text, opened.end())
        if close is None:
            raise UpdateParseError("memory model answer ends inside an unterminated <think> block")
        text = text[close.end() :]
    return text


def _inside_span(text: str, at: int) -> bool:
    """True when ``at`` lies inside a top-level ``{...}`` span of ``text`` (or one left open)."""
    start = text.find("{", 0, at)
    while start != -1:
        end = _span_end(text, start)
        if end is None or end > at:
            return True
        start = text.find("{", end, at)
    return False


# --- finding the one object ------------------------------------------------------------


class _NotJson:
    """Marks text that is not one JSON value."""


_NOT_JSON = _NotJson()


def _find_update_object(text: str) -> dict[str, Any]:
    """The one update object of the answer ``text`` (see the module docstring for where).

    An answer that is JSON as a whole is read as it is, never cut: reasoning
    is looked for (:func:`_without_reasoning`) only before another answer.

    Raises:
        UpdateParseError: as :func:`parse_update`.
    """
    whole = _decode(text.strip())
    if isinstance(whole, _NotJson):
        answer = _without_reasoning(text)
        if answer != text:  # reasoning was cut: what is left may be JSON as a whole
            text, whole = answer, _decode(answer.strip())
    if not isinstance(whole, _NotJson):
        return _one_update(text, [whole])
    fenced: list[Any] = []
    for block in _FENCE.finditer(text):
        content = block.group(1).strip()
        value = _decode(content)
        fenced += [value] if not isinstance(value, _NotJson) else _top_level_values(content)
    if any(_as_update(value) is not None for value in fenced):
        return _one_update(text, fenced)
    return _one_update(text, _top_level_values(text))


def _decode(text: str) -> Any:
    """The JSON value ``text`` holds entirely, else ``_NOT_JSON``.

    Raises:
        UpdateParseError: the JSON is nested too deeply to decode, or holds an
            integer too long to read.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return _NOT_JSON
    except (RecursionError, MemoryError) as e:  # "[[[[…" nested thousands deep
        raise UpdateParseError(
            f"memory model answer is not a memory update: JSON nested too deeply ({e})"
        ) from e
    except ValueError as e:  # an integer of more than 4,300 digits (int's conversion limit)
        raise UpdateParseError(f"memory model answer is not a memory update: {e}") from e


def _top_level_values(text: str) -> list[Any]:
    """The values of the balanced ``{...}`` spans of ``text`` that are not inside another.

    A span that does not decode is skipped whole (nothing inside it is a
    candidate); one that names an update key raises.

    Raises:
        UpdateParseError: a span naming an update key is truncated or invalid JSON.
    """
    values = []
    start = text.find("{")
    while start != -1:
        end = _span_end(text, start)
        span = text[start:end] if end is not None else text[start:]
        value = _decode(span) if end is not None else _NOT_JSON
        if not isinstance(value, _NotJson):
            values.append(value)
        elif _NAMES_UPDATE_KEY.search(span):
            raise _invalid(span)
        if end is None:
            break
        start = text.find("{", end)
    return values


def _span_end(text: str, start: int) -> int | None:
    """The index after the ``}`` closing the ``{`` at ``start``, or None when it never closes.

    Braces inside double-quoted strings do not count; iterative, so any depth is fine.
    """
    depth = 0
    in_string = False
    escaped_at = -1
    for token in _SPAN_TOKENS.finditer(text, start):
        at = token.start()
        if at == escaped_at:
            continue
        char = token.group()
        if char == "\\":
            escaped_at = at + 1 if in_string else -1
        elif char == '"':
            in_string = not in_string
        elif in_string:
            continue
        elif char == "{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return at + 1
    return None


def _invalid(span: str) -> UpdateParseError:
    where = ""
    try:
        json.loads(span.strip())
    except json.JSONDecodeError as e:
        where = f": {e.msg} at character {e.pos} of {len(span.strip())}"
    except (RecursionError, MemoryError):
        where = ": nested too deeply"
    return UpdateParseError(f"memory model answer is truncated or invalid JSON{where}")


def _one_update(text: str, values: list[Any]) -> dict[str, Any]:
    """The one update object among ``values`` (each a whole top-level value of the answer).

    Raises:
        UpdateParseError: none of them is an update, or two different ones are.
    """
    found: list[dict[str, Any]] = []
    empty = False
    for value in values:
        update = _as_update(value)
        if update is None:
            continue
        if not update:
            empty = True
        elif update not in found:
            found.append(update)
    if len(found) > 1:
        raise UpdateParseError(
            f"memory model answer holds {len(found)} different update objects; "
            "which one is meant is unclear"
        )
    if found:
        return found[0]
    if empty:
        return {}
    snippet = text.strip()[:80]
    raise UpdateParseError(f"no memory update JSON object in the model answer: {snippet!r}")


def _as_update(value: Any) -> dict[str, Any] | None:
    """``value`` as an update object: itself, unwrapped from ``{"key": {...}}`` or ``[{...}]``.

    A wrapper may carry comments beside its one key (``{"result": {...},
    "note": "ok"}``): scalar values and commentary keys (``reasoning``,
    ``notes``, …) are skipped; two structured keys are no wrapper. At most
    :data:`_UNWRAP_LEVELS` wrappers deep.
    """
    for _ in range(_UNWRAP_LEVELS + 1):
        if isinstance(value, list) and len(value) == 1:
            value = value[0]
        if not isinstance(value, dict):
            return None
        if not value or _UPDATE_KEYS & value.keys():
            return value
        if len(value) == 1:
            (value,) = value.values()
            continue
        inner = [v for k, v in value.items() if not _commentary(k, v)]
        if len(inner) != 1:
            return None
        (value,) = inner
    return None


def _commentary(key: Any, value: Any) -> bool:
    """True for a key beside a wrapper that holds no update: a scalar, or a commentary key."""
    return not isinstance(value, list | dict) or _is_commentary_key(key)


def _is_commentary_key(key: Any) -> bool:
    return isinstance(key, str) and key.strip().casefold() in _COMMENTARY_KEYS


# --- what the object says -------------------------------------------------------------


# Each list of the update (both spellings) and how a short item reads in full:
# "fact_1" → {"id": "fact_1"}, {"id": "fact_1"} → "fact_1", [a, b] → {"ids": [a, b]},
# text → {"content": text}.
_ITEM_SHAPES: tuple[tuple[tuple[str, str], Callable[[Any], Any]], ...] = (
    (("factsToRemove", "facts_to_remove"), lambda r: {"id": r} if isinstance(r, str) else r),
    (("factsToConfirm", "facts_to_confirm"), lambda c: c.get("id") if isinstance(c, dict) else c),
    (("factsToMerge", "facts_to_merge"), lambda m: {"ids": m} if isinstance(m, list) else m),
    (("newFacts", "new_facts"), lambda f: {"content": f} if isinstance(f, str) else f),
)


def _normalise_keys(data: dict[str, Any]) -> dict[str, Any]:
    """Accept the shapes models commonly produce besides the documented one."""
    data = {k: v for k, v in data.items() if v is not None}
    for keys, shape in _ITEM_SHAPES:
        for key in keys:
            items = data.get(key)
            if isinstance(items, list):
                data[key] = [shape(item) for item in items]
    for key in ("user", "history"):
        if isinstance(data.get(key), dict):
            data[key] = {k: v for k, v in data[key].items() if v is not None}
    return data


def _refuse_hollow(update: MemoryUpdate) -> None:
    """Raise when ``update`` changes nothing although the answer said more than "nothing".

    Raises:
        UpdateParseError: every proposed part was rejected for its shape, or the
            only non-empty parts are keys the update does not have (top level,
            or a section name under ``user``/``history``).
    """
    if not update.is_noop():
        return
    # A top-level string is the model's comment ("reasoning": "small talk"), kept by
    # chatty models beside an honest empty answer, and so is anything under a commentary
    # key ("reasoning": {"why": "small talk"}); another list or object may hold facts.
    unread = [
        f"{k!r}"
        for k, v in (update.model_extra or {}).items()
        if _structured(v) and not _is_commentary_key(k)
    ]
    for group, sections in (("user", update.user), ("history", update.history)):
        unread += [f"'{group}.{k}'" for k, v in (sections.model_extra or {}).items() if _carries(v)]
    if unread:
        raise UpdateParseError(
            "memory model answer changes nothing but holds keys the update does not have: "
            + ", ".join(unread[:5])
        )
    if update.rejected:
        shown = "; ".join(f"{r.item}: {r.reason}" for r in update.rejected[:3])
        raise UpdateParseError(
            f"memory model answer has no usable part: all {len(update.rejected)} proposed "
            f"part(s) rejected ({shown})"
        )


def _structured(value: Any) -> bool:
    """True for a non-empty list or object: what may hold facts in a shape we do not read."""
    return isinstance(value, list | dict) and bool(value)


def _carries(value: Any) -> bool:
    """True for a value that may hold the user's words: a non-empty string, list or object."""
    return isinstance(value, str | list | dict) and bool(value)
