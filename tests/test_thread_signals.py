"""Every thread the package starts blocks the stop signals, so SIGTERM wakes the main thread.

The kernel hands a signal sent to the process to any thread that does not
block it; on one of ours CPython only notes it, and a main thread asleep in one
long call would run the shutdown handler minutes late.
"""

from __future__ import annotations

import ast
import json
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from deerflow_memory.daemons import (
    HELD_SIGNALS,
    daemon_thread,
    hold_signals,
    signals_held,
    signals_unheld,
)
from tests.test_outbox import ROOT, _env
from tests.test_shutdown_helpers import CHILD

PACKAGE = ROOT / "deerflow_memory"
posix_only = pytest.mark.skipif(
    not hasattr(signal, "pthread_sigmask"), reason="no thread signal masks on this platform"
)


def _mask() -> set[signal.Signals]:
    return set(signal.pthread_sigmask(signal.SIG_BLOCK, []))


@posix_only
def test_a_daemon_thread_blocks_the_stop_signals_and_so_do_the_threads_it_starts() -> None:
    seen: dict[str, set[signal.Signals]] = {}

    def grandchild() -> None:
        seen["grandchild"] = _mask()

    def child() -> None:
        seen["child"] = _mask()
        inner = threading.Thread(target=grandchild)  # a model client's own thread, say
        inner.start()
        inner.join()

    before = _mask()
    thread = daemon_thread(child, "memory-test")
    assert thread.daemon and thread.name == "memory-test" and not thread.is_alive()
    thread.start()
    thread.join(timeout=10)
    assert {signal.SIGTERM, signal.SIGINT, signal.SIGHUP} <= HELD_SIGNALS
    assert seen["child"] >= HELD_SIGNALS and seen["grandchild"] >= HELD_SIGNALS
    # Signals a thread raises by what it does stay unblocked (a crash must still show).
    assert not {signal.SIGSEGV, signal.SIGBUS, signal.SIGFPE, signal.SIGPIPE} & seen["child"]
    assert _mask() == before and signal.SIGTERM not in before  # the caller's mask is untouched


@posix_only
def test_holding_signals_on_the_main_thread_blocks_nothing() -> None:
    assert threading.current_thread() is threading.main_thread()
    before = _mask()
    hold_signals()
    assert _mask() == before


