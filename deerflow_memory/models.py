"""Typed memory data: the memory document, its facts, and the LLM update schema.

The JSON shape is DeerFlow's ``memory.json`` v1 (camelCase keys), so a file
written by DeerFlow loads here and a file written here stays readable by
DeerFlow. Unknown keys are kept (``extra="allow"``) and written back.

Models are frozen: a loaded document can be shared between threads and cached
without copies; changes produce new documents (``model_copy(update=...)``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
import unicodedata
import uuid
from collections.abc import Container
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel

from deerflow_memory.errors import (
    InvalidArgumentError,
    InvalidDocumentError,
    InvalidNameError,
    UpdateParseError,
)
from deerflow_memory.logs import package_logger

logger = package_logger(__name__)

__all__ = [
    "CONFIDENCE_RULE",
    "MAX_NAME_LENGTH",
    "USER_DELETED_REASON",
    "BookkeepingSaves",
    "DocumentKey",
    "ExtractionWatermark",
    "Fact",
    "FactCategory",
    "FactMerge",
    "FactRemoval",
    "History",
    "HistoryUpdate",
    "HygieneCounts",
    "MemoryDocument",
    "MemoryUpdate",
    "NewFact",
    "Rejection",
    "Section",
    "SectionUpdate",
    "SourceType",
    "SupersededFact",
    "UserContext",
    "UserUpdate",
    "first_problem",
    "iso_from_timestamp",
    "iso_utc",
    "json_problem",
    "new_fact_id",
    "parse_timestamp",
    "proposed_confidence",
    "replace_surrogates",
    "scrub_surrogates",
    "stored_timestamp",
    "unique_fact_ids",
    "utc_now_iso",
    "validate_name",
    "with_plain_apostrophes",
    "without_invisible",
]

DOCUMENT_VERSION = "1.0"

USER_DELETED_REASON = "deleted by the user"
"""``reason`` of a fact the user deleted; extraction never adds its text back."""


class FactCategory(StrEnum):
    """The one category vocabulary used by validation, prompts and injection."""

    PREFERENCE = "preference"
    KNOWLEDGE = "knowledge"
    CONTEXT = "context"
    BEHAVIOR = "behavior"
    GOAL = "goal"
    CORRECTION = "correction"


class SourceType(StrEnum):
    """Where a fact comes from.

    ``user_stated``: the user said it outright in a conversation; ``inferred``:
    the memory model concluded it; ``manual``: the user (or an operator, or the
    agent's ``remember`` tool on the user's request) wrote it through the API,
    the CLI or a tool. Manual facts are the user's word: extraction never
    removes, rewrites or evicts them (see :mod:`deerflow_memory.update.apply`).
    """

    USER_STATED = "user_stated"
    INFERRED = "inferred"
    MANUAL = "manual"


def iso_utc(moment: datetime) -> str:
    """``moment`` as stored: ISO-8601 UTC with a ``Z`` suffix, second precision, 4-digit year.

    Every timestamp the package writes goes through here. The fields are
    formatted one by one: ``strftime("%Y")`` does not pad years below 1000 on
    Linux ("1-01-01T…"), and such a text is no ISO-8601 date for import.

    Args:
        moment: a ``datetime``; naive means UTC, an aware one is converted.

    Raises:
        OverflowError: an aware ``moment`` whose UTC time falls outside years 1–9999.
    """
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return (
        f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
        f"T{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}Z"
    )


def utc_now_iso() -> str:
    """Current UTC time as ISO-8601 with a ``Z`` suffix, second precision."""
    return iso_utc(datetime.now(UTC))


def parse_timestamp(text: str | None) -> float | None:
    """Epoch seconds of an ISO-8601 date or moment (naive = UTC); ``None`` if absent/invalid."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


# One process-wide cache for every layer (injection, retrieval, hygiene): stored
# dates repeat across turns and updates, so each distinct text is parsed once.
stored_timestamp = functools.lru_cache(maxsize=65_536)(parse_timestamp)
"""``parse_timestamp`` of a stored date, remembered (65,536 texts); ``cache_clear()`` empties it."""


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_FIRST_SECOND = (datetime(1, 1, 1, tzinfo=UTC) - _EPOCH).total_seconds()
_LAST_SECOND = (datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC) - _EPOCH).total_seconds()


def iso_from_timestamp(seconds: float) -> str:
    """``parse_timestamp``'s inverse: ISO-8601 UTC with a ``Z`` suffix, second precision.

    A moment before year 1 or after 9999 (``0001-01-01T00:00:00+01:00`` parses to
    one) is clamped to the first or last second of that range; the year always has
    4 digits (:func:`iso_utc`).

    Raises:
        ValueError: ``seconds`` is NaN.
    """
    if seconds != seconds:
        raise ValueError("a timestamp cannot be NaN")
    # Epoch arithmetic, not fromtimestamp(): that refuses negative seconds on Windows.
    clamped = min(max(float(seconds), _FIRST_SECOND), _LAST_SECOND)
    return iso_utc(_EPOCH + timedelta(seconds=math.floor(clamped)))


def new_fact_id(taken: Container[str] = ()) -> str:
    """A fresh fact id in DeerFlow's ``fact_<8 hex>`` form, none of ``taken``.

    Eight hex digits are 32 bits: among 17,000 facts two random ids share one
    about 3 % of the time, so callers adding to a document pass its ids.
    """
    while True:
        fact_id = f"fact_{uuid.uuid4().hex[:8]}"
        if fact_id not in taken:
            return fact_id


_SURROGATE = re.compile("[\ud800-\udfff]")

