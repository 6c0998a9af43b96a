"""Who a turn belongs to: ``user_id``, ``agent_name`` and ``thread_id`` of a graph run.

Resolution order (SPEC §12): the run's context (``context_schema``; an object
with attributes or a mapping), then ``config["configurable"]``, then LangMem's
convention ``configurable["langgraph_user_id"]``, then ``"default"``.
``tenant_id`` (a business line: the same user id in two tenants is two
memories) is read the same way, context then ``configurable``; absent means no
tenant, the storage layout of before tenants existed. A key that is missing or
``None`` is absent; any other value must be a valid name (an empty string is
refused, it does not fall through to the next source). One exception:
LangGraph's server copies the caller's identity into ``configurable["user_id"]``
when the run names none, and an anonymous caller's identity is ``""`` (no auth
configured, as under ``langgraph dev``). That empty ``user_id``, beside an
empty ``configurable["langgraph_auth_user_id"]``, is the server's, not the
caller's: it is absent.

An authenticated run wins over all of that (the rule of the ``/memory``
routes): when LangGraph's server authenticated the caller, it puts their
identity in ``configurable["langgraph_auth_user_id"]`` (and the user object in
``configurable["langgraph_auth_user"]``). That identity is the user id; a
``user_id`` or ``langgraph_user_id`` in the context or ``configurable`` that
names someone else raises :class:`IdentityMismatchError` (the same one is
fine). When the auth user carries a ``tenant_id``, it is the run's tenant and
another one is refused the same way; without one the run may name any tenant.
There is no admin role (the routes have none either). Who the auth user is
follows one rule for the graphs and the routes, :func:`authenticated_caller`:
no auth user, or one whose ``is_authenticated`` is False (LangGraph's and
Starlette's unauthenticated user, ``langgraph dev``'s Studio user under custom
auth), means no authentication: the operator's rules of before apply. Any other
auth user whose identity or tenant cannot be read as a non-empty text (no
identity, a read or ``str()`` that raises, an empty ``tenant_id``, bytes or a
bool), or that cannot say whether it is authenticated, is refused
(:class:`InvalidNameError`; the routes answer 403), never taken for the
operator. Only an attribute the auth user (or the object a proxy such as
LangGraph's ``ProxyUser`` forwards to) does not have is absent; any other
failed read is refused (the rule: :mod:`deerflow_memory.auth.attributes`).

An identity provider's subject is often not a valid memory id (Auth0's
``auth0|64f1c2``, ``google-oauth2|1043``, ``user:42``, a name with a space,
more than 128 characters). :func:`user_id_for_identity` maps the
authenticated identity to the memory user id, the one rule for the graphs
and the ``/memory`` routes: a valid id stays exactly as it is; any other
identity becomes a readable part (its first 64 characters, each one a valid
id does not allow replaced by ``_``), ``.sha256-`` and 32 hex digits of the
SHA-256 of its NFC form: ``auth0|64f1c2`` → ``auth0_64f1c2.sha256-…``. The
mapping is stable and collision-free: a valid identity that already ends in
``.sha256-`` + 32 hex digits is mapped too, so no raw identity can take
another's mapped id. A client that names the caller's raw identity or its
mapped id names the caller (:func:`names_caller`).

The context must be None, a mapping or an object of your own (a dataclass,
pydantic model, namespace...): a string, number, list or other built-in value
(``context="alice"`` for ``{"user_id": "alice"}``) raises
:class:`InvalidNameError` instead of running as the shared ``"default"`` user.

Identity is captured when an update is enqueued, because timer and worker
threads do not see the run's context variables. Unsafe names raise
:class:`InvalidNameError` here, before any storage is touched.

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
import numbers
import re
import unicodedata
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langchain_core.runnables import RunnableConfig

from deerflow_memory.arguments import wrong_type
from deerflow_memory.auth.attributes import auth_attribute, says_authenticated, unreadable
from deerflow_memory.caching import TextCache
from deerflow_memory.errors import IdentityMismatchError, InvalidNameError
from deerflow_memory.storage.base import validate_name

__all__ = [
    "DEFAULT_USER_ID",
    "HASHED_THREAD_PREFIX",
    "MAX_THREAD_ID_LENGTH",
    "UNKNOWN_THREAD_ID",
    "AuthenticatedCaller",
    "MemoryIdentity",
    "authenticated_caller",
    "names_caller",
    "resolve_identity",
    "thread_key",
    "user_id_for_identity",
]

DEFAULT_USER_ID = "default"
UNKNOWN_THREAD_ID = "unknown"
MAX_THREAD_ID_LENGTH = 256
HASHED_THREAD_PREFIX = "thread-sha256:"
_UNSAFE_IN_THREAD = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
HASHED_IDENTITY_MARK = ".sha256-"
_HASHED_IDENTITY = re.compile(r"\.sha256-[0-9a-f]{32}\Z", re.IGNORECASE)  # any case: macOS, Windows
_READABLE_CHARS = 64


def _sha256_hex(text: str) -> str:
    """32 hex digits of the SHA-256 of ``text`` (lone surrogates allowed): the hashed ids' part."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def thread_key(thread_id: object) -> str:
    """The thread id memory stores for ``thread_id`` (see the module docstring); pure.

    Raises:
        InvalidNameError: ``thread_id`` is not a string, an ``int`` or a ``UUID``.
    """
    if isinstance(thread_id, str):
        if len(thread_id) <= MAX_THREAD_ID_LENGTH and not _UNSAFE_IN_THREAD.search(thread_id):
            return thread_id
        return HASHED_THREAD_PREFIX + _sha256_hex(thread_id)
    if (isinstance(thread_id, int) and not isinstance(thread_id, bool)) or isinstance(
        thread_id, uuid.UUID
    ):
        return thread_key(str(thread_id))
    raise InvalidNameError(
        f"thread_id must be a string (or an int or UUID), got {type(thread_id).__name__}"
    )


