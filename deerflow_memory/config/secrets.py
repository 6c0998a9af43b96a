"""Credentials masked in every message and ``repr`` the package prints."""

from __future__ import annotations

import bisect
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
_SCHEME = r"[A-Za-z][A-Za-z0-9+.-]{1,30}"  # a URL's scheme of two letters or more ("C:" is none)
# …and in a URL whose "//" a path made one "/" ("--root https://TOKEN@host/x" is said as
# "https:/TOKEN@host/x"): a scheme of two letters or more at the start of a word ("D:/me@corp"
# and "PATH=/bin:/x@y" hold none), bounded: linear.
_URL_TOKEN_ONE_SLASH = re.compile(rf"(?<![\w/.+-])({_SCHEME}:/)(?!/)[^:/?#@\s]{{1,512}}@")
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
    for password in (_URL_PASSWORD, _URL_PASSWORD_ANY, _URL_PASSWORD_ONE_SLASH):
        text = password.sub(lambda m: f"{m.group(1)}:***@", text)
    text = _URL_TOKEN.sub("***@", text)
    text = _URL_TOKEN_ONE_SLASH.sub(lambda m: f"{m.group(1)}***@", text)
    text = _QUERY_SECRET.sub(lambda m: f"{m.group(1)}***", text)
    text = _KEY_VALUE_SECRET.sub(_key_value_redacted, text)
    text = _BEARER.sub(lambda m: f"{m.group(1)} ***", text)
    return _OPENAI_KEY.sub("sk-***", text)


_SCHEME_ONE_SLASH = re.compile(rf"{_SCHEME}:/(?!/)")
_WORD_EDGES = (" ", "\t", "\n", "\r")


def redact_path(path: str) -> str:
    """``path`` for a message, credentials masked: those :func:`redact_secrets` masks, and
    the userinfo of a DSN or URL given where a path goes, which a path reads otherwise.

    ``bob:pw@db``, a DSN without its scheme, in any component (``conf/bob:pw@db``),
    becomes ``bob:***@db``: the userinfo runs to the last "@" of the path (or of the word
    holding it, in a message), and its password may hold "/" and ":". A token of a URL a
    path made one "/" (``https:/TOKEN@host``) is masked whatever its length. Linear time.

    Example:
        >>> redact_path("conf/bob:hunter2@db.example/mem")
        'conf/bob:***@db.example/mem'
    """
    text = redact_secrets(path)
    at = text.rfind("@")
    if at <= 0:
        return text
    # The userinfo is in the word of that "@" (a path quoted in a message, or in a line of a
    # traceback: "ConfigError: config file not found: bob:***@db" is no password)
    word = max(text.rfind(edge, 0, at) for edge in _WORD_EDGES) + 1
    component, colon = word, text.find(":", word, at)
    while colon >= 0:  # the first "user:" of a component, not "C:/" or "scheme:/"
        component = max(component, text.rfind("/", component, colon) + 1)
        user = colon > component and text.find("@", component, colon) < 0
        if user and not text.startswith("/", colon + 1):
            masked = text[colon + 1 : at] == "***"
            return text if masked else f"{text[: colon + 1]}***{text[at:]}"
        ends = text.find("/", colon, at)  # a component holds one userinfo at most
        if ends < 0:
            break
        component = ends + 1
        colon = text.find(":", component, at)
    scheme = _SCHEME_ONE_SLASH.match(text, word)  # "https:/TOKEN@host", a token of any length
    if scheme is not None and "/" not in text[scheme.end() : at]:
        return text if text[scheme.end() : at] == "***" else f"{text[: scheme.end()]}***{text[at:]}"
    return text


# The userinfo of a URL DSN: from "://" to the last "@" before the path (a password may
# hold "@", "/" and spaces, which libpq then quotes back in its errors).
_DSN_USERINFO = re.compile(r"^\s*[A-Za-z][A-Za-z0-9+.-]*://(?P<info>.*)@[^@]*$", re.DOTALL)
# A keyword DSN's password: quoted, or its words up to the next "key=" ("password=alpha beta
# dbname=x": libpq reads "beta" as a key and says 'missing "=" after "beta"').
_DSN_PASSWORD = re.compile(r"(?i)(?:\b|ssl)password\s*=\s*(?P<quoted>'(?:\\.|[^'\\])*'?)?")
_DSN_KEY = re.compile(r"\w+\s*=")  # the next keyword: where an unquoted password ends


def dsn_secret_words(dsn: str) -> list[str]:
    """The words of a PostgreSQL DSN's credentials, for masking what libpq quotes back of it
    in an error (``'missing "=" after "beta"'`` of ``password=alpha beta``, ``'unexpected
    spaces found in "alpha beta"'`` of ``postgresql://bob:alpha beta@db``).

    Example:
        >>> dsn_secret_words("host=db password=alpha beta dbname=m")
        ['alpha beta', 'alpha', 'beta']
    """
    found: list[str] = []
    if (url := _DSN_USERINFO.match(dsn)) is not None:
        found.append(url["info"].partition(":")[2] or url["info"])
    tokens = [(t.start(), t.group()) for t in re.finditer(r"\S+", dsn)]  # (split once: linear)
    starts = [start for start, _ in tokens]
    for m in _DSN_PASSWORD.finditer(dsn):
        if m["quoted"]:
            found.append(m["quoted"].strip("'"))
            continue
        # its words up to the next "key=" ("Tr0ub=4dor horse" holds an "="), from the rest of
        # the token "password=" opens
        at = bisect.bisect_right(starts, m.end()) - 1
        start, token = tokens[at] if at >= 0 else (0, "")
        words = [token[m.end() - start :]] if start + len(token) > m.end() else []
        following = at + 1  # (an index: a slice or islice would walk from the start)
        while following < len(tokens) and not (words and _DSN_KEY.match(tokens[following][1])):
            words.append(tokens[following][1])
            following += 1
        found.append(" ".join(words))
    words = [w for secret in found for w in secret.split()]
    return [s for s in dict.fromkeys([*found, *words]) if s]