# The Hangul fillers: the code points of Unicode's Default_Ignorable_Code_Point
# property (DerivedCoreProperties.txt) that are letters (category Lo), so
# str.isalnum accepts them while a reader sees a blank.
_BLANK_LETTERS = "\u115f\u1160\u3164\uffa0"
# A letter or digit (what str.isalnum accepts: \w less "_") that shows.
_SHOWN_ALNUM = re.compile(f"[^\\W_{_BLANK_LETTERS}]")


def says_nothing(text: str) -> bool:
    """True when ``text`` holds no letter or digit a reader would see.

    Letters and digits are what ``str.isalnum`` accepts, less the Hangul
    fillers (U+115F, U+1160, U+3164, U+FFA0: letters that show as blanks) and
    the modifier letters (category Lm: "ʼ", "ー", "々", which only mark the
    letters beside them); a letter drawn enclosed or styled ("ⓐ") counts as
    the plain one it stands for (NFKC). So punctuation, emoji, whitespace and
    invisible characters (zero-width spaces, the blank braille cell) alone say
    nothing: such a fact or summary is refused when written and gets no line in
    the memory block. Linear in ``len(text)``; one regex search for most texts.

    Raises:
        InvalidArgumentError: ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise InvalidArgumentError(f"text must be text (a str), got {type(text).__name__}")
    found = _SHOWN_ALNUM.search(text)
    if found is not None:
        char = found.group()
        if char.isascii() or unicodedata.category(char) != "Lm":
            return False
    elif text.isascii():
        return True
    return not any(map(_shows, unicodedata.normalize("NFKC", text)))


def _shows(char: str) -> bool:
    return char.isalnum() and char not in _BLANK_LETTERS and unicodedata.category(char) != "Lm"


def replace_surrogates(text: str) -> str:
    """``text`` with every lone surrogate (U+D800–U+DFFF) replaced by U+FFFD.

    A lone surrogate (from a ``"\\ud800"`` JSON escape, or argv/file bytes decoded
    with ``surrogateescape``) is not Unicode text: it cannot be encoded as UTF-8,
    so a document holding one could not be saved. A surrogate *pair* written as
    two code points becomes the character it encodes. ASCII text costs O(1).
    """
    if text.isascii():
        return text
    try:
        # Strict UTF-8 fails on surrogates and nothing else: a C-speed check, no regex.
        text.encode()
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text


# Removed outright from stored text: C0/C1 controls but the line breaks and tab
# (clean_text handles those), DEL, bidi embeddings/overrides/isolates and marks,
# BOM, interlinear annotation, and the rest of Unicode's default-ignorable code
# points (DerivedCoreProperties.txt, Default_Ignorable_Code_Point): characters no
# reader sees. Some spell text a model reads but a person does not (the tag
# characters U+E0000-E007F, and variation selectors one per byte, U+FE00-FE0F and
# U+E0100-E01EF: inject/lines.py drops those from the block too); others split a
# word without showing ("pea\u200bnuts", "pea\u034fnuts" would be a second fact
# beside "peanuts"). Kept: ZWJ and ZWNJ where they may join (they shape emoji and
# Persian or Indic words: _IDLE_JOINERS), the Hangul fillers between Hangul letters
# (_IDLE_FILLERS; judged by says_nothing), and the emoji presentation selectors
# U+FE0E/FE0F, one after a symbol or digit (_SELECTORS).
_REMOVED_CLASS = (
    "\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\u00ad\u034f\u061c\u17b4\u17b5\u180b-\u180f"
    "\u200b\u200e\u200f\u202a-\u202e\u2060-\u206f\ufe00-\ufe0d\ufeff\ufff0-\ufffb"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
)
_REMOVED = re.compile(f"[{_REMOVED_CLASS}]")
# Anything the passes below may change: most text has none, and is returned after one scan.
_MAYBE_INVISIBLE = re.compile(f"[{_REMOVED_CLASS}\ufe0e\ufe0f\u200c\u200d{_BLANK_LETTERS}]")
# ECMA-48 escape sequences: CSI ("\x1b[31m"), OSC ("\x1b]0;title\x07") and two-character ones.
_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
# A Hangul filler outside Hangul shows as a blank inside a word ("pea\u3164nuts").
_HANGUL = "\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7ff\uffa0-\uffdc"
_IDLE_FILLERS = re.compile(f"(?<![{_HANGUL}])[{_BLANK_LETTERS}]|[{_BLANK_LETTERS}](?![{_HANGUL}])")
_ASCII_REMOVED = re.compile("[\x00-\x08\x0e-\x1b\x7f]")  # what _REMOVED takes of ASCII
# An emoji presentation selector that follows no symbol or digit (a letter, a space,
# a joiner, another selector, nothing): it chooses no emoji's look there.
_SELECTORS = re.compile("(?:^|(?<=[\\s\ufe0e\ufe0f\u200c\u200d])|(?<=[^\\W\\d_]))[\ufe0e\ufe0f]+")
# ZWJ and ZWNJ join nothing in a run, at an end, beside a space, or between two Latin
# letters or ASCII characters ("pea\u200dnuts" was a second fact, and runs of them
# spelled hidden text): a run keeps its first, the others go.
_JOINER_RUNS = re.compile("([\u200c\u200d])[\u200c\u200d]+")
_IDLE_JOINERS = re.compile(
    "^[\u200c\u200d]|[\u200c\u200d]$|(?<=\\s)[\u200c\u200d]|[\u200c\u200d](?=\\s)"
    "|(?<=[\x00-\u024f])[\u200c\u200d](?=[\x00-\u024f])"
)


# An apostrophe typed as another mark inside a contraction ("Iʼm", "It＇s", "don´t", "I′ve",
# "it`s"): the modifier letter U+02BC, a full-width one, an acute accent, a prime, a backtick.
_OTHER_APOSTROPHE = re.compile(
    r"(?<=[A-Za-z])[\u02bc\uff07\u00b4\u2032`](?=(?:t|s|m|d|re|ve|ll)\b)"
)


def with_plain_apostrophes(text: str, mark: str = "'") -> str:
    """``text`` with ``mark`` for each apostrophe typed as another mark inside a contraction
    ("Iʼm from Canada" → "I'm from Canada"), one character for one (offsets stay).

    For readers of raw text (the offline extractor, the signals), which read "I'm" and
    "I’m" only. A text with neither a non-ASCII character nor a backtick is returned as is.
    """
    if text.isascii() and "`" not in text:
        return text
    return _OTHER_APOSTROPHE.sub(mark, text)


def without_invisible(text: str) -> str:
    """``text`` less what :func:`~deerflow_memory.update.validate.clean_text` removes outright.

    Terminal escape sequences, controls (line breaks and tabs stay), bidi and
    interlinear marks, the BOM, Unicode tags, variation selectors (an emoji's
    presentation selector stays, one after a symbol or digit) and the other
    default-ignorable characters, but ZWJ and ZWNJ where they may join and the
    Hangul fillers between Hangul letters: for readers of raw text (the offline
    extractor, the signals) that must read a message as its facts will be stored.
    """
    # Each pass only where its characters are (2 MB of text took 100 ms through the
    # selector pattern alone, and a short turn on the capture path 2-4 µs).
    if "\x1b" in text:  # a terminal's escape sequence goes whole, not only its ESC
        text = _ANSI.sub("", text)
    if text.isascii():
        return _ASCII_REMOVED.sub("", text) if _ASCII_REMOVED.search(text) else text
    if _MAYBE_INVISIBLE.search(text) is None:
        return text
    text = _REMOVED.sub("", text)
    if "\ufe0e" in text or "\ufe0f" in text:
        text = _SELECTORS.sub("", text)
    if "\u200c" in text or "\u200d" in text:
        text = _IDLE_JOINERS.sub("", _JOINER_RUNS.sub(r"\1", text))
    if any(filler in text for filler in _BLANK_LETTERS):
        text = _IDLE_FILLERS.sub("", text)
    return text


def _text(value: Any) -> Any:
    # Runs for every text field of every load and save (200 facts: ~600 values).
    if not isinstance(value, str) or value.isascii():
        return value
    return replace_surrogates(value)


def _id_problem(value: str) -> str | None:
    found = None if value.isascii() else _SURROGATE.search(value)
    if found is None:
        return None
    return (
        f"holds a lone surrogate U+{ord(found.group()):04X} at position "
        f"{found.start()} (not valid Unicode)"
    )


def _identifier(value: Any) -> Any:
    problem = _id_problem(value) if isinstance(value, str) else None
    if problem:
        raise ValueError(problem)
    return value


MAX_EXTRA_DEPTH = 32
"""How deep an unknown key's value may nest lists and objects. A document is saved
as JSON through pydantic, which stops at a few hundred levels, and reading a deeper
value took Python's recursion limit: one such key in ``memory.json`` failed every turn."""


