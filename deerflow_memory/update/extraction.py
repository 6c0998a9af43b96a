"""The extraction contract: a conversation plus the current memory in, a :class:`MemoryUpdate` out.

Two implementations fulfil it: the model-backed extractor (prompt, sync
``model.invoke``, tolerant parse) and the rule-based offline extractor used
when no model is configured. The updater only sees this protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from langchain_core.messages import BaseMessage

from deerflow_memory.models import Fact, MemoryDocument, MemoryUpdate

__all__ = ["CountingExtractor", "ExtractionRequest", "Extractor", "ModelUsage"]


@dataclass(frozen=True, slots=True)
class ExtractionRequest:
    """What an extractor gets: the new filtered messages and the memory they update."""

    document: MemoryDocument
    messages: Sequence[BaseMessage]
    thread_id: str
    correction_detected: bool = False
    reinforcement_detected: bool = False
    review: tuple[Fact, ...] = ()
    """Stored facts due for staleness review (the model may confirm, update or retire them)."""
    today: str = ""
    """The update's date (``YYYY-MM-DD``), for reading time frames ("next week")."""
    context_messages: Sequence[BaseMessage] = ()
    """Already-extracted messages right before ``messages``, for reference only."""
    is_constraint: Callable[[Fact], bool] | None = None
    """Whether a stored fact is a constraint (the updater's test); None: its flag and wording
    as the extractor itself reads them. A retraction never withdraws one it does not name."""


@runtime_checkable
class Extractor(Protocol):
    """Turns a conversation into a memory update. Called from worker threads: must be sync."""

    def extract(self, request: ExtractionRequest) -> MemoryUpdate:
        """Return the update; raise ``UpdateParseError`` or ``ModelCallError`` on failure."""
        ...


@dataclass(frozen=True, slots=True)
class ModelUsage:
    """Tokens the memory model reported for its calls (LangChain ``usage_metadata``).

    Both are 0 for the offline extractor and for models that report no usage.
    Add two with ``+``.
    """

    input_tokens: int = 0
    """Prompt tokens sent."""
    output_tokens: int = 0
    """Completion tokens answered."""

    def __add__(self, other: ModelUsage) -> ModelUsage:
        return ModelUsage(
            self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens
        )

    @classmethod
    def of(cls, answer: Any) -> ModelUsage:
        """The usage of one chat-model answer (an ``AIMessage``); zeros when it has none."""
        usage = getattr(answer, "usage_metadata", None) or {}
        return cls(_tokens(usage.get("input_tokens")), _tokens(usage.get("output_tokens")))


MAX_REPORTED_TOKENS = 100_000_000
"""A per-call count above this is a broken usage block (no model reads that much), not a bill."""


def _tokens(value: Any) -> int:
    """A reported count as an ``int``; 0 for a missing, negative, boolean or absurd one."""
    ok = isinstance(value, int) and not isinstance(value, bool)
    return value if ok and 0 < value <= MAX_REPORTED_TOKENS else 0


@runtime_checkable
class CountingExtractor(Extractor, Protocol):
    """An extractor that also says what its model calls cost (the model-backed one does).

    The updater uses :meth:`extract_counted` when an extractor has it, so the
    ``memory saved`` log line, :class:`~deerflow_memory.update.updater.UpdateResult`
    and the stream events carry the tokens; any other extractor counts as 0.
    """

    def extract_counted(self, request: ExtractionRequest) -> tuple[MemoryUpdate, ModelUsage]:
        """Like ``extract``, plus the tokens of every model call it made (retries included)."""
        ...
