"""A page whose name is re-pointed at 127.0.0.1 (DNS rebinding) can neither read nor change memory.

The attacker's page at ``http://attacker.example:2024`` rebinds its name to
127.0.0.1: the browser then treats the memory server as the page's own origin
and sends ``Host: attacker.example:2024`` with a matching ``Origin``. Every
memory route checks ``Host`` first: IP addresses, ``localhost`` and the hosts of
``http_allowed_origins`` only.
"""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

REBOUND = {"Host": "attacker.example:2024", "Origin": "http://attacker.example:2024"}


def facts(client: TestClient, user: str = "bob") -> list[str]:
    return [f["content"] for f in client.get(f"/memory/users/{user}").json()["facts"]]


def test_a_rebound_page_cannot_read_any_users_memory(make_client: Any) -> None:
    client = make_client()
    assert client.post("/memory/users/bob/facts", json={"content": "Lives in Oslo"}).is_success
    reads = [
        client.get("/memory/users/bob", headers=REBOUND),
        client.get("/memory/users/bob/history", headers=REBOUND),
        client.get("/memory/users/bob/search", params={"q": "Oslo"}, headers=REBOUND),
        client.get("/memory/users/bob/export", headers=REBOUND),
        client.get("/memory/status", headers=REBOUND),
        client.get("/memory/ui", params={"user": "bob"}, headers=REBOUND),
    ]
    assert [r.status_code for r in reads] == [403] * len(reads)
    for answer in reads:
        error = answer.json()["error"]
        assert "attacker.example" in error and "http_allowed_origins" in error
        assert "Oslo" not in answer.text


def test_a_rebound_page_cannot_add_a_fact_or_delete_a_user(make_client: Any) -> None:
    client = make_client()
    assert client.post("/memory/users/bob/facts", json={"content": "Lives in Oslo"}).is_success
    added = client.post(
        "/memory/users/bob/facts", json={"content": "Trusts attacker.example"}, headers=REBOUND
    )
    deleted = client.delete("/memory/users/bob", params={"confirm": "bob"}, headers=REBOUND)
    flushed = client.post("/memory/flush", headers=REBOUND)
    assert [added.status_code, deleted.status_code, flushed.status_code] == [403, 403, 403]
    assert "http_allowed_origins" in deleted.json()["error"]
    assert facts(client) == ["Lives in Oslo"]


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1:2024",
        "localhost:2024",
        "LocalHost",
        "localhost.",
        "app.localhost:3000",
        "[::1]:2024",
        "192.168.1.20:2024",
        "10.0.0.5",
    ],
)
def test_loopback_names_and_ip_addresses_may_read_and_write(make_client: Any, host: str) -> None:
    client = make_client()
    own = {"Host": host, "Origin": f"http://{host}"}
    added = client.post("/memory/users/bob/facts", json={"content": "Owns a boat"}, headers=own)
    assert added.status_code == 201, added.text
    read = client.get("/memory/users/bob", headers={"Host": host})
    assert read.status_code == 200 and read.json()["facts"][0]["content"] == "Owns a boat"


def test_the_hosts_of_http_allowed_origins_may_read_and_write(make_client: Any) -> None:
    client = make_client(http_allowed_origins=["https://Memory.Example.com"])
    public = {"Host": "memory.example.com", "Origin": "https://memory.example.com"}
    added = client.post("/memory/users/bob/facts", json={"content": "Owns a boat"}, headers=public)
    assert added.status_code == 201, added.text
    assert client.get("/memory/users/bob", headers={"Host": "memory.example.com"}).is_success
    other = client.get("/memory/users/bob", headers={"Host": "other.example.com"})
    assert other.status_code == 403 and "'https://other.example.com'" in other.json()["error"]


@pytest.mark.parametrize(
    "host", ["attacker@127.0.0.1", "127.0.0.1/x", "127.0.0.1.nip.io", "[::1", "evil example"]
)
def test_a_host_that_is_not_a_plain_name_or_address_is_refused(make_client: Any, host: str) -> None:
    answer = make_client().get("/memory/users/bob", headers={"Host": host})
    assert answer.status_code == 403 and "http_allowed_origins" in answer.json()["error"]
