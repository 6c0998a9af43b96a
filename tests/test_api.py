"""The memory HTTP routes, in-process (Starlette's TestClient); langgraph dev runs are elsewhere."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from starlette.applications import Starlette
from starlette.authentication import AuthCredentials, AuthenticationBackend, SimpleUser
from starlette.requests import HTTPConnection
from starlette.testclient import TestClient

from deerflow_memory import Fact, MemoryConfig, MemoryDocument
from deerflow_memory.api import memory_routes
from deerflow_memory.api.errors import CORRUPT_MESSAGE
from deerflow_memory.errors import MissingDependencyError, ModelCallError
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.service import MemoryService
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.offline.extractor import OfflineExtractor

JSON = {"Content-Type": "application/json"}


def document(client: TestClient, user: str = "ana", **params: str) -> dict[str, Any]:
    response = client.get(f"/memory/users/{user}", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def add(client: TestClient, content: str, user: str = "ana", **body: Any) -> dict[str, Any]:
    response = client.post(f"/memory/users/{user}/facts", json={"content": content, **body})
    assert response.status_code == 201, response.text
    return response.json()


# --- facts -------------------------------------------------------------------------------


def test_a_posted_fact_is_stored_as_manual_and_returned_with_201(client: TestClient) -> None:
    added = add(client, "Prefers window seats", category="preference", confidence=0.9)
    assert added["fact"]["sourceType"] == "manual" and added["fact"]["confidence"] == 0.9
    facts = document(client)["facts"]
    assert [(f["content"], f["category"]) for f in facts] == [
        ("Prefers window seats", "preference")
    ]


def test_patch_changes_the_fact_and_keeps_the_old_wording_as_history(client: TestClient) -> None:
    fact_id = add(client, "Lives in Lisbon")["fact"]["id"]
    response = client.patch(
        f"/memory/users/ana/facts/{fact_id}", json={"content": "Lives in Porto"}
    )
    assert response.status_code == 200 and response.json()["fact"]["content"] == "Lives in Porto"
    history = client.get("/memory/users/ana/history").json()["supersededFacts"]
    assert (
        history[0]["content"] == "Lives in Lisbon" and history[0]["reason"] == "edited by the user"
    )


def test_patch_of_the_wording_dates_it_now_by_hand_and_history_keeps_the_old_date_and_thread(
    client: TestClient, service: MemoryService
) -> None:
    told = Fact(content="Lives in Lisbon", created_at="2026-07-12T09:00:00Z", source="t-july")
    service.storage.save("ana", None, MemoryDocument(facts=(told,)))
    edited = client.patch(f"/memory/users/ana/facts/{told.id}", json={"content": "Lives in Porto"})
    fact = edited.json()["fact"]
    assert fact["source"] == "manual" and not fact["createdAt"].startswith("2026-07-12")
    assert fact["createdAt"] == fact["lastConfirmedAt"]  # the moment of the edit
    (history,) = client.get("/memory/users/ana/history").json()["supersededFacts"]
    assert (history["createdAt"], history["source"]) == ("2026-07-12T09:00:00Z", "t-july")
    recategorised = client.patch(
        f"/memory/users/ana/facts/{told.id}", json={"category": "preference"}
    ).json()["fact"]
    assert (recategorised["createdAt"], recategorised["source"]) == (
        fact["createdAt"],
        "manual",
    )


def test_delete_moves_the_fact_to_history_deleted_by_the_user(client: TestClient) -> None:
    fact_id = add(client, "Has a dog")["fact"]["id"]
    response = client.delete(f"/memory/users/ana/facts/{fact_id}")
    assert response.status_code == 200
    assert document(client)["facts"] == []
    history = client.get("/memory/users/ana/history").json()["supersededFacts"]
    assert (history[0]["content"], history[0]["reason"]) == ("Has a dog", "deleted by the user")


def test_a_stale_revision_answers_409_and_writes_nothing(client: TestClient) -> None:
    first = add(client, "Likes tea")
    add(client, "Likes hiking")  # someone else moved the document on
    response = client.post(
        "/memory/users/ana/facts", json={"content": "Likes coffee", "revision": first["revision"]}
    )
    assert response.status_code == 409 and "reload" in response.json()["error"]
    stale = client.delete(
        f"/memory/users/ana/facts/{first['fact']['id']}", params={"revision": first["revision"]}
    )
    assert stale.status_code == 409
    assert sorted(f["content"] for f in document(client)["facts"]) == ["Likes hiking", "Likes tea"]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "words"),
    [
        ("post", "/memory/users/ana/facts", {"content": ""}, 422, "empty"),
        ("post", "/memory/users/ana/facts", {"content": "Fine", "category": "x"}, 422, "category"),
        ("post", "/memory/users/ana/facts", {"content": "Fine", "confidence": 7e9}, 422, "outside"),
        ("post", "/memory/users/ana/facts", {"content": "Fine", "colour": 1}, 422, "colour"),
        ("post", "/memory/users/ana/facts", {"category": "goal"}, 422, "content"),
        ("post", "/memory/users/a%01b/facts", {"content": "Fine"}, 400, "user_id"),
        ("patch", "/memory/users/ana/facts/fact_nope", {"content": "Fine"}, 404, "fact_nope"),
        ("patch", "/memory/users/ana/facts/fact_nope", {}, 422, "nothing to change"),
        ("delete", "/memory/users/ana/facts/fact_nope", None, 404, "no current fact"),
    ],
)
def test_bad_input_answers_4xx_with_one_message(
    client: TestClient, method: str, path: str, body: Any, status: int, words: str
) -> None:
    kwargs = {} if body is None else {"json": body}
    response = client.request(method.upper(), path, **kwargs)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert words in error and "\n" not in error


def test_a_body_that_is_not_json_answers_400(client: TestClient) -> None:
    response = client.post(
        "/memory/users/ana/facts", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400 and response.json() == {
        "error": "the request body must be JSON"
    }


def test_agent_parameter_selects_a_separate_document(client: TestClient) -> None:
    client.post("/memory/users/ana/facts", params={"agent": "coach"}, json={"content": "Runs 10k"})
    assert document(client)["facts"] == []
    assert [f["content"] for f in document(client, agent="coach")["facts"]] == ["Runs 10k"]
    bad = client.get("/memory/users/ana", params={"agent": "../x"})
    assert bad.status_code == 400


def test_a_corrupt_document_answers_a_stable_500_and_is_left_untouched(
    client: TestClient, tmp_path: Path
) -> None:
    add(client, "Likes tea")
    path = tmp_path / "memory" / "users" / "ana" / "memory.json"
    path.write_text("{ not json", encoding="utf-8")
    for attempt in (
        client.get("/memory/users/ana"),
        client.post("/memory/users/ana/facts", json={"content": "Likes coffee"}),
    ):
        assert attempt.status_code == 500
        assert attempt.json() == {"error": CORRUPT_MESSAGE}
    assert path.read_text(encoding="utf-8") == "{ not json"


# --- search, export, import, clear -----------------------------------------------------------


def test_search_uses_the_retrieval_ranking_and_includes_history(client: TestClient) -> None:
    add(client, "Is allergic to peanuts", category="context")
    add(client, "Works as a pilot")
    old = add(client, "Lives in Lisbon")["fact"]["id"]
    client.patch(f"/memory/users/ana/facts/{old}", json={"content": "Lives in Porto"})
    found = client.get("/memory/users/ana/search", params={"q": "peanut allergy snacks"}).json()
    assert [f["content"] for f in found["facts"]] == ["Is allergic to peanuts"]
    moved = client.get("/memory/users/ana/search", params={"q": "Lisbon"}).json()
    assert [f["content"] for f in moved["supersededFacts"]] == ["Lives in Lisbon"]


def test_export_then_import_into_another_user_round_trips(client: TestClient) -> None:
    add(client, "Speaks Portuguese")
    exported = client.get("/memory/users/ana/export")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["content-disposition"]
    imported = client.put("/memory/users/bea", content=exported.content, headers=JSON)
    assert imported.status_code == 200 and imported.json()["imported"] == 1
    assert [f["content"] for f in document(client, "bea")["facts"]] == ["Speaks Portuguese"]


def test_import_is_validated_and_never_replaces_facts_without_replace(client: TestClient) -> None:
    add(client, "Speaks Portuguese")
    bad = client.put("/memory/users/ana", content=b'{"facts": [{"confidence": 0.5}]}', headers=JSON)
    assert bad.status_code == 422 and "the request body" in bad.json()["error"]
    assert "\n" not in bad.json()["error"]
    incoming = MemoryDocument.model_validate({"facts": [{"content": "Speaks Korean"}]}).to_json()
    refused = client.put("/memory/users/ana", content=incoming, headers=JSON)
    assert refused.status_code == 409 and "replace=true" in refused.json()["error"]
    replaced = client.put(
        "/memory/users/ana", params={"replace": "true"}, content=incoming, headers=JSON
    )
    assert replaced.status_code == 200
    assert [f["content"] for f in document(client)["facts"]] == ["Speaks Korean"]


def test_deleting_a_user_needs_the_user_id_as_confirmation(client: TestClient) -> None:
    add(client, "Speaks Portuguese")
    refused = client.delete("/memory/users/ana")
    assert refused.status_code == 400 and "confirm" in refused.json()["error"]
    assert client.delete("/memory/users/ana", params={"confirm": "bea"}).status_code == 400
    assert document(client)["facts"] != []
    done = client.delete("/memory/users/ana", params={"confirm": "ana"})
    assert done.status_code == 200 and done.json() == {"deleted": True}
    assert document(client)["facts"] == []


# --- flush and status ------------------------------------------------------------------------


def enqueue(service: MemoryService, user: str, text: str, tenant: str | None = None) -> None:
    service.enqueue(
        MemoryIdentity(user, None, f"thread-{user}", tenant),
        [HumanMessage(text), AIMessage("Noted.")],
    )


def test_flush_runs_pending_updates_now(client: TestClient, service: MemoryService) -> None:
    enqueue(service, "ana", "I'm vegetarian.")
    assert client.get("/memory/status").json()["pending"] == 1
    response = client.post("/memory/flush", params={"timeout": "20"})
    assert response.status_code == 200
    assert response.json() == {"done": True, "pending": 0, "failed": []}
    assert any("vegetarian" in f["content"] for f in document(client)["facts"])


class FailingFor(OfflineExtractor):
    """The offline extractor, except that the model is 'down' for one user."""

    def extract(self, request: ExtractionRequest) -> Any:
        if any("boat" in str(m.content) for m in request.messages):
            raise ModelCallError("model endpoint refused the connection")
        return super().extract(request)


def test_flush_and_status_report_failed_updates(tmp_path: Path) -> None:
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=600, outbox=False)
    with (
        MemoryService(config, extractor=FailingFor(), register_atexit=False) as memory,
        TestClient(Starlette(routes=memory_routes(memory)), base_url="http://127.0.0.1") as client,
    ):
        enqueue(memory, "ana", "I own a boat.")
        enqueue(memory, "bea", "I'm vegetarian.")
        flushed = client.post("/memory/flush").json()
        assert flushed["done"] is True
        assert [(f["userId"], "ModelCallError" in f["error"]) for f in flushed["failed"]] == [
            ("ana", True)
        ]
        status = client.get("/memory/status").json()
        assert status["backend"] == "file" and status["pending"] == 0
        assert status["lastErrors"][0]["userId"] == "ana"
        # The failed update is kept as one dead letter for ana (bea succeeded), without messages.
        assert status["deadLetters"] == 1
        [letter] = status["deadLetterList"]
        assert letter["userId"] == "ana" and letter["error"].startswith("ModelCallError")
        assert "messages" not in letter


def test_flush_rejects_a_bad_timeout(client: TestClient) -> None:
    assert client.post("/memory/flush", params={"timeout": "soon"}).status_code == 400
    assert client.post("/memory/flush", params={"timeout": "9999"}).status_code == 400


# --- who may see what ------------------------------------------------------------------------


class HeaderAuth(AuthenticationBackend):
    """``Authorization: Bearer <user>``: the simplest stand-in for an app's auth."""

    async def authenticate(self, conn: HTTPConnection) -> Any:
        header = conn.headers.get("authorization", "")
        if not header.startswith("Bearer "):
            return None
        return AuthCredentials(["authenticated"]), SimpleUser(header.removeprefix("Bearer "))


