"""Cold formatting skips encodes without changing a byte: floors, batch counts, exact totals."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deerflow_memory.inject.budget import _render
from deerflow_memory.inject.costs import content_floor, line_floor, text_floor
from deerflow_memory.inject.format import render_memory
from deerflow_memory.inject.lines import _FACT_PREFIX, _fact_line
from deerflow_memory.inject.tokens import TiktokenCounter, get_token_counter
from deerflow_memory.models import Fact, FactCategory, MemoryDocument, Section
from tests.test_injection import documents

ENCODINGS = ["o200k_base", "cl100k_base"]
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Text built to hit the pre-tokenizer's edges: runs of spaces and Unicode
# spaces, CJK with its punctuation, digits, slashes, contractions, combining
# marks, C0 and C1 controls and Unicode line separators (escaped to spaces),
# invisible marks and tag characters (dropped), numerals that are not digits,
# special-token strings.
PIECES = [
    "a", "Tea", "HTTPServer", "don't", "we'll", " ", "  ", "\u3000", "\xa0", "\t", "\n", "\r\n",
    "\x0b", "\x00", "1", "2024", "3.14", "/", "//", ".", "...", ",", "!?", "(", ")", "#", "-",
    "—", "&", "<", ">", "'", '"', "é", "e\u0301", "ß", "𝔘", "😀", "喜欢", "简洁的回答", "，",
    "。", "！", "、", "对花生过敏", "不吃海鲜", "カタカナ", "한국어", "<|endoftext|>", "x/y",
    "\x85", "\x9b", "\u2028", "\u202f", "\u00ad", "\u200b", "\u202e", "\u061c", "\U000e003c",
    "½", "①", "Ⅻ",
]  # fmt: skip
CONTENT = st.lists(st.sampled_from(PIECES), min_size=1, max_size=14).map("".join)


def counter_for(encoding: str) -> TiktokenCounter:
    counter = get_token_counter("tiktoken", encoding)  # type: ignore[arg-type]
    assert isinstance(counter, TiktokenCounter) and counter.is_exact()
    return counter


@pytest.mark.parametrize("encoding", ENCODINGS)
@PROPERTY
@given(
    content=CONTENT,
    category=st.sampled_from(list(FactCategory)),
    source_error=st.one_of(st.none(), CONTENT),
)
def test_cost_floors_never_exceed_the_real_count(
    encoding: str, content: str, category: FactCategory, source_error: str | None
) -> None:
    counter = counter_for(encoding)
    fact = Fact(id="f", content=content, category=category, source_error=source_error)
    line = _fact_line(fact)
    if len(line) == 1:  # nothing left after escaping: never rendered
        return
    prefix = counter.count(_FACT_PREFIX[category][:-1])
    real = len(counter.encode(line))
    prefix_length = len(_FACT_PREFIX[category]) - 1
    assert content_floor(content, prefix) <= line_floor(line, prefix_length, prefix) <= real
    assert text_floor(line) <= real
    summary = f"- Top of mind: {line[len(_FACT_PREFIX[category]) :]}"
    assert text_floor(summary) <= len(counter.encode(summary))


@pytest.mark.parametrize("encoding", ENCODINGS)
@PROPERTY
@given(bodies=st.lists(CONTENT, min_size=1, max_size=8), starts=st.data())
def test_lines_counted_together_get_the_counts_they_get_alone(
    encoding: str, bodies: list[str], starts: st.DataObject
) -> None:
    counter = counter_for(encoding)
    counter.clear_cache()
    lines = [
        starts.draw(st.sampled_from(["- ", "## ", "-", "<", "#", "(", "'", "a", " ", ""]))
        + body
        + starts.draw(st.sampled_from(["\n", ".\n", "/\n", " \n", "\n\n", "。\n", ""]))
        for body in bodies
    ]
    assert counter.count_lines(lines) == [len(counter.encode(line)) for line in lines]


@pytest.mark.parametrize("encoding", ENCODINGS)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    doc=documents(),
    max_tokens=st.integers(0, 600),
    guaranteed_budget=st.integers(0, 150),
    constraint_budget=st.integers(0, 100),
)
def test_skipping_encodes_gives_the_block_of_counting_every_line(
    encoding: str,
    doc: MemoryDocument,
    max_tokens: int,
    guaranteed_budget: int,
    constraint_budget: int,
) -> None:
    counter = counter_for(encoding)
    counter.clear_cache()  # cold: every count would be an encode
    args = (doc, max_tokens, frozenset({"correction"}), guaranteed_budget, counter)
    fast = _render(*args, constraint_budget)
    slow = _render(*args, constraint_budget, floors=False)
    assert fast == slow
    assert fast.tokens == (counter.count(fast.text) if fast.text else 0)


def _hostile_document(n_facts: int) -> MemoryDocument:
    endings = ["。", ".", "", " (see /tmp/)", "!!", " 2024"]
    facts = tuple(
        Fact(
            id=f"f{i}",
            content=f"{['Prefers', '喜欢', '对花生过敏', 'Uses'][i % 4]} item {i}{endings[i % 6]}",
            category=list(FactCategory)[i % len(FactCategory)],
            confidence=0.5 + (i % 5) / 10,
            source_error="old belief" if i % 7 == 0 else None,
        )
        for i in range(n_facts)
    )
    summary = Section(summary="Works on payments. 周末爬山。 Reads a lot! Ends with a slash/")
    return MemoryDocument(
        user={"work_context": summary, "top_of_mind": summary},
        history={"recent_months": summary},
        facts=facts,
    )


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_blocks_across_budgets_match_counting_every_line(encoding: str) -> None:
    counter = counter_for(encoding)
    doc = _hostile_document(300)
    for max_tokens in (0, 7, 50, 333, 1000, 2500, 9000):
        counter.clear_cache()
        args = (doc, max_tokens, frozenset({"correction"}), 120, counter, 80)
        fast = _render(*args)
        assert fast == _render(*args, floors=False)
        assert fast.tokens == (counter.count(fast.text) if fast.text else 0)


def test_a_cold_render_of_many_facts_encodes_a_few_times_not_once_per_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counter = counter_for("o200k_base")
    encoding = counter._get_encoding()
    assert encoding is not None
    calls: list[str] = []
    real = encoding.encode_ordinary

    def counting(text: str) -> list[int]:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(encoding, "encode_ordinary", counting)
    facts = tuple(
        Fact(
            id=f"f{i}",
            content=f"Prefers trains over planes for trips shorter than {i} hours, even slow ones",
            category=FactCategory.PREFERENCE,
            confidence=0.9,
        )
        for i in range(600)
    )
    short = Fact(id="short", content="Vegan", category=FactCategory.PREFERENCE, confidence=0.5)
    doc = MemoryDocument(facts=(*facts, short))
    counter.clear_cache()
    result = render_memory(doc, max_tokens=400)
    assert 0 < result.facts_injected < 40 and result.tokens <= 400
    assert len(calls) < 30  # a few batches and fixed texts, not one encode per fact
    # A short fact late in the order still fits in the room the long ones left.
    assert "short" in result.fact_ids
    counter.clear_cache()
    calls.clear()
    assert _render(doc, 400, frozenset({"correction"}), 500, counter, 300, floors=False) == result
    assert len(calls) > 600  # the baseline encodes every line


@pytest.mark.parametrize("encoding", ENCODINGS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=documents())
def test_a_block_that_fits_its_budget_exactly_is_rendered_whole(
    encoding: str, doc: MemoryDocument
) -> None:
    # Summaries get what is left, to the token: the blank line after a section
    # is charged what it really costs (often nothing: it joins the line break).
    counter = counter_for(encoding)
    budgets = (frozenset({"correction"}), 10_000, counter, 10_000)
    whole = _render(doc, 1_000_000, *budgets)
    if not whole.fact_ids:  # without facts the last section's blank line is still charged
        return
    assert _render(doc, whole.tokens, *budgets).text == whole.text
