"""Format a memory document into a token-budgeted ``<user_memory>`` block for the model.

Layout (English headings, stored text as written)::

    <user_memory>
    ## User context
    - Work: ...
    - Personal: ...
    - Top of mind: ...

    ## History
    - Recent months: ...
    - Earlier: ...
    - Long-term background: ...

    ## Facts
    - [correction] Uses Python 3.12 (not: Python 3.8)
    - [preference] Does not eat seafood
    </user_memory>

Budget rule (one rule, property-tested):

0. **Constraints** (allergies, diet, medical and accessibility needs: see
   :func:`~deerflow_memory.inject.constraints.is_constraint`) come first, by
   confidence, while their lines fit ``constraint_token_budget``; a fact that
   does not fit is skipped whole and smaller ones are still tried.
1. **Guaranteed facts** (categories in ``guaranteed_categories``) are taken by
   confidence, highest first, while their lines fit ``guaranteed_token_budget``;
   a fact that does not fit is skipped whole and smaller ones are still tried.
2. **Regular facts** follow by confidence (ties: newer ``createdAt`` first, as
   moments, an unparsable one last; then ``id``) while the whole block stays
   within ``max_tokens``; a fact that does not fit is skipped whole and smaller
   ones are still tried. Guaranteed facts left over by steps 0 and 1 compete
   here like regular ones (their budgets are reserves, not caps).
3. **Summaries** get what is left: user context before history, each summary
   cut at sentence boundaries, a summary with no sentence left dropped, a
   heading with no summary left dropped. So the facts block is a protected
   suffix: summaries never take a fact's place (the facts chosen are the same
   as for the document without summaries).
4. The block, wrapper tags included, never exceeds ``max_tokens`` by the
   chosen counter, **except** that the facts chosen in steps 0 and 1 are
   always kept: the bound is ``max(max_tokens, tokens of the block holding
   only those facts)`` (allergies and corrections survive a tiny ``max_tokens``).

Stored text is escaped (:func:`escape_memory_text`) so it can never close the
block, open a ``<system-reminder>`` or spell a special token. The same document
and parameters always give the same bytes (no dates inside the block), so
provider prefix caches hold while memory is unchanged.

How it fails: a mapping that is not a valid document (or a value that is no
mapping) raises :class:`~deerflow_memory.errors.InvalidDocumentError`; a
negative or non-finite budget, an unknown counting method or encoding, or
guaranteed categories that are not strings raise
:class:`~deerflow_memory.errors.ConfigError` (both are ``ValueError``). Token
counting itself never raises (see :mod:`deerflow_memory.inject.tokens`).
"""

from __future__ import annotations

import array
import datetime
import math
import numbers
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from deerflow_memory.arguments import expect_items, expect_text, wrong_type
from deerflow_memory.errors import ConfigError, InvalidDocumentError, InvalidMessagesError
from deerflow_memory.inject.budget import InjectionResult, _render
from deerflow_memory.inject.constraints import guaranteed_members
from deerflow_memory.inject.lines import (
    MEMORY_CLOSE_TAG,
    MEMORY_OPEN_TAG,
    escape_memory_text,
    format_fact_line,
)
from deerflow_memory.inject.tokens import (
    CharTokenCounter,
    EncodingName,
    TiktokenCounter,
    TokenCounter,
    TokenCountingMethod,
    get_token_counter,
)
from deerflow_memory.models import FactCategory, MemoryDocument, first_problem, unique_fact_ids

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage

__all__ = [
    "MEMORY_CLOSE_TAG",
    "MEMORY_OPEN_TAG",
    "InjectionResult",
    "build_memory_context",
    "escape_memory_text",
    "format_fact_line",
    "format_memory_for_injection",
    "prepend_memory_context",
    "render_memory",
]

_MEMORY_INSTRUCTION = (
    "Use this memory silently where it is relevant; do not mention it unless the user asks."
)


class _ResultCache:
    """Recent results keyed on the identity of a (frozen) document and the parameters.

    Identity, not equality: hashing a 200-fact document costs more than
    rendering it. Each entry keeps a weak reference to its document and a strong
    one to its counter, and a hit requires both to be the very same objects, so
    a new document that reuses a dead one's ``id`` never gets a stale result.
    """

    def __init__(self, maxsize: int = 64) -> None:
        self._maxsize = maxsize
        self._lock = threading.Lock()
        self._entries: OrderedDict[
            tuple[Any, ...], tuple[weakref.ref[MemoryDocument], TokenCounter, InjectionResult]
        ] = OrderedDict()

    def get(
        self, key: tuple[Any, ...], doc: MemoryDocument, counter: TokenCounter
    ) -> InjectionResult | None:
        entry = self._entries.get(key)
        if entry is None or entry[0]() is not doc or entry[1] is not counter:
            return None
        return entry[2]

    def put(
        self,
        key: tuple[Any, ...],
        doc: MemoryDocument,
        counter: TokenCounter,
        result: InjectionResult,
    ) -> None:
        with self._lock:
            self._entries[key] = (weakref.ref(doc), counter, result)
            self._entries.move_to_end(key)
            while len(self._entries) > self._maxsize:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


