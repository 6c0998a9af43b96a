"""Memory tools for the agent: look up what the user said; remember and forget on request.

Injection puts the current memory in front of the model every turn; these
tools answer what injection leaves out — facts that did not fit the budget,
and superseded facts with when and in which thread they were told ("you told
me on 12 July that you lived in Munich").

Every field of the answer (content, reason, dates, thread ids) is escaped
into a ``<memory_search_results>`` block exactly like the ``<user_memory>``
block, so stored text cannot forge tags or lines.

With ``memory_tools: read_write`` the agent also gets ``remember`` (save, or
replace, a fact as the user's own word: ``sourceType: manual``) and ``forget``
(move a fact to history as "deleted by the user"; extraction never adds it
back). They write through :func:`~deerflow_memory.update.manual.save_edit`,
the revision-checked path the updater and the HTTP API use, and their answers
escape the stored text like every other memory text a model sees.

The tools read the caller's identity from the run (``ToolRuntime``), exactly
like the memory nodes, so one user can never search or change another user's
memory. A storage error or a rejected fact is returned to the model as text,
never raised into the turn.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypeVar

from langchain_core.tools import BaseTool, tool
from langgraph.prebuilt import ToolRuntime
from langgraph.store.base import BaseStore

from deerflow_memory.errors import (
    FactNotFoundError,
    InvalidFactError,
    StorageError,
    ToolNameError,
)
from deerflow_memory.identity import MemoryIdentity, resolve_identity
from deerflow_memory.inject.blocks import search_results_block, unescape_memory_text
from deerflow_memory.inject.budget import created_seconds
from deerflow_memory.inject.format import escape_memory_text, format_fact_line
from deerflow_memory.inject.lexical import tokenize
from deerflow_memory.inject.live import live_document
from deerflow_memory.models import (
    USER_DELETED_REASON,
    Fact,
    MemoryDocument,
    SupersededFact,
)
from deerflow_memory.service import MemoryService, check_service
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.update.manual import (
    EDITED_REASON,
    add_manual_fact,
    delete_fact,
    edit_fact,
    save_edit,
)
from deerflow_memory.update.unsafe import unsafe_to_store

__all__ = [
    "check_tool_names",
    "create_memory_tools",
    "find_fact",
    "search_document",
    "search_superseded",
    "tool_name",
]

ToolMode = Literal["search", "read_write"]
F = TypeVar("F", bound=Fact)

MAX_RESULTS = 20
# What providers accept as a function name (OpenAI's rule, the strictest common one).
_TOOL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _day(timestamp: str) -> str:
    return timestamp[:10] if timestamp else "an unknown date"


def _line(fact: Fact, expired: bool) -> str:
    # Raw text: search_results_block escapes the whole line (format_fact_line's
    # own escaping is undone first so nothing is escaped twice).
    told = f"told {_day(fact.created_at)} in thread {fact.source}"
    if isinstance(fact, SupersededFact):
        why = f": {fact.reason}" if fact.reason else ""
        return (
            f"- [no longer current since {_day(fact.superseded_at)}{why}] {fact.content} ({told})"
        )
    if expired:
        since = _day(fact.expires_at or "")
        return f"- [no longer current since {since}: it expired] {fact.content} ({told})"
    return f"{unescape_memory_text(format_fact_line(fact))} ({told})"


def _by_overlap(entries: Sequence[F], query: str, limit: int) -> list[F]:
    """``entries`` sharing words with ``query``, most shared words first (then in their
    order); all of them, in order, when ``query`` has no words."""
    wanted = set(tokenize(query))
    if not wanted:
        return list(entries[:limit])
    ranked = []
    for order, fact in enumerate(entries):
        overlap = len(wanted & set(tokenize(fact.content)))
        if overlap:
            ranked.append((-overlap, order, fact))
    return [fact for _, _, fact in sorted(ranked, key=lambda r: (r[0], r[1]))][:limit]


def search_document(
    document: MemoryDocument, query: str, limit: int = MAX_RESULTS, *, now: float | None = None
) -> list[str]:
    """Raw lines for the facts (current first, then superseded) sharing words with ``query``.

    An empty query lists everything, newest first (current facts, then
    superseded ones), up to ``limit``. A fact whose ``expiresAt`` has passed
    by ``now`` (epoch seconds; default: the clock) is listed as no longer
    current, as injection leaves it out. The lines are not escaped: put them
    in front of a model only through
    :func:`~deerflow_memory.inject.blocks.search_results_block`. A fact the
    user deleted or edited away that looks like a secret (a door code they
    forgot) is not listed: the model no longer reads it, as ``forget`` says
    (:func:`~deerflow_memory.update.unsafe.unsafe_to_store`).
    """
    # Expired facts by injection's own rule (and its cached expiries): what it leaves out.
    live = live_document(document, time.time() if now is None else now)
    current = list(live.facts)
    if not tokenize(query):  # the stored order is not the age order (eviction refills slots)
        current.sort(key=lambda fact: created_seconds(fact.created_at), reverse=True)
    kept = {id(fact) for fact in live.facts}
    expired = [fact for fact in document.facts if id(fact) not in kept]
    history = [f for f in reversed(document.superseded_facts) if not _taken_out_secret(f)]
    facts = [*current, *reversed(expired), *history]
    gone = {id(fact) for fact in expired}
    return [_line(fact, id(fact) in gone) for fact in _by_overlap(facts, query, limit)]


def _taken_out_secret(fact: SupersededFact) -> bool:
    """A fact the user deleted or edited away that looks like a secret."""
    reason = fact.reason.strip().casefold()  # (a hand-edited or imported file may vary it)
    return reason in (USER_DELETED_REASON, EDITED_REASON) and unsafe_to_store(fact.content)


def search_superseded(
    document: MemoryDocument, query: str, limit: int = MAX_RESULTS
) -> list[SupersededFact]:
    """Superseded facts sharing words with ``query``, best first (all, newest first, when blank)."""
    return _by_overlap(list(reversed(document.superseded_facts)), query, limit)


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()


def find_fact(document: MemoryDocument, description: str) -> Fact | None:
    """The current fact ``description`` names: the same text, else the clear best word match.

    A word match needs at least half of the description's terms and must beat
    the runner-up, so a vague description finds nothing rather than the wrong fact.
    """
    wanted = _key(description)
    for fact in document.facts:
        if _key(fact.content) == wanted or fact.id == description.strip():
            return fact
    terms = set(tokenize(description))
    if not terms:
        return None
    scored = sorted(
        (
            (len(terms & set(tokenize(f.content))), -order, f)
            for order, f in enumerate(document.facts)
        ),
        key=lambda item: (item[0], item[1]),
        reverse=True,
    )
    if not scored or scored[0][0] * 2 < len(terms):
        return None
    if len(scored) > 1 and scored[1][0] == scored[0][0]:
        return None
    return scored[0][2]


def _writable_storage(
    service: MemoryService, identity: MemoryIdentity, store: BaseStore | None
) -> MemoryStorage:
    """Where ``remember`` / ``forget`` write: the run's tenant (None: no tenant), in the
    run's store when ``storage="store"`` (bound here, as a read or a capture binds it)."""
    return service.for_tenant(identity.tenant_id, store).storage_for(store)


