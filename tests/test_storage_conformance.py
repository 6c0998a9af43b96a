"""The storage contract, run against every backend: file, InMemoryStore, SqliteStore, PostgreSQL.

The PostgreSQL backend runs on a throwaway server (tests/pg.py); locally it
skips with a loud reason when no server can start, under CI it fails.
"""

from __future__ import annotations

import asyncio
import random
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from langgraph.store.memory import InMemoryStore

from deerflow_memory.config import MemoryConfig
from deerflow_memory.errors import InvalidNameError, RevisionConflictError
from deerflow_memory.models import Fact, FactCategory, MemoryDocument, Section, UserContext
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.dead_letters import DeadLetter
from deerflow_memory.storage.factory import open_storage
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.store import StoreMemoryStorage
from tests.pg import drop_prefix, postgres_dsn_or_skip, shared_postgres_store

BACKENDS = ["file", "inmemory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=BACKENDS)
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryStorage]:
    """A clean storage of each backend."""
    kind = request.param
    if kind == "file":
        yield FileMemoryStorage(tmp_path / "memory")
    elif kind == "inmemory":
        yield StoreMemoryStorage(InMemoryStore())
    elif kind == "sqlite":
        config = MemoryConfig(storage="sqlite", storage_path=tmp_path / "memory.sqlite")
        with open_storage(config) as sqlite_storage:
            yield sqlite_storage
    else:
        dsn = postgres_dsn_or_skip()
        prefix = ("dfm_test", uuid.uuid4().hex)
        pg_storage = StoreMemoryStorage(shared_postgres_store(dsn), prefix)  # type: ignore[arg-type]
        try:
            yield pg_storage
        finally:
            pg_storage.close()
            drop_prefix(dsn, prefix)


def fact(content: str, category: FactCategory = FactCategory.PREFERENCE, **extra: object) -> Fact:
    return Fact.model_validate(
        {"content": content, "category": category, "confidence": 0.9, "source": "t1", **extra}
    )


def with_facts(document: MemoryDocument, *facts: Fact) -> MemoryDocument:
    return document.model_copy(update={"facts": (*document.facts, *facts)})


def comparable(document: MemoryDocument) -> dict[str, object]:
    data = document.to_dict()
    data.pop("revision")
    return data


def rich_document() -> MemoryDocument:
    """Every category, Chinese text, unknown keys at the top, in sections and in facts."""
    return MemoryDocument.model_validate(
        {
            "version": "1.0",
            "lastUpdated": "2025-03-02T10:00:00Z",
            "user": {
                "workContext": {"summary": "后端工程师，在做 LangGraph 智能体。", "updatedAt": "x"},
                "personalContext": {"summary": "不吃海鲜，对花生过敏。", "mood": "calm"},
                "topOfMind": {"summary": "准备去东京旅行"},
            },
            "history": {"recentMonths": {"summary": "Moved to Berlin."}},
            "customTopLevel": {"kept": [1, 2, 3]},
            "facts": [
                {
                    "id": f"fact_{i:08x}",
                    "content": f"{category.value} 事实 {i} — naïve café",
                    "category": category.value,
                    "confidence": 0.5 + i / 20,
                    "createdAt": "2025-01-01T00:00:00Z",
                    "source": "thread-1",
                    "sourceType": "user_stated",
                    "deerflowExtra": {"n": i},
                }
                for i, category in enumerate(FactCategory)
            ],
        }
    )


def test_a_document_never_saved_loads_empty_at_revision_zero(storage: MemoryStorage) -> None:
    document = storage.load("nobody")
    assert document.revision == 0
    assert document.is_empty()
    assert list(storage.list_documents()) == []


def test_a_saved_document_round_trips_with_unknown_keys_every_category_and_chinese_text(
    storage: MemoryStorage,
) -> None:
    original = rich_document()
    stored = storage.save("alice", None, original)
    loaded = storage.load("alice")
    assert comparable(loaded) == comparable(original)
    assert loaded.revision == stored.revision == 1
    assert {f.category for f in loaded.facts} == set(FactCategory)  # knowledge included
    assert loaded.model_extra == {"customTopLevel": {"kept": [1, 2, 3]}}
    assert loaded.facts[0].model_extra == {"deerflowExtra": {"n": 0}}


def test_each_save_increments_the_revision(storage: MemoryStorage) -> None:
    document = storage.load("bob")
    for expected in range(1, 4):
        document = storage.save("bob", None, with_facts(document, fact(f"f{expected}")))
        assert document.revision == expected
        assert storage.load("bob").revision == expected


def test_a_stale_expected_revision_raises_a_conflict_and_changes_nothing(
    storage: MemoryStorage,
) -> None:
    first = storage.save("carol", None, with_facts(MemoryDocument(), fact("likes tea")))
    storage.save("carol", None, with_facts(first, fact("likes cake")), expected_revision=1)
    with pytest.raises(RevisionConflictError) as caught:
        storage.save("carol", None, with_facts(first, fact("lost?")), expected_revision=1)
    assert (caught.value.expected, caught.value.actual) == (1, 2)
    assert [f.content for f in storage.load("carol").facts] == ["likes tea", "likes cake"]


