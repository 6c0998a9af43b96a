"""HTTP access to memory: JSON routes and a small page, for any Starlette or FastAPI app.

``memory_routes(service)`` (see :mod:`deerflow_memory.api.routes`) needs
Starlette: ``pip install "deerflow-memory[api]"`` (``langgraph dev`` already
brings it). Without it, calling ``memory_routes`` raises
:class:`~deerflow_memory.errors.MissingDependencyError` with that command.

Modules: ``routes`` (the routes and the one error handler), ``errors`` (error →
status code), ``guard`` (cross-site write checks), ``page`` (the HTML page at
``/memory/ui``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from deerflow_memory.errors import MissingDependencyError, install_hint

__all__ = ["memory_routes"]

INSTALL_HINT = install_hint("api")

if TYPE_CHECKING:
    from deerflow_memory.api.routes import memory_routes


def __getattr__(name: str) -> Any:
    if name != "memory_routes":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        import starlette  # noqa: F401
    except ImportError:
        # The name still resolves (``help()``, ``from deerflow_memory import *``,
        # ``hasattr``): the call says what to install.
        return _memory_routes_without_starlette
    from deerflow_memory.api.routes import memory_routes

    return memory_routes


def _memory_routes_without_starlette(*args: Any, **kwargs: Any) -> Any:
    """``memory_routes`` where Starlette is not installed.

    Raises:
        MissingDependencyError: always, with the command that installs it.
    """
    raise MissingDependencyError(f"the memory HTTP routes need Starlette: {INSTALL_HINT}")