def _identity_forms(identity: str) -> tuple[str, str]:
    """``identity``'s NFC form and its memory user id (the rule: module docstring)."""
    if not isinstance(identity, str):
        raise InvalidNameError(
            f"an authenticated identity must be a string, got {type(identity).__name__}"
        )
    normalised = unicodedata.normalize("NFC", identity)
    try:
        user_id = validate_name(normalised, "authenticated user id")
    except InvalidNameError:
        user_id = None
    if user_id is None or _HASHED_IDENTITY.search(user_id):
        readable = "".join(
            char if char.isalnum() or char in "_-.@+" else "_"
            for char in normalised[:_READABLE_CHARS]
        ).lstrip(".")
        user_id = f"{readable or 'auth'}{HASHED_IDENTITY_MARK}{_sha256_hex(normalised)}"
    return normalised, user_id


# Identity resolution runs for every node call, so the pure rule is cached; identities
# come from outside (an auth layer), so the cache is bounded by characters too: a flood
# of made-up identities pushes old ones out, it never turns caching off for the rest.
_IDENTITY_FORMS = TextCache(_identity_forms, max_entries=16_384, max_chars=2_000_000)


def user_id_for_identity(identity: str) -> str:
    """The memory user id of an authenticated ``identity`` (rule: module docstring); pure.

    A valid id (:func:`~deerflow_memory.models.validate_name`) is returned as
    is (NFC); any other string as ``<readable>.sha256-<32 hex>``, the same
    every time. The graphs and the ``/memory`` routes both use it.

    Raises:
        InvalidNameError: ``identity`` is not a string.

    Example:
        >>> user_id_for_identity("alice@example.com")
        'alice@example.com'
        >>> user_id_for_identity("auth0|64f1c2")  # doctest: +ELLIPSIS
        'auth0_64f1c2.sha256-...'
    """
    return _IDENTITY_FORMS(identity)[1]


def names_caller(given: object, identity: str) -> bool:
    """True when ``given`` (a user id a client sent) names the authenticated ``identity``.

    The caller may name themselves by their raw identity (any Unicode
    normalisation form) or by its memory user id (:func:`user_id_for_identity`).
    """
    if not isinstance(given, str):
        return False
    if given == identity:
        return True
    forms = _IDENTITY_FORMS(identity)  # (NFC form, user id), cached: not normalised per call
    return given in forms or unicodedata.normalize("NFC", given) in forms


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


def _check_context(context: Any) -> None:
    # A built-in value that is not a mapping (str, int, list, tuple, ...) is a slip
    # (context="alice"): reading attributes off it would silently find nothing.
    if context is None or isinstance(context, Mapping):
        return
    if type(context).__module__ == "builtins":
        raise InvalidNameError(
            "the run's context must be a mapping such as {'user_id': 'alice'} or an object "
            f"with user_id/agent_name/tenant_id attributes, got {type(context).__name__}"
        )


