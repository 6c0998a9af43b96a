"""Each message of a conversation's dead letters reaches the model once, from one retry at a time.

A failure written while the user's update lock is busy gets a letter of its
own, which may repeat the turns of the thread's letter (a checkpointed
thread's capture holds its whole history): a retry runs the letters of one
conversation as one update. Two retries at once (``deerflow-memory retry``
beside a service's, two threads, two processes) never both run a memory's
letters: the second finds them claimed, runs nothing and says so.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph.store.memory import InMemoryStore

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.dead_letters import dead_letter_id
from deerflow_memory.storage.factory import build_storage
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.store import StoreMemoryStorage
from deerflow_memory.update.dead_letter import RetriedLetter, retry_dead_letters
from deerflow_memory.update.incremental import with_keys
from deerflow_memory.update.queue import UpdateJob
from deerflow_memory.update.updater import UpdateResult, UpdateStatus
from tests.openai_server import OpenAIServer, openai_server  # noqa: F401
from tests.test_cli import cli
from tests.test_dead_letter_races import contents, job, outbox_fails
from tests.test_extraction_cost import facts_answer, sent_user_lines

KEY_ID = dead_letter_id("t1", "ana", None)


def turn(i: int) -> list[BaseMessage]:
    """Turn ``i`` of a checkpointed thread: its messages have ids."""
    return [
        HumanMessage(f"I have hobby number {i}.", id=f"h{i}"),
        AIMessage(f"Okay ({i}).", id=f"a{i}"),
    ]


def turns(*numbers: int) -> list[BaseMessage]:
    return [m for i in numbers for m in turn(i)]


def said(messages: list[BaseMessage]) -> list[str]:
    return [str(m.content) for m in messages]


def fails_while_the_lock_is_busy(storage: MemoryStorage, messages: list[BaseMessage]) -> None:
    """A failure written while another update holds the user's lock: a letter of its own."""
    with storage.update_lock("ana", None, 5):
        outbox_fails(storage, messages, wait=0.05)


class Model:
    """Stands in for MemoryUpdater: records what each update sends, runs ``meanwhile``."""

    def __init__(
        self,
        status: UpdateStatus = UpdateStatus.SAVED,
        meanwhile: Callable[[], None] = lambda: None,
    ) -> None:
        self.status, self.meanwhile = status, meanwhile
        self.sent: list[list[str]] = []

    def update(
        self, job: UpdateJob, *, incremental: bool = True, withdrawn: object = None
    ) -> UpdateResult:
        assert not incremental
        self.sent.append([str(m.content) for m in job.messages])
        self.meanwhile()
        error = "ModelCallError: 503 again" if self.status is UpdateStatus.FAILED else None
        return UpdateResult(self.status, error=error)


def retry(storage: MemoryStorage, model: Model, *args: Any, **kw: Any) -> list[RetriedLetter]:
    return retry_dead_letters(storage, model, *args, **kw)  # type: ignore[arg-type]


