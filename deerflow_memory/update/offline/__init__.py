"""The rule-based offline extractor: explicit self-statements in Chinese and English.

``vocabulary`` holds the word lists, ``rules`` the statement patterns and
slot rules, ``retractions`` what withdraws an earlier statement, ``shaping`` the
sentence shapes read before clauses (a fact before a question, "my wife and
I", venting), ``text`` splits a message into clauses and finds candidates in
them, ``own_words`` keeps a self-statement no rule knows, and
``extractor`` turns candidates into a :class:`~deerflow_memory.models.MemoryUpdate`.
"""
