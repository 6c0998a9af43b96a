"""One rule, one function: who an auth user is, for the graphs and the ``/memory`` routes.

``identity.authenticated_caller`` is used by ``resolve_identity`` (the graphs)
and by the routes' ``caller_identity``/``caller_tenant``. They used to be two
implementations that disagreed: an auth user whose ``is_authenticated`` raised
was refused by the routes (403) but read by the graphs as authenticated, or,
with an empty identity, as no authentication at all: the operator, who may
name any user's memory.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from starlette.authentication import BaseUser
from starlette.requests import Request

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


CASES: list[tuple[str, Any, Any]] = [
    ("not-authenticated", SimpleNamespace(identity="alice", is_authenticated=False), OPERATOR),
    ("langgraph-anonymous", {"identity": "", "is_authenticated": False}, OPERATOR),
    ("authenticated", SimpleNamespace(identity="alice", is_authenticated=True), "alice"),
    ("mapping", {"identity": "auth0|7", "is_authenticated": True}, "auth0|7"),
    ("display-name", DisplayNameOnly(), "bob"),
    ("no-flag-with-identity", SimpleNamespace(identity="alice"), "alice"),
    ("no-flag-no-identity", SimpleNamespace(identity=""), OPERATOR),
    ("authenticated-as-nobody", SimpleNamespace(identity="", is_authenticated=True), REFUSED),
    ("flag-raises", CannotSay("alice"), REFUSED),
    ("flag-raises-no-identity", CannotSay(""), REFUSED),
    ("flag-truth-raises", Unanswerable(), REFUSED),
]


def graph_outcome(user: Any) -> str:
    config: Any = {"configurable": {"langgraph_auth_user": user}}
    try:
        return resolve_identity(config).user_id
    except InvalidNameError:
        return REFUSED


def route_outcome(user: Any) -> str:
    request = Request({"type": "http", "user": user, "headers": []})
    try:
        identity = caller_identity(request)
    except ApiError as e:
        assert e.status == 403
        return REFUSED
    return "default" if identity is None else user_id_for_identity(identity)


@pytest.mark.parametrize(("user", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_graphs_and_the_routes_read_an_auth_user_the_same_way(user: Any, expected: str) -> None:
    wanted = "default" if expected == OPERATOR else expected
    if expected not in (OPERATOR, REFUSED):
        wanted = user_id_for_identity(expected)
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