_results = _ResultCache()


# Whatever has a count() that counts something else: text, bytes and every sequence
# (deque, range, UserList, UserString, array), and a class given for an instance.
_NOT_COUNTERS = (str, bytes, bytearray, memoryview, Sequence, array.array, type)


class _CheckedCounter:
    """A caller's counter whose every count must be an integer >= 0 (a ``ConfigError`` if not).

    A count of ``None`` or ``"3"`` raised a bare ``TypeError`` deep in the budget
    rule; a negative one let every fact in and reported negative tokens.
    """

    __slots__ = ("_count",)

    def __init__(self, counter: TokenCounter) -> None:
        self._count = counter.count

    def count(self, text: str) -> int:
        value: object = self._count(text)
        # An integer of another type (numpy's, an int subclass) is fine; a bool is no count.
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
            raise ConfigError(
                f"counter.count must return an int >= 0, got {value!r} for {text[:40]!r}"
            )
        return int(value)


def _budget(value: object) -> bool:
    """True for a usable token budget: a finite number >= 0 (not a bool, not NaN)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    # An int is finite at any size (math.isfinite raises OverflowError past a float's).
    return (isinstance(value, int) or math.isfinite(value)) and value >= 0


def _document(memory: object) -> MemoryDocument:
    if not isinstance(memory, Mapping):
        raise InvalidDocumentError(
            "memory must be a MemoryDocument, a mapping shaped like memory.json or None, "
            f"got {type(memory).__name__}"
        )
    try:
        document = MemoryDocument.model_validate(memory)
    except ValidationError as e:
        message = f"memory is not a valid document: {first_problem(e, 'memory')}"
        raise InvalidDocumentError(message) from e
    # A fact listed twice is shown once (the rule loads apply; quietly: this runs every turn).
    return unique_fact_ids(document, None)[0]


def render_memory(
    memory: MemoryDocument | Mapping[str, Any] | None,
    max_tokens: int = 2000,
    *,
    guaranteed_categories: Iterable[str | FactCategory] = ("correction",),
    guaranteed_token_budget: int = 500,
    token_counting: TokenCountingMethod = "tiktoken",
    encoding: EncodingName = "o200k_base",
    counter: TokenCounter | None = None,
    constraint_token_budget: int = 300,
) -> InjectionResult:
    """Format ``memory`` as a ``<user_memory>`` block within a token budget.

    See the module docstring for the layout and the exact budget rule.

    Args:
        memory: a document, a DeerFlow-shaped camelCase mapping, or ``None``.
        max_tokens: budget of the whole block, wrapper tags included.
        guaranteed_categories: fact categories placed first with their own budget.
        guaranteed_token_budget: budget of the guaranteed fact lines.
        token_counting: ``"tiktoken"`` (offline vocabulary) or ``"char"`` (estimate).
        encoding: vocabulary for ``"tiktoken"``.
        counter: a counter to use instead of ``token_counting``/``encoding``.
        constraint_token_budget: budget of the constraint lines, placed first
            (allergies, diet, medical and accessibility needs).

    Returns:
        The block and counts of what went in; ``text == ""`` for empty memory or
        when nothing fits.

    Raises:
        ConfigError: a budget that is negative or not a finite number (``nan``),
            an unknown ``token_counting`` or ``encoding``, ``guaranteed_categories``
            that are not category names, a ``counter`` without a ``count`` method
            (or text, a sequence or a class, whose ``count`` counts something
            else), or one whose count is not an integer >= 0.
        InvalidDocumentError: ``memory`` is neither a document, a mapping nor
            ``None``, or a mapping that is not a valid document.

    Example:
        >>> doc = {"facts": [{"content": "Does not eat seafood", "category": "preference",
        ...                   "confidence": 0.9}]}
        >>> print(render_memory(doc, token_counting="char").text)
        <user_memory>
        ## Facts
        - [preference] Does not eat seafood
        </user_memory>
    """
    budgets = (max_tokens, guaranteed_token_budget, constraint_token_budget)
    if not all(type(b) is int and b >= 0 for b in budgets) and not all(map(_budget, budgets)):
        raise ConfigError(
            f"token budgets must be numbers >= 0 (max_tokens={max_tokens!r}, "
            f"guaranteed_token_budget={guaranteed_token_budget!r}, "
            f"constraint_token_budget={constraint_token_budget!r})"
        )
    if memory is None:
        return InjectionResult("", 0, 0, 0, 0, False)
    doc = memory if isinstance(memory, MemoryDocument) else _document(memory)
    if counter is None:
        counter = get_token_counter(token_counting, encoding)
    elif isinstance(counter, _NOT_COUNTERS) or not callable(getattr(counter, "count", None)):
        # str, bytes and sequences have a count() too, which counts something else
        wrong_type("counter", "a TokenCounter (with count(text)) or None", counter, ConfigError)
    guaranteed = guaranteed_members(guaranteed_categories)
    # Read before rendering: a background load that ends mid-render leaves a
    # block measured partly by estimates, which must not be cached as final.
    ready = getattr(counter, "ready", True)
    key = (
        id(doc),
        id(counter),
        max_tokens,
        guaranteed,
        guaranteed_token_budget,
        constraint_token_budget,
    )
    cached = _results.get(key, doc, counter)
    if cached is not None:
        return cached
    if doc.is_empty():
        result = InjectionResult("", 0, len(doc.facts), 0, 0, False)
    else:
        # the package's own counters always count right; a caller's is checked
        ours = isinstance(counter, TiktokenCounter | CharTokenCounter)
        counting = counter if ours else _CheckedCounter(counter)
        result = _render(
            doc, max_tokens, guaranteed, guaranteed_token_budget, counting, constraint_token_budget
        )
    if ready:  # not a block measured by estimates while warming
        _results.put(key, doc, counter, result)
    return result


def format_memory_for_injection(
    memory: MemoryDocument | Mapping[str, Any] | None,
    max_tokens: int = 2000,
    *,
    guaranteed_categories: Iterable[str | FactCategory] = ("correction",),
    guaranteed_token_budget: int = 500,
    token_counting: TokenCountingMethod = "tiktoken",
    encoding: EncodingName = "o200k_base",
    constraint_token_budget: int = 300,
) -> str:
    """The ``<user_memory>`` block for ``memory`` within ``max_tokens`` (``""`` when empty).

    Same arguments and budget rule as :func:`render_memory`, which also reports
    what was kept.

    Raises:
        ConfigError: a budget that is negative or not a finite number, an
            unknown counting method or encoding, or bad guaranteed categories.
        InvalidDocumentError: ``memory`` is not a document, a mapping or ``None``,
            or not a valid document.
    """
    return render_memory(
        memory,
        max_tokens,
        guaranteed_categories=guaranteed_categories,
        guaranteed_token_budget=guaranteed_token_budget,
        token_counting=token_counting,
        encoding=encoding,
        constraint_token_budget=constraint_token_budget,
    ).text


# --- putting the block in front of the model ----------------------------------------------


def build_memory_context(memory_block: str, today: datetime.date | None = None) -> str:
    """Wrap a memory block with the current date and a one-line usage instruction.

    The date sits in its own ``<system-reminder>`` before the block, so the
    block itself stays byte-identical across days.

    Args:
        memory_block: output of :func:`format_memory_for_injection`.
        today: the date to state (default: today, local time).

    Returns:
        The text for the system message, or ``""`` when ``memory_block`` is empty.
    """
    if not memory_block.strip():
        return ""
    day = (today or datetime.date.today()).isoformat()
    return (
        f"<system-reminder>\nCurrent date: {day}\n</system-reminder>\n\n"
        f"{memory_block}\n{_MEMORY_INSTRUCTION}"
    )


def prepend_memory_context(
    messages: Sequence[BaseMessage], memory_context: str | None
) -> list[BaseMessage]:
    """Model input with the memory context in front, as (part of) the system message.

    The inputs are never mutated: when the first message is a system message,
    a copy with the memory appended is returned in its place (string content:
    joined with a blank line; content blocks: one text block appended);
    otherwise a new system message is inserted first.

    Args:
        messages: the conversation as it would be sent to the model.
        memory_context: output of :func:`build_memory_context`; empty means no memory.

    Returns:
        A new list of messages.

    Raises:
        InvalidMessagesError: ``messages`` is not a sequence of LangChain messages.
        InvalidArgumentError: ``memory_context`` is neither text nor None.
    """
    from langchain_core.messages import (  # deferred: keeps formatting imports light
        BaseMessage,
        SystemMessage,
    )

    messages = expect_items(
        messages, BaseMessage, "messages", "LangChain message", InvalidMessagesError
    )
    expect_text(memory_context, "memory_context", optional=True)
    if not memory_context:
        return list(messages)

    if messages and isinstance(messages[0], SystemMessage):
        first = messages[0]
        content: str | list[str | dict[Any, Any]]
        if isinstance(first.content, str):
            content = f"{first.content}\n\n{memory_context}" if first.content else memory_context
        else:
            content = [*first.content, {"type": "text", "text": memory_context}]
        return [first.model_copy(update={"content": content}), *messages[1:]]
    return [SystemMessage(content=memory_context), *messages]
