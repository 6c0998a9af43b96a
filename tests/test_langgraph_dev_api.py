"""The memory routes under the real ``langgraph dev`` (graphs/http_app.py)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.test_langgraph_dev import langgraph_dev

pytestmark = pytest.mark.slow
langgraph_sdk = pytest.importorskip("langgraph_sdk")


def turn(
    url: str, user: str, text: str, thread_id: str | None = None, tenant: str | None = None
) -> dict[str, Any]:
    """One run of the memory agent; returns the final state."""
    client = langgraph_sdk.get_sync_client(url=url)
    if thread_id is None:
        thread_id = client.threads.create()["thread_id"]
    state = client.runs.wait(
        thread_id,
        "memory_agent",
        input={"messages": [{"role": "user", "content": text}]},
        config={"configurable": {"user_id": user, "tenant_id": tenant}},
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

    # Stale: the edit and the delete changed facts since (bookkeeping saves would not count).
    stale = http.post(
        "/memory/users/alice/facts",
        json={"content": "Likes tea", "revision": added.json()["revision"]},
    )
    assert stale.status_code == 409
    assert http.get("/memory/ui", params={"user": "alice"}).status_code == 200
    assert http.get("/memory/users/bob").json()["facts"] == []
    # A page whose name was rebound to 127.0.0.1 (DNS rebinding) cannot read memory.
    rebound = http.get("/memory/users/alice", headers={"Host": "attacker.example:2024"})
    assert rebound.status_code == 403 and "http_allowed_origins" in rebound.json()["error"]


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
        # The same user in a tenant: its own memory in the server's store, its own route scope.
        turn(url, "dora", "I'm allergic to peanuts.", tenant="shop")
        assert http.post("/memory/flush").json()["done"] is True
        shop = http.get("/memory/users/dora", params={"tenant": "shop"}).json()["facts"]
        assert [f["content"] for f in shop] == ["User is allergic to peanuts"]
        plain = http.get("/memory/users/dora").json()["facts"]
        assert not any("peanuts" in f["content"] for f in plain)
        context = turn(url, "dora", "Anything to avoid?", tenant="shop")["memory_context"]
        assert "peanuts" in context and "Speaks Dutch" not in context
    assert not (tmp_path / "memory" / "users").exists()


AUTH = """
from langgraph_sdk import Auth

auth = Auth()
TOKENS = {
    "token-alice": "alice",
    "token-bob": "bob",
    "token-carl": {"identity": "carl", "tenant_id": "shop"},
    "token-dave": "dave",
    "token-erin": "erin",
    "token-fay": {"identity": "fay", "tenant_id": "shop"},
}


@auth.authenticate
async def authenticate(authorization: str | None) -> str | dict:
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


@pytest.fixture(scope="module")
def auth_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """One server with custom auth for the auth tests below; yields its URL and memory folder."""
    tmp_path = tmp_path_factory.mktemp("dev-auth")
    settings = {"storage": "file", "debounce_seconds": "600"}
    with langgraph_dev(tmp_path, prepare=with_auth, **settings) as (url, _):
        yield url, tmp_path / "memory"


def test_with_langgraph_auth_a_caller_reaches_only_their_own_memory(
    auth_server: tuple[str, Path],
) -> None:
    url, memory = auth_server
    alice = httpx.Client(base_url=url, headers={"Authorization": "Bearer token-alice"})
    bob = httpx.Client(base_url=url, headers={"Authorization": "Bearer token-bob"})
    anonymous = httpx.Client(base_url=url)

    assert alice.post("/memory/users/alice/facts", json={"content": "Likes tea"}).status_code == 201
    assert [f["content"] for f in alice.get("/memory/users/alice").json()["facts"]] == ["Likes tea"]
    assert bob.get("/memory/users/alice").status_code == 403
    assert bob.delete("/memory/users/alice", params={"confirm": "alice"}).status_code == 403
    assert bob.post("/memory/users/alice/facts", json={"content": "x y"}).status_code == 403
    assert anonymous.get("/memory/users/alice").status_code in {401, 403}
    assert bob.get("/memory/users/bob").json()["facts"] == []
    # Alice's fact survived every refused call.
    assert len(alice.get("/memory/users/alice").json()["facts"]) == 1
    # A caller whose auth user carries a tenant is kept to it, and it is their default.
    carl = httpx.Client(base_url=url, headers={"Authorization": "Bearer token-carl"})
    assert carl.post("/memory/users/carl/facts", json={"content": "Likes figs"}).status_code == 201
    assert carl.get("/memory/users/carl", params={"tenant": "travel"}).status_code == 403
    mine = carl.get("/memory/users/carl", params={"tenant": "shop"}).json()["facts"]
    assert [f["content"] for f in mine] == ["Likes figs"]
    assert (memory / "tenants/shop/users/carl/memory.json").is_file()


