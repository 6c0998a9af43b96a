"""The memory graph nodes: inject before the agent, capture after it, and the summarization hook.

Each ``create_*_node(service)`` returns a plain function LangGraph runs under
``invoke``, ``ainvoke``, ``stream`` and ``astream`` (sync functions run on the
executor under async runs, so the event loop is never blocked by storage I/O).

How they fail:
- inject: an unsafe ``user_id``/``agent_name`` raises ``InvalidNameError``
  (bad input); a storage error (unreadable or corrupt document, database down)
  is logged and reported in the ``memory_injection`` stream event, and the turn
  goes on without memory. In relevant mode a failing embedder (or store vector
  search) is reported the same way, and the turn gets its memory ranked
  lexically (guaranteed and constraint facts included).
- capture: never waits for the model and never raises because of an update;
  updates run later on the queue's worker threads.
- summarize: the messages about to be removed are queued for an immediate
  update *before* the removal is returned, so facts stated only there survive.
  A failing summary model (connection reset, HTTP 400/429/500, timeout) never
  fails the turn: it is logged (one WARNING line) and reported in the
  ``memory_summarization`` event's ``error``, and the extractive summary is
  used instead (:mod:`deerflow_memory.update.summary`).
  The summary that replaces them is an escaped ``<conversation_summary>`` block
  (:func:`~deerflow_memory.inject.blocks.summary_block`): user text never
  reaches the system message raw.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.runnables import RunnableConfig
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore

from deerflow_memory.arguments import expect_number
from deerflow_memory.capture.messages import (
    coerce_messages,
    filter_checked_messages,
    filter_messages_for_memory,
    filter_recent_messages,
    has_dialogue,
    latest_user_text,
    message_text,
)
from deerflow_memory.capture.signals import SIGNAL_WINDOW
from deerflow_memory.errors import StateSchemaError, StorageError
from deerflow_memory.identity import MemoryIdentity, resolve_identity
from deerflow_memory.inject.blocks import summary_block, summary_entries
from deerflow_memory.logs import package_logger
from deerflow_memory.service import MemoryService, check_service
from deerflow_memory.update.summary import write_summary

__all__ = [
    "MEMORY_CONTEXT_KEY",
    "RECALL_END",
    "RECALL_START",
    "SUMMARY_MESSAGE_NAME",
    "capture_turn",
    "create_capture_memory_node",
    "create_inject_memory_node",
    "create_summarization_node",
    "flush_removed",
    "inject_turn",
    "state_messages",
    "state_value",
]

logger = package_logger(__name__)

MEMORY_CONTEXT_KEY = "memory_context"
RECALL_START = "memory_recall_start"
"""Stream event written before memory is read: ``user_id``, ``agent_name``, ``mode``, ``query``."""
RECALL_END = "memory_recall_end"
"""Stream event written after: ``candidates`` ranked, ``injected``, ``guaranteed`` and
``constraints`` counts, ``fact_ids`` and ``facts`` (id, content, category, constraint)
injected, ``error`` (``None`` when memory was read and ranked as configured; the storage
error when nothing was injected; ``"embedding failed, ranked lexically: ..."`` when the
embedder failed and the lexical ranking was injected instead)."""
# Counts only: the event's lists are made new for each event (a consumer may change them).
_EMPTY_RECALL: Mapping[str, int] = MappingProxyType(
    {"candidates": 0, "injected": 0, "guaranteed": 0, "constraints": 0}
)
SUMMARY_MESSAGE_NAME = "conversation_summary"

Node = Callable[[Any, RunnableConfig, Runtime[Any]], dict[str, Any]]


def state_value(state: Any, key: str) -> Any:
    """``state[key]`` of a dict-like state, or the attribute of a dataclass / pydantic one."""
    return state.get(key) if isinstance(state, Mapping) else getattr(state, key, None)


def state_messages(state: Any) -> Sequence[BaseMessage]:
    """The ``messages`` of a dict-like or attribute-style graph state.

    Raises:
        StateSchemaError: the state has no ``messages``, or they are no list
            (``{"messages": 5}``).
    """
    messages = state_value(state, "messages")
    if messages is None:
        raise StateSchemaError(
            "the memory nodes need a 'messages' key in the graph state "
            "(use deerflow_memory.MemoryState or add `messages: Annotated[list, add_messages]`)"
        )
    # (its items are checked, or converted as add_messages would, where they are read)
    if isinstance(messages, str | bytes | Mapping) or not isinstance(messages, Sequence):
        raise StateSchemaError(
            "the graph state's 'messages' must be a list of LangChain messages, "
            f"got {type(messages).__name__}"
        )
    return messages


def _last_update(service: MemoryService, identity: MemoryIdentity) -> dict[str, object] | None:
    """The events' ``last_update``: the newest update saved for ``identity`` here, or None."""
    saved = service._last_saved_update(identity)
    return saved.as_event() if saved is not None else None


