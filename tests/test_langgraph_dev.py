"""Smoke test of the real ``langgraph dev`` server serving graphs/memory_agent.py (offline)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow

langgraph_sdk = pytest.importorskip("langgraph_sdk")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_ok(url: str, process: subprocess.Popen[bytes], timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"langgraph dev exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/ok", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"langgraph dev did not answer on {url}/ok within {timeout} s")


@contextlib.contextmanager
def langgraph_dev(
    tmp_path: Path, prepare: Callable[[Path], None] | None = None, **settings: str
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Run ``langgraph dev`` on a copy of the project; yields its URL and process.

    ``prepare(project_folder)`` may change the copy (e.g. add auth) before the start.
    """
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(ROOT / "langgraph.json", project)
    shutil.copytree(ROOT / "graphs", project / "graphs")
    if prepare is not None:
        prepare(project)
    langgraph = Path(sys.executable).with_name("langgraph")
    port = free_port()
    env = {
        **{
            k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DEERFLOW_MEMORY_"))
        },
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "1",
        "DEERFLOW_MEMORY_STORAGE_PATH": str(tmp_path / "memory"),
        **{f"DEERFLOW_MEMORY_{k.upper()}": v for k, v in settings.items()},
    }
    log_path = tmp_path / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                str(langgraph),
                "dev",
                "--no-browser",
                "--no-reload",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            cwd=project,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_ok(url, process)
            yield url, process
        except Exception:
            print(log_path.read_text(errors="replace")[-5000:])
            raise
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@pytest.fixture(params=["file", "store"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str, Path]]:
    """Yields the URL, the storage mode, and the folder file storage would write to."""
    with langgraph_dev(tmp_path, storage=request.param, debounce_seconds="0.2") as (url, _):
        yield url, request.param, tmp_path / "memory"


def test_langgraph_dev_carries_a_fact_from_one_thread_to_another(
    server: tuple[str, str, Path],
) -> None:
    url, storage, folder = server

    async def scenario() -> str:
        client = langgraph_sdk.get_client(url=url)
        config = {"configurable": {"user_id": "alice@example.com"}}
        first = await client.threads.create()
        await client.runs.wait(
            first["thread_id"],
            "memory_agent",
            input={
                "messages": [
                    {"role": "user", "content": "I'm allergic to peanuts and I live in Lisbon."}
                ]
            },
            config=config,
        )
        context = ""
        for _ in range(20):  # the update runs on the server's worker threads after a short debounce
            second = await client.threads.create()
            state = await client.runs.wait(
                second["thread_id"],
                "memory_agent",
                input={"messages": [{"role": "user", "content": "Suggest a dinner place."}]},
                config=config,
            )
            assert isinstance(state, dict)
            context = state.get("memory_context", "")
            if "peanut" in context:
                break
            await asyncio.sleep(0.5)
        other = await client.threads.create()
        stranger = await client.runs.wait(
            other["thread_id"],
            "memory_agent",
            input={"messages": [{"role": "user", "content": "Hi"}]},
            config={"configurable": {"user_id": "bob"}},
        )
        assert isinstance(stranger, dict)
        assert "peanut" not in stranger.get("memory_context", "")
        # No user_id at all: the server fills an anonymous "" that means "default".
        anonymous = await client.runs.wait(
            (await client.threads.create())["thread_id"],
            "memory_agent",
            input={"messages": [{"role": "user", "content": "Hi"}]},
        )
        assert isinstance(anonymous, dict) and "__error__" not in anonymous, anonymous
        assert "peanut" not in anonymous.get("memory_context", "")
        return context

    context = asyncio.run(scenario())
    assert "peanut" in context and "Lisbon" in context
    # The memory lives where the config says: the server's store, or files.
    written = (folder / "users" / "alice@example.com" / "memory.json").exists()
    assert written == (storage == "file")


def test_stopping_langgraph_dev_flushes_pending_updates(tmp_path: Path) -> None:
    with langgraph_dev(tmp_path, storage="file", debounce_seconds="600") as (url, process):

        async def one_turn() -> None:
            client = langgraph_sdk.get_client(url=url)
            thread = await client.threads.create()
            await client.runs.wait(
                thread["thread_id"],
                "memory_agent",
                input={"messages": [{"role": "user", "content": "I'm vegetarian."}]},
                config={"configurable": {"user_id": "carol"}},
            )

        asyncio.run(one_turn())
        stored = tmp_path / "memory" / "users" / "carol" / "memory.json"
        assert not stored.exists()  # the 10-minute debounce has not run it
        os.killpg(process.pid, signal.SIGTERM)  # what Ctrl-C / a service manager does
        process.wait(timeout=60)
    facts = json.loads(stored.read_text("utf-8"))["facts"]
    assert any("vegetarian" in fact["content"] for fact in facts)


def test_studio_reads_every_assistant_schema_and_the_input_asks_only_for_messages(
    tmp_path: Path,
) -> None:
    with langgraph_dev(tmp_path, storage="file") as (url, _):

        def get_json(path: str, body: bytes | None = None) -> object:
            request = urllib.request.Request(
                f"{url}{path}", data=body, headers={"Content-Type": "application/json"}
            )
            with urllib.request.urlopen(request, timeout=30) as response:
                assert response.status == 200
                return json.loads(response.read())

        assistants = get_json("/assistants/search", b'{"limit": 10}')
        assert isinstance(assistants, list)
        by_graph = {a["graph_id"]: a["assistant_id"] for a in assistants}
        schemas = get_json(f"/assistants/{by_graph['memory_agent']}/schemas")
        assert isinstance(schemas, dict)
        assert list(schemas["input_schema"]["properties"]) == ["messages"]
        assert "memory_context" in schemas["output_schema"]["properties"]
        context = schemas["context_schema"]["properties"]
        assert {"user_id", "agent_name", "tenant_id"} <= set(context)
        # The middleware graph's schemas must be readable too (Studio opens every graph).
        assert get_json(f"/assistants/{by_graph['middleware_agent']}/schemas")
