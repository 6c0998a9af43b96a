"""HTTP routes over one :class:`MemoryService`, for any Starlette or FastAPI app.

``memory_routes(service)`` returns Starlette routes (all under ``/memory``):

==========  ========================================  =======================================
method      path                                      answer
==========  ========================================  =======================================
GET         /memory/users/{user_id}                   the memory document (JSON)
GET         /memory/users/{user_id}/history           superseded facts: when and why
GET         /memory/users/{user_id}/search?q=         facts relevant to ``q`` (the product's
                                                      retrieval) and matching history;
                                                      ``error``: why it ranked lexically
POST        /memory/users/{user_id}/facts             201, a new manual fact
PATCH       /memory/users/{user_id}/facts/{fact_id}   the changed fact (now manual)
DELETE      /memory/users/{user_id}/facts/{fact_id}   the fact, moved to history
GET         /memory/users/{user_id}/export            the document as a download
PUT         /memory/users/{user_id}                   import a document (``?replace=true``
                                                      to replace existing memory:
                                                      facts, summaries, history)
DELETE      /memory/users/{user_id}?confirm={id}      delete the whole document
POST        /memory/flush?timeout=10                  run pending updates now (an authenticated
                                                      caller: only theirs), report failures
GET         /memory/status?user=&agent=               queue (an authenticated caller: their
                                                      updates), dead letters, errors, backend,
                                                      hygiene, open tenants
GET         /memory/ui?user=&agent=                   the memory page (see :mod:`.page`)
==========  ========================================  =======================================

Every user route takes ``?agent=`` for a named agent's memory, and every route
``?tenant=`` for a tenant's (its documents, dead letters, queue and config
overrides; absent or empty = no tenant: ``tenant=`` is how a query string
spells None, as httpx sends ``params={"tenant": None}`` and the page's form its
blank field; no tenant id is empty). Edits take an
optional ``revision`` (body field, or ``?revision=`` on DELETE): when the
document moved since, the answer is 409 and nothing is written; without it a
concurrent background update is merged by retrying on the fresh document.
Errors answer ``{"error": "..."}`` (see :mod:`.errors`). Every route answers 403
to a ``Host`` that is not an IP address, ``localhost`` or a host of
``http_allowed_origins`` (DNS rebinding, see :mod:`.guard`). Cross-site writes are
refused (see :mod:`.guard`): a POST, PUT, PATCH or DELETE whose ``Origin`` is not
the server's own (nor in ``http_allowed_origins``) answers 403, and a route with
a body needs ``Content-Type: application/json`` (415). A body over its limit
(an import over ``max_import_bytes``; a fact over ``12 x max_fact_chars`` + 64 KiB)
answers 413: by its ``Content-Length`` before a byte is read, or as soon as a
chunked body passes the limit.

Who may call: when the server authenticates requests (LangGraph's custom auth
with ``enable_custom_route_auth``, or any Starlette ``AuthenticationMiddleware``),
an authenticated caller reaches only their own memory (403 otherwise): the
memory user id of their identity (:func:`~deerflow_memory.identity.user_id_for_identity`,
the graphs' rule: the identity itself when it is a valid id, else a hashed
form). The path may name the caller by that id or by their raw identity,
URL-encoded (``/memory/users/auth0%7C64f1c2``); either reaches the same
document. Status lists only their dead letters, failures and pending and
running updates (``pending``, ``running``: theirs, not the queue's); a flush runs
only their own pending updates (in their tenant), not every user's. A caller
whose auth user carries a ``tenant_id`` is kept to that tenant too: it is
their default, and another ``?tenant=`` answers 403.
Without authentication the routes are an operator's tool: bind the server to
localhost or put the routes behind your app's auth. With ``require_auth=True``
(or ``http_require_auth: true``) a request that is not authenticated answers
401 on every route instead: an auth backend that lets anonymous requests through
then gives them no operator access.

Storage I/O runs on a worker thread; the event loop never waits on disk or a
database.
"""

from __future__ import annotations

import asyncio
import json
import unicodedata
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import quote

