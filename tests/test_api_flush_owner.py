"""Who a flush runs: an authenticated caller hurries only their own updates.

A flush makes model calls now instead of after the debounce; a signed-in user
may do that for their own pending conversations, not spend the operator's
model budget on every user's and every tenant's queue. The operator (no
authentication) still flushes everything.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from deerflow_memory.config import MemoryConfig
from deerflow_memory.service import MemoryService
from deerflow_memory.update.queue import MemoryUpdateQueue, UpdateJob
from tests.test_api import FailingFor, TenantAuth, enqueue

AuthClient = Callable[..., TestClient]
AS_ANA = {"Authorization": "Bearer ana"}


def facts(memory: MemoryService, user: str, tenant: str | None = None) -> list[str]:
    return [f.content for f in memory.for_tenant(tenant).storage.load(user).facts]


def test_a_signed_in_callers_flush_runs_only_their_own_updates(
    service: MemoryService, auth_client: AuthClient
) -> None:
    client = auth_client(TenantAuth())
    enqueue(service, "ana", "I'm vegetarian.")
    enqueue(service, "bea", "I'm vegetarian.")
    enqueue(service, "cid", "I'm vegetarian.", tenant="shop")
    flushed = client.post("/memory/flush", params={"timeout": "20"}, headers=AS_ANA)
    assert flushed.json() == {"done": True, "pending": 0, "failed": []}
    assert facts(service, "ana") and not facts(service, "bea")
    assert service.queue.pending_count == 1  # bea's waits for its debounce
    assert service.for_tenant("shop").queue.pending_count == 1  # and the shop's queue too
    # The operator (no authentication) still flushes every queue.
    assert client.post("/memory/flush", params={"timeout": "20"}).json()["done"] is True
    assert facts(service, "bea") and facts(service, "cid", "shop")


def flush_as_ana_in_shop(service: MemoryService, client: TestClient, **request: Any) -> None:
    """Ana and Bea each have a turn queued in "shop"; ana's flush (``request``) runs ana's alone."""
    enqueue(service, "ana", "I'm vegetarian.", tenant="shop")
    enqueue(service, "bea", "I'm vegetarian.", tenant="shop")
    assert client.post("/memory/flush", **request).json()["done"] is True
    assert facts(service, "ana", "shop") and not facts(service, "bea", "shop")
    assert service.for_tenant("shop").queue.pending_count == 1  # bea's waits for its debounce


def test_a_signed_in_caller_naming_a_tenant_flushes_only_their_updates_in_it(
    service: MemoryService, auth_client: AuthClient
) -> None:
    enqueue(service, "ana", "I'm vegetarian.")  # ana's untenanted memory: another queue
    shop = {"timeout": "20", "tenant": "shop"}
    flush_as_ana_in_shop(service, auth_client(TenantAuth()), params=shop, headers=AS_ANA)
    assert service.queue.pending_count == 1 and not facts(service, "ana")


def test_a_caller_whose_auth_carries_a_tenant_flushes_only_their_updates_there(
    service: MemoryService, auth_client: AuthClient
) -> None:
    as_ana_in_shop = {"Authorization": "Bearer ana@shop"}
    flush_as_ana_in_shop(service, auth_client(TenantAuth()), headers=as_ana_in_shop)


def test_a_signed_in_callers_flush_reports_only_their_failures_and_keeps_them(
    tmp_path: Path, auth_client: AuthClient
) -> None:
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=600, outbox=False)
    with MemoryService(config, extractor=FailingFor(), register_atexit=False) as memory:
        client = auth_client(TenantAuth(), memory)
        enqueue(memory, "ana", "I own a boat.")
        enqueue(memory, "bea", "I own a boat.")
        flushed = client.post("/memory/flush", headers=AS_ANA).json()
        assert flushed["done"] is True
        assert [(f["userId"], f["tenantId"]) for f in flushed["failed"]] == [("ana", None)]
        # Kept as a dead letter (not requeued behind a backoff the flush would wait for).
        assert [letter.user_id for letter in memory.storage.list_dead_letters()] == ["ana"]
        assert memory.queue.pending_count == 1  # bea's, never run


class SlowForAna(FailingFor):
    """FailingFor, except that the turn "I own a slow boat." fails only once released."""

    def __init__(self) -> None:
        super().__init__()
        self.started, self.release = threading.Event(), threading.Event()

    def extract(self, request: Any) -> Any:
        if any("slow boat" in str(m.content) for m in request.messages):
            self.started.set()
            self.release.wait(20)
        return super().extract(request)


def test_a_callers_flush_reports_none_of_the_failures_other_flushes_cause_meanwhile(
    tmp_path: Path, auth_client: AuthClient
) -> None:
    extractor = SlowForAna()
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=600, outbox=False)
    with MemoryService(config, extractor=extractor, register_atexit=False) as memory:
        client = auth_client(TenantAuth(), memory)
        enqueue(memory, "ana", "I own a slow boat.")
        enqueue(memory, "bea", "I own a boat.")  # another user, same tenant
        enqueue(memory, "ana", "I own a boat.", tenant="shop")  # another person called ana
        replies: list[Any] = []
        caller = threading.Thread(
            target=lambda: replies.append(
                client.post("/memory/flush", params={"timeout": "20"}, headers=AS_ANA).json()
            )
        )
        caller.start()
        try:
            assert extractor.started.wait(20)  # ana's flush is running her update
            # Meanwhile other flushes run bea's update and the shop's ana's: both fail.
            bea = memory.flush_user("bea", timeout=20)
            shop = memory.flush_tenant("shop", timeout=20)
            assert [(f.user_id, f.tenant_id) for f in (*bea.failed, *shop.failed)] == [
                ("bea", None),
                ("ana", "shop"),
            ]
        finally:
            extractor.release.set()
            caller.join(30)
        assert replies[0]["done"] is True
        assert [(f["userId"], f["tenantId"]) for f in replies[0]["failed"]] == [("ana", None)]


def test_a_user_flush_of_the_queue_waits_for_that_user_alone() -> None:
    started, release = threading.Event(), threading.Event()
    ran: list[str] = []

    def handler(job: UpdateJob) -> None:
        if job.user_id == "bea":
            started.set()
            release.wait(10)
        ran.append(job.user_id)

    with MemoryUpdateQueue(handler, debounce_seconds=600, max_wait_seconds=600) as queue:
        queue.add("t-bea", "bea", None, [])
        queue.flush(0.05, user_id="bea")  # bea's job starts and blocks
        assert started.wait(10)
        queue.add("t-ana", "ana", None, [])
        queue.add("t-cid", "cid", None, [])
        # ana's flush neither waits for bea's running job nor runs cid's.
        assert queue.flush(10, user_id="ana") is True
        assert ran == ["ana"] and queue.user_backlog("cid") == 1
        assert queue.user_backlog("bea") == 1  # running
        assert queue.flush(0.05, user_id="bea") is False
        release.set()
        assert queue.flush(10, user_id="bea") is True and queue.pending_count == 1


def test_flush_user_of_a_tenant_with_nothing_pending_opens_no_tenant(
    service: MemoryService,
) -> None:
    assert service.flush_user("ana", 5, tenant_id="travel").ok
    assert "travel" not in service.tenants
    enqueue(service, "ana", "I'm vegetarian.")
    assert service.flush_user("ana", 20).ok and facts(service, "ana")


def test_a_job_failing_during_its_users_flush_is_not_requeued_behind_a_backoff() -> None:
    # As in a whole-queue flush: the flush would wait out the backoff; the service keeps the
    # job as a dead letter instead. Another user's job may still be requeued meanwhile.
    requeued: dict[str, bool] = {}

    def handler(job: UpdateJob) -> None:
        if job.user_id not in requeued:
            requeued[job.user_id] = queue.requeue(job, 600)

    with MemoryUpdateQueue(handler, debounce_seconds=600, max_wait_seconds=600) as queue:
        queue.add("t-ana", "ana", None, [])
        assert queue.flush(2, user_id="ana") is True
        assert requeued == {"ana": False} and queue.pending_count == 0
        queue.add_nowait("t-bea", "bea", None, [])  # due at once, run outside any flush
        assert queue.flush(2, user_id="ana") is True
        queue.wait_idle(2)
        assert requeued == {"ana": False, "bea": True} and queue.user_backlog("bea") == 1


def test_a_signed_in_callers_status_counts_only_their_own_pending_updates(
    service: MemoryService, auth_client: AuthClient
) -> None:
    client = auth_client(TenantAuth())
    for user in ("erin", "frank", "gina", "ana"):
        enqueue(service, user, "I'm vegetarian.")
    enqueue(service, "ana", "I'm vegetarian.", tenant="shop")

    def counts(headers: dict[str, str] | None = None, **params: str) -> tuple[int, int]:
        status = client.get("/memory/status", headers=headers, params=params).json()
        return status["pending"], status["running"]

    # Other users' activity is not theirs to see; the operator sees the whole queue.
    assert counts(AS_ANA) == (1, 0)
    assert counts({"Authorization": "Bearer bea"}) == (0, 0)
    assert counts({"Authorization": "Bearer ana@shop"}) == (1, 0)
    assert counts() == (4, 0)
    assert counts(tenant="shop") == (1, 0)
    assert client.post("/memory/flush", params={"timeout": "20"}, headers=AS_ANA).status_code == 200
    assert counts(AS_ANA) == (0, 0) and counts() == (3, 0)


def test_a_users_counts_are_their_queued_updates_and_their_job_handed_to_a_worker() -> None:
    started, release = threading.Event(), threading.Event()

    def handler(job: UpdateJob) -> None:
        if job.user_id == "bea":
            started.set()
            release.wait(10)

    with MemoryUpdateQueue(handler, debounce_seconds=600, max_wait_seconds=600) as queue:
        queue.add_nowait("t-bea", "bea", None, [])
        assert started.wait(10)
        queue.add("t-bea-2", "bea", None, [])
        queue.add("t-ana", "ana", None, [])
        assert queue.user_counts("bea") == (1, 1)
        assert queue.user_counts("ana") == (1, 0) and queue.user_counts("cid") == (0, 0)
        assert sum(queue.user_counts("bea")) == queue.user_backlog("bea")
        assert (queue.pending_count, queue.running_count) == (2, 1)
        release.set()
