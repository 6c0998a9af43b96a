"""The ``create_agent`` graph with ``MemoryMiddleware`` served by the real ``langgraph dev``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.test_langgraph_dev import langgraph_dev

pytestmark = pytest.mark.slow
langgraph_sdk = pytest.importorskip("langgraph_sdk")
pytest.importorskip("langchain.agents")


def test_the_middleware_agent_remembers_across_threads_under_langgraph_dev(
    tmp_path: Path,
) -> None:
    with langgraph_dev(tmp_path, storage="file", debounce_seconds="0.2") as (url, _):

        async def scenario() -> tuple[str, str]:
            client = langgraph_sdk.get_client(url=url)
            config = {"configurable": {"user_id": "ines"}}
            first = await client.threads.create()
            await client.runs.wait(
                first["thread_id"],
                "middleware_agent",
                input={"messages": [{"role": "user", "content": "I'm allergic to walnuts."}]},
                config=config,
            )
            reply = ""
            for _ in range(20):  # the update runs after a short debounce on the server
                second = await client.threads.create()
                state = await client.runs.wait(
                    second["thread_id"],
                    "middleware_agent",
                    input={"messages": [{"role": "user", "content": "Plan my lunch."}]},
                    config=config,
                )
                assert isinstance(state, dict)
                reply = state["messages"][-1]["content"]
                if "walnut" in reply:
                    break
                await asyncio.sleep(0.5)
            persisted = "".join(str(m["content"]) for m in state["messages"])
            return reply, persisted

        reply, persisted = asyncio.run(scenario())
    assert "walnut" in reply  # the stand-in model reports the memory it was given
    assert "<user_memory>" not in persisted
    assert (tmp_path / "memory" / "users" / "ines" / "memory.json").exists()
