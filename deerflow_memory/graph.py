"""Wiring memory into graphs: ``MemoryState``, ``add_memory_nodes`` and ``create_memory_agent``.

``add_memory_nodes`` turns a graph whose agent node is already added into
``START → inject_memory → agent → [summarize] → capture_memory → END``; with
``tools=`` it also wires the usual ReAct loop (``agent ⇄ tools``) so capture
runs once per user turn, after the final reply, not after every tool step.

Wiring errors (a missing state key, an agent node that is not there, a branch
already leaving the agent) raise :class:`StateSchemaError` at build time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langchain_core.tools import BaseTool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import MessagesState
from typing_extensions import TypedDict

from deerflow_memory.arguments import expect, expect_items, expect_store, expect_text, wrong_type
from deerflow_memory.config import MemoryConfig
from deerflow_memory.config.messages import clipped
from deerflow_memory.errors import (
    ConfigError,
    InvalidArgumentError,
    StateSchemaError,
    ToolNameError,
)
from deerflow_memory.inject.format import prepend_memory_context
from deerflow_memory.nodes import (
    MEMORY_CONTEXT_KEY,
    create_capture_memory_node,
    create_inject_memory_node,
    create_summarization_node,
    state_messages,
    state_value,
)
from deerflow_memory.service import MemoryService

__all__ = [
    "DEFAULT_SYSTEM_PROMPT",
    "MemoryContext",
    "MemoryState",
    "add_memory_nodes",
    "create_memory_agent",
    "memory_model_input",
]

DEFAULT_SYSTEM_PROMPT = (
    "You are a helpful assistant. You may be given long-term memory about the user; "
    "apply it where relevant without being asked, and never contradict a correction."
)

INJECT_NODE = "inject_memory"
CAPTURE_NODE = "capture_memory"
SUMMARIZE_NODE = "summarize"


# typing_extensions.TypedDict, not typing.TypedDict: pydantic needs it before
# Python 3.12 to build the JSON schema Studio reads (and Studio shows the
# docstring below as the schema's description).
class MemoryContext(TypedDict, total=False):
    """Whose memory this run uses: the user, optionally a named agent and a tenant."""

    user_id: str
    agent_name: str
    tenant_id: str


class MemoryState(MessagesState):
    """Graph state for users starting fresh: LangGraph's messages plus the injected memory block."""

    memory_context: str


def memory_model_input(state: Any, system_prompt: str | None = None) -> list[BaseMessage]:
    """The model input for an agent node: system prompt, memory block, then the history.

    Leading system messages of the history (e.g. a conversation summary) are
    folded into the one system message, since several providers accept only one.

    Raises:
        StateSchemaError: ``state`` has no ``messages``.
        InvalidMessagesError: its ``messages`` are not LangChain messages.
        InvalidArgumentError: ``system_prompt`` or the state's ``memory_context``
            is neither text nor None.
    """
    expect_text(system_prompt, "system_prompt", optional=True)
    messages = list(state_messages(state))
    memory_context = state_value(state, MEMORY_CONTEXT_KEY)
    leading: list[str] = [system_prompt] if system_prompt else []
    while (
        messages and isinstance(messages[0], SystemMessage) and isinstance(messages[0].content, str)
    ):
        leading.append(messages.pop(0).text)
    head = [SystemMessage(content="\n\n".join(leading))] if leading else []
    return prepend_memory_context([*head, *messages], memory_context)


def _as_node(node: Any) -> Any:
    # LangGraph injects ``config`` and ``runtime`` by parameter name; its typing
    # overloads do not list that combination, so the node is passed untyped.
    return node


def _check_state(builder: StateGraph[Any, Any, Any, Any]) -> None:
    missing = [key for key in ("messages", MEMORY_CONTEXT_KEY) if key not in builder.channels]
    if missing:
        raise StateSchemaError(
            f"the graph state lacks {missing}: the memory nodes need 'messages' "
            f"(with add_messages) and '{MEMORY_CONTEXT_KEY}: str'. Use deerflow_memory.MemoryState "
            "or add those keys to your state schema"
        )


