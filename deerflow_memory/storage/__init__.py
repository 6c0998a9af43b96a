"""Storage backends: one memory document per (user, agent).

``base`` holds the contract, ``file`` the JSON-file backend, ``store`` the
LangGraph ``BaseStore`` backend (InMemoryStore, SqliteStore, PostgresStore).
"""
