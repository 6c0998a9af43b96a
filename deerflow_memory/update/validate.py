"""What a memory update may contain: the one check every extractor's answer goes through.

:func:`validate_update` runs in the updater between extraction and apply, for
the model extractor and the offline extractor alike; :func:`check_fact_text`
is the same rule for a single fact from anywhere else (a manual fact from the
HTTP API, a ``remember`` tool). Rules, in order:

- **Text** has each lone surrogate (U+D800–U+DFFF, not valid Unicode) replaced
  by U+FFFD and is NFC-normalised; control characters, bidi overrides/isolates
  (U+202A–U+202E, U+2066–U+2069, LRM/RLM/ALM), BOM, interlinear marks and
  the invisible word splitters (soft hyphen, zero-width space, word joiner,
  invisible operators) are removed; line separators (``\\r\\n``, ``\\r``,
  VT, FF, U+0085, U+2028, U+2029, U+001C–U+001E) become a space in facts,
  reasons and ids and ``\\n`` in summaries; runs of spaces collapse
  (:func:`clean_text`).
- **A fact** is rejected when it is empty, has no letter or digit that shows
  (punctuation, symbols or invisible characters only:
  :func:`~deerflow_memory.models.says_nothing`), a schema placeholder
  (``...``, ``string``, ``<fact>``, ``null``...), or longer than
  ``max_fact_chars``. Its confidence was checked when parsed
  (:func:`~deerflow_memory.models.proposed_confidence`: finite, in [0, 1],
  percentages divided by 100). A ``sourceError`` is cleaned and cut to
  ``max_fact_chars``.
- **A secret or words to the assistant** (:func:`~deerflow_memory.update.unsafe.unsafe_to_store`:
  a password, a key, a card number, "ignore previous instructions"…) in a new
  fact, its ``sourceError`` or a summary rejects that fact or summary, whichever
  extractor proposed it (a model may store what its prompt forbids); no
  rejection shows such text, whatever rejected it (parsing, a judge, a
  length), and a removal's reason that holds one is replaced.
- **At most** ``max_new_facts_per_update`` new facts, as many removals and
  as many facts merged away by proposed merges are kept, in the order given;
  the rest are rejected.
- **A summary** that is a placeholder or has no letter or digit that shows is rejected; a long
  one is cut at the last sentence boundary within ``max_summary_chars``.

One bad part rejects that part only. Every rejection is listed in
``MemoryUpdate.rejected`` (and then ``UpdateResult.rejected``) with the reason.
Nothing here raises.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from deerflow_memory.arguments import expect, expect_number, expect_text
from deerflow_memory.config import MemoryConfig
from deerflow_memory.errors import ConfigError, InvalidFactError, UpdateParseError
from deerflow_memory.models import (
    FactRemoval,
    HistoryUpdate,
    MemoryUpdate,
    NewFact,
    Rejection,
    SectionUpdate,
    UserUpdate,
    replace_surrogates,
    says_nothing,
    without_invisible,
)
from deerflow_memory.update.unsafe import unsafe_even_escaped, unsafe_to_store

__all__ = [
    "LINE_BREAKS",
    "UpdateLimits",
    "check_fact_text",
    "clean_source_error",
    "clean_summary",
    "clean_text",
    "cleaned_fact_text",
    "cut_at_sentence",
    "fact_text_problem",
    "original_positions",
    "validate_update",
    "without_invisible",
]

LINE_BREAKS = re.compile("\r\n|[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
"""Every line separator :meth:`str.splitlines` breaks on, ``\\r\\n`` first."""
_SPACES = re.compile(r"[^\S\n]+")
_BLANK_LINES = re.compile(r"\n{3,}")

# What models echo from the schema or a template instead of a fact.
_PLACEHOLDERS = frozenset(
    {
        "string",
        "str",
        "text",
        "content",
        "fact",
        "facts",
        "summary",
        "example",
        "placeholder",
        "null",
        "none",
        "nil",
        "undefined",
        "n/a",
        "na",
        "tbd",
        "todo",
        "fact_",
        "fact_...",
        "<fact>",
        "<content>",
        "<summary>",
        "your fact here",
        "fact content",
        # Chinese: "none", "nothing yet", "empty", "unknown", "omitted", "to be decided"
        "无",
        "暂无",
        "空",
        "未知",
        "略",
        "待定",
    }
)

PREVIEW_CHARS = 80


def clean_text(text: str, *, multiline: bool = False) -> str:
    """``text`` NFC-normalised, without control or bidi-override characters, trimmed.

    Lone surrogates become U+FFFD (see :func:`~deerflow_memory.models.replace_surrogates`).

    Args:
        text: any text from a model, a user or a file.
        multiline: keep line breaks as ``\\n`` (summaries); otherwise every line
            separator becomes a space.

    Returns:
        The cleaned text; runs of whitespace collapse to one space (blank lines
        to at most one in multiline text).

    Raises:
        InvalidArgumentError: ``text`` is not a ``str``.
    """
    expect_text(text, "text")
    text = LINE_BREAKS.sub("\n" if multiline else " ", replace_surrogates(text))
    # NFC after the removals: a zero-width space between a letter and its accent
    # must not leave them decomposed ("pure\u200b\u0301e" is "purée").
    text = unicodedata.normalize("NFC", without_invisible(text))
    # Composing may leave a selector after a letter ("e\u0301\ufe0f" is "é\ufe0f"): read
    # again, so that cleaning clean text changes nothing.
    text = unicodedata.normalize("NFC", without_invisible(text))
    text = _SPACES.sub(" ", text)
    if multiline:
        text = "\n".join(line.strip() for line in text.split("\n"))
        text = _BLANK_LINES.sub("\n\n", text)
    return text.strip()


def _is_placeholder(text: str) -> bool:
    if says_nothing(text):
        return True  # empty, "...", "—", "?!", "ㅤㅤ" (Hangul fillers look blank)
    return text.casefold().strip(" .…:;,!?\"'`*-_。，；：！？") in _PLACEHOLDERS


def fact_text_problem(text: str, *, max_chars: int) -> str | None:
    """Why cleaned fact text cannot be stored, or None when it can.

    Raises:
        InvalidArgumentError: ``text`` is not a ``str``.
        ConfigError: ``max_chars`` is not an int of at least 0.
    """
    expect_text(text, "text")
    _expect_limit(max_chars)
    if not text:
        return "empty"
    if says_nothing(text):
        return "no letter or digit (only punctuation, symbols or invisible characters)"
    if _is_placeholder(text):
        return "a placeholder, not a fact"
    if len(text) > max_chars:
        return f"{len(text)} characters, longer than max_fact_chars={max_chars}"
    return None


def check_fact_text(text: str, *, max_chars: int = 500) -> str:
    """The cleaned text of one fact from anywhere (API, tool); the rule updates follow.

    Raises:
        InvalidFactError: the text is not a ``str``, or is empty, has no letter or digit,
            a placeholder or too long.
        ConfigError: ``max_chars`` is not an int.

    Example:
        >>> check_fact_text("  Likes\\u202e tea\\n")
        'Likes tea'
    """
    if not isinstance(text, str):
        raise InvalidFactError(f"a fact must be text, got {type(text).__name__}")
    expect_number(max_chars, "max_chars", ConfigError, integer=True)
    cleaned, problem = cleaned_fact_text(text, max_chars=max_chars)
    if problem:
        raise InvalidFactError(f"fact rejected: {problem}")
    return cleaned


def cleaned_fact_text(text: str, *, max_chars: int) -> tuple[str, str | None]:
    """``(clean_text(text), why it cannot be stored or None)``: the one rule for a fact's text.

    Text that only held characters cleaning removes (``"\u200b"``) is said to be
    empty *once they are removed*, so it does not read as a blank input.
    """
    cleaned = clean_text(text)
    problem = fact_text_problem(cleaned, max_chars=max_chars)
    if problem == "empty" and text.strip():
        problem = "empty once control, invisible and bidi characters are removed"
    return cleaned, problem


_SENTENCE_END = re.compile(r"(?:[.!?](?=\s)|[。！？…]|\n)")


def _expect_limit(max_chars: object) -> None:
    expect_number(max_chars, "max_chars", ConfigError, integer=True)
    if max_chars < 0:  # type: ignore[operator]  # an int now
        raise ConfigError(f"max_chars must be at least 0, got {max_chars}")


def cut_at_sentence(text: str, max_chars: int) -> str:
    """``text`` cut to at most ``max_chars`` at the last sentence end that fits.

    Falls back to the last space, then to a hard cut, when no sentence ends in range.

    Raises:
        InvalidArgumentError: ``text`` is not a ``str``.
        ConfigError: ``max_chars`` is not an int of at least 0.
    """
    expect_text(text, "text")
    _expect_limit(max_chars)
    if len(text) <= max_chars:
        return text
    head = text[:max_chars]
    ends = [m.end() for m in _SENTENCE_END.finditer(head + " ")]
    ends = [e for e in ends if e <= max_chars]
    if ends and ends[-1] >= max_chars // 4:
        return head[: ends[-1]].strip()
    space = head.rfind(" ")
    return (head[:space] if space >= max_chars // 4 else head).strip()


@dataclass(frozen=True, slots=True)
class UpdateLimits:
    """The bounds :func:`validate_update` applies (from :class:`MemoryConfig`)."""

    max_new_facts: int = 20
    max_fact_chars: int = 500
    max_summary_chars: int = 2000

    @classmethod
    def from_config(cls, config: MemoryConfig) -> UpdateLimits:
        return cls(
            max_new_facts=config.max_new_facts_per_update,
            max_fact_chars=config.max_fact_chars,
            max_summary_chars=config.max_summary_chars,
        )


def _preview(text: str) -> str:
    return clean_text(text)[:PREVIEW_CHARS]


def clean_source_error(text: str, max_chars: int) -> str | None:
    """A correction's ``sourceError`` as stored: cleaned, cut at a sentence to ``max_chars``.

    Returns:
        The text, or None when nothing is left of it or what is left says
        nothing (:func:`~deerflow_memory.models.says_nothing`: ``"<>"``, ``"ㅤ"``).

    Raises:
        InvalidArgumentError: ``text`` is not a ``str``.
        ConfigError: ``max_chars`` is not an int of at least 0.
    """
    cut = cut_at_sentence(clean_text(text), max_chars)
    return None if says_nothing(cut) else cut


def clean_summary(text: str, max_chars: int) -> str:
    """A summary as stored: cleaned (its lines kept), cut at a sentence to ``max_chars``.

    Returns:
        The text, or "" when what is left says nothing
        (:func:`~deerflow_memory.models.says_nothing`).

    Raises:
        InvalidArgumentError: ``text`` is not a ``str``.
        ConfigError: ``max_chars`` is not an int of at least 0.
    """
    cut = _cut_summary(text, max_chars)
    return "" if says_nothing(cut) else cut


def _cut_summary(text: str, max_chars: int) -> str:
    return cut_at_sentence(clean_text(text, multiline=True), max_chars)


# Where a summary is cut around a secret: a stop, the closing quotes or brackets after it,
# and then a space (not "U.S.", "3.5", "4111.1111": a number cut in two keeps its digits;
# not a title's dot, "Dr. Lee", which a dropped sentence would leave behind) or, after a
# Chinese stop, anything. Stricter than _SENTENCE_END, which cuts for length.
_TITLES = ("Dr", "Mr", "Mrs", "Ms", "Mx", "Prof", "St", "Mt", "Jr", "Sr", "No", "vs")
_SECRET_CUT = re.compile(
    "".join(rf"(?<!\b{title})" for title in _TITLES)
    + r"(?:[.!?…]+[\"'”’」』)\]]*(?=\s)|[。！？]+[\"'”’」』)\]]*)\s*"
)


def _without_unsafe_sentences(summary: str) -> str:
    """``summary`` without the sentences :func:`unsafe_to_store` refuses, its lines kept.

    ``""`` when a refused sentence is followed by what may be its value ("Their wifi
    password:" then "Kettle9981", "Gate code:" then "4821"): a digit, or one word.
    """
    lines: list[list[str]] = []  # the parts of each line, in order
    for line in summary.split("\n"):
        parts, start = [], 0
        for end in _SECRET_CUT.finditer(line):
            parts.append(line[start : end.end()])
            start = end.end()
        parts.append(line[start:])
        lines.append([part for part in parts if part.strip()])
    flat = [part for parts in lines for part in parts]
    refused = {index for index, part in enumerate(flat) if unsafe_to_store(part)}
    if any(i + 1 < len(flat) and _VALUE_LIKE.search(flat[i + 1]) for i in refused):
        return ""
    kept, index = [], 0
    for parts in lines:
        said = "".join(p for i, p in enumerate(parts, index) if i not in refused).strip()
        index += len(parts)
        if said or not parts:  # a blank line stays; a line left empty goes
            kept.append(said)
    return "\n".join(kept).strip()


# What may be the value of a secret named in the sentence before: a digit, or a part of
# one word not in Chinese ("swordfish", "It's Bramble2020."; "他们养了一只猫。" is a sentence).
_VALUE_LIKE = re.compile(r"\d|^\s*[^\s\u3000-\u9fff\uff00-\uffef]+\s*$")


# No preview: the text is what must not be written, logged or shown.
_UNSAFE = "holds what looks like a secret or words to the assistant's instructions (not shown)"
_UNSAFE_REASON = "removed by the memory model (its reason looked like a secret: not kept)"


def _unsafe_shown(rejection: Rejection) -> Rejection:
    """``rejection`` without its text or reason when either looks like a secret, its
    text cut to :data:`PREVIEW_CHARS` (parsing keeps more, so a secret cut at the end of
    the preview is checked whole)."""
    changes: dict[str, str] = {}
    if rejection.text and unsafe_even_escaped(rejection.text):
        changes["text"] = ""
    elif len(rejection.text) > PREVIEW_CHARS:
        changes["text"] = rejection.text[:PREVIEW_CHARS]
    if unsafe_even_escaped(rejection.reason):
        what = rejection.reason.partition(":")[0][:40]
        changes["reason"] = f"{what}: not shown (it holds what looks like a secret)"
    return rejection.model_copy(update=changes) if changes else rejection


def _clean_fact(index: int, fact: NewFact, limits: UpdateLimits) -> NewFact | Rejection:
    content, problem = cleaned_fact_text(fact.content, max_chars=limits.max_fact_chars)
    if problem and unsafe_to_store(content):  # whatever else is wrong: not shown either
        return Rejection(item=f"newFacts[{index}]", reason=f"{problem}; {_UNSAFE}")
    if problem is None and not 0.0 <= fact.confidence <= 1.0:  # NaN fails both comparisons
        problem = f"confidence {fact.confidence!r} is outside [0, 1]"
    if problem:
        return Rejection(item=f"newFacts[{index}]", reason=problem, text=content[:PREVIEW_CHARS])
    source_error = fact.source_error
    if source_error is not None:
        source_error = clean_source_error(source_error, limits.max_fact_chars)
    if unsafe_to_store(content) or (source_error is not None and unsafe_to_store(source_error)):
        return Rejection(item=f"newFacts[{index}]", reason=_UNSAFE)
    if content == fact.content and source_error == fact.source_error:
        return fact
    return fact.model_copy(update={"content": content, "source_error": source_error})


def _clean_section(
    name: str, section: SectionUpdate | None, limits: UpdateLimits, rejected: list[Rejection]
) -> SectionUpdate | None:
    if section is None or not section.should_update:
        return section
    # Cut before it is judged: a cut that leaves "!!!…" must not replace a summary.
    summary = _cut_summary(section.summary, limits.max_summary_chars)
    if summary and _is_placeholder(summary):
        rejected.append(
            Rejection(
                item=name, reason="a placeholder, not a summary", text=summary[:PREVIEW_CHARS]
            )
        )
        return None
    if unsafe_to_store(summary):
        # Only the sentences that hold it go ("IT reset their password. They now use a
        # password manager." keeps the second); none left, or what is left still holds
        # one: the summary stored before stays.
        summary = _without_unsafe_sentences(summary)
        if says_nothing(summary) or unsafe_to_store(summary):
            rejected.append(Rejection(item=name, reason=_UNSAFE))
            return None
        rejected.append(Rejection(item=name, reason=f"sentences dropped: {_UNSAFE}"))
    if summary == section.summary:
        return section
    return section.model_copy(update={"summary": summary})


_USER_SECTIONS = {
    "work_context": "user.workContext",
    "personal_context": "user.personalContext",
    "top_of_mind": "user.topOfMind",
}
_HISTORY_SECTIONS = {
    "recent_months": "history.recentMonths",
    "earlier_context": "history.earlierContext",
    "long_term_background": "history.longTermBackground",
}


def original_positions(rejected: list[Rejection], label: str, count: int) -> list[int]:
    """Positions in the model's answer of the ``count`` parts that survived parsing."""
    dropped = {r.item for r in rejected}
    positions: list[int] = []
    index = 0
    while len(positions) < count:
        if f"{label}[{index}]" not in dropped:
            positions.append(index)
        index += 1
    return positions


def validate_update(update: MemoryUpdate, limits: UpdateLimits | None = None) -> MemoryUpdate:
    """``update`` with every rule of this module applied; rejections appended to ``rejected``.

    Args:
        update: a parsed answer of any extractor.
        limits: bounds (default :class:`UpdateLimits`).

    Returns:
        A new update holding only what may be applied. Never raises on its
        content (what breaks a rule is moved to ``rejected``).

    Raises:
        UpdateParseError: ``update`` is not a :class:`MemoryUpdate` (a dict
            must be parsed first, ``MemoryUpdate.model_validate``).
        InvalidArgumentError: ``limits`` is neither an :class:`UpdateLimits` nor None.
    """
    expect(update, MemoryUpdate, "update", "a MemoryUpdate", UpdateParseError)
    expect(limits, UpdateLimits, "limits", "an UpdateLimits", optional=True)
    limits = limits or UpdateLimits()
    # What parsing or a judge rejected shows no secret either, in its text or its reason
    # (a reason quotes the bad value: "confidence must be a number, got 'PIN 4821'").
    rejected = [_unsafe_shown(r) for r in update.rejected]

    facts: list[NewFact] = []
    positions = original_positions(rejected, "newFacts", len(update.new_facts))
    for index, fact in zip(positions, update.new_facts, strict=True):
        checked = _clean_fact(index, fact, limits)
        if isinstance(checked, Rejection):
            rejected.append(checked)
        elif len(facts) >= limits.max_new_facts:
            rejected.append(
                Rejection(
                    item=f"newFacts[{index}]",
                    reason=f"over max_new_facts_per_update={limits.max_new_facts}",
                    text=checked.content[:PREVIEW_CHARS],
                )
            )
        else:
            facts.append(checked)

    removals: list[FactRemoval] = []
    positions = original_positions(rejected, "factsToRemove", len(update.facts_to_remove))
    for index, removal in zip(positions, update.facts_to_remove, strict=True):
        if len(removals) >= limits.max_new_facts:
            rejected.append(
                Rejection(
                    item=f"factsToRemove[{index}]",
                    reason=f"over max_new_facts_per_update={limits.max_new_facts} removals",
                    text=_preview(removal.id),
                )
            )
            continue
        reason = cut_at_sentence(clean_text(removal.reason), limits.max_fact_chars)
        if unsafe_to_store(reason):  # kept in history, shown by search_memory: not this
            reason = _UNSAFE_REASON
        fact_id = clean_text(removal.id)
        if (fact_id, reason) != (removal.id, removal.reason):
            removal = removal.model_copy(update={"id": fact_id, "reason": reason})
        removals.append(removal)

    merges = []
    merged_away = 0
    positions = original_positions(rejected, "factsToMerge", len(update.facts_to_merge))
    for index, merge in zip(positions, update.facts_to_merge, strict=True):
        ids = tuple(dict.fromkeys(clean_text(i) for i in merge.ids))
        if merged_away + max(0, len(ids) - 1) > limits.max_new_facts:
            rejected.append(
                Rejection(
                    item=f"factsToMerge[{index}]",
                    reason=f"over max_new_facts_per_update={limits.max_new_facts} merged facts",
                    text=_preview(", ".join(ids)),
                )
            )
            continue
        merged_away += max(0, len(ids) - 1)
        merges.append(merge if ids == merge.ids else merge.model_copy(update={"ids": ids}))

    user_changes = {
        name: _clean_section(label, getattr(update.user, name), limits, rejected)
        for name, label in _USER_SECTIONS.items()
    }
    history_changes = {
        name: _clean_section(label, getattr(update.history, name), limits, rejected)
        for name, label in _HISTORY_SECTIONS.items()
    }
    return update.model_copy(
        update={
            "user": UserUpdate.model_validate(user_changes),
            "history": HistoryUpdate.model_validate(history_changes),
            "new_facts": tuple(facts),
            "facts_to_remove": tuple(removals),
            "facts_to_merge": tuple(merges),
            "rejected": tuple(rejected),
        }
    )