def scrub_surrogates(value: Any, *, max_depth: int = MAX_EXTRA_DEPTH) -> Any:
    """``value`` (JSON-like: dicts, lists, strings) with :func:`replace_surrogates` applied
    to every string, keys included; tuples become lists, other values stay as they are.

    Raises:
        ValueError: lists and objects nest deeper than ``max_depth`` levels.
    """
    if isinstance(value, str):
        return replace_surrogates(value)
    if isinstance(value, dict | list | tuple):
        if max_depth <= 0:
            raise ValueError(f"holds lists or objects nested deeper than {MAX_EXTRA_DEPTH} levels")
        inner = max_depth - 1
        if isinstance(value, dict):
            return {
                scrub_surrogates(k): scrub_surrogates(v, max_depth=inner) for k, v in value.items()
            }
        return [scrub_surrogates(v, max_depth=inner) for v in value]
    return value


Text = Annotated[str, BeforeValidator(_text)]
"""Free text (facts, summaries, dates, provenance): lone surrogates become U+FFFD."""
Id = Annotated[str, BeforeValidator(_identifier)]
"""A fact id: a lone surrogate is a validation error (an id is never guessed)."""


class _Model(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="allow",
        frozen=True,
    )

    @model_validator(mode="after")
    def _scrub_extra(self) -> Any:
        # Unknown keys are kept and written back: they must be encodable too.
        extra = self.__pydantic_extra__
        if extra:
            scrubbed = {}
            for key, value in extra.items():
                try:
                    scrubbed[replace_surrogates(key)] = scrub_surrogates(value)
                except ValueError as e:
                    raise ValueError(f"unknown key {key[:40]!r} {e}") from None
            extra.clear()
            extra.update(scrubbed)
        return self


def _normalise_category(data: Any) -> Any:
    """Map an unknown category to ``context``, keeping the original in ``originalCategory``.

    DeerFlow files may carry categories outside our vocabulary (e.g. ``other``);
    loading must not fail and the original value must not vanish.
    """
    if isinstance(data, dict):
        raw = data.get("category")
        if isinstance(raw, str):
            value = raw.strip().lower()
            if value in _CATEGORY_VALUES:
                if value != raw:
                    data = {**data, "category": value}
            else:
                data = {**data, "category": FactCategory.CONTEXT.value, "originalCategory": raw}
    return data


