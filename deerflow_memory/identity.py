"""Who a turn belongs to: ``user_id``, ``agent_name`` and ``thread_id`` of a graph run.

Resolution order (SPEC §12): the run's context (``context_schema``; an object
with attributes or a mapping), then ``config["configurable"]``, then LangMem's
convention ``configurable["langgraph_user_id"]``, then the authenticated user
LangGraph's server puts in ``configurable`` (``langgraph_auth_user_id``), then
``"default"``. ``tenant_id`` (a business line: the same user id in two tenants
is two memories) is read the same way, context then ``configurable``; absent
means no tenant, the storage layout of before tenants existed. Identity is captured when an
update is enqueued, because timer and worker threads do not see the run's
context variables. Unsafe names raise :class:`InvalidNameError` here, before
any storage is touched.

``thread_id`` is stored as a fact's source and in the thread's watermark, so
it is kept bounded (:func:`thread_key`): a string of at most
:data:`MAX_THREAD_ID_LENGTH` characters without control characters or lone
surrogates is used as is; any other string becomes ``"thread-sha256:"`` + 32
hex digits of its hash (stable, so the watermark stays per thread); an ``int``
or ``UUID`` becomes its ``str`` (as LangGraph does); any other type raises
:class:`InvalidNameError`. :class:`MemoryIdentity` applies it however it is built.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langchain_core.runnables import RunnableConfig

from deerflow_memory.errors import InvalidNameError
from deerflow_memory.storage.base import validate_name

__all__ = [
    "DEFAULT_USER_ID",
    "HASHED_THREAD_PREFIX",
    "MAX_THREAD_ID_LENGTH",
    "UNKNOWN_THREAD_ID",
    "MemoryIdentity",
    "resolve_identity",
    "thread_key",
]

DEFAULT_USER_ID = "default"
UNKNOWN_THREAD_ID = "unknown"
MAX_THREAD_ID_LENGTH = 256
HASHED_THREAD_PREFIX = "thread-sha256:"
_UNSAFE_IN_THREAD = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def thread_key(thread_id: object) -> str:
    """The thread id memory stores for ``thread_id`` (see the module docstring); pure.

    Raises:
        InvalidNameError: ``thread_id`` is not a string, an ``int`` or a ``UUID``.
    """
    if isinstance(thread_id, str):
        if len(thread_id) <= MAX_THREAD_ID_LENGTH and not _UNSAFE_IN_THREAD.search(thread_id):
            return thread_id
        digest = hashlib.sha256(thread_id.encode("utf-8", "surrogatepass")).hexdigest()
        return HASHED_THREAD_PREFIX + digest[:32]
    if (isinstance(thread_id, int) and not isinstance(thread_id, bool)) or isinstance(
        thread_id, uuid.UUID
    ):
        return thread_key(str(thread_id))
    raise InvalidNameError(
        f"thread_id must be a string (or an int or UUID), got {type(thread_id).__name__}"
    )


@dataclass(frozen=True, slots=True)
class MemoryIdentity:
    """The memory document a turn reads and writes, and the thread it came from.

    ``thread_id`` is made safe to store on construction (:func:`thread_key`):
    a long or unsafe one is replaced by a stable hashed form.

    Raises:
        InvalidNameError: ``thread_id`` is not a string, an ``int`` or a ``UUID``.
    """

    user_id: str
    agent_name: str | None
    thread_id: str
    tenant_id: str | None = None

    def __post_init__(self) -> None:
        key = thread_key(self.thread_id)
        if key is not self.thread_id:
            object.__setattr__(self, "thread_id", key)


def _lookup(source: Any, key: str) -> Any:
    if source is None:
        return None
    if isinstance(source, Mapping):
        return source.get(key)
    return getattr(source, key, None)


def _first(*values: Any) -> Any:
    for value in values:
        if value is not None and value != "":
            return value
    return None


def resolve_identity(
    config: RunnableConfig | None,
    context: Any = None,
    *,
    default_agent_name: str | None = None,
) -> MemoryIdentity:
    """Resolve and validate the identity of the current run.

    Args:
        config: the run's ``RunnableConfig`` (``configurable`` is read).
        context: the run's context (``runtime.context``), object or mapping.
        default_agent_name: agent name when neither context nor config gives one.

    Raises:
        InvalidNameError: the user id or agent name is unsafe as a storage key,
            or the thread id is not a string, ``int`` or ``UUID``.
    """
    configurable: Mapping[str, Any] = (config or {}).get("configurable") or {}
    user_id = _first(
        _lookup(context, "user_id"),
        configurable.get("user_id"),
        configurable.get("langgraph_user_id"),
        configurable.get("langgraph_auth_user_id"),
        DEFAULT_USER_ID,
    )
    agent_name = _first(
        _lookup(context, "agent_name"), configurable.get("agent_name"), default_agent_name
    )
    tenant_id = _first(_lookup(context, "tenant_id"), configurable.get("tenant_id"))
    thread_id = _first(configurable.get("thread_id"), UNKNOWN_THREAD_ID)
    return MemoryIdentity(
        user_id=validate_name(user_id, "user_id"),
        agent_name=None if agent_name is None else validate_name(agent_name, "agent_name"),
        thread_id=thread_id,
        tenant_id=None if tenant_id is None else validate_name(tenant_id, "tenant_id"),
    )
