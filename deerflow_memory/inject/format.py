"""Format a memory document into a token-budgeted ``<user_memory>`` block for the model.

Layout (English headings, stored text as written)::

    <user_memory>
    ## User context
    - Work: ...
    - Personal: ...
    - Top of mind: ...

    ## History
    - Recent months: ...
    - Earlier: ...
    - Long-term background: ...

    ## Facts
    - [correction] Uses Python 3.12 (not: Python 3.8)
    - [preference] Does not eat seafood
    </user_memory>

Budget rule (one rule, property-tested):

0. **Constraints** (allergies, diet, medical and accessibility needs: see
   :func:`~deerflow_memory.inject.constraints.is_constraint`) come first, by
   confidence, while their lines fit ``constraint_token_budget``; a fact that
   does not fit is skipped whole and smaller ones are still tried.
1. **Guaranteed facts** (categories in ``guaranteed_categories``) are taken by
   confidence, highest first, while their lines fit ``guaranteed_token_budget``;
   a fact that does not fit is skipped whole and smaller ones are still tried.
2. **Regular facts** follow by confidence (ties: newer ``createdAt`` first, then
   ``id``) while the whole block stays within ``max_tokens``; a fact that does
   not fit is skipped whole and smaller ones are still tried. Guaranteed facts
   left over by steps 0 and 1 compete here like regular ones (their budgets
   are reserves, not caps).
3. **Summaries** get what is left: user context before history, each summary
   cut at sentence boundaries, a summary with no sentence left dropped, a
   heading with no summary left dropped. So the facts block is a protected
   suffix: summaries never take a fact's place (the facts chosen are the same
   as for the document without summaries).
4. The block, wrapper tags included, never exceeds ``max_tokens`` by the
   chosen counter, **except** that the facts chosen in steps 0 and 1 are
   always kept: the bound is ``max(max_tokens, tokens of the block holding
   only those facts)`` (allergies and corrections survive a tiny ``max_tokens``).

Stored text is escaped (:func:`escape_memory_text`) so it can never close the
block, open a ``<system-reminder>`` or spell a special token. The same document
and parameters always give the same bytes (no dates inside the block), so
provider prefix caches hold while memory is unchanged.

How it fails: a mapping that is not a valid document raises pydantic's
``ValidationError`` (a ``ValueError``); a negative budget raises
:class:`~deerflow_memory.errors.ConfigError`. Token counting itself never
raises (see :mod:`deerflow_memory.inject.tokens`).
"""

from __future__ import annotations

import datetime
import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from deerflow_memory.errors import ConfigError
from deerflow_memory.inject.constraints import is_constraint
from deerflow_memory.inject.tokens import (
    EncodingName,
    TokenCounter,
    TokenCountingMethod,
    estimate_tokens,
    get_token_counter,
)
from deerflow_memory.models import Fact, FactCategory, MemoryDocument, Section

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage

__all__ = [
    "MEMORY_CLOSE_TAG",
    "MEMORY_OPEN_TAG",
    "InjectionResult",
    "build_memory_context",
    "escape_memory_text",
    "format_fact_line",
    "format_memory_for_injection",
    "prepend_memory_context",
    "render_memory",
]

MEMORY_OPEN_TAG = "<user_memory>"
MEMORY_CLOSE_TAG = "</user_memory>"

_OPEN = MEMORY_OPEN_TAG + "\n"
_CLOSE = MEMORY_CLOSE_TAG
_SEPARATOR = "\n"  # blank line between sections
_FACTS_HEADING = "## Facts\n"

# (heading, ((label, getter), ...)) in reading order, which is also the order
# in which summaries keep their share of the budget.
_SUMMARY_GROUPS: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = (
    (
        "## User context\n",
        (
            ("Work", attrgetter("user.work_context")),
            ("Personal", attrgetter("user.personal_context")),
            ("Top of mind", attrgetter("user.top_of_mind")),
        ),
    ),
    (
        "## History\n",
        (
            ("Recent months", attrgetter("history.recent_months")),
            ("Earlier", attrgetter("history.earlier_context")),
            ("Long-term background", attrgetter("history.long_term_background")),
        ),
    ),
)

_MEMORY_INSTRUCTION = (
    "Use this memory silently where it is relevant; do not mention it unless the user asks."
)


