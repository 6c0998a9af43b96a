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
from deerflow_memory.inject.costs import block_tokens, line_floor, text_floor
from deerflow_memory.inject.tokens import (
    EncodingName,
    TiktokenCounter,
    TokenCounter,
    TokenCountingMethod,
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
# Characters of "- [category]" (the prefix without its space).
_PREFIX_LENGTH = {category: len(prefix) - 1 for category, prefix in _FACT_PREFIX.items()}


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
    cost: int


def _fit_summary(
    label: str, section: Section, room: int, counter: TokenCounter, exact: bool
) -> tuple[str, bool]:
    """The longest sentence prefix of ``section`` whose line costs at most ``room``.

    With ``exact`` counts, a line whose word count alone exceeds ``room`` is
    ruled out without encoding it.

    Returns the line ("" when not even one sentence fits) and whether text was cut.
    """
    count = counter.count

    def fits(line: str) -> bool:
        return not (exact and text_floor(line) > room) and count(line) <= room

    summary = section.summary
    line = f"- {label}: {escape_memory_text(summary)}\n"
    if fits(line):
        return line, False
    sentences = _split_sentences(summary)
    if len(sentences) < 2 or not fits(f"- {label}: {escape_memory_text(sentences[0])}\n"):
        return "", True  # not even the first sentence fits: skip the longer tries
    for keep in range(len(sentences) - 1, 0, -1):
        shorter = f"- {label}: {escape_memory_text(''.join(sentences[:keep]))}\n"
        if fits(shorter):
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


def _exact_tokens(
    counter: TokenCounter, summaries: list[_SummaryItem], facts: list[tuple[str, str, int]]
) -> int:
    """Tokens of ``_assemble(summaries, facts)`` from the line costs (exact counters only)."""
    blocks: list[tuple[str, list[tuple[str, int]]]] = []
    for group, (heading, _) in enumerate(_SUMMARY_GROUPS):
        lines = [(item.line, item.cost) for item in summaries if item.group == group]
        if lines:
            blocks.append((heading, lines))
    if facts:
        blocks.append((_FACTS_HEADING, [(line, cost) for line, _, cost in facts]))
    return block_tokens(counter, _OPEN, _CLOSE, blocks) if blocks else 0


def _counts_exactly(counter: TokenCounter) -> bool:
    # Only real tiktoken counts obey the piece rules of inject/costs.py; any
    # other counter (the estimate, a fallback, a caller's own) counts every text.
    return isinstance(counter, TiktokenCounter) and counter.is_exact()


# Lines counted together when the first of them needs a count: at least this
# many tokens of cost floors, more while the room left is larger.
_BATCH_FLOOR = 256


class _Filler:
    """Fills a token room greedily with fact lines: each kept whole or skipped.

    Facts come in priority order; a fact whose line fits what is left is taken,
    one that does not is skipped and later, smaller ones are still tried. With
    exact counts (``prefix_tokens`` given), a line whose cost floor exceeds
    the room left is skipped unencoded, and when a line needs a count, the
    upcoming lines that might need one too are counted in the same encode
    (the room only shrinks, so a line whose floor exceeds it now never fits).
    The decisions are those of counting every line.
    """

    def __init__(
        self, counter: TokenCounter, prefix_tokens: dict[FactCategory, int] | None
    ) -> None:
        self._counter = counter
        self._prefix = prefix_tokens
        self._costs: dict[str, int] = {}  # line -> tokens, for this render

    def fill(
        self, facts: Sequence[Fact], room: int
    ) -> tuple[list[tuple[str, str, int]], int, list[int]]:
        """Greedily take ``facts`` into ``room`` tokens.

        Returns ``[(line, fact id, tokens)]`` of the facts taken, the tokens
        they use and their indices in ``facts``.
        """
        taken: list[tuple[str, str, int]] = []
        positions: list[int] = []
        used = 0
        costs = self._costs
        count = self._counter.count
        prefix = self._prefix
        if prefix is None:  # count every line
            for index, fact in enumerate(facts):
                line = _fact_line(fact)
                if len(line) == 1:  # no content
                    continue
                cost = costs.get(line)
                if cost is None:
                    cost = costs[line] = count(line)
                if cost <= room - used:
                    taken.append((line, fact.id, cost))
                    positions.append(index)
                    used += cost
            return taken, used, positions

        smallest = min(prefix.values()) + 1  # no fact line costs less
        # Per fact: None (not looked at yet), "" (cannot fit: its floor exceeded
        # the room, which only shrinks) or its line (worth a count).
        lines: list[str | None] = [None] * len(facts)
        for index, fact in enumerate(facts):
            left = room - used
            if left < smallest:
                break
            seen = lines[index]
            if seen is None:
                self._scan(facts, lines, index, left)
                seen = lines[index]
            if not seen:
                continue
            line = seen
            cost = costs.get(line)
            if cost is None:
                cost = costs[line] = count(line)
            if cost <= left:
                taken.append((line, fact.id, cost))
                positions.append(index)
                used += cost
        return taken, used, positions

    def _scan(self, facts: Sequence[Fact], lines: list[str | None], start: int, room: int) -> None:
        """Look at ``facts[start:]`` until a batch of lines worth a count is counted.

        Sets ``lines[i]`` for every fact looked at.
        """
        prefix = self._prefix
        assert prefix is not None
        costs = self._costs
        batch: list[str] = []
        floors = 0
        limit = max(room, _BATCH_FLOOR)
        index = start
        end = len(facts)
        while index < end and floors <= limit:
            fact = facts[index]
            category = fact.category
            tokens = prefix[category]
            content = fact.content
            # content_floor and line_floor inline: this loop runs once per fact.
            # Escaping keeps the words of printable text, so without a source
            # error the line's floor is the content's plus its line break.
            plain = content.isprintable()
            floor = tokens + len(content.split())
            if plain and floor > room:
                lines[index] = ""
            else:
                line = _fact_line(fact)
                if plain and not fact.source_error:
                    floor += line[-2].isalnum() if len(line) > 1 else 0
                else:
                    floor = line_floor(line, _PREFIX_LENGTH[category], tokens)
                if len(line) == 1 or floor > room:
                    lines[index] = ""
                else:
                    lines[index] = line
                    if line not in costs:
                        batch.append(line)
                        floors += floor
            index += 1
        if batch:
            assert isinstance(self._counter, TiktokenCounter)  # prefix tokens only for those
            for line, cost in zip(batch, self._counter.count_lines(batch), strict=True):
                costs[line] = cost


def _render(
    doc: MemoryDocument,
    max_tokens: int,
    guaranteed: frozenset[str],
    guaranteed_budget: int,
    counter: TokenCounter,
    constraint_budget: int = 0,
    *,
    floors: bool = True,
) -> InjectionResult:
    count = counter.count
    facts_total = len(doc.facts)
    # With exact tiktoken counts, a line whose cost floor (inject/costs.py)
    # exceeds the room left is skipped without encoding it, lines that need a
    # count are counted several per encode, and the block's total is summed
    # from its line counts: the decisions and the bytes are the same as
    # counting every line and the whole text (``floors=False``, which
    # bench/injection.py times as the baseline), but a cold count cache (where
    # each count is an encode) no longer pays for the hopeless lines.
    exact = floors and _counts_exactly(counter)
    prefix_tokens = {c: count(p[:-1]) for c, p in _FACT_PREFIX.items()} if exact else None
    filler = _Filler(counter, prefix_tokens)

    # 0-1. constraints by priority within their budget, then guaranteed
    # categories within theirs; entries are (line, fact id, tokens).
    ordered = _ordered_facts(doc.facts)
    guaranteed_members = {c for c in FactCategory if c.value in guaranteed}
    phase = [i for i, fact in enumerate(ordered) if is_constraint(fact)]
    constraint_lines, constraint_used, taken = filler.fill(
        [ordered[i] for i in phase], constraint_budget
    )
    placed = {phase[i] for i in taken}
    phase = [
        i
        for i, fact in enumerate(ordered)
        if fact.category in guaranteed_members and i not in placed
    ]
    category_lines, category_used, taken = filler.fill(
        [ordered[i] for i in phase], guaranteed_budget
    )
    placed.update(phase[i] for i in taken)
    protected = constraint_lines + category_lines
    guaranteed_used = constraint_used + category_used

    wrapper = count(_OPEN) + count(_CLOSE)
    facts_overhead = wrapper + count(_FACTS_HEADING)
    # The documented bound: max_tokens, or the guaranteed-only block if larger.
    limit = max_tokens
    if protected:
        alone = (
            facts_overhead + guaranteed_used
            if exact
            else count(_assemble([], [line for line, _, _ in protected]))
        )
        limit = max(limit, alone)

    # 2. every other fact by priority (regular ones, and protected ones beyond
    # their budget: those budgets are reserves, not caps) in what is left.
    used = facts_overhead + guaranteed_used
    rest = [fact for i, fact in enumerate(ordered) if i not in placed] if placed else ordered
    regular, regular_used, _ = filler.fill(rest, limit - used)
    used += regular_used
    if not protected and not regular:
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
            line, cut = _fit_summary(label, section, room, counter, exact)
            truncated = truncated or cut
            if line:
                cost = count(line)
                summaries.append(_SummaryItem(group, line, cost))
                used += cost + (0 if heading_paid else heading_cost)
                heading_paid = True

    # 4. the sum of line counts can differ from the count of the joined text
    # (a blank line joins the line break before it); measure the block exactly
    # and trim summaries, then regular facts, while it is over the limit.
    facts = protected + regular

    def measure() -> int:
        if exact:
            return _exact_tokens(counter, summaries, facts)
        text = _assemble(summaries, [line for line, _, _ in facts])
        return count(text) if text else 0

    tokens = measure()
    while tokens > limit and (summaries or len(facts) > len(protected)):
        if summaries:
            summaries.pop()
            truncated = True
        else:
            facts.pop()
        tokens = measure()
    text = _assemble(summaries, [line for line, _, _ in facts])

    return InjectionResult(
        text=text,
        tokens=tokens,
        facts_total=facts_total,
        facts_injected=len(facts),
        guaranteed_injected=len(protected),
        truncated_sections=truncated,
        constraints_injected=len(constraint_lines),
        fact_ids=tuple(fact_id for _, fact_id, _ in facts),
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
