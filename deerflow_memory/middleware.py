"""``MemoryMiddleware``: the same memory for agents built with LangChain's ``create_agent``.

A second door to :class:`~deerflow_memory.service.MemoryService`, beside the
graph nodes, with the same paths (:func:`~deerflow_memory.nodes.inject_turn`,
:func:`~deerflow_memory.nodes.capture_turn`) and so the same escaping, budget,
relevant mode, identity rules and stream events:

- **inject** (``wrap_model_call``): before every model call the memory block
  is appended to the request's system message. It reaches the model's input
  only; the thread's messages never hold it.
- **capture** (``after_agent``): once per turn, after the agent's last reply,
  however many tool calls the turn made; never waits for the memory model.
- **summarization flush** (``before_model`` + ``wrap_model_call``): when
  LangChain's ``SummarizationMiddleware`` removes messages, they are queued
  for an immediate update before the model is called (the seed's
  summarization hook). This needs ``MemoryMiddleware`` listed *before*
  ``SummarizationMiddleware``: its ``before_model`` then sees the history
  before the summary replaced it, and its ``wrap_model_call`` (which runs after
  every ``before_model``) sees what was removed. The user's words a summary
  removes before any reply to them exists (in the middle of a tool loop) go
  to the turn's capture instead. LangChain's summary message itself
  (``lc_source``) is not the user's words and is never captured.

How it fails: like the nodes. A storage error while injecting is logged and
reported in the ``memory_injection`` event, and the model is called without
memory; a failing embedder is reported there too and memory is ranked
lexically; capture never raises because of an update. Without ``langchain``
installed, using ``MemoryMiddleware`` raises
:class:`~deerflow_memory.errors.MissingDependencyError` naming the extra.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any

from langchain_core.messages import BaseMessage, SystemMessage
from langgraph.config import get_config
from langgraph.runtime import Runtime

from deerflow_memory.arguments import expect
from deerflow_memory.config import MemoryConfig
from deerflow_memory.errors import ConfigError, MissingDependencyError, install_hint
from deerflow_memory.identity import MemoryIdentity, resolve_identity
from deerflow_memory.nodes import capture_turn, flush_removed, inject_turn, state_messages
from deerflow_memory.service import MemoryService

try:
    from langchain.agents.middleware import AgentMiddleware, AgentState, ModelRequest
    from langchain.agents.middleware.types import ModelResponse
except ImportError as e:  # pragma: no cover - exercised by a subprocess test
    raise MissingDependencyError(
        f"MemoryMiddleware needs LangChain's agents: {install_hint('langchain')}"
    ) from e

__all__ = ["MemoryMiddleware"]

# Threads whose pre-summarization history is remembered between before_model and the
# model call, keyed by the whole identity (tenant included: two tenants may both have
# a user "ana" in a thread "main"); a run removes its entry at the model call, so this
# only bounds leaks.
_MAX_PENDING_HISTORIES = 1024


def _identity(runtime: Runtime[Any]) -> MemoryIdentity:
    # Middleware hooks receive no RunnableConfig; the run's config is in a context variable.
    return resolve_identity(get_config(), runtime.context)


def _with_memory(request: ModelRequest[Any], context: str) -> ModelRequest[Any]:
    """The request with ``context`` appended to its system message (a copy; nothing mutated)."""
    if not context:
        return request
    system = request.system_message
    if system is None:
        return request.override(system_message=SystemMessage(content=context))
    content: str | list[str | dict[Any, Any]]
    if isinstance(system.content, str):
        content = f"{system.content}\n\n{context}" if system.content else context
    else:
        content = [*system.content, {"type": "text", "text": context}]
    return request.override(system_message=system.model_copy(update={"content": content}))


class MemoryMiddleware(AgentMiddleware[AgentState[Any], Any, Any]):
    """Long-term user memory as a LangChain agent middleware.

    Args:
        service: the memory service to use (shared with graph nodes, tools or
            routes); default: a new one built from ``config``.
        config: settings for the service built when ``service`` is None
            (default ``load_config()``). Give one or the other.

    Raises:
        ConfigError: both ``service`` and ``config`` were given (a ``ValueError``),
            or ``config`` is not a :class:`MemoryConfig`.
        InvalidArgumentError: ``service`` is not a :class:`MemoryService` (or None).

    Example:
        >>> from langchain.agents import create_agent
        >>> from langchain.agents.middleware import SummarizationMiddleware
        >>> agent = create_agent(
        ...     model,
        ...     tools,
        ...     middleware=[MemoryMiddleware(), SummarizationMiddleware(model, trigger=...)],
        ... )
        >>> agent.invoke({"messages": [...]}, {"configurable": {"user_id": "alice"}})
    """

    def __init__(
        self, service: MemoryService | None = None, *, config: MemoryConfig | None = None
    ) -> None:
        super().__init__()
        expect(service, MemoryService, "service", "a MemoryService", optional=True)
        if service is not None and config is not None:
            raise ConfigError("give MemoryMiddleware a service or a config, not both")
        self.service = service if service is not None else MemoryService(config)
        self._histories: OrderedDict[MemoryIdentity, list[BaseMessage]] = OrderedDict()
        # User messages a summary removed before any reply to them (mid-turn), for the
        # turn's capture; guarded by the same lock.
        self._carried: OrderedDict[MemoryIdentity, list[BaseMessage]] = OrderedDict()
        self._histories_lock = threading.Lock()

    # --- summarization flush ----------------------------------------------------------

    def _remember_history(self, state: AgentState[Any], runtime: Runtime[Any]) -> None:
        if not self.service.config.enabled:
            return
        identity = _identity(runtime)
        with self._histories_lock:
            self._histories[identity] = list(state_messages(state))
            self._histories.move_to_end(identity)
            while len(self._histories) > _MAX_PENDING_HISTORIES:
                self._histories.popitem(last=False)

    def _flush_removed(self, request: ModelRequest[Any]) -> None:
        """Queue what a summarization removed since ``before_model`` for an immediate update."""
        if not self.service.config.enabled:
            return
        identity = _identity(request.runtime)
        with self._histories_lock:
            before = self._histories.pop(identity, None)
        if not before:
            return
        now = request.state.get("messages", request.messages)
        kept = {m.id for m in now if m.id is not None}
        kept_objects = {id(m) for m in now}
        removed = [
            m
            for m in before
            if (m.id not in kept if m.id is not None else id(m) not in kept_objects)
        ]
        if not removed:
            return
        # Flush before the model call: these messages are gone from the thread.
        waiting = flush_removed(self.service, identity, removed, now, request.runtime.store)
        if waiting:  # the user's words of a turn still running: its capture takes them
            with self._histories_lock:
                self._carried.setdefault(identity, []).extend(waiting)
                self._carried.move_to_end(identity)
                while len(self._carried) > _MAX_PENDING_HISTORIES:
                    self._carried.popitem(last=False)

    def before_model(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Remember the history as it is before later middleware (a summary) rewrites it."""
        self._remember_history(state, runtime)
        return None

    async def abefore_model(
        self, state: AgentState[Any], runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of :meth:`before_model`."""
        self._remember_history(state, runtime)
        return None

    # --- inject -----------------------------------------------------------------------

    def _inject(self, request: ModelRequest[Any]) -> ModelRequest[Any]:
        self._flush_removed(request)
        config = self.service.config
        if not (config.enabled and config.injection_enabled):
            return request
        runtime = request.runtime
        context = inject_turn(
            self.service,
            _identity(runtime),
            request.messages,
            runtime.store,
            runtime.stream_writer,
        )
        return _with_memory(request, context)

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> Any:
        """Call the model with the user's memory in the system message."""
        return handler(self._inject(request))

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> Any:
        """Async twin of :meth:`wrap_model_call`; storage I/O runs off the event loop."""
        return await handler(await asyncio.to_thread(self._inject, request))

    # --- capture ----------------------------------------------------------------------

    def _capture(self, messages: Sequence[BaseMessage], runtime: Runtime[Any]) -> None:
        if not self.service.config.enabled:
            return
        carried: list[BaseMessage] | None = None
        resolve: Callable[[], MemoryIdentity] = partial(_identity, runtime)
        if self._carried:  # only a summary cut inside a turn leaves words to carry
            identity = _identity(runtime)
            with self._histories_lock:
                carried = self._carried.pop(identity, None)
            resolve = lambda: identity  # noqa: E731
        # capture_turn resolves the identity only for a turn worth capturing.
        capture_turn(
            self.service,
            [*carried, *messages] if carried else messages,
            resolve,
            runtime.stream_writer,
            runtime.store,
        )

    def after_agent(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Queue the finished turn for a debounced memory update (never waits for the model)."""
        self._capture(state_messages(state), runtime)
        return None

    async def aafter_agent(
        self, state: AgentState[Any], runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of :meth:`after_agent`; runs off the event loop like the nodes do.

        Enqueueing is quick, but a tenant's first capture opens its service
        (storage, outbox recovery), which must not block the loop.
        """
        await asyncio.to_thread(self._capture, state_messages(state), runtime)
        return None