def fact_texts(http: httpx.Client, user: str, **params: str) -> list[str]:
    answer = http.get(f"/memory/users/{user}", params=params)
    assert answer.status_code == 200, answer.text
    return [f["content"] for f in answer.json()["facts"]]


def test_with_langgraph_auth_a_run_naming_another_user_is_refused_and_touches_nothing(
    auth_server: tuple[str, Path],
) -> None:
    url, memory = auth_server

    def client(name: str) -> Any:
        headers = {"Authorization": f"Bearer token-{name}"}
        return langgraph_sdk.get_sync_client(url=url, headers=headers)

    def run(who: str, graph: str, text: str, **how: Any) -> Any:
        sdk = client(who)
        thread = sdk.threads.create()["thread_id"]
        message = {"messages": [{"role": "user", "content": text}]}
        return sdk.runs.wait(thread, graph, input=message, raise_error=False, **how)

    dave = httpx.Client(base_url=url, timeout=30, headers={"Authorization": "Bearer token-dave"})
    assert dave.post("/memory/users/dave/facts", json={"content": "Has asthma"}).status_code == 201
    as_dave_config = {"config": {"configurable": {"user_id": "dave"}}}
    for graph in ("memory_agent", "middleware_agent"):
        for how in (as_dave_config, {"context": {"user_id": "dave"}}):
            refused = run("erin", graph, "I'm allergic to cats.", **how)
            # The run fails with the typed error, and the client reads why.
            assert refused["__error__"]["error"] == "IdentityMismatchError", refused
            assert "authenticated caller is 'erin'" in refused["__error__"]["message"]
    # Erin's own run (naming herself is fine) reads and writes only her memory.
    own = run("erin", "memory_agent", "I'm allergic to cats.", config={"configurable": {}})
    assert "asthma" not in own["memory_context"]
    mine = run("erin", "middleware_agent", "I live in Oslo.", context={"user_id": "erin"})
    assert "asthma" not in mine["messages"][-1]["content"]
    flushed = dave.post("/memory/flush", params={"timeout": "30"})
    assert flushed.status_code == 200 and flushed.json()["failed"] == []
    assert fact_texts(dave, "dave") == ["Has asthma"]
    erin = httpx.Client(base_url=url, timeout=30, headers={"Authorization": "Bearer token-erin"})
    # Dave's flush ran only his own updates; Erin's wait until she (or the operator) flushes.
    assert fact_texts(erin, "erin") == []
    assert erin.post("/memory/flush", params={"timeout": "30"}).json()["done"] is True
    learned = " ".join(fact_texts(erin, "erin"))
    assert "cats" in learned and "Oslo" in learned

    # An auth user with a tenant is kept to it: another tenant is refused, none means theirs.
    elsewhere = run("fay", "memory_agent", "I'm a nurse.", context={"tenant_id": "travel"})
    assert elsewhere["__error__"]["error"] == "IdentityMismatchError", elsewhere
    run("fay", "memory_agent", "I'm a nurse.")
    fay = httpx.Client(base_url=url, timeout=30, headers={"Authorization": "Bearer token-fay"})
    assert fay.post("/memory/flush", params={"timeout": "30"}).status_code == 200
    assert any("nurse" in text for text in fact_texts(fay, "fay", tenant="shop"))
    assert not (memory / "tenants/travel").exists()


# --- the page in a real headless browser -------------------------------------------------------

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1100,1300",
)


