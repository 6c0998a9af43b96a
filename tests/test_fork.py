"""A service made before ``os.fork`` is not the child's: it refuses, and loses nothing.

A gunicorn ``--preload`` master's workers (or any forked child) shared its outbox
journal: one worker emptied it when its own turns were done, another deleted it
on a clean exit, and the others' captured turns were lost (attacker 67).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import ForkedServiceError, MemoryConfig, MemoryService
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.service import close_open_services

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

TURN = [HumanMessage("I'm allergic to hazelnuts."), AIMessage("Noted.")]


def in_child(work: Callable[[], int]) -> int:
    """Run ``work`` in a forked child; its exit code (it never returns into pytest)."""
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            code = work()
        finally:
            sys.stdout.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def test_a_forked_child_cannot_use_its_parents_service_and_the_parents_turn_survives(
    tmp_path: Path,
) -> None:
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=3600)
    memory = MemoryService(config)
    who = MemoryIdentity("ana", None, "t1")
    memory.enqueue(who, TURN)
    assert memory.durable is not None
    outbox = memory.durable.outbox
    assert outbox.sync(timeout=10)
    journal = outbox.journal  # type: ignore[attr-defined]
    written = journal.read_bytes()
    assert b"hazelnuts" in written

    def child() -> int:
        refused = 0
        for use in (
            lambda: memory.enqueue(MemoryIdentity("bo", None, "t2"), TURN),
            lambda: memory.memory_block(who),
            lambda: memory.flush(timeout=5),
            lambda: memory.clear_memory("ana"),
        ):
            try:
                use()
            except ForkedServiceError as e:
                refused += "after the fork" in str(e)
        memory.close(timeout=5)  # as a worker's clean exit would: the parent's files stay
        close_open_services(timeout=5)  # (the atexit hook)
        return 0 if refused == 4 else 3

    assert in_child(child) == 0
    assert journal.read_bytes() == written  # neither emptied nor deleted by the child
    assert (journal.parent / f"{journal.stem}.lock").exists()
    flushed = memory.flush(timeout=30)  # the parent still runs its own turn
    assert flushed.ok
    assert [f.content for f in memory.load(who).facts] == ["User is allergic to hazelnuts"]
    memory.close()


def test_a_service_made_in_the_child_works_there(tmp_path: Path) -> None:
    # The fix the error names: make the service after the fork.
    def child() -> int:
        config = MemoryConfig(storage_path=tmp_path, debounce_seconds=3600)
        with MemoryService(config, register_atexit=False) as memory:
            who = MemoryIdentity("cy", None, "t1")
            memory.enqueue(who, TURN)
            ok = memory.flush(timeout=30).ok and len(memory.load(who).facts) == 1
        return 0 if ok else 3

    assert in_child(child) == 0
    with MemoryService(MemoryConfig(storage_path=tmp_path), register_atexit=False) as memory:
        assert len(memory.load(MemoryIdentity("cy", None, "t1")).facts) == 1


def test_a_closed_service_leaves_a_later_childs_files_alone(tmp_path: Path) -> None:
    # Its outbox once closed the lock's old descriptor number again in every later child,
    # where it named another file (a multiprocessing pool's pipe hung; attacker 69).
    memory = MemoryService(MemoryConfig(storage_path=tmp_path / "m"), register_atexit=False)
    memory.close()
    with open(tmp_path / "mine.txt", "w", encoding="utf-8") as mine:

        def child() -> int:
            mine.write("still mine\n")
            mine.flush()
            return 0

        assert in_child(child) == 0
    assert (tmp_path / "mine.txt").read_text("utf-8") == "still mine\n"


def _square(n: int) -> int:
    return n * n


def test_a_fork_pool_after_a_closed_service_still_works(tmp_path: Path) -> None:
    import multiprocessing

    with MemoryService(MemoryConfig(storage_path=tmp_path), register_atexit=False) as memory:
        memory.enqueue(MemoryIdentity("di", None, "t1"), TURN)
    with multiprocessing.get_context("fork").Pool(2) as pool:
        assert pool.map_async(_square, range(4)).get(timeout=60) == [0, 1, 4, 9]


def test_every_way_into_the_parents_storage_refuses_in_the_child(tmp_path: Path) -> None:
    memory = MemoryService(MemoryConfig(storage_path=tmp_path), register_atexit=False)
    assert memory.updater is not None  # made in the parent: the child must not reuse it

    def child() -> int:
        refused = 0
        for use in (
            lambda: memory.for_tenant("acme"),
            lambda: memory.storage,
            lambda: memory.dead_letters(),
            lambda: memory.tenant_storage("acme"),
            lambda: memory.updater,  # (it writes through the parent's storage: attacker 74)
        ):
            try:
                use()
            except ForkedServiceError:
                refused += 1
        return 0 if refused == 5 else 3

    assert in_child(child) == 0
    assert memory.for_tenant("acme").tenant_id == "acme"  # the parent goes on
    memory.close()


def test_a_child_can_count_tokens_while_the_parent_was_loading_the_vocabulary() -> None:
    # The parent's warm-up thread holds the counter's lock for ~0.5 s; a fork then left it
    # held in the child for good, and a service made there (as ForkedServiceError asks)
    # waited forever (attacker 70).
    from deerflow_memory.inject.tokens import TiktokenCounter

    counter = TiktokenCounter()

    def child() -> int:
        import signal

        signal.alarm(60)  # a deadlock ends the child (and fails the test) instead of pytest
        return 0 if counter.count("I am allergic to hazelnuts") > 0 else 3

    with counter._lock:  # as the warm-up thread holds it while it loads
        code = in_child(child)
    assert code == 0
