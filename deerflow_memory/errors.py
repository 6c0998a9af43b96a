"""Exceptions raised by deerflow_memory.

Every error the package raises on purpose derives from
:class:`DeerflowMemoryError`, so callers can catch one type. The
subclasses also derive from the closest built-in (``ValueError``, ``OSError``,
``ImportError``) so generic handlers keep working.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

CHAIN_LIMIT = 10
"""Errors :func:`error_chain` yields at most (an error, then its causes)."""


def error_chain(
    error: BaseException, limit: int = CHAIN_LIMIT, *, context: bool = True
) -> Iterator[BaseException]:
    """``error``, then its ``__cause__`` (else its ``__context__``), then that one's, and so on.

    Args:
        error: where the chain starts (yielded first).
        limit: at most this many errors are yielded.
        context: follow ``__context__`` (an error raised while handling
            another) when there is no ``__cause__``; False follows
            ``raise ... from`` only.

    Each error is yielded once: a chain that leads back to an error already
    seen ends there.
    """
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and len(seen) < limit and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or (current.__context__ if context else None)


class DeerflowMemoryError(Exception):
    """Base class of every error raised by deerflow_memory.

    Picklable with its message and attributes (to and from a worker process), also
    for subclasses whose ``__init__`` takes other arguments than the message: an
    ``Exception`` is rebuilt by calling its class with ``args``, which those would
    misread.
    """

    def __reduce__(self) -> str | tuple[Any, ...]:
        if not _own_init(type(self)):  # the built-in's own way keeps its fields (errno, name)
            return super().__reduce__()
        # The attributes go as pickle's state, set after the error exists: one that refers
        # back to the error (``e.me = e``) is kept too, and so are the built-in's fields.
        state = dict(self.__dict__)
        for field in _BUILT_IN_FIELDS:
            if getattr(self, field, None) is not None:  # (a None set shows: "… -> None")
                state[field] = getattr(self, field)
        return _rebuilt, (type(self), self.args), state


# Fields OSError and ImportError keep outside ``args`` and ``__dict__``.
_BUILT_IN_FIELDS = ("errno", "strerror", "filename", "filename2", "name", "path")


def _own_init(cls: type) -> bool:
    # Whether ``cls`` is built by another ``__init__`` than its first built-in base's (its
    # own, a base's of ours, or a mixin's): then the built-in's ``cls(*args)`` misreads.
    builtin = next(k for k in cls.__mro__ if k.__module__ == "builtins")
    init = next(vars(k)["__init__"] for k in cls.__mro__ if "__init__" in vars(k))
    return init is not vars(builtin).get("__init__", init)


def _rebuilt(cls: type[DeerflowMemoryError], args: tuple[Any, ...]) -> DeerflowMemoryError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    return error


class ConfigError(DeerflowMemoryError, ValueError):
    """A configuration value is missing, malformed or out of range."""


class InvalidNameError(DeerflowMemoryError, ValueError):
    """A user id or agent name is unsafe to use as a storage key (or a thread id is not text)."""


class IdentityMismatchError(DeerflowMemoryError, ValueError):
    """A run names another user or tenant than its authenticated caller; nothing was done.

    Under a LangGraph server with custom auth the authenticated user
    (``configurable["langgraph_auth_user_id"]``, and the auth user's ``tenant_id``
    when it has one) decides whose memory a run uses; a ``user_id`` or
    ``tenant_id`` in the run's context or ``configurable`` must name the same.
    A ``ValueError`` (not ``PermissionError``) so LangGraph's server shows the
    client its message, not only "An internal error occurred".
    """

    def __init__(self, kind: str, given: str, authenticated: str) -> None:
        self.kind = kind
        self.given = given
        self.authenticated = authenticated
        # The user id is the caller; any other kind is an attribute of the caller.
        whose = "authenticated caller" if kind == "user_id" else f"authenticated caller's {kind}"
        super().__init__(
            f"the run asks for {kind} {given[:80]!r}, but its {whose} is "
            f"{authenticated[:80]!r}: a signed-in caller reaches only their own memory "
            f"(leave {kind} out, or give their own)"
        )


class UnknownTenantError(InvalidNameError):
    """A ``tenant_id`` not named under ``tenants:`` while ``only_configured_tenants`` is on.

    An :class:`InvalidNameError`, so it is refused where an unsafe name is (HTTP 400,
    CLI exit 2), before anything is opened, read or written.
    """

    def __init__(self, tenant_id: str) -> None:
        self.tenant_id = tenant_id
        super().__init__(
            f"tenant_id {tenant_id!r} is not configured: only_configured_tenants is on and "
            "tenants: does not name it"
        )


class InvalidArgumentError(DeerflowMemoryError, TypeError):
    """An argument of a public function has the wrong type; nothing was done.

    Raised where no more specific error fits (a document gets
    :class:`InvalidDocumentError`, messages :class:`InvalidMessagesError`, a
    budget or path :class:`ConfigError`); the message names the argument and
    what it must be (:mod:`deerflow_memory.arguments`).
    """


class InvalidMessagesError(DeerflowMemoryError, TypeError):
    """``messages`` is not a sequence of LangChain ``BaseMessage`` objects; nothing was queued."""


class InvalidFactError(DeerflowMemoryError, ValueError):
    """A fact's text cannot be stored: empty, punctuation-only, a placeholder or too long."""


