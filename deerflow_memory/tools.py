"""Memory tools for the agent: look up what the user said, including what is no longer current.

Injection puts the current memory in front of the model every turn; these
tools answer what injection leaves out — facts that did not fit the budget,
and superseded facts with when and in which thread they were told ("you told
me on 12 July that you lived in Munich").

Every field of the answer (content, reason, dates, thread ids) is escaped
into a ``<memory_search_results>`` block exactly like the ``<user_memory>``
block, so stored text cannot forge tags or lines.

The tools read the caller's identity from the run (``ToolRuntime``), exactly
like the memory nodes, so one user can never search another user's memory.
A storage error is returned to the model as text, never raised into the turn.
"""

from __future__ import annotations

from langchain_core.tools import BaseTool, tool
from langgraph.prebuilt import ToolRuntime

from deerflow_memory.errors import StorageError
from deerflow_memory.identity import resolve_identity
from deerflow_memory.inject.blocks import search_results_block, unescape_memory_text
from deerflow_memory.inject.format import escape_memory_text, format_fact_line
from deerflow_memory.inject.lexical import tokenize
from deerflow_memory.models import Fact, MemoryDocument, SupersededFact
from deerflow_memory.service import MemoryService

__all__ = ["create_memory_tools", "search_document", "search_superseded"]

MAX_RESULTS = 20


def _day(timestamp: str) -> str:
    return timestamp[:10] if timestamp else "an unknown date"


def _line(fact: Fact) -> str:
    # Raw text: search_results_block escapes the whole line (format_fact_line's
    # own escaping is undone first so nothing is escaped twice).
    told = f"told {_day(fact.created_at)} in thread {fact.source}"
    if isinstance(fact, SupersededFact):
        why = f": {fact.reason}" if fact.reason else ""
        return (
            f"- [no longer current since {_day(fact.superseded_at)}{why}] {fact.content} ({told})"
        )
    return f"{unescape_memory_text(format_fact_line(fact))} ({told})"


def search_document(document: MemoryDocument, query: str, limit: int = MAX_RESULTS) -> list[str]:
    """Raw lines for the facts (current first, then superseded) sharing words with ``query``.

    An empty query lists everything, newest first, up to ``limit``. The lines
    are not escaped: put them in front of a model only through
    :func:`~deerflow_memory.inject.blocks.search_results_block`.
    """
    wanted = set(tokenize(query))
    entries: list[Fact] = [*document.facts, *reversed(document.superseded_facts)]
    if wanted:
        ranked = []
        for order, fact in enumerate(entries):
            overlap = len(wanted & set(tokenize(fact.content)))
            if overlap:
                ranked.append((-overlap, order, fact))
        entries = [fact for _, _, fact in sorted(ranked, key=lambda r: (r[0], r[1]))]
    return [_line(fact) for fact in entries[:limit]]


def search_superseded(
    document: MemoryDocument, query: str, limit: int = MAX_RESULTS
) -> list[SupersededFact]:
    """Superseded facts sharing words with ``query``, best first (all, newest first, when blank)."""
    wanted = set(tokenize(query))
    entries = list(reversed(document.superseded_facts))
    if not wanted:
        return entries[:limit]
    ranked = []
    for order, fact in enumerate(entries):
        overlap = len(wanted & set(tokenize(fact.content)))
        if overlap:
            ranked.append((-overlap, order, fact))
    return [fact for _, _, fact in sorted(ranked, key=lambda r: (r[0], r[1]))][:limit]


def create_memory_tools(service: MemoryService) -> list[BaseTool]:
    """Tools over the caller's long-term memory: ``search_memory``.

    Example:
        >>> tools = [*my_tools, *create_memory_tools(memory)]
        >>> graph = create_memory_agent(model, tools, service=memory)
    """

    @tool
    def search_memory(query: str, runtime: ToolRuntime) -> str:
        """Search what the user told you in earlier conversations, including facts that were
        later corrected or replaced, with the date and thread they were told in. Use it when
        the user asks what they said before or when a detail is missing from your memory."""
        identity = resolve_identity(runtime.config, runtime.context)
        try:
            document = service.load(identity, runtime.store)
        except StorageError as e:
            return f"Memory is unavailable right now ({escape_memory_text(str(e))})."
        lines = search_document(document, query)
        if not lines:
            return "Nothing in memory matches the query."
        return search_results_block(lines)

    return [search_memory]
