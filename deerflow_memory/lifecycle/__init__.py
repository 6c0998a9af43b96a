"""Shutdown helpers: flush memory updates when a server or a plain process stops.

- :func:`memory_lifespan` — an ASGI lifespan (Starlette, FastAPI, LangGraph
  Server's ``http.app``) that drains open services on shutdown.
- :func:`install_shutdown_handler` — a SIGTERM/SIGINT handler for plain processes.
"""

from deerflow_memory.lifecycle.shutdown import (
    install_shutdown_handler,
    lifespan_for,
    memory_lifespan,
)

__all__ = ["install_shutdown_handler", "lifespan_for", "memory_lifespan"]
