"""A worker process for durability tests: ``python -m tests.durable_child MODE CONFIG ...``.

Modes:
- ``capture N``: capture N turns (user ``u{i}``, one fact each) with a one-hour
  debounce, make the outbox durable, print ``ready`` and sleep (to be killed).
- ``drain``: construct a service on the same storage, ``flush()``, print the
  number of users whose fact is stored.
- ``open FOLDER ME PROCESSES TRIALS`` (no config): open a new SQLite file per
  trial at the same moment as the other processes; print the failures.
- ``replica NAME LOG``: a server replica reading ``turn K`` / ``flush`` lines;
  each extractor call appends NAME to the file LOG.
- ``hammer PREFIX THREADS UPDATES``: THREADS threads each run UPDATES updates
  on user ``shared`` at once (debounce 0), each adding one distinct fact.
- ``graph-capture N`` / ``graph-drain N`` (config ``storage: store`` plus a
  ``"db"`` key: a SQLite path or a Postgres DSN): like capture/drain, but
  through a graph compiled with ``store=`` that store, as a user would; the
  drain runs one turn (which binds the store) and then ``flush()``.
"""

from __future__ import annotations

import json
import sys
import threading
import time

from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryIdentity, MemoryService


def turn(text: str, ident: str) -> list[object]:
    return [
        HumanMessage(content=text, id=f"h-{ident}"),
        AIMessage(content="Noted.", id=f"a-{ident}"),
    ]


def tool_name(ident: str) -> str:
    """One made-up word per update id (``p1-2-3`` → ``zedbcd``): facts unlike each other."""
    return "zed" + "".join(chr(ord("a") + int(c)) if c.isdigit() else "" for c in ident)


def capture(config: MemoryConfig, n: int) -> None:
    memory = MemoryService(
        config.model_copy(update={"debounce_seconds": 3600, "max_wait_seconds": 3600}),
        register_atexit=False,
    )
    for i in range(n):
        who = MemoryIdentity(user_id=f"u{i}", agent_name=None, thread_id=f"t{i}")
        memory.enqueue(who, turn(f"I work as a welder number {i}.", str(i)))
    assert memory.durable is not None
    memory.durable.outbox.sync()
    print("ready", flush=True)
    time.sleep(600)


def drain(config: MemoryConfig, n: int) -> None:
    memory = MemoryService(config, register_atexit=False)
    assert memory.flush(timeout=300)
    stored = sum(1 for i in range(n) if memory.load(MemoryIdentity(f"u{i}", None, "t")).facts)
    memory.close()
    print(stored, flush=True)


