"""The extraction contract: a conversation plus the current memory in, a :class:`MemoryUpdate` out.

Two implementations fulfil it: the model-backed extractor (prompt, sync
``model.invoke``, tolerant parse) and the rule-based offline extractor used
when no model is configured. The updater only sees this protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from langchain_core.messages import BaseMessage

from deerflow_memory.models import Fact, MemoryDocument, MemoryUpdate

__all__ = ["ExtractionRequest", "Extractor"]


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


@runtime_checkable
class Extractor(Protocol):
    """Turns a conversation into a memory update. Called from worker threads: must be sync."""

    def extract(self, request: ExtractionRequest) -> MemoryUpdate:
        """Return the update; raise ``UpdateParseError`` or ``ModelCallError`` on failure."""
        ...
