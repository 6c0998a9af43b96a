"""One rule, one function: who an auth user is, for the graphs and the ``/memory`` routes.

``identity.authenticated_caller`` is used by ``resolve_identity`` (the graphs)
and by the routes' ``caller_identity``/``caller_tenant``. They used to be two
implementations that disagreed: an auth user whose ``is_authenticated`` raised
was refused by the routes (403) but read by the graphs as authenticated, or,
with an empty identity, as no authentication at all: the operator, who may
name any user's memory.

Any other reading that fails (an ``identity``, ``display_name`` or
``tenant_id`` that raises, a ``str()`` that raises, no identity at all) is
refused too: "absent" would mean "no auth", the operator.
"""

from __future__ import annotations

import decimal
import enum
import operator
import uuid
import weakref
from collections.abc import Callable, Iterator, Mapping
from types import SimpleNamespace
from typing import Any

import pydantic
import pytest
import wrapt
from starlette.authentication import (
    AuthCredentials,
    AuthenticationBackend,
    BaseUser,
    UnauthenticatedUser,
)
from starlette.requests import HTTPConnection, Request
from starlette.testclient import TestClient

from deerflow_memory.api.errors import ApiError
from deerflow_memory.api.routes import caller_identity, caller_tenant
from deerflow_memory.errors import InvalidNameError
from deerflow_memory.identity import (
    AuthenticatedCaller,
    authenticated_caller,
    resolve_identity,
    user_id_for_identity,
)

OPERATOR = "operator"
REFUSED = "refused"


class CannotSay(BaseUser):
    """A Starlette user that leaves ``is_authenticated`` unimplemented (it raises)."""

    def __init__(self, identity: str) -> None:
        self._identity = identity

    @property
    def is_authenticated(self) -> bool:
        raise NotImplementedError

    @property
    def display_name(self) -> str:
        return ""

    @property
    def identity(self) -> str:
        return self._identity


class Unanswerable:
    """``is_authenticated`` is an object whose truth value raises."""

    identity = "alice"

    class _Flag:
        def __bool__(self) -> bool:
            raise RuntimeError("no answer")

    is_authenticated = _Flag()


class DisplayNameOnly(BaseUser):
    """Starlette's ``identity`` left unimplemented: the display name is the identity."""

    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def display_name(self) -> str:
        return "bob"


class LazyIdentity:
    """An app's user whose identity is looked up lazily, and the lookup fails."""

    @property
    def identity(self) -> str:
        raise RuntimeError("user service unavailable")


class Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("no text")


class LazyAttributes:
    """Attributes looked up lazily: each one named in ``failing`` raises ``error``."""

    def __init__(self, error: type[Exception], *failing: str, **values: Any) -> None:
        self._error, self._failing, self._values = error, failing, values

    def __getattr__(self, name: str) -> Any:
        if name in self._failing:
            raise self._error(name)
        if name in self._values:
            return self._values[name]
        raise AttributeError(name)


class BrokenMapping(dict[str, Any]):
    """A serialized user whose lookups fail for one key."""

    def get(self, key: str, default: Any = None) -> Any:
        if key == "identity":
            raise KeyError(key)
        return super().get(key, default)


class PropertyUser:
    """An app's user whose properties read other objects: ``self.org.id`` with no org
    loaded, ``self.claims`` not fetched yet (AttributeError raised inside the property)."""

    is_authenticated = True

    def __init__(self, identity: str | None, org: Any = None) -> None:
        self._identity, self.org = identity, org

    @property
    def identity(self) -> str:
        if self._identity is None:
            return str(self.claims["sub"])  # type: ignore[attr-defined]
        return self._identity

    @property
    def display_name(self) -> str:
        return "Alice"

    @property
    def tenant_id(self) -> str:
        return str(self.org.id)


class ForwardingUser:
    """The shape of LangGraph's ``ProxyUser`` (what a graph is handed): identity, flag and
    display name as its own properties, any other attribute forwarded to the app's user."""

    def __init__(self, user: Any) -> None:
        self._user = user

    @property
    def identity(self) -> str:
        return str(self._user.identity)

    @property
    def is_authenticated(self) -> bool:
        return bool(getattr(self._user, "is_authenticated", True))

    @property
    def display_name(self) -> str:
        return str(getattr(self._user, "display_name", self.identity))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._user, name)