def add_memory_nodes(
    builder: StateGraph[Any, Any, Any, Any],
    agent: str = "agent",
    *,
    service: MemoryService | None = None,
    config: MemoryConfig | None = None,
    tools: str | None = None,
    summarize: bool = False,
    summary_model: BaseChatModel | None = None,
) -> MemoryService:
    """Wire memory around the agent node of ``builder`` (not yet compiled).

    Args:
        builder: a ``StateGraph`` whose state has ``messages`` and
            ``memory_context`` and whose ``agent`` node is already added.
        agent: name of the agent node.
        service: shared memory service; default ``MemoryService(config)``.
        config: used only when ``service`` is not given.
        tools: name of an already added tool node (e.g. a ``ToolNode``); wires
            ``agent → tools → agent`` while the last message has tool calls.
        summarize: add the summarization hook between the agent and capture.
        summary_model: model that writes summaries; None = offline extractive summary.

    Returns:
        The ``MemoryService`` in use (call ``flush()``/``close()`` on it).

    Raises:
        StateSchemaError: missing state keys, unknown node names, or edges that
            would bypass capture.

    Example:
        >>> builder = StateGraph(MemoryState)
        >>> builder.add_node("agent", call_model)
        >>> memory = add_memory_nodes(builder, "agent")
        >>> graph = builder.compile(checkpointer=InMemorySaver())
    """
    expect(builder, StateGraph, "builder", "a langgraph StateGraph (not yet compiled)")
    _check_state(builder)
    for name in (agent, tools):
        if name is not None and name not in builder.nodes:
            raise StateSchemaError(
                f"node {name!r} is not in the graph: add it before add_memory_nodes"
            )
    if builder.branches.get(agent):
        raise StateSchemaError(
            f"node {agent!r} already has conditional edges; remove them and pass "
            f"tools={tools or 'tools'!r} so capture runs after the final reply"
        )
    service = service if service is not None else MemoryService(config)
    builder.add_node(INJECT_NODE, _as_node(create_inject_memory_node(service)))
    builder.add_node(CAPTURE_NODE, _as_node(create_capture_memory_node(service)))
    after_agent = CAPTURE_NODE
    if summarize:
        builder.add_node(
            SUMMARIZE_NODE, _as_node(create_summarization_node(service, model=summary_model))
        )
        builder.add_edge(SUMMARIZE_NODE, CAPTURE_NODE)
        after_agent = SUMMARIZE_NODE

    # The pre-memory wiring START → agent → END is replaced, not duplicated.
    builder.edges.discard((START, agent))
    builder.edges.discard((agent, END))
    builder.add_edge(START, INJECT_NODE)
    builder.add_edge(INJECT_NODE, agent)
    builder.add_edge(CAPTURE_NODE, END)
    if tools is None:
        builder.add_edge(agent, after_agent)
    else:
        target = after_agent

        def route_after_agent(state: Any) -> str:
            messages = state_messages(state)
            last = messages[-1] if messages else None
            return tools if isinstance(last, AIMessage) and last.tool_calls else target

        builder.add_conditional_edges(agent, route_after_agent, [tools, target])
        if (tools, agent) not in builder.edges:
            builder.add_edge(tools, agent)
    return service


def _agent_arguments(
    model: object,
    tools: object,
    service: object,
    config: object,
    system_prompt: object,
    summarize: object,
    memory_tools: object,
    checkpointer: object,
    name: object,
) -> tuple[Any, ...]:
    """Check :func:`create_memory_agent`'s arguments before anything is built; ``tools`` as a tuple.

    Each wrong type raises a one-line typed error naming the argument (SPEC §15)
    instead of an ``AttributeError`` at the first turn.
    """
    items = expect_items(tools, object, "tools", "tool")
    for index, tool in enumerate(items):
        if not (isinstance(tool, BaseTool) or callable(tool)) or isinstance(tool, type):
            raise InvalidArgumentError(
                f"tools[{index}] is a {type(tool).__name__}, not a LangChain tool or a function"
            )
        if not isinstance(tool, BaseTool) and not (getattr(tool, "__doc__", None) or "").strip():
            # LangChain describes a function tool to the model by its docstring
            raise InvalidArgumentError(
                f"tools[{index}] ({getattr(tool, '__name__', type(tool).__name__)}) has no "
                "docstring: the model is told what a tool does by it"
            )
    needs = ("invoke", "bind_tools") if items else ("invoke",)
    if model is not None and (
        isinstance(model, type) or not all(callable(getattr(model, m, None)) for m in needs)
    ):
        wrong_type("model", f"a LangChain chat model (with {' and '.join(needs)}) or None", model)
    expect(service, MemoryService, "service", "a MemoryService", optional=True)
    expect(config, MemoryConfig, "config", "a MemoryConfig", ConfigError, optional=True)
    expect_text(system_prompt, "system_prompt", optional=True)
    expect(summarize, bool, "summarize", "True or False")
    if not (memory_tools is None or isinstance(memory_tools, bool)) and memory_tools not in (
        "search",
        "read_write",
    ):
        raise InvalidArgumentError(
            f"memory_tools must be True, False, 'search', 'read_write' or None, "
            f"got {clipped(repr(memory_tools))}"
        )
    if not (checkpointer is None or isinstance(checkpointer, bool)):
        from langgraph.checkpoint.base import BaseCheckpointSaver

        what = "a LangGraph checkpointer (InMemorySaver, SqliteSaver, ...), True, False or None"
        expect(checkpointer, BaseCheckpointSaver, "checkpointer", what)
    expect_text(name, "name")
    return items