@dataclass(frozen=True)
class InjectionResult:
    """The formatted memory block and what went into it."""

    text: str
    """The ``<user_memory>`` block, or ``""`` when there is nothing to inject."""
    tokens: int
    """Tokens of ``text`` by the counter used."""
    facts_total: int
    """Facts in the document."""
    facts_injected: int
    """Facts in ``text`` (guaranteed ones included)."""
    guaranteed_injected: int
    """Facts placed first through the constraint and guaranteed budgets (the first
    lines of the facts), constraints included."""
    truncated_sections: bool
    """True when some summary text was cut or dropped to fit the budget."""
    constraints_injected: int = 0
    """Constraints placed first through the constraint budget (the very first lines)."""
    fact_ids: tuple[str, ...] = ()
    """Ids of the facts in ``text``, in the order of their lines."""


# --- escaping ----------------------------------------------------------------------

_NEEDS_ESCAPE = re.compile(r"[&<>\x00-\x1f\x7f\x85\u2028\u2029]")
_LINE_BREAKS = re.compile(r"\s*[\x00-\x1f\x7f\x85\u2028\u2029]+\s*")
_ENTITIES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def escape_memory_text(text: str) -> str:
    """Make stored text safe to place inside the ``<user_memory>`` block.

    ``&``, ``<`` and ``>`` become entities, so no tag (``</user_memory>``,
    ``<system-reminder>``) and no special-token string (``<|endoftext|>``) can
    appear; line breaks and control characters collapse to one space so a
    stored value can never start a line of its own (and forge a heading or a
    fact); surrounding whitespace is stripped.

    Args:
        text: stored text (a fact, a summary, a correction's source error).

    Returns:
        The escaped single-line text.
    """
    if _NEEDS_ESCAPE.search(text) is None:
        return text.strip()
    return _LINE_BREAKS.sub(" ", text.translate(_ENTITIES)).strip()


# A sentence ends at ., ! or ? before whitespace, at CJK end punctuation, or at
# a line break; the trailing whitespace stays with it so pieces join back exactly.
_SENTENCE = re.compile(r".+?(?:[.!?](?=\s)|[。！？；…\n]|\Z)\s*", re.DOTALL)


def _split_sentences(text: str) -> list[str]:
    return _SENTENCE.findall(text)


# "- [category] " per category, looked up by member (faster than ``.value``).
_FACT_PREFIX = {category: f"- [{category.value}] " for category in FactCategory}


def format_fact_line(fact: Fact) -> str:
    """One fact as it appears in the block, without the trailing newline.

    Args:
        fact: the fact.

    Returns:
        ``- [category] content``, plus `` (not: source error)`` for corrections
        that record what was wrong; ``""`` for a fact with no content.
    """
    return _fact_line(fact)[:-1]


def _fact_line(fact: Fact) -> str:
    # The hot loop of rendering: escape inline when the fast check says so.
    content = fact.content
    content = (
        content.strip() if _NEEDS_ESCAPE.search(content) is None else escape_memory_text(content)
    )
    if not content:
        return "\n"
    source_error = fact.source_error
    if source_error:
        wrong = escape_memory_text(source_error)
        if wrong:
            return f"{_FACT_PREFIX[fact.category]}{content} (not: {wrong})\n"
    return f"{_FACT_PREFIX[fact.category]}{content}\n"


# --- budgeted rendering ---------------------------------------------------------------


def _ordered_facts(facts: Sequence[Fact]) -> list[Fact]:
    # Three stable sorts give: confidence desc, then newer createdAt, then id asc.
    ordered = sorted(facts, key=attrgetter("id"))
    ordered.sort(key=attrgetter("created_at"), reverse=True)
    ordered.sort(key=attrgetter("confidence"), reverse=True)
    return ordered


def _normalise_categories(categories: Iterable[str | FactCategory]) -> frozenset[str]:
    if isinstance(categories, str):  # a bare "correction" is one category, not letters
        categories = (categories,)
    return frozenset(str(c).strip().lower() for c in categories)


@dataclass
class _SummaryItem:
    group: int
    line: str


def _fit_summary(
    label: str, section: Section, room: int, counter: TokenCounter
) -> tuple[str, bool]:
    """The longest sentence prefix of ``section`` whose line costs at most ``room``.

    Returns the line ("" when not even one sentence fits) and whether text was cut.
    """
    summary = section.summary
    line = f"- {label}: {escape_memory_text(summary)}\n"
    if counter.count(line) <= room:
        return line, False
    sentences = _split_sentences(summary)
    if (
        len(sentences) < 2
        or counter.count(f"- {label}: {escape_memory_text(sentences[0])}\n") > room
    ):
        return "", True  # not even the first sentence fits: skip the longer tries
    for keep in range(len(sentences) - 1, 0, -1):
        shorter = f"- {label}: {escape_memory_text(''.join(sentences[:keep]))}\n"
        if counter.count(shorter) <= room:
            return shorter, True
    return "", True


