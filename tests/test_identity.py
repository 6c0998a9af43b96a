"""Whose memory a run reads and writes: the authenticated user, else context, then configurable."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import (
    Fact,
    IdentityMismatchError,
    InvalidNameError,
    MemoryConfig,
    MemoryDocument,
    MemoryService,
)
from deerflow_memory.identity import (
    DEFAULT_USER_ID,
    MAX_THREAD_ID_LENGTH,
    UNKNOWN_THREAD_ID,
    MemoryIdentity,
    resolve_identity,
)


@dataclass
class Context:
    user_id: str | None = None
    agent_name: str | None = None
    tenant_id: str | None = None


def test_the_run_context_wins_over_configurable() -> None:
    config = {
        "configurable": {"user_id": "from-config", "agent_name": "cfg-agent", "thread_id": "t1"}
    }
    identity = resolve_identity(config, Context(user_id="from-context", agent_name="ctx-agent"))
    assert (identity.user_id, identity.agent_name, identity.thread_id) == (
        "from-context",
        "ctx-agent",
        "t1",
    )


def test_a_mapping_context_works_like_an_object() -> None:
    assert resolve_identity({}, {"user_id": "ann"}).user_id == "ann"


def test_configurable_then_the_authenticated_user_then_default() -> None:
    assert resolve_identity({"configurable": {"user_id": "bo"}}).user_id == "bo"
    auth_only = {"configurable": {"langgraph_auth_user_id": "auth-user"}}
    assert resolve_identity(auth_only).user_id == "auth-user"
    assert resolve_identity(auth_only, Context()).user_id == "auth-user"
    anonymous = resolve_identity(None)
    assert anonymous.user_id == DEFAULT_USER_ID
    assert anonymous.agent_name is None
    assert anonymous.thread_id == UNKNOWN_THREAD_ID


def test_the_default_agent_name_applies_only_when_none_is_given() -> None:
    assert resolve_identity({}, None, default_agent_name="planner").agent_name == "planner"
    given = {"configurable": {"agent_name": "coder"}}
    assert resolve_identity(given, None, default_agent_name="planner").agent_name == "coder"


@pytest.mark.parametrize("bad", ["../x", "a/b", "/etc", "x\ny", 42])
@pytest.mark.parametrize("key", ["user_id", "agent_name", "tenant_id"])
def test_unsafe_identities_are_rejected(key: str, bad: object) -> None:
    with pytest.raises(InvalidNameError, match=key):
        resolve_identity({"configurable": {key: bad}})


@pytest.mark.parametrize("key", ["user_id", "agent_name", "tenant_id"])
def test_an_empty_id_is_refused_and_does_not_fall_through_to_the_next_source(key: str) -> None:
    with pytest.raises(InvalidNameError, match=f"{key} '' is not allowed"):
        resolve_identity({"configurable": {key: ""}})
    # "" in the context is not "absent": it does not pick up configurable's value.
    with pytest.raises(InvalidNameError, match=f"{key} '' is not allowed"):
        resolve_identity({"configurable": {key: "shop"}}, {key: ""})
    with pytest.raises(InvalidNameError, match=f"{key} '' is not allowed"):
        resolve_identity({"configurable": {key: "shop"}}, Context(**{key: ""}))


def test_the_servers_empty_user_id_for_an_anonymous_caller_is_no_user_id() -> None:
    """``langgraph dev`` without auth copies the anonymous identity ``""`` into ``user_id``.

    A run that names no user lands in ``"default"`` (the documented rule), not in
    an error about an empty ``user_id`` the caller never sent.
    """
    anonymous = {"user_id": "", "langgraph_auth_user_id": "", "langgraph_auth_user": None}
    assert resolve_identity({"configurable": anonymous}).user_id == DEFAULT_USER_ID
    with_context = resolve_identity({"configurable": anonymous}, {"user_id": "alice"})
    assert with_context.user_id == "alice"
    langmem = resolve_identity({"configurable": {**anonymous, "langgraph_user_id": "lm"}})
    assert langmem.user_id == "lm"
    # Only the server's pair: a signed-in caller's empty user_id is still refused.
    with pytest.raises(IdentityMismatchError, match="user_id ''"):
        resolve_identity({"configurable": {"user_id": "", "langgraph_auth_user_id": "bob"}})
    with pytest.raises(InvalidNameError, match="user_id '' is not allowed"):
        resolve_identity({"configurable": anonymous}, {"user_id": ""})


def test_langmems_langgraph_user_id_is_read_after_user_id() -> None:
    assert resolve_identity({"configurable": {"langgraph_user_id": "lm"}}).user_id == "lm"
    both = {"configurable": {"user_id": "explicit", "langgraph_user_id": "lm"}}
    assert resolve_identity(both).user_id == "explicit"


# --- a run LangGraph's server authenticated: the caller's own memory only ---------------------


def authenticated(user: object = "bob", **configurable: object) -> dict[str, object]:
    """A config as LangGraph's server builds it for a signed-in caller."""
    identity = user if isinstance(user, str) else getattr(user, "identity", None)
    auth = {"langgraph_auth_user_id": identity, "langgraph_auth_user": user}
    return {"configurable": {**configurable, **auth}}


