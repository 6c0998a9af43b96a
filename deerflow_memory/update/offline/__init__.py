"""The rule-based offline extractor: explicit self-statements in Chinese and English.

``vocabulary`` holds the word lists, ``rules`` the statement patterns and
slot rules, ``retractions`` what withdraws an earlier statement, ``text``
splits a message into clauses and finds candidates in them, and
``extractor`` turns candidates into a :class:`~deerflow_memory.models.MemoryUpdate`.
"""
