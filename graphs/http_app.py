"""Server hooks for ``langgraph dev`` / LangGraph Server (``http.app`` in ``langgraph.json``).

The memory routes (``/memory/...``, the page at ``/memory/ui``; see
``deerflow_memory.api``) are served next to the LangGraph API over the
process's one service (``graphs/server_memory.py``).

The server stops on SIGTERM without running ``atexit`` handlers, so pending
memory updates are flushed from its lifespan instead: on shutdown every open
``MemoryService`` of the process drains its queue (bounded by
``shutdown_flush_timeout_seconds``) with :func:`deerflow_memory.memory_lifespan`,
the same helper any Starlette/FastAPI app can use; what does not finish stays
in the outbox for the next start.
"""

from __future__ import annotations

from starlette.applications import Starlette

from deerflow_memory.api import memory_routes
from deerflow_memory.lifecycle import memory_lifespan
from graphs.server_memory import memory

app = Starlette(routes=memory_routes(memory), lifespan=memory_lifespan)