def inject_turn(
    service: MemoryService,
    identity: MemoryIdentity,
    messages: Sequence[BaseMessage],
    store: BaseStore | None,
    write: Callable[[Any], None],
) -> str:
    """One turn's memory context, with its ``memory_injection`` event written.

    The single inject path of the inject node and of ``MemoryMiddleware``: a
    storage error is logged and reported in the event, and the turn goes on
    without memory (returns ``""``). A failing embedder (or store vector
    search) in relevant mode is reported in the events' ``error`` too, while
    the memory ranked lexically is injected (logged once per burst of failures).

    Args:
        service: the shared memory service.
        identity: whose memory.
        messages: the conversation so far (the latest user message is the query).
        store: the run's store, for ``storage="store"``.
        write: the run's stream writer.

    Returns:
        The memory context for the system prompt, or ``""``.
    """
    who = {"user_id": identity.user_id, "agent_name": identity.agent_name}
    event: dict[str, Any] = {"type": "memory_injection", **who}
    mode = service.config.injection_mode
    query = latest_user_text(messages)
    write({"type": RECALL_START, **who, "mode": mode, "query": query})
    try:
        block = service._memory_block(identity, query, store, True)
    except StorageError as e:
        logger.error("memory not injected for user %r: %s", identity.user_id, e)
        # The same events and keys as when memory was read, in the same order.
        write(
            {
                "type": RECALL_END,
                **who,
                "mode": mode,
                **_EMPTY_RECALL,
                "fact_ids": [],
                "facts": [],
                "error": str(e),
            }
        )
        write(
            {
                **event,
                "mode": mode,
                "revision": None,
                "facts_injected": 0,
                "facts_total": 0,
                "tokens": 0,
                "error": str(e),
                "last_update": _last_update(service, identity),
            }
        )
        return ""
    write(
        {
            "type": RECALL_END,
            **who,
            "mode": mode,
            "candidates": block.candidates,
            "injected": block.facts_injected,
            "guaranteed": block.guaranteed,
            "constraints": block.constraints,
            "fact_ids": list(block.fact_ids),
            "facts": list(block.recalled),
            "error": block.error,
        }
    )
    write(
        {
            **event,
            "mode": mode,
            "revision": block.revision,
            "facts_injected": block.facts_injected,
            "facts_total": block.facts_total,
            "tokens": block.tokens,
            "error": block.error,
            "last_update": _last_update(service, identity),
        }
    )
    return block.context