_CATEGORY_VALUES = frozenset(c.value for c in FactCategory)


def _clamp_confidence(value: Any, fact_id: Any = None) -> Any:
    """A stored fact's confidence, clamped into [0, 1] (NaN and infinities: 0.0).

    Stored documents (ours from older versions, DeerFlow's, hand-edited ones) must
    load, so a number out of range is not an error there; it keeps its side of the
    range (above: 1.0, below: 0.0) and a WARNING names the fact, so it is never
    silent. Proposals are checked strictly instead (:func:`proposed_confidence`).
    """
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:  # an int beyond float's range: no confidence at all
            number = math.inf
        clamped = min(1.0, max(0.0, number)) if math.isfinite(number) else 0.0
        if clamped != number:
            logger.warning(
                "stored fact %s has confidence %s outside [0, 1]: loaded as %.1f "
                "(the next save stores that)",
                fact_id if isinstance(fact_id, str) else "(no id)",
                # an int beyond float's range is named by its size (repr of one of
                # thousands of digits raises: int's conversion limit)
                f"an integer of {value.bit_length()} bits"
                if isinstance(value, int) and value.bit_length() > 1024
                else repr(value),
                clamped,
            )
        return clamped
    return value


CONFIDENCE_RULE = 'a number from 0 to 1, or a percentage up to 100 (85 or "85%" means 0.85)'
"""The confidence rule of every door (CLI, HTTP, model output): :func:`proposed_confidence`."""


def proposed_confidence(value: Any) -> float:
    """The confidence of a proposed fact as a number in [0, 1], or ``ValueError``.

    Rules: booleans and non-numbers are rejected; ``NaN``, ``Infinity`` and
    overflowing literals (``1e309``) are rejected; a value in ``(1, 100]`` or a
    string ending in ``%`` is read as a percentage (``85`` → ``0.85``, ``"2"`` →
    ``0.02``, which then falls below the confidence threshold); anything else
    outside ``[0, 1]`` is rejected. Nothing is ever clamped up to 1.0.
    """
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"confidence must be a number, got {type(value).__name__}")
    percent = False
    if isinstance(value, str):
        text = value.strip()
        if _CONFIDENCE_TEXT.fullmatch(text) is None:  # float() would take "8_5", "50%%"
            # A short value is quoted whole (the error's reader checks it for a secret); a
            # long one is not, since a cut could keep a secret's value and lose its name.
            said = repr(value) if len(value) <= 24 else f"text of {len(value):,} characters"
            raise ValueError(f"confidence must be a number, got {said}")
        percent = text.endswith("%")
        number = float(text.rstrip("%").strip())
    else:
        try:
            number = float(value)
        except OverflowError:  # an int of hundreds of digits: a number, out of range
            number = math.inf
    if math.isnan(number) or (math.isinf(number) and "inf" in str(value).lower()):
        raise ValueError("confidence must be a finite number")
    if math.isinf(number):  # digits beyond a float's range ("999…9"): out of range, not NaN
        shown = str(value).strip()
        shown = shown if len(shown) <= 20 else f"{shown[:12]}… ({len(shown)} characters)"
        raise ValueError(f"confidence {shown} is outside the allowed range: {CONFIDENCE_RULE}")
    if not percent and 1.0 < number <= 1.0 + _FLOAT_NOISE:
        number = 1.0  # 1.0000001 from a model's arithmetic is 1, not 0.01 %
    if percent or 1.0 < number <= 100.0:
        number /= 100.0
    if not 0.0 <= number <= 1.0:
        shown = value.strip()[:20] if isinstance(value, str) else f"{value:g}"
        raise ValueError(f"confidence {shown} is outside the allowed range: {CONFIDENCE_RULE}")
    return number + 0.0  # -0.0 is 0.0


_CONFIDENCE_TEXT = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*%?")
_FLOAT_NOISE = 1e-6


def _not_set(value: Any) -> bool:
    # ``constraint: false`` is not written: documents without constraints keep DeerFlow's shape.
    return not value


class Section(_Model):
    """One summary slot: ``{"summary": ..., "updatedAt": ...}``."""

    summary: Text = ""
    updated_at: Text = ""


class UserContext(_Model):
    """Current state of the user, overwritten often."""

    work_context: Section = Section()
    personal_context: Section = Section()
    top_of_mind: Section = Section()


class History(_Model):
    """What the user did, coarser the older it is."""

    recent_months: Section = Section()
    earlier_context: Section = Section()
    long_term_background: Section = Section()


class _FactValidation(_Model):
    """Validation shared by stored and proposed facts; fields stay in DeerFlow's order."""

    @model_validator(mode="before")
    @classmethod
    def _normalise(cls, data: Any) -> Any:
        return _normalise_category(data)

    @field_validator("confidence", mode="before", check_fields=False)
    @classmethod
    def _clamp(cls, value: Any, info: ValidationInfo) -> Any:
        return _clamp_confidence(value, info.data.get("id"))


class Fact(_FactValidation):
    """One durable, discrete piece of knowledge about the user."""

    id: Id = Field(default_factory=new_fact_id)
    content: Text
    category: FactCategory = FactCategory.CONTEXT
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)
    created_at: Text = Field(default_factory=utc_now_iso)
    source: Text = "unknown"
    source_type: SourceType = SourceType.INFERRED
    source_error: Text | None = None
    constraint: bool = Field(False, exclude_if=_not_set)
    """A need every answer must respect: allergy or intolerance, diet, medical or
    accessibility need. Injected every turn in both injection modes, with its own
    token budget, whatever the request says. Written only when true."""
    expires_at: Text | None = None
    """ISO-8601 UTC moment after which the fact is no longer injected (``None``: never)."""
    last_confirmed_at: Text | None = None
    """When the user last restated or the model last confirmed it (``None``: ``createdAt``)."""
    access_count: int = Field(default=0, ge=0, exclude_if=_not_set)
    """Turns the fact was injected into (recorded off the hot path, in batches)."""
    last_accessed_at: Text | None = None
    """When it was last injected."""


