"""LangGraph's own ``ProxyUser`` (what a graph run is handed) read by ``authenticated_caller``.

The langgraph server wraps whatever the app's auth handler returned in
``langgraph_api.auth.custom.normalize_user``: a ``ProxyUser`` whose
``__getattr__`` forwards to the app's user (a dict becomes a ``DotDict``).
An attribute the app's user does not have is absent (no tenant); one whose
reading fails inside the app's user is refused, never the tenant-less memory
or a display name many accounts share. ``langgraph_api`` reads its server
settings on import, so the check runs in a child process given placeholder
ones (nothing is connected to).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("langgraph_api") is None, reason="langgraph-api not installed"
)

CHILD = textwrap.dedent(
    """
    import operator
    import weakref
    from types import SimpleNamespace

    import wrapt
    from langgraph_api.auth.custom import normalize_user

    from deerflow_memory.errors import InvalidNameError
    from deerflow_memory.identity import authenticated_caller


    class AppUser:
        is_authenticated = True
        display_name = "Support Team"  # shared by many accounts

        def __init__(self, sub, org=None):
            self.claims, self.org = SimpleNamespace(sub=sub), org

        @property
        def identity(self):
            return self.claims.sub

        @property
        def tenant_id(self):
            return self.org.id


    class CodedTenantUser:  # tenant_id coded in C: a failure in it leaves no frame
        identity = "ana"

        def __init__(self):
            self.claims = SimpleNamespace(sub="ana")

        tenant_id = property(operator.attrgetter("claims.tenant_id"))


    def wrapt_layers(user, layers):
        for _ in range(layers):
            user = wrapt.ObjectProxy(user)
        return user


    class PlainUser:
        identity = "ana"


    kept_alive = PlainUser()  # a weakref.proxy below needs it alive


    def outcome(user, claims_dropped=False):
        proxy = normalize_user(user)  # LangGraph checks hasattr(user, "identity") here
        if claims_dropped:  # ...and the claims are gone when the graph reads them
            user.claims = None
        try:
            caller = authenticated_caller(proxy)
        except InvalidNameError:
            return "refused"
        return f"{caller.identity}/{caller.tenant_id}"


    for name, user, dropped in [
        ("dict-no-tenant", {"identity": "auth0|5"}, False),
        ("string-user", "bob", False),  # LangGraph's SimpleUser, a ProxyUser subclass
        ("dict-tenant", {"identity": "ana", "tenant_id": "acme"}, False),
        ("object-no-tenant", SimpleNamespace(identity="ana"), False),
        ("property-tenant", AppUser("ana", SimpleNamespace(id="acme")), False),
        ("property-tenant-raises", AppUser("ana"), False),
        ("property-identity-raises", AppUser("ana", SimpleNamespace(id="acme")), True),
        ("wrapt-two-layers-no-tenant", wrapt_layers(SimpleNamespace(identity="ana"), 2), False),
        ("wrapt-three-layers-no-tenant", wrapt_layers(SimpleNamespace(identity="ana"), 3), False),
        ("wrapt-over-weakref-proxy-no-tenant", wrapt_layers(weakref.proxy(kept_alive), 2), False),
        (
            "wrapt-two-layers-tenant",
            wrapt_layers(AppUser("ana", SimpleNamespace(id="acme")), 2),
            False,
        ),
        ("wrapt-two-layers-coded-tenant-raises", wrapt_layers(CodedTenantUser(), 2), False),
        ("wrapt-two-layers-property-tenant-raises", wrapt_layers(AppUser("ana"), 2), False),
    ]:
        print(name, outcome(user, dropped))
    """
)


def test_langgraphs_proxy_user_reads_absent_as_absent_and_a_failed_read_as_refused() -> None:
    env = {
        **os.environ,
        "REDIS_URI": "redis://127.0.0.1:9/0",  # placeholders: read on import, never used
        "DATABASE_URI": "postgres://nobody@127.0.0.1:9/none",
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "1",
    }
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert dict(line.split(" ", 1) for line in done.stdout.splitlines()) == {
        "dict-no-tenant": "auth0|5/None",
        "string-user": "bob/None",
        "dict-tenant": "ana/acme",
        "object-no-tenant": "ana/None",
        "property-tenant": "ana/acme",
        "property-tenant-raises": "refused",
        "property-identity-raises": "refused",
        "wrapt-two-layers-no-tenant": "ana/None",
        "wrapt-three-layers-no-tenant": "ana/None",
        "wrapt-over-weakref-proxy-no-tenant": "ana/None",
        "wrapt-two-layers-tenant": "ana/acme",
        "wrapt-two-layers-coded-tenant-raises": "refused",
        "wrapt-two-layers-property-tenant-raises": "refused",
    }