def _thread_calls(path: Path) -> list[int]:
    """Lines of ``path`` that make a thread or a thread pool other than by daemon_thread."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in {"Thread", "Timer", "ThreadPoolExecutor", "start_new_thread"}:
                lines.append(node.lineno)
    return lines


def test_the_package_makes_every_thread_through_daemon_thread() -> None:
    found = {
        str(path.relative_to(PACKAGE)): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.parent.name != "daemons" and (lines := _thread_calls(path))
    }
    assert found == {}, "start threads with deerflow_memory.daemons.daemon_thread"


def test_the_thread_guard_sees_a_plain_thread(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import threading\n\nthreading.Thread(target=print).start()\n")
    assert _thread_calls(sample) == [3]


# The child of tests/test_shutdown_helpers.py (eve's turn pending, the handler
# installed) reports the blocked-signal mask of each of its threads from /proc:
# every task of the process, Python's threads by name and native ones (a library's
# pool, which threading.enumerate() does not list) as "native <tid> <comm>".
MASKS = CHILD + textwrap.dedent(
    """
    import json, threading
    names = {thread.native_id: thread.name for thread in threading.enumerate()}
    masks = {}
    for tid in os.listdir("/proc/self/task"):
        try:  # (a thread that ended meanwhile, the vocabulary's warm-up: nothing to read)
            with open(f"/proc/self/task/{tid}/comm") as comm:
                name = names.get(int(tid)) or f"native {tid} {comm.read().strip()}"
            with open(f"/proc/self/task/{tid}/status") as status:
                for line in status:
                    if line.startswith("SigBlk:"):
                        masks[name] = int(line.split()[1], 16)
        except FileNotFoundError:
            continue
    print(json.dumps(masks), flush=True)
    """
)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads Linux's /proc")
def test_every_thread_a_service_with_a_pending_update_runs_blocks_sigterm(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", MASKS, str(tmp_path), "5", "default"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(),
        timeout=120,
        check=True,
    ).stdout
    masks: dict[str, int] = json.loads(out.strip().splitlines()[-1])
    bit = 1 << (signal.SIGTERM - 1)
    assert not masks.pop("MainThread") & bit  # the main thread is the one to receive it
    assert {"memory-queue-scheduler", "memory-queue-worker-0", "memory-outbox-writer"} <= set(masks)
    # numpy's import starts OpenBLAS's workers (one per extra core): native, blocked too.
    assert {name: mask & bit for name, mask in masks.items()} == {name: bit for name in masks}


@posix_only
def test_a_daemon_thread_is_created_with_the_stop_signals_blocked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Blocking them only once run() has the GIL would leave the new thread with
    # its starter's mask for milliseconds: the OS thread must be born blocked.
    at_creation: list[set[signal.Signals]] = []
    create = threading._start_new_thread  # type: ignore[attr-defined]

    def recording(*args: object) -> object:
        at_creation.append(_mask())
        return create(*args)

    monkeypatch.setattr(threading, "_start_new_thread", recording)
    before = _mask()
    thread = daemon_thread(lambda: None, "memory-test")
    thread.start()
    thread.join(timeout=10)
    assert len(at_creation) == 1 and at_creation[0] >= HELD_SIGNALS
    assert _mask() == before  # the starter (the main thread) has its own mask back


@posix_only
def test_signals_held_blocks_the_main_thread_too_and_a_signal_sent_meanwhile_acts_after() -> None:
    assert threading.current_thread() is threading.main_thread()
    received: list[int] = []
    previous = signal.signal(signal.SIGUSR1, lambda signum, frame: received.append(signum))
    seen: dict[str, set[signal.Signals]] = {}
    try:
        before = _mask()
        with signals_held():
            thread = threading.Thread(target=lambda: seen.update(inner=_mask()))
            thread.start()  # a library's pool, say: it inherits the block for good
            thread.join(timeout=10)

            def ours() -> None:
                with signals_unheld():  # app code it calls still gets them unblocked
                    seen["ours, unheld"] = _mask()

            started = daemon_thread(ours, "memory-test")
            started.start()
            started.join(timeout=10)
            with signals_held():  # nested: the inner exit unblocks nothing
                pass
            assert _mask() >= HELD_SIGNALS
            signal.raise_signal(signal.SIGUSR1)
            assert received == []  # pending while held...
        assert received == [signal.SIGUSR1]  # ...and handled once the block ends
        assert _mask() == before
        assert seen["inner"] >= HELD_SIGNALS
        assert not seen["ours, unheld"] & HELD_SIGNALS
    finally:
        signal.signal(signal.SIGUSR1, previous)


@posix_only
def test_signals_held_inside_signals_unheld_blocks_and_gives_the_unheld_mask_back() -> None:
    seen: dict[str, set[signal.Signals]] = {}

    def ours() -> None:
        with signals_unheld():
            with signals_held():
                seen["held"] = _mask()
            seen["unheld"] = _mask()
        seen["after"] = _mask()

    thread = daemon_thread(ours, "memory-test")
    thread.start()
    thread.join(timeout=10)
    assert seen["held"] >= HELD_SIGNALS and seen["after"] >= HELD_SIGNALS
    assert not seen["unheld"] & HELD_SIGNALS


# Imports every module of the package (as an app that uses all of it would), then
# lists the tasks other than the main one that do not block SIGTERM: a library
# that starts threads when imported (numpy's OpenBLAS) must be imported held.
IMPORT_ALL = textwrap.dedent(
    """
    import importlib, os, pkgutil, signal
    import deerflow_memory
    for module in pkgutil.walk_packages(deerflow_memory.__path__, "deerflow_memory."):
        importlib.import_module(module.name)
    bit = 1 << (signal.SIGTERM - 1)
    for tid in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{tid}/status") as status:
            mask = next(int(line.split()[1], 16) for line in status if line.startswith("SigBlk:"))
        if int(tid) != os.getpid() and not mask & bit:
            with open(f"/proc/self/task/{tid}/comm") as comm:
                print(tid, comm.read().strip())
    print("done")
    """
)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads Linux's /proc")
def test_importing_every_module_of_the_package_leaves_no_thread_open_to_sigterm() -> None:
    out = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(),
        timeout=120,
        check=True,
    ).stdout
    assert out.splitlines() == ["done"]
