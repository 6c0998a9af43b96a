"""The update queue keeps running whatever a server or app code throws at it (attack 20).

A 429 answered with ``Retry-After: 1e308`` (or ``inf``) once killed the
scheduler thread with an ``OverflowError`` in its timed wait, and no update of
any user ran again in the process; a ``SystemExit`` or ``CancelledError`` from a
chat model or an embedder killed a worker thread and the update vanished with
it, while ``flush()`` reported success.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any, ClassVar

import pytest
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService
from deerflow_memory.update.queue import MemoryUpdateQueue, UpdateJob
from deerflow_memory.update.retry import MAX_REQUEUE_SECONDS, RetryPolicy, retry_after_seconds

WAIT = 10.0  # real seconds at most; never reached when things work


def job(user: str) -> UpdateJob:
    messages = (HumanMessage("I live in Oslo", id=f"{user}-1"), AIMessage("Nice", id=f"{user}-2"))
    return UpdateJob(f"thread-{user}", user, None, messages)


class Ran:
    def __init__(self, fail_first_with: BaseException | None = None) -> None:
        self.users: list[str] = []
        self.done = threading.Event()
        self.fail = fail_first_with

    def __call__(self, job: UpdateJob) -> None:
        if self.fail is not None:
            error, self.fail = self.fail, None
            raise error
        self.users.append(job.user_id)
        self.done.set()


@pytest.mark.parametrize("headers", [{"retry-after": "inf"},
                                     {"retry-after": "nan"}, {"retry-after-ms": "inf"},
                                     {"retry-after": "1e999"}])  # fmt: skip
def test_a_retry_after_that_is_no_finite_number_is_ignored(headers: dict[str, str]) -> None:
    assert retry_after_seconds(headers) is None


@pytest.mark.parametrize("date", ["Wed, 21 Oct 99999999999 07:28:00 GMT",
                                  "Wed, 21 Oct 10000 07:28:00 GMT",
                                  "Wed, 99 Oct 2026 07:28:00 GMT"])  # fmt: skip
def test_a_retry_after_date_no_datetime_holds_is_ignored_not_raised(date: str) -> None:
    # attack 21 F7: a huge year raised OverflowError out of the retry loop -> dead letter
    assert retry_after_seconds({"retry-after": date}) is None


@pytest.mark.parametrize("millis", ["abc", "inf", "1_0", "\u0661\u0662", ""])
def test_an_invalid_retry_after_ms_falls_through_to_a_valid_retry_after(millis: str) -> None:
    assert retry_after_seconds({"retry-after-ms": millis, "retry-after": "3"}) == 3.0
    assert retry_after_seconds({"retry-after-ms": millis}) is None
    assert retry_after_seconds({"retry-after-ms": "1500", "retry-after": "3"}) == 1.5


def test_a_429_with_an_overflowing_retry_after_date_is_retried_with_backoff() -> None:
    class Limited(Exception):
        status_code = 429

        class response:  # the shape of an httpx response
            headers: ClassVar = {"retry-after": "Wed, 21 Oct 99999999999 07:28:00 GMT"}

    waits: list[float] = []
    calls: list[int] = []

    def flaky() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise Limited()
        return "ok"

    policy = RetryPolicy(sleep=waits.append, random=lambda: 1.0, base_seconds=1)
    assert policy.call(flaky) == "ok"
    assert waits == [1.0, 2.0]  # the normal backoff: the header was ignored


@pytest.mark.parametrize("asked", [3_600.0, 365 * 86_400.0, 1e308])
def test_a_long_retry_after_waits_no_longer_than_the_requeue_cap(asked: float) -> None:
    policy = RetryPolicy(random=lambda: 0.0)
    assert policy.requeue_delay(1, asked) == MAX_REQUEUE_SECONDS
    assert policy.requeue_delay(1, 120.0) == 120.0  # a shorter one is still honoured


@pytest.mark.parametrize("delay", [1e308, float("inf"), float("nan"), -5.0])
def test_a_job_requeued_with_any_delay_leaves_the_scheduler_running(delay: float) -> None:
    ran = Ran()
    queue = MemoryUpdateQueue(ran, debounce_seconds=0, max_wait_seconds=0)
    try:
        queue.restore(job("alice"), delay)
        assert queue.requeue(job("carol"), delay)
        queue.add("thread-bob", "bob", None, job("bob").messages)
        assert queue.wait_idle(timeout=WAIT)
        assert "bob" in ran.users
    finally:
        queue.shutdown(timeout=1)


@pytest.mark.parametrize(
    "error",
    [SystemExit("model quit"), asyncio.CancelledError(), GeneratorExit(), KeyboardInterrupt()],
)
def test_a_worker_outlives_any_exception_of_its_handler(error: BaseException) -> None:
    ran = Ran(fail_first_with=error)
    queue = MemoryUpdateQueue(ran, debounce_seconds=0, max_wait_seconds=0, max_workers=1)
    try:
        queue.add("thread-alice", "alice", None, job("alice").messages)
        assert queue.flush(timeout=WAIT)
        queue.add("thread-bob", "bob", None, job("bob").messages)
        assert ran.done.wait(WAIT)
        assert ran.users == ["bob"]
    finally:
        queue.shutdown(timeout=1)


class _Model(BaseChatModel):
    """Raises ``error`` on its first call, then answers one fact."""

    error: Any = None
    calls: int = 0

    @property
    def _llm_type(self) -> str:
        return "raising"

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        self.calls += 1
        if self.calls == 1:
            raise self.error
        answer = (
            '{"newFacts": [{"content": "Lives in Oslo", "category": "context", "confidence": 0.9}]}'
        )
        return ChatResult(generations=[ChatGeneration(message=AIMessage(answer))])


@pytest.mark.parametrize("error", [SystemExit("quit"), asyncio.CancelledError("cancelled")])
def test_a_model_that_raises_a_base_exception_leaves_a_dead_letter_not_a_silent_loss(
    tmp_path: Path, error: BaseException
) -> None:
    model = _Model(error=error)
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=0, update_gate=False)
    service = MemoryService(config, model=model)
    alice, bob = MemoryIdentity("alice", None, "t-a"), MemoryIdentity("bob", None, "t-b")
    try:
        service.enqueue(alice, [HumanMessage("I live in Oslo", id="a1"), AIMessage("ok", id="a2")])
        result = service.flush(WAIT)
        assert [f.user_id for f in result.failed] == ["alice"]
        assert [letter.user_id for letter in service.dead_letters()] == ["alice"]
        # Both workers still run: the next user's update goes through.
        service.enqueue(bob, [HumanMessage("I live in Oslo", id="b1"), AIMessage("ok", id="b2")])
        assert service.flush(WAIT).failed == ()
        assert [f.content for f in service.load(bob).facts] == ["Lives in Oslo"]
    finally:
        service.close(timeout=2)


class _Embedder(Embeddings):
    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        raise SystemExit("embedder quit")

    def embed_query(self, text: str) -> list[float]:
        return [1.0, 0.0, 0.0]


def test_an_embedder_that_raises_system_exit_leaves_a_dead_letter(tmp_path: Path) -> None:
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=0, injection_mode="relevant")
    service = MemoryService(config, embedder=_Embedder())
    alice = MemoryIdentity("alice", None, "t-a")
    try:
        service.enqueue(
            alice, [HumanMessage("I'm allergic to peanuts.", id="a1"), AIMessage("ok", id="a2")]
        )
        result = service.flush(WAIT)
        assert [f.user_id for f in result.failed] == ["alice"]
        assert len(service.dead_letters()) == 1
    finally:
        service.close(timeout=2)


def test_ctrl_c_on_the_main_thread_still_stops_an_update(tmp_path: Path) -> None:
    # Behaviour kept (passes before the fix too): only app code's exits are caught.
    from deerflow_memory.update.updater import MemoryUpdater

    config = MemoryConfig(storage_path=tmp_path, update_gate=False)
    service = MemoryService(config, model=_Model(error=KeyboardInterrupt()))
    try:
        updater: MemoryUpdater = service.updater
        with pytest.raises(KeyboardInterrupt):
            updater.update(job("alice"))
    finally:
        service.close(timeout=2)
