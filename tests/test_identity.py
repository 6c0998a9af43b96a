"""Whose memory a run reads and writes: context, then configurable, then the server's user."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import InvalidNameError, MemoryConfig, MemoryService
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


def test_an_empty_agent_name_means_the_default_agent() -> None:
    assert resolve_identity({"configurable": {"agent_name": ""}}).agent_name is None


def test_langmems_langgraph_user_id_is_read_after_user_id_and_before_the_auth_user() -> None:
    langmem = {"configurable": {"langgraph_user_id": "lm", "langgraph_auth_user_id": "auth"}}
    assert resolve_identity(langmem).user_id == "lm"
    both = {"configurable": {"user_id": "explicit", "langgraph_user_id": "lm"}}
    assert resolve_identity(both).user_id == "explicit"


def test_the_tenant_comes_from_the_context_then_configurable_and_is_absent_by_default() -> None:
    config = {"configurable": {"tenant_id": "shop"}}
    assert resolve_identity(config).tenant_id == "shop"
    assert resolve_identity(config, Context(tenant_id="travel")).tenant_id == "travel"
    assert resolve_identity(config, {"tenant_id": "travel"}).tenant_id == "travel"
    assert resolve_identity({}).tenant_id is None
    assert resolve_identity({"configurable": {"tenant_id": ""}}).tenant_id is None


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