class PlainProxy:
    """A proxy that forwards every attribute, identity included."""

    def __init__(self, user: Any) -> None:
        self._user = user

    def __getattr__(self, name: str) -> Any:
        return getattr(self._user, name)


def _forwarded(method: Callable[..., Any]) -> Callable[..., Any]:
    def forward(self: LazyProxy, *args: Any) -> Any:
        return method(self._user, *args)

    return forward


class LazyProxy:
    """A proxy whose ``__getattr__`` is a function of another name (the shape of Django's
    ``SimpleLazyObject``: ``__getattr__ = new_method_proxy(getattr)``)."""

    def __init__(self, user: Any) -> None:
        self._user = user

    __getattr__ = _forwarded(getattr)


class GetattributeProxy:
    """A proxy forwarding every lookup from ``__getattribute__``."""

    def __init__(self, user: Any) -> None:
        object.__setattr__(self, "_user", user)

    def __getattribute__(self, name: str) -> Any:
        return getattr(object.__getattribute__(self, "_user"), name)


class SlotsProxy:
    """A proxy keeping the user it forwards to in a slot."""

    __slots__ = ("_user",)

    def __init__(self, user: Any) -> None:
        self._user = user

    def __getattr__(self, name: str) -> Any:
        return getattr(self._user, name)


class CodedProperty:
    """``tenant_id`` a property coded in C (``operator.attrgetter``) reading a claim that is
    missing: no Python frame of the property shows, the claims object lacks the name."""

    identity = "ana"

    def __init__(self, claims: Any = None) -> None:
        self.claims = SimpleNamespace(sub="ana") if claims is None else claims

    tenant_id = property(operator.attrgetter("claims.tenant_id"))


class DictUser:
    """The shape of LangGraph's ``DotDict``: a returned dict read as attributes, answering a
    missing key with the interpreter's own words."""

    def __init__(self, **values: Any) -> None:
        self._values = values

    def __getattr__(self, name: str) -> Any:
        if name not in self._values:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return self._values[name]


class ClaimsUser:
    """Attributes computed in ``__getattr__`` from claims that were never fetched: each way
    of failing raises an AttributeError that is not "no such attribute"."""

    is_authenticated = True
    display_name = "Support Team"  # shared by many accounts

    def __init__(self, failing: str, how: str, **values: Any) -> None:
        self._failing, self._how, self._values, self._claims = failing, how, values, None

    def _fetch(self) -> Any:
        return self._claims.sub  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> Any:
        if name == self._failing:
            if self._how == "said":
                raise AttributeError("claims not fetched")
            if self._how == "forwarded-to-nothing":
                return getattr(self._claims, name)
            return self._fetch()  # "deeper": raised in a helper it calls
        if name in self._values:
            return self._values[name]
        raise AttributeError(name)


class MaskedProperty:
    """A declared property whose AttributeError Python hands to ``__getattr__`` (pydantic
    models and many proxies define one), which then says "no such attribute"."""

    identity = "ana"
    org = None

    @property
    def tenant_id(self) -> str:
        return str(self.org.id)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