@pytest.mark.parametrize(
    ("configurable", "context"),
    [
        ({"user_id": "alice"}, None),
        ({}, {"user_id": "alice"}),
        ({}, Context(user_id="alice")),
        ({"langgraph_user_id": "alice"}, None),
        # One honest source does not cover a dishonest other.
        ({"user_id": "alice"}, {"user_id": "bob"}),
        ({"user_id": "bob", "langgraph_user_id": "alice"}, {"user_id": "bob"}),
    ],
)
def test_an_authenticated_caller_naming_another_user_is_refused(
    configurable: dict[str, object], context: object
) -> None:
    with pytest.raises(IdentityMismatchError, match=r"'alice'.*authenticated caller is 'bob'"):
        resolve_identity(authenticated("bob", **configurable), context)


def test_an_authenticated_caller_naming_themselves_or_no_one_gets_their_own_memory() -> None:
    assert resolve_identity(authenticated("bob")).user_id == "bob"
    assert resolve_identity(authenticated("bob", user_id="bob"), {"user_id": "bob"}).user_id == (
        "bob"
    )
    assert resolve_identity(authenticated("bob", langgraph_user_id="bob")).user_id == "bob"
    # Ids are compared in NFC, as everywhere: "e\u0301" is the same user as "é".
    assert resolve_identity(authenticated("jos\u00e9", user_id="jose\u0301")).user_id == (
        "jos\u00e9"
    )
    # The user object alone (no langgraph_auth_user_id) is enough.
    only_object = {"configurable": {"langgraph_auth_user": {"identity": "bob"}, "user_id": "eve"}}
    with pytest.raises(IdentityMismatchError):
        resolve_identity(only_object)


def test_the_auth_users_tenant_is_the_runs_tenant_and_another_is_refused() -> None:
    carl = {"identity": "carl", "tenant_id": "shop"}
    assert resolve_identity(authenticated(carl)).tenant_id == "shop"
    assert resolve_identity(authenticated(carl, tenant_id="shop")).tenant_id == "shop"
    for config, context in [
        (authenticated(carl, tenant_id="travel"), None),
        (authenticated(carl), {"tenant_id": "travel"}),
        (authenticated(carl, tenant_id="shop"), Context(tenant_id="travel")),
    ]:
        with pytest.raises(IdentityMismatchError, match=r"tenant_id 'travel'.*'shop'"):
            resolve_identity(config, context)
    # An object user (as a Starlette or LangGraph user class) works the same.
    assert resolve_identity(authenticated(SimpleNamespace(identity="carl", tenant_id="shop")))
    # An auth user without a tenant may name any tenant, as with the routes' ?tenant=.
    assert resolve_identity(authenticated("bob", tenant_id="travel")).tenant_id == "travel"