def test_an_authenticated_caller_reaches_only_their_own_memory(
    auth_client: Callable[[AuthenticationBackend], TestClient],
) -> None:
    client = auth_client(HeaderAuth())
    as_ana = {"Authorization": "Bearer ana"}
    own = client.post("/memory/users/ana/facts", json={"content": "Likes tea"}, headers=as_ana)
    assert own.status_code == 201
    for method, path in [
        ("GET", "/memory/users/bea"),
        ("POST", "/memory/users/bea/facts"),
        ("DELETE", "/memory/users/bea?confirm=bea"),
        ("GET", "/memory/users/bea/export"),
    ]:
        response = client.request(method, path, json={"content": "x y"}, headers=as_ana)
        assert response.status_code == 403, (method, path)
    # Without authentication the routes are an operator's tool: every user is reachable.
    assert client.get("/memory/users/ana").json()["facts"][0]["content"] == "Likes tea"


def test_the_routes_need_starlette_and_say_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import deerflow_memory.api as api

    monkeypatch.setitem(sys.modules, "starlette", None)
    memory_routes = api.__getattr__("memory_routes")  # the name resolves (help, import *)
    with pytest.raises(MissingDependencyError, match=r'pip install "deerflow-memory\[api\]"'):
        memory_routes(None)


# --- the page ------------------------------------------------------------------------------


