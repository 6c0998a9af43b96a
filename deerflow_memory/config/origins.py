"""Web origins (``scheme://host:port``) as the HTTP API compares them."""

from __future__ import annotations

from urllib.parse import urlsplit


def normalize_origin(origin: str) -> str | None:
    """A web origin as ``scheme://host:port`` (lower case, default port spelled out).

    Args:
        origin: an ``Origin`` header or a configured origin (``https://a.example``).

    Returns:
        The normalized origin, or None when it is not an http(s) origin
        (``null``, a path, user info, a bad port, junk).
    """
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:  # a port out of range or not a number
        return None
    defaults = {"http": 80, "https": 443}
    scheme = parts.scheme.lower()
    if scheme not in defaults or not parts.hostname or "@" in parts.netloc:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    host = parts.hostname.lower()
    if ":" in host:  # IPv6, bracketed again as in a URL
        host = f"[{host}]"
    return f"{scheme}://{host}:{port or defaults[scheme]}"