def _assemble(summaries: list[_SummaryItem], fact_lines: list[str]) -> str:
    blocks: list[str] = []
    for group, (heading, _) in enumerate(_SUMMARY_GROUPS):
        lines = [item.line for item in summaries if item.group == group]
        if lines:
            blocks.append(heading + "".join(lines))
    if fact_lines:
        blocks.append(_FACTS_HEADING + "".join(fact_lines))
    if not blocks:
        return ""
    return _OPEN + _SEPARATOR.join(blocks) + _CLOSE


def _cost_lower_bounds(candidates: list[tuple[str, str]], counter: TokenCounter) -> list[int]:
    """A cheap floor of each line's tiktoken cost, to skip encoding hopeless lines.

    The larger of two floors: the line's word count (tiktoken's pre-tokenizer
    never joins two whitespace-separated words, and each piece is at least one
    token: a strict floor), and 5/8 of the character estimate (documented as
    0-60 % high against o200k and up to ~25 % low against cl100k, so a line
    whose estimate exceeds 1.6 x the room left does not fit; a line the
    estimate overrates by more would be skipped though it fits, leaving the
    block a little short, never over budget). Counters
    without a vocabulary (the estimate itself) are cheap already: [] for them.
    """
    if getattr(counter, "method", None) != "tiktoken":
        return []
    return [_cost_floor(line) for line, _ in candidates]


