"""Strict reading of a memory file someone wants to import (``deerflow-memory import``).

Loading a stored document is lenient (a DeerFlow file with an odd category or
a 1.3 confidence still loads); an *import* replaces a user's memory, so it is
checked as a whole first: the file must be a JSON object shaped like a memory
document or DeerFlow's ``memory.json`` (``facts`` a list, or the ``user`` /
``history`` sections), and every fact must have non-empty content, a unique id
(history, ``supersededFacts``, may repeat one: each edit keeps the old version)
that can name it in a URL path (no slash or backslash, not dots only) and be
typed to ``forget`` (at most :data:`MAX_FACT_ID_CHARS` characters),
a confidence in [0, 1] and ISO-8601 dates; no JSON object may repeat a key.
Stored text follows the rules every update follows
(:mod:`deerflow_memory.update.validate`): fact text, ids and
sources are NFC-normalised and free of control and bidi-override characters
(a lone surrogate, not valid Unicode, becomes U+FFFD in text and is a problem
in an id);
a fact that is then empty, a placeholder or longer than ``max_fact_chars`` is a
problem, as is a file with more than ``max_facts`` facts; a ``sourceError`` is
cleaned and cut to ``max_fact_chars``, summaries cleaned and cut at a sentence to
``max_summary_chars``, as an update's are. Any problem raises
:class:`InvalidDocumentError` naming the first few problems (never repeating a
value that looks like a secret); nothing is written.

:func:`replaced_by_import` says what an import would replace (the command line
and the import route refuse, or ask, when there is anything), and
:func:`brought_back_by_import` which of the file's facts the user deleted from
the memory since (an older export brings them back: both say so), and
:func:`unsafe_in_import`, :func:`unsafe_summaries_in_import` and
:func:`unsafe_history_in_import` which facts, summaries and history entries look
like a secret (all warn: they are imported as given).
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Callable
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from deerflow_memory.arguments import expect, expect_document, expect_text
from deerflow_memory.config import DuplicateKeyError, MemoryConfig, json_object_without_duplicates
from deerflow_memory.config.messages import NAME_SHOWN, clipped
from deerflow_memory.errors import ConfigError, InvalidDocumentError
from deerflow_memory.models import (
    USER_DELETED_REASON,
    Fact,
    MemoryDocument,
    first_problem,
    json_problem,
    replace_surrogates,
    says_nothing,
    utc_now_iso,
)
from deerflow_memory.update.apply import deleted_again
from deerflow_memory.update.hygiene import text_key
from deerflow_memory.update.unsafe import (
    NOT_SHOWN,
    secrets_hidden,
    unsafe_even_escaped,
    unsafe_to_store,
)
from deerflow_memory.update.validate import (
    clean_source_error,
    clean_summary,
    clean_text,
    cleaned_fact_text,
)

__all__ = [
    "MAX_FACT_ID_CHARS",
    "brought_back_by_import",
    "brought_back_note",
    "import_onto",
    "read_import",
    "replaced_by_import",
    "unsafe_history_in_import",
    "unsafe_in_import",
    "unsafe_summaries_in_import",
]

_DOCUMENT_KEYS = frozenset({"facts", "user", "history"})
_DATE_FIELDS = ("createdAt", "expiresAt", "lastConfirmedAt", "lastAccessedAt", "supersededAt")
_SHOWN = 3
MAX_FACT_ID_CHARS = 128
"""Longest fact id an import accepts (characters). Ours are 13 (``fact_`` and 8 hex
digits); one of thousands could not be typed to ``forget`` or ``edit``."""


def read_import(
    raw: bytes | str, *, name: str = "file", config: MemoryConfig | None = None
) -> MemoryDocument:
    """Parse and check a memory document or DeerFlow ``memory.json`` to import.

    Args:
        raw: the file's bytes or text (UTF-8 JSON).
        name: how to call the file in error messages.
        config: limits (``max_import_bytes``, ``max_facts``, ``max_fact_chars``,
            ``max_summary_chars``); default ``MemoryConfig()``.

    Returns:
        The parsed document (its ``revision`` is the caller's to replace).

    Raises:
        InvalidDocumentError: over ``max_import_bytes``, not JSON (or nested
            thousands deep), not a memory document, or any fact is
            invalid (duplicate id, confidence outside [0, 1], unreadable date,
            empty content), or ``raw`` is not bytes or text.
        ConfigError: ``config`` is not a :class:`MemoryConfig` (or None).
        InvalidArgumentError: ``name`` is not text.
    """
    expect(raw, (bytes, str), "raw", "the file's bytes or text", InvalidDocumentError)
    expect_text(name, "name")
    expect(config, MemoryConfig, "config", "a MemoryConfig", ConfigError, optional=True)
    limits = config or MemoryConfig()
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > limits.max_import_bytes:
        raise InvalidDocumentError(
            f"{name} is {size:,} bytes, over the import limit "
            f"(max_import_bytes={limits.max_import_bytes})"
        )
    if not raw.strip():  # (said plainly: "Expecting value: line 1 column 1" for nothing at all)
        raise InvalidDocumentError(f"{name} is empty: nothing to import")
    try:
        data = json.loads(raw, object_pairs_hook=json_object_without_duplicates)
    except DuplicateKeyError as e:  # the last one would win silently: which was meant?
        said = secrets_hidden(str(e), paths=False)  # a key is never a path
        if unsafe_to_store(e.key[:_CHECKED_CHARS]):  # checked as written, not as repr escaped it
            said = "a JSON object repeats a key that looks like a secret (not shown)"
        raise InvalidDocumentError(f"{name}: {said}") from e
    except (ValueError, UnicodeDecodeError) as e:
        raise InvalidDocumentError(f"{name} is not JSON: {json_problem(e)}") from e
    except (RecursionError, MemoryError) as e:  # "[[[[…" thousands deep: no document looks so
        raise InvalidDocumentError(f"{name} is not a memory document: nested too deeply") from e
    if not isinstance(data, dict) or not (_DOCUMENT_KEYS & data.keys()):
        raise InvalidDocumentError(
            f"{name} is not a memory document or DeerFlow memory.json "
            "(expected a JSON object with 'facts', 'user' or 'history')"
        )
    problems = [*_fact_problems(data.get("facts"), "facts")]
    if "supersededFacts" in data:
        # History repeats an id by design: each edit of a fact keeps its old version.
        problems += _fact_problems(data["supersededFacts"], "supersededFacts", unique_ids=False)
    if not problems:
        problems = _clean_texts(data, limits)
    if problems:
        more = f" (and {len(problems) - _SHOWN} more)" if len(problems) > _SHOWN else ""
        raise InvalidDocumentError(f"{name}: " + "; ".join(problems[:_SHOWN]) + more)
    # A bookkeeping mark speaks of the revisions of the document it came from;
    # here it could claim that edits based on the replaced memory still apply.
    data.pop("bookkeeping", None)
    data.pop("deletedAt", None)  # an exported tombstone: what is imported is a memory
    try:
        return MemoryDocument.model_validate(data)
    except ValidationError as e:
        raise InvalidDocumentError(
            f"{name}: {secrets_hidden(first_problem(e, ''), paths=False)}"
        ) from e


def _fact_problems(facts: Any, key: str, *, unique_ids: bool = True) -> list[str]:
    if facts is None:
        return []
    if not isinstance(facts, list):
        return [f"'{key}' must be a list, got {type(facts).__name__}"]
    problems: list[str] = []
    seen: set[str] = set()
    for index, fact in enumerate(facts):
        where = f"{key}[{index}]"
        if not isinstance(fact, dict):
            problems.append(f"{where} is not an object")
            continue
        content = fact.get("content")
        if content is not None and not isinstance(content, str):
            # 5, a list or an object: there, but not text ("no content" sent people looking)
            problems.append(f"{where} content must be text, got {_json_type(content)}")
        elif content is None or not content.strip():
            problems.append(f"{where} has no content")
        fact_id = fact.get("id")
        if fact_id is not None:
            if not isinstance(fact_id, str) or not fact_id.strip():
                problems.append(f"{where} has an invalid id {_shown(fact_id)}")
            elif not fact_id.strip("."):
                problems.append(f"{where} has an id of dots only ({_shown(fact_id, 20)})")
            elif says_nothing(fact_id):  # "ㅤ", a zero-width space: no id a reader can name
                problems.append(
                    f"{where} has an id with no letter or digit ({_shown(fact_id, 20, ascii)})"
                )
            elif len(fact_id) > MAX_FACT_ID_CHARS:
                problems.append(
                    f"{where} id is {len(fact_id):,} characters, longer than "
                    f"{MAX_FACT_ID_CHARS} ({_shown(fact_id, 20)}…)"
                )
            elif _SAID_IN_WORDS.search(fact_id) and unsafe_to_store(fact_id[:_CHECKED_CHARS]):
                # every command and route prints ids: "forgot my PIN is 4821" (a UUID or
                # a token-like id of another tool is an id: it says nothing)
                problems.append(f"{where} has an id that looks like a secret (not shown)")
            elif "/" in fact_id or "\\" in fact_id:
                # The HTTP routes name a fact by its id in the path: one with a slash
                # could never be edited or deleted there.
                problems.append(f"{where} id {_shown(fact_id, 80)} holds a slash")
            elif unique_ids and fact_id in seen:
                problems.append(f"{where} repeats id {_shown(fact_id)}")
            else:
                seen.add(fact_id)
        if "confidence" in fact and not _unit_number(fact["confidence"]):
            shown = _shown(fact["confidence"])  # a number may have 400 digits
            problems.append(f"{where} confidence {shown} is not a number in [0, 1]")
        for field in _DATE_FIELDS:
            value = fact.get(field)
            if value is not None and value != "" and not _iso_date(value):
                problems.append(f"{where} {field} {_shown(value)} is not an ISO-8601 date")
    return problems


_SAID_IN_WORDS = re.compile(r"\s|[:=]")  # an id that says something: "my PIN is 4821", "pin=4821"
# Of each text a problem may show, this much is checked: more than is ever shown, so a
# secret cut at the end of what is shown is seen whole; not all of a 16 MB value.
_CHECKED_CHARS = 400
_CHECKED_TEXTS = 32  # texts looked at inside a list or an object (only the first are shown)


def _texts_in(value: object) -> list[str]:
    """Texts a problem about ``value`` might show: itself, or the first ones inside a list
    or an object (keys, values, and ``"key value"`` for a scalar value, as in
    ``{"pin": 4821}``), each cut to :data:`_CHECKED_CHARS`."""
    texts: list[str] = []
    pending: list[object] = [value]
    while pending and len(texts) < _CHECKED_TEXTS:
        item = pending.pop(0)
        if isinstance(item, str):
            texts.append(item[:_CHECKED_CHARS])
        elif isinstance(item, dict):
            for key, inner in list(item.items())[:_CHECKED_TEXTS]:
                pending.append(key)
                if isinstance(inner, str | int | float):
                    texts.append(f"{str(key)[:_CHECKED_CHARS]} {str(inner)[:_CHECKED_CHARS]}")
                pending.append(inner)
        elif isinstance(item, list):
            pending.extend(item[:_CHECKED_TEXTS])
    return texts


def _shown(value: object, chars: int | None = None, show: Callable[[object], str] = repr) -> str:
    """``value`` as a problem repeats it: ``show`` of it (text cut to ``chars``), one line.

    Never a value that looks like a secret (``"my PIN is 4821"`` as a
    confidence, ``{"pin": 4821}``, ``"验证码是482193"`` with an invisible character):
    the message goes to a terminal, a log or an HTTP answer. The value is
    checked as given, before escaping and cutting, and so is what is shown.
    """
    raw = value
    if isinstance(value, str) and chars is not None:
        value = value[:chars]
    text = show(value)  # repr and ascii escape what is not printable
    if unsafe_even_escaped(text[:_CHECKED_CHARS]) or any(map(unsafe_to_store, _texts_in(raw))):
        return NOT_SHOWN
    return text if len(text) <= NAME_SHOWN else f"{text[:NAME_SHOWN]}… ({len(text):,} characters)"


def _json_type(value: object) -> str:
    """How JSON names the type of a parsed value (a number, not an ``int``)."""
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _unit_number(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    # An int is finite at any size (math.isfinite raises OverflowError past a float's).
    return (isinstance(value, int) or math.isfinite(value)) and 0.0 <= value <= 1.0


def _iso_date(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        datetime.fromisoformat(value.strip())
    except ValueError:
        return False
    return True


def _clean_texts(data: dict[str, Any], limits: MemoryConfig) -> list[str]:
    """Clean stored text in ``data`` in place, as updates do; the problems left."""
    problems: list[str] = []
    facts = data.get("facts") or []
    if len(facts) > limits.max_facts:
        problems.append(f"{len(facts)} facts, more than max_facts={limits.max_facts}")
    for key in ("facts", "supersededFacts"):
        for index, fact in enumerate(data.get(key) or []):
            where = f"{key}[{index}]"
            fact["content"], problem = cleaned_fact_text(
                fact["content"], max_chars=limits.max_fact_chars
            )
            if problem:
                problems.append(f"{where} content: {problem}")
            for name in ("sourceError", "source_error"):  # as an update's: cleaned and cut
                wrong = fact.get(name)
                if isinstance(wrong, str):  # clean_text replaces lone surrogates too
                    fact[name] = clean_source_error(wrong, limits.max_fact_chars)
            for field in ("id", "source", "category", "reason"):
                value = fact.get(field)
                if not isinstance(value, str):
                    continue
                if replace_surrogates(value) != value:
                    if field == "id":  # an id is never guessed; free text is repaired
                        problems.append(f"{where} id holds a lone surrogate (not valid Unicode)")
                        continue
                    fact[field] = value = replace_surrogates(value)
                if field == "id" and value != value.strip():  # "f1 " beside "f1": two facts
                    problems.append(
                        f"{where} id {_shown(value, 40)} starts or ends with whitespace"
                    )
                    continue
                cleaned = clean_text(value)
                if cleaned == value.strip():
                    continue
                if field in ("source", "reason"):  # free text: cleaned as an update's is
                    fact[field] = cleaned
                elif clean_text(composed := unicodedata.normalize("NFC", value)) == composed:
                    problems.append(
                        f"{where} {field} {_shown(value, 40)} is not in Unicode NFC form "
                        "(write its accents composed)"
                    )
                else:
                    problems.append(
                        f"{where} {field} {_shown(value, 40, ascii)} holds control, invisible or "
                        "bidi-override characters, or runs of whitespace"
                    )
    for part in ("user", "history"):
        sections = data.get(part)
        if not isinstance(sections, dict):
            continue
        for section in sections.values():
            if isinstance(section, dict) and isinstance(section.get("summary"), str):
                section["summary"] = clean_summary(section["summary"], limits.max_summary_chars)
    return problems


def import_onto(
    current: MemoryDocument, incoming: MemoryDocument, *, now: str | None = None
) -> MemoryDocument:
    """``incoming`` made to replace ``current`` (as loaded): save it with ``current.revision``.

    Its ``lastUpdated`` is ``now`` (default: the current UTC time): the memory
    changed when it was imported, not when the file was written.

    It takes ``current``'s revision (the save continues after it, after a
    delete's tombstone too: revisions never restart) and keeps ``current``'s
    sealed watermarks, the fence a delete left (see
    :mod:`deerflow_memory.update.forget`), for the threads ``incoming`` has no
    watermark of: importing onto a deleted memory does not let its old
    conversations be learned again. ``current``'s ``clearedAt`` stays too
    (when this memory was last cleared: ``migrate`` reads it).
    """
    threads = {mark.thread_id for mark in incoming.extraction_watermarks}
    fence = tuple(
        mark
        for mark in current.extraction_watermarks
        if mark.sealed and mark.thread_id not in threads
    )
    return incoming.model_copy(
        update={
            "revision": current.revision,
            "last_updated": now or utc_now_iso(),
            "deleted_at": None,
            "cleared_at": current.cleared_at,
            "extraction_watermarks": (*incoming.extraction_watermarks, *fence),
        }
    )


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def replaced_by_import(current: MemoryDocument) -> str | None:
    """What importing over ``current`` would replace, for a message; None when nothing.

    History counts: a fact the user deleted is kept there so that it is never
    learned back, and an import replaces it with the file's history. E.g.
    ``"2 facts and 1 superseded fact (history)"``, ``"summaries and no facts"``.
    """
    facts, history = len(current.facts), len(current.superseded_facts)
    if current.is_empty() and not history:
        return None
    parts = [_count(facts, "fact")] if facts or not history else []
    if history:
        parts.append(_count(history, "superseded fact") + " (history)")
    if not facts and not history:
        return "summaries and no facts"
    return " and ".join(parts)


def brought_back_by_import(current: MemoryDocument, incoming: MemoryDocument) -> tuple[Fact, ...]:
    """The facts of ``incoming`` that the user deleted from ``current`` (in file order).

    A fact deleted with ``forget`` stays in ``current``'s history so that no
    update learns it again; an import replaces that history with the file's,
    so an export made before the delete brings the fact back. The command line
    and the import route name these facts before and after replacing.

    A fact counts when its text matches a history entry of ``current`` deleted
    by the user (:data:`~deerflow_memory.models.USER_DELETED_REASON`) as
    extraction matches it to keep it out
    (:func:`~deerflow_memory.update.apply.deleted_again`: case and spacing
    aside, or nearly the same words, "Lives in Oslo." for "Lives in Oslo"), and
    the file does not record that delete itself.

    Raises:
        InvalidDocumentError: ``current`` or ``incoming`` is not a :class:`MemoryDocument`.
    """
    expect_document(current, "current")
    expect_document(incoming, "incoming")
    kept = {
        text_key(f.content) for f in incoming.superseded_facts if f.reason == USER_DELETED_REASON
    }
    gone = [
        f.content
        for f in current.superseded_facts
        if f.reason == USER_DELETED_REASON and text_key(f.content) not in kept
    ]
    if not gone:
        return ()
    keys = {text_key(text) for text in gone}
    return tuple(f for f in incoming.facts if deleted_again(f.content, gone, keys))


def unsafe_in_import(incoming: MemoryDocument) -> tuple[Fact, ...]:
    """The facts of ``incoming`` that look like a secret or words to the assistant (file order).

    An import is the user's own file, so they are imported as given (as a
    manual fact is), but the command line and the import route name them: the
    model reads every one of them on every turn. The check is
    :func:`~deerflow_memory.update.unsafe.unsafe_to_store` of the content and
    the ``sourceError``, the one no update may pass.

    Raises:
        InvalidDocumentError: ``incoming`` is not a :class:`MemoryDocument`.
    """
    expect_document(incoming, "incoming")
    return tuple(
        f
        for f in incoming.facts
        if unsafe_to_store(f.content) or (f.source_error and unsafe_to_store(f.source_error))
    )


def unsafe_summaries_in_import(incoming: MemoryDocument) -> tuple[str, ...]:
    """The summaries of ``incoming`` that look like a secret, as ``"user.workContext"`` paths.

    Like :func:`unsafe_in_import` for facts: imported as given, but named,
    since the model reads every summary on every turn. The check is the one an
    update's summary passes (:func:`~deerflow_memory.update.unsafe.unsafe_to_store`
    of the whole summary; an update then drops the sentences holding it).

    Raises:
        InvalidDocumentError: ``incoming`` is not a :class:`MemoryDocument`.
    """
    expect_document(incoming, "incoming")
    found: list[str] = []
    for part in ("user", "history"):
        sections = getattr(incoming, part)
        for name, field in type(sections).model_fields.items():
            if unsafe_to_store(getattr(sections, name).summary):
                found.append(f"{part}.{field.alias or name}")
    return tuple(found)


def unsafe_history_in_import(incoming: MemoryDocument) -> tuple[str, ...]:
    """The ids of ``incoming``'s history entries (superseded facts) that look like a secret.

    The model never reads the history, but exports and the user's own views list
    it until the memory is cleared, so an import that copies a forgotten secret
    into another memory names it, as :func:`unsafe_in_import` names facts.

    Raises:
        InvalidDocumentError: ``incoming`` is not a :class:`MemoryDocument`.
    """
    expect_document(incoming, "incoming")
    return tuple(f.id for f in incoming.superseded_facts if unsafe_to_store(f.content))


def brought_back_note(facts: tuple[Fact, ...]) -> str:
    """``"1 fact you deleted (fact_1: Lives in Oslo)"``; a few named (one that looks like a
    secret by its id only), the rest counted."""
    named = ", ".join(
        f"{clipped(f.id)} (its text not shown)"
        if unsafe_to_store(f.content)
        else f"{clipped(f.id)}: {clipped(f.content)}"
        for f in facts[:_SHOWN]
    )
    more = f" and {len(facts) - _SHOWN} more" if len(facts) > _SHOWN else ""
    return f"{_count(len(facts), 'fact')} you deleted ({named}{more})"
