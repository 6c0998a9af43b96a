"""A ``/memory`` request reads its authenticated caller once, and only its own.

Every route needs the caller several times (the 401 check, whose memory, which
tenant, which storage and settings); the routes keep the first reading on
``request.state``. Kept too long, it would hand one request's caller to the next.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from starlette.testclient import TestClient

from deerflow_memory.api import routes
from tests.test_api import TenantAuth

AuthClient = Callable[..., TestClient]


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The auth users ``authenticated_caller`` was asked to read, in order."""
    seen: list[Any] = []
    real = routes.authenticated_caller

    def counted(user: Any, *args: Any) -> Any:
        seen.append(user)
        return real(user, *args)

    monkeypatch.setattr(routes, "authenticated_caller", counted)
    return seen


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/memory/users/ana"),
        ("GET", "/memory/users/ana/search"),
        ("POST", "/memory/users/ana/facts"),
        ("POST", "/memory/flush"),
        ("GET", "/memory/status"),
        ("GET", "/memory/ui"),
    ],
)
def test_each_route_reads_the_signed_in_caller_once_per_request(
    auth_client: AuthClient, reads: list[Any], method: str, path: str
) -> None:
    client = auth_client(TenantAuth(), require_auth=True)
    body = {"content": "Likes tea"} if path.endswith("/facts") else None
    response = client.request(method, path, json=body, headers={"Authorization": "Bearer ana@shop"})
    assert response.is_success, response.text
    assert len(reads) == 1


def test_each_request_is_answered_for_its_own_caller(auth_client: AuthClient) -> None:
    client = auth_client(TenantAuth())
    for name in ("ana", "bea", "ana"):
        mine = {"Authorization": f"Bearer {name}@shop"}
        added = client.post(f"/memory/users/{name}/facts", json={"content": "x"}, headers=mine)
        assert added.status_code == 201, added.text
        other = "bea" if name == "ana" else "ana"
        assert client.get(f"/memory/users/{other}", headers=mine).status_code == 403
        status = client.get("/memory/status", headers=mine).json()
        assert status["tenant"] == "shop"
        assert {row["user_id"] for row in status["hygiene"]} == {name}
