"""apply_update: the pure rules that merge a parsed MemoryUpdate into a MemoryDocument."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deerflow_memory.models import Fact, FactCategory, MemoryDocument, MemoryUpdate, SourceType
from deerflow_memory.update.apply import (
    RECENT_MONTHS_MAX_CHARS,
    apply_update,
    apply_update_detailed,
    strip_upload_mentions,
)

NOW = "2026-07-01T10:00:00Z"


def doc(facts: list[Fact] | None = None, **sections: str) -> MemoryDocument:
    data: dict[str, Any] = {"user": {}, "history": {}, "lastUpdated": "2026-01-01T00:00:00Z"}
    for name, text in sections.items():
        part = (
            "history"
            if name in {"recentMonths", "earlierContext", "longTermBackground"}
            else "user"
        )
        data[part][name] = {"summary": text, "updatedAt": "2026-01-01T00:00:00Z"}
    document = MemoryDocument.model_validate(data)
    return document.model_copy(update={"facts": tuple(facts or ())})


def fact(content: str, confidence: float = 0.8, **kw: Any) -> Fact:
    return Fact(
        content=content,
        confidence=confidence,
        created_at=kw.pop("created_at", "2026-01-01T00:00:00Z"),
        **kw,
    )


def upd(**data: Any) -> MemoryUpdate:
    return MemoryUpdate.from_mapping(data)


def apply(document: MemoryDocument, update: MemoryUpdate, **kw: Any):
    kw.setdefault("thread_id", "thread-9")
    kw.setdefault("now", NOW)
    return apply_update_detailed(document, update, **kw)


# --- sections ---------------------------------------------------------------------------


def test_a_section_is_replaced_only_when_should_update_is_set_and_stamped_now() -> None:
    document = doc(workContext="Engineer at Acme.", personalContext="Speaks French.")
    result = apply(
        document,
        upd(
            user={
                "workContext": {"summary": "Staff engineer at Acme.", "shouldUpdate": True},
                "personalContext": {"summary": "Speaks German.", "shouldUpdate": False},
            }
        ),
    )
    user = result.document.user
    assert user.work_context.summary == "Staff engineer at Acme."
    assert user.work_context.updated_at == NOW
    assert user.personal_context.summary == "Speaks French."
    assert user.personal_context.updated_at == "2026-01-01T00:00:00Z"
    assert result.sections_updated == ("user.work_context",)


def test_an_empty_summary_never_replaces_a_section() -> None:
    document = doc(workContext="Engineer at Acme.")
    result = apply(document, upd(user={"workContext": {"summary": "   ", "shouldUpdate": True}}))
    assert result.document.user.work_context.summary == "Engineer at Acme."
    assert not result.changed


def test_a_replaced_top_of_mind_sinks_into_recent_months() -> None:
    document = doc(topOfMind="Preparing the Q2 launch.", recentMonths="Migrated CI to GitHub.")
    result = apply(
        document,
        upd(user={"topOfMind": {"summary": "Hiring two engineers.", "shouldUpdate": True}}),
    )
    assert result.document.user.top_of_mind.summary == "Hiring two engineers."
    recent = result.document.history.recent_months
    assert recent.summary == "Preparing the Q2 launch. Migrated CI to GitHub."
    assert recent.updated_at == NOW


def test_top_of_mind_does_not_sink_when_the_update_rewrites_recent_months_itself() -> None:
    document = doc(topOfMind="Preparing the Q2 launch.", recentMonths="Old.")
    result = apply(
        document,
        upd(
            user={"topOfMind": {"summary": "Hiring.", "shouldUpdate": True}},
            history={
                "recentMonths": {"summary": "Launched Q2; started hiring.", "shouldUpdate": True}
            },
        ),
    )
    assert result.document.history.recent_months.summary == "Launched Q2; started hiring."


def test_top_of_mind_already_in_recent_months_is_not_duplicated() -> None:
    document = doc(topOfMind="Preparing the launch.", recentMonths="Preparing the   LAUNCH. Other.")
    result = apply(document, upd(user={"topOfMind": {"summary": "Hiring.", "shouldUpdate": True}}))
    assert result.document.history.recent_months.summary == "Preparing the   LAUNCH. Other."


def test_repeated_top_of_mind_rollovers_keep_recent_months_bounded_and_newest_first() -> None:
    document = doc(topOfMind="Focus number 0.")
    for i in range(1, 200):
        document = apply(
            document,
            upd(user={"topOfMind": {"summary": f"Focus number {i}.", "shouldUpdate": True}}),
        ).document
    recent = document.history.recent_months.summary
    assert len(recent) <= RECENT_MONTHS_MAX_CHARS
    assert recent.startswith("Focus number 198.")
    assert "Focus number 0." not in recent


# --- removals -----------------------------------------------------------------------------


def test_facts_to_remove_removes_existing_ids_and_counts_unknown_ones() -> None:
    keep, drop = fact("Likes tea"), fact("Likes coffee")
    result = apply(doc([keep, drop]), upd(factsToRemove=[{"id": drop.id}, {"id": "fact_nothere"}]))
    assert [f.id for f in result.document.facts] == [keep.id]
    assert result.facts_removed == 1
    assert result.unknown_removals == 1


def test_removing_only_unknown_ids_changes_nothing() -> None:
    document = doc([fact("Likes tea")])
    result = apply(document, upd(factsToRemove=[{"id": "fact_ghost"}]))
    assert not result.changed
    assert result.document.facts == document.facts


# --- additions ------------------------------------------------------------------------------


def test_new_facts_are_stamped_with_a_fresh_id_time_and_thread() -> None:
    existing = fact("Likes tea")
    result = apply(
        doc([existing]),
        upd(
            newFacts=[
                {
                    "content": "Prefers metric units",
                    "category": "correction",
                    "confidence": 0.95,
                    "sourceType": "user_stated",
                    "sourceError": "used imperial units",
                }
            ]
        ),
    )
    new = result.document.facts[-1]
    assert new.id.startswith("fact_") and new.id != existing.id
    assert (new.created_at, new.source) == (NOW, "thread-9")
    assert new.category is FactCategory.CORRECTION
    assert new.source_type is SourceType.USER_STATED
    assert new.source_error == "used imperial units"
    assert result.added_ids == (new.id,)


def test_new_facts_are_deduplicated_ignoring_case_and_whitespace() -> None:
    result = apply(
        doc([fact("Likes green tea", 0.9)]),
        upd(
            newFacts=[
                {"content": "  likes   GREEN tea ", "confidence": 0.8},
                {"content": "Works remotely", "confidence": 0.8},
                {"content": "works  remotely", "confidence": 0.8},
            ]
        ),
    )
    assert [f.content for f in result.document.facts] == ["Likes green tea", "Works remotely"]
    assert result.facts_added == 1
    assert result.skipped_duplicates == 2


def test_restating_a_fact_with_more_confidence_raises_it_instead_of_adding_a_copy() -> None:
    stored = fact("Prefers short answers", 0.75, source_type=SourceType.INFERRED)
    result = apply(
        doc([stored]),
        upd(
            newFacts=[
                {
                    "content": "prefers short answers",
                    "confidence": 0.95,
                    "sourceType": "user_stated",
                }
            ]
        ),
    )
    (kept,) = result.document.facts
    assert kept.id == stored.id and kept.created_at == stored.created_at
    assert kept.confidence == 0.95
    assert kept.source_type is SourceType.USER_STATED
    assert result.facts_reinforced == 1 and result.facts_added == 0


def test_new_facts_below_the_confidence_threshold_are_dropped() -> None:
    result = apply(
        doc(),
        upd(
            newFacts=[
                {"content": "Maybe likes jazz", "confidence": 0.69},
                {"content": "Likes rock", "confidence": 0.7},
            ]
        ),
        fact_confidence_threshold=0.7,
    )
    assert [f.content for f in result.document.facts] == ["Likes rock"]
    assert result.skipped_low_confidence == 1


# --- capacity ---------------------------------------------------------------------------------


def test_max_facts_evicts_lowest_confidence_then_oldest_and_guaranteed_categories_last() -> None:
    facts = [
        fact("correction low", 0.1, category=FactCategory.CORRECTION),
        fact("old mid", 0.5, created_at="2025-01-01T00:00:00Z"),
        fact("new mid", 0.5, created_at="2026-01-01T00:00:00Z"),
        fact("high", 0.9),
    ]
    result = apply(
        doc(facts), upd(newFacts=[{"content": "newest", "confidence": 0.8}]), max_facts=3
    )
    assert [f.content for f in result.document.facts] == ["correction low", "high", "newest"]
    assert result.facts_evicted == 2


def test_guaranteed_facts_are_evicted_only_when_they_alone_exceed_max_facts() -> None:
    facts = [
        fact(f"correction {i}", 0.5 + i / 10, category=FactCategory.CORRECTION) for i in range(3)
    ]
    result = apply(doc([*facts, fact("regular", 1.0)]), upd(), max_facts=2)
    assert [f.content for f in result.document.facts] == ["correction 1", "correction 2"]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 1), st.booleans(), st.integers(0, 9)), min_size=0, max_size=30),
    st.integers(1, 25),
)
def test_eviction_keeps_the_cap_and_only_drops_facts_no_better_than_survivors(
    specs: list[tuple[float, bool, int]], max_facts: int
) -> None:
    facts = [
        fact(
            f"fact {i}",
            confidence,
            category=FactCategory.CORRECTION if guaranteed else FactCategory.CONTEXT,
            created_at=f"2026-01-0{day}T00:00:00Z" if day else "2025-12-31T00:00:00Z",
        )
        for i, (confidence, guaranteed, day) in enumerate(specs)
    ]
    out = apply(doc(facts), upd(newFacts=[]), max_facts=max_facts).document.facts
    assert len(out) == min(len(facts), max_facts)
    survivors = {f.id for f in out}
    evicted = [f for f in facts if f.id not in survivors]
    order = [f.id for f in facts]
    assert [f.id for f in out] == [i for i in order if i in survivors]  # order preserved
    guaranteed = [f for f in facts if f.category is FactCategory.CORRECTION]
    if len(guaranteed) <= max_facts:
        assert all(f.id in survivors for f in guaranteed)
    for gone in evicted:
        for kept in out:
            if (kept.category is FactCategory.CORRECTION) == (
                gone.category is FactCategory.CORRECTION
            ):
                assert (gone.confidence, gone.created_at) <= (kept.confidence, kept.created_at)


# --- uploads --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The user uploaded a file named q3.xlsx", ""),
        ("Uploaded an image of a cat.", ""),
        ("用户上传了一个文件", ""),
        ("See /mnt/user-data/uploads/report.pdf", ""),
        ("Prefers tables; uploaded a file /mnt/user-data/uploads/a.csv", "Prefers tables"),
        ("用户喜欢简洁，上传了一张图片", "用户喜欢简洁"),
        ("Reads report.pdf drafts carefully.", "Reads report.pdf drafts carefully."),
        ("Wants upload progress bars in the app", "Wants upload progress bars in the app"),
    ],
)
def test_upload_mentions_are_stripped_clause_by_clause(text: str, expected: str) -> None:
    assert strip_upload_mentions(text) == expected


def test_a_fact_only_about_an_upload_is_dropped_and_mixed_ones_are_cleaned() -> None:
    result = apply(
        doc(),
        upd(
            newFacts=[
                {"content": "User uploaded a file budget.xlsx", "confidence": 0.9},
                {"content": "Works in finance, uploaded a spreadsheet", "confidence": 0.9},
            ]
        ),
    )
    assert [f.content for f in result.document.facts] == ["Works in finance"]
    assert result.skipped_uploads == 1


def test_a_summary_only_about_an_upload_does_not_replace_the_section() -> None:
    document = doc(topOfMind="Planning a trip.")
    result = apply(
        document,
        upd(user={"topOfMind": {"summary": "The user uploaded an image.", "shouldUpdate": True}}),
    )
    assert result.document.user.top_of_mind.summary == "Planning a trip."


# --- the document as a whole ------------------------------------------------------------


def test_apply_never_mutates_its_input_and_keeps_unknown_fields_and_revision() -> None:
    raw = {
        "version": "1.0",
        "lastUpdated": "2026-01-01T00:00:00Z",
        "revision": 4,
        "deerflowExtra": {"keep": True},
        "facts": [{"id": "fact_aaaaaaaa", "content": "Likes tea", "confidence": 0.8, "mood": "x"}],
    }
    document = MemoryDocument.model_validate(raw)
    before = document.to_json()
    new = apply_update(
        document,
        upd(
            newFacts=[{"content": "Likes cake", "confidence": 0.9}],
            factsToRemove=[{"id": "fact_aaaaaaaa"}],
        ),
        thread_id="t",
        now=NOW,
    )
    assert document.to_json() == before
    data = new.to_dict()
    assert data["deerflowExtra"] == {"keep": True}
    assert data["revision"] == 4
    assert data["lastUpdated"] == NOW
    assert [f["content"] for f in data["facts"]] == ["Likes cake"]


def test_an_update_with_nothing_new_reports_no_change() -> None:
    document = doc([fact("Likes tea", 0.9)], workContext="Engineer.")
    result = apply(
        document,
        upd(
            user={"workContext": {"summary": "Engineer.", "shouldUpdate": True}},
            newFacts=[{"content": "likes tea", "confidence": 0.8}],
        ),
    )
    assert not result.changed
    assert result.document.facts == document.facts


# --- superseded history -------------------------------------------------------------------


def test_a_removed_fact_is_kept_as_history_with_when_why_and_its_source_thread() -> None:
    old = fact(
        "Lives in Munich", id="f-munich", source="thread-july", created_at="2026-07-12T09:00:00Z"
    )
    update = upd(
        newFacts=[
            {
                "content": "Lives in Berlin",
                "category": "correction",
                "confidence": 0.95,
                "sourceError": "Lives in Munich",
            }
        ],
        factsToRemove=[{"id": "f-munich", "reason": "moved to Berlin"}],
    )
    result = apply(doc([old]), update)
    assert [f.content for f in result.document.facts] == ["Lives in Berlin"]
    (history,) = result.document.superseded_facts
    assert (history.id, history.content, history.source, history.created_at) == (
        "f-munich",
        "Lives in Munich",
        "thread-july",
        "2026-07-12T09:00:00Z",
    )
    assert (history.superseded_at, history.reason) == (NOW, "moved to Berlin")


def test_unknown_removals_add_no_history_and_evicted_facts_move_to_history() -> None:
    document = doc([fact("a", confidence=0.8), fact("b", confidence=0.9)])
    update = upd(
        newFacts=[{"content": "c", "confidence": 0.95}],
        factsToRemove=[{"id": "nope", "reason": "?"}],
    )
    result = apply(document, update, max_facts=2)
    assert result.facts_evicted == 1
    [evicted] = result.document.superseded_facts
    assert evicted.content == "a"
    assert evicted.reason.startswith("evicted: memory full")


def test_history_keeps_only_the_newest_superseded_facts() -> None:
    document = doc([fact(f"fact {i}", id=f"f{i}") for i in range(5)])
    for i in range(5):
        document = apply(
            document, upd(factsToRemove=[{"id": f"f{i}", "reason": str(i)}]), max_superseded_facts=3
        ).document
    assert [h.reason for h in document.superseded_facts] == ["2", "3", "4"]
    assert (
        apply(
            doc([fact("x", id="x")]), upd(factsToRemove=[{"id": "x"}]), max_superseded_facts=0
        ).document.superseded_facts
        == ()
    )