def capture_turn(
    service: MemoryService,
    messages: Sequence[BaseMessage],
    identify: Callable[[], MemoryIdentity],
    write: Callable[[Any], None],
    store: BaseStore | None = None,
) -> bool:
    """Queue a finished turn for a debounced update, with its ``memory_capture`` event.

    The single capture path of the capture node and of ``MemoryMiddleware``.
    Never waits for the memory model. ``identify`` is called only when the
    turn is worth capturing (identity resolution validates names).

    Returns:
        True when the turn was queued; False when it was not a finished turn
        (the last message still calls tools) or holds no user/assistant dialogue.
    """
    messages = coerce_messages(messages)  # a state without add_messages may hold dicts
    if messages and isinstance(messages[-1], AIMessage) and messages[-1].tool_calls:
        return False  # not a final reply: the agent is still working with its tools
    # Only the tail is filtered here (signals read the last six messages);
    # the updater filters the whole conversation on its worker thread.
    recent = filter_recent_messages(messages, SIGNAL_WINDOW)
    if not has_dialogue(recent) and (
        len(recent) < SIGNAL_WINDOW or not has_dialogue(filter_checked_messages(messages))
    ):
        return False
    identity = identify()
    # ``coerce_messages`` left only messages: no second check of every one in enqueue.
    signals = service._enqueue_checked(identity, messages, recent, False, store)
    write(
        {
            "type": "memory_capture",
            "user_id": identity.user_id,
            "agent_name": identity.agent_name,
            "messages": len(messages),
            "correction": signals.correction,
            "reinforcement": signals.reinforcement,
            "last_update": _last_update(service, identity),
        }
    )
    return True


def create_inject_memory_node(service: MemoryService) -> Node:
    """Node that loads the user's memory and writes the formatted block to ``memory_context``.

    The block is never appended to the message history: it is refreshed every
    turn and stays byte-identical while memory is unchanged (same day), so
    provider prefix caches hold. Use :func:`~deerflow_memory.inject.format.prepend_memory_context`
    in your agent node to put it in front of the model input.

    Raises:
        InvalidArgumentError: ``service`` is not a :class:`MemoryService`.
    """
    check_service(service)

    def inject_memory(state: Any, config: RunnableConfig, runtime: Runtime[Any]) -> dict[str, Any]:
        if not (service.config.enabled and service.config.injection_enabled):
            return {MEMORY_CONTEXT_KEY: ""}
        identity = resolve_identity(config, runtime.context)
        context = inject_turn(
            service, identity, state_messages(state), runtime.store, runtime.stream_writer
        )
        return {MEMORY_CONTEXT_KEY: context}

    return inject_memory


def create_capture_memory_node(service: MemoryService) -> Node:
    """Node that filters the turn, detects correction/reinforcement and enqueues an update.

    Returns no state change and never waits for the memory model.

    Raises:
        InvalidArgumentError: ``service`` is not a :class:`MemoryService`.
    """
    check_service(service)

    def capture_memory(state: Any, config: RunnableConfig, runtime: Runtime[Any]) -> dict[str, Any]:
        if service.config.enabled:
            capture_turn(
                service,
                state_messages(state),
                lambda: resolve_identity(config, runtime.context),
                runtime.stream_writer,
                runtime.store,
            )
        return {}

    return capture_memory


def flush_removed(
    service: MemoryService,
    identity: MemoryIdentity,
    removed: Sequence[BaseMessage],
    kept: Sequence[BaseMessage],
    store: BaseStore | None = None,
) -> list[BaseMessage]:
    """Queue for an immediate update what a summary is about to remove from the history.

    The single flush path of the summarization node and of ``MemoryMiddleware``.
    When the removed part holds the user's words but none of the replies (the
    cut fell inside a turn's tool loop), the kept part's replies are sent with
    them: the updater needs a user and an assistant message, and once removed
    those words never reach a later capture.

    Args:
        service: the shared memory service.
        identity: whose memory.
        removed: the messages the summary removes.
        kept: the messages left after it (a summary among them is never captured).
        store: the run's store, for ``storage="store"``.

    Returns:
        The removed user messages that could not be queued because no reply
        to them exists yet (a summary in the middle of a turn): the caller
        must hand them to the turn's capture. ``[]`` otherwise.
    """
    filtered = filter_messages_for_memory(removed)
    if not has_dialogue(filtered):
        if not any(isinstance(m, HumanMessage) for m in filtered):
            return []  # nothing the user said leaves the history
        filtered = filter_messages_for_memory([*removed, *kept])
        if not has_dialogue(filtered):
            return [m for m in filtered if isinstance(m, HumanMessage)]
    # Flush before removal: once the summary replaces them these messages are gone.
    service.enqueue(identity, filtered, now=True, store=store)
    return []


