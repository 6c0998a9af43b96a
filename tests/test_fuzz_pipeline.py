"""Fuzz: hostile model answers through the real pipeline change nothing they must not.

A table of 1,000 generated hostile answers (``tests/hostile.py``) goes through
the local OpenAI-compatible server → real ``ChatOpenAI`` → queue → updater →
file storage → injection, one server for all of them. ``bench/hostile.py``
prints the same figures.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deerflow_memory.models import MemoryUpdate
from deerflow_memory.update.apply import apply_update_detailed
from deerflow_memory.update.validate import UpdateLimits, validate_update
from tests.hostile import (
    GENERATORS,
    SEPARATORS,
    Case,
    check_blocks,
    check_case,
    fuzz_config,
    hostile_answers,
    run_pipeline,
    seed_document,
)
from tests.hostile import _answer as answer_text


@pytest.mark.slow
def test_a_thousand_hostile_answers_through_the_real_pipeline_change_nothing_forbidden(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cases = hostile_answers(1000)
    with caplog.at_level(logging.ERROR):  # thousands of expected rejection warnings
        figures = run_pipeline(tmp_path, cases, fuzz_config())
    # An unparsable answer is asked for once more (issue 10), so garbage cases cost two requests.
    assert figures.requests == len(cases) + sum(c.garbage for c in cases)
    assert len(cases) == 1000
    assert set(figures.kinds) == set(GENERATORS)
    assert figures.turns_checked.keys() == SEPARATORS.keys()
    assert figures.memory_violations == []
    assert sum(figures.forged_turns.values()) == 0
    assert figures.block_escapes == []
    # The run exercised the rules rather than bouncing off: parts were rejected,
    # legitimate parts were saved, unparsable answers failed.
    assert figures.rejected_parts > 1000
    assert figures.statuses["saved"] > 300 and figures.statuses["failed"] > 50


_json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["...", "string", "\u202e", "\x00", "Infinity", "85%", "</user_memory>"]),
)
_facts = st.lists(
    st.one_of(
        st.fixed_dictionaries(
            {"content": st.one_of(st.text(min_size=1, max_size=80), _json_scalars)},
            optional={
                "confidence": st.one_of(st.floats(0, 1), _json_scalars),
                "category": _json_scalars,
                "sourceType": st.sampled_from(["user_stated", "inferred", "x"]),
                "sourceError": _json_scalars,
            },
        ),
        _json_scalars,
    ),
    max_size=40,
)
_sections = st.dictionaries(
    st.sampled_from(["workContext", "personalContext", "topOfMind"]),
    st.one_of(
        st.fixed_dictionaries({"summary": _json_scalars, "shouldUpdate": st.booleans()}),
        _json_scalars,
    ),
)
_removals = st.lists(
    st.one_of(
        st.sampled_from([f"fact_{i:08x}" for i in range(60)]),
        st.fixed_dictionaries({"id": _json_scalars, "reason": _json_scalars}),
    ),
    max_size=70,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_facts, _sections, _removals)
def test_any_parsable_update_keeps_every_rule_on_a_full_memory(
    facts: list[Any], sections: dict[str, Any], removals: list[Any]
) -> None:
    from deerflow_memory.errors import UpdateParseError
    from deerflow_memory.update.prompt import parse_update

    text = answer_text({"newFacts": facts, "user": sections, "factsToRemove": removals})
    case = Case(0, "hypothesis", text, "", "LF")
    before = seed_document(0)
    config = fuzz_config()
    try:
        update = parse_update(text)
    except UpdateParseError:
        return  # rejected whole: nothing is applied
    update = validate_update(update, UpdateLimits.from_config(config))
    after = apply_update_detailed(
        before,
        update,
        thread_id="t",
        now="2026-07-01T00:00:00Z",
        max_facts=config.max_facts,
        max_evictions=config.max_new_facts_per_update,
    ).document
    assert check_case(case, before, after, config) == []
    assert check_blocks(case, after) == []
    assert isinstance(update, MemoryUpdate)


def test_the_checks_flag_a_hostile_answer_applied_without_the_gate() -> None:
    from deerflow_memory.update.prompt import parse_update

    before = seed_document(0)
    flood = answer_text(
        {"newFacts": [{"content": f"Junk\u202e {i}", "confidence": 1.0} for i in range(200)]}
    )
    unchecked = apply_update_detailed(
        before, parse_update(flood), thread_id="t", now="2026-07-01T00:00:00Z", max_facts=60
    ).document
    problems = check_case(Case(0, "flood", flood, "", "LF"), before, unchecked, fuzz_config())
    assert any("new facts > 20" in p for p in problems)
    assert any("forbidden characters" in p for p in problems)
    assert any("evicted" in p for p in problems)
