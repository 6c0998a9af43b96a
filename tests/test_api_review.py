"""Memory routes: answers found wrong in a line-by-line review, each pinned by a test."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from starlette.authentication import AuthCredentials, AuthenticationBackend, BaseUser
from starlette.requests import HTTPConnection
from starlette.testclient import TestClient

from deerflow_memory import MemoryConfig
from deerflow_memory.service import MemoryService
from tests.test_api import FailingFor, TenantAuth, enqueue


class Caller(BaseUser):
    """An authenticated user made of what ``Authorization: Bearer <identity>`` says."""

    def __init__(self, identity: str | None) -> None:
        self._identity = identity

    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def display_name(self) -> str:
        return ""

    @property
    def identity(self) -> str:
        if self._identity is None:
            raise NotImplementedError  # as Starlette's BaseUser leaves it
        return self._identity


class BearerAuth(AuthenticationBackend):
    """``Bearer`` alone: a user without identity; ``Bearer -``: one whose identity raises."""

    async def authenticate(self, conn: HTTPConnection) -> Any:
        header = conn.headers.get("authorization")
        if header is None:
            return None
        identity = header.removeprefix("Bearer").strip()
        return AuthCredentials(["authenticated"]), Caller(None if identity == "-" else identity)


@pytest.fixture
def authed(auth_client: Callable[[AuthenticationBackend], TestClient]) -> TestClient:
    return auth_client(BearerAuth())


def test_an_authenticated_caller_without_an_identity_reaches_no_memory(
    authed: TestClient, service: MemoryService
) -> None:
    assert authed.post("/memory/users/ana/facts", json={"content": "Likes tea"}).status_code == 201
    for headers in ({"Authorization": "Bearer"}, {"Authorization": "Bearer -"}):
        for method, path in (
            ("GET", "/memory/users/ana"),
            ("GET", "/memory/status"),
            ("GET", "/memory/users/ana/export"),
            ("DELETE", "/memory/users/ana/facts/x"),
        ):
            response = authed.request(method, path, headers=headers)
            assert response.status_code == 403, (headers, path, response.text)
            assert "Likes tea" not in response.text and "ana" not in response.text
    assert service.storage.load("ana").facts[0].content == "Likes tea"
    mine = authed.get("/memory/users/ana", headers={"Authorization": "Bearer ana"})
    assert mine.status_code == 200


def test_a_flush_shows_a_caller_no_failure_of_the_same_user_id_in_another_tenant(
    tmp_path: Path, auth_client: Callable[[AuthenticationBackend, MemoryService], TestClient]
) -> None:
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=600)
    with MemoryService(config, extractor=FailingFor(), register_atexit=False) as memory:
        client = auth_client(TenantAuth(), memory)
        enqueue(memory, "ana", "I own a boat.", tenant="shop")  # another person called ana
        enqueue(memory, "ana", "I own a boat.")
        flushed = client.post("/memory/flush", headers={"Authorization": "Bearer ana"}).json()
        assert flushed["done"] is True
        assert [(f["userId"], f["tenantId"]) for f in flushed["failed"]] == [("ana", None)]


def test_export_of_a_user_id_outside_latin_1_is_a_download_named_after_it(
    client: TestClient,
) -> None:
    user = "张三"
    assert client.post(f"/memory/users/{user}/facts", json={"content": "Likes tea"}).is_success
    response = client.get(f"/memory/users/{user}/export", params={"agent": "助手"})
    assert response.status_code == 200, response.text
    disposition = response.headers["content-disposition"]
    assert disposition == (
        "attachment; filename=\"memory-__-__.json\"; filename*=UTF-8''"
        + quote(f"memory-{user}-助手.json", safe="")
    )
    plain = client.get("/memory/users/ana/export").headers["content-disposition"]
    assert plain == "attachment; filename=\"memory-ana.json\"; filename*=UTF-8''memory-ana.json"


@pytest.mark.parametrize("revision", [True, "0", 0.0, [0]])
def test_a_revision_that_is_not_a_json_integer_is_refused_and_nothing_is_written(
    client: TestClient, revision: object
) -> None:
    response = client.post("/memory/users/ana/facts", json={"content": "Tea", "revision": revision})
    assert response.status_code == 422, response.text
    assert response.json()["error"].startswith("revision: ")
    assert client.get("/memory/users/ana").json()["facts"] == []


@pytest.mark.parametrize("revision", ["1_0", " 1", "١"])
def test_a_delete_revision_must_be_plain_digits(client: TestClient, revision: str) -> None:
    added = client.post("/memory/users/ana/facts", json={"content": "Likes tea"}).json()
    response = client.delete(
        f"/memory/users/ana/facts/{added['fact']['id']}", params={"revision": revision}
    )
    assert response.status_code == 400 and "revision must be an integer" in response.text
    assert len(client.get("/memory/users/ana").json()["facts"]) == 1


def test_deleting_a_memory_confirms_with_the_raw_identity_the_path_may_use(
    authed: TestClient, service: MemoryService
) -> None:
    raw = "auth0|64f1c2"
    as_raw = {"Authorization": f"Bearer {raw}"}
    path = f"/memory/users/{quote(raw, safe='')}"
    assert authed.post(f"{path}/facts", json={"content": "Tea"}, headers=as_raw).status_code == 201
    wrong = authed.delete(path, params={"confirm": "someone"}, headers=as_raw)
    assert wrong.status_code == 400
    response = authed.delete(path, params={"confirm": raw}, headers=as_raw)
    assert response.status_code == 200 and response.json() == {"deleted": True}


def test_an_import_onto_one_fact_says_one_fact(client: TestClient) -> None:
    assert client.post("/memory/users/ana/facts", json={"content": "Likes tea"}).is_success
    response = client.put(
        "/memory/users/ana",
        content=b'{"facts": []}',
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 409
    assert response.json()["error"].startswith("'ana' already has 1 fact; add ?replace=true")


def test_an_import_asks_for_replace_before_replacing_a_history_of_deleted_facts(
    client: TestClient,
) -> None:
    added = client.post("/memory/users/ana/facts", json={"content": "Likes tea"}).json()
    assert client.delete(f"/memory/users/ana/facts/{added['fact']['id']}").status_code == 200
    response = client.put(
        "/memory/users/ana",
        content=b'{"facts": [{"id": "f1", "content": "Likes coffee", "confidence": 0.9}]}',
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 409, response.text
    assert "1 superseded fact (history); add ?replace=true" in response.json()["error"]
    history = client.get("/memory/users/ana/history").json()["supersededFacts"]
    assert [old["content"] for old in history] == ["Likes tea"]


def test_a_graph_run_authenticated_without_an_identity_is_refused_like_the_routes() -> None:
    from types import SimpleNamespace

    from deerflow_memory.errors import InvalidNameError
    from deerflow_memory.identity import resolve_identity

    for user in (
        SimpleNamespace(identity="", is_authenticated=True),
        {"identity": "", "is_authenticated": True},
    ):
        config = {
            "configurable": {
                "langgraph_auth_user_id": "",
                "langgraph_auth_user": user,
                "user_id": "alice",
            }
        }
        with pytest.raises(InvalidNameError, match="authenticated but its identity is empty"):
            resolve_identity(config)  # type: ignore[arg-type]
    # LangGraph's unauthenticated user (is_authenticated False) stays the operator.
    anonymous = {"identity": "", "is_authenticated": False}
    config = {"configurable": {"langgraph_auth_user": anonymous, "user_id": "alice"}}
    assert resolve_identity(config).user_id == "alice"  # type: ignore[arg-type]


def test_status_finds_a_users_documents_whatever_unicode_form_user_and_agent_come_in(
    client: TestClient,
) -> None:
    composed, decomposed = "Zo\u00eb", "Zoe\u0308"
    added = client.post(
        f"/memory/users/{composed}/facts", params={"agent": composed}, json={"content": "Tea"}
    )
    assert added.status_code == 201
    hygiene = client.get("/memory/status", params={"user": decomposed, "agent": decomposed})
    found = [(h["user_id"], h["agent_name"]) for h in hygiene.json()["hygiene"]]
    assert found == [(composed, composed)]


def test_the_pages_add_form_is_bounded_by_the_configured_fact_length(
    client: TestClient, service: MemoryService
) -> None:
    page = client.get("/memory/ui", params={"user": "ana"}).text
    assert f'name="content" required maxlength="{service.config.max_fact_chars}"' in page
    assert service.config.max_fact_chars == 500  # the default: the page said 2000