def test_an_unauthenticated_server_user_keeps_the_rules_of_a_run_without_auth() -> None:
    from langgraph_sdk.auth.types import StudioUser

    for config in [
        # LangGraph's server without custom auth: identity "" and no user object.
        {"configurable": {"langgraph_auth_user_id": "", "langgraph_auth_user": None}},
        # `langgraph dev`'s Studio user under custom auth: not authenticated, the operator.
        authenticated(StudioUser("langgraph-studio-user")),
    ]:
        config["configurable"].update(user_id="alice", tenant_id="travel")  # type: ignore[union-attr]
        identity = resolve_identity(config, {"user_id": "ann"})
        assert (identity.user_id, identity.tenant_id) == ("ann", "travel")


@pytest.mark.parametrize("context", ["alice", ["x"], ("alice",), 42, b"alice", object()])
def test_a_context_of_a_built_in_type_is_refused_not_read_as_the_default_user(
    context: object,
) -> None:
    with pytest.raises(InvalidNameError, match="context must be a mapping"):
        resolve_identity({"configurable": {"thread_id": "t4"}}, context)


def test_a_graph_run_with_a_string_context_fails_and_writes_no_shared_memory(
    tmp_path: Path,
) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    from deerflow_memory import create_memory_agent

    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=0)
    with MemoryService(config, register_atexit=False) as memory:
        graph = create_memory_agent(service=memory, checkpointer=InMemorySaver())
        turn = {"messages": [("user", "I'm allergic to peanuts.")]}
        with pytest.raises(InvalidNameError, match="context must be a mapping"):
            graph.invoke(turn, {"configurable": {"thread_id": "t4"}}, context="alice")  # type: ignore[arg-type]
        assert memory.flush(timeout=30)
        assert memory.load(MemoryIdentity(DEFAULT_USER_ID, None, "t4")).facts == ()
    with pytest.raises(InvalidNameError, match="configurable"):
        resolve_identity({"configurable": ["user_id", "alice"]})  # type: ignore[typeddict-item]


def test_every_entry_point_refuses_a_run_authenticated_as_someone_else(tmp_path: Path) -> None:
    from langchain.agents import create_agent
    from langchain_core.messages import AIMessage
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode

    from deerflow_memory import MemoryMiddleware, create_memory_agent
    from deerflow_memory.standin import OfflineStandInModel
    from deerflow_memory.tools import create_memory_tools

    config = MemoryConfig(storage_path=tmp_path, memory_tools="read_write", outbox=False)
    with MemoryService(config, register_atexit=False) as memory:
        memory.storage.save(
            "ana", None, MemoryDocument(facts=(Fact(content="Takes the 7:40 train"),))
        )
        tools = StateGraph(MessagesState)
        tools.add_node("tools", ToolNode(create_memory_tools(memory)))
        tools.add_edge(START, "tools")
        graphs = {
            "memory nodes": create_memory_agent(service=memory),
            "middleware": create_agent(
                OfflineStandInModel(), middleware=[MemoryMiddleware(memory)]
            ),
            "tools": tools.compile(),
        }
        calls = [
            {"name": "remember", "args": {"fact": "Likes jazz"}, "id": "1"},
            {"name": "forget", "args": {"fact": "the 7:40 train"}, "id": "2"},
            {"name": "search_memory", "args": {"query": "train"}, "id": "3"},
        ]
        as_ana = authenticated("bob", user_id="ana", thread_id="t")
        for name, graph in graphs.items():
            for call in calls if name == "tools" else [None]:
                turn = AIMessage("", tool_calls=[call]) if call else ("user", "I'm a nurse.")
                with pytest.raises(IdentityMismatchError):
                    graph.invoke({"messages": [turn]}, as_ana)
        assert memory.flush(timeout=30)
        assert [f.content for f in memory.storage.load("ana").facts] == ["Takes the 7:40 train"]
        assert memory.storage.load("bob").facts == ()