def tool_name(item: Any) -> str | None:
    """The name a model calls ``item`` by: a tool's ``name``, a function's ``__name__``,
    or the ``name`` of an OpenAI-style tool dict; None when it has none."""
    if isinstance(item, BaseTool):
        return item.name
    if isinstance(item, Mapping):
        function = item.get("function")
        name = function.get("name") if isinstance(function, Mapping) else item.get("name")
        return name if isinstance(name, str) else None
    name = getattr(item, "__name__", None)
    return name if isinstance(name, str) else None


def check_tool_names(tools: Sequence[Any], memory_tools: Sequence[BaseTool] = ()) -> None:
    """Refuse an agent's tool list in which two tools share a name.

    A model calls a tool by name, so of two tools with one name only one ever
    runs (``ToolNode`` keeps the last) and some providers reject the request.

    Args:
        tools: the app's own tools.
        memory_tools: the memory tools added to them (named in the error).

    Raises:
        ToolNameError: an app tool has a memory tool's name (the message says
            how to rename either), or two app tools share a name.
    """
    seen: set[str] = set()
    for item in tools:
        name = tool_name(item)
        if name is None:
            continue
        if name in seen:
            raise ToolNameError(
                f"two of the agent's tools are named {name!r}: the model's {name!r} calls "
                "would run only one of them; give each tool its own name",
                (name,),
            )
        seen.add(name)
    clashes = tuple(t.name for t in memory_tools if t.name in seen)
    if clashes:
        raise ToolNameError(
            f"the agent's own tool {clashes[0]!r} has the name of a memory tool "
            f"({', '.join(repr(t.name) for t in memory_tools)}): the model's {clashes[0]!r} "
            'calls would run only one of them. Rename your tool (@tool("crm_remember")), '
            'or rename the memory tools with memory_tool_prefix="memory_" '
            '(create_memory_agent) or prefix="memory_" (create_memory_tools). If it is '
            "itself a memory tool from create_memory_tools, leave it out of tools or pass "
            "memory_tools=False",
            clashes,
        )


