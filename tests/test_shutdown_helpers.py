"""Shutdown anywhere: a uvicorn app and a plain process flush pending updates on SIGTERM."""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryService, install_shutdown_handler
from deerflow_memory.errors import ConfigError
from deerflow_memory.identity import MemoryIdentity
from tests.test_outbox import ROOT, _env

UVICORN = (sys.executable, "-m", "uvicorn", "tests.asgi_child:app", "--host", "127.0.0.1")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stored(root: Path, user: str) -> list[str]:
    path = root / "users" / user / "memory.json"
    if not path.exists():
        return []
    return [f["content"] for f in json.loads(path.read_text("utf-8"))["facts"]]


@pytest.mark.slow
def test_sigterm_to_a_uvicorn_app_embedding_the_graph_loses_no_update(tmp_path: Path) -> None:
    port = _free_port()
    server = subprocess.Popen(
        [*UVICORN, "--port", str(port)],
        cwd=ROOT,
        env={**_env(), "DFM_TEST_ROOT": str(tmp_path)},
        stderr=subprocess.PIPE,
        text=True,
    )
    err = ""  # what the server said, shown when a user's update is missing
    try:
        users = [f"user{i}" for i in range(5)]
        deadline = time.monotonic() + 60
        for i, user in enumerate(users):
            body = json.dumps({"user": user, "thread": f"t{i}", "text": f"I work as a potter {i}."})
            while True:
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/turn",
                    data=body.encode(),
                    headers={"Content-Type": "application/json"},
                )
                try:
                    with urllib.request.urlopen(request, timeout=30) as response:
                        # debounced: every user's turn so far waits in the queue
                        assert json.load(response)["pending"] == i + 1
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise
                    time.sleep(0.1)
        assert all(_stored(tmp_path, user) == [] for user in users)  # debounced: none saved yet
        server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    for user in users:
        assert any("potter" in fact for fact in _stored(tmp_path, user)), (user, err[-2000:])


# A child with one turn of eve's pending, debounced for ten minutes, and the
# shutdown handler installed: argv is the storage path, the flush timeout, and
# "app" to install an app's own SIGTERM handler first (uvicorn's: the second call
# forces an exit, status 3). Each use adds what the child does next.
CHILD = textwrap.dedent(
    """
    import os, signal, sys, time
    from langchain_core.messages import AIMessage, HumanMessage
    from deerflow_memory import MemoryConfig, MemoryService, install_shutdown_handler
    from deerflow_memory.identity import MemoryIdentity

    config = MemoryConfig(
        storage_path=sys.argv[1], debounce_seconds=600, max_wait_seconds=600,
        shutdown_flush_timeout_seconds=float(sys.argv[2]),
    )
    memory = MemoryService(config, register_atexit=False)
    calls = []
    if sys.argv[3] == "app":

        def app_handler(signum, frame):
            calls.append(signum)
            print(f"app handler call {len(calls)}", flush=True)
            if len(calls) > 1:
                sys.exit(3)

        signal.signal(signal.SIGTERM, app_handler)
    install_shutdown_handler(memory)
    memory.enqueue(
        MemoryIdentity("eve", None, "t1"),
        [HumanMessage("I'm allergic to shellfish.", id="h"), AIMessage("Noted.", id="a")],
    )
    """
)
# Short sleeps: this test is about what the handler does. Whether a SIGTERM reaches a
# main thread inside one long sleep is tests/test_signal_delivery.py's (a CI run with
# one 120 s sleep here timed out once: numpy's import had started OpenBLAS worker
# threads that did not block SIGTERM, and one of them could take it).
PLAIN = CHILD + 'print("ready", flush=True)\nfor _ in range(1200):\n    time.sleep(0.1)\n'


def test_the_sigterm_handler_of_a_plain_process_flushes_then_exits_as_before(
    tmp_path: Path,
) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", PLAIN, str(tmp_path), "60", "default"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=_env(),
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        child.send_signal(signal.SIGTERM)
        # Generous, yet well before the sleep would have ended by itself.
        assert child.wait(timeout=60) == -signal.SIGTERM  # still ends the way SIGTERM does
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert any("shellfish" in fact for fact in _stored(tmp_path, "eve"))


HELD_LOCK = CHILD + textwrap.dedent(
    """
    time.sleep(0.5)  # the outbox has written the turn
    print("ready", flush=True)
    with memory.HELD:  # the signal comes in the middle of a locked step
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(120)
    """
)


