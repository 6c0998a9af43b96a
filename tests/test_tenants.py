"""Tenants end to end: one user id in two tenants and without a tenant is three memories.

A run's ``tenant_id`` (context, then ``configurable``) picks a tenant service
(``MemoryService.for_tenant``): its storage view, its overrides, its own queue,
outbox and dead letters. Absent means no tenant and the layout of before.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from deerflow_memory import InvalidNameError, MemoryConfig, MemoryService
from deerflow_memory.errors import ModelCallError
from deerflow_memory.graph import create_memory_agent
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.storage.factory import open_storage
from deerflow_memory.storage.outbox import PendingUpdate
from deerflow_memory.storage.outbox_file import FileOutbox
from deerflow_memory.storage.tenants import stored_tenants, tenants_with_pending_updates
from deerflow_memory.update.durable import decode_messages, encode_messages
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.offline.extractor import OfflineExtractor
from deerflow_memory.update.union import merge_messages

# What one user id tells in each scope; no sentence shares a fact with another.
TOLD = {
    None: "I work as a welder in Bilbao.",
    "shop": "I'm allergic to peanuts.",
    "travel": "I prefer window seats on trains.",
}
SIGN = {None: "welder", "shop": "peanuts", "travel": "window seats"}


def turn(text: str, ident: str) -> list[Any]:
    return [
        HumanMessage(content=text, id=f"h-{ident}"),
        AIMessage(content="Noted.", id=f"a-{ident}"),
    ]


def who(tenant: str | None, user: str = "ann", thread: str = "t1") -> MemoryIdentity:
    return MemoryIdentity(user_id=user, agent_name=None, thread_id=thread, tenant_id=tenant)


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[MemoryService]:
    config = MemoryConfig(storage_path=tmp_path / "mem", debounce_seconds=0.05, max_wait_seconds=1)
    with MemoryService(config, register_atexit=False) as service:
        yield service


def test_one_user_in_two_tenants_and_without_a_tenant_is_three_memories_through_a_graph(
    memory: MemoryService, tmp_path: Path
) -> None:
    graph = create_memory_agent(service=memory, checkpointer=InMemorySaver())
    for tenant, text in TOLD.items():
        run = {"configurable": {"user_id": "ann", "thread_id": f"tell-{tenant}"}}
        # The tenant from the run context for one, from configurable for the other.
        if tenant == "shop":
            graph.invoke({"messages": [("user", text)]}, run, context={"tenant_id": tenant})
        else:
            run["configurable"]["tenant_id"] = tenant
            graph.invoke({"messages": [("user", text)]}, run)
    assert memory.flush(timeout=30)
    assert memory.tenants == ("shop", "travel")
    for tenant in TOLD:
        ask = {"user_id": "ann", "thread_id": f"ask-{tenant}", "tenant_id": tenant}
        question = {"messages": [("user", "What do you know about me?")]}
        injected = graph.invoke(question, {"configurable": ask})["memory_context"]
        assert SIGN[tenant] in injected, tenant
        assert not [s for t, s in SIGN.items() if t != tenant and s in injected], tenant
    # No tenant keeps the layout of before tenants; each tenant has its own folder.
    root = tmp_path / "mem"
    assert (root / "users/ann/memory.json").is_file()
    assert (root / "tenants/shop/users/ann/memory.json").is_file()
    assert (root / "tenants/travel/users/ann/memory.json").is_file()
    assert stored_tenants(memory.storage) == ["shop", "travel"]


def test_a_tenants_service_is_made_once_and_shared_by_concurrent_callers(
    memory: MemoryService,
) -> None:
    seen: list[MemoryService] = []
    threads = [
        threading.Thread(target=lambda: seen.append(memory.for_tenant("shop"))) for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    shop = seen[0]
    assert all(s is shop for s in seen) and shop is not memory
    assert shop.tenant_id == "shop" and memory.tenant_id is None
    assert memory.for_tenant(None) is memory and shop.for_tenant(None) is memory
    assert shop.for_tenant("travel") is memory.for_tenant("travel")


def test_an_unsafe_tenant_name_is_an_invalid_name_error_and_opens_nothing(
    memory: MemoryService, tmp_path: Path
) -> None:
    for bad in ("../x", ".hidden", "a/b", "", " shop"):
        with pytest.raises(InvalidNameError, match="tenant_id"):
            memory.for_tenant(bad)
    with pytest.raises(InvalidNameError, match="tenant_id"):
        memory.memory_block(who("a/b"))
    assert memory.tenants == ()
    assert not (tmp_path / "mem/tenants").exists()


def test_per_tenant_thresholds_and_budgets_change_what_is_stored_and_injected(
    tmp_path: Path,
) -> None:
    texts = [
        "I work as a welder in Bilbao.",  # confidence 0.9
        "I'm allergic to peanuts.",  # 0.95
        "I prefer window seats on trains.",  # 0.9
    ]
    config = MemoryConfig(
        storage_path=tmp_path / "mem",
        debounce_seconds=0.05,
        tenants={
            "strict": {"fact_confidence_threshold": 0.93},
            "brief": {"injected_memory_max_tokens": 40},
            "slow": {"debounce_seconds": 3600},
        },
    )
    with MemoryService(config, register_atexit=False) as memory:
        for tenant in (None, "strict", "brief"):
            for i, text in enumerate(texts):
                memory.enqueue(who(tenant, thread=f"t{i}"), turn(text, str(i)))
        assert memory.flush(timeout=30)
        stored = {t: len(memory.load(who(t)).facts) for t in (None, "strict", "brief")}
        assert stored == {None: 3, "strict": 1, "brief": 3}
        assert "peanuts" in memory.load(who("strict")).facts[0].content

        default, brief = memory.memory_block(who(None)), memory.memory_block(who("brief"))
        assert default.facts_injected == 3
        assert 0 < brief.facts_injected < 3 and brief.tokens <= 40 < default.tokens

        # The tenant's debounce: the default scope's update runs, "slow"'s waits.
        memory.enqueue(who(None, user="bo"), turn(texts[0], "bo"))
        memory.enqueue(who("slow", user="bo"), turn(texts[0], "bo-slow"))
        deadline = time.monotonic() + 10
        while not memory.load(who(None, user="bo")).facts and time.monotonic() < deadline:
            time.sleep(0.02)
        assert memory.load(who(None, user="bo")).facts
        assert not memory.load(who("slow", user="bo")).facts
        assert memory.for_tenant("slow").queue.pending_count == 1
        assert memory.flush(timeout=30)  # a flush covers the tenants' queues too
        assert memory.load(who("slow", user="bo")).facts


class DownForBoats(OfflineExtractor):
    """The offline extractor, except that the model is 'down' for turns about a boat."""

    def extract(self, request: ExtractionRequest) -> Any:
        if any("boat" in str(m.content) for m in request.messages):
            raise ModelCallError("model endpoint refused the connection")
        return super().extract(request)


def test_a_tenants_failed_update_is_reported_with_its_tenant_and_dead_lettered_there(
    tmp_path: Path,
) -> None:
    config = MemoryConfig(storage_path=tmp_path / "mem", debounce_seconds=600)
    with MemoryService(config, extractor=DownForBoats(), register_atexit=False) as memory:
        memory.enqueue(who("shop"), turn("I own a boat.", "1"))
        memory.enqueue(who(None), turn("I own a boat.", "2"))
        memory.enqueue(who("travel"), turn("I'm allergic to peanuts.", "3"))
        result = memory.flush(timeout=30)
        assert not result and result.drained
        assert sorted((f.tenant_id or "", f.user_id) for f in result.failed) == [
            ("", "ann"),
            ("shop", "ann"),
        ]
        # A tenant's own flush reports only its own failures.
        memory.enqueue(who("shop", thread="t2"), turn("My boat is red.", "4"))
        memory.enqueue(who(None, thread="t2"), turn("My boat is blue.", "5"))
        shop_only = memory.for_tenant("shop").flush(timeout=30)
        assert [f.tenant_id for f in shop_only.failed] == ["shop"]
        assert [x.thread_id for x in memory.for_tenant("shop").dead_letters()] == ["t1", "t2"]
        assert [x.thread_id for x in memory.dead_letters()] == ["t1"]
        assert memory.for_tenant("travel").dead_letters() == []
        assert memory.load(who("travel")).facts


def test_close_says_what_failed_and_stays_truthy_only_when_everything_was_saved(
    tmp_path: Path,
) -> None:
    config = MemoryConfig(storage_path=tmp_path / "mem", debounce_seconds=600)
    memory = MemoryService(config, extractor=DownForBoats(), register_atexit=False)
    memory.enqueue(who("shop"), turn("I own a boat.", "1"))
    memory.enqueue(who(None), turn("I'm allergic to peanuts.", "2"))
    closed = memory.close(timeout=30)
    assert not closed and closed.drained and closed.pending == 0
    assert [(f.tenant_id, f.outcome) for f in closed.failed] == [("shop", "dead_letter")]
    assert memory.close()  # closing twice does nothing, and is fine
    with pytest.raises(Exception, match="closed"):
        memory.for_tenant("travel")
    with MemoryService(config, register_atexit=False) as clean:
        clean.enqueue(who("shop"), turn("I prefer window seats on trains.", "3"))
        assert clean.close(timeout=30)


def leave_pending(outbox_root: Path, text: str) -> None:
    """What a process that stopped with an update pending leaves in a file outbox."""
    outbox = FileOutbox(outbox_root, encode_messages, decode_messages)
    outbox.record(PendingUpdate("t1", "ann", None, tuple(turn(text, "x")), record_id="r1"))
    assert outbox.sync(timeout=10)
    outbox.close()  # releases its lock with work left, like an exited process


def test_a_new_service_runs_what_a_stopped_process_left_pending_for_a_tenant(
    tmp_path: Path,
) -> None:
    root = tmp_path / "mem"
    leave_pending(root / "tenants/shop", "I'm allergic to peanuts.")
    with open_storage(MemoryConfig(storage_path=root)) as storage:
        storage.scoped("idle").save("ann", None, storage.load("ann"))  # data, nothing pending
        assert tenants_with_pending_updates(storage) == ["shop"]
    with MemoryService(MemoryConfig(storage_path=root), register_atexit=False) as memory:
        assert memory.tenants == ("shop",)  # "idle" has nothing pending: not opened
        assert memory.flush(timeout=30)
        assert "peanuts" in memory.load(who("shop")).facts[0].content
        assert not memory.load(who(None)).facts
    with open_storage(MemoryConfig(storage_path=root)) as storage:
        assert tenants_with_pending_updates(storage) == []


def test_a_sqlite_tenants_pending_update_is_recovered_at_start(tmp_path: Path) -> None:
    from deerflow_memory.storage.outbox_store import StoreOutbox
    from deerflow_memory.storage.store import StoreMemoryStorage

    config = MemoryConfig(storage="sqlite", storage_path=tmp_path / "mem.sqlite")
    with open_storage(config) as storage:
        shop = storage.scoped("shop")
        assert isinstance(shop, StoreMemoryStorage)
        outbox = StoreOutbox(shop, encode_messages, decode_messages, merge=merge_messages)
        text = "I'm allergic to peanuts."
        outbox.record(PendingUpdate("t1", "ann", None, tuple(turn(text, "x")), record_id="r1"))
        assert outbox.sync(timeout=10)
        outbox.close()
        assert tenants_with_pending_updates(storage) == ["shop"]
    with MemoryService(config, register_atexit=False) as memory:
        assert memory.tenants == ("shop",)
        assert memory.flush(timeout=30)
        assert "peanuts" in memory.load(who("shop")).facts[0].content
        assert not memory.load(who(None)).facts
        durable = memory.for_tenant("shop").durable
        assert durable is not None and durable.outbox.sync(timeout=10)  # "done" is written
        assert tenants_with_pending_updates(memory.storage) == []


def test_a_shared_outbox_is_watched_for_tenants_another_process_left_pending_later(
    tmp_path: Path,
) -> None:
    from deerflow_memory.storage.outbox_store import StoreOutbox
    from deerflow_memory.storage.store import StoreMemoryStorage

    config = MemoryConfig(
        storage="sqlite", storage_path=tmp_path / "mem.sqlite", outbox_poll_seconds=0.05
    )
    with MemoryService(config, register_atexit=False) as memory:
        assert memory.tenants == ()
        # Another replica recorded a capture for tenant "shop", then died before running it.
        shop = memory.storage.scoped("shop")
        assert isinstance(shop, StoreMemoryStorage)
        other = StoreOutbox(shop, encode_messages, decode_messages, merge=merge_messages)
        text = "I'm allergic to peanuts."
        other.record(PendingUpdate("t1", "ann", None, tuple(turn(text, "x")), record_id="r1"))
        assert other.sync(timeout=10)
        other.close()
        deadline = time.monotonic() + 10
        while "shop" not in memory.tenants and time.monotonic() < deadline:
            time.sleep(0.02)
        assert memory.tenants == ("shop",)
        assert memory.flush(timeout=30)
        assert "peanuts" in memory.load(who("shop")).facts[0].content


# A process that captures one turn per scope with an hour's debounce, then waits to be killed.
CAPTURE_THEN_WAIT = """
import sys, time
from langchain_core.messages import AIMessage, HumanMessage
from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService

memory = MemoryService(MemoryConfig(storage_path=sys.argv[1], debounce_seconds=3600,
                                    max_wait_seconds=7200), register_atexit=False)
told = {"shop": "I'm allergic to peanuts.", "travel": "I prefer window seats on trains."}
for tenant, text in told.items():
    who = MemoryIdentity("ann", None, "t1", tenant_id=tenant)
    turn = [HumanMessage(text, id="h-" + tenant), AIMessage("Noted.", id="a-" + tenant)]
    memory.enqueue(who, turn)
for tenant in told:
    assert memory.for_tenant(tenant).durable.outbox.sync(timeout=30)
print("ready", flush=True)
time.sleep(600)
"""


@pytest.mark.slow
def test_tenants_updates_pending_at_sigkill_run_in_the_next_process(tmp_path: Path) -> None:
    import sys

    from tests.test_outbox import killed_on_exit

    root = tmp_path / "mem"
    with killed_on_exit([sys.executable, "-c", CAPTURE_THEN_WAIT, str(root)]):
        pass  # its captures are in its tenants' outboxes: kill it before any runs
    with MemoryService(MemoryConfig(storage_path=root), register_atexit=False) as memory:
        assert memory.tenants == ("shop", "travel")
        assert memory.flush(timeout=60)
        assert "peanuts" in memory.load(who("shop")).facts[0].content
        assert "window seats" in memory.load(who("travel")).facts[0].content
        assert not memory.load(who(None)).facts