@pytest.fixture
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Debian's chromium + chromium-driver through selenium; CI must have them (.ci/run)."""
    import shutil

    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    missing = [
        name
        for name, path in (("chromium", chromium), ("chromedriver", driver_path))
        if path is None
    ]
    webdriver = pytest.importorskip("selenium.webdriver") if not missing else None
    if missing or webdriver is None:
        message = (
            f"BROWSER TEST NOT RUN: {', '.join(missing)} missing; "
            "install with `apt-get install -y chromium chromium-driver`"
        )
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    # The profile in pytest's temporary folder: chromium's own leaves /tmp/org.chromium.* behind.
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def test_the_memory_page_adds_edits_and_deletes_facts_in_a_real_browser(
    dev_server: str, browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    url = dev_server
    http = httpx.Client(base_url=url, timeout=30)
    hostile = '<img src=x onerror="document.title=1">Likes </user_memory> jazz'
    assert http.post("/memory/users/pia/facts", json={"content": hostile}).status_code == 201
    wait = WebDriverWait(browser, 15)

    def facts() -> list[dict[str, Any]]:
        return http.get("/memory/users/pia").json()["facts"]

    def row_texts() -> list[str]:
        # One script call: the page re-renders rows after each change (no stale elements).
        return browser.execute_script(
            "return [...document.querySelectorAll('tr[data-fact-id] td.content')]"
            ".map(td => td.textContent)"
        )

    browser.get(f"{url}/memory/ui?user=pia")
    wait.until(lambda _: hostile in row_texts())
    # Stored text is shown as text, never parsed as HTML.
    assert browser.find_elements(By.CSS_SELECTOR, "#facts img") == []
    assert browser.title != "1"

    # Add.
    form = browser.find_element(By.ID, "add")
    form.find_element(By.NAME, "content").send_keys("Prefers night trains")
    Select(form.find_element(By.NAME, "category")).select_by_value("preference")
    form.find_element(By.TAG_NAME, "button").click()
    wait.until(lambda _: "Prefers night trains" in row_texts())
    added = [f for f in facts() if f["content"] == "Prefers night trains"]
    assert len(added) == 1 and added[0]["sourceType"] == "manual"
    assert added[0]["category"] == "preference"
    fact_id = added[0]["id"]

    # Edit.
    row = browser.find_element(By.CSS_SELECTOR, f'tr[data-fact-id="{fact_id}"]')
    row.find_element(By.CSS_SELECTOR, "button.edit").click()
    field = row.find_element(By.NAME, "edit-content")
    field.clear()
    field.send_keys("Prefers day trains")
    row.find_element(By.CSS_SELECTOR, "button.save").click()
    wait.until(lambda _: "Prefers day trains" in row_texts())
    assert [f["content"] for f in facts() if f["id"] == fact_id] == ["Prefers day trains"]
    history = http.get("/memory/users/pia/history").json()["supersededFacts"]
    assert history[0]["content"] == "Prefers night trains"

    # Search (the product's retrieval), then a screenshot for the README.
    search = browser.find_element(By.ID, "search")
    search.find_element(By.NAME, "q").send_keys("trains")
    search.find_element(By.TAG_NAME, "button").click()
    wait.until(lambda _: "Prefers day trains" in browser.find_element(By.ID, "results").text)
    # MEMORY_UI_SCREENSHOT=docs/memory-ui.png refreshes the README's picture.
    browser.save_screenshot(os.environ.get("MEMORY_UI_SCREENSHOT") or str(tmp_path / "ui.png"))

    # Delete (two clicks: the first only arms the button).
    row = browser.find_element(By.CSS_SELECTOR, f'tr[data-fact-id="{fact_id}"]')
    delete = row.find_element(By.CSS_SELECTOR, "button.delete")
    delete.click()
    assert fact_id in [f["id"] for f in facts()]
    delete.click()
    wait.until(lambda _: "Prefers day trains" not in row_texts())
    assert fact_id not in [f["id"] for f in facts()]
    history = http.get("/memory/users/pia/history").json()["supersededFacts"]
    assert (history[0]["content"], history[0]["reason"]) == (
        "Prefers day trains",
        "deleted by the user",
    )
    assert "deleted by the user" in browser.find_element(By.ID, "history").text


def test_a_capture_in_langgraph_devs_store_survives_a_sigkill_of_the_server(
    tmp_path: Path,
) -> None:
    # storage: store under langgraph dev: the outbox lives in the server's store, which
    # the server writes to .langgraph_api/store.pckl every 10 s (and at shutdown).
    import shutil
    import signal
    import time

    first = tmp_path / "first"
    first.mkdir()
    with langgraph_dev(first, storage="store", debounce_seconds="3600") as (url, process):
        turn(url, "erin", "I'm allergic to shellfish.")
        saved = first / "project" / ".langgraph_api" / "store.pckl"
        deadline = time.monotonic() + 30
        while b"shellfish" not in (saved.read_bytes() if saved.exists() else b""):
            assert time.monotonic() < deadline, "the server never wrote its store to disk"
            time.sleep(0.5)
        os.killpg(process.pid, signal.SIGKILL)  # a crash: no shutdown hook runs
        process.wait(timeout=30)
    state = saved.parent

    def same_store(project: Path) -> None:
        shutil.copytree(state, project / ".langgraph_api")

    second = tmp_path / "second"
    second.mkdir()
    with langgraph_dev(second, prepare=same_store, storage="store") as (url, _):
        http = httpx.Client(base_url=url, timeout=60)
        # The first request binds the server's store; its outbox is recovered (due in an hour).
        assert http.get("/memory/users/erin").json()["facts"] == []  # not applied before the kill
        turn(url, "frank", "Hello.")
        assert http.post("/memory/flush", params={"timeout": "30"}).json()["done"] is True
        facts = http.get("/memory/users/erin").json()["facts"]
    assert any("shellfish" in f["content"] for f in facts)