@pytest.fixture(params=["file", "store"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryStorage]:
    if request.param == "file":
        yield FileMemoryStorage(tmp_path / "memory")
    else:
        yield StoreMemoryStorage(InMemoryStore())


# --- F3: a stray letter repeating the key's letter -------------------------------------------


def test_a_turn_in_the_threads_letter_and_in_a_letter_of_its_own_is_sent_once(
    storage: MemoryStorage,
) -> None:
    outbox_fails(storage, turns(0))
    fails_while_the_lock_is_busy(storage, turns(0, 1))  # the whole history, turn 0 again
    assert len(storage.list_dead_letters("ana")) == 2
    model = Model()

    outcomes = retry(storage, model)

    assert model.sent == [said(turns(0, 1))]  # one update, each message once, in order
    assert [x.removed for x in outcomes] == [True, True]
    assert storage.list_dead_letters() == []


def test_retrying_one_letter_of_a_conversation_runs_its_other_letters_with_it(
    storage: MemoryStorage,
) -> None:
    outbox_fails(storage, turns(0))
    fails_while_the_lock_is_busy(storage, turns(0, 1))
    [stray] = [x for x in storage.list_dead_letters("ana") if x.id != KEY_ID]
    model = Model()

    outcomes = retry(storage, model, [stray.id])

    assert model.sent == [said(turns(0, 1))]
    assert sorted(x.letter.id for x in outcomes) == sorted([KEY_ID, stray.id])
    assert storage.list_dead_letters() == []
    retry(storage, model)
    assert len(model.sent) == 1  # nothing was left to send turn 0 again


@pytest.mark.parametrize("ids", [set, iter], ids=["set", "iterator"])
def test_the_letters_to_retry_may_be_named_by_a_set_or_an_iterator_of_ids(
    storage: MemoryStorage, ids: Callable[[list[str]], Iterable[str]]
) -> None:
    outbox_fails(storage, turns(0))
    model = Model()

    outcomes = retry(storage, model, ids([KEY_ID]))

    assert [x.letter.id for x in outcomes] == [KEY_ID] and model.sent == [said(turns(0))]


def test_a_conversation_whose_retry_fails_keeps_every_letter_as_it_was_plus_the_attempt(
    storage: MemoryStorage,
) -> None:
    outbox_fails(storage, turns(0))
    fails_while_the_lock_is_busy(storage, turns(0, 1))
    before = {x.id: x for x in storage.list_dead_letters("ana")}

    outcomes = retry(storage, Model(UpdateStatus.FAILED))

    after = {x.id: x for x in storage.list_dead_letters("ana")}
    assert after.keys() == before.keys() and not any(x.removed for x in outcomes)
    for letter_id, letter in after.items():
        assert contents(letter) == contents(before[letter_id])
        assert letter.attempts == before[letter_id].attempts + 1
        assert letter.error == "ModelCallError: 503 again"


class SavesTheFirstTurnThenFails:
    """An update that saves the chunk of turn 0, then fails (a 503 on the next chunk)."""

    def update(
        self, job: UpdateJob, incremental: bool = True, withdrawn: object = None
    ) -> UpdateResult:
        _, keys = with_keys(job.messages)
        return UpdateResult(UpdateStatus.FAILED, error="503", completed=tuple(keys[:2]))


def test_a_letter_whose_turns_all_went_before_the_run_failed_is_reported_removed(
    storage: MemoryStorage,
) -> None:
    # Review 27: the letter of turn 0 was deleted but reported as failing again.
    outbox_fails(storage, turns(0))
    fails_while_the_lock_is_busy(storage, turns(0, 1))

    outcomes = {x.letter.id: x for x in retry(storage, SavesTheFirstTurnThenFails())}

    left = {x.id: x for x in storage.list_dead_letters("ana")}
    assert KEY_ID not in left and outcomes[KEY_ID].removed
    [(stray_id, stray)] = left.items()
    assert contents(stray) == said(turns(1)) and not outcomes[stray_id].removed
    assert outcomes[stray_id].left == stray


def test_a_turn_merged_while_a_conversation_ran_stays_and_what_any_of_its_letters_held_goes(
    storage: MemoryStorage,
) -> None:
    outbox_fails(storage, turns(0))
    fails_while_the_lock_is_busy(storage, turns(0, 1))
    # While the retry runs, the next capture (the whole history) fails and merges into the
    # thread's letter: turn 1 went with the letter of its own, only turn 2 is new.
    model = Model(meanwhile=lambda: outbox_fails(storage, turns(0, 1, 2)))

    retry(storage, model)

    [left] = storage.list_dead_letters("ana")
    assert left.id == KEY_ID and contents(left) == said(turns(2))
    later = Model()
    retry(storage, later)
    assert later.sent == [said(turns(2))] and storage.list_dead_letters() == []


def service_of(root: Path, server: OpenAIServer, **config: Any) -> MemoryService:
    settings = MemoryConfig(
        storage_path=root,
        outbox=False,
        debounce_seconds=0,
        fact_confidence_threshold=0.5,
        max_facts=1000,
        **config,
    )
    model = server.chat_model(timeout=30)
    return MemoryService(settings, model=model, register_atexit=False)


def test_a_long_thread_failed_twice_reaches_the_real_model_path_once_per_turn(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    # More messages than the watermark's 16 newest keys: the watermark alone cannot tell
    # the second letter's older turns were sent already.
    openai_server.responder = facts_answer
    root = tmp_path / "memory"
    with service_of(root, openai_server, update_lock_timeout_seconds=0.2) as memory:
        memory.write_dead_letter(job(turns(*range(10))), "ModelCallError: 503")
        with memory.storage.update_lock("ana", None, 5):  # the user's update lock is busy
            memory.write_dead_letter(job(turns(*range(12))), "ModelCallError: 503")
        assert len(memory.dead_letters()) == 2

        outcomes = memory.retry_dead_letters()

        assert all(x.removed for x in outcomes) and memory.dead_letters() == []
        facts = memory.storage.load("ana", None).facts  # type: ignore[union-attr]
    assert sorted(sent_user_lines(openai_server)) == sorted(
        f"I have hobby number {i}." for i in range(12)
    )
    assert len(facts) == 12


# --- F3b: two retries at once -----------------------------------------------------------------


def two_storages(kind: str, tmp_path: Path) -> tuple[MemoryStorage, MemoryStorage, ExitStack]:
    """Two storage objects over the same letters (two processes' view; one for the memory store)."""
    stack = ExitStack()
    if kind == "file":
        return FileMemoryStorage(tmp_path / "m"), FileMemoryStorage(tmp_path / "m"), stack
    if kind == "store":
        one = StoreMemoryStorage(InMemoryStore())
        return one, one, stack
    if kind == "sqlite":
        config = MemoryConfig(storage="sqlite", storage_path=tmp_path / "m")
        first, second = build_storage(config), build_storage(config)
        stack.callback(first.close)
        stack.callback(second.close)
        return first, second, stack
    from tests.pg import drop_prefix, postgres_dsn_or_skip, shared_postgres_store

    dsn = postgres_dsn_or_skip()
    prefix = ("dfm_test", os.urandom(8).hex())
    store = shared_postgres_store(dsn)
    stack.callback(drop_prefix, dsn, prefix)
    return (
        StoreMemoryStorage(store, prefix),  # type: ignore[arg-type]
        StoreMemoryStorage(store, prefix),  # type: ignore[arg-type]
        stack,
    )


@pytest.mark.parametrize(
    "kind", ["file", "store", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def test_a_retry_started_while_another_runs_the_letters_sends_nothing_and_says_busy(
    kind: str, tmp_path: Path
) -> None:
    first_storage, second_storage, stack = two_storages(kind, tmp_path)
    with stack:
        outbox_fails(first_storage, turns(0))
        second = Model()
        inner: list[RetriedLetter] = []
        first = Model(meanwhile=lambda: inner.extend(retry(second_storage, second)))

        [outcome] = retry(first_storage, first)

        assert first.sent == [said(turns(0))] and second.sent == []  # sent once in total
        [busy] = inner
        assert busy.busy and not busy.removed and busy.letter.id == KEY_ID
        assert busy.result.status is UpdateStatus.RETRY and "another retry" in (
            busy.result.error or ""
        )
        assert outcome.removed and first_storage.list_dead_letters() == []


def test_two_services_retrying_one_letter_at_once_from_two_threads_send_it_once(
    tmp_path: Path,
    openai_server: OpenAIServer,  # noqa: F811
) -> None:
    root = tmp_path / "memory"
    other: list[RetriedLetter] = []
    with service_of(root, openai_server) as memory, service_of(root, openai_server) as beside:
        memory.write_dead_letter(job(turns(*range(10))), "ModelCallError: 503")
        started, done = threading.Event(), threading.Event()

        def second_retry() -> None:
            other.extend(beside.retry_dead_letters())
            done.set()

        def answer(body: dict[str, Any]) -> str:
            if not started.is_set():
                started.set()
                threading.Thread(target=second_retry, daemon=True).start()
                done.wait(3)  # the first retry's model call runs until the second one is done
            return facts_answer(body)

        openai_server.responder = answer

        [outcome] = memory.retry_dead_letters()

        assert done.wait(30)
        assert outcome.removed and memory.dead_letters() == []
    assert sorted(sent_user_lines(openai_server)) == sorted(
        f"I have hobby number {i}." for i in range(10)
    )
    assert [x.busy for x in other] == [True]


def test_the_retry_command_beside_a_running_retry_leaves_its_letters_to_it(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    storage = FileMemoryStorage(root)
    outbox_fails(storage, turns(0))
    seen: list[subprocess.CompletedProcess[str]] = []

    def command_line_retry() -> None:
        seen.append(cli("--root", str(root), "retry", cwd=tmp_path))
        assert [x.id for x in storage.list_dead_letters()] == [KEY_ID]  # not run by the command

    first = Model(meanwhile=command_line_retry)
    [outcome] = retry(storage, first)

    [done] = seen
    assert done.returncode == 1, done.stdout + done.stderr
    assert "another retry is running" in " ".join(done.stdout.split())
    assert "applied" not in done.stdout
    assert first.sent == [said(turns(0))] and outcome.removed
    assert storage.list_dead_letters() == []


CLAIM_HOLDER = """
import sys, time
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.update.letter_claims import claim_letters
with claim_letters(FileMemoryStorage(sys.argv[1]), "ana", None) as (state, _):
    print(state, flush=True)
    time.sleep(120)
"""


def test_a_claim_whose_process_died_does_not_keep_the_letters_from_a_retry(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    storage = FileMemoryStorage(root)
    outbox_fails(storage, turns(0))
    holder = subprocess.Popen(
        [sys.executable, "-c", CLAIM_HOLDER, str(root)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "claimed"
        blocked = Model()
        [busy] = retry(storage, blocked)
        assert busy.busy and blocked.sent == []
    finally:
        holder.kill()  # dies holding the claim
        holder.wait(30)
    deadline = time.monotonic() + 10
    model = Model()
    while storage.list_dead_letters() and time.monotonic() < deadline:
        retry(storage, model)
    assert model.sent == [said(turns(0))] and storage.list_dead_letters() == []
