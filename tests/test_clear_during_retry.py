"""A memory cleared while a retry holds a copy of its dead letters learns nothing from them.

A retry reads a memory's letters, then runs them; the user's update lock is
taken only inside each update. A ``clear_memory`` that runs in between (the
retry waits on the lock behind a running update, in this process or in
``deerflow-memory retry``) deletes the letters, but the retry still holds
their words. The delete fences the letters it removes, so the retry's update
finds them said before the delete: nothing is sent to the model, nothing is
saved, and the letter counts as settled (not written back).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import deerflow_memory.update.dead_letter as dead_letter_module
from deerflow_memory import MemoryService
from deerflow_memory.storage.update_locks import lock_name
from deerflow_memory.update.letter_claims import CLAIM_PREFIX
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.updater import UpdateStatus
from tests.openai_server import OpenAIServer, openai_server  # noqa: F401
from tests.test_dead_letter_claims import job, service_of, turns
from tests.test_extraction_cost import facts_answer, sent_user_lines


def bob_job(*numbers: int) -> UpdateJob:
    return UpdateJob("t9", "bob", None, tuple(turns(*numbers)))


def facts_of(memory: MemoryService, user_id: str) -> list[str]:
    document = memory.storage.load(user_id, None)
    return [] if document is None else [f.content for f in document.facts]


def clear_before_the_run(
    monkeypatch: pytest.MonkeyPatch,
    memory: MemoryService,
    server: OpenAIServer,
    seen: dict[str, Any],
) -> None:
    """The window: the retry has read the letters under its claim, its update not started."""
    real_run = dead_letter_module._run

    def run(updater: Any, job: UpdateJob) -> Any:
        if job.user_id == "ana" and "cleared" not in seen:
            # Another thread, as an app's request handler would be (the claim is this one's).
            worker = threading.Thread(
                target=lambda: seen.update(cleared=memory.clear_memory("ana"))
            )
            worker.start()
            worker.join(30)
            seen["letters after the clear"] = memory.dead_letters()
        return real_run(updater, job)

    monkeypatch.setattr(dead_letter_module, "_run", run)


@pytest.mark.parametrize(
    "numbers",
    [range(2), range(12)],  # 12 turns: more messages than a fence keeps keys of one thread (16)
    ids=["short letter", "letter longer than a fence"],
)
def test_a_memory_cleared_while_a_retry_holds_its_letter_learns_nothing_from_it(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    numbers: range,
) -> None:
    openai_server.responder = facts_answer
    with service_of(tmp_path / "memory", openai_server) as memory:
        memory.write_dead_letter(job(turns(*numbers)), "ModelCallError: 503")
        bobs = memory.write_dead_letter(bob_job(7), "ModelCallError: 503")
        seen: dict[str, Any] = {}
        clear_before_the_run(monkeypatch, memory, openai_server, seen)

        outcomes = memory.retry_dead_letters(user_id="ana")

        assert seen["cleared"] is True
        assert seen["letters after the clear"] == [bobs]  # the other user's letter untouched
        assert facts_of(memory, "ana") == []  # the cleared words never came back
        [anas] = outcomes
        assert anas.removed and anas.left is None  # settled, not written back as a failure
        assert anas.result.status is UpdateStatus.SKIPPED
        assert memory.dead_letters() == [bobs]
        assert openai_server.requests == []  # nothing was sent to the model

        [outcome] = memory.retry_dead_letters()  # bob's letter runs as it was

        assert outcome.removed
        assert facts_of(memory, "bob") == ["Said: I have hobby number 7."]
    assert sent_user_lines(openai_server) == ["I have hobby number 7."]  # only bob's, ever


def test_a_thread_continued_after_the_clear_has_its_new_turn_learned_not_the_old_ones(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    openai_server.responder = facts_answer
    with service_of(tmp_path / "memory", openai_server) as memory:
        memory.write_dead_letter(job(turns(*range(12))), "ModelCallError: 503")
        seen: dict[str, Any] = {}
        clear_before_the_run(monkeypatch, memory, openai_server, seen)
        memory.retry_dead_letters()
        assert seen["cleared"] is True
        # The app's checkpointed thread goes on; its next update fails for good.
        memory.write_dead_letter(job(turns(*range(12), 20)), "ModelCallError: 503")

        [outcome] = memory.retry_dead_letters()

        assert outcome.removed
        assert facts_of(memory, "ana") == ["Said: I have hobby number 20."]
    assert sent_user_lines(openai_server) == ["I have hobby number 20."]


# --- the retry command in another process ------------------------------------------------------


def flock_held_elsewhere(path: Path) -> bool:
    """Whether another process holds an flock on ``path`` (Linux: ``/proc/locks``)."""
    try:
        inode = path.stat().st_ino
        table = Path("/proc/locks").read_text()
    except OSError:
        return False
    mine = str(os.getpid())
    for line in table.splitlines():
        fields = line.split()
        if (
            "FLOCK" in fields
            and len(fields) > 5
            and fields[4] != mine
            and fields[5].rsplit(":", 1)[-1] == str(inode)
        ):
            return True
    return False


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="needs Linux /proc/locks")
def test_the_retry_command_waiting_behind_a_running_update_learns_nothing_of_a_memory_cleared_meanwhile(  # noqa: E501
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    root = tmp_path / "memory"
    anas_at: list[float] = []  # when ana's words reached the model

    def answer(body: dict[str, Any]) -> str:
        if "hobby number 0" in body["messages"][-1]["content"]:
            anas_at.append(time.monotonic())
        return facts_answer(body)

    openai_server.responder = answer
    environ = {
        k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DEERFLOW_MEMORY_"))
    }
    environ.update(
        DEERFLOW_MEMORY_BASE_URL=openai_server.url + "/v1",
        DEERFLOW_MEMORY_API_KEY="sk-test",
        DEERFLOW_MEMORY_MODEL_NAME="test-model",
        DEERFLOW_MEMORY_FACT_CONFIDENCE_THRESHOLD="0.5",
        DEERFLOW_MEMORY_OUTBOX="false",
        DEERFLOW_MEMORY_UPDATE_LOCK_TIMEOUT_SECONDS="60",
    )
    with service_of(root, openai_server, update_lock_timeout_seconds=60) as memory:
        memory.write_dead_letter(job(turns(0, 1)), "ModelCallError: 503")
        bobs = memory.write_dead_letter(bob_job(7), "ModelCallError: 503")
        claim = root / "locks" / f"{lock_name(CLAIM_PREFIX + 'ana', None)}.lock"
        cleared: list[tuple[bool, float]] = []
        with memory.storage.update_lock("ana", None, 5):  # an update of ana is running
            command = subprocess.Popen(
                [sys.executable, "-m", "deerflow_memory.cli", "--root", str(root), "retry"],
                env=environ,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            try:
                end = time.monotonic() + 60
                while not flock_held_elsewhere(claim):  # the command claimed ana's letters
                    assert command.poll() is None, command.communicate()[0]
                    assert time.monotonic() < end, "the retry command never claimed the letters"
                    time.sleep(0.02)
                time.sleep(0.3)  # it read them and waits for the update lock
                clearing = threading.Thread(
                    target=lambda: cleared.append((memory.clear_memory("ana"), time.monotonic()))
                )
                clearing.start()
                time.sleep(0.2)  # the clear waits for the lock too
            except BaseException:
                command.kill()
                raise
        clearing.join(60)
        output, _ = command.communicate(timeout=120)

        [(existed, cleared_at)] = cleared
        assert existed is True
        assert command.returncode == 0, output
        assert facts_of(memory, "ana") == [], output  # the cleared words never came back
        assert [x for x in memory.dead_letters() if x.user_id == "ana"] == []
        # Whichever update took the lock first, nothing of ana's went to the model afterwards.
        assert all(at < cleared_at for at in anas_at)
        assert facts_of(memory, "bob") == ["Said: I have hobby number 7."]  # ran, untouched
        assert bobs.id not in {x.id for x in memory.dead_letters()}