def hammer(config: MemoryConfig, prefix: str, threads: int, updates: int) -> None:
    memory = MemoryService(
        config.model_copy(
            update={"debounce_seconds": 0, "max_wait_seconds": 0, "max_workers": threads}
        ),
        register_atexit=False,
    )

    def run(t: int) -> None:
        for k in range(updates):
            # One thread per key, so the queue never merges two of them.
            ident = f"{prefix}-{t}-{k}"
            who = MemoryIdentity("shared", None, ident)
            memory.enqueue(who, turn(f"I use tool {tool_name(ident)} every day.", ident))

    workers = [threading.Thread(target=run, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert memory.flush(timeout=600)
    memory.close()
    print("done", flush=True)


def opener(folder: str, me: int, processes: int, trials: int) -> None:
    """Open ``trials`` new SQLite files, each at the same moment as the other processes."""
    from pathlib import Path

    from deerflow_memory.storage.factory import build_storage

    root = Path(folder)
    failures = 0
    for trial in range(trials):
        (root / f"ready-{trial}-{me}").touch()
        deadline = time.monotonic() + 60
        while len(list(root.glob(f"ready-{trial}-*"))) < processes:
            if time.monotonic() > deadline:
                raise SystemExit("barrier timed out")
            time.sleep(0.0005)
        config = MemoryConfig(storage="sqlite", storage_path=root / f"db-{trial}.sqlite")
        try:
            storage = build_storage(config)
            storage.load("alice")
            storage.close()  # type: ignore[attr-defined]
        except Exception as e:
            failures += 1
            print(f"trial {trial}: {type(e).__name__}: {e}", file=sys.stderr)
    print(failures, flush=True)


class CountingExtractor:
    """The offline extractor, appending one line to ``log`` per call (a model-call counter)."""

    def __init__(self, log: str, name: str) -> None:
        from deerflow_memory import OfflineExtractor

        self.inner, self.log, self.name = OfflineExtractor(), log, name

    def extract(self, request: object) -> object:
        with open(self.log, "a", encoding="utf-8") as f:
            f.write(self.name + "\n")
        return self.inner.extract(request)  # type: ignore[arg-type]


def replica(config: MemoryConfig, name: str, log: str) -> None:
    """A server replica: ``turn K`` captures turns 0..K of thread ``burst``; ``flush`` drains."""
    memory = MemoryService(config, extractor=CountingExtractor(log, name), register_atexit=False)  # type: ignore[arg-type]
    who = MemoryIdentity("bursty", None, "burst")
    print("ready", flush=True)
    for line in sys.stdin:
        command = line.split()
        if command[0] == "turn":
            history: list[object] = []
            for k in range(int(command[1]) + 1):
                history += turn(f"I use tool {tool_name(f'p{k}')} every day.", f"burst-{k}")
            memory.enqueue(who, history)  # type: ignore[arg-type]
            print("ok", flush=True)
        elif command[0] == "flush":
            assert memory.flush(timeout=120)
            memory.close()
            print("done", flush=True)
            return


_KEEP: list[object] = []


def compiled_store(db: str) -> object:
    """A store as a user compiles it into a graph: SqliteStore on a path, or PostgresStore."""
    if db.startswith("postgres"):
        from langgraph.store.postgres import PostgresStore

        manager = PostgresStore.from_conn_string(db)
        _KEEP.append(manager)  # its connection closes when the manager is collected
        store = manager.__enter__()
    else:
        import sqlite3

        from langgraph.store.sqlite import SqliteStore

        conn = sqlite3.connect(db, check_same_thread=False, isolation_level=None)
        store = SqliteStore(conn)
    store.setup()
    return store


def graph_turn(graph: object, user: str, text: str, ident: str) -> None:
    graph.invoke(  # type: ignore[attr-defined]
        {"messages": [HumanMessage(content=text, id=f"h-{ident}")]},
        {"configurable": {"user_id": user, "thread_id": f"t-{ident}"}},
    )


def graph_capture(config: MemoryConfig, db: str, n: int) -> None:
    from deerflow_memory import create_memory_agent

    memory = MemoryService(
        config.model_copy(update={"debounce_seconds": 3600, "max_wait_seconds": 3600}),
        register_atexit=False,
    )
    graph = create_memory_agent(service=memory, store=compiled_store(db))
    for i in range(n):
        graph_turn(graph, f"u{i}", f"I work as a welder number {i}.", str(i))
    assert memory.durable is not None, "no outbox for the graph's store"
    memory.durable.outbox.sync()
    print("ready", flush=True)
    time.sleep(600)


def graph_drain(config: MemoryConfig, db: str, n: int) -> None:
    from deerflow_memory import create_memory_agent

    store = compiled_store(db)
    memory = MemoryService(config, register_atexit=False)
    graph = create_memory_agent(service=memory, store=store)
    graph_turn(graph, "someone-else", "Hello there.", "bind")
    assert memory.flush(timeout=300)
    storage = memory.storage_for(store)  # type: ignore[arg-type]
    stored = sum(1 for i in range(n) if storage.load(f"u{i}").facts)
    memory.close()
    print(stored, flush=True)


def main() -> None:
    mode, raw = sys.argv[1], sys.argv[2]
    if mode == "open":
        opener(raw, int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
        return
    data = json.loads(raw)
    db = data.pop("db", None)
    config = MemoryConfig.model_validate(data)
    if mode == "graph-capture":
        graph_capture(config, db, int(sys.argv[3]))
        return
    if mode == "graph-drain":
        graph_drain(config, db, int(sys.argv[3]))
        return
    if mode == "capture":
        capture(config, int(sys.argv[3]))
    elif mode == "drain":
        drain(config, int(sys.argv[3]))
    elif mode == "replica":
        replica(config, sys.argv[3], sys.argv[4])
    elif mode == "hammer":
        hammer(config, sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