from pydantic import BaseModel, BeforeValidator, ConfigDict, StrictInt, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from deerflow_memory.api.errors import ApiError, status_and_message
from deerflow_memory.api.guard import (
    allowed_hosts,
    check_host,
    check_json_body,
    check_same_origin,
)
from deerflow_memory.api.page import render_page
from deerflow_memory.config import (
    DuplicateKeyError,
    MemoryConfig,
    json_object_without_duplicates,
)
from deerflow_memory.errors import InvalidNameError
from deerflow_memory.identity import (
    AuthenticatedCaller,
    authenticated_caller,
    names_caller,
    user_id_for_identity,
)
from deerflow_memory.inject.fallback import rank_facts
from deerflow_memory.models import Fact, MemoryDocument, iso_from_timestamp
from deerflow_memory.service import MemoryService, check_service
from deerflow_memory.storage.base import MemoryStorage, validate_name
from deerflow_memory.storage.stats import storage_stats
from deerflow_memory.tools import search_superseded
from deerflow_memory.update.import_check import (
    brought_back_by_import,
    brought_back_note,
    import_onto,
    read_import,
    replaced_by_import,
    unsafe_history_in_import,
    unsafe_in_import,
    unsafe_summaries_in_import,
)
from deerflow_memory.update.manual import add_manual_fact, delete_fact, edit_fact, save_edit
from deerflow_memory.update.outcome import FailedUpdate
from deerflow_memory.update.unsafe import (
    NOT_SHOWN,
    secrets_hidden,
    unsafe_even_escaped,
    unsafe_to_store,
)

if TYPE_CHECKING:
    from langgraph.store.base import BaseStore

__all__ = ["memory_routes"]

StoreSource = Callable[[], "BaseStore | None"]
Handler = Callable[[Request], Awaitable[Response]]

MAX_FLUSH_TIMEOUT = 300.0

NOT_AUTHENTICATED = (
    "the memory routes of this server need an authenticated caller (require_auth / "
    "http_require_auth): sign in"
)


def _json_number(value: Any) -> Any:
    # One plain message (a StrictFloat | StrictInt union named its members: "confidence.float").
    if isinstance(value, bool) or not isinstance(value, int | float):
        # Not CONFIDENCE_RULE: it names "85%", which the CLI reads and JSON must not send.
        raise ValueError(
            "must be a JSON number from 0 to 1, or a percentage up to 100 (85 means 0.85), "
            "not text or a boolean"
        )
    return value


# A JSON number, as in an import ("0.9" as a string is refused: 422); the range and
# NaN are checked by add_manual_fact (proposed_confidence).
_Confidence = Annotated[float, BeforeValidator(_json_number)]


class _FactIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    content: str
    category: str = "context"
    confidence: _Confidence = 1.0
    revision: StrictInt | None = None  # true or "3" is no revision: 422


class _FactPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")

    content: str | None = None
    category: str | None = None
    confidence: _Confidence | None = None
    revision: StrictInt | None = None


def _runtime_store() -> BaseStore | None:
    """The LangGraph server's store inside a request (``None`` outside a server)."""
    try:
        from langgraph.config import get_store

        return get_store()
    except (ImportError, RuntimeError):
        return None


def _error(error: Exception) -> JSONResponse:
    """The answer for ``error``; a quoted value that looks like a secret is not repeated."""
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        # a key of the body is named unquoted: "my PIN is 4821: Extra inputs are not permitted"
        where = (
            ".".join(
                NOT_SHOWN if isinstance(p, str) and unsafe_even_escaped(p[:400]) else str(p)
                for p in first.get("loc", ())
            )
            or "body"
        )
        message = str(first.get("msg", "invalid")).removeprefix("Value error, ")
        return JSONResponse({"error": secrets_hidden(f"{where}: {message}")}, status_code=422)
    status, message = status_and_message(error)
    return JSONResponse({"error": secrets_hidden(message)}, status_code=status)


def _handled(handler: Handler, check: Callable[[Request], None]) -> Handler:
    # The one error handler of every route: package errors -> status codes.
    async def endpoint(request: Request) -> Response:
        try:
            check(request)
            return await handler(request)
        except Exception as e:
            return _error(e)

    endpoint.__name__ = handler.__name__
    return endpoint


def _fact_json(fact: BaseModel) -> dict[str, Any]:
    """A fact (or superseded fact) as the API returns it: camelCase, no empty fields."""
    return fact.model_dump(mode="json", by_alias=True, exclude_none=True)


_CALLER_STATE = "deerflow_memory_caller"


