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

GET routes only read and are not checked here.
"""

from __future__ import annotations

from collections.abc import Collection

from starlette.requests import Request

from deerflow_memory.api.errors import ApiError
from deerflow_memory.config import normalize_origin

__all__ = ["WRITE_METHODS", "check_json_body", "check_same_origin"]

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


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
