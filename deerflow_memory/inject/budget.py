"""The budget rule of the ``<user_memory>`` block (see :mod:`deerflow_memory.inject.format`).

:func:`_render` places constraints, guaranteed categories, the other facts
and the summaries within their budgets. With exact tiktoken counts it skips
encoding lines that cannot fit and counts the others in batches (see
:mod:`deerflow_memory.inject.costs`); the block is the same byte for byte as
counting every line (``floors=False``, the baseline ``bench/injection.py``
times). Counting never raises.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from deerflow_memory.inject.constraints import is_constraint
from deerflow_memory.inject.costs import block_tokens, line_floor, text_floor
from deerflow_memory.inject.lines import (
    _FACT_PREFIX,
    _PREFIX_LENGTH,
    MEMORY_CLOSE_TAG,
    MEMORY_OPEN_TAG,
    _fact_line,
    _split_sentences,
    escape_memory_text,
)
from deerflow_memory.inject.tokens import TiktokenCounter, TokenCounter
from deerflow_memory.models import (
    Fact,
    FactCategory,
    MemoryDocument,
    Section,
    says_nothing,
    stored_timestamp,
)

__all__ = ["InjectionResult", "created_seconds"]

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
    constraint_ids: frozenset[str] = frozenset()
    """Ids of the facts in ``text`` that are constraints
    (:func:`~deerflow_memory.inject.constraints.is_constraint`), wherever their
    line went: through the constraint budget or, beyond it, among the others."""


# --- budgeted rendering ---------------------------------------------------------------


def created_seconds(created_at: str) -> float:
    """``createdAt`` in epoch seconds for ordering; ``-inf`` (oldest) when it does not parse.

    Compared as moments, not as strings: ``…T10:00:00+08:00`` is older than
    ``…T05:00:00Z``, and ``…T10:00:00.5Z`` newer than ``…T10:00:00Z``. Parsed
    through the shared :data:`~deerflow_memory.models.stored_timestamp` cache.
    """
    stamp = stored_timestamp(created_at)
    return -math.inf if stamp is None else stamp


def _created_order(fact: Fact) -> float:
    return created_seconds(fact.created_at)


def _ordered_facts(facts: Sequence[Fact]) -> list[Fact]:
    # Three stable sorts give: confidence desc, then newer createdAt, then id asc.
    ordered = sorted(facts, key=attrgetter("id"))
    ordered.sort(key=_created_order, reverse=True)
    ordered.sort(key=attrgetter("confidence"), reverse=True)
    return ordered


@dataclass
class _SummaryItem:
    group: int
    line: str
    cost: int


def _summary_charge(counter: TokenCounter, followed: bool) -> Callable[[str], int]:
    """What a section's last line costs with the blank line after it (additive counts only).

    The blank line joins the piece of the line's own line break (fact 2 of
    :mod:`deerflow_memory.inject.costs`), so ``line + "\n"`` often costs what
    ``line`` does, or even less (``"！\n"`` is two tokens, ``"！\n\n"`` one).
    When it is not known that a block follows (no facts), the dearer of the
    two. Both are at least :func:`~deerflow_memory.inject.costs.text_floor` of
    the line: its words and a line break after a letter stay pieces of their own.
    """
    count = counter.count
    if followed:
        return lambda line: count(line + _SEPARATOR)
    return lambda line: max(count(line), count(line + _SEPARATOR))


def _fit_summary(
    label: str,
    section: Section,
    room: int,
    counter: TokenCounter,
    exact: bool,
    charge: Callable[[str], int] | None = None,
) -> tuple[str, bool]:
    """The longest sentence prefix of ``section`` whose line costs at most ``room``.

    The cost of a line is ``charge(line)`` when given, else its count. With
    ``exact`` counts, a line whose word count alone exceeds ``room`` is ruled
    out without encoding it (a floor of both: see :func:`_summary_charge`).

    Returns the line ("" when not even one sentence fits) and whether text was cut.
    """
    cost = charge or counter.count

    def fits(line: str) -> bool:
        return not (exact and text_floor(line) > room) and cost(line) <= room

    summary = section.summary
    if says_nothing(summary):  # nothing to show: no line, not even an empty one
        return "", False
    line = f"- {label}: {escape_memory_text(summary)}\n"
    if fits(line):
        return line, False
    sentences = _split_sentences(summary)
    if len(sentences) < 2 or not fits(f"- {label}: {escape_memory_text(sentences[0])}\n"):
        return "", True  # not even the first sentence fits: skip the longer tries

    def prefix(keep: int) -> str:
        return f"- {label}: {escape_memory_text(''.join(sentences[:keep]))}\n"

    # The longest prefix that fits: all but the last sentence most often, else found
    # by bisection (a line costs more with each sentence it keeps), so a summary of
    # thousands of sentences costs a few dozen counts, not one per sentence (each
    # of the whole prefix: 47 s a turn for 160,000 characters).
    keep = len(sentences) - 1
    if not fits(prefix(keep)):
        low, high = 1, keep - 1  # the first sentence fits; ``keep`` does not
        while low < high:
            middle = (low + high + 1) // 2
            if fits(prefix(middle)):
                low = middle
            else:
                high = middle - 1
        keep = low
    # A prefix of text that says nothing says nothing too ("— … — …"): no line then.
    return ("" if says_nothing("".join(sentences[:keep])) else prefix(keep)), True


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
    additive = _counts_exactly(counter)  # the block costs the sum of its lines (costs.py)
    exact = floors and additive
    prefix_tokens = {c: count(p[:-1]) for c, p in _FACT_PREFIX.items()} if exact else None
    filler = _Filler(counter, prefix_tokens)

    # 0-1. constraints by priority within their budget, then guaranteed
    # categories within theirs; entries are (line, fact id, tokens).
    # ``guaranteed`` holds categories (members or their names: a StrEnum equals its text).
    ordered = _ordered_facts(doc.facts)
    phase = [i for i, fact in enumerate(ordered) if is_constraint(fact)]
    constraint_ids = frozenset(ordered[i].id for i in phase)
    constraint_lines, constraint_used, taken = filler.fill(
        [ordered[i] for i in phase], constraint_budget
    )
    placed = {phase[i] for i in taken}
    phase = [i for i, fact in enumerate(ordered) if fact.category in guaranteed and i not in placed]
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

    # 3. summaries with what is left, user context first. A section is followed
    # by a blank line: with additive counts the section's last line is charged
    # with it (_summary_charge; the extra moves when a line is added), else one
    # count of "\n" goes with the heading (parts counted apart cost at least the
    # joined text with the estimate).
    summaries: list[_SummaryItem] = []
    truncated = False
    separator = 0 if additive else count(_SEPARATOR)
    charge = _summary_charge(counter, bool(protected or regular)) if additive else None
    for group, (heading, items) in enumerate(_SUMMARY_GROUPS):
        heading_cost = count(heading) + separator
        heading_paid = False
        extra = 0  # charged beyond its count for the blank line after the last line
        for label, getter in items:
            section: Section = getter(doc)
            if not section.summary.strip():
                continue
            room = limit - used + extra - (0 if heading_paid else heading_cost)
            line, cut = _fit_summary(label, section, room, counter, exact, charge)
            truncated = truncated or cut
            if line:
                cost = count(line)
                summaries.append(_SummaryItem(group, line, cost))
                charged = cost if charge is None else charge(line)
                used += charged - extra + (0 if heading_paid else heading_cost)
                extra = charged - cost
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
        constraint_ids=frozenset(i for _, i, _ in facts if i in constraint_ids),
    )