def test_a_removed_fact_stays_removed(storage: MemoryStorage) -> None:
    loaded = storage.save(
        "dave", None, with_facts(MemoryDocument(), fact("a"), fact("b"), fact("c"))
    )
    kept = loaded.model_copy(update={"facts": (loaded.facts[0], loaded.facts[2])})
    storage.save("dave", None, kept, expected_revision=loaded.revision)
    assert [f.content for f in storage.load("dave").facts] == ["a", "c"]


@pytest.mark.parametrize(
    "bad", ["..", ".", "a/b", "/etc/passwd", "a\\b", "a b", "", "tab\there", "nul\x00", ".hidden"]
)
def test_unsafe_names_are_rejected_for_users_and_agents(storage: MemoryStorage, bad: str) -> None:
    document = with_facts(MemoryDocument(), fact("x"))
    with pytest.raises(InvalidNameError):
        storage.load(bad)
    with pytest.raises(InvalidNameError):
        storage.save(bad, None, document)
    with pytest.raises(InvalidNameError):
        storage.save("ok", bad, document)
    with pytest.raises(InvalidNameError):
        storage.delete("ok", bad)
    assert list(storage.list_documents()) == []


def test_delete_removes_a_document_and_list_documents_follows(storage: MemoryStorage) -> None:
    storage.save("erin", None, with_facts(MemoryDocument(), fact("one")))
    storage.save("erin", "researcher", with_facts(MemoryDocument(), fact("two")))
    storage.save("frank@example.com", None, with_facts(MemoryDocument(), fact("three")))
    assert sorted(storage.list_documents(), key=str) == sorted(
        [("erin", None), ("erin", "researcher"), ("frank@example.com", None)], key=str
    )
    assert storage.delete("erin", "researcher") is True
    assert storage.delete("erin", "researcher") is False
    left = storage.load("erin", "researcher")
    assert left.revision == 2  # one past the deleted revision: revisions never restart
    assert left.facts == () and left.holds_only_fence()
    assert sorted(storage.list_documents(), key=str) == sorted(
        [("erin", None), ("frank@example.com", None)], key=str
    )


def test_the_default_agent_and_named_agents_are_isolated(storage: MemoryStorage) -> None:
    storage.save("gina", None, with_facts(MemoryDocument(), fact("default agent fact")))
    storage.save("gina", "travel", with_facts(MemoryDocument(), fact("travel agent fact")))
    storage.save("gina", "_default", with_facts(MemoryDocument(), fact("agent named _default")))
    assert [f.content for f in storage.load("gina").facts] == ["default agent fact"]
    assert [f.content for f in storage.load("gina", "travel").facts] == ["travel agent fact"]
    assert [f.content for f in storage.load("gina", "_default").facts] == ["agent named _default"]
    assert storage.load("gina", "other").facts == ()


def test_many_random_users_never_see_each_others_facts(storage: MemoryStorage) -> None:
    rng = random.Random(20250302)
    alphabet = "abcxyz_.-@+0123éß用户"
    users: set[str] = set()
    while len(users) < 25:
        name = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        if not name.startswith(".") and name not in {".", ".."}:
            users.add(name)
    users |= {"alice@example.com", "alice@example_com", "alice.example.com"}
    for user in users:
        storage.save(user, None, with_facts(MemoryDocument(), fact(f"secret of {user}")))
    for user in users:
        assert [f.content for f in storage.load(user).facts] == [f"secret of {user}"]
    assert {u for u, _ in storage.list_documents()} == users


def test_a_document_with_150_facts_loads_completely_in_order(storage: MemoryStorage) -> None:
    facts = [fact(f"fact number {i}", confidence=(i % 10) / 10) for i in range(160)]
    storage.save("hank", None, MemoryDocument(facts=tuple(facts)))
    loaded = storage.load("hank")
    assert [f.content for f in loaded.facts] == [f.content for f in facts]


def test_concurrent_writers_retrying_on_conflict_lose_no_facts(storage: MemoryStorage) -> None:
    writers, per_writer = 4, 8
    errors: list[BaseException] = []
    start = threading.Barrier(writers)

    def write(w: int) -> None:
        try:
            start.wait()
            for i in range(per_writer):
                while True:
                    current = storage.load("ivy")
                    updated = with_facts(current, fact(f"writer {w} update {i}"))
                    try:
                        storage.save("ivy", None, updated, expected_revision=current.revision)
                        break
                    except RevisionConflictError:
                        continue
        except BaseException as e:  # surfaced below
            errors.append(e)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    final = storage.load("ivy")
    assert sorted(f.content for f in final.facts) == sorted(
        f"writer {w} update {i}" for w in range(writers) for i in range(per_writer)
    )
    assert final.revision == writers * per_writer


