"""Memory hygiene: expiry, staleness review, consolidation, use counts (issue 16)."""

from __future__ import annotations

import csv
import json
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory.config import MemoryConfig
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.models import (
    Fact,
    FactCategory,
    FactMerge,
    MemoryDocument,
    MemoryUpdate,
    NewFact,
    SourceType,
    parse_timestamp,
)
from deerflow_memory.service import MemoryService
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.update.apply import apply_update_detailed
from deerflow_memory.update.consolidate import DEFAULT_THRESHOLD, lexical_similarity
from deerflow_memory.update.dates import expiry_for_text, time_frame_end
from deerflow_memory.update.hygiene import due_for_review, tidy
from deerflow_memory.update.offline.extractor import OfflineExtractor
from deerflow_memory.update.prompt import build_update_prompt
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.updater import MemoryUpdater, UpdateStatus
from deerflow_memory.update.usage import AccessRecorder, retention_score
from tests.openai_server import OpenAIServer, openai_server  # noqa: F401  (fixture)

PAIRS = Path(__file__).parent.parent / "bench" / "data" / "duplicate_pairs.csv"
MONDAY = date(2026, 11, 30)


def conversation(text: str) -> tuple[HumanMessage | AIMessage, ...]:
    return (HumanMessage(content=text), AIMessage(content="Noted."))


def job(text: str, user: str = "alice", thread: str = "t1") -> UpdateJob:
    return UpdateJob(thread, user, None, conversation(text))


# --- time frames -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("User plans a trip to Sanya next week", date(2026, 12, 14)),
        ("Wants to finish the thesis this weekend", date(2026, 12, 7)),
        ("Moving house next month", date(2027, 1, 1)),
        ("Hopes to visit Japan next summer", date(2027, 9, 1)),
        ("Plans to run a marathon by June 2027", date(2027, 7, 1)),
        ("Flight on 12 March", date(2027, 3, 13)),
        ("Deadline is 2027-01-15", date(2027, 1, 16)),
        ("Wants to learn to ski in two weeks", date(2026, 12, 15)),
        ("用户打算明年春节去三亚过年", date(2027, 2, 14)),
        ("用户下周去北京出差", date(2026, 12, 14)),
        ("用户计划明年夏天去日本旅行", date(2027, 9, 1)),
        ("用户12月25日要考试", date(2026, 12, 26)),
    ],
)
def test_a_future_time_frame_gives_the_first_day_after_it(text: str, expected: date) -> None:
    assert time_frame_end(text, MONDAY) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Went to Sanya last summer",
        "用户去年春节在三亚",
        "Has lived in Berlin for three years",
        "Is allergic to peanuts",
        "Planned a trip this summer",  # said in November: this summer is over
    ],
)
def test_past_frames_and_lasting_facts_give_no_expiry(text: str) -> None:
    assert time_frame_end(text, MONDAY) is None


def test_spring_festival_is_read_from_the_lunar_calendar_table() -> None:
    # Said in January 2026: this year's festival is on 17 February 2026.
    assert expiry_for_text("用户打算去三亚过年", datetime(2026, 1, 5, tzinfo=UTC)) == (
        "2026-02-25T00:00:00Z"
    )


def test_the_offline_extractor_dates_goals_but_not_preferences() -> None:
    from deerflow_memory.update.extraction import ExtractionRequest

    request = ExtractionRequest(
        MemoryDocument(),
        [HumanMessage("我打算明年春节去三亚过年。我喜欢夏天"), AIMessage("好的")],
        "t1",
        today="2026-11-30",
    )
    facts = {f.content: f for f in OfflineExtractor().extract(request).new_facts}
    assert facts["用户打算明年春节去三亚过年"].expires_at == "2027-02-14T00:00:00Z"
    assert all(f.expires_at is None for c, f in facts.items() if "夏天" in c)


