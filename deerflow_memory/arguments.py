"""Type checks of what callers pass to the public functions: one typed error naming the argument.

SPEC §15 wants bad input answered by a clear, typed error. The public
functions check the arguments a caller supplies with these helpers before
using them, so a wrong type raises the package's error for that kind of input
(:class:`~deerflow_memory.errors.InvalidDocumentError` for a document,
:class:`~deerflow_memory.errors.ConfigError` for a budget or a path, ... and
:class:`~deerflow_memory.errors.InvalidArgumentError` where nothing more
specific fits) with one line, ``"<argument> must be <what>, got <type>"``,
instead of a ``TypeError`` or ``AttributeError`` from deep inside, or a
silently wrong answer.

Each check is one or two ``isinstance`` calls (a ``bool`` is never taken for a
number); checks sit only at the public entry points, not in the loops behind
them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn

from deerflow_memory.errors import InvalidArgumentError, InvalidDocumentError
from deerflow_memory.models import MemoryDocument

__all__ = [
    "ErrorType",
    "expect",
    "expect_chat_model",
    "expect_document",
    "expect_embedder",
    "expect_extractor",
    "expect_items",
    "expect_number",
    "expect_store",
    "expect_text",
    "wrong_type",
]

ErrorType = Callable[[str], Exception]
"""An error class that takes one message (every package error without its own ``__init__``)."""


def wrong_type(
    name: str, what: str, value: object, error: ErrorType = InvalidArgumentError
) -> NoReturn:
    """Raise ``error("<name> must be <what>, got <type of value>")``."""
    raise error(f"{name} must be {what}, got {type(value).__name__}")


def expect(
    value: object,
    kind: type | tuple[type, ...],
    name: str,
    what: str,
    error: ErrorType = InvalidArgumentError,
    *,
    optional: bool = False,
) -> None:
    """Raise ``error`` unless ``value`` is an instance of ``kind`` (or None, when ``optional``).

    Args:
        value: what the caller passed.
        kind: the accepted type(s).
        name: the argument's name, as the caller wrote it.
        what: what it must be, for the message (``"a MemoryDocument"``).
        error: the error class raised.
        optional: None is accepted too.

    Raises:
        error: ``value`` has another type.
    """
    if isinstance(value, kind) or (optional and value is None):
        return
    wrong_type(name, f"{what} or None" if optional else what, value, error)


def expect_items(
    value: object,
    kind: type,
    name: str,
    what: str,
    error: ErrorType = InvalidArgumentError,
    *,
    hint: str = "",
) -> tuple[Any, ...]:
    """``value`` as a tuple, when it is a sequence (not text, bytes or a mapping) of ``kind``.

    Args:
        value: what the caller passed.
        kind: the type every item must have.
        name: the argument's name, as the caller wrote it.
        what: what one item is, for the messages (``"LangChain message"``: "a
            list of LangChain messages", "not a LangChain message").
        error: the error class raised.
        hint: added to the message about a wrong item (what to do).

    Raises:
        error: ``value`` is no such sequence (``None``, a string, a dict), or
            an item has another type (the first one is named by its index).
    """
    if isinstance(value, str | bytes | bytearray | Mapping) or not isinstance(value, Sequence):
        wrong_type(name, f"a list of {what}s", value, error)
    items = tuple(value)
    for index, item in enumerate(items):
        if not isinstance(item, kind):
            raise error(f"{name}[{index}] is a {type(item).__name__}, not a {what}{hint}")
    return items


def expect_text(
    value: object, name: str, error: ErrorType = InvalidArgumentError, *, optional: bool = False
) -> None:
    """Raise ``error`` unless ``value`` is a ``str`` (or None, when ``optional``)."""
    expect(value, str, name, "text (a str)", error, optional=optional)


def expect_number(
    value: object,
    name: str,
    error: ErrorType = InvalidArgumentError,
    *,
    integer: bool = False,
    optional: bool = False,
) -> None:
    """Raise ``error`` unless ``value`` is an int (or, unless ``integer``, a float); never a bool.

    Range and finiteness are the caller's to check: this is about the type only.
    """
    if value is None and optional:
        return
    if isinstance(value, int if integer else (int, float)) and not isinstance(value, bool):
        return
    what = "an int" if integer else "a number"
    wrong_type(name, f"{what} or None" if optional else what, value, error)


def expect_document(value: object, name: str = "document") -> None:
    """Raise :class:`~deerflow_memory.errors.InvalidDocumentError` unless ``value`` is one."""
    if not isinstance(value, MemoryDocument):
        wrong_type(
            name,
            "a MemoryDocument (MemoryDocument.model_validate reads a dict)",
            value,
            InvalidDocumentError,
        )


def expect_store(value: object, name: str = "store", *, optional: bool = False) -> None:
    """Raise ``InvalidArgumentError`` unless ``value`` is a LangGraph store (None if ``optional``).

    A store is a ``BaseStore``; ``langgraph`` is imported only when a value (not None) is checked.
    """
    if value is None and optional:
        return
    from langgraph.store.base import BaseStore

    what = "a LangGraph BaseStore (InMemoryStore, SqliteStore, PostgresStore, ...)"
    expect(value, BaseStore, name, what, optional=optional)


def expect_chat_model(value: object, name: str = "model", *, optional: bool = False) -> None:
    """Raise ``InvalidArgumentError`` unless ``value`` is a LangChain chat model.

    A chat model is a LangChain ``BaseChatModel`` (``ChatOpenAI``,
    ``init_chat_model(...)``, ...); a model name is not one (``build_chat_model``
    builds a model from a config).
    """
    if value is None and optional:
        return
    from langchain_core.language_models import BaseChatModel

    expect(value, BaseChatModel, name, "a LangChain chat model (BaseChatModel)", optional=optional)


def expect_extractor(value: object, name: str = "extractor", *, optional: bool = False) -> None:
    """Raise ``InvalidArgumentError`` unless ``value`` extracts memory updates.

    Accepted: an object with a callable ``extract(request)`` (an
    :class:`~deerflow_memory.update.extraction.Extractor`) or a LangChain chat model.
    """
    if (value is None and optional) or callable(getattr(value, "extract", None)):
        return
    from langchain_core.language_models import BaseChatModel

    if not isinstance(value, BaseChatModel):
        what = "an Extractor (with extract(request)) or a chat model"
        wrong_type(name, f"{what} or None" if optional else what, value)


def expect_embedder(value: object, name: str = "embedder", *, optional: bool = False) -> None:
    """Raise ``InvalidArgumentError`` unless ``value`` embeds text.

    An embedder has callable ``embed_query`` and ``embed_documents`` (any
    LangChain ``Embeddings``).
    """
    if value is None and optional:
        return
    if not (
        callable(getattr(value, "embed_query", None))
        and callable(getattr(value, "embed_documents", None))
    ):
        what = "an embedder (LangChain Embeddings: embed_query and embed_documents)"
        wrong_type(name, f"{what} or None" if optional else what, value)
