"""Memory routes with ``require_auth`` (or ``http_require_auth``): anonymous callers get 401.

Behind an app's ``AuthenticationMiddleware`` whose backend lets anonymous
requests through, an unauthenticated request is otherwise the operator (any
user's memory); with the option on it is refused before anything is read.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.authentication import AuthCredentials, AuthenticationBackend, SimpleUser
from starlette.requests import HTTPConnection
from starlette.testclient import TestClient

from deerflow_memory.api import memory_routes
from deerflow_memory.config import MemoryConfig, load_config
from deerflow_memory.service import MemoryService
from tests.test_api import TenantAuth, enqueue

AuthClient = Callable[..., TestClient]

# One request to every memory route (the page included), with what each needs to pass
# the other checks: a JSON body where the route reads one.
EVERY_ROUTE: list[tuple[str, str, dict[str, Any]]] = [
    ("GET", "/memory/users/ana", {}),
    ("PUT", "/memory/users/ana", {"json": {"facts": []}}),
    ("DELETE", "/memory/users/ana?confirm=ana", {}),
    ("GET", "/memory/users/ana/history", {}),
    ("GET", "/memory/users/ana/search?q=tea", {}),
    ("GET", "/memory/users/ana/export", {}),
    ("POST", "/memory/users/ana/facts", {"json": {"content": "Likes coffee"}}),
    ("PATCH", "/memory/users/ana/facts/x", {"json": {"content": "Likes coffee"}}),
    ("DELETE", "/memory/users/ana/facts/x", {}),
    ("POST", "/memory/flush?timeout=5", {}),
    ("GET", "/memory/status", {}),
    ("GET", "/memory/ui?user=ana", {}),
]


class StudioUser(SimpleUser):
    """An auth user with a name that says it is not authenticated (``langgraph dev``'s Studio)."""

    @property
    def is_authenticated(self) -> bool:
        return False


class StudioAuth(AuthenticationBackend):
    async def authenticate(self, conn: HTTPConnection) -> Any:
        return AuthCredentials(), StudioUser("studio")


def refuse_every_read(monkeypatch: pytest.MonkeyPatch, memory: MemoryService) -> None:
    """From now on any storage read, delete or flush of ``memory`` fails the test."""

    def read_before_the_check(*args: object, **kwargs: object) -> Any:
        raise AssertionError("memory was reached before the authentication check")

    for name in ("tenant_storage", "clear_memory", "flush", "flush_tenant", "flush_user"):
        monkeypatch.setattr(memory, name, read_before_the_check)


def assert_refused_everywhere(client: TestClient, headers: dict[str, str] | None = None) -> None:
    for method, path, extra in EVERY_ROUTE:
        response = client.request(method, path, headers=headers, **extra)
        assert response.status_code == 401, (method, path, response.text)
        assert "authenticated" in response.json()["error"], (method, path)
        assert "www-authenticate" not in response.headers
        assert "Likes tea" not in response.text


def test_require_auth_answers_401_to_an_anonymous_request_on_every_route_before_reading(
    service: MemoryService, auth_client: AuthClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = auth_client(TenantAuth(), require_auth=True)
    as_ana = {"Authorization": "Bearer ana"}
    assert client.post("/memory/users/ana/facts", json={"content": "Likes tea"}, headers=as_ana)
    enqueue(service, "bea", "I'm vegetarian.")
    refuse_every_read(monkeypatch, service)
    assert_refused_everywhere(client)  # the backend returned None: UnauthenticatedUser
    monkeypatch.undo()
    assert [f.content for f in service.storage.load("ana").facts] == ["Likes tea"]
    assert service.queue.pending_count == 1  # the anonymous flush ran nothing


def test_require_auth_still_serves_an_authenticated_caller_their_own_memory_only(
    auth_client: AuthClient,
) -> None:
    client = auth_client(TenantAuth(), require_auth=True)
    as_ana = {"Authorization": "Bearer ana"}
    added = client.post("/memory/users/ana/facts", json={"content": "Likes tea"}, headers=as_ana)
    assert added.status_code == 201, added.text
    mine = client.get("/memory/users/ana", headers=as_ana)
    assert mine.json()["facts"][0]["content"] == "Likes tea"
    assert client.get("/memory/users/bea", headers=as_ana).status_code == 403
    page = client.get("/memory/ui", headers=as_ana)
    assert page.status_code == 200 and 'data-user="ana"' in page.text


def test_require_auth_refuses_an_auth_user_that_says_it_is_not_authenticated(
    auth_client: AuthClient,
) -> None:
    # The graphs' and routes' one rule: is_authenticated False is no authentication, whatever
    # its name; with require_auth it is refused instead of becoming the operator.
    assert_refused_everywhere(auth_client(StudioAuth(), require_auth=True))
    operator = auth_client(StudioAuth())
    assert operator.get("/memory/users/ana").status_code == 200


def test_require_auth_without_any_authentication_middleware_refuses_everyone(
    service: MemoryService,
) -> None:
    app = Starlette(routes=memory_routes(service, require_auth=True))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        assert_refused_everywhere(client, {"Authorization": "Bearer ana"})


def test_without_require_auth_an_anonymous_request_is_still_the_operator(
    service: MemoryService, auth_client: AuthClient
) -> None:
    client = auth_client(TenantAuth())
    added = client.post("/memory/users/bea/facts", json={"content": "Likes tea"})
    assert added.status_code == 201, added.text
    assert client.get("/memory/users/bea").json()["facts"][0]["content"] == "Likes tea"
    assert service.storage.load("bea").facts


def test_http_require_auth_in_the_environment_turns_it_on_without_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, auth_client: AuthClient
) -> None:
    # What graphs/http_app.py does: MemoryService() from DEERFLOW_MEMORY_*, memory_routes(memory).
    monkeypatch.setenv("DEERFLOW_MEMORY_HTTP_REQUIRE_AUTH", "true")
    monkeypatch.setenv("DEERFLOW_MEMORY_STORAGE_PATH", str(tmp_path / "memory"))
    monkeypatch.setenv("DEERFLOW_MEMORY_OUTBOX", "false")
    assert load_config().http_require_auth is True
    with MemoryService(register_atexit=False) as memory:
        # require_auth=False in code does not turn off what the configuration requires.
        client = auth_client(TenantAuth(), memory, require_auth=False)
        assert_refused_everywhere(client)
        as_ana = {"Authorization": "Bearer ana"}
        assert client.get("/memory/users/ana", headers=as_ana).status_code == 200


def test_http_require_auth_is_off_by_default() -> None:
    assert MemoryConfig().http_require_auth is False
