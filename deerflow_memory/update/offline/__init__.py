"""The rule-based offline extractor: explicit self-statements in Chinese and English.

``rules`` holds the statement patterns and slot rules, ``text`` splits a
message into clauses and finds candidates in them, and ``extractor`` turns
candidates into a :class:`~deerflow_memory.models.MemoryUpdate`.
"""
