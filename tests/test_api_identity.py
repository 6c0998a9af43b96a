"""HTTP routes compare the caller's identity with user ids in the same (NFC) form."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import pytest
from starlette.authentication import AuthCredentials, AuthenticationBackend, SimpleUser
from starlette.requests import HTTPConnection
from starlette.testclient import TestClient

DECOMPOSED = "Zoe\u0308"  # "Zoë" as e + combining diaeresis (NFD)
COMPOSED = "Zo\u00eb"  # "Zoë" as one code point (NFC)


class PercentAuth(AuthenticationBackend):
    """``Authorization: Bearer <percent-encoded user>[@<tenant>]``: any Unicode identity."""

    async def authenticate(self, conn: HTTPConnection) -> Any:
        header = conn.headers.get("authorization", "")
        if not header.startswith("Bearer "):
            return None
        name, _, tenant = unquote(header.removeprefix("Bearer ")).partition("@")
        user = SimpleUser(name)
        user.tenant_id = tenant or None  # type: ignore[attr-defined]
        return AuthCredentials(["authenticated"]), user


@pytest.fixture
def client(auth_client: Callable[[AuthenticationBackend], TestClient]) -> TestClient:
    return auth_client(PercentAuth())


def bearer(identity: str) -> dict[str, str]:
    return {"Authorization": "Bearer " + "".join(f"%{byte:02x}" for byte in identity.encode())}


def test_a_caller_whose_identity_is_not_nfc_reaches_their_own_memory(client: TestClient) -> None:
    as_nfd = bearer(DECOMPOSED)
    for path, fact in (
        (f"/memory/users/{DECOMPOSED}", "Likes tea"),
        (f"/memory/users/{COMPOSED}", "Plays go"),
    ):
        added = client.post(f"{path}/facts", json={"content": fact}, headers=as_nfd)
        assert added.status_code == 201, added.text
        assert client.get(path, headers=as_nfd).status_code == 200
    # One user: the NFC caller sees both facts, and nobody else gets in.
    facts = client.get(f"/memory/users/{COMPOSED}", headers=bearer(COMPOSED)).json()["facts"]
    assert [f["content"] for f in facts] == ["Likes tea", "Plays go"]
    assert client.get(f"/memory/users/{COMPOSED}", headers=bearer("Zoe")).status_code == 403


def test_a_callers_tenant_is_compared_in_nfc_too(client: TestClient) -> None:
    headers = bearer(f"ana@{DECOMPOSED}")
    asked = client.get("/memory/users/ana", params={"tenant": COMPOSED}, headers=headers)
    assert asked.status_code == 200, asked.text
    other = client.get("/memory/users/ana", params={"tenant": "shop"}, headers=headers)
    assert other.status_code == 403