class UnloadedClaimsMapping(Mapping[str, Any]):
    """A dict-like user whose claims are not loaded: ``get`` raises AttributeError for
    ``failing`` (``None.get``); the display name is one many accounts share."""

    def __init__(self, failing: str, **values: Any) -> None:
        self._failing, self._values, self._claims = failing, values, None

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def get(self, key: str, default: Any = None) -> Any:
        if key == self._failing:
            return self._claims.get(key, default)  # type: ignore[attr-defined]
        return self._values.get(key, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


class ClaimsProperty:
    """``tenant_id`` a property reading claims kept as a ``DictUser`` that lacks it: the
    "no such attribute" comes from below the property, so reading the tenant failed."""

    identity = "ana"

    def __init__(self) -> None:
        self.claims = DictUser(sub="ana")

    @property
    def tenant_id(self) -> str:
        return str(self.claims.tenant_id)


class SlotsUser:
    """``tenant_id`` declared as a slot but never set: the class says there is a tenant."""

    __slots__ = ("identity", "is_authenticated", "tenant_id")

    def __init__(self) -> None:
        self.identity, self.is_authenticated = "ana", True


class NoIdentityStarletteUser(BaseUser):
    """A Starlette user leaving identity and display name out, with no flag set: nobody."""


class ClaimsBackedUser:
    """An app user whose declared ``tenant_id``/``identity`` read an unloaded part, and
    whose ``__getattr__`` answers other names from the token's claims: Python hands the
    property's AttributeError to that ``__getattr__``, which fails about the claims."""

    is_authenticated = True
    display_name = "Support Team"  # shared by many accounts

    def __init__(self, claims: Any, org: Any = None) -> None:
        self._claims = claims
        self._org = org

    def __getattr__(self, name: str) -> Any:
        return getattr(self._claims, name)

    @property
    def tenant_id(self) -> str:
        return str(self._org.id)

    @property
    def identity(self) -> str:
        return str(self._claims.sub)


class TokenUser:
    """Forwards unknown names to its token's payload, two objects away."""

    def __init__(self, **claims: Any) -> None:
        self._token = SimpleNamespace(payload=SimpleNamespace(**claims))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._token.payload, name)


class WeakForwarder:
    """Forwards to a user it keeps through a ``weakref.ref``."""

    def __init__(self, user: Any) -> None:
        self._ref = weakref.ref(user)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ref(), name)


class PlainUser:
    identity = "ana"
    is_authenticated = True


# the weak references below need them alive
KEPT_ALIVE: list[Any] = [PlainUser(), PlainUser(), PlainUser(), wrapt.ObjectProxy(PlainUser())]


class ModelUser(pydantic.BaseModel):
    """An app's user as a pydantic model: its own ``__getattr__`` answers for itself."""

    identity: str


class ClaimsTenantUser:
    """``tenant_id`` a Python property reading a claim that is missing: the
    AttributeError it raises names ``tenant_id`` itself, on the claims object."""

    identity = "ana"

    def __init__(self) -> None:
        self.claims = SimpleNamespace(sub="ana")

    @property
    def tenant_id(self) -> str:
        return str(self.claims.tenant_id)


class TenantClaimsProxy(wrapt.ObjectProxy):
    """A wrapt proxy of the token's claims that declares ``tenant_id`` itself: a C-coded
    property reading the claim, which is missing (the read fails on the claims)."""

    tenant_id = property(operator.attrgetter("__wrapped__.tenant_id"))


def wrapt_layers(user: Any, layers: int) -> Any:
    """``user`` inside ``layers`` of wrapt's C-coded ``ObjectProxy``."""
    for _ in range(layers):
        user = wrapt.ObjectProxy(user)
    return user


class RequestContext:
    """An app's request object: forwards to the user and also keeps the user's token, a
    second way to the claims the user's C-coded ``tenant_id`` property failed on."""

    def __init__(self, user: Any, token: Any) -> None:
        self.user, self.token = user, token

    def __getattr__(self, name: str) -> Any:
        return getattr(self.user, name)


class TextInt(int):
    def __str__(self) -> str:
        return "someone-else"


class SessionContext:
    """Keeps the user's claims itself and reaches the user two objects away (or hidden in a
    tuple): a C-coded property of the user failing on those claims shows no frame."""

    def __init__(self, user: Any, hidden: bool) -> None:
        self.claims = user.claims
        self.session = (user,) if hidden else SimpleNamespace(user=user)
        self._hidden = hidden

    def __getattr__(self, name: str) -> Any:
        user = self.session[0] if self._hidden else self.session.user
        return getattr(user, name)