class SupersededFact(Fact):
    """A fact that was removed or replaced, kept so earlier statements stay answerable.

    It keeps the original ``createdAt`` and ``source`` thread ("you told me on
    12 July, in thread X"), plus when and why it stopped being current.
    """

    superseded_at: Text = ""
    reason: Text = ""


class HygieneCounts(_Model):
    """Running totals of memory cleaning (history is capped; these totals are not)."""

    merged: int = Field(default=0, ge=0)
    expired: int = Field(default=0, ge=0)
    retired: int = Field(default=0, ge=0)
    judged_out: int = Field(default=0, ge=0)


class ExtractionWatermark(_Model):
    """Which messages of one thread were already extracted into this document.

    ``messageKeys`` are the keys (LangGraph message id, else a content hash) of
    the most recently extracted messages, newest last, capped; everything up to
    the newest of them that is still in the thread counts as extracted. Kept in
    the document so it is saved atomically with the update it belongs to.

    ``sealed`` (written only when true): left by a delete, the thread id and the
    keys are HMAC-SHA256 digests under the storage's fence key, matched but
    not readable (see :mod:`deerflow_memory.update.sealing`).

    ``truncated`` (written only when true): the mark holds fewer keys than a
    thread keeps (16), yet older keys of the thread were dropped. So is a
    *compact* mark: a thread's newest few keys, all that is kept of its
    watermark once many newer threads pushed it out of the full ones (see
    :func:`deerflow_memory.update.incremental.advance_watermark`). Its newest
    key still ends what was extracted, and a delete's fence of it stands for
    the thread's older messages too. A mark without the field is not truncated.
    """

    thread_id: Text
    message_keys: tuple[Text, ...] = ()
    updated_at: Text = ""
    sealed: bool = Field(False, exclude_if=_not_set)
    truncated: bool = Field(False, exclude_if=_not_set)


class BookkeepingSaves(_Model):
    """Revisions ``since`` to ``revision`` hold the same facts and summaries.

    Written by saves that change only bookkeeping (use counts, extraction
    watermarks); it holds only while the document is still at ``revision``:
    any other save moves the revision past it, so a writer that knows nothing
    of it can never make it claim too much.
    """

    since: int = Field(ge=0)
    revision: int = Field(ge=0)


