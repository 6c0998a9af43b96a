"""MemoryUpdater end to end: real ChatOpenAI against the local server, real FileMemoryStorage."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from deerflow_memory.config import MemoryConfig
from deerflow_memory.errors import RevisionConflictError
from deerflow_memory.models import Fact, FactCategory, MemoryDocument
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.update.llm import ModelExtractor, build_extractor
from deerflow_memory.update.queue import MemoryUpdateQueue, UpdateJob
from deerflow_memory.update.updater import MemoryUpdater, UpdateResult, UpdateStatus
from tests.delegating import DelegatingStorage
from tests.openai_server import OpenAIServer, Reply, openai_server  # noqa: F401  (fixture)

NOW = "2026-07-01T10:00:00Z"

GOOD = json.dumps(
    {
        "user": {"workContext": {"summary": "Data engineer at Acme.", "shouldUpdate": True}},
        "newFacts": [
            {"content": "Is allergic to peanuts", "category": "context", "confidence": 0.95},
            {"content": "Prefers Python", "category": "preference", "confidence": 0.9},
        ],
    }
)


def conversation(
    text: str = "I'm a data engineer and I'm allergic to peanuts",
) -> tuple[BaseMessage, ...]:
    return (HumanMessage(content=text), AIMessage(content="Noted, I will remember that."))


def job(thread_id: str = "thread-1", user_id: str = "alice", **kw: Any) -> UpdateJob:
    return UpdateJob(thread_id, user_id, None, kw.pop("messages", conversation()), **kw)


@pytest.fixture
def storage(tmp_path: Path) -> FileMemoryStorage:
    return FileMemoryStorage(tmp_path / "memory")


@pytest.fixture
def updater(openai_server: OpenAIServer, storage: FileMemoryStorage) -> MemoryUpdater:  # noqa: F811
    return MemoryUpdater(storage, openai_server.chat_model(timeout=0.5), now=lambda: NOW)


def seed(storage: FileMemoryStorage, user: str = "alice") -> bytes:
    document = MemoryDocument(
        facts=(Fact(id="fact_00000001", content="Likes tea", confidence=0.8),)
    )
    storage.save(user, None, document)
    return storage.path_for(user).read_bytes()


def test_a_valid_answer_is_applied_and_saved(
    openai_server: OpenAIServer,  # noqa: F811
    updater: MemoryUpdater,
    storage: FileMemoryStorage,
) -> None:
    openai_server.reply(GOOD)
    result = updater.update(job())
    assert result.status is UpdateStatus.SAVED
    assert (result.revision, result.facts_added) == (1, 2)
    saved = storage.load("alice")
    assert [f.content for f in saved.facts] == ["Is allergic to peanuts", "Prefers Python"]
    assert {f.source for f in saved.facts} == {"thread-1"}
    assert saved.user.work_context.summary == "Data engineer at Acme."
    (request,) = openai_server.requests
    assert request["model"] == "test-model"
    assert "allergic to peanuts" in request["messages"][-1]["content"]


def test_a_fenced_answer_with_prose_and_thinking_is_saved(
    openai_server: OpenAIServer,  # noqa: F811
    updater: MemoryUpdater,
    storage: FileMemoryStorage,
) -> None:
    openai_server.reply(
        "<think>The user mentioned {allergies}; record them.</think>\n"
        f"Here is the update:\n```json\n{GOOD}\n```\nLet me know if you need more."
    )
    assert updater.update(job()).status is UpdateStatus.SAVED
    assert len(storage.load("alice").facts) == 2


@pytest.mark.parametrize(
    ("failure", "status"),
    [
        # An unparsable answer is asked for once more: the failure is scripted twice.
        pytest.param(
            Reply(GOOD[: len(GOOD) // 2], finish_reason="length"),
            UpdateStatus.FAILED,
            id="truncated-json",
        ),
        pytest.param(Reply("I cannot help with that."), UpdateStatus.FAILED, id="no-json"),
        # Transient failures (retries off here) come back as "retry", for the queue to requeue.
        pytest.param(Reply(status=500), UpdateStatus.RETRY, id="http-500"),
        pytest.param(Reply(GOOD, delay=2.0), UpdateStatus.RETRY, id="timeout"),
        # Each byte comes within the client's read timeout, the whole answer takes ~100 s.
        pytest.param(Reply(GOOD, trickle=0.2), UpdateStatus.RETRY, id="trickled-past-the-timeout"),
        pytest.param(Reply(GOOD, truncate_body=True), UpdateStatus.RETRY, id="truncated-body"),
    ],
)
def test_a_failed_update_leaves_memory_untouched_and_the_queue_goes_on(
    failure: Reply,
    status: UpdateStatus,
    openai_server: OpenAIServer,  # noqa: F811
    storage: FileMemoryStorage,
) -> None:
    config = MemoryConfig(model_call_retries=0, model_timeout_seconds=1.5)
    updater = MemoryUpdater(storage, openai_server.chat_model(timeout=0.5), config, now=lambda: NOW)
    before = seed(storage)
    openai_server.reply(*([failure] * (2 if status is UpdateStatus.FAILED else 1)), GOOD)
    results: list[UpdateResult] = []
    queue = MemoryUpdateQueue(lambda j: results.append(updater(j)), debounce_seconds=0)
    try:
        queue.add_nowait("thread-1", "alice", None, conversation())
        assert queue.flush(timeout=10)
        assert results[0].status is status and results[0].error
        assert storage.path_for("alice").read_bytes() == before
        queue.add_nowait("thread-2", "alice", None, conversation())
        assert queue.flush(timeout=10)
    finally:
        queue.shutdown(timeout=10)
    assert results[1].status is UpdateStatus.SAVED
    contents = [f.content for f in storage.load("alice").facts]
    assert contents == ["Likes tea", "Is allergic to peanuts", "Prefers Python"]


def test_removing_an_unknown_fact_id_is_ignored(
    openai_server: OpenAIServer,  # noqa: F811
    updater: MemoryUpdater,
    storage: FileMemoryStorage,
) -> None:
    seed(storage)
    openai_server.reply(
        json.dumps(
            {
                "factsToRemove": ["fact_ghost000"],
                "newFacts": [{"content": "Lives in Lyon", "confidence": 0.9}],
            }
        )
    )
    result = updater.update(job())
    assert result.status is UpdateStatus.SAVED
    assert result.facts_removed == 0
    assert [f.content for f in storage.load("alice").facts] == ["Likes tea", "Lives in Lyon"]


def test_a_noop_answer_changes_no_memory_but_records_the_watermark(
    openai_server: OpenAIServer,  # noqa: F811
    updater: MemoryUpdater,
    storage: FileMemoryStorage,
) -> None:
    seed(storage)
    before = storage.load("alice")
    openai_server.reply('{"user": {}, "history": {}, "newFacts": [], "factsToRemove": []}')
    result = updater.update(job())
    assert result.status is UpdateStatus.SKIPPED
    after = storage.load("alice")
    assert after.facts == before.facts and after.user == before.user
    assert [w.thread_id for w in after.extraction_watermarks] == ["thread-1"]
    assert updater.update(job()).reason == "already extracted"
    assert openai_server.request_count == 1


def test_an_answer_that_only_repeats_stored_facts_adds_nothing(
    openai_server: OpenAIServer,  # noqa: F811
    updater: MemoryUpdater,
    storage: FileMemoryStorage,
) -> None:
    seed(storage)
    before = storage.load("alice").facts
    openai_server.reply('{"newFacts": [{"content": "likes TEA", "confidence": 0.7}]}')
    assert updater.update(job()).status is UpdateStatus.SKIPPED
    assert storage.load("alice").facts == before


def test_a_turn_without_user_and_assistant_messages_makes_no_model_call(
    openai_server: OpenAIServer,  # noqa: F811
    updater: MemoryUpdater,
) -> None:
    messages = (HumanMessage(content="hello?"), ToolMessage(content="x", tool_call_id="1"))
    result = updater.update(job(messages=messages))
    assert result.status is UpdateStatus.SKIPPED
    assert openai_server.request_count == 0


def test_the_correction_flag_switches_the_prompt_to_correction_mode(
    openai_server: OpenAIServer,  # noqa: F811
    updater: MemoryUpdater,
    storage: FileMemoryStorage,
) -> None:
    openai_server.reply(
        json.dumps(
            {
                "newFacts": [
                    {
                        "content": "Wants answers in metric units",
                        "category": "correction",
                        "confidence": 0.95,
                        "sourceError": "answered in imperial units",
                    }
                ]
            }
        )
    )
    messages = conversation("That's wrong, use metric units")
    assert (
        updater.update(job(messages=messages, correction_detected=True)).status
        is UpdateStatus.SAVED
    )
    assert "Correction mode" in openai_server.requests[0]["messages"][-1]["content"]
    (correction,) = storage.load("alice").facts
    assert correction.category is FactCategory.CORRECTION
    assert correction.source_error == "answered in imperial units"


def test_a_corrupt_memory_file_fails_the_update_without_a_model_call_or_a_write(
    openai_server: OpenAIServer,  # noqa: F811
    updater: MemoryUpdater,
    storage: FileMemoryStorage,
) -> None:
    path = storage.path_for("alice")
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    result = updater.update(job())
    assert result.status is UpdateStatus.FAILED
    assert "Corrupt" in (result.error or "")
    assert openai_server.request_count == 0
    assert path.read_text() == "{not json"


class InterferingStorage(DelegatingStorage):
    """Lets another writer save first on the next ``conflicts`` saves: revision conflicts."""

    def __init__(self, inner: FileMemoryStorage, conflicts: int = 1) -> None:
        super().__init__(inner)
        self.conflicts = conflicts
        self.other_writes = 0
        self.lock = threading.Lock()

    def save(
        self,
        user_id: str,
        agent_name: str | None,
        document: MemoryDocument,
        expected_revision: int | None = None,
    ) -> MemoryDocument:
        with self.lock:
            if self.conflicts > 0:
                self.conflicts -= 1
                self.other_writes += 1
                current = self.inner.load(user_id, agent_name)
                other = Fact(content=f"Other writer fact {self.other_writes}", confidence=0.9)
                self.inner.save(
                    user_id,
                    agent_name,
                    current.model_copy(update={"facts": (*current.facts, other)}),
                    expected_revision=current.revision,
                )
        return self.inner.save(user_id, agent_name, document, expected_revision)


def test_a_revision_conflict_reapplies_the_parsed_update_without_a_second_model_call(
    openai_server: OpenAIServer,  # noqa: F811
    storage: FileMemoryStorage,
) -> None:
    seed(storage)
    interfering = InterferingStorage(storage, conflicts=1)
    updater = MemoryUpdater(interfering, openai_server.chat_model())
    openai_server.reply(GOOD)
    result = updater.update(job())
    assert result.status is UpdateStatus.SAVED
    assert result.attempts == 2
    assert openai_server.request_count == 1
    contents = [f.content for f in storage.load("alice").facts]
    assert contents == [
        "Likes tea",
        "Other writer fact 1",
        "Is allergic to peanuts",
        "Prefers Python",
    ]
    assert storage.load("alice").revision == 3


def test_a_conflict_that_outlasts_the_retries_fails_without_losing_the_other_writer(
    openai_server: OpenAIServer,  # noqa: F811
    storage: FileMemoryStorage,
) -> None:
    seed(storage)
    interfering = InterferingStorage(storage, conflicts=10)
    config = MemoryConfig(max_update_retries=2)
    updater = MemoryUpdater(interfering, openai_server.chat_model(), config)
    openai_server.reply(GOOD)
    result = updater.update(job())
    assert result.status is UpdateStatus.FAILED
    assert "RevisionConflictError" in (result.error or "")
    assert openai_server.request_count == 1
    contents = [f.content for f in storage.load("alice").facts]
    assert contents == ["Likes tea", "Other writer fact 1", "Other writer fact 2"]


def test_the_storage_raising_a_conflict_directly_is_retried(
    openai_server: OpenAIServer,  # noqa: F811
    storage: FileMemoryStorage,
) -> None:
    class FlakyStorage(InterferingStorage):
        def save(self, user_id, agent_name, document, expected_revision=None):  # type: ignore[no-untyped-def]
            if self.conflicts:
                self.conflicts -= 1
                raise RevisionConflictError(user_id, agent_name, expected_revision or 0, 99)
            return self.inner.save(user_id, agent_name, document, expected_revision)

    updater = MemoryUpdater(FlakyStorage(storage, conflicts=1), openai_server.chat_model())
    openai_server.reply(GOOD)
    assert updater.update(job()).attempts == 2
    assert openai_server.request_count == 1


def test_a_chat_model_given_as_extractor_is_wrapped(
    openai_server: OpenAIServer,  # noqa: F811
    storage: FileMemoryStorage,
) -> None:
    model = openai_server.chat_model()
    updater = MemoryUpdater(storage, model)
    assert isinstance(updater.extractor, ModelExtractor)
    assert updater.extractor.model is model


def test_with_nothing_configured_the_offline_extractor_updates_memory_end_to_end(
    monkeypatch: pytest.MonkeyPatch, storage: FileMemoryStorage, no_network: list[object]
) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    from deerflow_memory.update.offline.extractor import OfflineExtractor

    extractor = build_extractor(MemoryConfig())
    assert isinstance(extractor, OfflineExtractor)
    updater = MemoryUpdater(storage, extractor)
    with MemoryUpdateQueue(updater, debounce_seconds=0) as queue:
        queue.add("thread-1", "alice", None, conversation("I'm allergic to peanuts."))
    facts = storage.load("alice").facts
    assert any("peanut" in f.content.lower() for f in facts)
    assert all(f.source == "thread-1" for f in facts)
    assert no_network == []


def test_a_thread_id_with_control_characters_is_stored_cleaned(
    openai_server: OpenAIServer,  # noqa: F811
    updater: MemoryUpdater,
    storage: FileMemoryStorage,
) -> None:
    openai_server.reply(GOOD)
    result = updater.update(job(thread_id="thread\x00-\u202e7"))
    assert result.status is UpdateStatus.SAVED
    assert {f.source for f in storage.load("alice").facts} == {"thread-7"}


def test_each_saved_update_logs_one_info_line_with_who_and_what_changed(
    openai_server: OpenAIServer,  # noqa: F811
    updater: MemoryUpdater,
    caplog: pytest.LogCaptureFixture,
) -> None:
    openai_server.reply(GOOD)
    with caplog.at_level("INFO", logger="deerflow_memory.update.updater"):
        assert updater.update(job(user_id="dora")).status is UpdateStatus.SAVED
    (line,) = [r.getMessage() for r in caplog.records if r.levelname == "INFO"]
    assert line.startswith("memory saved: user=dora agent=- thread=thread-1")
    assert "facts_added=2 facts_removed=0 revision=1" in line
