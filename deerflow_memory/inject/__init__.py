"""Stage 4, inject: a stored memory document becomes the block in front of the model.

``tokens`` counts tokens offline (tiktoken from bundled vocabularies, or a
CJK-aware estimate); ``format`` renders the ``<user_memory>`` block within a
token budget, escaped; ``retrieval`` picks the facts relevant to the current
request (``lexical`` is its BM25 path for Chinese and English, ``topics``
its topic expansion for queries that share no word with a fact); ``live``
keeps expired facts out, cheaply enough for every turn.
"""