def _lookup(source: Any, key: str) -> Any:
    if source is None:
        return None
    if isinstance(source, Mapping):
        return source.get(key)
    return getattr(source, key, None)


def _given(*values: Any) -> Any:
    """The first value that is not None (an empty string counts: it is refused later)."""
    for value in values:
        if value is not None:
            return value
    return None


@dataclass(frozen=True, slots=True)
class AuthenticatedCaller:
    """Who an authenticated request or run is: their raw identity, and their tenant if any.

    ``identity`` is the identity provider's text as given (map it with
    :func:`user_id_for_identity`); ``tenant_id`` is the auth user's tenant,
    validated (NFC), or None when the auth user carries none.
    """

    identity: str
    tenant_id: str | None = None


def _auth_text(value: Any, what: str) -> str | None:
    """The text of an identity or tenant id, or None for None or an empty text.

    A ``str`` (its own text, whatever a subclass's ``__str__`` says), a whole
    number (not a bool) or a :class:`uuid.UUID`, written as text. Anything else
    would name a memory by its representation (``b'ana'``, ``False``,
    ``Org.ACME``, ``Decimal('1')``), so it is refused.

    Raises:
        InvalidNameError: any other type.
    """
    if value is None:
        return None
    kind = type(value)  # not isinstance: a proxy's __class__ may claim to be str
    try:
        if issubclass(kind, str):
            return str.__str__(value) or None
        if issubclass(kind, numbers.Integral) and not issubclass(kind, bool):
            return int.__repr__(int(value))  # not a subclass's own text
        if issubclass(kind, uuid.UUID):
            return uuid.UUID.__str__(value)
    except Exception:  # an __int__ that raises, an int too long to write (over 4,300 digits)
        raise unreadable(what) from None
    raise InvalidNameError(
        f"the auth user's {what} must be text, a whole number or a UUID, got "
        f"{type(value).__name__}: refused, never taken for the operator"
    )


def authenticated_caller(user: Any, identity: Any = None) -> AuthenticatedCaller | None:
    """The authenticated caller behind an auth ``user``, or None when there is no authentication.

    The one rule of the graphs (``configurable["langgraph_auth_user"]``) and
    the ``/memory`` routes (Starlette's ``request.scope["user"]``):

    - no ``user`` and no ``identity`` (None or empty): no authentication, None;
    - ``user.is_authenticated`` False (LangGraph's and Starlette's
      ``UnauthenticatedUser``, ``langgraph dev``'s Studio user): no
      authentication, None; the operator's rules apply;
    - the identity: ``identity`` (given apart, LangGraph's
      ``configurable["langgraph_auth_user_id"]``), else ``user.identity``, else
      ``user.display_name`` (None, an empty text or Starlette's
      ``NotImplementedError`` is absent);
    - any other ``user`` (``is_authenticated`` True or absent) is authenticated:
      it must have an identity, and ``user.tenant_id``, when present (not
      None), must be a valid name.

    Args:
        user: the auth user: an object (a proxy, a ``BaseUser``), a mapping
            (after serialization) or None.
        identity: an identity given beside ``user``, read first.

    Raises:
        InvalidNameError: ``user`` is present and not unauthenticated, but it
            cannot say whether it is authenticated (reading
            ``is_authenticated`` raises), or its identity or tenant cannot be
            read as a non-empty text (no identity at all, a read or ``str()``
            that raises, an empty or unsafe ``tenant_id``); or ``identity``
            cannot be read. Never taken for the operator (who may name any user).
    """
    authenticated = None if user is None else says_authenticated(user)
    if authenticated is False:
        return None
    raw = _auth_text(identity, "identity")
    if raw is None and user is not None:
        raw = _auth_text(auth_attribute(user, "identity"), "identity") or _auth_text(
            auth_attribute(user, "display_name"), "display_name"
        )
    if raw is None:
        if user is not None:
            # Present, not unauthenticated, but nobody: taken for no auth, it would be
            # the operator.
            raise InvalidNameError(
                "the auth user is authenticated but its identity is empty: no memory can be its own"
                if authenticated
                else "the auth user has no identity yet does not say it is unauthenticated "
                "(is_authenticated False): refused, never taken for the operator"
            )
        return None  # no auth user at all (LangGraph's unauthenticated run)
    tenant = None if user is None else auth_attribute(user, "tenant_id")
    if tenant is None:
        return AuthenticatedCaller(raw, None)
    # An empty tenant is refused by validate_name, not read as "no tenant".
    tenant_text = _auth_text(tenant, "tenant_id") or ""
    return AuthenticatedCaller(raw, validate_name(tenant_text, "authenticated user's tenant_id"))


