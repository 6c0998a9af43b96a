"""A caller choosing tenant ids cannot exhaust the process: open tenant services are bounded.

Every new ``tenant_id`` used to open a tenant service (queue threads, outbox
files) that lived until shutdown. Now at most ``max_open_tenants`` are open:
an idle one is closed to make room, one whose updates only wait for their due
time is parked (they stay in its outbox) and reopened when they are due, on
its next use, or by ``flush()``/``close()``. Reads open nothing.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryService, UnknownTenantError
from deerflow_memory.identity import MemoryIdentity


def turn(text: str, ident: str) -> list[Any]:
    return [
        HumanMessage(content=text, id=f"h-{ident}"),
        AIMessage(content="Noted.", id=f"a-{ident}"),
    ]


def who(tenant: str | None, user: str = "ann", thread: str = "t1") -> MemoryIdentity:
    return MemoryIdentity(user_id=user, agent_name=None, thread_id=thread, tenant_id=tenant)


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def facts_of(memory: MemoryService, tenant: str, user: str = "ann") -> list[str]:
    return [f.content for f in memory.load(who(tenant, user)).facts]


def wait_until(check: Any, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.02)
    return bool(check())


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path / "mem"


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts open files in /proc")
def test_fifty_tenants_keep_threads_and_open_files_bounded_and_every_tenant_learns(
    root: Path,
) -> None:
    config = MemoryConfig(storage_path=root, debounce_seconds=600, max_open_tenants=4)
    threads0, fds0 = threading.active_count(), open_fds()
    with MemoryService(config, register_atexit=False) as memory:
        for i in range(50):
            memory.enqueue(who(f"t{i}"), turn(f"I work as a welder in town {i}.", str(i)))
        assert set(memory.tenants) == {f"t{i}" for i in range(46, 50)}  # the 4 newest
        # 4 services of a scheduler, 2 workers, an outbox writer and poller each; the
        # root's own threads and the waker.
        assert threading.active_count() - threads0 <= 4 * 5 + 6
        assert open_fds() - fds0 <= 4 * 2 + 4
        # the 46 others are parked: their captures wait in their outboxes
        assert set(memory.parked_tenants) == {f"t{i}" for i in range(46)}
        assert memory.flush(timeout=60)
        assert memory.parked_tenants == ()
        for i in range(50):
            assert facts_of(memory, f"t{i}") == [f"User works as a welder in town {i}"]
        assert threading.active_count() - threads0 <= 4 * 5 + 6


def test_reading_a_tenant_with_no_data_opens_nothing_and_creates_no_folder(root: Path) -> None:
    with MemoryService(MemoryConfig(storage_path=root), register_atexit=False) as memory:
        for i in range(20):
            assert memory.memory_block(who(f"r{i}"), "hello").context == ""
            assert memory.load(who(f"l{i}")).facts == ()
            assert memory.flush_tenant(f"f{i}", timeout=1)
            assert memory.tenant_storage(f"s{i}").list_dead_letters() == []
            assert memory.last_saved_update(who(f"u{i}")) is None
        assert memory.tenants == ()
        assert not (root / "tenants").exists()
        # A tenant without data is read through the storage's one empty view: none is
        # built per turn, none is kept per tenant.
        assert memory.storage.reader("r0") is memory.storage.reader("r1")


def test_a_parked_tenant_runs_its_update_when_due_and_loses_nothing(root: Path) -> None:
    config = MemoryConfig(storage_path=root, debounce_seconds=0.5, max_open_tenants=1)
    with MemoryService(config, register_atexit=False) as memory:
        memory.enqueue(who("a"), turn("I'm allergic to peanuts.", "a"))
        memory.enqueue(who("b"), turn("I prefer window seats on trains.", "b"))
        assert memory.parked_tenants == ("a",)  # closed with its capture in its outbox
        assert memory.tenants == ("b",)
        # Reopened by the waker when due (which parks or closes "b" in turn).
        assert wait_until(lambda: facts_of(memory, "a") == ["User is allergic to peanuts"])
        assert wait_until(lambda: len(facts_of(memory, "b")) == 1)
        assert memory.parked_tenants == ()


def test_an_idle_tenant_closed_to_make_room_is_reopened_as_before(root: Path) -> None:
    config = MemoryConfig(storage_path=root, debounce_seconds=0, max_open_tenants=1)
    with MemoryService(config, register_atexit=False) as memory:
        first = memory.for_tenant("a")
        memory.enqueue(who("a"), turn("I'm allergic to peanuts.", "a1"))
        assert memory.flush(timeout=10)
        memory.enqueue(who("b"), turn("I prefer window seats on trains.", "b"))
        assert memory.tenants == ("b",) and memory.parked_tenants == ()
        # The old object hands a capture on to the tenant's new service: nothing lost.
        first.enqueue(who("a", thread="t2"), turn("I work as a welder in town 3.", "a2"))
        assert memory.for_tenant("a") is not first
        assert memory.flush(timeout=10)
        assert sorted(facts_of(memory, "a")) == [
            "User is allergic to peanuts",
            "User works as a welder in town 3",
        ]
        assert "peanuts" in memory.memory_block(who("a")).context


def test_captures_from_many_threads_across_tenants_over_the_bound_are_all_learned(
    root: Path,
) -> None:
    # Tenants are closed and reopened under the captures: none may be lost meanwhile.
    config = MemoryConfig(storage_path=root, debounce_seconds=0.02, max_open_tenants=2)
    with MemoryService(config, register_atexit=False) as memory:
        errors: list[BaseException] = []

        def capture(worker: int) -> None:
            try:
                for i in range(24):
                    memory.enqueue(
                        who(f"t{i % 6}", f"u{worker}-{i}"),
                        turn(f"I work as a welder in town {i}.", f"{worker}-{i}"),
                    )
            except BaseException as e:  # pragma: no cover - reported below
                errors.append(e)

        workers = [threading.Thread(target=capture, args=(w,)) for w in range(3)]
        for thread in workers:
            thread.start()
        for thread in workers:
            thread.join()
        assert not errors
        assert memory.flush(timeout=60)
        for w in range(3):
            for i in range(24):
                assert facts_of(memory, f"t{i % 6}", f"u{w}-{i}") == [
                    f"User works as a welder in town {i}"
                ]


def test_parked_tenants_left_at_close_run_in_the_next_process(root: Path) -> None:
    config = MemoryConfig(storage_path=root, debounce_seconds=600, max_open_tenants=1)
    memory = MemoryService(config, register_atexit=False)
    for tenant in ("a", "b", "c"):
        memory.enqueue(who(tenant), turn(f"I work as a welder in town {tenant}.", tenant))
    assert memory.parked_tenants == ("a", "b")
    result = memory.close(timeout=0)
    assert not result and result.pending == 3  # c's queued turn and one per parked tenant
    with MemoryService(config, register_atexit=False) as again:
        assert again.flush(timeout=30)
        for tenant in ("a", "b", "c"):
            assert facts_of(again, tenant) == [f"User works as a welder in town {tenant}"]


def test_sqlite_tenants_over_the_bound_are_parked_in_the_store_and_all_learn(
    tmp_path: Path,
) -> None:
    config = MemoryConfig(
        storage="sqlite",
        storage_path=tmp_path / "mem.sqlite",
        debounce_seconds=600,
        max_open_tenants=3,
    )
    with MemoryService(config, register_atexit=False) as memory:
        for i in range(12):
            memory.enqueue(who(f"t{i}"), turn(f"I work as a welder in town {i}.", str(i)))
        assert len(memory.tenants) == 3 and len(memory.parked_tenants) == 9
        assert memory.flush(timeout=60)
        for i in range(12):
            assert facts_of(memory, f"t{i}") == [f"User works as a welder in town {i}"]


def test_only_configured_tenants_refuses_others_with_a_typed_error(root: Path) -> None:
    config = MemoryConfig(
        storage_path=root, only_configured_tenants=True, tenants={"shop": {"max_facts": 10}}
    )
    with MemoryService(config, register_atexit=False) as memory:
        for call in (
            lambda: memory.for_tenant("other"),
            lambda: memory.enqueue(who("other"), turn("I'm allergic to peanuts.", "x")),
            lambda: memory.memory_block(who("other")),
            lambda: memory.tenant_storage("other"),
        ):
            with pytest.raises(UnknownTenantError, match="other"):
                call()
        assert memory.for_tenant("shop").tenant_id == "shop"
        assert memory.tenants == ("shop",)
        assert not (root / "tenants" / "other").exists()


@pytest.fixture(autouse=True)
def _no_leftover_threads() -> Iterator[None]:
    before = {t.ident for t in threading.enumerate()}
    yield
    # Every service above is closed: its tenants' threads are gone too.
    assert wait_until(
        lambda: (
            not [
                t
                for t in threading.enumerate()
                if t.ident not in before
                and t.name.startswith("memory-")
                and t.is_alive()
                and t.name != "memory-access-recorder"
            ]
        ),
        5,
    )
