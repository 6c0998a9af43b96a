"""Process-wide caches keyed by text, bounded by their entries *and* their keys' characters.

``functools.lru_cache(maxsize=N)`` bounds entries, not memory. A cache of what a
fact's text breaks into (its terms, its bigrams) costs in proportion to the text:
16,384 distinct 500-character Chinese facts (``max_fact_chars`` allows 500) held
~870 MB in the consolidation terms cache and ~760 MB in the lexical one
(tracemalloc), for the life of the process, shared by every service and tenant in it.
:class:`TextCache` also bounds the total length of the texts it keeps, so its
memory follows the text held, whatever the facts' lengths.

- :mod:`~deerflow_memory.caching.text`: :class:`TextCache` and :class:`TextCacheInfo`.
- :mod:`~deerflow_memory.caching.budget`: :class:`CacheBudget` and :class:`BudgetCache`,
  the storages' caches of parsed documents: one bound on entries and facts held,
  shared by a storage, its tenants' views and each of their caches.
- :mod:`~deerflow_memory.caching.identity`: :class:`PerObject`, one value per live
  object keyed by identity and held weakly (the storages' per-store lock registries).

This is a leaf: it imports nothing from the package, and every layer may use it.
"""

from __future__ import annotations

from deerflow_memory.caching.budget import BudgetCache, CacheBudget
from deerflow_memory.caching.identity import PerObject
from deerflow_memory.caching.text import TextCache, TextCacheInfo

__all__ = ["BudgetCache", "CacheBudget", "PerObject", "TextCache", "TextCacheInfo"]