def facts_said_on_a_monday(said: str) -> tuple[NewFact, ...]:
    """The offline extractor's new facts for ``said``, on Monday 2026-11-30."""
    from deerflow_memory.update.extraction import ExtractionRequest

    request = ExtractionRequest(
        MemoryDocument(), [HumanMessage(said), AIMessage("Noted.")], "t1", today="2026-11-30"
    )
    return OfflineExtractor().extract(request).new_facts


@pytest.mark.parametrize(
    "said",
    [
        "My birthday is on October 9.",  # comes back every year
        "My wedding anniversary is April 22.",
        "I was born in August.",
        "我的生日是11月2号。",
        "我今年41岁。",  # an age, though "this year" is in it
    ],
)
def test_a_yearly_date_or_an_age_is_a_lasting_fact(said: str) -> None:
    # An expired fact is removed: a birthday given an end would be lost (attacker 68).
    [fact] = facts_said_on_a_monday(said)
    assert fact.expires_at is None


@pytest.mark.parametrize(
    ("said", "ends"),
    [
        # said on Monday 2026-11-30
        ("I'm away at a conference until Thursday.", "2026-12-04T00:00:00Z"),
        ("I'm house-sitting till the 12th.", "2026-12-13T00:00:00Z"),
        ("I'm off sugar for two weeks.", "2026-12-15T00:00:00Z"),
        ("I'm staying with my sister for a month.", "2026-12-31T00:00:00Z"),
    ],
)
def test_a_state_said_to_last_until_a_day_ends_then(said: str, ends: str) -> None:
    # Such states were stored with no end and shown for good (attacker 68).
    [fact] = facts_said_on_a_monday(said)
    assert fact.expires_at == ends


@pytest.mark.parametrize(
    "said",
    ["I've been sober for two years.", "I fast for a day every week.", "我下午一般喝茶。"],
)
def test_a_duration_that_has_lasted_or_recurs_is_no_end(said: str) -> None:
    facts = facts_said_on_a_monday(said)
    assert facts and all(f.expires_at is None for f in facts)


@pytest.mark.parametrize(
    "said",
    [
        "I have a birthday lunch on Friday.",  # an event that mentions a birthday
        "I plan to throw a party for my 4 year old next Sunday.",
        "我打算下个月带70岁的外公去海南。",
    ],
)
def test_an_event_that_mentions_a_birthday_or_an_age_still_ends(said: str) -> None:
    # The lasting-date rule once took every mention of one (attacker 69).
    [fact] = facts_said_on_a_monday(said)
    assert fact.expires_at is not None


def test_a_birthday_said_of_this_or_next_month_still_ends() -> None:
    [fact] = facts_said_on_a_monday("我下个月过生日。")
    assert fact.expires_at is not None


# --- expiry: never injected, moved to history at the next update ---------------------------


def goal(expires_at: str, content: str = "Plans to spend New Year in Sanya") -> Fact:
    return Fact(
        id="fact_000000g1",
        content=content,
        category=FactCategory.GOAL,
        confidence=0.9,
        created_at="2025-12-01T00:00:00Z",
        expires_at=expires_at,
    )


def test_an_expired_goal_is_not_injected_and_moves_to_history_at_the_next_update(
    tmp_path: Path,
) -> None:
    storage = FileMemoryStorage(tmp_path)
    lasting = Fact(id="fact_0000000a", content="Is allergic to peanuts", confidence=0.95)
    storage.save("alice", None, MemoryDocument(facts=(goal("2026-02-25"), lasting)))
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=60)
    with MemoryService(config, storage=storage, register_atexit=False) as service:
        block = service.memory_block(MemoryIdentity("alice", None, "t1"), record_access=False)
        assert "Sanya" not in block.context
        assert "peanuts" in block.context
        assert block.fact_ids == ("fact_0000000a",)

    updater = MemoryUpdater(storage, OfflineExtractor(), now=lambda: "2026-03-01T09:00:00Z")
    result = updater.update(job("What's the weather like?"))
    assert result.status is UpdateStatus.SAVED
    saved = storage.load("alice")
    assert [f.id for f in saved.facts] == ["fact_0000000a"]
    [history] = saved.superseded_facts
    assert (history.id, history.reason) == ("fact_000000g1", "expired")
    assert history.created_at == "2025-12-01T00:00:00Z"
    assert saved.hygiene is not None and saved.hygiene.expired == 1