async def test_async_load_save_and_delete_follow_the_same_contract(storage: MemoryStorage) -> None:
    empty = await storage.aload("jane", "coach")
    assert empty.revision == 0
    document = empty.model_copy(
        update={"user": UserContext(top_of_mind=Section(summary="马拉松训练"))}
    )
    stored = await storage.asave("jane", "coach", with_facts(document, fact("runs daily")), 0)
    assert stored.revision == 1
    with pytest.raises(RevisionConflictError):
        await storage.asave("jane", "coach", document, expected_revision=0)
    loaded = await storage.aload("jane", "coach")
    assert comparable(loaded) == comparable(stored)
    results = await asyncio.gather(*(storage.aload("jane", "coach") for _ in range(5)))
    assert all(r.revision == 1 for r in results)
    assert await storage.adelete("jane", "coach") is True
    left = await storage.aload("jane", "coach")
    assert left.revision == 2 and left.holds_only_fence()  # revisions never restart
    assert (await storage.asave("jane", "coach", document, expected_revision=2)).revision == 3


def test_superseded_fact_history_round_trips(storage: MemoryStorage) -> None:
    from deerflow_memory.models import SupersededFact

    history = SupersededFact(
        id="f-old",
        content="Lives in Munich",
        source="thread-july",
        created_at="2026-07-12T09:00:00Z",
        superseded_at="2026-11-29T00:00:00Z",
        reason="moved",
    )
    document = with_facts(MemoryDocument(), fact("Lives in Berlin")).model_copy(
        update={"superseded_facts": (history,)}
    )
    storage.save("hana", None, document)
    assert storage.load("hana").superseded_facts == (history,)


# --- dead letters --------------------------------------------------------------------


def letter(
    thread: str, user: str = "alice", agent: str | None = None, **extra: object
) -> DeadLetter:
    fields: dict[str, object] = {
        "error": "ModelCallError: 503",
        "attempts": 3,
        "message_ids": ("m1", "m2"),
        "messages": ({"type": "human", "data": {"content": "我对花生过敏", "id": "m1"}},),
        **extra,
    }
    return DeadLetter.for_key(thread, user, agent, **fields)


def test_a_dead_letter_is_stored_listed_and_deleted(storage: MemoryStorage) -> None:
    first = letter("t1", first_failed_at="2026-01-01T00:00:00Z")
    second = letter("t2", user="bob", agent="coder", first_failed_at="2026-01-02T00:00:00Z")
    storage.put_dead_letter(second)
    storage.put_dead_letter(first)
    assert storage.list_dead_letters() == [first, second]
    assert storage.list_dead_letters("bob") == [second]
    assert storage.delete_dead_letter(first.id) is True
    assert storage.delete_dead_letter(first.id) is False
    assert storage.list_dead_letters() == [second]


def test_a_dead_letter_for_the_same_key_replaces_the_older_one(storage: MemoryStorage) -> None:
    storage.put_dead_letter(letter("t1"))
    newer = letter("t1", attempts=9)
    storage.put_dead_letter(newer)
    assert storage.list_dead_letters() == [newer]


def test_dead_letters_do_not_show_up_as_documents(storage: MemoryStorage) -> None:
    storage.put_dead_letter(letter("t1"))
    assert list(storage.list_documents()) == []
    assert storage.load("alice").revision == 0


def test_dead_letters_have_async_twins(storage: MemoryStorage) -> None:
    async def roundtrip() -> list[DeadLetter]:
        await storage.aput_dead_letter(letter("t9"))
        listed = await storage.alist_dead_letters()
        assert await storage.adelete_dead_letter(listed[0].id)
        return listed

    assert [x.thread_id for x in asyncio.run(roundtrip())] == ["t9"]
    assert storage.list_dead_letters() == []


def test_a_tenant_sees_only_its_own_documents_and_no_tenant_is_the_storage_itself(
    storage: MemoryStorage,
) -> None:
    assert storage.scoped(None) is storage
    shop, travel = storage.scoped("shop"), storage.scoped("travel.eu")
    assert storage.scoped("shop") is shop  # one view per tenant
    storage.save("ann", None, with_facts(MemoryDocument(), fact("untenanted")))
    shop.save("ann", None, with_facts(MemoryDocument(), fact("likes sneakers")))
    travel.save("ann", "planner", with_facts(MemoryDocument(), fact("window seat")))
    assert [f.content for f in storage.load("ann").facts] == ["untenanted"]
    assert [f.content for f in shop.load("ann").facts] == ["likes sneakers"]
    assert travel.load("ann").facts == ()
    assert [f.content for f in travel.load("ann", "planner").facts] == ["window seat"]
    assert list(storage.list_documents()) == [("ann", None)]
    assert list(shop.list_documents()) == [("ann", None)]
    with pytest.raises(InvalidNameError, match="tenant_id"):
        storage.scoped("../escape")


def test_file_tenants_live_under_tenants_and_untenanted_data_keeps_its_path(
    tmp_path: Path,
) -> None:
    storage = FileMemoryStorage(tmp_path / "memory")
    storage.save("ann", None, with_facts(MemoryDocument(), fact("untenanted")))
    storage.scoped("shop").save("ann", None, with_facts(MemoryDocument(), fact("tenanted")))
    assert (tmp_path / "memory/users/ann/memory.json").is_file()
    assert (tmp_path / "memory/tenants/shop/users/ann/memory.json").is_file()
