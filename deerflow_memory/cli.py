"""The ``deerflow-memory`` command: demo, show, stats, export, import, clear, migrate.

Errors of the package (bad names, corrupt files, bad config) are printed as
one clear line and exit with status 2; nothing is written in that case.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from deerflow_memory.config import MemoryConfig, load_config, redact_secrets
from deerflow_memory.errors import DeerflowMemoryError
from deerflow_memory.models import MemoryDocument
from deerflow_memory.storage.factory import open_storage

__all__ = ["main"]

DEMO_USER = "demo-traveller"

DEMO_SCRIPT: dict[str, dict[str, Any]] = {
    "en": {
        "session1": [
            "Hi! I'm planning a trip to Japan in April.",
            "I don't eat seafood, I'm allergic to peanuts, and I like a slow-paced trip.",
        ],
        "session2": "Can you recommend a few restaurants in Kyoto for dinner?",
    },
    "zh": {
        "session1": [
            "你好！我打算四月去日本旅行。",
            "我不吃海鲜，对花生过敏，喜欢慢节奏的旅行。",
        ],
        "session2": "能推荐几家京都的晚餐餐厅吗？",
    },
}


def _config(args: argparse.Namespace) -> MemoryConfig:
    overrides: dict[str, Any] = {}
    if getattr(args, "root", None):
        overrides["storage_path"] = Path(args.root)
    return load_config(args.config, **overrides)


def _facts_table(document: MemoryDocument, title: str) -> Table:
    table = Table(title=title, show_lines=False)
    for column in ("category", "confidence", "content", "source"):
        table.add_column(column)
    for fact in document.facts:
        table.add_row(
            fact.category.value, f"{fact.confidence:.2f}", Text(fact.content), Text(fact.source)
        )
    return table


def _say(console: Console, who: str, text: str) -> None:
    # Model and user text is shown verbatim: "[preference]" is not rich markup.
    style = "bold cyan" if who == "User" else "bold green"
    console.print(Text.assemble((f"{who}: ", style), text))


def _cmd_demo(args: argparse.Namespace, console: Console) -> int:
    from langgraph.checkpoint.memory import InMemorySaver

    from deerflow_memory.graph import create_memory_agent
    from deerflow_memory.service import MemoryService

    script = DEMO_SCRIPT[args.lang]
    config = _config(args)
    with MemoryService(config, register_atexit=False) as memory:
        if not args.keep:
            memory.storage.delete(args.user, None)
        graph = create_memory_agent(service=memory, checkpointer=InMemorySaver())
        mode = (
            "offline: rule-based extractor and a stand-in model that reports the memory it gets"
            if memory.is_offline
            else f"model: {config.model_name or 'gpt-4o-mini'} (memory updates and replies)"
        )
        where = (
            config.storage_path
            if config.storage == "file"
            else redact_secrets(config.storage_dsn or "")
        )
        console.print(
            Panel(
                Text(f"user {args.user}, storage {config.storage} ({where})\n{mode}"),
                title="deerflow-memory demo",
            )
        )
        run = {"configurable": {"user_id": args.user, "thread_id": "session-1"}}
        console.rule("Session 1 (thread session-1)")
        for text in script["session1"]:
            result = graph.invoke({"messages": [("user", text)]}, run)
            _say(console, "User", text)
            _say(console, "Assistant", result["messages"][-1].text + "\n")

        drained = memory.flush(timeout=config.shutdown_flush_timeout_seconds + 60)
        document = memory.storage.load(args.user, None)
        console.rule("Memory after session 1 (update flushed, no debounce wait)")
        if not drained:
            console.print("[red]the memory update did not finish in time[/]")
        console.print(
            _facts_table(document, f"facts of {args.user} (revision {document.revision})")
        )
        if args.json:
            console.print_json(document.to_json())

        console.rule("Session 2 (new thread session-2)")
        run = {"configurable": {"user_id": args.user, "thread_id": "session-2"}}
        result = graph.invoke({"messages": [("user", script["session2"])]}, run)
        console.print(
            Panel(Text(result["memory_context"] or "(empty)"), title="injected memory_context")
        )
        _say(console, "User", script["session2"])
        _say(console, "Assistant", result["messages"][-1].text)
    return 0 if drained and document.facts else 1


def _load(args: argparse.Namespace) -> MemoryDocument:
    with open_storage(_config(args)) as storage:
        return storage.load(args.user, args.agent)


def _cmd_show(args: argparse.Namespace, console: Console) -> int:
    document = _load(args)
    if args.json:
        console.print_json(document.to_json())
        return 0
    sections = {
        "work": document.user.work_context.summary,
        "personal": document.user.personal_context.summary,
        "top of mind": document.user.top_of_mind.summary,
        "recent months": document.history.recent_months.summary,
        "earlier": document.history.earlier_context.summary,
        "long-term": document.history.long_term_background.summary,
    }
    for title, text in sections.items():
        if text:
            console.print(Text.assemble((f"{title}: ", "bold"), text))
    console.print(
        _facts_table(
            document,
            f"{args.user} / {args.agent or 'default agent'} (revision {document.revision})",
        )
    )
    if document.superseded_facts:
        history = Table(title="superseded facts (history)")
        for column in ("content", "told", "in thread", "superseded", "why"):
            history.add_column(column)
        for old in document.superseded_facts:
            history.add_row(
                Text(old.content),
                old.created_at,
                Text(old.source),
                old.superseded_at,
                Text(old.reason),
            )
        console.print(history)
    return 0


def _cmd_stats(args: argparse.Namespace, console: Console) -> int:
    from deerflow_memory.storage.stats import storage_stats

    with open_storage(_config(args)) as storage:
        stats = storage_stats(storage, user_id=args.user, agent_name=args.agent)
    if args.json:
        console.print_json(data=[s.to_dict() for s in stats])
        return 0
    table = Table(title="memory hygiene (never injected: no use in the last 30 days)")
    for column in (
        "user",
        "agent",
        "facts",
        "by category",
        "never injected",
        "merged",
        "expired",
        "retired",
    ):
        table.add_column(column)
    for s in stats:
        if s.error:
            table.add_row(Text(s.user_id), Text(s.agent_name or "-"), Text(f"error: {s.error}"))
            continue
        table.add_row(
            Text(s.user_id),
            Text(s.agent_name or "-"),
            str(s.facts),
            Text(", ".join(f"{k} {v}" for k, v in s.by_category.items()) or "-"),
            f"{s.never_injected} ({s.never_injected_share:.0%})",
            str(s.merged),
            str(s.expired),
            str(s.retired),
        )
    console.print(table)
    return 0


def _cmd_export(args: argparse.Namespace, console: Console) -> int:
    text = _load(args).to_json()
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
        console.print(f"exported to {args.output}")
    else:
        sys.stdout.write(text + "\n")
    return 0


def _cmd_import(args: argparse.Namespace, console: Console) -> int:
    path = Path(args.file)
    try:
        incoming = MemoryDocument.from_json(path.read_bytes())
    except (OSError, ValueError) as e:
        raise DeerflowMemoryError(f"cannot import {path}: {e}") from e
    with open_storage(_config(args)) as storage:
        current = storage.load(args.user, args.agent)
        if current.facts and not args.yes:
            console.print(
                f"{args.user} already has {len(current.facts)} facts; pass --yes to replace them"
            )
            return 1
        saved = storage.save(args.user, args.agent, incoming, expected_revision=current.revision)
    console.print(f"imported {len(saved.facts)} facts into {args.user} (revision {saved.revision})")
    return 0


def _cmd_clear(args: argparse.Namespace, console: Console) -> int:
    if not args.yes:
        answer = input(
            f"Delete the memory of {args.user!r} ({args.agent or 'default agent'})? [y/N] "
        )
        if answer.strip().lower() not in {"y", "yes"}:
            console.print("nothing deleted")
            return 1
    with open_storage(_config(args)) as storage:
        existed = storage.delete(args.user, args.agent)
    console.print("deleted" if existed else "there was no memory to delete")
    return 0


def _cmd_migrate(args: argparse.Namespace, console: Console) -> int:
    from deerflow_memory.storage.migrate import migrate, parse_backend_spec

    source_config = parse_backend_spec(getattr(args, "from"))
    target_config = parse_backend_spec(args.to)
    with open_storage(source_config) as source, open_storage(target_config) as target:
        report = migrate(source, target, overwrite=args.overwrite)
    console.print(Text(report.summary()))
    return 0 if report.ok else 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="deerflow-memory", description=__doc__)
    parser.add_argument("--config", help="YAML config file (a DeerFlow 'memory:' section works)")
    parser.add_argument("--root", help="storage folder for the file backend (overrides config)")
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="two sessions, one user: memory carried across threads")
    demo.add_argument("--lang", choices=sorted(DEMO_SCRIPT), default="en")
    demo.add_argument("--user", default=DEMO_USER)
    demo.add_argument("--keep", action="store_true", help="keep the user's earlier memory")
    demo.add_argument("--json", action="store_true", help="also print the memory document")

    for name, help_text in (
        ("show", "print a user's memory"),
        ("export", "write a user's memory as DeerFlow memory.json"),
        ("import", "load a DeerFlow memory.json into a user's memory"),
        ("clear", "delete a user's memory"),
    ):
        cmd = sub.add_parser(name, help=help_text)
        cmd.add_argument("--user", required=True)
        cmd.add_argument("--agent", default=None, help="agent name (default agent when omitted)")
        if name == "show":
            cmd.add_argument("--json", action="store_true")
        if name == "export":
            cmd.add_argument("--output", "-o")
        if name == "import":
            cmd.add_argument("file")
        if name in {"import", "clear"}:
            cmd.add_argument("--yes", action="store_true", help="do not ask")

    stats = sub.add_parser("stats", help="per user: facts by category, unused share, cleaning")
    stats.add_argument("--user", default=None, help="one user (default: every document)")
    stats.add_argument("--agent", default=None, help="with --user: one agent's memory")
    stats.add_argument("--json", action="store_true")

    mig = sub.add_parser("migrate", help="copy every document from one backend to another")
    mig.add_argument("--from", required=True, help="file:PATH | sqlite:PATH | postgres:DSN")
    mig.add_argument("--to", required=True, help="file:PATH | sqlite:PATH | postgres:DSN")
    mig.add_argument("--overwrite", action="store_true")
    return parser


_COMMANDS = {
    "demo": _cmd_demo,
    "show": _cmd_show,
    "stats": _cmd_stats,
    "export": _cmd_export,
    "import": _cmd_import,
    "clear": _cmd_clear,
    "migrate": _cmd_migrate,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    console = Console()
    try:
        return _COMMANDS[args.command](args, console)
    except DeerflowMemoryError as e:
        Console(stderr=True).print(f"[red]error:[/] {e}")
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
