"""Server hooks for ``langgraph dev`` / LangGraph Server (``http.app`` in ``langgraph.json``).

The server stops on SIGTERM without running ``atexit`` handlers, so pending
memory updates are flushed from its lifespan instead: on shutdown every open
``MemoryService`` of the process drains its queue (bounded by
``shutdown_flush_timeout_seconds``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette

from deerflow_memory.service import close_open_services


@asynccontextmanager
async def memory_lifespan(app: Starlette) -> AsyncIterator[None]:
    yield
    # Off the event loop: draining runs sync model calls and file writes.
    await asyncio.to_thread(close_open_services)


app = Starlette(lifespan=memory_lifespan)