def test_a_context_object_of_your_own_without_memory_fields_is_fine() -> None:
    @dataclass
    class ModelChoice:
        model: str = "small"

    config = {"configurable": {"user_id": "ann"}}
    assert resolve_identity(config, ModelChoice()).user_id == "ann"
    assert resolve_identity(config, SimpleNamespace(user_id="bo")).user_id == "bo"


def test_the_tenant_comes_from_the_context_then_configurable_and_is_absent_by_default() -> None:
    config = {"configurable": {"tenant_id": "shop"}}
    assert resolve_identity(config).tenant_id == "shop"
    assert resolve_identity(config, Context(tenant_id="travel")).tenant_id == "travel"
    assert resolve_identity(config, {"tenant_id": "travel"}).tenant_id == "travel"
    assert resolve_identity({}).tenant_id is None


def test_an_unsafe_tenant_is_refused_with_a_typed_error_before_any_storage_is_touched() -> None:
    for bad in ("../etc", ".hidden", "a/b", " shop", "x" * 200):
        with pytest.raises(InvalidNameError, match="tenant_id"):
            resolve_identity({"configurable": {"tenant_id": bad}})


@pytest.mark.parametrize(
    "raw",
    ["x" * (MAX_THREAD_ID_LENGTH + 1), "a\x00b", "line\nbreak", "a\x9fb", "a\ud800b"],
    ids=["too long", "NUL", "newline", "C1 control", "lone surrogate"],
)
def test_an_unsafe_thread_id_is_stored_as_a_stable_hash(raw: str) -> None:
    stored = resolve_identity({"configurable": {"thread_id": raw}}).thread_id
    assert re.fullmatch(r"thread-sha256:[0-9a-f]{32}", stored)
    assert MemoryIdentity("ann", None, raw).thread_id == stored  # however it is built
    assert resolve_identity({"configurable": {"thread_id": raw + "!"}}).thread_id != stored


@pytest.mark.parametrize(
    "raw", ["1", "thread-42", "Zoë's chat 💬", "x" * MAX_THREAD_ID_LENGTH, "thread-sha256:ab"]
)
def test_a_safe_thread_id_is_kept_as_it_is(raw: str) -> None:
    assert resolve_identity({"configurable": {"thread_id": raw}}).thread_id == raw
    assert MemoryIdentity("ann", None, raw).thread_id == raw


def test_int_and_uuid_thread_ids_become_strings_and_other_types_are_refused() -> None:
    assert resolve_identity({"configurable": {"thread_id": 10}}).thread_id == "10"
    ident = uuid.UUID(int=5)
    assert resolve_identity({"configurable": {"thread_id": ident}}).thread_id == str(ident)
    for odd in (1.5, True, b"t1", {"id": 1}):
        with pytest.raises(InvalidNameError, match="thread_id must be a string"):
            resolve_identity({"configurable": {"thread_id": odd}})
        with pytest.raises(InvalidNameError):
            MemoryIdentity("ann", None, odd)  # type: ignore[arg-type]


def test_a_huge_thread_id_does_not_bloat_the_memory_it_is_stored_in(tmp_path: Path) -> None:
    config = MemoryConfig(storage_path=tmp_path, debounce_seconds=0)
    who = MemoryIdentity("ann", None, "t" * 400_000)
    with MemoryService(config, register_atexit=False) as memory:
        memory.enqueue(who, [HumanMessage("I work as a welder."), AIMessage("Noted.")])
        assert memory.flush(timeout=30)
        document = memory.load(who)
    assert [f.source for f in document.facts] == [who.thread_id]
    assert [w.thread_id for w in document.extraction_watermarks] == [who.thread_id]
    assert len(who.thread_id) == 46
    assert sum(p.stat().st_size for p in tmp_path.rglob("*") if p.is_file()) < 50_000


def test_the_identity_error_reads_as_a_value_error_and_maps_to_403_over_http() -> None:
    from deerflow_memory.api.errors import status_and_message

    error = IdentityMismatchError("user_id", "alice", "bob")
    # A ValueError: LangGraph's server shows such messages to the client.
    assert isinstance(error, ValueError)
    assert status_and_message(error) == (403, str(error))
