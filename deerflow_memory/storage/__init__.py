"""Stage 3, storage: one memory document per (user, agent).

``base`` holds the contract every backend passes (the conformance suite) and
the name rules; ``file`` the JSON-file backend, ``store`` the LangGraph
``BaseStore`` backend (InMemoryStore, SqliteStore, PostgresStore) with
``store_locks`` for its cross-process locking; ``factory`` builds the one a
config selects, and ``migrate`` copies documents between backends;
``stats`` reports per-document hygiene figures (noise ratio, merges, expiry).

Nothing lost: ``outbox`` is the durable record of captured turns until their
update is saved (``outbox_file``: a journal per process; ``outbox_store``: an
item per job key with leases, shared by processes); ``update_locks`` hold one
(user, agent) across a whole update; ``dead_letters`` keep updates that failed.
"""
