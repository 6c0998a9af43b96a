"""An identity provider's subject that is not a valid memory id (``auth0|abc``) maps to one.

The graphs and the ``/memory`` routes share :func:`user_id_for_identity`: an
Auth0 user reaches their own memory both ways, and nobody else's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from starlette.authentication import AuthCredentials, AuthenticationBackend, SimpleUser
from starlette.requests import HTTPConnection
from starlette.testclient import TestClient

from deerflow_memory import IdentityMismatchError, MemoryConfig, MemoryService
from deerflow_memory.identity import names_caller, resolve_identity, user_id_for_identity
from deerflow_memory.models import validate_name

AUTH0 = "auth0|abc"
ODD_IDENTITIES = [
    AUTH0,
    "auth0|abd",
    "google-oauth2|1043",
    "user:42",
    "alice smith",
    "Alice Smith",
    "x" * 129,
    "x" * 130,
    ".hidden",
    "a/b",
    " padded",
    "tab\tin",
    "\u0301mark-first",
    "lone\ud800surrogate",
    "alice.sha256-" + "0" * 32,  # looks like a mapped id: mapped too, so it takes no one's
]


def authenticated(identity: str, **configurable: object) -> dict[str, Any]:
    """A config as LangGraph's server builds it for a signed-in caller."""
    user = {"identity": identity, "is_authenticated": True}
    auth = {"langgraph_auth_user_id": identity, "langgraph_auth_user": user}
    return {"configurable": {**configurable, **auth}}


# --- the mapping ------------------------------------------------------------------------------


def test_a_valid_identity_is_its_own_user_id_so_existing_memory_keeps_working() -> None:
    for identity in ["alice", "alice@example.com", "bob+tag@x.io", "Zo\u00eb", "u-1.2_3"]:
        assert user_id_for_identity(identity) == identity
    assert user_id_for_identity("Zoe\u0308") == "Zo\u00eb"  # NFC, as validate_name


def test_an_odd_identity_maps_to_a_valid_readable_id_the_same_every_time() -> None:
    mapped = user_id_for_identity(AUTH0)
    assert mapped.startswith("auth0_abc.sha256-") and len(mapped) == len("auth0_abc.sha256-") + 32
    for identity in ODD_IDENTITIES:
        first = user_id_for_identity(identity)
        assert validate_name(first) == first
        assert user_id_for_identity(identity) == first
        assert user_id_for_identity(str(identity)) == first  # not the cached object only


def test_distinct_identities_never_share_a_user_id() -> None:
    # Includes the valid ids the odd ones read like ("auth0_abc", "user_42").
    look_alikes = ["auth0_abc", "user_42", "alice_smith", "x" * 128, user_id_for_identity(AUTH0)]
    identities = [*ODD_IDENTITIES, *look_alikes]
    mapped = [user_id_for_identity(i) for i in identities]
    assert len(set(mapped)) == len(identities)
    # A raw identity that is some other identity's mapped id does not become that id.
    assert user_id_for_identity(user_id_for_identity(AUTH0)) != user_id_for_identity(AUTH0)


def test_the_caller_is_named_by_their_raw_identity_or_their_mapped_id_only() -> None:
    assert names_caller(AUTH0, AUTH0)
    assert names_caller(user_id_for_identity(AUTH0), AUTH0)
    assert names_caller("Zoe\u0308", "Zo\u00eb")
    for other in ["auth0|abd", user_id_for_identity("auth0|abd"), "auth0_abc", None, 5]:
        assert not names_caller(other, AUTH0)


# --- graph runs -------------------------------------------------------------------------------


def test_a_flood_of_made_up_identities_keeps_the_mapping_cached_and_bounded() -> None:
    from deerflow_memory import identity as module

    cache = module._IDENTITY_FORMS
    cache.cache_clear()
    try:
        # The old count-only dict stopped caching for everyone after 100,000 identities.
        for n in range(20_000):  # more than it keeps: the oldest make room
            user_id_for_identity(f"auth0|flood-{n}")
        info = cache.cache_info()
        assert info.currsize <= info.maxsize == 16_384 and info.chars <= info.maxchars
        assert user_id_for_identity(AUTH0) is user_id_for_identity(AUTH0)  # still kept
        kept = cache.cache_info().currsize
        huge = "auth0|" + "x" * 2_000_001  # longer than every kept text together: not kept
        assert user_id_for_identity(huge) == user_id_for_identity(huge)
        assert cache.cache_info().currsize == kept
    finally:
        cache.cache_clear()


def test_an_identity_that_is_not_text_is_a_typed_error() -> None:
    from deerflow_memory.errors import InvalidNameError

    for identity in (None, 5, b"auth0|abc", ["auth0|abc"]):
        with pytest.raises(InvalidNameError, match="authenticated identity must be a string"):
            user_id_for_identity(identity)  # type: ignore[arg-type]


