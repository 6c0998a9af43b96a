"""Storage backends: one memory document per (user, agent).

``base`` holds the contract every backend passes (the conformance suite),
``file`` the JSON-file backend, ``store`` the LangGraph ``BaseStore`` backend
(InMemoryStore, SqliteStore, PostgresStore) with ``store_locks`` for its
cross-process locking, and ``factory`` builds the one a config selects.
"""
