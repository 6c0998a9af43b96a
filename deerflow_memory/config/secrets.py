"""Credentials masked in every message and ``repr`` the package prints."""

from __future__ import annotations

import re
from collections.abc import Iterable

SECRET_FIELDS = frozenset({"api_key", "storage_dsn", "base_url"})
# The password runs to an "@", however long (an IAM token is about 1 KB): past "?", "#"
# and "/", which libpq (and SQLAlchemy's parser) accept in it unescaped, and past a later
# "@" too ("bob:pa@ss@db") unless a "/" came between them: then that "@" is in the path or
# query ("u:pw@db/x?app=bob@corp"). It stops at the next "://", so a text of many of them
# is read in linear time.
_URL_PASSWORD = re.compile(r"(?<=://)([^:/@\s]*):((?:(?!://)[^@\s])*(?:@[^@\s/]{0,256}){0,8})@")
# …and a password holding "://" itself, as the rule before this one read any (to the first
# "@"), in a bounded run so this too stays linear.
_URL_PASSWORD_ANY = re.compile(r"(?<=://)([^:/@\s]*):([^@\s]{0,512})@")
# …and in a URL whose "//" a file path made one "/" ("--config postgresql://bob:pw@db" is
# reported as the path "postgresql:/bob:pw@db"): to the last "@" before the host, as above,
# but no "/" in it ("PATH=/bin:/snap:/lib/@types" holds none), bounded: linear on a text of
# many ":/".
_URL_PASSWORD_ONE_SLASH = re.compile(
    r"(?<=[A-Za-z0-9]:/)(?!/)([^:/@\s]{0,256}):((?:[^@\s/]|@(?=[^@\s/]*@)){0,512})@"
)
_URL_TOKEN = re.compile(r"(?<=://)[^:/?#@\s]+@")  # http://TOKEN@host: the whole userinfo
# …and in a URL made one "/" ("--config https://TOKEN@host/c.yaml" is reported as the path
# "https:/TOKEN@host/c.yaml"), bounded as the password above.
_URL_TOKEN_ONE_SLASH = re.compile(r"(?<=[A-Za-z0-9]:/)(?!/)[^:/?#@\s]{1,512}@")
# A DSN written without its scheme ("--config bob:pw@db" reports the path "bob:pw@db"):
# userinfo at the start of a word, before a host name. The password runs to the last "@"
# before it; bounded, so linear.
_USERINFO_NO_SCHEME = re.compile(
    r"(?<![^\s'\"(])([A-Za-z0-9._%+-]{1,64}):(?!/)((?:[^\s@'\"]|@(?=[^\s@'\"]*@)){1,512})@"
    r"(?=[A-Za-z0-9][A-Za-z0-9.-]{0,253}(?:[:/\s'\")]|$))"
)
# "password=…", "db_password: …", "github_token=…", '"api_key": "…"' (JSON), "sslpassword =
# 's3 cr3t'" (libpq's keyword form quotes a value with spaces; an unclosed quote runs to the
# end of its line); not "OLDPWD". A key's prefix is four short words at most ("my-app-db-")
# and a backslash is read one way only (an escape), so a failed match tries few ways:
# linear time.
_KEY_VALUE_SECRET = re.compile(
    r"(?i)\b((?:[a-z0-9]{1,32}[_-]){0,4}"
    r"(?:password|passwd|pwd|(?:api|secret|private|access)[_-]?key|secret|token)"
    r"|sslpassword|pgpassword)(['\"]?\s*[=:]\s*)"
    r"(?:(?P<quoted>'(?:\\[^\n]|[^\\'\n])*\\?'?|\"(?:\\[^\n]|[^\\\"\n])*\\?\"?)|[^\s'\",;&]+)"
)
# URL query parameters that carry credentials (?key=, ?access_token=, ?api-key=, ?sig=).
_QUERY_SECRET = re.compile(
    r"(?i)([?&](?:key|api[_-]?key|[a-z_]*token|secret|client_secret|password|auth|sig|signature)=)"
    r"[^&#\s'\"]+"
)


def _key_value_redacted(m: re.Match[str]) -> str:
    # A quoted value keeps its quotes (an unclosed one ran to the end of its line).
    quoted = m["quoted"] or ""
    quote = quoted[:1]
    closed = quote if len(quoted) >= 2 and quoted.endswith(quote) else ""
    return f"{m.group(1)}{m.group(2)}{quote}***{closed}"


# An HTTP credential ("Authorization: Bearer eyJ…", "Basic dXNlcjpwdw=="): a digit or a
# sign in it, so "basic understanding" and "bearer bonds" are no credentials.
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+(?=[A-Za-z]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}")
_OPENAI_KEY = re.compile(r"\bsk-[A-Za-z0-9_\-]{6,}")


def redact_secrets(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with credentials masked: URL passwords and bare-token userinfo
    (``http://TOKEN@host``), credential query parameters (``?key=``, ``?api-key=``,
    ``?access_token=``, ``?token=``), ``password=...`` pairs, API keys and ``secrets``.

    Example:
        >>> redact_secrets("postgresql://app:hunter2@db/memory")
        'postgresql://app:***@db/memory'
    """
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, "***")
    for password in (
        _URL_PASSWORD,
        _URL_PASSWORD_ANY,
        _URL_PASSWORD_ONE_SLASH,
        _USERINFO_NO_SCHEME,
    ):
        text = password.sub(lambda m: f"{m.group(1)}:***@", text)
    for token in (_URL_TOKEN, _URL_TOKEN_ONE_SLASH):
        text = token.sub("***@", text)
    text = _QUERY_SECRET.sub(lambda m: f"{m.group(1)}***", text)
    text = _KEY_VALUE_SECRET.sub(_key_value_redacted, text)
    text = _BEARER.sub(lambda m: f"{m.group(1)} ***", text)
    return _OPENAI_KEY.sub("sk-***", text)
