"""A deterministic hashing embedder: the same text always gives the same vector, offline.

For tests and examples, not for quality: texts sharing words (English, after
lowercasing) or character bigrams (Chinese) get similar vectors; synonyms do
not. Never raises on odd text.
"""

from __future__ import annotations

import math
import re
import unicodedata
import zlib

from langchain_core.embeddings import Embeddings

from deerflow_memory.arguments import expect_number
from deerflow_memory.errors import ConfigError

__all__ = ["HashingEmbeddings"]

_WORD = re.compile(r"[0-9a-z]+|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+")


class HashingEmbeddings(Embeddings):
    """Feature hashing of words and CJK bigrams into ``dims`` dimensions, L2-normalised.

    Args:
        dims: vector length (default 64).

    Example:
        >>> e = HashingEmbeddings(dims=16)
        >>> e.embed_query("peanut allergy") == e.embed_documents(["peanut allergy"])[0]
        True
    """

    def __init__(self, dims: int = 64) -> None:
        """A stand-in embedder of ``dims`` dimensions.

        Raises:
            ConfigError: ``dims`` is not an int of at least 1.
        """
        expect_number(dims, "dims", ConfigError, integer=True)
        if dims < 1:
            raise ConfigError(f"dims must be >= 1, got {dims}")
        self.dims = dims

    def _features(self, text: str) -> list[str]:
        features: list[str] = []
        for run in _WORD.findall(unicodedata.normalize("NFKC", text).lower()):
            if run[0] < "\u3040":
                features.append(run)
            else:
                features.extend(run[i : i + 2] for i in range(max(1, len(run) - 1)))
        return features

    def _embed(self, text: str) -> list[float]:
        vector = [0.0] * self.dims
        for feature in self._features(text):
            code = zlib.crc32(feature.encode("utf-8"))
            vector[code % self.dims] += 1.0 if code & 0x80000000 else -1.0
        norm = math.sqrt(sum(x * x for x in vector))
        return [x / norm for x in vector] if norm else vector

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """One vector per text, in order."""
        return [self._embed(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        """The vector of ``text`` (queries and documents embed alike)."""
        return self._embed(text)
