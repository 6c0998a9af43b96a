"""Smoke test of the real ``langgraph dev`` server serving graphs/memory_agent.py (offline)."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
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


@pytest.fixture(params=["file", "store"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(ROOT / "langgraph.json", project)
    shutil.copytree(ROOT / "graphs", project / "graphs")
    langgraph = Path(sys.executable).with_name("langgraph")
    port = free_port()
    env = {
        **{
            k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "DEERFLOW_MEMORY_"))
        },
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "1",
        "DEERFLOW_MEMORY_STORAGE": request.param,
        "DEERFLOW_MEMORY_STORAGE_PATH": str(tmp_path / "memory"),
        "DEERFLOW_MEMORY_DEBOUNCE_SECONDS": "0.2",
    }
    log = (tmp_path / "server.log").open("wb")
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
        yield url
    except Exception:
        print((tmp_path / "server.log").read_text(errors="replace")[-5000:])
        raise
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def test_langgraph_dev_carries_a_fact_from_one_thread_to_another(server: str) -> None:
    async def scenario() -> str:
        client = langgraph_sdk.get_client(url=server)
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
        return context

    context = asyncio.run(scenario())
    assert "peanut" in context and "Lisbon" in context