def test_the_page_names_the_user_and_loads_no_external_asset(client: TestClient) -> None:
    page = client.get("/memory/ui", params={"user": "ana@example.com", "agent": "coach"})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert 'data-user="ana@example.com" data-agent="coach"' in page.text
    # Names that could break out of the HTML never reach it.
    assert client.get("/memory/ui", params={"user": 'a"<b>'}).status_code == 400
    for external in ("http://", "https://", "//cdn", "src="):
        assert external not in page.text
    assert "innerHTML" not in page.text


def test_every_route_has_a_curl_example_in_the_readme(service: MemoryService) -> None:
    import re

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    examples = set()
    for line in readme.splitlines():
        match = re.match(r"curl (?:-X (\w+) )?\"?\$M(/[^\s\"?]*)", line)
        if match:
            path = re.sub(r"/(alice|bob)", "/{user_id}", match.group(2))
            path = re.sub(r"/fact_\w+", "/{fact_id}", path)
            examples.add((match.group(1) or "GET", "/memory" + path))
    routes = {
        (method, route.path)
        for route in memory_routes(service, ui=False)
        for method in route.methods - {"HEAD"}  # type: ignore[attr-defined]
    }
    assert routes <= examples, routes - examples


# --- tenants ---------------------------------------------------------------------------------