def _caller(request: Request) -> AuthenticatedCaller | None:
    """The request's authenticated caller (the graphs' rule), or None when not authenticated.

    Read once per request: the first call keeps it on ``request.state`` with the
    user it was read from, and every later helper of the request reuses it (a
    different ``scope["user"]`` is read afresh).

    Raises:
        ApiError: 403 when the user is not unauthenticated but its identity,
            tenant or ``is_authenticated`` cannot be read (none, a read that
            raises, an empty or unsafe tenant; fail closed: never read as "no
            auth, operator").
    """
    user = request.scope.get("user")
    kept = getattr(request.state, _CALLER_STATE, None)
    if kept is not None and kept[0] is user:
        caller: AuthenticatedCaller | None = kept[1]
        return caller
    try:
        caller = authenticated_caller(user)
    except InvalidNameError as e:
        raise ApiError(403, str(e)) from None
    setattr(request.state, _CALLER_STATE, (user, caller))
    return caller


def caller_tenant(request: Request) -> str | None:
    """The tenant the authenticated caller belongs to (``user.tenant_id``, NFC), or None.

    Raises:
        ApiError: 403 as :func:`caller_identity`.
    """
    caller = _caller(request)
    return None if caller is None else caller.tenant_id


def request_tenant(request: Request) -> str | None:
    """``?tenant=`` (validated), kept to the caller's own tenant when auth carries one.

    An absent or empty ``tenant`` is no tenant, on every route: ``tenant=`` is
    how a query string spells None (httpx sends ``params={"tenant": None}`` so,
    the page's form sends its blank tenant field so), and no tenant id can be
    empty, so it names none. In Python, ``tenant_id=None`` is no tenant and
    ``""`` is refused (:mod:`deerflow_memory.identity`); ``?agent=`` reads the
    same way.

    Raises:
        InvalidNameError: unsafe tenant name (400).
        ApiError: 403 when an authenticated caller asks for another tenant.
    """
    asked = request.query_params.get("tenant") or None
    tenant = None if asked is None else validate_name(asked, "tenant_id")
    own = caller_tenant(request)
    if own is None:
        return tenant
    if tenant is not None and tenant != own:
        raise ApiError(403, "you can only reach your own tenant's memory")
    return own


def caller_identity(request: Request) -> str | None:
    """The authenticated caller's raw identity, or None when the request is not authenticated.

    ``user.identity``, else ``user.display_name`` (Starlette's
    ``NotImplementedError`` counts as absent):
    :func:`~deerflow_memory.identity.authenticated_caller`, the graphs' rule.

    Raises:
        ApiError: 403 when the user is not unauthenticated but has neither, or
            one of them, its tenant or ``is_authenticated`` cannot be read (a
            read or ``str()`` that raises): it would otherwise pass for an
            unauthenticated operator and reach every user's memory.
    """
    caller = _caller(request)
    return None if caller is None else caller.identity


def caller_user_id(request: Request) -> str | None:
    """The authenticated caller's memory user id, or None when the request is not authenticated.

    The graphs' rule (:func:`~deerflow_memory.identity.user_id_for_identity`):
    the identity in NFC when it is a valid id (``"e\u0301"`` reaches the memory
    of ``"é"``, which is theirs), else its stable hashed form.
    """
    identity = caller_identity(request)
    return None if identity is None else user_id_for_identity(identity)


async def _body(request: Request, limit: int, why: str) -> bytes:
    """The request body; 413 past ``limit`` bytes, read no further than that.

    A declared ``Content-Length`` over the limit is refused before any byte is
    read; a chunked (or understated) body is refused as soon as it passes the limit.
    """
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            size = int(declared)
        except ValueError:
            raise ApiError(400, f"Content-Length must be a number, got {declared[:40]!r}") from None
        if size > limit:
            raise ApiError(413, f"the request body is {size:,} bytes, over the {limit:,} {why}")
    chunks: list[bytes] = []
    received = 0
    async for chunk in request.stream():
        received += len(chunk)
        if received > limit:
            raise ApiError(413, f"the request body is over the {limit:,} {why}")
        chunks.append(chunk)
    return b"".join(chunks)


