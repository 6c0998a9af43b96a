"""Cross-site request checks (CSRF) run before every state-changing memory route.

Any web page the operator visits can make the browser send a "simple" request
(an HTML ``<form method=POST enctype=text/plain>``, no preflight) to a server on
127.0.0.1, and such a form can spell a valid JSON body. Two rules refuse it:

- a route that reads a body needs ``Content-Type: application/json`` (415
  otherwise): a browser sends that type to another origin only after a CORS
  preflight, which these routes never approve;
- a POST, PUT, PATCH or DELETE whose ``Origin`` header names another origin than
  the request's own (scheme, ``Host`` name and port) is refused with 403, unless
  that origin is in ``http_allowed_origins``. ``Origin: null`` (sandboxed frames,
  some redirects) counts as another origin. A request without ``Origin`` (curl,
  scripts) passes, unless the browser marks it ``Sec-Fetch-Site: cross-site``.

Before either, every memory route (reads too) checks the ``Host`` header
(:func:`check_host`): a page whose name an attacker re-points at 127.0.0.1 (DNS
rebinding) is "same origin" with the server and could read and change memory, but
its requests carry the attacker's name. Allowed are IP literals, ``localhost``
and ``*.localhost``, and the hosts of ``http_allowed_origins``; anything else is
403. A request without ``Host`` (HTTP/1.0 tools; browsers always send it) passes.

GET routes are not checked by the Origin and content-type rules.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Collection, Iterable
from urllib.parse import urlsplit

from starlette.requests import Request

from deerflow_memory.api.errors import ApiError
from deerflow_memory.config import normalize_origin

__all__ = ["WRITE_METHODS", "allowed_hosts", "check_host", "check_json_body", "check_same_origin"]

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


# A Host header: a name or bracketed IPv6 literal, then an optional port. No user
# info, path or spaces (browsers never send them; refusing them keeps parsing simple).
_HOST = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[^\s@/?#\\\[\]:]+)(?::[0-9]{0,5})?")


def _host_name(host: str) -> str | None:
    """The name of a ``Host`` header or origin netloc (lower case, no port, no trailing dot)."""
    match = _HOST.fullmatch(host.strip())
    if match is None:
        return None
    name = match.group(1).lower().rstrip(".")
    return name or None


def allowed_hosts(origins: Iterable[str]) -> frozenset[str]:
    """The host names of ``origins`` (``MemoryConfig.http_allowed_origins``, normalized)."""
    names = (_host_name(urlsplit(origin).netloc) for origin in origins)
    return frozenset(name for name in names if name)


def _is_local_or_ip(name: str) -> bool:
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        ipaddress.ip_address(name.removeprefix("[").removesuffix("]"))
    except ValueError:
        return False
    return True


def check_host(request: Request, allowed: Collection[str]) -> None:
    """Refuse a request that reached the server by a name it does not answer to.

    Args:
        request: the incoming request (any method).
        allowed: host names from :func:`allowed_hosts`.

    Raises:
        ApiError: 403 when ``Host`` names neither an IP address, ``localhost``
            (or ``*.localhost``) nor a host of ``http_allowed_origins``.
    """
    host = request.headers.get("host")
    if host is None:
        return
    name = _host_name(host)
    if name is not None and (_is_local_or_ip(name) or name in allowed):
        return
    shown = host[:80].encode("ascii", "backslashreplace").decode("ascii")
    example = f"https://{name}" if name is not None else "https://memory.example.com"
    raise ApiError(
        403,
        f"the memory routes do not answer to the host {shown!r} (a page may have re-pointed "
        f"its name at this server: DNS rebinding); if it is this server's name, add its "
        f"origin (e.g. {example!r}) to http_allowed_origins",
    )


def _own_origin(request: Request) -> str | None:
    # Starlette builds request.url from the Host header (else the server address).
    url = request.url
    return normalize_origin(f"{url.scheme}://{url.netloc}")


def check_same_origin(request: Request, allowed: Collection[str]) -> None:
    """Refuse a state-changing request sent by a page of another origin.

    Args:
        request: the incoming request (only POST/PUT/PATCH/DELETE are checked).
        allowed: extra origins, normalized (``MemoryConfig.http_allowed_origins``).

    Raises:
        ApiError: 403 when ``Origin`` differs from the request's own and is not
            allowed, or when there is no ``Origin`` but ``Sec-Fetch-Site`` says
            ``cross-site``.
    """
    if request.method not in WRITE_METHODS:
        return
    origin = request.headers.get("origin")
    if origin is None:
        if request.headers.get("sec-fetch-site", "").lower() == "cross-site":
            raise ApiError(403, "cross-site requests cannot change memory")
        return
    asked = normalize_origin(origin)
    if asked is not None and (asked == _own_origin(request) or asked in allowed):
        return
    shown = origin[:80].encode("ascii", "backslashreplace").decode("ascii")
    raise ApiError(
        403,
        f"requests from origin {shown!r} cannot change memory "
        "(same origin only; add it to http_allowed_origins to allow it)",
    )


def check_json_body(request: Request) -> None:
    """Refuse a body that is not declared ``application/json`` (parameters such as charset allowed).

    Raises:
        ApiError: 415 naming the type that was sent.
    """
    declared = request.headers.get("content-type")
    media_type = (declared or "").split(";", 1)[0].strip().lower()
    if media_type == "application/json":
        return
    shown = "none" if declared is None else repr(declared[:80])
    raise ApiError(415, f"this route needs the header Content-Type: application/json (got {shown})")
