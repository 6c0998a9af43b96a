"""Manual facts are the user's word: edits by hand, and extraction that cannot undo them."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import FileMemoryStorage
from deerflow_memory.errors import FactNotFoundError, InvalidFactError, RevisionConflictError
from deerflow_memory.models import (
    USER_DELETED_REASON,
    Fact,
    FactCategory,
    MemoryDocument,
    MemoryUpdate,
    SourceType,
)
from deerflow_memory.update.apply import apply_update_detailed
from deerflow_memory.update.manual import (
    EDITED_REASON,
    MANUAL_SOURCE,
    add_manual_fact,
    delete_fact,
    edit_fact,
    save_edit,
)
from deerflow_memory.update.offline.extractor import OfflineExtractor
from deerflow_memory.update.prompt import build_update_prompt
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.updater import MemoryUpdater, UpdateStatus

NOW = "2026-07-01T10:00:00Z"


def manual(content: str, **kw: Any) -> Fact:
    kw.setdefault("confidence", 1.0)
    return Fact(content=content, source_type=SourceType.MANUAL, **kw)


def apply(document: MemoryDocument, **update: Any) -> Any:
    return apply_update_detailed(
        document, MemoryUpdate.from_mapping(update), thread_id="t-1", now=NOW, max_facts=3
    )


# --- extraction cannot undo manual facts ------------------------------------------------


def test_a_model_removal_of_a_manual_fact_is_ignored_and_counted() -> None:
    kept = manual("Lives in Porto")
    other = Fact(content="Likes jazz", confidence=0.8)
    result = apply(
        MemoryDocument(facts=(kept, other)),
        factsToRemove=[{"id": kept.id, "reason": "moved"}, {"id": other.id, "reason": "no"}],
    )
    assert [f.content for f in result.document.facts] == ["Lives in Porto"]
    assert result.protected_manual == 1 and result.facts_removed == 1


def test_a_restated_manual_fact_keeps_the_users_wording_confidence_and_source() -> None:
    kept = manual("Drinks tea", category=FactCategory.PREFERENCE, confidence=0.75)
    result = apply(
        MemoryDocument(facts=(kept,)),
        newFacts=[{"content": "drinks  TEA", "confidence": 0.95, "sourceType": "user_stated"}],
    )
    assert result.document.facts == (kept,)
    assert result.facts_added == 0


def test_eviction_never_picks_a_manual_fact_even_with_the_lowest_confidence() -> None:
    low = manual("Has a cat", confidence=0.1)
    document = MemoryDocument(facts=(low, Fact(content="A", confidence=0.8)))
    result = apply(
        document,
        newFacts=[
            {"content": "Works as a nurse", "confidence": 0.9},
            {"content": "Plays chess", "confidence": 0.9},
        ],
    )
    assert low in result.document.facts
    assert len(result.document.facts) == 3


def test_a_model_cannot_mint_a_manual_fact() -> None:
    result = apply(
        MemoryDocument(),
        newFacts=[{"content": "Owns a boat", "sourceType": "manual", "confidence": 0.9}],
    )
    assert result.document.facts[0].source_type is SourceType.USER_STATED


def test_a_fact_the_user_deleted_is_not_added_back_by_extraction() -> None:
    document, _ = add_manual_fact(MemoryDocument(), "Lives in Lisbon", "context")
    document, _ = delete_fact(document, document.facts[0].id)
    result = apply(document, newFacts=[{"content": "lives in lisbon", "confidence": 0.95}])
    assert result.document.facts == ()
    assert result.skipped_deleted == 1


def test_the_update_prompt_shows_manual_facts_as_such_and_never_offers_manual() -> None:
    document = MemoryDocument(facts=(manual("Prefers metric units"),))
    prompt = build_update_prompt(
        document,
        [HumanMessage("hi"), AIMessage("hello")],
        correction_detected=False,
        reinforcement_detected=False,
    )
    text = "\n".join(str(m.content) for m in prompt)
    assert '"sourceType": "manual"' in text
    assert "never put them in factsToRemove" in " ".join(text.split())
    assert "`user_stated` or `inferred`" in text


def test_the_updater_does_not_re_add_a_deleted_fact_from_the_old_messages(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    updater = MemoryUpdater(storage, OfflineExtractor())
    said = (HumanMessage("I'm allergic to peanuts."), AIMessage("Noted."))
    assert updater.update(UpdateJob("t-1", "ana", None, said)).status is UpdateStatus.SAVED
    stored = storage.load("ana")
    assert any("peanut" in f.content for f in stored.facts)

    peanut = next(f for f in stored.facts if "peanut" in f.content)
    save_edit(storage, "ana", None, lambda d: delete_fact(d, peanut.id))
    # The same thread is extracted again (a later turn re-sends the old messages).
    later = (*said, HumanMessage("Thanks!"), AIMessage("You're welcome."))
    updater.update(UpdateJob("t-1", "ana", None, later))
    after = storage.load("ana")
    assert not any("peanut" in f.content for f in after.facts)
    assert after.superseded_facts[-1].reason == USER_DELETED_REASON


def test_a_deleted_fact_said_again_is_not_learned_and_the_log_says_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Newcomer 49: the fact was dropped in silence, even at INFO.
    storage = FileMemoryStorage(tmp_path)
    updater = MemoryUpdater(storage, OfflineExtractor())
    told = (HumanMessage("I'm allergic to kiwi."), AIMessage("Noted."))
    assert updater.update(UpdateJob("t-1", "bo", None, told)).status is UpdateStatus.SAVED
    kiwi = next(f for f in storage.load("bo").facts if "kiwi" in f.content)
    save_edit(storage, "bo", None, lambda d: delete_fact(d, kiwi.id))
    again = (HumanMessage("Just so you know, I'm allergic to kiwi."), AIMessage("Noted."))
    with caplog.at_level("INFO", logger="deerflow_memory"):
        updater.update(UpdateJob("t-2", "bo", None, again))
    assert not any("kiwi" in f.content for f in storage.load("bo").facts)
    said = [r.getMessage() for r in caplog.records if "not learned again" in r.getMessage()]
    assert said and "user=bo" in said[0] and "1 fact(s)" in said[0]


# --- edits by hand ---------------------------------------------------------------------


def test_adding_a_manual_fact_cleans_the_text_and_marks_it_manual() -> None:
    document, fact = add_manual_fact(MemoryDocument(), "  Likes\u202e tea\n", "preference", 0.9)
    assert fact.content == "Likes tea" and fact.source_type is SourceType.MANUAL
    assert document.facts == (fact,)


def test_adding_text_already_stored_makes_that_fact_manual_instead_of_a_copy() -> None:
    stored = Fact(content="Likes tea", confidence=0.7)
    document, fact = add_manual_fact(MemoryDocument(facts=(stored,)), "likes TEA")
    assert len(document.facts) == 1 and fact.id == stored.id
    assert fact.source_type is SourceType.MANUAL and fact.content == "Likes tea"


@pytest.mark.parametrize(
    ("content", "category", "confidence", "problem"),
    [
        ("", "context", 1.0, "empty"),
        ("...", "context", 1.0, "punctuation"),
        ("x" * 600, "context", 1.0, "longer than"),
        ("Fine", "hobby", 1.0, "unknown category"),
        ("Fine", "context", "high", "number"),
        ("Fine", "context", float("nan"), "finite"),
    ],
)
def test_bad_manual_input_is_one_clear_error(
    content: str, category: str, confidence: Any, problem: str
) -> None:
    with pytest.raises(InvalidFactError, match=problem):
        add_manual_fact(MemoryDocument(), content, category, confidence)


def test_an_edit_keeps_the_id_and_moves_the_old_wording_to_history() -> None:
    document, fact = add_manual_fact(MemoryDocument(), "Lives in Lisbon")
    edited, new = edit_fact(document, fact.id, content="Lives in Porto")
    assert new.id == fact.id and new.content == "Lives in Porto"
    assert edited.superseded_facts[-1].content == "Lives in Lisbon"
    assert edited.superseded_facts[-1].reason == EDITED_REASON


def test_new_wording_is_dated_now_in_the_editors_thread_and_a_recategorisation_keeps_both() -> None:
    told = Fact(content="Lives in Lisbon", created_at="2026-07-12T09:00:00Z", source="t-july")
    document = MemoryDocument(facts=(told,))
    now = "2026-12-01T10:00:00Z"
    edited, new = edit_fact(document, told.id, content="Lives in Porto", now=now, source="t-dec")
    assert (new.created_at, new.source) == (now, "t-dec") and edited.facts == (new,)
    assert (edited.superseded_facts[-1].created_at, edited.superseded_facts[-1].source) == (
        "2026-07-12T09:00:00Z",
        "t-july",
    )
    _, by_hand = edit_fact(document, told.id, content="Lives in Porto", now=now)
    assert by_hand.source == MANUAL_SOURCE
    _, moved = edit_fact(document, told.id, category="preference", now=now)
    assert (moved.created_at, moved.source) == (told.created_at, told.source)
    _, same = edit_fact(document, told.id, content="Lives in Lisbon ", now=now, source="t-dec")
    assert (same.created_at, same.source) == (told.created_at, told.source)


def test_editing_or_deleting_an_unknown_id_is_not_found() -> None:
    with pytest.raises(FactNotFoundError):
        edit_fact(MemoryDocument(), "fact_nope", content="x y")
    with pytest.raises(FactNotFoundError):
        delete_fact(MemoryDocument(), "fact_nope")


@pytest.mark.parametrize(
    "given", ["fact_Mine ", " fact_mine", "FACT_MINE", "fact_mine\t", "fact_mine\u200b"]
)
def test_an_id_that_differs_only_in_case_or_whitespace_is_named_not_guessed(given: str) -> None:
    document = MemoryDocument.model_validate(
        {"facts": [{"id": "fact_mine", "content": "Likes quiet trains", "category": "preference"}]}
    )
    with pytest.raises(FactNotFoundError, match="did you mean 'fact_mine'") as caught:
        delete_fact(document, given)
    assert caught.value.near == "fact_mine"
    with pytest.raises(FactNotFoundError, match="removed or replaced") as caught:
        delete_fact(document, "fact_other")
    assert caught.value.near is None


def test_a_not_found_error_built_by_hand_with_any_id_still_has_a_message() -> None:
    # A non-text id raised TypeError from inside the error's own message (attacker 86).
    for given in (7, None, b"fact_1", ("fact_1",)):
        assert "no current fact with id" in str(FactNotFoundError(given, near=given))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("stored", "given", "near"),
    [
        (["fact_abcdefgX", "fact_abcdefghij"], "fact_abcdefgh", "fact_abcdefgX"),  # 1 beats 2
        (["fact_aaaa1111", "fact_aaaa111"], "fact_aaaa1113", None),  # both 1 off: neither
        # both one substitution off, though difflib's opcodes count 2 for one (attacker 91)
        (["fact_76798455", "fact_767984a6"], "fact_767984a5", None),
        # the tie was missed when the other id ranked below the three closest by ratio
        (
            [
                *("fact_aaaaabbabb", "fact_aaaabbbbb", "fact_aabaaabbacbb"),
                *("fact_aabaabbabacb", "fact_acababbabb", "fact_babaabbabb"),
            ],
            "fact_aabaabbabb",
            None,
        ),
    ],
)
def test_the_id_with_the_fewest_characters_off_is_named_and_a_tie_names_none(
    stored: list[str], given: str, near: str | None
) -> None:
    # difflib's ratio ranked a two-off id first, and broke a tie of one-off ids (attacker 90).
    document = MemoryDocument.model_validate(
        {"facts": [{"id": i, "content": f"Fact {n}"} for n, i in enumerate(stored)]}
    )
    with pytest.raises(FactNotFoundError) as caught:
        delete_fact(document, given)
    assert caught.value.near == near


def test_the_nearest_id_is_named_when_two_are_near(tmp_path: Path) -> None:
    # " 7" was answered "did you mean 'fact_7'?" when "7" was stored after it (attacker 55).
    facts = [
        {"id": "fact_7", "content": "Likes quiet trains"},
        {"id": "7", "content": "Grows chillies"},
    ]
    document = MemoryDocument.model_validate({"facts": facts})
    with pytest.raises(FactNotFoundError) as caught:
        delete_fact(document, " 7")
    assert caught.value.near == "7"
    with pytest.raises(FactNotFoundError) as caught:
        delete_fact(document, "FACT_7 ")
    assert caught.value.near == "fact_7"


def test_a_near_id_is_named_before_a_fact_whose_text_is_the_id() -> None:
    # Another fact's text being the id given must not hide the id it nearly is (attacker 74).
    facts = [
        {"id": "fact_1", "content": "Likes quiet trains"},
        {"id": "fact_2", "content": "fact_1"},
    ]
    document = MemoryDocument.model_validate({"facts": facts})
    with pytest.raises(FactNotFoundError, match="did you mean 'fact_1'"):
        delete_fact(document, "FACT_1")


def test_a_stale_revision_is_a_conflict_and_writes_nothing(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    saved, _ = save_edit(storage, "u", None, lambda d: add_manual_fact(d, "Likes tea"))
    with pytest.raises(RevisionConflictError):
        save_edit(
            storage,
            "u",
            None,
            lambda d: add_manual_fact(d, "Likes coffee"),
            expected_revision=saved.revision - 1,
        )
    assert [f.content for f in storage.load("u").facts] == ["Likes tea"]


def test_concurrent_edits_without_a_revision_all_land(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    texts = [f"Visited city number {n}" for n in range(8)]
    threads = [
        threading.Thread(
            target=save_edit,
            args=(storage, "u", None, lambda d, t=text: add_manual_fact(d, t)),
            kwargs={"retries": 20},
        )
        for text in texts
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(f.content for f in storage.load("u").facts) == sorted(texts)