def create_memory_agent(
    model: BaseChatModel | None = None,
    tools: Sequence[BaseTool | Any] = (),
    *,
    service: MemoryService | None = None,
    config: MemoryConfig | None = None,
    system_prompt: str | None = DEFAULT_SYSTEM_PROMPT,
    summarize: bool = True,
    memory_tools: bool | Literal["search", "read_write"] | None = None,
    memory_tool_prefix: str = "",
    checkpointer: Any = None,
    store: Any = None,
    name: str = "memory_agent",
) -> Any:
    """A ready agent graph: inject → agent ⇄ tools → summarize → capture.

    Args:
        model: chat model of the agent; default from config (``ChatOpenAI``), else
            the offline stand-in that reports the memory it was given.
        tools: tools the agent may call (a ``ToolNode`` loop is added).
        service: shared memory service; default ``MemoryService(config)``.
        config: used only when ``service`` is not given.
        system_prompt: the agent's system prompt (memory is added after it).
        summarize: add the summarization hook.
        memory_tools: also give the agent ``search_memory`` (see
            :func:`~deerflow_memory.tools.create_memory_tools`), which finds facts
            outside the injected budget and superseded facts with their dates;
            ``"read_write"`` adds ``remember`` and ``forget``. Default (None):
            the config's ``memory_tools``; ``True`` = ``"search"``.
        memory_tool_prefix: put in front of the memory tools' names
            (``"memory_"`` gives ``memory_remember``, ...) when your own tools
            use those names.
        checkpointer: passed to ``compile`` (leave None under ``langgraph dev``).
        store: passed to ``compile`` (needed for ``storage="store"`` outside the server).
        name: graph name.

    Returns:
        The compiled graph. Pass ``service=`` to keep a handle for ``flush()``/``close()``.

    Raises:
        ToolNameError: two tools would share a name: one of ``tools`` has a
            memory tool's name (rename it, or use ``memory_tool_prefix``), or
            two of ``tools`` share one; or ``memory_tool_prefix`` is not a
            string or makes an invalid tool name.
        InvalidArgumentError: an argument of the wrong type: ``model`` without
            ``invoke`` (or ``bind_tools`` when there are tools), ``tools`` not a
            list of LangChain tools or functions, ``service``, ``system_prompt``,
            ``summarize``, ``memory_tools``, ``checkpointer``, ``store`` or ``name``.
        ConfigError: ``config`` is not a :class:`MemoryConfig` (or None).

    Example:
        >>> with MemoryService() as memory:
        ...     graph = create_memory_agent(service=memory, checkpointer=InMemorySaver())
        ...     graph.invoke({"messages": [("user", "I'm allergic to peanuts")]},
        ...                  {"configurable": {"user_id": "alice", "thread_id": "1"}})
    """
    tools = _agent_arguments(
        model, tools, service, config, system_prompt, summarize, memory_tools, checkpointer, name
    )
    expect_store(store, optional=True)
    own_service = service is None
    service = service if service is not None else MemoryService(config)
    if model is None:
        from deerflow_memory.standin import OfflineStandInModel
        from deerflow_memory.update.llm import build_chat_model

        model = build_chat_model(service.config) or OfflineStandInModel()
    if memory_tools is None:
        memory_tools = (
            False if service.config.memory_tools == "off" else service.config.memory_tools
        )
    from deerflow_memory.tools import check_tool_names, create_memory_tools

    added = []
    try:
        if memory_tools:
            mode = "search" if memory_tools is True else memory_tools
            added = create_memory_tools(service, mode, prefix=memory_tool_prefix)
        check_tool_names(tools, added)
    except ToolNameError:
        if own_service:
            service.close()
        raise
    tools = [*tools, *added]
    bound = model.bind_tools(list(tools)) if tools else model

    def call_model(state: Any, config: RunnableConfig) -> dict[str, Any]:
        return {"messages": [bound.invoke(memory_model_input(state, system_prompt), config)]}

    async def acall_model(state: Any, config: RunnableConfig) -> dict[str, Any]:
        return {"messages": [await bound.ainvoke(memory_model_input(state, system_prompt), config)]}

    # Callers provide only messages; memory_context is the inject node's output.
    builder = StateGraph(
        MemoryState,
        context_schema=MemoryContext,
        input_schema=MessagesState,
        output_schema=MemoryState,
    )
    builder.add_node("agent", RunnableLambda(call_model, afunc=acall_model, name="agent"))
    tools_node: str | None = None
    if tools:
        from langgraph.prebuilt import ToolNode

        builder.add_node("tools", ToolNode(list(tools)))
        tools_node = "tools"
    add_memory_nodes(
        builder,
        "agent",
        service=service,
        tools=tools_node,
        summarize=summarize,
        summary_model=None if service.is_offline else model,
    )
    return builder.compile(checkpointer=checkpointer, store=store, name=name)