def test_every_route_takes_a_tenant_and_one_user_in_two_tenants_is_two_memories(
    client: TestClient, service: MemoryService
) -> None:
    response = client.post(
        "/memory/users/ana/facts", json={"content": "Likes green tea"}, params={"tenant": "shop"}
    )
    assert response.status_code == 201
    assert [f["content"] for f in document(client, tenant="shop")["facts"]] == ["Likes green tea"]
    assert document(client)["facts"] == [] and document(client, tenant="travel")["facts"] == []
    assert [f.content for f in service.for_tenant("shop").storage.load("ana").facts] == [
        "Likes green tea"
    ]
    found = client.get("/memory/users/ana/search", params={"q": "tea", "tenant": "shop"}).json()
    assert [f["content"] for f in found["facts"]] == ["Likes green tea"]
    assert client.get("/memory/users/ana/search", params={"q": "tea"}).json()["facts"] == []
    exported = client.get("/memory/users/ana/export", params={"tenant": "shop"}).text
    assert "Likes green tea" in exported
    put = client.put(
        "/memory/users/ana", content=exported, params={"tenant": "travel"}, headers=JSON
    )
    assert put.status_code == 200 and document(client, tenant="travel")["facts"]
    cleared = client.delete("/memory/users/ana", params={"confirm": "ana", "tenant": "shop"})
    assert cleared.json() == {"deleted": True}
    assert document(client, tenant="shop")["facts"] == [] and document(client, tenant="travel")
    page = client.get("/memory/ui", params={"user": "ana", "tenant": "shop"}).text
    assert 'data-tenant="shop"' in page
    for bad in ("../x", ".hidden", "a b"):
        response = client.get("/memory/users/ana", params={"tenant": bad})
        assert response.status_code == 400 and "tenant_id" in response.json()["error"]