@contextlib.contextmanager
def signalled_holding(
    lock: str, root: Path, flush_seconds: int, previous: str = "default"
) -> Iterator[subprocess.Popen[str]]:
    """A child that signals itself SIGTERM while holding ``memory.<lock>``, once it said ready.

    ``previous="app"``: the child's own SIGTERM handler, installed before ours,
    prints each call and exits with status 3 on the second.

    Killed when the block ends, if it still runs.
    """
    script = HELD_LOCK.replace("HELD", lock)
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(root), str(flush_seconds), previous],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=_env(),
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        yield child
    finally:
        if child.poll() is None:
            child.kill()
        child.communicate()


@pytest.mark.slow
@pytest.mark.parametrize("lock", ["_tenants_lock", "queue._cond"])
def test_a_sigterm_while_the_main_thread_holds_a_memory_lock_still_exits_and_loses_nothing(
    tmp_path: Path, lock: str
) -> None:
    with signalled_holding(lock, tmp_path, flush_seconds=1) as child:
        # The flush cannot take the lock: the handler gives up after 1 s + 5 s, then exits.
        _, err = child.communicate(timeout=60)
    assert child.returncode == -signal.SIGTERM
    assert "did not end within 6.0 s" in err
    assert _stored(tmp_path, "eve") == []  # not run in the stopped process...
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=600)
    with MemoryService(config, register_atexit=False) as memory:  # ...but in the next one
        assert memory.flush(timeout=60)
    assert any("shellfish" in fact for fact in _stored(tmp_path, "eve"))


@pytest.mark.slow
def test_a_second_sigterm_during_a_stuck_flush_exits_at_once(tmp_path: Path) -> None:
    with signalled_holding("_tenants_lock", tmp_path, flush_seconds=300) as child:
        time.sleep(1.0)
        assert child.poll() is None  # the first flush waits (up to 305 s)...
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=30) == -signal.SIGTERM  # ...the second signal ends it


@pytest.mark.slow
def test_a_second_sigterm_ends_the_wait_with_an_apps_own_handler_called_once_per_signal(
    tmp_path: Path,
) -> None:
    with signalled_holding("_tenants_lock", tmp_path, flush_seconds=300, previous="app") as child:
        time.sleep(1.0)
        assert child.poll() is None  # the first flush waits...
        child.send_signal(signal.SIGTERM)
        out, _ = child.communicate(timeout=30)  # ...the second signal ends the wait
    assert child.returncode == 3  # the app saw two signals: its forced exit
    assert out.splitlines()[-2:] == ["app handler call 1", "app handler call 2"]


def test_a_handler_for_a_signal_that_cannot_be_caught_installs_nothing() -> None:
    before = signal.getsignal(signal.SIGTERM)
    for signals in ((signal.SIGTERM, signal.SIGKILL), (signal.SIGTERM, "SIGTERM"), (True,), 5.0):
        with pytest.raises(ConfigError):
            install_shutdown_handler(signals=signals)  # type: ignore[arg-type]
        assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.parametrize("timeout", [float("nan"), -1, "5", True])
def test_a_shutdown_handler_with_a_timeout_that_is_not_seconds_is_refused(timeout: object) -> None:
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(ConfigError, match="timeout"):
        install_shutdown_handler(timeout=timeout)  # type: ignore[arg-type]
    assert signal.getsignal(signal.SIGTERM) is before


def test_the_readme_shutdown_example_installs_a_handler_that_flushes_then_calls_the_previous(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import re

    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme[readme.index("## Nothing lost") :]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match
    monkeypatch.chdir(tmp_path)
    before = signal.getsignal(signal.SIGTERM)
    received: list[int] = []
    signal.signal(signal.SIGTERM, lambda signum, frame: received.append(signum))  # the app's own
    scope: dict[str, object] = {}
    try:
        exec(match.group(1), scope)
        memory = scope["memory"]
        assert isinstance(memory, MemoryService)
        eve = MemoryIdentity("eve", None, "t1")
        memory.enqueue(
            eve, [HumanMessage("I'm allergic to shellfish.", id="h"), AIMessage("Noted.", id="a")]
        )
        assert memory.queue.pending_count == 1
        signal.raise_signal(signal.SIGTERM)
        assert received == [signal.SIGTERM]  # the handler it replaced runs after the flush
        assert memory.queue.pending_count == 0
        assert any("shellfish" in fact.content for fact in memory.load(eve).facts)
    finally:
        signal.signal(signal.SIGTERM, before)
        left = scope.get("memory")  # absent when the example failed before making it
        if isinstance(left, MemoryService):
            left.close()