def _same_user_or_refused(given: Any, identity: str) -> None:
    # Another user's raw identity (``auth0|x``) is another user, not an invalid name.
    if given is not None and not names_caller(given, identity):
        if not isinstance(given, str):
            validate_name(given, "user_id")  # raises InvalidNameError
        raise IdentityMismatchError("user_id", given, identity)


def _same_or_refused(kind: str, given: Any, authenticated: str) -> None:
    if given is not None and validate_name(given, kind) != authenticated:
        raise IdentityMismatchError(kind, validate_name(given, kind), authenticated)


def resolve_identity(
    config: RunnableConfig | None,
    context: Any = None,
    *,
    default_agent_name: str | None = None,
) -> MemoryIdentity:
    """Resolve and validate the identity of the current run (rules: module docstring).

    Args:
        config: the run's ``RunnableConfig`` (``configurable`` is read).
        context: the run's context (``runtime.context``), None, a mapping or an object.
        default_agent_name: agent name when neither context nor config gives one.

    Raises:
        InvalidNameError: the user id, agent name or tenant is unsafe as a
            storage key (an empty string included; an authenticated identity
            is mapped instead, :func:`user_id_for_identity`; an auth user that
            is not unauthenticated but whose identity, tenant or
            ``is_authenticated`` cannot be read is refused,
            :func:`authenticated_caller`), the thread id is not a
            string, ``int`` or ``UUID``, or the context is a built-in value
            that is not a mapping (``context="alice"``).
        IdentityMismatchError: the run is authenticated and names another
            user id (or, when the auth user has a tenant, another tenant).
        InvalidArgumentError: ``config`` is neither a mapping nor None.
    """
    _check_context(context)
    if config is not None and type(config) is not dict and not isinstance(config, Mapping):
        wrong_type("config", "a RunnableConfig (a mapping) or None", config)
    configurable: Mapping[str, Any] = (config or {}).get("configurable") or {}
    if not isinstance(configurable, Mapping):
        raise InvalidNameError(
            f'config["configurable"] must be a mapping, got {type(configurable).__name__}'
        )
    configured_user = configurable.get("user_id")
    if configured_user == "" and configurable.get("langgraph_auth_user_id") == "":
        configured_user = None  # the server's copy of an anonymous caller's identity
    asked_user = _given(
        _lookup(context, "user_id"), configured_user, configurable.get("langgraph_user_id")
    )
    asked_tenant = _given(_lookup(context, "tenant_id"), configurable.get("tenant_id"))
    caller = authenticated_caller(
        configurable.get("langgraph_auth_user"), configurable.get("langgraph_auth_user_id")
    )
    auth_user, auth_tenant = (None, None) if caller is None else (caller.identity, caller.tenant_id)
    if auth_user is None:
        user_id = validate_name(DEFAULT_USER_ID if asked_user is None else asked_user, "user_id")
        tenant_id = None if asked_tenant is None else validate_name(asked_tenant, "tenant_id")
    else:
        # Every id the client gave must be the caller's own, not just the first one read.
        for source in (
            _lookup(context, "user_id"),
            configured_user,
            configurable.get("langgraph_user_id"),
        ):
            _same_user_or_refused(source, auth_user)
        user_id = user_id_for_identity(auth_user)
        if auth_tenant is None:
            tenant_id = None if asked_tenant is None else validate_name(asked_tenant, "tenant_id")
        else:
            for source in (_lookup(context, "tenant_id"), configurable.get("tenant_id")):
                _same_or_refused("tenant_id", source, auth_tenant)
            tenant_id = auth_tenant
    agent_name = _given(
        _lookup(context, "agent_name"), configurable.get("agent_name"), default_agent_name
    )
    thread_id = configurable.get("thread_id")
    return MemoryIdentity(
        user_id=user_id,
        agent_name=None if agent_name is None else validate_name(agent_name, "agent_name"),
        thread_id=UNKNOWN_THREAD_ID if thread_id is None or thread_id == "" else thread_id,
        tenant_id=tenant_id,
    )
