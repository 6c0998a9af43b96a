"""The memory routes under the real ``langgraph dev`` (graphs/http_app.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.test_langgraph_dev import langgraph_dev

pytestmark = pytest.mark.slow
langgraph_sdk = pytest.importorskip("langgraph_sdk")


def turn(url: str, user: str, text: str, thread_id: str | None = None) -> dict[str, Any]:
    """One run of the memory agent; returns the final state."""
    client = langgraph_sdk.get_sync_client(url=url)
    if thread_id is None:
        thread_id = client.threads.create()["thread_id"]
    state = client.runs.wait(
        thread_id,
        "memory_agent",
        input={"messages": [{"role": "user", "content": text}]},
        config={"configurable": {"user_id": user}},
    )
    assert isinstance(state, dict)
    return {**state, "thread_id": thread_id}


@pytest.fixture(scope="module")
def dev_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One file-storage server for this module (the page test in test_memory_page uses its own)."""
    tmp_path = tmp_path_factory.mktemp("dev-api")
    with langgraph_dev(tmp_path, storage="file", debounce_seconds="600") as (url, _):
        yield url


def test_the_routes_serve_edit_flush_and_protect_memory_under_langgraph_dev(
    dev_server: str,
) -> None:
    url = dev_server
    http = httpx.Client(base_url=url, timeout=30)
    first = turn(url, "alice", "I'm allergic to peanuts and I live in Lisbon.")
    assert http.get("/memory/status").json()["pending"] >= 1  # the 10-minute debounce holds it

    flushed = http.post("/memory/flush", params={"timeout": "30"})
    assert flushed.status_code == 200 and flushed.json()["failed"] == []
    facts = http.get("/memory/users/alice").json()["facts"]
    assert {"peanut", "Lisbon"} <= {
        w for f in facts for w in ("peanut", "Lisbon") if w in f["content"]
    }

    added = http.post(
        "/memory/users/alice/facts",
        json={"content": "Prefers aisle seats", "category": "preference"},
    )
    assert added.status_code == 201 and added.json()["fact"]["sourceType"] == "manual"
    aisle = added.json()["fact"]["id"]
    edited = http.patch(
        f"/memory/users/alice/facts/{aisle}", json={"content": "Prefers window seats"}
    )
    assert edited.json()["fact"]["content"] == "Prefers window seats"
    lisbon = next(f["id"] for f in facts if "Lisbon" in f["content"])
    assert http.delete(f"/memory/users/alice/facts/{lisbon}").status_code == 200

    # A later turn of the same thread re-sends the old messages: Lisbon stays deleted.
    turn(url, "alice", "Thanks, that's all.", thread_id=first["thread_id"])
    assert http.post("/memory/flush").json()["failed"] == []
    document = http.get("/memory/users/alice").json()
    contents = [f["content"] for f in document["facts"]]
    assert "Prefers window seats" in contents
    assert not any("Lisbon" in c for c in contents)
    history = http.get("/memory/users/alice/history").json()["supersededFacts"]
    assert any("Lisbon" in h["content"] and h["reason"] == "deleted by the user" for h in history)

    # The manual fact reaches the model's input in a new thread.
    context = turn(url, "alice", "Book me a flight.")["memory_context"]
    fact_lines = [line for line in context.splitlines() if line.startswith("- [")]
    assert any("Prefers window seats" in line for line in fact_lines)
    # (The offline extractor's summary may still say where she lives: summaries are not facts.)
    assert not any("Lisbon" in line for line in fact_lines)

    stale = http.post(
        "/memory/users/alice/facts",
        json={"content": "Likes tea", "revision": document["revision"] - 1},
    )
    assert stale.status_code == 409
    assert http.get("/memory/ui", params={"user": "alice"}).status_code == 200
    assert http.get("/memory/users/bob").json()["facts"] == []


def test_the_routes_use_the_servers_store_when_storage_is_store(tmp_path: Path) -> None:
    with langgraph_dev(tmp_path, storage="store", debounce_seconds="600") as (url, _):
        turn(url, "dora", "I'm vegetarian.")
        http = httpx.Client(base_url=url, timeout=30)
        assert http.post("/memory/flush").json()["done"] is True
        assert any(
            "vegetarian" in f["content"] for f in http.get("/memory/users/dora").json()["facts"]
        )
        assert (
            http.post("/memory/users/dora/facts", json={"content": "Speaks Dutch"}).status_code
            == 201
        )
        context = turn(url, "dora", "What should I cook?")["memory_context"]
        assert "Speaks Dutch" in context
        assert http.get("/memory/status").json()["backend"] == "store"
    assert not (tmp_path / "memory" / "users").exists()


AUTH = """
from langgraph_sdk import Auth

auth = Auth()
TOKENS = {"token-alice": "alice", "token-bob": "bob"}


@auth.authenticate
async def authenticate(authorization: str | None) -> str:
    token = (authorization or "").removeprefix("Bearer ").strip()
    if token not in TOKENS:
        raise Auth.exceptions.HTTPException(status_code=401, detail="unknown token")
    return TOKENS[token]
"""


def with_auth(project: Path) -> None:
    (project / "auth.py").write_text(AUTH, encoding="utf-8")
    config = json.loads((project / "langgraph.json").read_text("utf-8"))
    config["auth"] = {"path": "./auth.py:auth"}
    config["http"] = {**config["http"], "enable_custom_route_auth": True}
    (project / "langgraph.json").write_text(json.dumps(config), encoding="utf-8")


def test_with_langgraph_auth_a_caller_reaches_only_their_own_memory(tmp_path: Path) -> None:
    with langgraph_dev(tmp_path, prepare=with_auth, storage="file") as (url, _):
        alice = httpx.Client(base_url=url, headers={"Authorization": "Bearer token-alice"})
        bob = httpx.Client(base_url=url, headers={"Authorization": "Bearer token-bob"})
        anonymous = httpx.Client(base_url=url)

        assert (
            alice.post("/memory/users/alice/facts", json={"content": "Likes tea"}).status_code
            == 201
        )
        assert [f["content"] for f in alice.get("/memory/users/alice").json()["facts"]] == [
            "Likes tea"
        ]
        assert bob.get("/memory/users/alice").status_code == 403
        assert bob.delete("/memory/users/alice", params={"confirm": "alice"}).status_code == 403
        assert bob.post("/memory/users/alice/facts", json={"content": "x y"}).status_code == 403
        assert anonymous.get("/memory/users/alice").status_code in {401, 403}
        assert bob.get("/memory/users/bob").json()["facts"] == []
        # Alice's fact survived every refused call.
        assert len(alice.get("/memory/users/alice").json()["facts"]) == 1
