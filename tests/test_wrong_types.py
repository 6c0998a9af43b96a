"""Every public function answers a wrong-typed argument with one of the package's typed errors.

SPEC §15: bad input gets a clear, typed error. For each public function that
takes user-supplied data (and each public method of ``MemoryService``, and the
constructors exported from submodules only, such as ``JudgedExtractor``), each
listed argument is replaced in turn by a value
of the wrong kind (``None``, a string where a list belongs, a dict where a
model belongs, an int, bytes, a list of ``None``) while the others stay valid;
the call must raise a :class:`~deerflow_memory.errors.DeerflowMemoryError`
(never a bare ``TypeError``/``AttributeError`` from deep inside) whose message
names the argument. A kind the argument accepts (a string for a text argument,
``None`` for an optional one) is skipped.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import StateGraph

import deerflow_memory as dm
from deerflow_memory.errors import DeerflowMemoryError

BAD: dict[str, Any] = {
    "None": None,
    "str": "some text",
    "dict": {"key": 1},
    "int": 5,
    "bytes": b"bytes",
    "list": [None],
}


@dataclass(frozen=True)
class Case:
    """A public callable, a valid call of it, and the arguments to spoil one at a time."""

    name: str
    call: Callable[..., Any]
    valid: Callable[[Path], dict[str, Any]]
    fuzz: dict[str, frozenset[str]] = field(default_factory=dict)
    """argument -> the kinds of :data:`BAD` it accepts (skipped)."""


def _ok(*kinds: str) -> frozenset[str]:
    return frozenset(kinds)


def _doc() -> dm.MemoryDocument:
    return dm.MemoryDocument(facts=(dm.Fact(id="f1", content="Is allergic to peanuts"),))


def _messages() -> list[Any]:
    return [HumanMessage("I moved to Berlin last week"), AIMessage("Noted, welcome to Berlin.")]


def _storage(tmp: Path) -> dm.FileMemoryStorage:
    return dm.FileMemoryStorage(tmp / "memory")


def _config(tmp: Path) -> dm.MemoryConfig:
    return dm.MemoryConfig(storage_path=tmp / "memory", outbox=False)


def _service(tmp: Path) -> dm.MemoryService:
    return dm.MemoryService(_config(tmp), register_atexit=False)


def _a_tool(city: str) -> str:
    """The weather in a city."""
    return f"sunny in {city}"


def _builder() -> StateGraph[Any, Any, Any, Any]:
    builder: StateGraph[Any, Any, Any, Any] = StateGraph(dm.MemoryState)
    builder.add_node("agent", lambda state: {})
    return builder


def _queue(**kwargs: Any) -> None:
    dm.MemoryUpdateQueue(**kwargs).shutdown(timeout=1)


def _new_service(**kwargs: Any) -> None:
    dm.MemoryService(**kwargs, register_atexit=False).close()


def _keep(document: dm.MemoryDocument) -> tuple[dm.MemoryDocument, None]:
    return document, None


MESSAGES = {"messages": _ok()}

CASES = [
    Case(
        "add_manual_fact",
        dm.add_manual_fact,
        lambda tmp: {
            "document": _doc(),
            "content": "Drinks green tea",
            "category": "preference",
            "confidence": 0.9,
        },
        {"document": _ok(), "content": _ok("str"), "category": _ok(), "confidence": _ok("int")},
    ),
    Case(
        "edit_fact",
        dm.edit_fact,
        lambda tmp: {"document": _doc(), "fact_id": "f1", "content": "Is allergic to nuts"},
        {"document": _ok(), "fact_id": _ok("str"), "content": _ok("None", "str")},
    ),
    Case(
        "delete_fact",
        dm.delete_fact,
        lambda tmp: {"document": _doc(), "fact_id": "f1"},
        {"document": _ok(), "fact_id": _ok("str")},
    ),
    Case(
        "save_edit",
        dm.save_edit,
        lambda tmp: {
            "storage": _storage(tmp),
            "user_id": "alice",
            "agent_name": None,
            "change": _keep,
        },
        {"storage": _ok(), "user_id": _ok(), "agent_name": _ok("None"), "change": _ok()},
    ),
    Case(
        "apply_update",
        dm.apply_update,
        lambda tmp: {
            "document": _doc(),
            "update": dm.MemoryUpdate(),
            "thread_id": "t1",
            "now": "2026-12-01T00:00:00Z",
        },
        {"document": _ok(), "update": _ok(), "thread_id": _ok("str"), "now": _ok("str")},
    ),
    Case(
        "validate_update",
        dm.validate_update,
        lambda tmp: {"update": dm.MemoryUpdate()},
        {"update": _ok(), "limits": _ok("None")},
    ),
    Case(
        "check_fact_text",
        dm.check_fact_text,
        lambda tmp: {"text": "Drinks green tea", "max_chars": 500},
        {"text": _ok("str"), "max_chars": _ok("int")},
    ),
    Case(
        "filter_messages_for_memory",
        dm.filter_messages_for_memory,
        lambda tmp: {"messages": _messages()},
        MESSAGES,
    ),
    Case(
        "has_minimum_dialogue",
        dm.has_minimum_dialogue,
        lambda tmp: {"messages": _messages()},
        MESSAGES,
    ),
    Case(
        "detect_correction", dm.detect_correction, lambda tmp: {"messages": _messages()}, MESSAGES
    ),
    Case(
        "detect_reinforcement",
        dm.detect_reinforcement,
        lambda tmp: {"messages": _messages()},
        MESSAGES,
    ),
    Case(
        "format_conversation_for_update",
        dm.format_conversation_for_update,
        lambda tmp: {"messages": _messages(), "max_chars": 1000},
        {"messages": _ok(), "max_chars": _ok("int")},
    ),
    Case(
        "render_message_for_update",
        dm.render_message_for_update,
        lambda tmp: {"message": HumanMessage("I moved to Berlin"), "max_chars": 1000},
        {"message": _ok(), "max_chars": _ok("int")},
    ),
    Case(
        "format_memory_for_injection",
        dm.format_memory_for_injection,
        lambda tmp: {"memory": _doc(), "max_tokens": 2000},
        {"memory": _ok("None", "dict"), "max_tokens": _ok("int")},
    ),
    Case(
        "render_memory",
        dm.render_memory,
        lambda tmp: {"memory": _doc(), "counter": dm.get_token_counter("char")},
        {"memory": _ok("None", "dict"), "counter": _ok("None")},
    ),
    Case(
        "get_token_counter",
        dm.get_token_counter,
        lambda tmp: {"method": "tiktoken", "encoding": "o200k_base"},
        {"method": _ok(), "encoding": _ok()},
    ),
    Case(
        "prepend_memory_context",
        dm.prepend_memory_context,
        lambda tmp: {"messages": _messages(), "memory_context": "<user_memory>x</user_memory>"},
        {"messages": _ok(), "memory_context": _ok("None", "str")},
    ),
    Case(
        "memory_model_input",
        dm.memory_model_input,
        lambda tmp: {"state": {"messages": _messages()}, "system_prompt": "Be brief."},
        {"state": _ok(), "system_prompt": _ok("None", "str")},
    ),
    Case(
        "select_relevant_facts",
        dm.select_relevant_facts,
        lambda tmp: {"document": _doc(), "query": "peanuts"},
        {"document": _ok(), "query": _ok("str")},
    ),
    Case("is_constraint", dm.is_constraint, lambda tmp: {"fact": _doc().facts[0]}, {"fact": _ok()}),
    Case(
        "lexical_similarity",
        dm.lexical_similarity,
        lambda tmp: {"a": "allergic to peanuts", "b": "peanut allergy"},
        {"a": _ok("str"), "b": _ok("str")},
    ),
    Case(
        "time_frame_end",
        dm.time_frame_end,
        lambda tmp: {"text": "trip next week", "today": date(2026, 11, 30)},
        {"text": _ok("str"), "today": _ok()},
    ),
    Case(
        "memory_stats",
        dm.memory_stats,
        lambda tmp: {"document": _doc(), "user_id": "alice"},
        {
            "document": _ok(),
            "user_id": _ok("str"),
            "agent_name": _ok("None", "str"),
            "now": _ok("None", "int"),
            "window_days": _ok("int"),
        },
    ),
    Case(
        "storage_stats",
        dm.storage_stats,
        lambda tmp: {"storage": _storage(tmp)},
        {
            "storage": _ok(),
            "user_id": _ok("None", "str"),
            "agent_name": _ok("None", "str"),
            "now": _ok("None", "int"),
            "window_days": _ok("int"),
        },
    ),
    Case(
        "build_storage",
        dm.build_storage,
        lambda tmp: {"config": dm.MemoryConfig(storage_path=tmp / "memory")},
        {"config": _ok()},
    ),
    Case(
        "load_config",
        dm.load_config,
        lambda tmp: {"path": None},
        {"path": _ok("None", "str"), "environ": _ok("None", "dict")},
    ),
    Case(
        "MemoryConfig.for_tenant",
        lambda tenant_id: dm.MemoryConfig().for_tenant(tenant_id),
        lambda tmp: {"tenant_id": "acme"},
        {"tenant_id": _ok("None", "str")},
    ),
    Case(
        "resolve_identity",
        dm.resolve_identity,
        lambda tmp: {"config": {"configurable": {"user_id": "alice", "thread_id": "t1"}}},
        {"config": _ok("None", "dict"), "context": _ok("None", "dict")},
    ),
    Case(
        "user_id_for_identity",
        dm.user_id_for_identity,
        lambda tmp: {"identity": "alice@example.com"},
        {"identity": _ok("str")},
    ),
    Case(
        "FileMemoryStorage",
        dm.FileMemoryStorage,
        lambda tmp: {"root": tmp / "memory"},
        {"root": _ok("str")},
    ),
    Case(
        "FileMemoryStorage.load",
        lambda tmp, **kw: _storage(tmp).load(**kw),
        lambda tmp: {"user_id": "alice", "agent_name": None},
        {"user_id": _ok("str"), "agent_name": _ok("None", "str")},
    ),
    Case(
        "FileMemoryStorage.save",
        lambda tmp, **kw: _storage(tmp).save(**kw),
        lambda tmp: {"user_id": "alice", "agent_name": None, "document": _doc()},
        {
            "user_id": _ok("str"),
            "agent_name": _ok("None", "str"),
            "document": _ok(),
            "expected_revision": _ok("None", "int"),
        },
    ),
    Case(
        "MemoryDocument.from_json",
        dm.MemoryDocument.from_json,
        lambda tmp: {"text": "{}"},
        {"text": _ok("str", "bytes")},
    ),
]

CASES += [
    Case(
        "MemoryService",
        _new_service,
        lambda tmp: {"config": _config(tmp)},
        {"config": _ok("None"), "storage": _ok("None")},
    ),
    *(
        Case(name, factory, lambda tmp: {"service": _service(tmp)}, {"service": _ok()})
        for name, factory in (
            ("create_inject_memory_node", dm.create_inject_memory_node),
            ("create_capture_memory_node", dm.create_capture_memory_node),
            ("create_memory_tools", dm.create_memory_tools),
            ("memory_routes", dm.memory_routes),
            ("lifespan_for", lambda service: dm.lifespan_for(service)),
        )
    ),
    Case(
        "create_summarization_node",
        dm.create_summarization_node,
        lambda tmp: {"service": _service(tmp), "max_messages": 40},
        {"service": _ok(), "max_messages": _ok("None", "int"), "keep": _ok("None", "int")},
    ),
    Case(
        "add_memory_nodes",
        dm.add_memory_nodes,
        lambda tmp: {"builder": _builder(), "service": _service(tmp)},
        {"builder": _ok()},
    ),
    Case(
        "create_memory_agent",
        dm.create_memory_agent,
        lambda tmp: {"service": _service(tmp), "tools": [_a_tool]},
        {
            "model": _ok("None"),
            "tools": _ok(),
            "service": _ok("None"),
            "config": _ok("None"),
            "system_prompt": _ok("None", "str"),
            "summarize": _ok(),
            "memory_tools": _ok("None"),
            "checkpointer": _ok("None"),
            "store": _ok("None"),
            "name": _ok("str"),
        },
    ),
    Case(
        "SignalDetector",
        dm.SignalDetector,
        lambda tmp: {"extra_correction": ["redo it all"], "extra_reinforcement": ()},
        {"extra_correction": _ok(), "extra_reinforcement": _ok()},
    ),
    Case("HashingEmbeddings", dm.HashingEmbeddings, lambda tmp: {"dims": 16}, {"dims": _ok("int")}),
    Case(
        "build_chat_model",
        dm.build_chat_model,
        lambda tmp: {"config": _config(tmp)},
        {"config": _ok()},
    ),
    Case(
        "MemoryUpdateQueue",
        _queue,
        lambda tmp: {"handler": print, "debounce_seconds": 1.0, "max_workers": 1},
        {"handler": _ok(), "debounce_seconds": _ok("int"), "max_workers": _ok("int")},
    ),
    Case(
        "MemoryUpdater",
        dm.MemoryUpdater,
        lambda tmp: {
            "storage": _storage(tmp),
            "extractor": dm.OfflineExtractor(),
            "config": _config(tmp),
        },
        {
            "storage": _ok(),
            "extractor": _ok(),
            "config": _ok("None"),
            "embedder": _ok("None"),
            "now": _ok(),
            "count_tokens": _ok(),
            "render": _ok(),
            "is_constraint": _ok(),
        },
    ),
]


def _alice() -> dm.MemoryIdentity:
    return dm.MemoryIdentity("alice", None, "t1")


def _job() -> dm.UpdateJob:
    return dm.UpdateJob("t1", "alice", None, tuple(_messages()))


def _on_service(method: str) -> Callable[..., Any]:
    """A call of ``MemoryService.<method>`` on a new service in the temp folder (then closed)."""

    def call(tmp: Path, **kwargs: Any) -> Any:
        with dm.MemoryService(_config(tmp), register_atexit=False) as service:
            return getattr(service, method)(**kwargs)

    return call


def _set_retry_policy(tmp: Path, **kwargs: Any) -> None:
    with dm.MemoryService(_config(tmp), register_atexit=False) as service:
        service.retry_policy = kwargs["retry_policy"]


def _store() -> Any:
    from langgraph.store.memory import InMemoryStore

    return InMemoryStore()


def _new_middleware(**kwargs: Any) -> None:
    middleware = dm.MemoryMiddleware(**kwargs)
    if kwargs.get("service") is None:  # it built a service of its own
        middleware.service.close()


def _submodule(module: str, name: str) -> Callable[..., Any]:
    """A function exported by ``deerflow_memory.<module>.__all__`` only, imported at the call."""

    def call(**kwargs: Any) -> Any:
        return getattr(importlib.import_module(f"deerflow_memory.{module}"), name)(**kwargs)

    return call


IDENTITY = {"identity": _ok(), "store": _ok("None")}
TENANT = {"tenant_id": _ok("None", "str"), "store": _ok("None")}
TIMEOUT = {"timeout": _ok("None", "int")}

# Every public method of MemoryService, spoiled one argument at a time.
SERVICE_METHODS = [
    ("load", lambda tmp: {"identity": _alice()}, IDENTITY),
    (
        "memory_block",
        lambda tmp: {"identity": _alice(), "query": "peanuts"},
        {**IDENTITY, "query": _ok("str")},
    ),
    ("enqueue", lambda tmp: {"identity": _alice(), "messages": _messages()}, IDENTITY),
    ("last_saved_update", lambda tmp: {"identity": _alice()}, {"identity": _ok()}),
    (
        "write_dead_letter",
        lambda tmp: {"job": _job(), "error": "model down", "attempts": 1},
        {"job": _ok(), "error": _ok("str"), "attempts": _ok("int")},
    ),
    ("dead_letters", lambda tmp: {"user_id": "alice"}, {"user_id": _ok("None", "str")}),
    (
        "retry_dead_letters",
        lambda tmp: {"letter_ids": ["no-such-letter"], "user_id": "alice"},
        {"letter_ids": _ok("None"), "user_id": _ok("None", "str")},
    ),
    ("for_tenant", lambda tmp: {"tenant_id": "acme"}, TENANT),
    ("tenant_storage", lambda tmp: {"tenant_id": "acme"}, TENANT),
    ("storage_for", lambda tmp: {"store": None}, {"store": _ok("None")}),
    (
        "clear_memory",
        lambda tmp: {"user_id": "alice", "agent_name": None, "tenant_id": None},
        {"user_id": _ok("str"), "agent_name": _ok("None", "str"), **TENANT, **TIMEOUT},
    ),
    ("flush", lambda tmp: {"timeout": 5}, TIMEOUT),
    (
        "flush_tenant",
        lambda tmp: {"tenant_id": "acme"},
        {**TENANT, **TIMEOUT, "tenant_id": _ok("str")},
    ),
    (
        "flush_user",
        lambda tmp: {"user_id": "alice"},
        {"user_id": _ok("str"), **TENANT, **TIMEOUT},
    ),
    ("close", lambda tmp: {"timeout": 5}, TIMEOUT),
]

CASES += [
    *(
        Case(f"MemoryService.{method}", _on_service(method), valid, fuzz)
        for method, valid, fuzz in SERVICE_METHODS
    ),
    Case(
        "MemoryService.retry_policy",
        _set_retry_policy,
        lambda tmp: {"retry_policy": dm.RetryPolicy()},
        {"retry_policy": _ok()},
    ),
    Case(
        "MemoryService.parts",
        _new_service,
        lambda tmp: {
            "config": _config(tmp),
            "model": dm.OfflineStandInModel(),
            "embedder": dm.HashingEmbeddings(),
        },
        {"model": _ok("None"), "extractor": _ok("None"), "embedder": _ok("None")},
    ),
    Case(
        "StoreMemoryStorage",
        dm.StoreMemoryStorage,
        lambda tmp: {"store": _store(), "namespace_prefix": ("memory",)},
        {
            "store": _ok(),
            "namespace_prefix": _ok(),
            "document_lock": _ok("None"),
            "resources": _ok("None"),
            "update_locks": _ok("None"),
            "cache_budget": _ok("None"),
            "max_cached_documents": _ok("int"),
            "max_cached_facts": _ok("int"),
        },
    ),
    Case(
        "StoreMemoryStorage.save",
        lambda **kw: dm.StoreMemoryStorage(_store()).save(**kw),
        lambda tmp: {"user_id": "alice", "agent_name": None, "document": _doc()},
        {"document": _ok(), "expected_revision": _ok("None", "int")},
    ),
    Case(
        "StoreMemoryStorage.asave",
        lambda **kw: asyncio.run(dm.StoreMemoryStorage(_store()).asave(**kw)),
        lambda tmp: {"user_id": "alice", "agent_name": None, "document": _doc()},
        {"document": _ok(), "expected_revision": _ok("None", "int")},
    ),
    Case(
        "ModelExtractor",
        dm.ModelExtractor,
        lambda tmp: {"model": dm.OfflineStandInModel(), "structured_output": "auto"},
        {
            "model": _ok(),
            "structured_output": _ok(),
            "retry": _ok("None"),
            "memory_max_tokens": _ok("int"),
            "count_tokens": _ok(),
            "call_timeout": _ok("None", "int"),
        },
    ),
    Case(
        "JudgedExtractor",
        _submodule("update.judge", "JudgedExtractor"),
        lambda tmp: {"inner": dm.OfflineExtractor(), "judge": dm.OfflineStandInModel()},
        {"inner": _ok(), "judge": _ok()},
    ),
    Case(
        "build_extractor",
        _submodule("update.llm", "build_extractor"),
        lambda tmp: {"config": _config(tmp), "model": dm.OfflineStandInModel()},
        {"config": _ok(), "model": _ok("None")},
    ),
    Case(
        "MemoryMiddleware",
        _new_middleware,
        lambda tmp: {"service": _service(tmp)},
        {"service": _ok("None")},
    ),
    Case(
        "MemoryMiddleware.config",
        _new_middleware,
        lambda tmp: {"config": _config(tmp)},
        {"config": _ok("None")},
    ),
]


def _updater(tmp: Path) -> dm.MemoryUpdater:
    return dm.MemoryUpdater(_storage(tmp), dm.OfflineExtractor(), _config(tmp))


# Operator entry points exported from submodules only (the CLI's and the HTTP routes').
CASES += [
    Case(
        "migrate",
        _submodule("storage.migrate", "migrate"),
        lambda tmp: {"source": _storage(tmp), "target": dm.FileMemoryStorage(tmp / "copy")},
        {"source": _ok(), "target": _ok()},
    ),
    Case(
        "parse_backend_spec",
        _submodule("storage.migrate", "parse_backend_spec"),
        lambda tmp: {"spec": f"file:{tmp / 'copy'}", "base": _config(tmp)},
        {"spec": _ok(), "base": _ok("None")},
    ),
    Case(
        "retry_dead_letters",
        _submodule("update.dead_letter", "retry_dead_letters"),
        lambda tmp: {"storage": _storage(tmp), "updater": _updater(tmp), "letter_ids": ["x"]},
        {
            "storage": _ok(),
            "updater": _ok(),
            "letter_ids": _ok("None"),
            "user_id": _ok("None", "str"),
            "lock_timeout": _ok("None", "int"),
        },
    ),
    Case(
        "clear_memory",
        _submodule("update.forget", "clear_memory"),
        lambda tmp: {"storage": _storage(tmp), "user_id": "alice", "agent_name": None},
        {
            "storage": _ok(),
            "user_id": _ok(),
            "agent_name": _ok("None"),
            "lock_timeout": _ok("int"),
        },
    ),
    Case(
        "read_import",
        _submodule("update.import_check", "read_import"),
        lambda tmp: {"raw": _doc().to_json(), "name": "alice.json", "config": _config(tmp)},
        {"raw": _ok("str", "bytes"), "name": _ok("str"), "config": _ok("None")},
    ),
    Case(
        "brought_back_by_import",
        _submodule("update.import_check", "brought_back_by_import"),
        lambda tmp: {"current": _doc(), "incoming": _doc()},
        {"current": _ok(), "incoming": _ok()},
    ),
    Case(
        "candidates_from_text",
        _submodule("update.offline.text", "candidates_from_text"),
        lambda tmp: {"text": "I'm allergic to peanuts"},
        {"text": _ok("str")},
    ),
]

# Cases whose callable takes the temp folder first (storage and service methods).
_TAKES_TMP = {
    "FileMemoryStorage.load",
    "FileMemoryStorage.save",
    "MemoryService.retry_policy",
    *(f"MemoryService.{method}" for method, _, _ in SERVICE_METHODS),
}


def _spoiled() -> list[Any]:
    params = []
    for case in CASES:
        for argument, accepted in case.fuzz.items():
            for kind in BAD:
                if kind not in accepted:
                    params.append(
                        pytest.param(case, argument, kind, id=f"{case.name}-{argument}-{kind}")
                    )
    return params


def _call(case: Case, tmp: Path, kwargs: dict[str, Any]) -> Any:
    try:
        if case.name in _TAKES_TMP:
            return case.call(tmp, **kwargs)
        return case.call(**kwargs)
    finally:
        for value in kwargs.values():
            if isinstance(value, dm.MemoryService):
                value.close()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_valid_call_of_each_listed_function_works(case: Case, tmp_path: Path) -> None:
    _call(case, tmp_path, case.valid(tmp_path))


@pytest.mark.parametrize(("case", "argument", "kind"), _spoiled())
def test_a_wrong_typed_argument_raises_a_typed_error_naming_it(
    case: Case, argument: str, kind: str, tmp_path: Path
) -> None:
    kwargs = {**case.valid(tmp_path), argument: BAD[kind]}
    with pytest.raises(DeerflowMemoryError) as raised:
        _call(case, tmp_path, kwargs)
    message = str(raised.value)
    assert "\n" not in message.strip(), message
    assert argument in message, message


# --- the text helpers of updates and imports (attack 36 LOW) --------------------------------


@pytest.mark.parametrize("text", [None, 5, b"Likes tea", ["Likes tea"]])
def test_the_text_helpers_refuse_what_is_not_text_with_a_typed_error(text: object) -> None:
    from deerflow_memory.errors import InvalidArgumentError
    from deerflow_memory.models import says_nothing
    from deerflow_memory.update.validate import (
        clean_source_error,
        clean_summary,
        clean_text,
        cut_at_sentence,
        fact_text_problem,
    )

    calls = [
        lambda: clean_text(text),  # type: ignore[arg-type]
        lambda: clean_summary(text, 100),  # type: ignore[arg-type]
        lambda: clean_source_error(text, 100),  # type: ignore[arg-type]
        lambda: cut_at_sentence(text, 100),  # type: ignore[arg-type]
        lambda: fact_text_problem(text, max_chars=100),  # type: ignore[arg-type]
        lambda: says_nothing(text),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(InvalidArgumentError, match="must be text"):
            call()


@pytest.mark.parametrize("limit", [-1, 2.5, "100", None, True])
def test_the_text_helpers_refuse_a_bad_max_chars_with_a_config_error(limit: object) -> None:
    from deerflow_memory.errors import ConfigError
    from deerflow_memory.update.validate import (
        clean_source_error,
        clean_summary,
        cut_at_sentence,
        fact_text_problem,
    )

    text = "Lives in Oslo. Works at a bakery."
    for call in (
        lambda: clean_summary(text, limit),  # type: ignore[arg-type]
        lambda: clean_source_error(text, limit),  # type: ignore[arg-type]
        lambda: cut_at_sentence(text, limit),  # type: ignore[arg-type]
        lambda: fact_text_problem(text, max_chars=limit),  # type: ignore[arg-type]
    ):
        with pytest.raises(ConfigError, match="max_chars"):
            call()
    assert cut_at_sentence(text, 20) == "Lives in Oslo."  # a good limit still cuts
    assert clean_summary(text, 0) == ""


def test_create_memory_agent_refuses_a_model_class_and_a_tool_without_docstring(
    tmp_path: Path,
) -> None:
    # attacker 58: both built, then failed at the first turn or in LangChain
    from deerflow_memory.standin import OfflineStandInModel

    with dm.MemoryService(_config(tmp_path)) as service:
        with pytest.raises(dm.InvalidArgumentError, match="model must be"):
            dm.create_memory_agent(OfflineStandInModel, service=service)
        with pytest.raises(dm.InvalidArgumentError, match=r"tools\[0\] .* has no docstring"):
            dm.create_memory_agent(OfflineStandInModel(), [lambda city: city], service=service)
