"""Our threads hold the stop signals only while they run our code, never while app code runs.

A blocked signal mask survives ``fork`` and ``exec``: a process that app code
(a chat model, an embedder) starts from one of our threads would ignore
SIGTERM and Ctrl-C, so ``terminate()`` would do nothing and ``join()`` hang.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.store.base import Op, Result
from langgraph.store.memory import InMemoryStore

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.daemons import HELD_SIGNALS, daemon_thread, signals_unheld
from deerflow_memory.embeddings.hashing import HashingEmbeddings
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.inject.vectors import FactVectors
from deerflow_memory.models import Fact
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.offline.extractor import OfflineExtractor
from deerflow_memory.update.similarity import SimilarityFactory

posix_only = pytest.mark.skipif(
    not hasattr(signal, "pthread_sigmask"), reason="no thread signal masks on this platform"
)
linux_only = pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads /proc")

HELD_BITS = sum(1 << (s - 1) for s in HELD_SIGNALS)
SLEEPER = [sys.executable, "-I", "-S", "-c", "import time; time.sleep(60)"]


def _mask() -> set[signal.Signals]:
    return set(signal.pthread_sigmask(signal.SIG_BLOCK, []))


def _blocked_bits(status: str) -> int:
    """The SigBlk bits of a ``/proc/.../status`` file."""
    with open(status, encoding="ascii") as lines:
        return next(int(line.split()[1], 16) for line in lines if line.startswith("SigBlk:"))


@dataclass
class Spawned:
    """What app code saw when it ran on one of our threads, and the child it started."""

    thread: str = ""
    native_id: int = 0
    mask: set[signal.Signals] = field(default_factory=set)
    children: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def spawn(self) -> None:
        current = threading.current_thread()
        self.thread, self.native_id = current.name, current.native_id or 0
        self.mask = _mask()
        self.children.append(subprocess.Popen(SLEEPER))

    def check_child_stops_on_sigterm(self) -> None:
        assert self.children, "the app code never ran"
        child = self.children[0]
        try:
            assert _blocked_bits(f"/proc/{child.pid}/status") & HELD_BITS == 0
            child.terminate()
            assert child.wait(timeout=10) == -signal.SIGTERM
        finally:
            for process in self.children:
                if process.poll() is None:
                    process.kill()
                    process.wait()


class SpawningExtractor(OfflineExtractor):
    """The offline extractor, after starting a helper process (as a local model client might)."""

    def __init__(self, spawned: Spawned) -> None:
        super().__init__()
        self.spawned = spawned

    def extract(self, request: ExtractionRequest) -> Any:
        if not self.spawned.children:
            self.spawned.spawn()
        return super().extract(request)


class SpawningEmbeddings(HashingEmbeddings):
    """The hashing embedder, after starting a helper process (a multi-process pool, say)."""

    def __init__(self, spawned: Spawned) -> None:
        super().__init__()
        self.spawned = spawned

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not self.spawned.children and threading.current_thread().name.startswith("memory-"):
            self.spawned.spawn()
        return super().embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


class SpawningStore(InMemoryStore):
    """A LangGraph store that starts a helper process on its first call from one of our threads."""

    def __init__(self, spawned: Spawned) -> None:
        super().__init__()
        self.spawned = spawned

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        if not self.spawned.children and threading.current_thread().name.startswith("memory-"):
            self.spawned.spawn()
        return super().batch(ops)


def _save_one_update(tmp_path: Path, spawned: Spawned, **service: Any) -> None:
    """One update through a service; then the worker that ran the app code holds again."""
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=0, outbox=False)
    with MemoryService(config, register_atexit=False, **service) as memory:
        who = MemoryIdentity("eve", None, "t1")
        memory.enqueue(who, [HumanMessage("I'm allergic to shellfish."), AIMessage("Noted.")])
        deadline = time.monotonic() + 30
        while not memory.load(who).facts and time.monotonic() < deadline:
            time.sleep(0.02)
        assert memory.load(who).facts
        assert spawned.thread.startswith("memory-queue-worker-"), spawned.thread
        assert not spawned.mask & HELD_SIGNALS  # unblocked while the app code ran
        # The worker (idle now, still running) blocks the held signals again.
        status = f"/proc/self/task/{spawned.native_id}/status"
        assert _blocked_bits(status) & HELD_BITS == HELD_BITS


@posix_only
@linux_only
def test_a_process_the_extractor_starts_on_the_queue_worker_stops_on_sigterm(
    tmp_path: Path,
) -> None:
    spawned = Spawned()
    try:
        _save_one_update(tmp_path, spawned, extractor=SpawningExtractor(spawned))
    finally:
        spawned.check_child_stops_on_sigterm()


@posix_only
@linux_only
def test_a_process_the_apps_store_starts_on_the_queue_worker_stops_on_sigterm(
    tmp_path: Path,
) -> None:
    spawned = Spawned()
    try:
        _save_one_update(tmp_path, spawned, storage=StoreMemoryStorage(SpawningStore(spawned)))
    finally:
        spawned.check_child_stops_on_sigterm()


@posix_only
@linux_only
def test_a_process_the_embedder_starts_on_the_queue_worker_stops_on_sigterm(
    tmp_path: Path,
) -> None:
    spawned = Spawned()
    try:
        _save_one_update(tmp_path, spawned, embedder=SpawningEmbeddings(spawned))
    finally:
        spawned.check_child_stops_on_sigterm()


def _on_daemon_thread(target: Callable[[], object]) -> None:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            target()
        except BaseException as e:  # shown by the test thread
            errors.append(e)

    thread = daemon_thread(run, "memory-test")
    thread.start()
    thread.join(timeout=30)
    assert not thread.is_alive()
    if errors:
        raise errors[0]


EMBEDDER_CALLS: dict[str, Callable[[SpawningEmbeddings], object]] = {
    "FactVectors.embed_missing": lambda e: FactVectors(e).embed_missing(["Likes tea"]),
    "FactVectors.query": lambda e: FactVectors(e).query("tea"),
    "SimilarityFactory.for_facts": lambda e: SimilarityFactory(e).for_facts(
        [Fact(content="Likes tea"), Fact(content="Likes green tea")]
    ),
}


@posix_only
@linux_only
@pytest.mark.parametrize("call", sorted(EMBEDDER_CALLS))
def test_every_embedder_boundary_unblocks_the_held_signals_for_the_embedder(call: str) -> None:
    spawned = Spawned()
    try:
        _on_daemon_thread(lambda: EMBEDDER_CALLS[call](SpawningEmbeddings(spawned)))
        assert spawned.thread == "memory-test"
        assert not spawned.mask & HELD_SIGNALS
    finally:
        spawned.check_child_stops_on_sigterm()


@posix_only
@pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork on this platform")
def test_a_child_forked_from_our_thread_in_our_own_code_does_not_block_the_held_signals() -> None:
    seen: dict[str, set[int]] = {}

    def fork_and_report() -> None:
        assert _mask() >= HELD_SIGNALS  # our own code: held
        read, write = os.pipe()
        with warnings.catch_warnings():  # "multi-threaded process": the child only reports
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:  # the child: report its mask, then leave at once
            os.close(read)
            os.write(write, ",".join(str(int(s)) for s in _mask()).encode())
            os._exit(0)
        os.close(write)
        with os.fdopen(read, "rb") as answer:
            seen["child"] = {int(s) for s in answer.read().decode().split(",") if s}
        assert os.waitpid(pid, 0)[1] == 0
        seen["after"] = {int(s) for s in _mask()}

    _on_daemon_thread(fork_and_report)
    assert not seen["child"] & {int(s) for s in HELD_SIGNALS}
    assert seen["after"] >= {int(s) for s in HELD_SIGNALS}  # the forking thread still holds


@posix_only
def test_signals_unheld_unblocks_on_our_thread_and_blocks_again_on_leaving_even_on_error() -> None:
    seen: dict[str, set[signal.Signals]] = {}

    def run() -> None:
        with signals_unheld():
            seen["inside"] = _mask()
            with signals_unheld():  # nested: the inner exit must not block again
                pass
            seen["after inner"] = _mask()
        seen["after"] = _mask()
        with pytest.raises(RuntimeError), signals_unheld():
            raise RuntimeError("the model failed")
        seen["after error"] = _mask()

    before = _mask()
    _on_daemon_thread(run)
    assert not seen["inside"] & HELD_SIGNALS and not seen["after inner"] & HELD_SIGNALS
    assert seen["after"] >= HELD_SIGNALS and seen["after error"] >= HELD_SIGNALS
    assert _mask() == before


@posix_only
def test_a_daemon_thread_started_by_a_daemon_thread_unholds_what_the_first_one_held() -> None:
    seen: dict[str, set[signal.Signals]] = {}

    def inner() -> None:
        seen["held"] = _mask()
        with signals_unheld():
            seen["unheld"] = _mask()

    _on_daemon_thread(lambda: _on_daemon_thread(inner))
    assert seen["held"] >= HELD_SIGNALS and not seen["unheld"] & HELD_SIGNALS


@posix_only
def test_signals_unheld_keeps_what_the_app_blocked_itself_and_leaves_other_threads_alone() -> None:
    seen: dict[str, set[signal.Signals]] = {}

    def app_thread() -> None:  # not ours: the app blocked SIGUSR1 for its own reasons
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
        with signals_unheld():
            seen["plain"] = _mask()
        ours = daemon_thread(ours_run, "memory-test")
        ours.start()
        ours.join(timeout=30)

    def ours_run() -> None:
        with signals_unheld():
            seen["ours"] = _mask()

    main_before = _mask()
    with signals_unheld():
        assert _mask() == main_before  # the main thread: nothing changes
    thread = threading.Thread(target=app_thread)
    thread.start()
    thread.join(timeout=30)
    assert signal.SIGUSR1 in seen["plain"]
    assert signal.SIGUSR1 in seen["ours"] and not (seen["ours"] - {signal.SIGUSR1}) & HELD_SIGNALS