def _cut_index(messages: Sequence[BaseMessage], keep: int) -> int:
    """Index where the kept tail starts, moved back so a tool result keeps its call."""
    cut = max(0, len(messages) - keep)
    while 0 < cut < len(messages) and isinstance(messages[cut], ToolMessage):
        cut -= 1
    return cut


def create_summarization_node(
    service: MemoryService,
    *,
    model: BaseChatModel | None = None,
    max_messages: int | None = None,
    max_tokens: int | None = None,
    keep: int | None = None,
) -> Node:
    """Node that shortens a long history, flushing the removed part to memory first.

    Args:
        service: the shared memory service.
        model: chat model that writes the summary; None = a deterministic
            extractive summary (offline).
        max_messages: history length that triggers it (default from config).
        max_tokens: history tokens that trigger it (default from config; None = off).
        keep: most recent messages kept verbatim (default from config).

    Raises:
        InvalidArgumentError: ``service`` is not a :class:`MemoryService`, or
            ``max_messages``, ``max_tokens`` or ``keep`` is neither an int nor None.
    """
    check_service(service)
    for name, value in (("max_messages", max_messages), ("max_tokens", max_tokens), ("keep", keep)):
        expect_number(value, name, integer=True, optional=True)
    limit = max_messages if max_messages is not None else service.config.summarize_after_messages
    token_limit = max_tokens if max_tokens is not None else service.config.summarize_after_tokens
    kept_count = keep if keep is not None else service.config.summarize_keep_messages

    def over_limit(messages: Sequence[BaseMessage]) -> bool:
        if len(messages) > limit:
            return True
        if token_limit is None:
            return False
        return sum(service.counter.count(message_text(m)) for m in messages) > token_limit

    def summarize(state: Any, config: RunnableConfig, runtime: Runtime[Any]) -> dict[str, Any]:
        messages = state_messages(state)
        if not over_limit(messages):
            return {}
        cut = _cut_index(messages, kept_count)
        removed, kept = list(messages[:cut]), list(messages[cut:])
        if not removed:
            return {}
        identity = resolve_identity(config, runtime.context)
        if service.config.enabled:
            # After the agent's final reply: removed + kept hold it, nothing is left over.
            flush_removed(service, identity, removed, kept, runtime.store)
        previous = next(
            (
                summary_entries(message_text(m))
                for m in removed
                if isinstance(m, SystemMessage) and m.name == SUMMARY_MESSAGE_NAME
            ),
            [],
        )
        summary = write_summary(
            model,
            removed,
            previous,
            count=service.counter.count,
            max_prompt_tokens=service.config.summarize_max_prompt_tokens,
        )
        if summary.error is not None:
            logger.warning(
                "conversation summary of user %r (thread %r) not written by the model (%s); "
                "used the extractive summary",
                identity.user_id,
                identity.thread_id,
                summary.error,
            )
        runtime.stream_writer(
            {
                "type": "memory_summarization",
                "removed": len(removed),
                "kept": len(kept),
                "source": summary.source,
                "messages_left_out": summary.messages_left_out,
                "error": summary.error,
            },
        )
        return {
            "messages": [
                RemoveMessage(id=REMOVE_ALL_MESSAGES),
                SystemMessage(content=summary_block(summary.entries), name=SUMMARY_MESSAGE_NAME),
                *kept,
            ]
        }

    return summarize