async def _json(request: Request, limit: int) -> Any:
    raw = await _body(request, limit, "bytes allowed for one fact (12 x max_fact_chars + 64 KiB)")
    try:
        return json.loads(raw, object_pairs_hook=json_object_without_duplicates)
    except DuplicateKeyError as e:
        if unsafe_to_store(e.key[:400]):  # as written, not as repr escaped it
            raise ApiError(
                400, "the request body repeats a key (not shown: it looks like a secret)"
            ) from None
        raise ApiError(400, f"the request body has a {e}") from None
    except ValueError:  # not JSON, or not UTF-8
        raise ApiError(400, "the request body must be JSON") from None
    except (RecursionError, MemoryError):  # "[[[[…" nested thousands deep
        raise ApiError(400, "the request body is JSON nested too deeply") from None


def _fact_body_limit(config: MemoryConfig) -> int:
    # A fact body is one fact: its text JSON-escaped (at most 12 bytes a character,
    # an escaped surrogate pair) plus room for the other fields.
    return 12 * config.max_fact_chars + 64 * 1024


def _int_param(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    # Digits only: int() also takes " 3", "1_0" and non-ASCII digits.
    if not (raw.isascii() and raw.removeprefix("-").isdigit()):
        raise ApiError(400, f"{name} must be an integer")
    return int(raw)


def memory_routes(
    service: MemoryService,
    *,
    store: BaseStore | StoreSource | None = None,
    ui: bool = True,
    require_auth: bool = False,
) -> list[BaseRoute]:
    """Starlette routes serving ``service``'s memory under ``/memory`` (see the module table).

    Args:
        service: the memory service the app's graphs use (so flush and status
            see their queue).
        store: for ``storage="store"``: the store, or a function returning it
            per request; default: the LangGraph server's store
            (``langgraph.config.get_store()``).
        ui: also serve the HTML page at ``/memory/ui``.
        require_auth: answer 401 (``{"error": ...}``, before anything is read) to
            every request that is not authenticated, as Starlette's
            ``requires("authenticated", status_code=401)``: anonymous callers
            (an auth backend that returns None, ``UnauthenticatedUser``, no
            ``AuthenticationMiddleware`` at all) are then no operator. Also on
            when ``service.config.http_require_auth`` is (code cannot turn off
            what the configuration requires).

    Returns:
        Routes for ``Starlette(routes=...)``, ``app.router.routes.extend(...)``
        or a FastAPI app (``app.router.routes.extend(memory_routes(memory))``).

    Raises:
        MissingDependencyError: never here; importing this module without
            Starlette fails with the install command (see ``deerflow_memory.api``).
        InvalidArgumentError: ``service`` is not a :class:`MemoryService`.

    Example:
        >>> app = Starlette(routes=memory_routes(memory))
    """
    check_service(service)
    store_source: StoreSource
    if store is None:
        store_source = _runtime_store
    elif callable(store):
        store_source = store
    else:
        fixed = store
        store_source = lambda: fixed  # noqa: E731

    allowed_origins = frozenset(service.config.http_allowed_origins)
    hosts = allowed_hosts(allowed_origins)
    signed_in_only = require_auth or service.config.http_require_auth

    def read(request: Request) -> None:
        # Before anything else of every route (see :mod:`.guard`): DNS rebinding.
        check_host(request, hosts)
        if signed_in_only and _caller(request) is None:
            raise ApiError(401, NOT_AUTHENTICATED)

    def write(request: Request) -> None:
        # Before anything else of a state-changing route (see :mod:`.guard`).
        read(request)
        check_same_origin(request, allowed_origins)

    def write_json(request: Request) -> None:
        write(request)
        check_json_body(request)

    def storage(request: Request) -> MemoryStorage:
        # A tenant's storage view; its service (queue, outbox) is opened only to flush.
        return service.tenant_storage(request_tenant(request), store_source())

    def settings(request: Request) -> MemoryConfig:
        return service.config.for_tenant(request_tenant(request))

    def target(request: Request) -> tuple[str, str | None]:
        asked = request.path_params["user_id"]
        agent = request.query_params.get("agent") or None
        agent_name = None if agent is None else validate_name(agent, "agent_name")
        caller = caller_identity(request)
        if caller is None:
            return validate_name(asked, "user_id"), agent_name
        if not names_caller(asked, caller):
            raise ApiError(403, "you can only reach your own memory")
        return user_id_for_identity(caller), agent_name

    async def get_document(request: Request) -> Response:
        user_id, agent = target(request)
        backend = storage(request)
        document = await run_in_threadpool(backend.load, user_id, agent)
        return JSONResponse(document.to_dict())

    async def get_history(request: Request) -> Response:
        user_id, agent = target(request)
        backend = storage(request)
        document = await run_in_threadpool(backend.load, user_id, agent)
        entries = [_fact_json(f) for f in reversed(document.superseded_facts)]
        return JSONResponse({"revision": document.revision, "supersededFacts": entries})

    async def search(request: Request) -> Response:
        user_id, agent = target(request)
        query = request.query_params.get("q", "")
        backend = storage(request)
        document = await run_in_threadpool(backend.load, user_id, agent)

        def rank() -> dict[str, Any]:
            # A failing embedder ranks lexically (logged once per burst), as the inject path.
            found, error = rank_facts(
                document,
                query,
                burst=service.embedding_failures,
                embedder=service.embedder,
                config=settings(request).retrieval,
                guaranteed_categories=(),
            )
            return {
                "query": query,
                "facts": [_fact_json(f) for f in found.facts],
                "supersededFacts": [_fact_json(f) for f in search_superseded(document, query)],
                "error": error,
            }

        return JSONResponse(await run_in_threadpool(rank))

    async def add_fact(request: Request) -> Response:
        user_id, agent = target(request)
        config = settings(request)
        body = _FactIn.model_validate(await _json(request, _fact_body_limit(config)))
        backend = storage(request)

        def change(document: MemoryDocument) -> tuple[MemoryDocument, Any]:
            return add_manual_fact(
                document,
                body.content,
                body.category,
                body.confidence,
                max_fact_chars=config.max_fact_chars,
            )

        saved, fact = await run_in_threadpool(
            save_edit, backend, user_id, agent, change, expected_revision=body.revision
        )
        payload = {
            "fact": _fact_json(fact),
            "revision": saved.revision,
        }
        return JSONResponse(payload, status_code=201)

    async def patch_fact(request: Request) -> Response:
        user_id, agent = target(request)
        config = settings(request)
        fact_id = request.path_params["fact_id"]
        body = _FactPatch.model_validate(await _json(request, _fact_body_limit(config)))
        backend = storage(request)

        def change(document: MemoryDocument) -> tuple[MemoryDocument, Any]:
            return edit_fact(
                document,
                fact_id,
                content=body.content,
                category=body.category,
                confidence=body.confidence,
                max_fact_chars=config.max_fact_chars,
                max_superseded_facts=config.max_superseded_facts,
            )

        saved, fact = await run_in_threadpool(
            save_edit, backend, user_id, agent, change, expected_revision=body.revision
        )
        payload = {
            "fact": _fact_json(fact),
            "revision": saved.revision,
        }
        return JSONResponse(payload)

    async def remove_fact(request: Request) -> Response:
        user_id, agent = target(request)
        config = settings(request)
        fact_id = request.path_params["fact_id"]
        revision = _int_param(request, "revision")
        backend = storage(request)

        def change(document: MemoryDocument) -> tuple[MemoryDocument, Any]:
            return delete_fact(document, fact_id, max_superseded_facts=config.max_superseded_facts)

        saved, gone = await run_in_threadpool(
            save_edit, backend, user_id, agent, change, expected_revision=revision
        )
        payload = {
            "deleted": _fact_json(gone),
            "revision": saved.revision,
        }
        return JSONResponse(payload)

    async def export(request: Request) -> Response:
        user_id, agent = target(request)
        backend = storage(request)
        document = await run_in_threadpool(backend.load, user_id, agent)
        name = f"memory-{user_id}{'-' + agent if agent else ''}.json"
        # Header values are Latin-1: an ASCII name, and the real one as RFC 6266 filename*.
        plain = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in name)
        disposition = f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"
        return Response(
            document.to_json() + "\n",
            media_type="application/json",
            headers={"Content-Disposition": disposition},
        )

    async def import_document(request: Request) -> Response:
        user_id, agent = target(request)
        config = settings(request)
        raw = await _body(request, config.max_import_bytes, "bytes allowed (max_import_bytes)")
        # The CLI's check: the whole document is validated before anything is written,
        # off the event loop (parsing and checking a large body takes a while).
        incoming = await run_in_threadpool(read_import, raw, name="the request body", config=config)
        replace = request.query_params.get("replace", "").lower() in {"1", "true", "yes"}
        backend = storage(request)

        def write() -> tuple[MemoryDocument, tuple[Fact, ...]]:
            current = backend.load(user_id, agent)
            replaced = replaced_by_import(current)
            back = brought_back_by_import(current, incoming)
            if replaced is not None and not replace:
                also = f"; the file brings back {brought_back_note(back)}" if back else ""
                raise ApiError(
                    409,
                    f"{user_id!r} already has {replaced}{also}; add ?replace=true to replace them",
                )
            # Based on what is stored now: a store backend then removes the old facts.
            replacing = import_onto(current, incoming)
            saved = backend.save(user_id, agent, replacing, expected_revision=current.revision)
            return saved, back

        saved, back = await run_in_threadpool(write)
        return JSONResponse(
            {
                "imported": len(saved.facts),
                "revision": saved.revision,
                # ids of imported facts the user had deleted (an older export brings them back)
                "broughtBack": [fact.id for fact in back],
                # ids of imported facts that look like a secret: imported as given, but
                # the model reads them every turn
                "looksUnsafe": [fact.id for fact in unsafe_in_import(incoming)],
                # paths of imported summaries that look like a secret ("user.workContext")
                "summariesLookUnsafe": list(unsafe_summaries_in_import(incoming)),
                # ids of history entries that look like a secret: the model never reads
                # them, but exports list them until the memory is cleared
                "historyLooksUnsafe": list(unsafe_history_in_import(incoming)),
            }
        )

    async def clear(request: Request) -> Response:
        user_id, agent = target(request)
        if not _confirms(request, user_id):
            raise ApiError(
                400, "deleting a whole memory needs ?confirm=<the same user id> in the URL"
            )
        tenant, store = request_tenant(request), store_source()
        existed = await run_in_threadpool(
            lambda: service.clear_memory(user_id, agent, tenant_id=tenant, store=store)
        )
        return JSONResponse({"deleted": existed})

    async def flush(request: Request) -> Response:
        raw = request.query_params.get("timeout", "10")
        try:
            timeout = float(raw)
        except ValueError:
            raise ApiError(400, "timeout must be a number of seconds") from None
        if not 0 <= timeout <= MAX_FLUSH_TIMEOUT:
            raise ApiError(400, f"timeout must be between 0 and {MAX_FLUSH_TIMEOUT:g} seconds")
        caller = caller_user_id(request)
        tenant = request_tenant(request)
        store = store_source()
        if caller is not None:
            # An authenticated caller hurries only their own updates (model calls) in
            # their tenant: no signed-in user spends the budget of every queue.
            result = await asyncio.to_thread(
                lambda: service.flush_user(caller, timeout, tenant_id=tenant, store=store)
            )
        elif tenant is None:
            # The operator: no tenant asked, every tenant's queue; else only that tenant's
            # (opened only if it has pending updates).
            result = await asyncio.to_thread(service.flush, timeout)
        else:
            result = await asyncio.to_thread(service.flush_tenant, tenant, timeout, store)
        # A caller's result holds only their failures in their tenant (flush_user's rule):
        # another person may have the same user id in another tenant.
        failed = [_failed_update(f) for f in result.failed]
        return JSONResponse(
            {"done": result.drained, "pending": result.pending, "failed": failed},
            status_code=200 if result.drained else 504,
        )

    async def status(request: Request) -> Response:
        caller = caller_user_id(request)
        tenant = request_tenant(request)
        backend = storage(request)
        # A tenant's queue if its service is open in this process (else nothing is queued).
        queued = service.queue if tenant is None else None
        if tenant is not None and tenant in service.tenants:
            queued = service.for_tenant(tenant, store_source()).queue

        def letters() -> list[dict[str, Any]] | None:
            try:
                found = backend.list_dead_letters(caller)
            except NotImplementedError:
                return None
            return [
                {k: v for k, v in letter.to_dict().items() if k != "messages"} for letter in found
            ]

        def hygiene() -> list[dict[str, Any]]:
            # The caller's own documents; without auth, ?user= (and ?agent=) or every document.
            user = caller or request.query_params.get("user") or None
            agent = request.query_params.get("agent") or None
            # Validated and in NFC, as stored: "Zoe\u0308" finds the document of "Zoë".
            if user is not None:
                user = validate_name(user, "user_id")
            if agent is not None:
                agent = validate_name(agent, "agent_name")
            stats = storage_stats(backend, user_id=user, agent_name=agent)
            return [s.to_dict() for s in stats]

        dead = await run_in_threadpool(letters)
        noise = await run_in_threadpool(hygiene)
        failures = [
            {"at": iso_from_timestamp(f.at), **_failed_update(f.update)}
            for f in list(service.recent_failures)
            if (caller is None or f.update.user_id == caller) and f.update.tenant_id == tenant
        ]
        # The whole queue for the operator; a signed-in caller sees only their own updates
        # (the others' counts would tell them who else is active).
        if queued is None:
            pending, running = 0, 0
        elif caller is None:
            pending, running = queued.pending_count, queued.running_count
        else:
            pending, running = queued.user_counts(caller)
        return JSONResponse(
            {
                "backend": service.config.storage,
                "tenant": tenant,
                # Tenants open in this process; an authenticated caller sees none of them.
                "openTenants": list(service.tenants) if caller is None else [],
                "backendClass": type(backend).__name__,
                "extractor": "offline" if service.is_offline else "model",
                "pending": pending,
                "running": running,
                "deadLetters": None if dead is None else len(dead),
                "deadLetterList": dead or [],
                "lastErrors": failures[-10:],
                "hygiene": noise,
            }
        )

    async def page(request: Request) -> Response:
        user = request.query_params.get("user") or ""
        caller = caller_identity(request)
        if caller is not None and (not user or names_caller(user, caller)):
            user = user_id_for_identity(caller)  # their raw identity shows their memory
        agent = request.query_params.get("agent") or ""
        if user:
            validate_name(user, "user_id")
        if agent:
            validate_name(agent, "agent_name")
        tenant = request_tenant(request)
        return HTMLResponse(
            render_page(
                user,
                agent,
                tenant or "",
                max_fact_chars=service.config.for_tenant(tenant).max_fact_chars,
            ),
            # The page has delete buttons: no other site may frame it (clickjacking).
            headers={
                "X-Frame-Options": "DENY",
                "Content-Security-Policy": "frame-ancestors 'none'",
                "X-Content-Type-Options": "nosniff",
            },
        )

    routes: list[BaseRoute] = [
        Route("/memory/users/{user_id}", _handled(get_document, read), methods=["GET"]),
        Route("/memory/users/{user_id}", _handled(import_document, write_json), methods=["PUT"]),
        Route("/memory/users/{user_id}", _handled(clear, write), methods=["DELETE"]),
        Route("/memory/users/{user_id}/history", _handled(get_history, read), methods=["GET"]),
        Route("/memory/users/{user_id}/search", _handled(search, read), methods=["GET"]),
        Route("/memory/users/{user_id}/export", _handled(export, read), methods=["GET"]),
        Route("/memory/users/{user_id}/facts", _handled(add_fact, write_json), methods=["POST"]),
        Route(
            "/memory/users/{user_id}/facts/{fact_id}",
            _handled(patch_fact, write_json),
            methods=["PATCH"],
        ),
        Route(
            "/memory/users/{user_id}/facts/{fact_id}",
            _handled(remove_fact, write),
            methods=["DELETE"],
        ),
        Route("/memory/flush", _handled(flush, write), methods=["POST"]),
        Route("/memory/status", _handled(status, read), methods=["GET"]),
    ]
    if ui:
        routes.append(Route("/memory/ui", _handled(page, read), methods=["GET"]))
    return routes


def _confirms(request: Request, user_id: str) -> bool:
    """``?confirm=`` names the memory being deleted, as the path may (raw identity or id)."""
    confirm = request.query_params.get("confirm")
    if confirm is None:
        return False
    if confirm == user_id:
        return True
    caller = caller_identity(request)
    if caller is not None:
        return names_caller(confirm, caller)
    return unicodedata.normalize("NFC", confirm) == user_id


def _failed_update(failure: FailedUpdate) -> dict[str, Any]:
    return {
        "threadId": failure.thread_id,
        "userId": failure.user_id,
        "agentName": failure.agent_name,
        "error": failure.error,
        "outcome": failure.outcome,
        "attempts": failure.attempts,
        "tenantId": failure.tenant_id,
    }
