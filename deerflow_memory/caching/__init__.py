"""Process-wide caches keyed by text, bounded by their entries *and* their keys' characters.

``functools.lru_cache(maxsize=N)`` bounds entries, not memory. A cache of what a
fact's text breaks into (its terms, its bigrams) costs in proportion to the text:
16,384 distinct 500-character Chinese facts (``max_fact_chars`` allows 500) held
~870 MB in the consolidation terms cache and ~760 MB in the lexical one
(tracemalloc), for the life of the process, shared by every service and tenant in it.
:class:`TextCache` also bounds the total length of the texts it keeps, so its
memory follows the text held, whatever the facts' lengths.

- :mod:`~deerflow_memory.caching.text`: :class:`TextCache` and :class:`TextCacheInfo`.
- :mod:`~deerflow_memory.caching.weighted`: :class:`WeightedLRU`, the storages' caches of
  parsed documents, bounded by count and by the facts they hold.

This is a leaf: it imports nothing from the package, and every layer may use it.
"""

from __future__ import annotations

from deerflow_memory.caching.text import TextCache, TextCacheInfo
from deerflow_memory.caching.weighted import WeightedLRU

__all__ = ["TextCache", "TextCacheInfo", "WeightedLRU"]