def create_memory_tools(
    service: MemoryService,
    mode: ToolMode | None = None,
    *,
    prefix: str = "",
    existing: Sequence[Any] = (),
) -> list[BaseTool]:
    """Tools over the caller's long-term memory.

    Args:
        service: the memory service of the graph.
        mode: ``"search"`` gives ``search_memory``; ``"read_write"`` adds
            ``remember`` and ``forget``. Default: ``config.memory_tools``
            (``"search"`` when that is ``"off"``).
        prefix: put in front of each tool's name (``"memory_"`` gives
            ``memory_search_memory``, ``memory_remember``, ``memory_forget``),
            for an agent that has tools of those names already.
        existing: the app's other tools for the same agent, checked with
            :func:`check_tool_names` (building your own agent,
            ``create_agent(model, [*mine, *create_memory_tools(memory, existing=mine)])``,
            has no other check: without it a clash is silent).

    Raises:
        ToolNameError: ``prefix`` is not a string, a name with the prefix is
            not a valid tool name (letters, digits, ``_`` and ``-``; at most
            64 characters), or a memory tool has the name of one of
            ``existing`` (or two of those share a name).
        InvalidArgumentError: ``service`` is not a :class:`MemoryService`.

    Example:
        >>> tools = [*my_tools, *create_memory_tools(memory)]
        >>> graph = create_memory_agent(model, tools, service=memory)
    """
    check_service(service)
    if not isinstance(prefix, str):
        raise ToolNameError(
            f"the memory tools' prefix must be a string such as 'memory_', "
            f"got {type(prefix).__name__} {prefix!r:.60}",
            (repr(prefix)[:80],),
        )

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

    def named(tools: list[BaseTool]) -> list[BaseTool]:
        if not prefix:
            check_tool_names(existing, tools)
            return tools
        for item in tools:
            name = prefix + item.name
            if not _TOOL_NAME.fullmatch(name):
                raise ToolNameError(
                    f"memory tool name {name[:80]!r} is not a valid tool name: use letters, "
                    "digits, '_' and '-' only, at most 64 characters",
                    (name,),
                )
            item.name = name
        check_tool_names(existing, tools)
        return tools

    chosen = mode or service.config.memory_tools
    if chosen != "read_write":
        return named([search_memory])
    config = service.config

    @tool
    def remember(
        fact: str, runtime: ToolRuntime, category: str = "context", replaces: str = ""
    ) -> str:
        """Save a fact about the user to long-term memory when the user asks you to remember
        something, or to correct what you remember. `fact` is one short statement about the
        user ("Takes the 7:40 train to work"); `category` is one of preference, knowledge,
        context, behavior, goal, correction; `replaces` is the wording of a remembered fact
        this one corrects (it is kept as history)."""
        identity = resolve_identity(runtime.config, runtime.context)
        storage = _writable_storage(service, identity, runtime.store)

        def change(document: MemoryDocument) -> tuple[MemoryDocument, tuple[Fact, bool]]:
            old = find_fact(document, replaces) if replaces.strip() else None
            if old is not None:
                # New wording is dated now in this thread: "you told me on ..." answers with it.
                edited, new = edit_fact(
                    document,
                    old.id,
                    content=fact,
                    category=category,
                    max_fact_chars=config.max_fact_chars,
                    max_superseded_facts=config.max_superseded_facts,
                    source=identity.thread_id,
                )
                return edited, (new, True)
            added, new = add_manual_fact(
                document,
                fact,
                category,
                1.0,
                source=identity.thread_id,
                max_fact_chars=config.max_fact_chars,
            )
            return added, (new, False)

        try:
            _, (saved, replaced) = save_edit(storage, identity.user_id, identity.agent_name, change)
        except InvalidFactError as e:
            return f"Not saved: {escape_memory_text(str(e))}."
        except StorageError as e:
            return f"Memory is unavailable right now ({escape_memory_text(str(e))})."
        answer = f"Saved to memory: {escape_memory_text(saved.content)}"
        if replaces.strip() and not replaced:
            # Say so: the model would otherwise tell the user the old fact was corrected.
            answer += (
                f". No remembered fact matched {escape_memory_text(replaces)!r}, so none "
                "was replaced; call forget with that fact's exact wording to remove it"
            )
        return answer

    @tool
    def forget(fact: str, runtime: ToolRuntime) -> str:
        """Forget a fact about the user when the user asks you to. `fact` is the remembered
        fact's wording (as shown in your memory). It is kept only as history and is never
        learned again, nor a close paraphrase of it, from any conversation, later ones too:
        if it becomes true again, save it with `remember`. Call it only on the user's
        explicit request."""
        identity = resolve_identity(runtime.config, runtime.context)
        storage = _writable_storage(service, identity, runtime.store)

        def change(document: MemoryDocument) -> tuple[MemoryDocument, SupersededFact]:
            found = find_fact(document, fact)
            if found is None:
                raise FactNotFoundError(fact)
            return delete_fact(document, found.id, max_superseded_facts=config.max_superseded_facts)

        try:
            _, gone = save_edit(storage, identity.user_id, identity.agent_name, change)
        except FactNotFoundError:
            return "No remembered fact matches that; nothing was forgotten."
        except StorageError as e:
            return f"Memory is unavailable right now ({escape_memory_text(str(e))})."
        return f"Forgotten: {escape_memory_text(gone.content)}"

    return named([search_memory, remember, forget])