def test_an_empty_tenant_parameter_is_no_tenant_on_every_route_as_httpx_sends_none(
    client: TestClient, service: MemoryService
) -> None:
    # httpx spells params={"tenant": None} as ?tenant= (requests drops it): no tenant.
    assert str(client.build_request("GET", "/x", params={"tenant": None}).url).endswith("?tenant=")
    added = client.post(
        "/memory/users/ana/facts", params={"tenant": None}, json={"content": "Likes tea"}
    )
    assert added.status_code == 201, added.text
    assert [f.content for f in service.storage.load("ana").facts] == ["Likes tea"]
    for path, query in (("/memory/users/ana", {}), ("/memory/users/ana/search", {"q": "tea"})):
        response = client.get(path, params={**query, "tenant": ""})
        assert response.status_code == 200 and response.json()["facts"], path
    assert client.get("/memory/status", params={"tenant": ""}).json()["tenant"] is None
    assert client.post("/memory/flush", params={"tenant": ""}).status_code == 200
    # The page's GET form submits its blank agent and tenant fields.
    page = client.get("/memory/ui", params={"user": "ana", "agent": "", "tenant": ""})
    assert page.status_code == 200 and 'data-tenant=""' in page.text
    # A tenant id itself is never empty, so "" names no tenant: one with a name is another.
    assert client.get("/memory/users/ana", params={"tenant": "shop"}).json()["facts"] == []


def test_flush_and_status_of_a_tenant_see_only_that_tenants_queue_and_failures(
    tmp_path: Path,
) -> None:
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=600)
    with (
        MemoryService(config, extractor=FailingFor(), register_atexit=False) as memory,
        TestClient(Starlette(routes=memory_routes(memory)), base_url="http://127.0.0.1") as client,
    ):
        enqueue(memory, "ana", "I own a boat.", tenant="shop")
        enqueue(memory, "bea", "I'm vegetarian.")
        assert client.get("/memory/status", params={"tenant": "shop"}).json()["pending"] == 1
        assert client.get("/memory/status").json()["pending"] == 1  # bea's, untenanted
        assert client.get("/memory/status", params={"tenant": "travel"}).json()["pending"] == 0
        flushed = client.post("/memory/flush", params={"tenant": "shop"}).json()
        assert [(f["userId"], f["tenantId"]) for f in flushed["failed"]] == [("ana", "shop")]
        assert client.get("/memory/status").json()["pending"] == 1  # the shop's flush only
        shop_status = client.get("/memory/status", params={"tenant": "shop"}).json()
        assert shop_status["tenant"] == "shop" and shop_status["deadLetters"] == 1
        assert shop_status["openTenants"] == ["shop"]  # "travel" was only asked about
        assert [e["tenantId"] for e in shop_status["lastErrors"]] == ["shop"]
        plain = client.get("/memory/status").json()
        assert plain["deadLetters"] == 0 and plain["lastErrors"] == []
        assert client.post("/memory/flush").json() == {"done": True, "pending": 0, "failed": []}


class TenantAuth(AuthenticationBackend):
    """``Authorization: Bearer <user>@<tenant>``: an app whose users belong to one tenant."""

    async def authenticate(self, conn: HTTPConnection) -> Any:
        header = conn.headers.get("authorization", "")
        if not header.startswith("Bearer "):
            return None
        name, _, tenant = header.removeprefix("Bearer ").partition("@")
        user = SimpleUser(name)
        user.tenant_id = tenant or None  # type: ignore[attr-defined]
        return AuthCredentials(["authenticated"]), user


def test_an_authenticated_caller_of_a_tenant_reaches_only_that_tenant(
    service: MemoryService, auth_client: Callable[[AuthenticationBackend], TestClient]
) -> None:
    client = auth_client(TenantAuth())
    as_ana_shop = {"Authorization": "Bearer ana@shop"}
    added = client.post(
        "/memory/users/ana/facts", json={"content": "Likes tea"}, headers=as_ana_shop
    )
    assert added.status_code == 201
    # Their tenant is the default; the fact went to the shop, not to the untenanted memory.
    assert service.for_tenant("shop").storage.load("ana").facts
    assert service.storage.load("ana").facts == ()
    other = client.get("/memory/users/ana", params={"tenant": "travel"}, headers=as_ana_shop)
    assert other.status_code == 403
    mine = client.get("/memory/users/ana", params={"tenant": "shop"}, headers=as_ana_shop)
    assert mine.json()["facts"][0]["content"] == "Likes tea"
    # The user id rule still holds inside the tenant.
    assert client.get("/memory/users/bea", headers=as_ana_shop).status_code == 403


def test_without_starlette_the_package_still_imports_whole() -> None:
    # `from deerflow_memory import *` and help() read every exported name.
    import subprocess

    code = (
        "import sys; sys.modules['starlette'] = None\n"
        "from deerflow_memory import *\n"
        "import deerflow_memory, pydoc\n"
        "pydoc.render_doc(deerflow_memory)\n"
        "print(hasattr(deerflow_memory, 'memory_routes'))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "True"