class SwallowingWrapper:
    """Forwards to the user but answers "no such attribute" itself when the user's read
    fails (``hasattr`` swallows the failure of a C-coded property)."""

    def __init__(self, user: Any) -> None:
        self._user = user

    def __getattr__(self, name: str) -> Any:
        if hasattr(self._user, name):
            return getattr(self._user, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


class NotImplementedIdentity:
    """An app's identity property raising NotImplementedError (not Starlette's)."""

    display_name = "Support Team"  # shared by many accounts

    @property
    def identity(self) -> str:
        raise NotImplementedError("claims not loaded")


class ClaimsStr:
    """A value whose ``__class__`` claims to be ``str`` (a lazy string, a proxy)."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return str


class Org(enum.Enum):
    ACME = "acme"


class TextLike:
    """An object whose ``str()`` reads like a name: not an id type, so refused."""

    def __str__(self) -> str:
        return "ana"


CASES: list[tuple[str, Any, Any]] = [
    ("starlette-unauthenticated", UnauthenticatedUser(), OPERATOR),
    # A class with a __getattr__ of its own saying "no such attribute" cannot be told
    # from one that hid a failed read (hasattr, then raise): refused, as the README
    # says (define tenant_id = None); LangGraph's DotDict and pydantic's models are known.
    ("proxy-without-tenant", LazyAttributes(RuntimeError, identity="auth0|5"), REFUSED),
    ("not-authenticated", SimpleNamespace(identity="alice", is_authenticated=False), OPERATOR),
    ("langgraph-anonymous", {"identity": "", "is_authenticated": False}, OPERATOR),
    ("authenticated", SimpleNamespace(identity="alice", is_authenticated=True), "alice"),
    ("mapping", {"identity": "auth0|7", "is_authenticated": True}, "auth0|7"),
    ("display-name", DisplayNameOnly(), "bob"),
    ("no-flag-with-identity", SimpleNamespace(identity="alice"), "alice"),
    ("no-flag-no-identity", SimpleNamespace(identity=""), REFUSED),
    ("no-flag-nothing", SimpleNamespace(), REFUSED),
    ("no-flag-empty-mapping", {}, REFUSED),
    ("starlette-user-without-anything", NoIdentityStarletteUser(), REFUSED),
    ("identity-raises", LazyIdentity(), REFUSED),
    ("identity-raises-attribute-error", LazyAttributes(AttributeError, "identity"), REFUSED),
    ("identity-str-raises", SimpleNamespace(identity=Unprintable()), REFUSED),
    ("display-name-raises", LazyAttributes(RuntimeError, "display_name"), REFUSED),
    ("display-name-str-raises", SimpleNamespace(display_name=Unprintable()), REFUSED),
    ("mapping-lookup-raises", BrokenMapping(identity="alice"), REFUSED),
    (
        "authenticated-identity-raises",
        LazyAttributes(RuntimeError, "identity", is_authenticated=True, display_name="x"),
        REFUSED,
    ),
    ("tenant-raises", LazyAttributes(RuntimeError, "tenant_id", identity="ana"), REFUSED),
    (
        "tenant-not-implemented",
        LazyAttributes(NotImplementedError, "tenant_id", identity="ana"),
        REFUSED,
    ),
    ("tenant-str-raises", SimpleNamespace(identity="ana", tenant_id=Unprintable()), REFUSED),
    ("tenant-property-loaded", PropertyUser("ana", SimpleNamespace(id="acme")), ("ana", "acme")),
    # AttributeError inside a declared property is a failed read, not "no tenant" (which
    # would put the caller in the tenant-less memory, or any ?tenant= over HTTP).
    ("tenant-property-raises-attribute-error", PropertyUser("ana"), REFUSED),
    # ...nor "no identity" (which would fall back to a display name others share).
    (
        "identity-property-raises-attribute-error",
        PropertyUser(None, SimpleNamespace(id="a")),
        REFUSED,
    ),
    # A proxy of a class of its own passing the lookup on: where to cannot be checked
    # (a C-coded property on the way leaves no frame), so a missing tenant is refused;
    # LangGraph's real ProxyUser is known (tests/test_auth_langgraph_proxy.py).
    ("proxy-forwards-no-tenant", ForwardingUser(SimpleNamespace(identity="ana")), REFUSED),
    (
        "proxy-forwards-tenant",
        ForwardingUser(SimpleNamespace(identity="ana", tenant_id="acme")),
        ("ana", "acme"),
    ),
    ("proxy-over-dict-no-tenant", ForwardingUser(DictUser(identity="auth0|5")), REFUSED),
    ("dict-user-no-tenant", DictUser(identity="ana", is_authenticated=True), REFUSED),
    ("hook-swallowing-a-failed-read", SwallowingWrapper(CodedProperty()), REFUSED),
    ("app-identity-raising-not-implemented", NotImplementedIdentity(), REFUSED),
    ("tenant-claiming-to-be-str", {"identity": "ana", "tenant_id": ClaimsStr()}, REFUSED),
    ("lazy-proxy-no-tenant", LazyProxy(SimpleNamespace(identity="ana")), REFUSED),
    ("slots-proxy-no-tenant", SlotsProxy(SimpleNamespace(identity="ana")), REFUSED),
    ("proxy-chain-no-tenant", PlainProxy(ForwardingUser(SimpleNamespace(identity="ana"))), REFUSED),
    ("getattribute-proxy-no-tenant", GetattributeProxy(SimpleNamespace(identity="ana")), REFUSED),
    # ...but one whose reading failed is refused, as without the proxy: not the
    # tenant-less memory...
    ("proxy-tenant-property-raises-attribute-error", ForwardingUser(PropertyUser("ana")), REFUSED),
    ("plain-proxy-tenant-property-raises", PlainProxy(PropertyUser("ana")), REFUSED),
    ("lazy-proxy-tenant-property-raises", LazyProxy(PropertyUser("ana")), REFUSED),
    ("getattribute-proxy-tenant-property-raises", GetattributeProxy(PropertyUser("ana")), REFUSED),
    ("proxy-tenant-property-masked", ForwardingUser(MaskedProperty()), REFUSED),
    ("masked-tenant-property", MaskedProperty(), REFUSED),
    ("proxy-tenant-property-reads-missing-claim", ForwardingUser(ClaimsProperty()), REFUSED),
    ("tenant-property-reads-missing-claim", ClaimsProperty(), REFUSED),
    ("proxy-tenant-coded-property-reads-missing-claim", ForwardingUser(CodedProperty()), REFUSED),
    ("slots-proxy-tenant-coded-property", SlotsProxy(CodedProperty()), REFUSED),
    # ...nor a display name many accounts share.
    (
        "proxy-identity-property-raises-attribute-error",
        ForwardingUser(PropertyUser(None, SimpleNamespace(id="a"))),
        REFUSED,
    ),
    (
        "plain-proxy-identity-property-raises",
        PlainProxy(PropertyUser(None, SimpleNamespace(id="a"))),
        REFUSED,
    ),
    ("getattr-says-tenant-not-fetched", ClaimsUser("tenant_id", "said", identity="ana"), REFUSED),
    (
        "getattr-forwards-tenant-to-nothing",
        ClaimsUser("tenant_id", "forwarded-to-nothing", identity="ana"),
        REFUSED,
    ),
    ("getattr-tenant-raises-deeper", ClaimsUser("tenant_id", "deeper", identity="ana"), REFUSED),
    ("getattr-says-identity-not-fetched", ClaimsUser("identity", "said"), REFUSED),
    ("getattr-identity-raises-deeper", ClaimsUser("identity", "deeper"), REFUSED),
    (
        "proxy-getattr-tenant-not-fetched",
        PlainProxy(ClaimsUser("tenant_id", "said", identity="a")),
        REFUSED,
    ),
    (
        "mapping-tenant-lookup-raises-attribute-error",
        UnloadedClaimsMapping("tenant_id", identity="ana", is_authenticated=True),
        REFUSED,
    ),
    (
        "mapping-identity-lookup-raises-attribute-error",
        UnloadedClaimsMapping("identity", display_name="Support Team", is_authenticated=True),
        REFUSED,
    ),
    (
        "mapping-flag-lookup-raises-attribute-error",
        UnloadedClaimsMapping("is_authenticated", identity="ana"),
        REFUSED,
    ),
    # A slot declared and never set: which tenant is unknown, so refused (fail closed).
    ("tenant-slot-never-set", SlotsUser(), REFUSED),
    ("proxy-tenant-slot-never-set", ForwardingUser(SlotsUser()), REFUSED),
    ("tenant-empty", {"identity": "ana", "tenant_id": ""}, REFUSED),
    ("tenant-none-is-no-tenant", {"identity": "ana", "tenant_id": None}, "ana"),
    (
        "not-authenticated-nothing-else-read",
        LazyAttributes(RuntimeError, "identity", "tenant_id", is_authenticated=False),
        OPERATOR,
    ),
    ("authenticated-as-nobody", SimpleNamespace(identity="", is_authenticated=True), REFUSED),
    ("flag-raises", CannotSay("alice"), REFUSED),
    ("flag-raises-no-identity", CannotSay(""), REFUSED),
    ("flag-truth-raises", Unanswerable(), REFUSED),
    # A declared attribute that failed, seen through a proxy: the proxied object
    # declares it, so the failure is no absence (the tenant or the identity).
    ("claims-user-tenant-unloaded", ClaimsBackedUser(SimpleNamespace(sub="ana")), REFUSED),
    (
        "proxied-claims-user-tenant-unloaded",
        PlainProxy(ClaimsBackedUser(SimpleNamespace(sub="ana"))),
        REFUSED,
    ),
    (
        "langgraph-proxy-claims-user-tenant-unloaded",
        ForwardingUser(ClaimsBackedUser(SimpleNamespace(sub="ana"))),
        REFUSED,
    ),
    (
        "proxied-claims-user-identity-unloaded",
        PlainProxy(ClaimsBackedUser(SimpleNamespace(), org=SimpleNamespace(id="acme"))),
        REFUSED,
    ),
    (
        "proxied-claims-user-loaded",
        PlainProxy(ClaimsBackedUser(SimpleNamespace(sub="ana"), org=SimpleNamespace(id="acme"))),
        ("ana", "acme"),
    ),
    # The same, claims answering through their own __getattr__ (a DotDict): the hook
    # that failed is not one the proxy reached itself.
    (
        "proxied-c-property-over-hooked-claims",
        ForwardingUser(CodedProperty(DictUser(sub="ana"))),
        REFUSED,
    ),
    # Values whose str() is a representation, not an id's text, are refused; ids are not.
    ("identity-bytes", {"identity": b"ana"}, REFUSED),
    ("identity-bool", {"identity": True}, REFUSED),
    ("identity-float", {"identity": 1.5}, REFUSED),
    ("identity-list", {"identity": ["ana"]}, REFUSED),
    # The claims a failed read stopped at are also held beside the user: the user, met
    # on the way, declares tenant_id, so the read failed.
    (
        "request-context-holding-user-and-token",
        (lambda user: RequestContext(user, user.claims))(CodedProperty()),
        REFUSED,
    ),
    ("session-context-user-two-away", SessionContext(CodedProperty(), hidden=False), REFUSED),
    ("session-context-user-in-a-tuple", SessionContext(CodedProperty(), hidden=True), REFUSED),
    ("tenant-int-too-long-to-write", {"identity": "ana", "tenant_id": 10**5000}, REFUSED),
    ("tenant-int-subclass-own-text", {"identity": "ana", "tenant_id": TextInt(7)}, ("ana", "7")),
    # Proxies of classes of their own reaching the user further away: a missing tenant is
    # refused (see above); one they have reads; C-coded proxies (weakref.proxy) are known.
    ("token-payload-user-without-tenant", TokenUser(identity="ana"), REFUSED),
    (
        "token-payload-user-with-tenant",
        TokenUser(identity="ana", tenant_id="acme"),
        ("ana", "acme"),
    ),
    ("weakref-forwarder-without-tenant", WeakForwarder(KEPT_ALIVE[0]), REFUSED),
    ("weakref-proxy-without-tenant", weakref.proxy(KEPT_ALIVE[1]), "ana"),
    # wrapt's ObjectProxy (coded in C, no frame) in layers: each layer is followed.
    ("wrapt-without-tenant", wrapt_layers(PlainUser(), 1), "ana"),
    ("wrapt-two-layers-without-tenant", wrapt_layers(PlainUser(), 2), "ana"),
    ("wrapt-three-layers-without-tenant", wrapt_layers(PlainUser(), 3), "ana"),
    (
        "wrapt-over-weakref-proxy-without-tenant",
        wrapt_layers(weakref.proxy(KEPT_ALIVE[2]), 2),
        "ana",
    ),
    ("wrapt-two-layers-over-pydantic-model", wrapt_layers(ModelUser(identity="ana"), 2), "ana"),
    (
        "wrapt-two-layers-with-tenant",
        wrapt_layers(SimpleNamespace(identity="ana", tenant_id="acme"), 2),
        ("ana", "acme"),
    ),
    # ...and a tenant_id that failed inside them is still refused: a Python property, a
    # C-coded one (no frame: the user met on the way declares it), one reading org.id.
    ("wrapt-two-layers-tenant-property-fails", wrapt_layers(ClaimsTenantUser(), 2), REFUSED),
    ("wrapt-two-layers-c-coded-tenant-fails", wrapt_layers(CodedProperty(), 2), REFUSED),
    ("wrapt-three-layers-c-coded-tenant-fails", wrapt_layers(CodedProperty(), 3), REFUSED),
    ("wrapt-two-layers-tenant-org-unloaded", wrapt_layers(PropertyUser("ana"), 2), REFUSED),
    (
        "wrapt-over-claims-proxy-declaring-tenant",
        wrapt_layers(TenantClaimsProxy(SimpleNamespace(identity="ana")), 1),
        REFUSED,
    ),
    (
        "wrapt-two-layers-over-claims-proxy-declaring-tenant",
        wrapt_layers(TenantClaimsProxy(SimpleNamespace(identity="ana")), 2),
        REFUSED,
    ),
    # Deeper than the bound, or a weakref.proxy of a wrapt proxy (its referent cannot
    # be read without running code): not followed, so refused (fail closed).
    ("wrapt-seventeen-layers-without-tenant", wrapt_layers(PlainUser(), 17), REFUSED),
    ("weakref-proxy-over-wrapt-without-tenant", weakref.proxy(KEPT_ALIVE[3]), REFUSED),
    ("identity-enum-member", {"identity": Org.ACME}, REFUSED),
    ("identity-decimal", {"identity": decimal.Decimal(1)}, REFUSED),
    ("identity-object-with-str", {"identity": TextLike()}, REFUSED),
    ("tenant-enum-member", {"identity": "ana", "tenant_id": Org.ACME}, REFUSED),
    ("tenant-bool", {"identity": "ana", "tenant_id": False}, REFUSED),
    ("tenant-bytes", {"identity": "ana", "tenant_id": b"acme"}, REFUSED),
    ("identity-int", {"identity": 42, "tenant_id": 7}, ("42", "7")),
    (
        "identity-uuid",
        {"identity": uuid.UUID(int=5)},
        "00000000-0000-0000-0000-000000000005",
    ),
]


def graph_outcome(user: Any) -> tuple[str, str | None] | str:
    config: Any = {"configurable": {"langgraph_auth_user": user}}
    try:
        identity = resolve_identity(config)
    except InvalidNameError:
        return REFUSED
    return identity.user_id, identity.tenant_id


def route_outcome(user: Any) -> tuple[str, str | None] | str:
    request = Request({"type": "http", "user": user, "headers": []})
    try:
        identity, tenant = caller_identity(request), caller_tenant(request)
    except ApiError as e:
        assert e.status == 403
        return REFUSED
    return ("default" if identity is None else user_id_for_identity(identity)), tenant


@pytest.mark.parametrize(("user", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_graphs_and_the_routes_read_an_auth_user_the_same_way(user: Any, expected: Any) -> None:
    # ``expected``: OPERATOR, REFUSED, an identity (no tenant) or (identity, tenant).
    identity, tenant = expected if isinstance(expected, tuple) else (expected, None)
    wanted: tuple[str, str | None] | str = ("default", None) if identity == OPERATOR else REFUSED
    if identity not in (OPERATOR, REFUSED):
        wanted = (user_id_for_identity(identity), tenant)
    assert graph_outcome(user) == wanted
    assert route_outcome(user) == wanted


@pytest.mark.parametrize("user", [CannotSay("alice"), CannotSay(""), Unanswerable()], ids=repr)
def test_a_user_that_cannot_say_whether_it_is_authenticated_never_gets_operator_access(
    user: Any,
) -> None:
    # The operator may name anyone: a run naming bob must be refused, not run as bob.
    config: Any = {"configurable": {"langgraph_auth_user": user, "user_id": "bob"}}
    with pytest.raises(InvalidNameError, match="cannot say whether it is authenticated"):
        resolve_identity(config)
    with pytest.raises(InvalidNameError, match="cannot say whether it is authenticated"):
        authenticated_caller(user)


def test_the_caller_carries_the_identity_given_apart_and_the_users_validated_tenant() -> None:
    user = {"identity": "ignored", "is_authenticated": True, "tenant_id": "Zoe\u0308"}
    assert authenticated_caller(user, "auth0|9") == AuthenticatedCaller("auth0|9", "Zo\u00eb")
    assert authenticated_caller(None, "auth0|9") == AuthenticatedCaller("auth0|9", None)
    assert authenticated_caller(None) is None
    request = Request({"type": "http", "user": user, "headers": []})
    assert caller_tenant(request) == "Zo\u00eb"  # the routes read the same tenant
    with pytest.raises(InvalidNameError, match="tenant_id"):
        authenticated_caller({"identity": "a", "is_authenticated": True, "tenant_id": "../x"})


def test_an_identity_given_apart_that_cannot_be_read_is_refused_not_the_operator() -> None:
    config: Any = {"configurable": {"langgraph_auth_user_id": Unprintable(), "user_id": "bob"}}
    with pytest.raises(InvalidNameError, match="identity must be text, a whole number or a UUID"):
        resolve_identity(config)
    # An empty one beside no user is LangGraph's unauthenticated run: the operator.
    assert authenticated_caller(None, "") is None


@pytest.mark.parametrize(
    "user",
    [LazyIdentity(), LazyAttributes(RuntimeError, "tenant_id", identity="bob")],
    ids=["identity-raises", "tenant-raises"],
)
def test_a_run_whose_auth_user_cannot_be_read_never_names_another_user_or_tenant(
    user: Any,
) -> None:
    config: Any = {
        "configurable": {"langgraph_auth_user": user, "user_id": "bob", "tenant_id": "shop"}
    }
    with pytest.raises(InvalidNameError, match="cannot be read"):
        resolve_identity(config)


class LazyAuth(AuthenticationBackend):
    """``X-User: lazy`` is a user whose identity cannot be loaded; ``ana-lazy-tenant`` one
    whose tenant cannot; no header lets the request through anonymous (the operator)."""

    async def authenticate(self, conn: HTTPConnection) -> Any:
        kind = conn.headers.get("x-user")
        if kind == "lazy":
            return AuthCredentials(["authenticated"]), LazyIdentity()
        if kind == "ana-lazy-tenant":
            return AuthCredentials(["authenticated"]), LazyAttributes(
                RuntimeError, "tenant_id", identity="ana"
            )
        return None


def test_over_http_a_user_that_cannot_be_read_gets_403_not_the_operators_access(
    auth_client: Callable[..., TestClient],
) -> None:
    client = auth_client(LazyAuth())  # require_auth off: anonymous is the operator
    for user, tenant in (("bob", None), ("ana", "shop")):
        added = client.post(
            f"/memory/users/{user}/facts", params={"tenant": tenant}, json={"content": "Likes tea"}
        )
        assert added.status_code == 201, added.text
    lazy = {"x-user": "lazy"}
    read = client.get("/memory/users/bob", headers=lazy)
    assert read.status_code == 403 and "Likes tea" not in read.text
    assert "identity cannot be read" in read.json()["error"]
    assert client.delete("/memory/users/bob?confirm=bob", headers=lazy).status_code == 403
    assert client.get("/memory/users/bob").json()["facts"][0]["content"] == "Likes tea"
    ana = {"x-user": "ana-lazy-tenant"}
    other_tenant = client.get("/memory/users/ana", params={"tenant": "shop"}, headers=ana)
    assert other_tenant.status_code == 403 and "Likes tea" not in other_tenant.text
    assert client.get("/memory/status", headers=ana).status_code == 403


def test_a_class_given_a_failing_tenant_property_later_is_refused_from_then_on() -> None:
    class Late:
        identity = "ana"

    user = Late()
    assert authenticated_caller(user) == AuthenticatedCaller("ana", None)

    def unloaded(self: Late) -> str:
        raise AttributeError("org not loaded")

    Late.tenant_id = property(unloaded)  # type: ignore[attr-defined]
    with pytest.raises(InvalidNameError):
        authenticated_caller(ForwardingUser(user))