_NAMED_AT_MOST = 3  # facts a FactNotFoundError names for a part of their text


class FactNotFoundError(DeerflowMemoryError, LookupError):
    """No current fact has the given id (it may have been deleted or edited meanwhile).

    ``near`` names a current id that differs only in case, whitespace, Unicode form or
    invisible characters (``"f1 "`` given, ``"f1"`` stored), or otherwise slightly
    (``"fact_2d9689f"`` for ``"fact_2d9689f6"``; ``why`` then says how, such as
    ``"1 character differs"``): the message then asks whether it was meant.
    ``text_of`` names the current fact whose text was given in place of its id
    (``"Likes tea"`` for ``"fact_1"``; an id that differs only slightly, ``near``, is
    named first). ``text_in`` holds the ids of the current facts whose text
    holds what was given (three or more characters), when no fact's whole text is it
    (``"tea"`` for ``"Likes tea"``); the message names the first three.
    ``in_history``: the id is of a fact already deleted or edited away (it is in the
    history).
    """

    def __init__(
        self,
        fact_id: str,
        near: str | None = None,
        *,
        text_of: str | None = None,
        text_in: tuple[str, ...] = (),
        in_history: bool = False,
        why: str | None = None,
    ) -> None:
        self.fact_id = fact_id
        self.near = near
        self.text_of = text_of
        self.text_in = text_in
        self.in_history = in_history
        shown = str(fact_id)[:80]  # built by hand, the id may be any value: still a message
        if in_history:
            super().__init__(
                f"no current fact with id {shown!r}: it was already deleted or "
                "replaced (it is kept in the memory's history)"
            )
            return
        if text_of is not None and near is None:
            super().__init__(
                f"no current fact with id {shown!r}, but that is the text of "
                f"{str(text_of)[:80]!r}: give its id"
            )
            return
        if near is not None:
            why = why or (
                "ids are compared exactly: case, whitespace, Unicode form and invisible "
                "characters count"
            )
            super().__init__(
                f"no current fact with id {shown!r}; did you mean {str(near)[:80]!r}? ({why})"
            )
            return
        if text_in:
            ids = ", ".join(repr(str(i)[:80]) for i in text_in[:_NAMED_AT_MOST])
            more = len(text_in) - _NAMED_AT_MOST
            ids += f" and {more} more (show lists them)" if more > 0 else ""
            super().__init__(
                f"no current fact with id {shown!r}; it is part of the text of {ids}: "
                "give the id of the one meant"
            )
            return
        super().__init__(
            f"no current fact with id {shown!r}: it was removed or replaced, or never existed"
        )


class StorageError(DeerflowMemoryError, OSError):
    """A memory document could not be read or written."""


class CorruptMemoryError(StorageError):
    """A stored memory document exists but cannot be parsed.

    The file (or store item) is left untouched so nothing is lost; repair or
    move it away, then retry.
    """

    def __init__(self, location: str | Path, reason: str) -> None:
        self.location = str(location)
        self.reason = reason
        super().__init__(
            f"corrupt memory document at {self.location}: {reason} "
            "(left untouched; repair or move it away to start fresh)"
        )