def test_a_run_authenticated_as_an_auth0_user_stores_and_injects_their_memory(
    tmp_path: Path,
) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    from deerflow_memory import create_memory_agent

    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=0.05, outbox=False)
    with MemoryService(config, register_atexit=False) as memory:
        graph = create_memory_agent(service=memory, checkpointer=InMemorySaver())
        told = {"messages": [("user", "I'm allergic to peanuts.")]}
        graph.invoke(told, authenticated(AUTH0, thread_id="1"))
        assert memory.flush(timeout=30)
        mapped = user_id_for_identity(AUTH0)
        assert any("peanut" in f.content for f in memory.storage.load(mapped).facts)
        # Naming oneself by the raw identity or the mapped id is the same user.
        for own in (AUTH0, mapped):
            state = graph.invoke(
                {"messages": [("user", "Recommend a dessert.")]},
                authenticated(AUTH0, thread_id=f"t-{own}", user_id=own),
            )
            assert "peanut" in state["memory_context"]


@pytest.mark.parametrize(
    "other", ["auth0|abd", user_id_for_identity("auth0|abd"), "auth0_abc", "bob"]
)
def test_a_run_authenticated_as_an_auth0_user_naming_another_user_is_refused(other: str) -> None:
    for config, context in [
        (authenticated(AUTH0, user_id=other), None),
        (authenticated(AUTH0, langgraph_user_id=other), None),
        (authenticated(AUTH0), {"user_id": other}),
    ]:
        with pytest.raises(IdentityMismatchError):
            resolve_identity(config, context)


# --- the /memory routes -----------------------------------------------------------------------


class BearerAuth(AuthenticationBackend):
    """``Authorization: Bearer <url-encoded identity>``."""

    async def authenticate(self, conn: HTTPConnection) -> Any:
        from urllib.parse import unquote

        header = conn.headers.get("authorization", "")
        if not header.startswith("Bearer "):
            return None
        return AuthCredentials(["authenticated"]), SimpleUser(unquote(header[7:]))


@pytest.fixture
def client(
    auth_client: Callable[[AuthenticationBackend], TestClient], service: MemoryService
) -> tuple[TestClient, MemoryService]:
    return auth_client(BearerAuth()), service


def bearer(identity: str) -> dict[str, str]:
    return {"Authorization": "Bearer " + quote(identity, safe="")}


def test_an_auth0_caller_reaches_their_memory_by_raw_identity_or_mapped_id(
    client: tuple[TestClient, MemoryService],
) -> None:
    http, service = client
    mapped = user_id_for_identity(AUTH0)
    raw_path = "/memory/users/" + quote(AUTH0, safe="")
    added = http.post(f"{raw_path}/facts", json={"content": "Likes tea"}, headers=bearer(AUTH0))
    assert added.status_code == 201, added.text
    # Stored under the id a graph run of the same caller uses.
    assert [f.content for f in service.storage.load(mapped).facts] == ["Likes tea"]
    for path in (raw_path, f"/memory/users/{mapped}"):
        answer = http.get(path, headers=bearer(AUTH0))
        assert answer.status_code == 200, answer.text
        assert [f["content"] for f in answer.json()["facts"]] == ["Likes tea"]
    hygiene = http.get("/memory/status", headers=bearer(AUTH0)).json()["hygiene"]
    assert {s["user_id"] for s in hygiene} == {mapped}


def test_an_auth0_caller_cannot_reach_another_users_memory_raw_or_mapped(
    client: tuple[TestClient, MemoryService],
) -> None:
    http, _ = client
    for other in ["auth0|abd", user_id_for_identity("auth0|abd"), "auth0_abc"]:
        path = "/memory/users/" + quote(other, safe="")
        assert http.get(path, headers=bearer(AUTH0)).status_code == 403
        added = http.post(f"{path}/facts", json={"content": "x"}, headers=bearer(AUTH0))
        assert added.status_code == 403
    assert http.get("/memory/users/auth0_abc", headers=bearer("bob")).status_code == 403


def test_an_identity_spelling_a_mapped_id_in_another_case_is_mapped_too() -> None:
    # On a case-insensitive file system (macOS, Windows) "X.SHA256-ABC…" and
    # "x.sha256-abc…" name one folder: the upper-case spelling must not be
    # taken as its own user id, or it would reach the mapped caller's memory.
    mapped = user_id_for_identity(AUTH0)
    for spelling in (mapped.upper(), mapped.swapcase(), mapped.replace(".sha256-", ".SHA256-")):
        other = user_id_for_identity(spelling)
        assert other.casefold() != mapped.casefold()
        assert other != spelling
