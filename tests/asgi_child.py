"""A Starlette app embedding a memory graph, served by uvicorn in the shutdown test.

``DFM_TEST_ROOT`` names the file storage. ``POST /turn`` with
``{"user": ..., "thread": ..., "text": ...}`` runs one graph turn; updates are
debounced for ten minutes, so only the lifespan's flush can save them.
"""

from __future__ import annotations

import os

from langgraph.checkpoint.memory import InMemorySaver
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from deerflow_memory import MemoryConfig, MemoryService, create_memory_agent, memory_lifespan

config = MemoryConfig(
    storage_path=os.environ["DFM_TEST_ROOT"], debounce_seconds=600, max_wait_seconds=600
)
memory = MemoryService(config)
graph = create_memory_agent(service=memory, checkpointer=InMemorySaver())


async def turn(request: Request) -> JSONResponse:
    body = await request.json()
    await graph.ainvoke(
        {"messages": [("user", body["text"])]},
        {"configurable": {"user_id": body["user"], "thread_id": body["thread"]}},
    )
    return JSONResponse({"pending": memory.queue.pending_count})


app = Starlette(routes=[Route("/turn", turn, methods=["POST"])], lifespan=memory_lifespan)