class StoreClosedError(StorageError):
    """The LangGraph store (or its connection or pool) was closed; it cannot be used again.

    Typically the app closed it before the memory service (a ``with
    SqliteStore…`` or ``async with AsyncPostgresStore…`` block ended first).
    Nothing is retried: close (or flush) the service while its store is open
    (README: "Close memory before its store"). The store's own error is the
    ``__cause__``.
    """


class ForkedServiceError(DeerflowMemoryError, RuntimeError):
    """A :class:`~deerflow_memory.MemoryService` made before ``os.fork`` used in the child.

    Its threads did not survive the fork and its outbox journal is the parent's,
    so the child cannot queue or flush updates with it; nothing was queued or
    written. Make the service in each worker process, after the fork: gunicorn
    without ``--preload`` (or in ``post_fork``), Celery in
    ``worker_process_init``, ``multiprocessing`` with the ``spawn`` start method.
    """

    def __init__(self, made_in: int) -> None:
        super().__init__(
            f"this MemoryService was made in process {made_in}, before the fork that made "
            f"process {os.getpid()}: make one in each worker process, after the fork "
            "(gunicorn without --preload or in post_fork, Celery in worker_process_init, "
            "multiprocessing with the 'spawn' start method); nothing was queued"
        )
        self.made_in = made_in


class RevisionConflictError(StorageError):
    """``save(..., expected_revision=N)`` found another revision stored."""

    def __init__(self, user_id: str, agent_name: str | None, expected: int, actual: int) -> None:
        self.user_id = user_id
        self.agent_name = agent_name
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"memory of user {user_id!r} (agent {agent_name!r}) is at revision {actual}, "
            f"expected {expected}: reload and re-apply the change"
        )


class UpdateParseError(DeerflowMemoryError, ValueError):
    """The memory model's answer is not a valid memory update; nothing was changed."""


class ModelCallError(DeerflowMemoryError):
    """The memory model could not be called (network, HTTP or timeout error)."""


class EmbeddingError(DeerflowMemoryError):
    """The embedder (or a store's vector index) failed or returned malformed vectors.

    Raised at one boundary (:class:`~deerflow_memory.inject.vectors.FactVectors`
    and the store search): the embedder's own exception is the ``__cause__``.
    The inject path catches it and ranks lexically for that turn.
    """


class StateSchemaError(DeerflowMemoryError, TypeError):
    """A graph's state lacks a key the memory nodes need."""


class ToolNameError(DeerflowMemoryError, ValueError):
    """An agent's tools share a name (one would shadow the other), or a tool name is invalid.

    Attributes:
        names: the names at fault.
    """

    def __init__(self, message: str, names: tuple[str, ...] = ()) -> None:
        self.names = names
        super().__init__(message)


class MissingDependencyError(DeerflowMemoryError, ImportError):
    """An optional dependency is not installed; the message names the extra to install."""


def install_hint(extra: str) -> str:
    """How to install one of the package's extras, from PyPI and from a checkout."""
    return f'pip install "deerflow-memory[{extra}]" (in a checkout: pip install -e ".[{extra}]")'


class _MemoryTimeoutError(DeerflowMemoryError):
    """Base of the errors about one (user, agent) memory that timed out; ``_message`` formats it."""

    _message: ClassVar[str]

    def __init__(self, user_id: str, agent_name: str | None, timeout: float) -> None:
        self.user_id = user_id
        self.agent_name = agent_name
        self.timeout = timeout
        message = self._message.format(user_id=user_id, agent_name=agent_name, timeout=timeout)
        super().__init__(message)


class MemoryBusyError(_MemoryTimeoutError):
    """A whole memory was not deleted: an update of it did not finish in time; nothing changed."""

    _message = (
        "memory of user {user_id!r} (agent {agent_name!r}) not deleted: an update of it "
        "did not finish within {timeout:g} s; nothing was changed, try again"
    )


class UpdateLockTimeoutError(_MemoryTimeoutError, StorageError):
    """A memory update could not get its (user, agent) lock in time; it is dead-lettered."""

    _message = (
        "no update lock for user {user_id!r} (agent {agent_name!r}) within {timeout:g} s: "
        "another process holds it; raise update_lock_timeout_seconds or retry the dead letter"
    )


class InvalidDocumentError(DeerflowMemoryError, ValueError):
    """A file to import is not a valid memory document; the message lists what is wrong."""