def _cost_floor(line: str) -> int:
    return max(len(line.split()), estimate_tokens(line) * 5 // 8)


def _no_floor(line: str) -> int:
    return 0


def _suffix_minimum(values: list[int]) -> list[int]:
    result = values[:]
    for i in range(len(result) - 2, -1, -1):
        result[i] = min(result[i], result[i + 1])
    return result


def _render(
    doc: MemoryDocument,
    max_tokens: int,
    guaranteed: frozenset[str],
    guaranteed_budget: int,
    counter: TokenCounter,
    constraint_budget: int = 0,
) -> InjectionResult:
    count = counter.count
    facts_total = len(doc.facts)

    # 0-1. constraints, then guaranteed categories, each within its own budget;
    # regular candidates in order. Lines travel with their fact's id.
    constraint_lines: list[tuple[str, str]] = []
    category_lines: list[tuple[str, str]] = []
    regular_candidates: list[tuple[str, str]] = []
    constraint_used = category_used = 0
    guaranteed_members = {c for c in FactCategory if c.value in guaranteed}
    # Past a reserve's end, lines whose cost floor exceeds what is left skip the encode.
    floor = _cost_floor if getattr(counter, "method", None) == "tiktoken" else _no_floor
    for fact in _ordered_facts(doc.facts):
        line = _fact_line(fact)
        if len(line) == 1:  # no content
            continue
        if is_constraint(fact) and floor(line) <= constraint_budget - constraint_used:
            cost = count(line)
            if constraint_used + cost <= constraint_budget:
                constraint_lines.append((line, fact.id))
                constraint_used += cost
                continue
        if fact.category in guaranteed_members and floor(line) <= guaranteed_budget - category_used:
            cost = count(line)
            if category_used + cost <= guaranteed_budget:
                category_lines.append((line, fact.id))
                category_used += cost
                continue
        # Regular facts, and protected ones beyond their budget: those budgets are
        # reserves, not caps, so they still compete for the rest by confidence.
        regular_candidates.append((line, fact.id))
    protected = constraint_lines + category_lines
    guaranteed_lines = [line for line, _ in protected]
    guaranteed_used = constraint_used + category_used

    wrapper = count(_OPEN) + count(_CLOSE)
    facts_overhead = wrapper + count(_FACTS_HEADING)
    # The documented bound: max_tokens, or the guaranteed-only block if larger.
    limit = max_tokens
    if guaranteed_lines:
        limit = max(limit, count(_assemble([], guaranteed_lines)))

    # 2. regular facts in confidence order, each kept whole or skipped.
    used = facts_overhead + guaranteed_used
    regular: list[tuple[str, str]] = []
    # A line that cannot fit is skipped and smaller ones are tried, but with a
    # cold count cache each try is an encode: a cheap lower bound of each line's
    # cost skips hopeless lines unencoded, and the loop stops once the room left
    # is below the smallest bound of the lines still to try.
    bounds = _cost_lower_bounds(regular_candidates, counter)
    smallest_after = _suffix_minimum(bounds)
    for index, (line, fact_id) in enumerate(regular_candidates):
        room = limit - used
        if bounds:
            if room < smallest_after[index]:
                break
            if bounds[index] > room:
                continue
        cost = count(line)
        if cost <= room:
            regular.append((line, fact_id))
            used += cost
    regular_lines = [line for line, _ in regular]
    if not guaranteed_lines and not regular_lines:
        used = wrapper

    # 3. summaries with what is left, user context first.
    summaries: list[_SummaryItem] = []
    truncated = False
    separator = count(_SEPARATOR)
    for group, (heading, items) in enumerate(_SUMMARY_GROUPS):
        heading_cost = count(heading) + separator
        heading_paid = False
        for label, getter in items:
            section: Section = getter(doc)
            if not section.summary.strip():
                continue
            room = limit - used - (0 if heading_paid else heading_cost)
            line, cut = _fit_summary(label, section, room, counter)
            truncated = truncated or cut
            if line:
                summaries.append(_SummaryItem(group, line))
                used += count(line) + (0 if heading_paid else heading_cost)
                heading_paid = True

    # 4. the sum of line counts can differ from the count of the joined text
    # (BPE merges across a boundary); verify and trim summaries, then regular facts.
    fact_lines = guaranteed_lines + regular_lines
    text = _assemble(summaries, fact_lines)
    tokens = count(text) if text else 0
    while tokens > limit and (summaries or len(fact_lines) > len(guaranteed_lines)):
        if summaries:
            summaries.pop()
            truncated = True
        else:
            fact_lines.pop()
        text = _assemble(summaries, fact_lines)
        tokens = count(text) if text else 0

    return InjectionResult(
        text=text,
        tokens=tokens,
        facts_total=facts_total,
        facts_injected=len(fact_lines),
        guaranteed_injected=len(guaranteed_lines),
        truncated_sections=truncated,
        constraints_injected=len(constraint_lines),
        fact_ids=tuple(fact_id for _, fact_id in (protected + regular)[: len(fact_lines)]),
    )


class _ResultCache:
    """Recent results keyed on the identity of a (frozen) document and the parameters.

    Identity, not equality: hashing a 200-fact document costs more than
    rendering it. Each entry keeps a weak reference to its document and a strong
    one to its counter, and a hit requires both to be the very same objects, so
    a new document that reuses a dead one's ``id`` never gets a stale result.
    """

    def __init__(self, maxsize: int = 64) -> None:
        self._maxsize = maxsize
        self._lock = threading.Lock()
        self._entries: OrderedDict[
            tuple[Any, ...], tuple[weakref.ref[MemoryDocument], TokenCounter, InjectionResult]
        ] = OrderedDict()

    def get(
        self, key: tuple[Any, ...], doc: MemoryDocument, counter: TokenCounter
    ) -> InjectionResult | None:
        entry = self._entries.get(key)
        if entry is None or entry[0]() is not doc or entry[1] is not counter:
            return None
        return entry[2]

    def put(
        self,
        key: tuple[Any, ...],
        doc: MemoryDocument,
        counter: TokenCounter,
        result: InjectionResult,
    ) -> None:
        with self._lock:
            self._entries[key] = (weakref.ref(doc), counter, result)
            self._entries.move_to_end(key)
            while len(self._entries) > self._maxsize:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


_results = _ResultCache()


def render_memory(
    memory: MemoryDocument | Mapping[str, Any] | None,
    max_tokens: int = 2000,
    *,
    guaranteed_categories: Iterable[str | FactCategory] = ("correction",),
    guaranteed_token_budget: int = 500,
    token_counting: TokenCountingMethod = "tiktoken",
    encoding: EncodingName = "o200k_base",
    counter: TokenCounter | None = None,
    constraint_token_budget: int = 300,
) -> InjectionResult:
    """Format ``memory`` as a ``<user_memory>`` block within a token budget.

    See the module docstring for the layout and the exact budget rule.

    Args:
        memory: a document, a DeerFlow-shaped camelCase mapping, or ``None``.
        max_tokens: budget of the whole block, wrapper tags included.
        guaranteed_categories: fact categories placed first with their own budget.
        guaranteed_token_budget: budget of the guaranteed fact lines.
        token_counting: ``"tiktoken"`` (offline vocabulary) or ``"char"`` (estimate).
        encoding: vocabulary for ``"tiktoken"``.
        counter: a counter to use instead of ``token_counting``/``encoding``.
        constraint_token_budget: budget of the constraint lines, placed first
            (allergies, diet, medical and accessibility needs).

    Returns:
        The block and counts of what went in; ``text == ""`` for empty memory or
        when nothing fits.

    Raises:
        ConfigError: a negative budget.
        pydantic.ValidationError: ``memory`` is a mapping that is not a valid document.

    Example:
        >>> doc = {"facts": [{"content": "Does not eat seafood", "category": "preference",
        ...                   "confidence": 0.9}]}
        >>> print(render_memory(doc, token_counting="char").text)
        <user_memory>
        ## Facts
        - [preference] Does not eat seafood
        </user_memory>
    """
    if max_tokens < 0 or guaranteed_token_budget < 0 or constraint_token_budget < 0:
        raise ConfigError(
            f"token budgets must be >= 0 (max_tokens={max_tokens}, "
            f"guaranteed_token_budget={guaranteed_token_budget}, "
            f"constraint_token_budget={constraint_token_budget})"
        )
    if memory is None:
        return InjectionResult("", 0, 0, 0, 0, False)
    doc = memory if isinstance(memory, MemoryDocument) else MemoryDocument.model_validate(memory)
    if counter is None:
        counter = get_token_counter(token_counting, encoding)
    guaranteed = _normalise_categories(guaranteed_categories)
    key = (
        id(doc),
        id(counter),
        max_tokens,
        guaranteed,
        guaranteed_token_budget,
        constraint_token_budget,
    )
    cached = _results.get(key, doc, counter)
    if cached is not None:
        return cached
    if doc.is_empty():
        result = InjectionResult("", 0, len(doc.facts), 0, 0, False)
    else:
        result = _render(
            doc, max_tokens, guaranteed, guaranteed_token_budget, counter, constraint_token_budget
        )
    if getattr(counter, "ready", True):  # not a block measured by estimates while warming
        _results.put(key, doc, counter, result)
    return result


def format_memory_for_injection(
    memory: MemoryDocument | Mapping[str, Any] | None,
    max_tokens: int = 2000,
    *,
    guaranteed_categories: Iterable[str | FactCategory] = ("correction",),
    guaranteed_token_budget: int = 500,
    token_counting: TokenCountingMethod = "tiktoken",
    encoding: EncodingName = "o200k_base",
    constraint_token_budget: int = 300,
) -> str:
    """The ``<user_memory>`` block for ``memory`` within ``max_tokens`` (``""`` when empty).

    Same arguments and budget rule as :func:`render_memory`, which also reports
    what was kept.

    Raises:
        ConfigError: a negative budget.
        pydantic.ValidationError: ``memory`` is a mapping that is not a valid document.
    """
    return render_memory(
        memory,
        max_tokens,
        guaranteed_categories=guaranteed_categories,
        guaranteed_token_budget=guaranteed_token_budget,
        token_counting=token_counting,
        encoding=encoding,
        constraint_token_budget=constraint_token_budget,
    ).text


# --- putting the block in front of the model ----------------------------------------------


def build_memory_context(memory_block: str, today: datetime.date | None = None) -> str:
    """Wrap a memory block with the current date and a one-line usage instruction.

    The date sits in its own ``<system-reminder>`` before the block, so the
    block itself stays byte-identical across days.

    Args:
        memory_block: output of :func:`format_memory_for_injection`.
        today: the date to state (default: today, local time).

    Returns:
        The text for the system message, or ``""`` when ``memory_block`` is empty.
    """
    if not memory_block.strip():
        return ""
    day = (today or datetime.date.today()).isoformat()
    return (
        f"<system-reminder>\nCurrent date: {day}\n</system-reminder>\n\n"
        f"{memory_block}\n{_MEMORY_INSTRUCTION}"
    )


def prepend_memory_context(
    messages: Sequence[BaseMessage], memory_context: str | None
) -> list[BaseMessage]:
    """Model input with the memory context in front, as (part of) the system message.

    The inputs are never mutated: when the first message is a system message,
    a copy with the memory appended is returned in its place (string content:
    joined with a blank line; content blocks: one text block appended);
    otherwise a new system message is inserted first.

    Args:
        messages: the conversation as it would be sent to the model.
        memory_context: output of :func:`build_memory_context`; empty means no memory.

    Returns:
        A new list of messages.
    """
    if not memory_context:
        return list(messages)
    from langchain_core.messages import SystemMessage  # deferred: keeps formatting imports light

    if messages and isinstance(messages[0], SystemMessage):
        first = messages[0]
        content: str | list[str | dict[Any, Any]]
        if isinstance(first.content, str):
            content = f"{first.content}\n\n{memory_context}" if first.content else memory_context
        else:
            content = [*first.content, {"type": "text", "text": memory_context}]
        return [first.model_copy(update={"content": content}), *messages[1:]]
    return [SystemMessage(content=memory_context), *messages]