def test_a_goal_before_its_end_is_injected(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    storage.save("alice", None, MemoryDocument(facts=(goal("2999-01-01"),)))
    with MemoryService(MemoryConfig(), storage=storage, register_atexit=False) as service:
        assert "Sanya" in service.memory_block(MemoryIdentity("alice", None, "t1")).context


def test_the_model_sets_expires_at_and_the_fact_expires_later(
    openai_server: OpenAIServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    storage = FileMemoryStorage(tmp_path)
    answer = {
        "newFacts": [
            {
                "content": "Plans a trip to Sanya next week",
                "category": "goal",
                "confidence": 0.9,
                "expiresAt": "2026-12-14",
            }
        ]
    }
    openai_server.reply(json.dumps(answer))
    model = openai_server.chat_model()
    first = MemoryUpdater(storage, model, now=lambda: "2026-11-30T10:00:00Z")
    assert first.update(job("I'm going to Sanya next week")).status is UpdateStatus.SAVED
    prompt = openai_server.requests[0]["messages"][1]["content"]
    assert "Today is 2026-11-30." in prompt
    [fact] = storage.load("alice").facts
    assert fact.expires_at == "2026-12-14T00:00:00Z"

    later = MemoryUpdater(storage, model, now=lambda: "2026-12-20T10:00:00Z")
    assert later.update(job("hello again")).status is UpdateStatus.SAVED
    saved = storage.load("alice")
    assert saved.facts == ()
    assert [h.reason for h in saved.superseded_facts] == ["expired"]


# --- consolidation ---------------------------------------------------------------------------


def fact(fid: str, content: str, confidence: float = 0.9, **kw: object) -> Fact:
    return Fact(
        id=fid,
        content=content,
        confidence=confidence,
        category=kw.pop("category", FactCategory.KNOWLEDGE),  # type: ignore[arg-type]
        created_at=kw.pop("created_at", "2026-01-01T00:00:00Z"),  # type: ignore[arg-type]
        **kw,  # type: ignore[arg-type]
    )


def test_three_phrasings_of_one_fact_collapse_to_one_and_two_allergies_stay_apart() -> None:
    document = MemoryDocument(
        facts=(
            fact("fact_00000001", "Is allergic to peanuts", 0.8, created_at="2026-01-01T00:00:00Z"),
            fact("fact_00000002", "User is allergic to peanuts.", 0.95, access_count=2),
            fact("fact_00000003", "has an allergy to peanuts", 0.9, access_count=3),
            fact("fact_00000004", "Is allergic to tree nuts", 0.9),
        )
    )
    result = tidy(document, now="2026-06-01T00:00:00Z")
    assert result.merged == 2
    kept = {f.id: f for f in result.document.facts}
    assert set(kept) == {"fact_00000002", "fact_00000004"}
    merged = kept["fact_00000002"]
    assert merged.confidence == 0.95
    assert merged.created_at == "2026-01-01T00:00:00Z"
    assert merged.access_count == 5
    reasons = {h.id: h.reason for h in result.document.superseded_facts}
    assert reasons == {
        "fact_00000001": "merged into fact_00000002",
        "fact_00000003": "merged into fact_00000002",
    }
    assert result.document.hygiene is not None and result.document.hygiene.merged == 2


def test_facts_of_different_categories_or_written_by_hand_are_never_merged() -> None:
    document = MemoryDocument(
        facts=(
            fact("fact_00000001", "Likes coffee", category=FactCategory.PREFERENCE),
            fact("fact_00000002", "Likes coffee", category=FactCategory.BEHAVIOR),
        )
    )
    assert tidy(document, now="2026-06-01T00:00:00Z").merged == 0


def test_the_model_path_collapses_restated_phrasings_after_the_update(
    openai_server: OpenAIServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    storage = FileMemoryStorage(tmp_path)
    storage.save(
        "alice", None, MemoryDocument(facts=(fact("fact_00000001", "Is allergic to peanuts"),))
    )
    answer = {
        "newFacts": [
            {"content": "has an allergy to peanuts", "category": "knowledge", "confidence": 0.95},
            {"content": "Is allergic to tree nuts", "category": "knowledge", "confidence": 0.9},
        ]
    }
    openai_server.reply(json.dumps(answer))
    updater = MemoryUpdater(storage, openai_server.chat_model(), now=lambda: "2026-06-01T00:00:00Z")
    assert (
        updater.update(job("peanuts and tree nuts are a problem for me")).status
        is UpdateStatus.SAVED
    )
    contents = sorted(f.content for f in storage.load("alice").facts)
    assert contents == ["Is allergic to tree nuts", "has an allergy to peanuts"]


def test_merges_proposed_by_the_model_are_applied() -> None:
    document = MemoryDocument(
        facts=(
            fact("fact_00000001", "Prefers short answers", 0.8),
            fact("fact_00000002", "Prefers concise answers", 0.9),
        )
    )
    update = MemoryUpdate(facts_to_merge=(FactMerge(ids=("fact_00000001", "fact_00000002")),))
    result = tidy(document, now="2026-06-01T00:00:00Z", update=update, threshold=1.1)
    assert [f.id for f in result.document.facts] == ["fact_00000002"]


@pytest.mark.parametrize("table", ["duplicate_pairs.csv", "duplicate_pairs_holdout.csv"])
def test_the_default_threshold_merges_no_look_alike_of_the_calibration_tables(table: str) -> None:
    with (PAIRS.parent / table).open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) >= 50
    merged = [r for r in rows if lexical_similarity(r["a"], r["b"]) >= DEFAULT_THRESHOLD]
    wrong = [r for r in merged if r["duplicate"] != "1"]
    duplicates = sum(r["duplicate"] == "1" for r in rows)
    assert len(wrong) / len(merged) <= 0.02
    assert len(merged) - len(wrong) >= 0.75 * duplicates


# --- staleness review ----------------------------------------------------------------------


def aged(fid: str, created: str, **kw: object) -> Fact:
    return fact(fid, f"Fact {fid}", 0.9, created_at=created, **kw)


STALE = "2026-01-01T00:00:00Z"
FRESH = "2026-05-20T00:00:00Z"
NOW_TS = parse_timestamp("2026-06-01T00:00:00Z") or 0.0


def test_review_lists_only_due_unprotected_facts() -> None:
    document = MemoryDocument(
        facts=(
            aged("fact_00000001", STALE),
            aged("fact_00000002", STALE),
            aged("fact_00000003", STALE, last_confirmed_at=FRESH),
            aged("fact_00000004", FRESH),
            aged("fact_00000005", STALE, category=FactCategory.CORRECTION),
            aged("fact_00000006", "2025-12-01T00:00:00Z"),
        )
    )
    due = due_for_review(document, NOW_TS, age_days=90, min_due=3)
    assert [f.id for f in due] == ["fact_00000006", "fact_00000001", "fact_00000002"]
    assert due_for_review(document, NOW_TS, age_days=90, min_due=4) == ()


def test_manual_facts_are_never_listed_for_review() -> None:
    manual = aged("fact_00000009", STALE).model_copy(update={"source_type": "manual"})
    document = MemoryDocument(facts=(manual, *(aged(f"fact_0000000{i}", STALE) for i in range(3))))
    assert "fact_00000009" not in {f.id for f in due_for_review(document, NOW_TS, min_due=1)}


def test_the_review_prompt_lists_due_facts_and_confirmations_refresh_them(
    openai_server: OpenAIServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    storage = FileMemoryStorage(tmp_path)
    facts = (
        aged("fact_00000001", STALE),
        aged("fact_00000002", STALE),
        aged("fact_00000003", STALE),
        aged("fact_00000004", FRESH),
        aged("fact_00000005", STALE, category=FactCategory.CORRECTION),
    )
    storage.save("alice", None, MemoryDocument(facts=facts))
    answer = {
        "factsToConfirm": ["fact_00000001"],
        "factsToRemove": [{"id": "fact_00000002", "reason": "retired: no longer true"}],
    }
    openai_server.reply(json.dumps(answer))
    updater = MemoryUpdater(
        storage,
        openai_server.chat_model(),
        MemoryConfig(staleness_age_days=90, staleness_min_due=3),
        now=lambda: "2026-06-01T00:00:00Z",
    )
    assert updater.update(job("hi")).status is UpdateStatus.SAVED
    prompt = openai_server.requests[0]["messages"][1]["content"]
    review = prompt.split("<due_for_review", 1)[1].split("</due_for_review>", 1)[0]
    listed = {json.loads(line)["id"] for line in review.splitlines()[1:] if line.strip()}
    assert listed == {"fact_00000001", "fact_00000002", "fact_00000003"}
    saved = storage.load("alice")
    by_id = {f.id: f for f in saved.facts}
    assert by_id["fact_00000001"].last_confirmed_at == "2026-06-01T00:00:00Z"
    assert "fact_00000002" not in by_id
    assert saved.hygiene is not None and saved.hygiene.retired == 1


def test_no_review_block_when_too_few_facts_are_due() -> None:
    document = MemoryDocument(facts=(aged("fact_00000001", STALE),))
    due = due_for_review(document, NOW_TS, min_due=3)
    [_, human] = build_update_prompt(
        document,
        conversation("hi"),
        correction_detected=False,
        reinforcement_detected=False,
        review=due,
    )
    assert "due_for_review" not in str(human.content)


# --- use counts -------------------------------------------------------------------------------


def test_use_counts_rise_for_injected_facts_and_not_for_others(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    facts = (
        fact("fact_00000001", "Is allergic to peanuts", 0.95),
        fact("fact_00000002", "Likes jazz " + "very much " * 200, 0.5),  # over the budget
    )
    storage.save("alice", None, MemoryDocument(facts=facts))
    config = MemoryConfig(injected_memory_max_tokens=200, access_flush_seconds=3600)
    with MemoryService(config, storage=storage, register_atexit=False) as service:
        identity = MemoryIdentity("alice", None, "t1")
        for _ in range(3):
            block = service.memory_block(identity)
        assert block.fact_ids == ("fact_00000001",)
        # Nothing is written on the inject path itself.
        assert storage.load("alice").facts[0].access_count == 0
        service.flush()
    saved = {f.id: f for f in storage.load("alice").facts}
    assert saved["fact_00000001"].access_count == 3
    assert saved["fact_00000001"].last_accessed_at is not None
    assert saved["fact_00000002"].access_count == 0
    assert saved["fact_00000002"].last_accessed_at is None


def test_the_recorder_writes_in_the_background_without_being_flushed(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    storage.save("alice", None, MemoryDocument(facts=(fact("fact_00000001", "Likes tea"),)))
    recorder = AccessRecorder(interval=0.05)
    try:
        recorder.record(storage, "alice", None, ("fact_00000001", "fact_gone0000"))
        deadline = datetime.now(UTC).timestamp() + 5
        while storage.load("alice").facts[0].access_count == 0:
            assert datetime.now(UTC).timestamp() < deadline
            recorder._wake.wait(0.02)
    finally:
        recorder.close()
    assert storage.load("alice").facts[0].access_count == 1


def test_eviction_keeps_the_used_fact_among_equal_confidences() -> None:
    now = "2026-06-01T00:00:00Z"
    used = fact("fact_00000001", "Likes tea", 0.8, access_count=40, last_accessed_at=now)
    unused = fact("fact_00000002", "Likes chess", 0.8)
    stronger = fact("fact_00000003", "Likes go", 0.85)
    document = MemoryDocument(facts=(used, unused, stronger))
    update = MemoryUpdate(new_facts=(NewFact(content="Likes rain", confidence=0.95),))
    result = apply_update_detailed(
        document, update, thread_id="t", now=now, max_facts=3, fact_confidence_threshold=0.7
    )
    kept = {f.id for f in result.document.facts}
    assert "fact_00000002" not in kept and {"fact_00000001", "fact_00000003"} <= kept
    ts = parse_timestamp(now) or 0.0
    assert 0.0 <= retention_score(unused, ts) < retention_score(used, ts) <= 1.0


def test_user_stated_restatement_keeps_source_type() -> None:
    # Merging never downgrades: a user_stated member makes the merged fact user_stated.
    document = MemoryDocument(
        facts=(
            fact("fact_00000001", "Is allergic to peanuts", 0.95),
            fact(
                "fact_00000002",
                "has an allergy to peanuts",
                0.8,
                source_type=SourceType.USER_STATED,
            ),
        )
    )
    [kept] = tidy(document, now="2026-06-01T00:00:00Z").document.facts
    assert (kept.id, kept.source_type) == ("fact_00000001", SourceType.USER_STATED)


# --- noise ratio: stats ------------------------------------------------------------------------


def stats_document() -> MemoryDocument:
    from deerflow_memory.models import HygieneCounts

    return MemoryDocument(
        facts=(
            fact(
                "fact_00000001",
                "Likes tea",
                category=FactCategory.PREFERENCE,
                access_count=4,
                last_accessed_at="2026-05-30T00:00:00Z",
            ),
            fact(
                "fact_00000002",
                "Likes chess",
                category=FactCategory.PREFERENCE,
                access_count=1,
                last_accessed_at="2026-03-01T00:00:00Z",
            ),
            fact("fact_00000003", "Is allergic to peanuts"),
            fact("fact_00000004", "Runs a marathon", category=FactCategory.GOAL),
        ),
        hygiene=HygieneCounts(merged=3, expired=2, retired=1),
    )


def test_stats_count_categories_unused_share_and_cleaning_totals() -> None:
    from deerflow_memory.storage.stats import memory_stats

    stats = memory_stats(stats_document(), user_id="alice", now=NOW_TS)
    assert stats.by_category == {"goal": 1, "knowledge": 1, "preference": 2}
    assert (stats.facts, stats.never_injected, stats.never_injected_share) == (4, 3, 0.75)
    assert (stats.merged, stats.expired, stats.retired) == (3, 2, 1)


def test_the_stats_command_prints_every_user_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from deerflow_memory.cli import main

    storage = FileMemoryStorage(tmp_path)
    storage.save("alice", None, stats_document())
    storage.save("bob", None, MemoryDocument(facts=(fact("fact_00000009", "Likes rain"),)))
    assert main(["--root", str(tmp_path), "stats", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["user_id"], r["facts"], r["merged"]) for r in rows] == [
        ("alice", 4, 3),
        ("bob", 1, 0),
    ]
    assert main(["--root", str(tmp_path), "stats", "--user", "alice"]) == 0
    out = capsys.readouterr().out
    # the CLI measures from today: none of these uses is within the last 30 days
    assert "alice" in out and "bob" not in out and "4 (100%)" in out


def test_the_stats_table_shows_the_judged_out_and_superseded_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The table left out two of the figures --json gives (attacker 86).
    from deerflow_memory.cli import main
    from deerflow_memory.models import HygieneCounts

    document = stats_document().model_copy(
        update={
            "hygiene": HygieneCounts(merged=3, expired=2, retired=1, judged_out=7),
            "superseded_facts": (fact("fact_00000005", "Lives in Hull"),),
        }
    )
    FileMemoryStorage(tmp_path).save("alice", None, document)
    assert main(["--root", str(tmp_path), "stats"]) == 0
    out = capsys.readouterr().out
    assert "judged" in out and "superseded" in out
    [row] = [line for line in out.splitlines() if "alice" in line]
    cells = [cell.strip() for cell in row.strip("│ ").split("│")]
    assert cells[-5:] == ["3", "2", "1", "7", "1"]


# --- the judge ---------------------------------------------------------------------------------

MOOD_AND_FACT = json.dumps(
    {
        "newFacts": [
            {
                "content": "Finds this hotel great but pricey",
                "category": "preference",
                "confidence": 0.8,
            },
            {"content": "Is vegetarian", "category": "preference", "confidence": 0.95},
            {"content": "Wants metric units", "category": "correction", "confidence": 0.95},
        ]
    }
)


def test_the_judge_drops_passing_moods_with_one_extra_call_and_counts_it(
    openai_server: OpenAIServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    from deerflow_memory.update.llm import build_extractor

    storage = FileMemoryStorage(tmp_path)
    config = MemoryConfig(
        judge="model", base_url=openai_server.url + "/v1", api_key="sk-test", model_name="m"
    )
    extractor = build_extractor(config)
    openai_server.reply(
        MOOD_AND_FACT, '{"keep": [1], "drop": [{"n": 0, "reason": "a passing mood"}]}'
    )
    updater = MemoryUpdater(storage, extractor, config, now=lambda: "2026-06-01T00:00:00Z")
    result = updater.update(job("This hotel is great, too pricey though. I'm vegetarian."))
    assert result.status is UpdateStatus.SAVED
    assert openai_server.request_count == 2
    judge_prompt = openai_server.requests[1]["messages"][1]["content"]
    assert "Finds this hotel great" in judge_prompt and "metric" not in judge_prompt
    saved = storage.load("alice")
    assert sorted(f.content for f in saved.facts) == ["Is vegetarian", "Wants metric units"]
    assert saved.hygiene is not None and saved.hygiene.judged_out == 1
    stats = extractor.stats  # type: ignore[attr-defined]
    assert (stats.calls, stats.dropped, stats.input_tokens) == (1, 1, 10)


def test_a_failing_judge_keeps_every_candidate(
    openai_server: OpenAIServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    from deerflow_memory.update.judge import JudgedExtractor
    from deerflow_memory.update.llm import ModelExtractor

    model = openai_server.chat_model()
    extractor = JudgedExtractor(ModelExtractor(model), model)
    openai_server.reply(MOOD_AND_FACT, "I cannot answer that")
    storage = FileMemoryStorage(tmp_path)
    MemoryUpdater(storage, extractor, now=lambda: "2026-06-01T00:00:00Z").update(
        job("hi, I am a nurse and tired today")
    )
    assert len(storage.load("alice").facts) == 3
    assert extractor.stats.failures == 1


def test_judge_off_makes_one_model_call(
    openai_server: OpenAIServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    from deerflow_memory.update.llm import ModelExtractor, build_extractor

    config = MemoryConfig(base_url=openai_server.url + "/v1", api_key="sk-test", model_name="m")
    assert isinstance(build_extractor(config), ModelExtractor)


@pytest.mark.parametrize(
    "text",
    [
        "This place is great, too pricey though",
        "I'm so tired today",
        "这家不错，太贵了",
        "我今天很开心",
        "I hate this weather",
    ],
)
def test_the_offline_extractor_records_no_passing_mood(text: str) -> None:
    from deerflow_memory.update.extraction import ExtractionRequest

    request = ExtractionRequest(MemoryDocument(), conversation(text), "t1", today="2026-06-01")
    assert OfflineExtractor().extract(request).new_facts == ()


def test_recent_use_raises_relevant_mode_recency_by_a_bounded_step() -> None:
    from deerflow_memory.inject.retrieval import USE_RECENCY_SHARE, RetrievalIndex

    old = "2025-06-01T00:00:00Z"
    facts = (
        fact("fact_00000001", "Likes tea", created_at=old),
        fact(
            "fact_00000002",
            "Likes tea",
            created_at=old,
            access_count=9,
            last_accessed_at="2026-06-01T00:00:00Z",
        ),
        fact(
            "fact_00000003", "Likes tea", created_at=old, last_confirmed_at="2026-06-01T00:00:00Z"
        ),
    )
    index = RetrievalIndex(facts)
    decay = 30 * 86_400.0
    unused, used, confirmed = (index.recency(i, NOW_TS, decay) for i in range(3))
    assert unused < used <= unused + USE_RECENCY_SHARE * (1.0 - unused) + 1e-9
    assert confirmed == pytest.approx(1.0)


class SameVector:
    """A deterministic embedder that calls every text identical (cosine 1.0)."""

    def __init__(self) -> None:
        self.calls = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        return [[1.0, 0.0] for _ in texts]


def test_with_an_embedder_cosine_adds_near_lexical_merges_but_never_look_alikes(
    tmp_path: Path,
) -> None:
    storage = FileMemoryStorage(tmp_path)
    facts = (
        fact("fact_00000001", "Likes Italian food", category=FactCategory.PREFERENCE),
        fact("fact_00000002", "Likes Italian food a lot", 0.8, category=FactCategory.PREFERENCE),
        fact("fact_00000003", "Is allergic to peanuts"),
        fact("fact_00000004", "Is allergic to tree nuts"),
    )
    storage.save("alice", None, MemoryDocument(facts=facts))
    embedder = SameVector()
    updater = MemoryUpdater(
        storage, OfflineExtractor(), now=lambda: "2026-06-01T00:00:00Z", embedder=embedder
    )
    assert updater.update(job("what's new?")).status is UpdateStatus.SAVED
    assert sorted(f.id for f in storage.load("alice").facts) == [
        "fact_00000001",
        "fact_00000003",
        "fact_00000004",
    ]
    updater.update(job("anything else?"))
    assert embedder.calls == 1  # vectors are cached by text


def test_show_prints_use_counts_and_expiry_dates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from deerflow_memory.cli import main

    storage = FileMemoryStorage(tmp_path)
    storage.save("alice", None, MemoryDocument(facts=(goal("2999-01-01"),)))
    assert main(["--root", str(tmp_path), "show", "--user", "alice"]) == 0
    assert "2999-01-01" in capsys.readouterr().out


def test_the_http_status_route_reports_hygiene_per_document(tmp_path: Path) -> None:
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    from deerflow_memory.api import memory_routes

    storage = FileMemoryStorage(tmp_path)
    storage.save("alice", None, stats_document())
    storage.save("bob", None, MemoryDocument(facts=(fact("fact_00000009", "Likes rain"),)))
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=60)
    with (
        MemoryService(config, storage=storage, register_atexit=False) as service,
        TestClient(
            Starlette(routes=memory_routes(service, ui=False)), base_url="http://127.0.0.1"
        ) as client,
    ):
        every = client.get("/memory/status").json()["hygiene"]
        assert [(h["user_id"], h["facts"], h["merged"]) for h in every] == [
            ("alice", 4, 3),
            ("bob", 1, 0),
        ]
        [alice] = client.get("/memory/status", params={"user": "alice"}).json()["hygiene"]
        assert alice["by_category"] == {"goal": 1, "knowledge": 1, "preference": 2}
        assert (alice["expired"], alice["retired"]) == (2, 1)
