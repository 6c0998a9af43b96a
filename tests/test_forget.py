"""Deleting a memory is final: nothing said before the delete is learned back.

Neither updates still pending when the memory is deleted (this process's
queue and outbox, other processes' records in a shared outbox), nor the next
turn of an old thread (whose history the checkpointer still holds), nor a
paraphrase of a single fact the user deleted.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from starlette.applications import Starlette
from starlette.testclient import TestClient

from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService
from deerflow_memory.api import memory_routes
from deerflow_memory.errors import MemoryBusyError, ModelCallError
from deerflow_memory.models import (
    USER_DELETED_REASON,
    Fact,
    MemoryDocument,
    MemoryUpdate,
    NewFact,
    SupersededFact,
)
from deerflow_memory.update.apply import apply_update
from deerflow_memory.update.retry import TransientModelError

WHO = MemoryIdentity("alice", None, "t1")


def turns(*texts: str) -> list[BaseMessage]:
    history: list[BaseMessage] = []
    for i, text in enumerate(texts):
        history += [HumanMessage(text, id=f"h{i}"), AIMessage("Noted.", id=f"a{i}")]
    return history


def facts(memory: MemoryService, who: MemoryIdentity = WHO) -> list[str]:
    return [f.content for f in memory.load(who).facts]


@pytest.fixture(params=["file", "sqlite"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryService]:
    path = tmp_path / ("memory" if request.param == "file" else "memory.sqlite")
    config = MemoryConfig(storage=request.param, storage_path=path, debounce_seconds=3600)
    with MemoryService(config, register_atexit=False) as service:
        yield service


def test_updates_pending_at_the_delete_do_not_rebuild_the_memory(memory: MemoryService) -> None:
    memory.enqueue(WHO, turns("I live in Oslo."))
    assert memory.flush(timeout=30)
    assert any("Oslo" in f for f in facts(memory))
    memory.enqueue(WHO, turns("I live in Oslo.", "I am a vegetarian."))  # pending
    assert memory.clear_memory("alice")
    assert memory.flush(timeout=30)
    assert facts(memory) == []
    assert memory.queue.pending_count == 0


def test_the_next_turn_of_an_old_thread_sends_only_what_follows_the_delete(
    memory: MemoryService,
) -> None:
    old = turns("I live in Oslo.", "I am a vegetarian.")
    memory.enqueue(WHO, old[:2])
    assert memory.flush(timeout=30)
    memory.enqueue(WHO, old)  # "vegetarian" still pending at the delete
    memory.clear_memory("alice")
    # The thread goes on (its checkpoint holds the whole history).
    memory.enqueue(WHO, [*old, *turns("x", "y", "I work as a nurse.")[4:]])
    assert memory.flush(timeout=30)
    learned = facts(memory)
    assert any("nurse" in f for f in learned), learned
    assert not any("Oslo" in f or "vegetarian" in f for f in learned), learned


def test_a_shared_outbox_loses_the_records_of_other_processes_too(tmp_path: Path) -> None:
    config = MemoryConfig(
        storage="sqlite", storage_path=tmp_path / "m.sqlite", debounce_seconds=3600
    )
    with (
        MemoryService(config, register_atexit=False) as replica,
        MemoryService(config, register_atexit=False) as other,
    ):
        replica.enqueue(WHO, turns("I live in Oslo."))
        assert replica.durable is not None and replica.durable.outbox.sync(timeout=10)
        assert other.clear_memory("alice") is True  # a pending conversation was dropped
        assert replica.flush(timeout=30)  # its job finds its record gone
        assert facts(replica) == [] and facts(other) == []


def test_the_http_delete_route_drops_pending_updates(memory: MemoryService) -> None:
    memory.enqueue(WHO, turns("I live in Oslo."))
    assert memory.flush(timeout=30)
    memory.enqueue(WHO, turns("I live in Oslo.", "I am a vegetarian."))
    with TestClient(Starlette(routes=memory_routes(memory)), base_url="http://127.0.0.1") as client:
        answer = client.delete("/memory/users/alice?confirm=alice")
    assert answer.status_code == 200 and answer.json() == {"deleted": True}
    assert memory.flush(timeout=30)
    assert facts(memory) == []


def test_what_the_user_says_after_the_delete_is_learned(memory: MemoryService) -> None:
    memory.clear_memory("alice")
    memory.enqueue(MemoryIdentity("alice", None, "t2"), turns("I work as a nurse."))
    assert memory.flush(timeout=30)
    assert any("nurse" in f for f in facts(memory))


def test_a_paraphrase_of_a_deleted_fact_is_not_learned_but_other_facts_are() -> None:
    gone = SupersededFact(
        id="fact_1", content="User lives in Oslo", reason=USER_DELETED_REASON, superseded_at="x"
    )
    document = MemoryDocument(
        facts=(Fact(id="fact_2", content="User likes tea"),), superseded_facts=(gone,)
    )
    update = MemoryUpdate(
        new_facts=(
            NewFact(content="User lives in Oslo now", confidence=0.9),
            NewFact(content="User lives in Bergen", confidence=0.9),
        )
    )
    after = apply_update(document, update, thread_id="t", now="2026-12-01T00:00:00Z")
    contents = [f.content for f in after.facts]
    assert "User lives in Bergen" in contents and "User lives in Oslo now" not in contents


def test_the_clear_command_deletes_the_content_but_keeps_what_was_already_read(
    tmp_path: Path,
) -> None:
    from tests.test_cli import cli

    config = MemoryConfig(storage_path=tmp_path / "memory", debounce_seconds=3600)
    old = turns("I live in Oslo.")
    with MemoryService(config, register_atexit=False) as memory:
        memory.enqueue(WHO, old)
        assert memory.flush(timeout=30) and facts(memory)
    done = cli(
        "--root", str(tmp_path / "memory"), "clear", "--user", "alice", "--yes", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    raw = (tmp_path / "memory/users/alice/memory.json").read_text()
    assert "Oslo" not in raw  # the content is gone from disk
    with MemoryService(config, register_atexit=False) as memory:
        memory.enqueue(WHO, [*old, *turns("x", "I work as a nurse.")[2:]])  # the thread goes on
        assert memory.flush(timeout=30)
        learned = facts(memory)
    assert any("nurse" in f for f in learned) and not any("Oslo" in f for f in learned)


class GatedExtractor:
    """The offline extractor, but the first call waits for ``go`` and then fails with ``error``."""

    def __init__(self, error: Exception) -> None:
        from deerflow_memory.update.offline.extractor import OfflineExtractor

        self.inner, self.error = OfflineExtractor(), error
        self.started, self.go = threading.Event(), threading.Event()
        self.calls = 0

    def extract(self, request: object) -> MemoryUpdate:
        self.calls += 1
        if self.calls == 1:
            self.started.set()
            self.go.wait(30)
            raise self.error
        return self.inner.extract(request)  # type: ignore[arg-type]


def service_with(extractor: object, path: Path, **config: object) -> MemoryService:
    settings = MemoryConfig(storage_path=path, debounce_seconds=0, **config)  # type: ignore[arg-type]
    memory = MemoryService(settings, extractor=extractor, register_atexit=False)  # type: ignore[arg-type]
    memory.retry_policy = replace(memory.retry_policy, requeue_base_seconds=0.05)
    return memory


@pytest.mark.parametrize(
    "error", [TransientModelError("503"), ModelCallError("model down")], ids=["retry", "failed"]
)
def test_an_update_running_at_the_delete_neither_requeues_nor_dead_letters_it_back(
    tmp_path: Path, error: Exception
) -> None:
    extractor = GatedExtractor(error)
    with service_with(extractor, tmp_path / "m") as memory:
        memory.enqueue(WHO, turns("I live in Oslo."))
        assert extractor.started.wait(30)
        clearing = threading.Thread(target=memory.clear_memory, args=("alice",))
        clearing.start()
        time.sleep(0.2)  # the delete waits for the running update
        extractor.go.set()
        clearing.join(30)
        assert memory.flush(timeout=30).drained
        assert facts(memory) == [] and memory.dead_letters() == []
    with service_with(extractor, tmp_path / "m") as again:  # nor after a restart
        assert again.flush(timeout=30).drained
        assert facts(again) == [] and again.dead_letters() == []


def test_dead_letters_of_a_deleted_memory_are_deleted_with_it(tmp_path: Path) -> None:
    class Down:
        def extract(self, request: object) -> MemoryUpdate:
            raise ModelCallError("model down")

    with service_with(Down(), tmp_path / "m") as memory:
        memory.enqueue(WHO, turns("I live in Oslo."))
        memory.enqueue(MemoryIdentity("bob", None, "t9"), turns("I live in Rome."))
        memory.flush(timeout=30)
        assert {x.user_id for x in memory.dead_letters()} == {"alice", "bob"}
        assert memory.clear_memory("alice") is True
        assert [x.user_id for x in memory.dead_letters()] == ["bob"]  # only alice's went


def test_a_delete_that_cannot_wait_long_enough_changes_nothing(tmp_path: Path) -> None:
    extractor = GatedExtractor(TransientModelError("503"))
    with service_with(extractor, tmp_path / "m") as memory:
        memory.enqueue(WHO, turns("I live in Oslo."))
        assert extractor.started.wait(30)
        other = MemoryIdentity("alice", None, "t2")
        memory.enqueue(other, turns("I am a vegetarian."))  # waits behind the running one
        with pytest.raises(MemoryBusyError, match="nothing was changed"):
            memory.clear_memory("alice", timeout=0.3)
        extractor.go.set()
        memory.flush(timeout=30)  # the running one fails (a dead letter during a flush)
        learned, letters = facts(memory), memory.dead_letters()
    # Nothing was dropped: the other conversation is learned, the failed one kept.
    assert any("vegetarian" in f for f in learned), learned
    assert [x.thread_id for x in letters] == ["t1"]


def test_deleting_twice_says_the_second_time_there_was_nothing(memory: MemoryService) -> None:
    memory.enqueue(WHO, turns("I live in Oslo."))
    assert memory.flush(timeout=30)
    assert memory.clear_memory("alice") is True
    assert memory.clear_memory("alice") is False


def test_a_memory_of_history_only_is_deleted_and_says_so(memory: MemoryService) -> None:
    # Every fact was replaced or deleted: what is left is history, which list,
    # show and import count as memory; its delete must say it deleted something.
    old = SupersededFact(id="fact_1", content="Lives in Oslo", reason="replaced")
    memory.storage.save("alice", None, MemoryDocument(superseded_facts=(old,)))
    assert memory.clear_memory("alice") is True
    assert not memory.load(WHO).superseded_facts
    memory.storage.save("bob", None, MemoryDocument(superseded_facts=(old,)))
    app = Starlette(routes=memory_routes(memory))
    with TestClient(app, base_url="http://localhost") as client:
        answer = client.delete("/memory/users/bob", params={"confirm": "bob"})
    assert answer.status_code == 200 and answer.json() == {"deleted": True}


def test_the_clear_command_drops_what_a_dead_process_left_in_its_outbox(tmp_path: Path) -> None:
    from deerflow_memory.storage.outbox import PendingUpdate
    from deerflow_memory.storage.outbox_file import FileOutbox
    from deerflow_memory.update.durable import decode_messages, encode_messages
    from tests.test_cli import cli

    root = tmp_path / "memory"
    crashed = FileOutbox(root, encode_messages, decode_messages)
    for user, text in (("alice", "I live in Oslo."), ("bob", "I live in Rome.")):
        crashed.record(PendingUpdate("t1", user, None, tuple(turns(text)), record_id=user))
    crashed.close()  # its lock is free, as after a crash
    done = cli("--root", str(root), "clear", "--user", "alice", "--yes", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    config = MemoryConfig(storage_path=root, debounce_seconds=3600)
    with MemoryService(config, register_atexit=False) as memory:
        assert memory.flush(timeout=30)
        assert facts(memory) == []  # alice's was dropped
        assert any("Rome" in f for f in facts(memory, MemoryIdentity("bob", None, "t1")))


def test_the_clear_command_fences_what_a_live_server_still_holds(tmp_path: Path) -> None:
    from tests.test_cli import cli

    root = tmp_path / "memory"
    config = MemoryConfig(storage_path=root, debounce_seconds=3600)
    bob = MemoryIdentity("bob", None, "t1")
    with MemoryService(config, register_atexit=False) as server:  # alive through the clear
        server.enqueue(WHO, turns("I live in Oslo."))
        assert server.flush(timeout=30) and facts(server)
        server.enqueue(WHO, turns("I live in Oslo.", "I am a vegetarian."))  # pending
        server.enqueue(bob, turns("I live in Rome."))
        assert server.durable is not None and server.durable.outbox.sync(timeout=10)
        done = cli("--root", str(root), "clear", "--user", "alice", "--yes", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert server.flush(timeout=30)  # its queue still runs alice's job, later
        assert facts(server) == []  # which learns nothing
        assert any("Rome" in f for f in facts(server, bob))  # another user's is untouched
        server.enqueue(
            WHO,
            [
                *turns("I live in Oslo.", "I am a vegetarian."),
                *turns("x", "y", "I work as a nurse.")[4:],
            ],
        )
        assert server.flush(timeout=30)
        learned = facts(server)
    assert any("nurse" in f for f in learned), learned
    assert not any("vegetarian" in f or "Oslo" in f for f in learned), learned
