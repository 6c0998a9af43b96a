"""A state whose messages are missing or not messages: a StateSchemaError in nodes and middleware.

``{"messages": 5}`` raised a bare ``TypeError`` deep in the inject or capture
node, and ``MemoryMiddleware``'s hooks a ``KeyError: 'messages'`` for a state
without them (sweeper 57).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.errors import StateSchemaError
from deerflow_memory.nodes import state_messages

BAD_STATES: list[tuple[dict[str, Any], str]] = [
    ({}, "need a 'messages' key"),
    ({"messages": 5}, "got int"),
    ({"messages": "hello"}, "got str"),
    ({"messages": {"role": "user"}}, "got dict"),
]


@pytest.mark.parametrize(("state", "said"), BAD_STATES)
def test_state_messages_names_what_is_wrong(state: dict[str, Any], said: str) -> None:
    with pytest.raises(StateSchemaError, match=said) as raised:
        state_messages(state)
    assert "\n" not in str(raised.value)


def test_state_messages_returns_a_list_of_messages_as_it_is() -> None:
    messages = [HumanMessage("I live in Porto")]
    assert state_messages({"messages": messages}) is messages


@pytest.mark.parametrize(("state", "said"), BAD_STATES)
def test_the_middlewares_hooks_raise_the_same_error(
    state: dict[str, Any], said: str, tmp_path: Path
) -> None:
    from deerflow_memory.middleware import MemoryMiddleware

    service = MemoryService(MemoryConfig(storage_path=tmp_path, outbox=False))
    try:
        middleware = MemoryMiddleware(service)
        with pytest.raises(StateSchemaError, match=said):
            middleware.after_agent(state, None)  # type: ignore[arg-type]
    finally:
        service.close()