class MemoryDocument(_Model):
    """A user's memory for one agent (DeerFlow memory.json v1 plus ``revision``).

    ``extractionWatermarks`` (ours, ignored by DeerFlow) remembers per thread
    which messages were already extracted. ``bookkeeping`` (ours) says since
    which revision the saves were bookkeeping only (see
    :meth:`same_content_since`). ``deletedAt`` (ours, written only when set)
    marks a *tombstone*: what a storage ``delete`` leaves, an empty document
    whose ``revision`` is one past the deleted memory's, so that revisions of a
    memory never repeat across a delete (an edit sent with a revision read
    before the delete can never match the next memory's). Every save clears it.
    ``clearedAt`` (ours, written only when set) is when the user last cleared
    this memory (ISO 8601 UTC; a clear's tombstone sets it, a plain storage
    ``delete`` does not) and, unlike ``deletedAt``, later saves keep it:
    ``migrate`` compares it with the source's to never copy back what a clear
    on the target removed (see :mod:`deerflow_memory.storage.migrate`).
    """

    version: Text = DOCUMENT_VERSION
    last_updated: Text = Field(default_factory=utc_now_iso)
    user: UserContext = UserContext()
    history: History = History()
    facts: tuple[Fact, ...] = ()
    superseded_facts: tuple[SupersededFact, ...] = ()
    hygiene: HygieneCounts | None = None
    extraction_watermarks: tuple[ExtractionWatermark, ...] = ()
    bookkeeping: BookkeepingSaves | None = None
    deleted_at: Text | None = None
    cleared_at: Text | None = None
    revision: int = Field(default=0, ge=0)

    def same_content_since(self, revision: int) -> bool:
        """True when the facts and summaries are what they were at ``revision``.

        Exactly when ``revision`` is this document's own, or every save since
        it only changed bookkeeping (use counts, extraction watermarks): what a
        user's edit made at ``revision`` was based on is unchanged. A user's
        edit checks this instead of the bare revision, so an agent chatting
        with the user (its injections are counted a few seconds later) does not
        make the user's edit fail as if somebody had changed their memory.
        """
        if revision == self.revision:
            return True
        mark = self.bookkeeping
        return (
            mark is not None
            and mark.revision == self.revision
            and mark.since <= revision < mark.revision
        )

    def bookkeeping_save(self, changed: MemoryDocument) -> MemoryDocument:
        """``changed``, marked as a bookkeeping-only save of this document.

        ``changed`` must differ from this document (as loaded, at its stored
        revision) only in use counts, extraction watermarks or ``lastUpdated``,
        and be saved with ``expected_revision=self.revision``: the mark says
        that the revision it is stored at holds the same facts and summaries as
        every revision since the last save that changed them.
        """
        mark = self.bookkeeping
        since = mark.since if mark is not None and mark.revision == self.revision else self.revision
        return changed.model_copy(
            update={"bookkeeping": BookkeepingSaves(since=since, revision=self.revision + 1)}
        )

    def is_empty(self) -> bool:
        """True when there is no summary text and no fact."""
        sections = (
            self.user.work_context,
            self.user.personal_context,
            self.user.top_of_mind,
            self.history.recent_months,
            self.history.earlier_context,
            self.history.long_term_background,
        )
        return not self.facts and not any(s.summary.strip() for s in sections)

    def holds_only_fence(self) -> bool:
        """True for what deleting a memory leaves: no content, only sealed watermarks.

        A tombstone (``deletedAt`` set, see the class docstring) counts too, and
        so does an empty document marked ``clearedAt`` (a clear ``migrate``
        copied: a save keeps no ``deletedAt``). Such a document is not a
        memory: listings, ``show`` and stats skip it.
        """
        marks = self.extraction_watermarks
        return (
            (self.deleted_at is not None or self.cleared_at is not None or bool(marks))
            and all(m.sealed for m in marks)
            and not self.superseded_facts
            and self.is_empty()
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready camelCase mapping, unknown keys included."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)

    def to_json(self, *, indent: int | None = 2) -> str:
        """Serialise to DeerFlow-compatible JSON text (UTF-8, not ASCII-escaped)."""
        # pydantic's Rust serializer: several times faster than json.dumps with an indent.
        return self.model_dump_json(by_alias=True, exclude_none=True, indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> MemoryDocument:
        """Parse JSON text (``str``, or UTF-8 ``bytes``) of a memory document.

        Raises:
            InvalidDocumentError: ``text`` is not text, not JSON, nested too
                deep, or not a valid document (a ``ValueError``; the JSON or
                pydantic error is the ``__cause__``).
        """
        if not isinstance(text, str | bytes | bytearray):
            raise InvalidDocumentError(
                f"text must be JSON text (a str or bytes), got {type(text).__name__}"
            )
        try:
            data = json.loads(text)
        except (RecursionError, MemoryError) as e:
            raise InvalidDocumentError(f"memory document JSON nested too deeply ({e})") from e
        except ValueError as e:  # JSONDecodeError, UnicodeDecodeError
            raise InvalidDocumentError(f"memory document is not JSON: {json_problem(e)}") from e
        try:
            return cls.model_validate(data)
        except ValidationError as e:
            raise InvalidDocumentError(
                f"not a valid memory document: {first_problem(e, 'document')}"
            ) from e


def json_problem(error: ValueError) -> str:
    """What ``json.loads`` found wrong, in words for a user (not Python's advice)."""
    if "integer string conversion" in str(error):  # CPython's limit on int digits
        return "it holds a number of more than 4,300 digits"
    return str(error)


def first_problem(error: ValidationError, whole: str) -> str:
    """``"<where>: <message>"`` of the first problem pydantic found (for one-line errors).

    ``where`` is the dotted location (``facts.0.content``); ``whole`` names it
    when the problem is with the input as a whole (an empty location).
    """
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or whole
    message = str(first["msg"]).removeprefix("Value error, ")  # pydantic's, for ValueError
    return f"{where}: {message}" if where else message


_SHOWN_RENAMES = 3


def unique_fact_ids(document: MemoryDocument, where: str | None) -> tuple[MemoryDocument, bool]:
    """``document`` with every current fact id listed once, and whether anything changed.

    The rule for documents we did not write in this process (a ``memory.json``
    written by DeerFlow or an editor, a journal, a store row written elsewhere):
    a later copy of a fact with the same id *and the same content* is dropped
    (the first copy stays; a ``constraint`` mark on any copy is kept); a later
    copy with the same id but other content keeps its text under a fresh id
    (``fact_<8 hex>``, derived from the copy, so every process reading the same
    bytes picks the same one). One WARNING names ``where`` (a path or store
    namespace) and the counts; ``where=None`` logs nothing (a caller's mapping
    rendered on every turn would repeat the warning each turn). Without a
    repeated id ``document`` itself is returned (one pass over the ids).
    ``supersededFacts`` is history and may repeat an id (each edit of a fact
    keeps its old version): it is not touched.
    """
    facts = document.facts
    ids = {fact.id for fact in facts}
    if len(ids) == len(facts):
        return document, False
    kept: list[Fact] = []
    by_id: dict[str, list[int]] = {}  # original id -> positions in ``kept`` of its copies
    dropped = 0
    renamed: list[tuple[str, str]] = []
    for index, fact in enumerate(facts):
        copies = by_id.setdefault(fact.id, [])
        same = next((i for i in copies if kept[i].content == fact.content), None)
        if same is not None:
            dropped += 1
            if fact.constraint and not kept[same].constraint:
                kept[same] = kept[same].model_copy(update={"constraint": True})
            continue
        if copies:
            fresh = _fresh_fact_id(fact, index, ids)
            renamed.append((fact.id, fresh))
            fact = fact.model_copy(update={"id": fresh})
        copies.append(len(kept))
        kept.append(fact)
    shown = ", ".join(f"{old} -> {new}" for old, new in renamed[:_SHOWN_RENAMES])
    more = f" and {len(renamed) - _SHOWN_RENAMES} more" if len(renamed) > _SHOWN_RENAMES else ""
    if where is None:
        return document.model_copy(update={"facts": tuple(kept)}), True
    logger.warning(
        "%s lists fact ids more than once: %d exact copies dropped, %d copies with other "
        "content kept under new ids%s (the next save stores this)",
        where,
        dropped,
        len(renamed),
        f" ({shown}{more})" if renamed else "",
    )
    return document.model_copy(update={"facts": tuple(kept)}), True


def _fresh_fact_id(fact: Fact, index: int, taken: set[str]) -> str:
    """A ``fact_<8 hex>`` id for a renamed copy, not in ``taken`` (which it joins)."""
    salt = 0
    while True:
        seed = f"{fact.id}\x00{index}\x00{salt}\x00{fact.content}".encode("utf-8", "replace")
        candidate = f"fact_{hashlib.blake2b(seed, digest_size=4).hexdigest()}"
        if candidate not in taken:
            taken.add(candidate)
            return candidate
        salt += 1


# --- the update the memory model returns -----------------------------------------


class SectionUpdate(_Model):
    """A proposed new summary; applied only when ``shouldUpdate`` and non-empty."""

    summary: Text = ""
    should_update: bool = False


class UserUpdate(_Model):
    work_context: SectionUpdate | None = None
    personal_context: SectionUpdate | None = None
    top_of_mind: SectionUpdate | None = None


class HistoryUpdate(_Model):
    recent_months: SectionUpdate | None = None
    earlier_context: SectionUpdate | None = None
    long_term_background: SectionUpdate | None = None


class NewFact(_Model):
    """A fact the model proposes to add; ``confidence`` follows :func:`proposed_confidence`."""

    content: Text = Field(min_length=1)
    category: FactCategory = FactCategory.CONTEXT
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)
    source_type: SourceType = SourceType.INFERRED
    source_error: Text | None = None
    constraint: bool = Field(False, exclude_if=_not_set)
    """True for an allergy, diet, medical or accessibility need (see :attr:`Fact.constraint`)."""
    expires_at: Text | None = None
    """ISO-8601 date or moment when the fact stops mattering (a goal with a time frame)."""

    @model_validator(mode="before")
    @classmethod
    def _normalise(cls, data: Any) -> Any:
        return _normalise_category(data)

    @field_validator("confidence", mode="before")
    @classmethod
    def _strict_confidence(cls, value: Any) -> Any:
        return proposed_confidence(value)


class Rejection(_Model):
    """One part of a proposed update that was not applied, and why.

    ``item`` names the part (``newFacts[3]``, ``user.topOfMind``,
    ``factsToRemove[0]``); ``text`` is a short cleaned preview of the value.
    """

    item: Text
    reason: Text
    text: Text = ""


class FactRemoval(_Model):
    """A stored fact the model proposes to remove, with why."""

    id: Id
    reason: Text = ""


class FactMerge(_Model):
    """Stored facts the model says mean the same: ``ids`` merged into one (see consolidation)."""

    ids: tuple[Id, ...] = ()


class MemoryUpdate(_Model):
    """The full answer of the memory model (or the offline extractor)."""

    user: UserUpdate = UserUpdate()
    history: HistoryUpdate = HistoryUpdate()
    new_facts: tuple[NewFact, ...] = ()
    facts_to_remove: tuple[FactRemoval, ...] = ()
    rejected: tuple[Rejection, ...] = Field(default=(), exclude=True)
    """Parts dropped while parsing or validating (never written, never sent to a model)."""
    facts_to_confirm: tuple[Id, ...] = ()
    """Ids of facts due for review that the model confirms are still true."""
    facts_to_merge: tuple[FactMerge, ...] = ()
    """Groups of stored near-duplicates the model proposes to merge."""

    @classmethod
    def from_mapping(cls, data: Any) -> MemoryUpdate:
        """Validate a decoded JSON object, one part at a time.

        A malformed fact, removal or summary section is dropped and recorded in
        ``rejected``; the rest of the update stands.

        Raises:
            UpdateParseError: ``data`` is not an object, or its top level is malformed
                (e.g. ``newFacts`` is not a list).
        """
        if not isinstance(data, dict):
            raise UpdateParseError(
                f"memory update must be a JSON object, got {type(data).__name__}"
            )
        data, rejected = _split_invalid_parts(data)
        try:
            update = cls.model_validate(data)
        except ValidationError as e:
            raise UpdateParseError(f"memory update does not match the schema: {e}") from e
        return update.model_copy(update={"rejected": tuple(rejected)}) if rejected else update

    def is_noop(self) -> bool:
        """True when applying this update would change nothing."""
        sections = (
            self.user.work_context,
            self.user.personal_context,
            self.user.top_of_mind,
            self.history.recent_months,
            self.history.earlier_context,
            self.history.long_term_background,
        )
        return (
            not self.new_facts
            and not self.facts_to_remove
            and not self.facts_to_confirm
            and not self.facts_to_merge
            and not any(s and s.should_update and s.summary.strip() for s in sections)
        )


_PART_MODELS: dict[str, tuple[str, type[_Model]]] = {
    "newFacts": ("newFacts", NewFact),
    "new_facts": ("newFacts", NewFact),
    "factsToRemove": ("factsToRemove", FactRemoval),
    "facts_to_remove": ("factsToRemove", FactRemoval),
    "factsToMerge": ("factsToMerge", FactMerge),
    "facts_to_merge": ("factsToMerge", FactMerge),
}


# Characters of a rejected value kept by parsing: more than a preview shows (80), so that
# ``validate_update`` checks a secret cut at the end whole before it cuts the preview.
_PREVIEW_SOURCE_CHARS = 400


def _preview(value: Any) -> str:
    """The text of a rejected value as written, not ``repr`` (an escaped ``\\u200b`` would
    hide a secret from the check): its content or summary, else its keys with their values
    (``"password: marigold22"``: the key says what the value is), a list's items."""
    if isinstance(value, dict):
        text = value.get("content", value.get("summary"))
        if isinstance(text, str):
            return text[:_PREVIEW_SOURCE_CHARS]
        return "; ".join(
            f"{key}: {inner}"
            for key, inner in value.items()
            if isinstance(inner, str | int | float)
        )[:_PREVIEW_SOURCE_CHARS]
    if isinstance(value, list):
        return "; ".join(_preview(item) for item in value[:8])[:_PREVIEW_SOURCE_CHARS]
    return str(value)[:_PREVIEW_SOURCE_CHARS]


def _split_invalid_parts(data: dict[str, Any]) -> tuple[dict[str, Any], list[Rejection]]:
    """``data`` without the facts, removals and sections that fail validation on their own."""
    data = {k: v for k, v in data.items() if k != "rejected"}  # never taken from the model
    rejected: list[Rejection] = []
    for key, (label, model) in _PART_MODELS.items():
        items = data.get(key)
        if not isinstance(items, list):
            continue
        kept = []
        for index, item in enumerate(items):
            try:
                model.model_validate(item)
            except ValidationError as e:
                reason = "; ".join(_short_error(err) for err in e.errors()[:3])
                rejected.append(
                    Rejection(item=f"{label}[{index}]", reason=reason, text=_preview(item))
                )
                continue
            kept.append(item)
        data[key] = kept
    for key in ("factsToConfirm", "facts_to_confirm"):
        ids = data.get(key)
        if isinstance(ids, list):
            kept_ids = []
            for index, value in enumerate(ids):
                problem = _id_problem(value) if isinstance(value, str) else "is not a string"
                if problem is None:
                    kept_ids.append(value)
                    continue
                rejected.append(
                    Rejection(
                        item=f"factsToConfirm[{index}]",
                        reason=f"not an id: it {problem}",
                        text=_preview(value),
                    )
                )
            data[key] = kept_ids
    for group in ("user", "history"):
        sections = data.get(group)
        if not isinstance(sections, dict):
            continue
        kept_sections = {}
        for name, value in sections.items():
            if value is None:
                continue
            try:
                SectionUpdate.model_validate(value)
            except ValidationError as e:
                reason = "; ".join(_short_error(err) for err in e.errors()[:3])
                rejected.append(
                    Rejection(item=f"{group}.{name}", reason=reason, text=_preview(value))
                )
                continue
            kept_sections[name] = value
        data[group] = kept_sections
    return data, rejected


def _rejection(item: str, error: ValidationError, value: Any) -> Rejection:
    reason = "; ".join(_short_error(err) for err in error.errors()[:3])
    return Rejection(item=item, reason=reason, text=_preview(value))


def _short_error(error: Any) -> str:
    where = ".".join(str(p) for p in error.get("loc", ()))
    message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


class DocumentKey(tuple[str, str | None]):
    """``(user_id, agent_name)``: which memory document; ``agent_name=None`` is the default."""

    __slots__ = ()

    def __new__(cls, user_id: str, agent_name: str | None = None) -> DocumentKey:
        return super().__new__(cls, (user_id, agent_name))

    @property
    def user_id(self) -> str:
        return self[0]

    @property
    def agent_name(self) -> str | None:
        return self[1]


# --- user ids, agent names, tenant ids (storage/names.py maps them to folder names) ----

MAX_NAME_LENGTH = 128
_PUNCTUATION = frozenset("_.@+-")
# Names that passed validation, raw -> normalised; the rules are pure.
_VALID: dict[str, str] = {}
_VALID_MAX = 100_000


def _problem(name: str) -> str | None:
    if not name:
        return "must not be empty"
    if name != name.strip():
        return "must not start or end with whitespace"
    if len(name) > MAX_NAME_LENGTH:
        return f"is {len(name)} characters long; at most {MAX_NAME_LENGTH}"
    if name in {".", ".."} or name.startswith("."):
        return "must not start with a dot"
    for position, char in enumerate(name):
        if (char.isalnum() and char not in _BLANK_LETTERS) or char in _PUNCTUATION:
            continue  # not a Hangul filler: "ㅤ" would look like no id, "alㅤice" like alice
        if position and unicodedata.category(char).startswith("M"):
            continue  # a combining mark after a letter (Devanagari vowel signs, ...)
        return (
            f"contains {unicodedata.name(char, f'U+{ord(char):04X}')!r} at position "
            f"{position}: use letters and digits of any script and _ - . @ +"
        )
    return None


def validate_name(name: object, kind: str = "user_id") -> str:
    """The NFC form of ``name`` if it is a valid user id or agent name.

    Args:
        name: the id as given (any Unicode normalisation form).
        kind: what it is, for the error message (``user_id``, ``agent_name``).

    Returns:
        The NFC-normalised name; use it, not the input, as the key.

    Raises:
        InvalidNameError: not a string, empty, longer than 128 characters,
            leading/trailing whitespace, a leading dot, or a character other
            than letters, digits, combining marks and ``_ - . @ +``.
    """
    if not isinstance(name, str):
        raise InvalidNameError(f"{kind} must be a string, got {type(name).__name__}")
    known = _VALID.get(name)
    if known is not None:
        return known  # already checked: this runs for every node call
    normalised = unicodedata.normalize("NFC", name)
    problem = _problem(normalised)
    if problem:
        # A long one is not quoted cut: the cut could keep a secret's value and lose its name
        # (the command line and the routes hide a quoted one that looks like a secret).
        shown = repr(normalised) if len(normalised) <= 40 else f"of {len(normalised):,} characters"
        raise InvalidNameError(f"{kind} {shown} is not allowed: it {problem}")
    if len(_VALID) < _VALID_MAX:
        _VALID[name] = normalised
    return normalised
