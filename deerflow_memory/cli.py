"""The ``deerflow-memory`` command: demo, list, show, stats, export, import, clear, migrate,
remember and forget (manual facts), pending and retry (failed updates).

``--help`` shows :data:`DESCRIPTION` (plain text for users), not this docstring.

Every error is one line on stderr and a non-zero exit, for every subcommand
(errors are handled once, in :func:`main`): status 2 for bad input, config or
storage errors (nothing is written then) and a model that fails (the line names
it), 1 for "nothing to do" answers (no such user, refused overwrite) and
unexpected failures. ``--debug`` shows the traceback instead. Text from users,
files and models is printed literally, never read as rich markup. Global options
(``--config``, ``--root``, ``--tenant``, ``--debug``) work before or after the
subcommand; ``--tenant T`` makes every subcommand work on tenant T's memory
(absent: no tenant).

Operating-system failures are answered the same way (status 2): a ``--root``
that is a file, a folder without permission, a full disk, a closed stdout.
When the reader of a pipe goes away (``| head -1``) the command stops quietly
with status 141, as Unix tools killed by SIGPIPE do. On a terminal tables use
its width; piped or redirected, nothing is wrapped or cut (``--json`` is there
for scripts).
"""

from __future__ import annotations

import argparse
import errno
import io
import json
import os
import re
import signal
import stat
import sys
import traceback
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from deerflow_memory import __version__
from deerflow_memory.config import MemoryConfig, check_path, load_config, redact_secrets
from deerflow_memory.config.messages import did_you_mean
from deerflow_memory.config.secrets import redact_path
from deerflow_memory.errors import DeerflowMemoryError, FactNotFoundError, StorageError
from deerflow_memory.models import (
    CONFIDENCE_RULE,
    Fact,
    FactCategory,
    MemoryDocument,
    SourceType,
    SupersededFact,
    replace_surrogates,
    says_nothing,
    stored_timestamp,
)
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.dead_letters import DeadLetter, UnreadableDeadLetter
from deerflow_memory.storage.factory import open_storage, sqlite_path, tables_of_another_program
from deerflow_memory.storage.names import MAPPED_MARK, of_memory, storage_name, validate_name
from deerflow_memory.storage.sqlite_read_only import kind_of
from deerflow_memory.storage.stats import MemoryStats
from deerflow_memory.terminal import (
    GuardedOutput,
    OutputError,
    ask_yes_no,
    describe_os_error,
    make_console,
    read_bounded,
    read_stream_bounded,
    terminal_safe,
    write_text_replacing,
)
from deerflow_memory.update.import_check import (
    brought_back_by_import,
    brought_back_note,
    import_onto,
    read_import,
    replaced_by_import,
    unsafe_history_in_import,
    unsafe_in_import,
    unsafe_summaries_in_import,
)
from deerflow_memory.update.unsafe import NOT_SHOWN, secrets_hidden, unsafe_to_store

if TYPE_CHECKING:
    from deerflow_memory.update.forget import Cleared

__all__ = ["main"]

DEMO_USER = "demo-traveller"
DEMO_THREADS = ("demo-session-1", "demo-session-2")
# Threads whose facts count as the demo's own (session-N: demos before 2026-12).
_DEMO_SOURCES = frozenset({*DEMO_THREADS, "session-1", "session-2"})
_DEFAULT_AGENT = "(default agent)"  # how every command shows the agent of no name


DESCRIPTION = """\
Look at and manage the long-term memory deerflow_memory keeps per user: run the
demo, list, show, export and import memory, add and delete facts by hand, and
see or re-run memory updates that failed.

Exit status: 0 done; 1 nothing to do (no such user or fact, nothing stored
where you looked, an overwrite refused); 2 bad input, config or storage errors
(nothing is written then); 1 also for an unexpected failure. Every error is one
line on stderr (--debug shows the traceback). Global options (--config, --root,
--tenant, --debug) work before or after the subcommand. Tables use the
terminal's width; piped, nothing is cut (--json is there for scripts).
"""


class CommandFailed(Exception):
    """A command's plain "no": printed as one line, exit status ``status``."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


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
    config = load_config(args.config, **overrides)
    if config.storage == "file":
        # A file where the folder should be would otherwise fail deep in a load or save.
        where = "--root" if getattr(args, "root", None) else "storage_path"
        path = Path(config.storage_path)
        if path.exists() and not path.is_dir():
            raise CommandFailed(f"{where} {redact_path(str(path))} is not a folder", status=2)
    return config


@contextmanager
def _storage(
    args: argparse.Namespace, config: MemoryConfig, *, look: bool = False
) -> Iterator[MemoryStorage]:
    """The storage of ``config`` seen from ``--tenant`` (itself without one).

    Only the commands that add memory make a SQLite database that does not exist
    yet, or set up an empty database file; the others look at an empty stand-in (a
    mistyped path is not created, an empty file not written). The commands that
    only read open a database they cannot write (a read-only folder) read-only, and so
    does a ``look`` of a command that changes memory, which finds out first whether
    there is anything to change (then "nothing to delete" is said, not "cannot write").
    """
    creates = args.command in _CREATING and not look
    writes = args.command not in _ONLY_READING and not look
    tenant = getattr(args, "tenant", None)
    _check_file_layout(
        config, tenant, writes=args.command not in _ONLY_READING, letters=args.command == "pending"
    )
    if writes:
        _check_file_root_writable(config, tenant)
    with open_storage(config, create=creates, write=writes) as storage:
        try:
            yield storage.scoped(tenant)
        except OSError as e:
            if not writes or (said := _file_write_refused(config, e)) is None:
                raise
            raise StorageError(said) from e


# What a folder or file of the file backend that cannot be written fails with: no
# permission, an immutable file (EPERM, as root), a read-only mount.
_NOT_WRITABLE = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})


def _file_root(config: MemoryConfig, tenant: str | None) -> Path:
    """The folder the file backend of ``config`` writes ``tenant``'s memory under."""
    root = Path(os.path.abspath(config.storage_path))
    return root if tenant is None else root / "tenants" / storage_name(tenant)


def _file_unwritable_said(config: MemoryConfig, path: str, why: str) -> str:
    root = os.path.abspath(config.storage_path)
    name = os.path.basename(path)
    if name.startswith(".") and name.endswith(".tmp"):  # (a save's temp file: its folder)
        path = os.path.dirname(path)
    what = "the folder" if path == root else redact_path(path)
    return (
        f"cannot write file memory storage {redact_path(root)}: {what} {why}; "
        "it can be read, not changed"
    )


# The folders of a file root (see storage/file.py), and its one file.
_LAYOUT_FOLDERS = ("users", "tenants", "dead_letters", "locks", "outbox")
_LAYOUT_FILES = ("fence.key",)


def _check_file_layout(
    config: MemoryConfig,
    tenant: str | None,
    *,
    writes: bool,
    tenants: bool = False,
    letters: bool = False,
) -> None:
    """Refuse a file root (and a ``tenant``'s folder in it) where one of its folders is a
    named pipe, a file, a socket or a device, or its ``fence.key`` is no regular file:
    "Not a directory", "File exists", or (``users``) no memory listed at all, said instead
    as what is wrong where. Reads only. A look (not ``writes``) is refused only for
    ``users`` and ``tenants``, which hide the memory; the others it reads around (a
    ``dead_letters`` that is a file leaves show's usual answer). ``tenants/`` counts only
    for a tenant's memory or a list of ``tenants`` (attacker 334: a pipe there refused
    every command on the memory without a tenant). A look at failed and waiting updates
    (``letters``: pending) reads ``dead_letters`` and ``outbox`` too: a file there said
    "Not a directory", a pipe "no failed memory updates". A link that leads back to itself
    is refused wherever it is (it hid what it stands for as if nothing were stored)."""
    if config.storage != "file":
        return
    looked_at = ("users", "tenants", *(("dead_letters", "outbox") if letters else ()))
    folders = [
        name
        for name in (_LAYOUT_FOLDERS if writes else looked_at)
        if name != "tenants" or tenant is not None or tenants
    ]
    files = _LAYOUT_FILES if writes else ()
    roots = [Path(os.path.abspath(config.storage_path))]
    if tenant is not None:
        roots.append(_file_root(config, tenant))
    for root in roots:
        try:
            os.stat(root)
        except OSError:
            continue  # (not made yet, or a link to itself: the storage names it)
        for name, folder in [*((n, True) for n in folders), *((n, False) for n in files)]:
            path = root / name
            kind: str | None
            try:
                mode = os.stat(path).st_mode  # (users/ and tenants/ may be links to folders)
            except OSError as error:
                if error.errno != errno.ELOOP:
                    continue  # (missing: nothing stored there yet)
                kind = "a link that leads back to itself"
            else:
                kind = "a file" if folder and stat.S_ISREG(mode) else kind_of(mode)
                if (folder and stat.S_ISDIR(mode)) or (not folder and kind is None):
                    continue
            where = redact_path(os.path.abspath(config.storage_path))
            raise StorageError(
                f"file memory storage {where}: {redact_path(str(path))} is {kind}, not a "
                f"{'folder' if folder else 'file'}; move it away (nothing was read or written)"
            )


def _check_file_root_writable(config: MemoryConfig, tenant: str | None) -> None:
    """Refuse, before anything is written, a change to a file-backend memory whose folder
    (or the nearest one above it that exists, where it would be made) this process
    cannot write: a read-only folder or mount. A change needs it (its outbox, locks and
    fence key live there, new users' folders are made there)."""
    if config.storage != "file":
        return
    folder = _file_root(config, tenant)
    while not os.path.lexists(folder) and folder != folder.parent:
        folder = folder.parent
    if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
        raise StorageError(_file_unwritable_said(config, str(folder), "is not writable"))


def _file_write_refused(config: MemoryConfig, error: OSError) -> str | None:
    """The line for a change to a file-backend memory that the system refused to write
    (a folder or file inside it that is read-only), else None."""
    if config.storage != "file" or error.errno not in _NOT_WRITABLE or not error.filename:
        return None
    path = os.path.abspath(os.fsdecode(error.filename))
    root = os.path.abspath(config.storage_path)
    if os.path.commonpath([path, root]) != root:
        return None
    return _file_unwritable_said(config, path, f"cannot be written ({error.strerror})")


_CREATING = frozenset({"demo", "import", "remember"})  # the commands that add memory
# The commands that never write: a database this process cannot write is read read-only.
_ONLY_READING = frozenset({"show", "export", "list", "stats", "pending"})


def _facts_table(document: MemoryDocument, title: str, width: int = 200) -> Table:
    """The facts as a table for a terminal ``width`` columns wide.

    The id is never folded (it is copied into ``forget``), nor the date, the category
    or the confidence; the content takes what is left. Under :data:`_WIDE` columns the
    source thread and the use count are left out (``export`` has them), so the content
    keeps room to be read at 80 columns.
    """
    wide = width >= _WIDE
    table = Table(title=title, show_lines=False)
    table.add_column(
        "id", no_wrap=True, min_width=max((len(f.id) for f in document.facts), default=2)
    )
    table.add_column("category", no_wrap=True)
    table.add_column("conf.", no_wrap=True)
    table.add_column("content", ratio=1, min_width=12)
    if wide:
        table.add_column("source", overflow="fold")
        table.add_column("used", no_wrap=True)
    table.add_column("expires", no_wrap=True, min_width=10)  # a date, whole
    for fact in document.facts:
        cells = [Text(fact.id), fact.category.value, f"{fact.confidence:.2f}", Text(fact.content)]
        if wide:
            cells += [Text(fact.source), str(fact.access_count)]
        table.add_row(*cells, (fact.expires_at or "")[:10])
    return table


_WIDE = 110  # terminal columns from which the facts table shows every column


def _say(console: Console, who: str, text: str) -> None:
    # Model and user text is shown verbatim: "[preference]" is not rich markup.
    style = "bold cyan" if who == "User" else "bold green"
    console.print(Text.assemble((f"{who}: ", style), text))


def _demo_path(config: MemoryConfig, offline: bool) -> str:
    if offline:
        hint = "set DEERFLOW_MEMORY_MODEL_NAME or base_url for a real model"
        if config.api_key is not None or os.environ.get("OPENAI_API_KEY"):
            hint = "an API key alone does not switch; " + hint
        return f"offline path: rule-based extractor and a stand-in model ({hint})"
    return f"model path: {_model_at(config)} (updates and replies)"


def _update_path(config: MemoryConfig, offline: bool) -> str:
    if offline:
        return (
            "rule-based extractor: no model is configured (set DEERFLOW_MEMORY_MODEL_NAME or "
            "base_url to rerun with a model)"
        )
    return f"model {_model_at(config)}"


def _model_at(config: MemoryConfig) -> str:
    endpoint = config.endpoint or "the provider's default"
    # Printed on stderr, which ends up in logs: no password, token or key of the URL.
    return f"{config.model_name or 'gpt-4o-mini'} at {redact_secrets(endpoint)}"


def _ask(graph: Any, text: str, run: dict[str, Any], config: MemoryConfig) -> dict[str, Any]:
    """One demo turn; a model that cannot be reached is one line naming its endpoint."""
    try:
        result: dict[str, Any] = graph.invoke({"messages": [("user", text)]}, run)
    except DeerflowMemoryError:
        raise
    except Exception as e:  # the provider's own error types (connection, HTTP status, ...)
        raise CommandFailed(f"the model {_model_at(config)} failed: {_describe(e)}", 2) from e
    return result


def _cmd_demo(args: argparse.Namespace, console: Console) -> int:
    from langgraph.checkpoint.memory import InMemorySaver

    from deerflow_memory.graph import create_memory_agent
    from deerflow_memory.service import MemoryService

    # With --json the document is the output (for scripts, like every other --json);
    # the sessions are told on stderr.
    output, console = console, (make_console(GuardedOutput(sys.stderr)) if args.json else console)
    script = DEMO_SCRIPT[args.lang]
    config = _config(args)
    _check_file_layout(config, args.tenant, writes=True)
    _check_file_root_writable(config, args.tenant)
    with MemoryService(config, register_atexit=False) as memory:
        # First line: which path runs, before anything can fail on it.
        console.print(
            Text(f"deerflow-memory demo, {_demo_path(config, memory.is_offline)}"), soft_wrap=True
        )
        scope = memory.for_tenant(args.tenant)
        existing = scope.storage.load(args.user, None)
        if not args.keep and not existing.is_empty():
            # The demo starts from scratch; it resets memory it wrote itself, and
            # replaces anything else (a real user's memory) only with --yes.
            own = _written_by_demo(existing)
            if not own and not args.yes:
                others = sum(not _by_demo(fact) for fact in existing.facts)
                which = (
                    f"{others} of its {_facts(len(existing.facts))}"
                    if others
                    else "facts deleted or edited by hand, kept as its history"
                )
                raise CommandFailed(
                    f"user {args.user!r} has memory the demo did not write ({which}); pass "
                    "--yes to replace it, --keep to build on it, or --user to pick another user"
                )
            scope.storage.delete(args.user, None)
            what = "an earlier demo run" if own else "before (--yes)"
            console.print(
                Text(f"reset {args.user!r}: {_facts(len(existing.facts))} from {what} removed"),
                soft_wrap=True,
            )
        graph = create_memory_agent(service=memory, checkpointer=InMemorySaver())
        where = (
            f"file storage in the folder {redact_path(str(config.storage_path))}"
            if config.storage == "file"
            else _where(config, None)
        )
        if args.tenant is not None:
            where += f", tenant {args.tenant}"
        console.print(Panel(Text(f"user {args.user}, {where}"), title="demo"))
        first, second = DEMO_THREADS
        run = {"configurable": {"user_id": args.user, "thread_id": first}}
        if args.tenant is not None:
            run["configurable"]["tenant_id"] = args.tenant
        console.rule(f"Session 1 (thread {first})")
        for text in script["session1"]:
            result = _ask(graph, text, run, config)
            _say(console, "User", text)
            _say(console, "Assistant", result["messages"][-1].text + "\n")

        drained = memory.flush(timeout=config.shutdown_flush_timeout_seconds + 60)
        document = scope.storage.load(args.user, None)
        console.rule("Memory after session 1 (update flushed, no debounce wait)")
        if not drained:
            console.print(Text("the memory update did not finish in time", style="red"))
        console.print(
            _facts_table(
                document, f"facts of {args.user} (revision {document.revision})", console.width
            )
        )

        console.rule(f"Session 2 (new thread {second})")
        run = {"configurable": {"user_id": args.user, "thread_id": second}}
        if args.tenant is not None:
            run["configurable"]["tenant_id"] = args.tenant
        result = _ask(graph, script["session2"], run, config)
        console.print(
            Panel(Text(result["memory_context"] or "(empty)"), title="injected memory_context")
        )
        _say(console, "User", script["session2"])
        _say(console, "Assistant", result["messages"][-1].text)
    if args.json:
        output.print_json(document.to_json())
    return 0 if drained and document.facts else 1


def _by_demo(fact: Fact) -> bool:
    """True for a fact the demo learned in its own threads (not one added by hand)."""
    return fact.source in _DEMO_SOURCES and fact.source_type is not SourceType.MANUAL


def _written_by_demo(document: MemoryDocument) -> bool:
    """True when every fact (current or past) came from the demo's own threads, none manual."""
    facts = [*document.facts, *document.superseded_facts]
    return bool(facts) and all(_by_demo(fact) for fact in facts)


def _load(args: argparse.Namespace) -> MemoryDocument:
    config = _config(args)
    with _storage(args, config) as storage:
        if args.user is None:  # no default user: the demo's would hide a forgotten --user
            raise CommandFailed(_user_needed(args.command, storage, config, args.tenant), status=2)
        document = storage.load(args.user, args.agent)
        if _no_memory_in(document):
            raise CommandFailed(_no_memory(storage, config, args.user, args.agent, args.tenant))
        return document


def _no_memory_in(document: MemoryDocument) -> bool:
    """True for a document that holds no memory: never saved here (revision 0, no history)
    or holding only what a delete left, and empty either way (a DeerFlow memory.json put in
    place by hand is at revision 0, with facts or deleted facts' history: memory to show,
    clear or add to)."""
    unsaved = document.revision == 0 and not document.superseded_facts
    return (unsaved or document.holds_only_fence()) and document.is_empty()


def _where(config: MemoryConfig, tenant: str | None) -> str:
    # A path is where it looked, wherever the shell is; a DSN has no credentials.
    if config.storage == "file":
        where = redact_path(os.path.abspath(config.storage_path))
    elif config.storage == "sqlite":  # the database file, inside a folder given as the root
        where = f"sqlite storage {redact_path(os.path.abspath(sqlite_path(config.storage_path)))}"
    else:
        where = f"{config.storage} storage {redact_secrets(config.storage_dsn or '')}".rstrip()
    return where if tenant is None else f"tenant {tenant!r} of {where}"


def _hidden(text: str, names: Iterable[str]) -> str:
    """``text`` with each of ``names`` that looks like a secret replaced by a note, wherever
    it stands as a whole: a user id is also a folder of a path (".../users/sk_live_…/
    memory.json"), under its NFC form or its folder name ("prefix~hash", storage/names.py),
    and a message has its runs of whitespace made one space; a part of a longer word or
    name ("passw0rd" of "passw0rd-notes") is left. One pass over ``text``."""
    forms: set[str] = set()
    for name in names:
        if not name or not unsafe_to_store(name):
            continue
        nfc = unicodedata.normalize("NFC", name)
        folder = storage_name(nfc)
        forms.update((name, nfc, " ".join(name.split()), folder))
        prefix = folder.split(MAPPED_MARK)[0]
        if unsafe_to_store(prefix):  # (a prefix cut to "a" hides nothing of the name)
            forms.add(prefix)
    forms.discard("")
    if not forms:
        return text
    either = "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))
    return re.sub(rf"(?<![\w-])(?:{either})(?![\w-])", NOT_SHOWN, text)


def _shown(name: str, *, quoted: bool = False) -> str:
    """``name`` (its ``repr`` when ``quoted``), or a note when it looks like a secret: what
    the CLI prints of stored names ends up in logs (a typed one is hidden by _print_error)."""
    if unsafe_to_store(name):
        return NOT_SHOWN
    return repr(name) if quoted else name


def _quoted(name: str) -> str:
    return _shown(name, quoted=True)


def _listed(names: Sequence[str], at_most: int) -> str:
    """``"a, b, c and 4 more"``: the first ``at_most`` of ``names`` (:func:`_shown`)."""
    listed = ", ".join(_shown(name) for name in names[:at_most])
    return listed + (f" and {len(names) - at_most} more" if len(names) > at_most else "")


def _first(names: Sequence[str], kind: str) -> str:
    return f"stored {kind}s: {_listed(names, 10)}"


def _other_tenants(config: MemoryConfig, tenant: str | None) -> list[str]:
    """The tenants holding data besides ``tenant`` (None: besides the untenanted memory)."""
    from deerflow_memory.storage.tenants import stored_tenants

    with open_storage(config, create=False, write=False) as root:
        return [t for t in stored_tenants(root) if t != tenant]


def _nothing_stored(
    config: MemoryConfig, tenant: str | None, storage: MemoryStorage | None = None
) -> str:
    """What to say when no document is stored where the command looked (in ``storage``,
    when given, failed updates may be kept: then that is said, not "check --root")."""
    if storage is not None and (letters := _dead_letters(storage)):
        return f"no memory is stored in {_where(config, tenant)} yet; {_kept(len(letters))}"
    tenants = _other_tenants(config, tenant)
    if tenants:  # the memory is there, in tenants: say so, not "check --root"
        scope = "without a tenant" if tenant is None else f"for tenant {tenant!r}"
        return (
            f"no memory is stored {scope} in {_where(config, None)}; "
            f"{_first(tenants, 'tenant')} (pass --tenant NAME)"
        )
    return (
        f"no memory is stored in {_where(config, tenant)}{_of_another_program(config)} "
        "(check --root or the storage settings)"
    )


def _of_another_program(config: MemoryConfig) -> str:
    """What a SQLite database holding tables but no memory is, said after "no memory is
    stored in …" (a look left it as it was); else nothing."""
    if config.storage != "sqlite":
        return ""
    tables = tables_of_another_program(config.storage_path)
    if not tables:
        return ""
    return (
        ": this SQLite database holds no deerflow_memory data, only tables of another "
        f"program ({_listed(tables, 5)}); deerflow_memory wrote nothing to it"
    )


def _holds_nothing(storage: MemoryStorage) -> bool:
    """True when ``storage`` holds no memory, failed update or waiting update: a wrong place.

    Only reads (a mistyped ``--root`` or ``--tenant`` must not be created by looking).
    """
    from deerflow_memory.storage.migrate_pending import waiting_updates

    return (
        next(iter(storage.list_documents()), None) is None
        and not storage.list_dead_letters()
        and not storage.unreadable_dead_letters()
        and not any(waiting_updates(storage) or ())
    )


def _unknown_user(
    storage: MemoryStorage,
    config: MemoryConfig,
    args: argparse.Namespace,
    unreadable: Sequence[object],
    waiting: Sequence[int] | None,
) -> str | None:
    """What to say when ``--user`` names nobody here (no memory, no failed update), else None.

    Unreadable letters and waiting updates cannot be told apart by user: while
    there are any, the user may be theirs, and nothing is said.
    """
    user = args.user
    if user is None or unreadable or (waiting is not None and any(waiting)):
        return None
    users = {stored for stored, _ in storage.list_documents()}
    if user in users or storage.list_dead_letters(user):
        return None
    users.update(letter.user_id for letter in storage.list_dead_letters())
    return (
        f"no memory or failed update for user {user!r} in {_where(config, args.tenant)}; "
        f"{_first(sorted(users), 'user')}{did_you_mean(user, sorted(users), _quoted)}"
    )


def _user_needed(
    command: str, storage: MemoryStorage, config: MemoryConfig, tenant: str | None
) -> str:
    """Why ``command`` without ``--user`` does nothing, and which users it could name."""
    users = sorted({u for u, _ in storage.list_documents()})
    said = f"{command} needs --user USER (whose memory)"
    if not users:
        return f"{said}; {_nothing_stored(config, tenant, storage)}"
    return f"{said}; {_first(users, 'user')} (deerflow-memory list shows them all)"


def _deleted_at(storage: MemoryStorage, user: str, agent: str | None) -> str | None:
    """When the memory of ``user`` was deleted (``clear``, the HTTP API, ``service.clear``),
    as stored (``""`` when the mark holds no moment: it is printed, so only a timestamp is),
    or ``None`` when no delete left its mark there (or it cannot be read)."""
    try:
        document = storage.load(user, agent)
    except (OSError, DeerflowMemoryError):  # a corrupt document is said elsewhere
        return None
    if not document.holds_only_fence():
        return None
    when = document.deleted_at or document.cleared_at or ""
    return when if len(when) <= 64 and stored_timestamp(when) is not None else ""


def _no_memory(
    storage: MemoryStorage,
    config: MemoryConfig,
    user: str,
    agent: str | None,
    tenant: str | None = None,
) -> str:
    whose = f"user {user!r}" + (f" (agent {agent!r})" if agent else "")
    # what the user said may be there, in updates that failed: say so, and where
    letters = _dead_letters(storage, user)
    mine = [letter for letter in letters if letter.agent_name == agent]
    kept = _kept(len(mine), " of theirs") if mine else ""
    if letters and not mine:  # kept under other agents: name them (--agent may be missing)
        names = {letter.agent_name for letter in letters}
        others = sorted(f"agent {_shown(a)}" if a else "the default agent" for a in names)
        kept = _kept(len(letters), f" of theirs for {', '.join(others[:3])}")
    stored = list(storage.list_documents())
    agents = sorted(a or _DEFAULT_AGENT for u, a in stored if u == user)
    if agents:  # the user is there, under other agents: name those
        kept = f"; {kept}" if kept else ""
        return f"no memory for {whose} in {_where(config, tenant)}{kept}; {_first(agents, 'agent')}"
    if kept:
        return f"no memory for {whose} in {_where(config, tenant)} yet; {kept}"
    if (deleted := _deleted_at(storage, user, agent)) is not None:  # not "check --root"
        when = f" at {deleted}" if deleted else ""
        said = f"no memory for {whose} in {_where(config, tenant)}: it was deleted{when}"
        users = sorted({u for u, _ in stored})
        return f"{said}; {_first(users, 'user')}" if users else said
    if not stored:
        return _nothing_stored(config, tenant, storage)
    users = sorted({u for u, _ in stored})
    said = (
        f"no memory for {whose} in {_where(config, tenant)}; {_first(users, 'user')}"
        + did_you_mean(user, users, _quoted)
    )
    tenants = _other_tenants(config, tenant) if tenant is None else []
    return f"{said}; {_first(tenants, 'tenant')} (pass --tenant NAME)" if tenants else said


def _dead_letters(storage: MemoryStorage, user: str | None = None) -> list[DeadLetter]:
    """The failed updates kept in ``storage`` (``user``'s only when given), for a hint: none
    where a backend keeps none or they cannot be listed (that is another command's error)."""
    try:
        return storage.list_dead_letters(user)
    except (NotImplementedError, OSError):  # (a StorageError is an OSError)
        return []


def _kept(n: int, which: str = "") -> str:
    """``"2 failed updates of theirs are kept (…)"``: where what was said waits, and how to
    see and rerun it."""
    return (
        f"{n} failed update{'' if n == 1 else 's'}{which} {'is' if n == 1 else 'are'} kept "
        "(deerflow-memory pending lists them, retry runs them again)"
    )


def _no_agent(storage: MemoryStorage, config: MemoryConfig, agent: str, tenant: str | None) -> str:
    """What to say when no document of ``agent`` is stored (other documents may be)."""
    stored = list(storage.list_documents())
    if not stored:
        return _nothing_stored(config, tenant)
    agents = sorted({a or _DEFAULT_AGENT for _, a in stored})
    return f"no memory of agent {agent!r} in {_where(config, tenant)}; {_first(agents, 'agent')}"


def _cmd_list(args: argparse.Namespace, console: Console) -> int:
    # Ids come back as users gave them (NFC), also where the folder name is mapped.
    if args.tenants:
        from deerflow_memory.storage.tenants import stored_tenants

        config = _config(args)
        _check_file_layout(config, None, writes=False, tenants=True)
        with open_storage(config, create=False, write=False) as storage:
            tenants = list(stored_tenants(storage))
        if args.json:
            console.file.write(json.dumps(tenants, ensure_ascii=False) + "\n")
        else:
            for tenant in tenants:
                console.file.write(f"{tenant}\n")
        if not tenants:
            raise CommandFailed(
                f"no tenant is stored in {_where(config, None)}{_of_another_program(config)}"
            )
        return 0
    config = _config(args)
    with _storage(args, config) as storage:
        documents = list(storage.list_documents())  # what only a delete left is not listed
        nothing = None if documents else _nothing_stored(config, args.tenant, storage)
    if args.json:
        rows = [{"user": user_id, "agent": agent_name} for user_id, agent_name in documents]
        console.file.write(json.dumps(rows, ensure_ascii=False) + "\n")
    else:
        for user_id, agent_name in documents:
            # Written as is: tab-separated for scripts (rich would expand the tab).
            console.file.write(f"{user_id}\t{agent_name or _DEFAULT_AGENT}\n")
    if nothing is not None:  # a mistyped --root must not look like "no users yet" without a word
        raise CommandFailed(nothing)
    return 0


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
            console.width,
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

    config = _config(args)
    with _storage(args, config) as storage:
        stats = storage_stats(storage, user_id=args.user, agent_name=args.agent)
        if not stats:
            if args.json:
                console.print_json(data=[])
            if args.user is None and args.agent is not None:
                raise CommandFailed(_no_agent(storage, config, args.agent, args.tenant))
            if args.user is None:
                raise CommandFailed(_nothing_stored(config, args.tenant, storage))
            raise CommandFailed(_no_memory(storage, config, args.user, args.agent, args.tenant))
    if args.json:
        console.print_json(data=[s.to_dict() for s in stats])
        return _all_read(stats)
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
        "judged out",
        "superseded",
    ):
        table.add_column(column)
    for s in stats:
        if s.error:
            table.add_row(
                Text(s.user_id), Text(s.agent_name or _DEFAULT_AGENT), Text(f"error: {s.error}")
            )
            continue
        table.add_row(
            Text(s.user_id),
            Text(s.agent_name or _DEFAULT_AGENT),
            str(s.facts),
            Text(", ".join(f"{k} {v}" for k, v in s.by_category.items()) or "-"),
            f"{s.never_injected} ({s.never_injected_share:.0%})",
            str(s.merged),
            str(s.expired),
            str(s.retired),
            str(s.judged_out),
            str(s.superseded),
        )
    console.print(table)
    return _all_read(stats)


def _all_read(stats: Sequence[MemoryStats]) -> int:
    """0, or one error line when a document could not be read (its row says why too)."""
    unreadable = [s for s in stats if s.error]
    if unreadable:
        first = unreadable[0]
        said = f"{len(unreadable)} document(s) could not be read; {first.user_id!r}: {first.error}"
        raise CommandFailed(_hidden(said, (first.user_id,)), status=2)
    return 0


def _cmd_export(args: argparse.Namespace, console: Console) -> int:
    text = _load(args).to_json()
    # "-o -" is stdout, as in other command-line tools (it wrote a file named "-").
    if args.output is not None and args.output != "-":  # checked in main: not empty, no folder
        path = Path(args.output)
        # Like import and clear: an existing file is replaced only when the user says so.
        if path.is_file() and not args.yes:
            answer = ask_yes_no(f"{path} exists. Replace it? [y/N] ")
            if answer is None:
                raise CommandFailed(f"{path} exists: pass --yes to replace it (no terminal to ask)")
            if not answer:
                raise CommandFailed(f"{path} left as it was")
        try:
            write_text_replacing(path, text + "\n")  # the old file stays if this fails
        except OSError as e:
            # The path as typed: the error may name the temporary file beside it
            # ("/no/such/.x.json.123.tmp") or no file at all (a full device).
            reason = e.strerror or describe_os_error(e)
            raise CommandFailed(f"cannot write {path}: {reason}", status=2) from e
        console.print(Text(f"exported to {path}"))
    else:
        console.file.write(text + "\n")
    return 0


def _read_stdin(limit: int) -> bytes:
    """The file to import as piped in (``import -``), at most ``limit`` bytes."""
    stream = sys.stdin
    if stream is None or stream.closed:
        raise CommandFailed("import -: stdin is closed; pipe the file in or name it", status=2)
    if stream.isatty():  # a typed document is no import: waiting for one looks like a hang
        raise CommandFailed(
            "import - reads the file from stdin, which is a terminal: "
            "pipe it in (deerflow-memory import --user ID - < memory.json) or name the file",
            status=2,
        )
    try:
        buffer = getattr(stream, "buffer", None)
        if buffer is not None:
            return read_stream_bounded(buffer, limit)
        # a text stream put in its place (main() called with sys.stdin = io.StringIO(…)):
        # its characters as UTF-8, each at most 4 bytes, so reading limit + 1 is enough
        text = stream.read(limit + 1)
        return read_stream_bounded(io.BytesIO(text.encode("utf-8", "surrogatepass")), limit)
    except OSError as e:
        raise CommandFailed(f"cannot read stdin: {e.strerror or e}", status=2) from e


def _cmd_import(args: argparse.Namespace, console: Console) -> int:
    config = _config(args)
    if args.file == "-":  # "-" is stdin, as in other command-line tools
        name = "stdin"
        raw = _read_stdin(config.max_import_bytes)
    else:
        path = Path(args.file)
        name = str(path)
        try:
            raw = read_bounded(path, config.max_import_bytes)
        except OSError as e:
            said = redact_path(name)  # (a DSN given as the file: then not chained)
            failed = CommandFailed(f"cannot read {said}: {e.strerror or e}", status=2)
            raise failed from (e if said == name else None)
    # the whole file is checked before any write, against the tenant's limits
    incoming = read_import(raw, name=name, config=config.for_tenant(args.tenant))
    with _storage(args, config) as storage:
        current = storage.load(args.user, args.agent)
        replaced = replaced_by_import(current)
        back = brought_back_by_import(current, incoming)
        if replaced is not None and not args.yes:
            # Like clear and export: a terminal is asked, a script must say --yes.
            has = f"{args.user!r} already has {replaced}"
            if back:
                has += f"; the file brings back {brought_back_note(back)}"
            answer = ask_yes_no(f"{has}. Replace them? [y/N] ")
            if answer is None:
                raise CommandFailed(f"{has}: pass --yes to replace them (no terminal to ask)")
            if not answer:
                raise CommandFailed(f"nothing imported; {has}")
        # Based on what is stored now: a store backend then removes the old facts.
        replacing = import_onto(current, incoming)
        saved = storage.save(args.user, args.agent, replacing, expected_revision=current.revision)
        # A first memory for a user while others are stored: perhaps the id was mistyped.
        started = _no_memory_in(current)
        others = _other_users(storage, args.user) if started else []
    said = f"imported {_facts(len(saved.facts))} into {args.user} (revision {saved.revision})"
    if back:
        said += f"; brought back {brought_back_note(back)}"
    console.print(Text(said))
    unsafe = unsafe_in_import(incoming)
    if unsafe:
        one = len(unsafe) == 1
        _warn_unsafe(
            f"{_facts(len(unsafe))} ({_listed([f.id for f in unsafe], 3)}) "
            + ("looks" if one else "look"),
            "it" if one else "them",
        )
    summaries = unsafe_summaries_in_import(incoming)
    if summaries:
        one = len(summaries) == 1
        _print_error(
            f"the {'summary' if one else 'summaries'} {', '.join(summaries)} "
            f"{'looks' if one else 'look'} like a secret or an instruction to the assistant; "
            "shown to the model on every turn until an update rewrites "
            f"{'it' if one else 'them'} or you import the file without "
            f"{'it' if one else 'them'}",
            "warning",
        )
    history = unsafe_history_in_import(incoming)
    if history:  # a secret the user forgot elsewhere, copied here (the model never reads it)
        _print_error(
            f"{_entries(len(history))} of the file's history ({_listed(history, 3)}) "
            f"{'looks' if len(history) == 1 else 'look'} like a secret; the model never reads "
            "the history, but exports list it until the memory is cleared "
            "(deerflow-memory clear)",
            "warning",
        )
    if started and saved.facts:
        _note_new_memory(config, args, others, "this import")
    return 0


def _entries(n: int) -> str:
    return "1 entry" if n == 1 else f"{n} entries"


def _warn_unsafe(what: str, them: str) -> None:
    """Warn that stored text looks like a secret: the model reads it every turn."""
    _print_error(
        f"{what} like a secret or an instruction to the assistant; shown to the model on "
        f"every turn until you forget {them} (the text then stays in the memory's history, "
        f"as every forgotten fact's does, until the memory is cleared)",
        "warning",
    )


def _facts(n: int) -> str:
    return "1 fact" if n == 1 else f"{n} facts"


def _clear(storage: MemoryStorage, config: MemoryConfig, user: str, agent: str | None) -> Cleared:
    """Delete a memory as a running service would (see ``MemoryService.clear_memory``),
    once :func:`_nothing_to_clear` found something there (a file root that exists).

    What stopped processes left in the outbox for this memory is dropped and
    fenced too (a dead process's journal on the file backend, any process's
    records in a store outbox). What a live server on the file backend holds
    in its journal stays there but is fenced, so running it learns nothing;
    only what it captured in its last group-commit window (milliseconds) is
    out of reach from here.
    """
    from deerflow_memory.storage.outbox_file import FileOutbox
    from deerflow_memory.update.durable import build_outbox
    from deerflow_memory.update.forget import clear_memory, outbox_leftovers

    outbox = build_outbox(storage, config) if config.outbox else None

    def collect() -> list[tuple[str, Sequence[Any]]]:
        if outbox is None:
            return []
        # A dead process's journal is adopted into this process's (the others'
        # records stay there for the next start); a store outbox is shared.
        adopted = outbox.recover() if isinstance(outbox, FileOutbox) else []
        mine = [u for u in adopted if of_memory(u.user_id, u.agent_name, user, agent)]
        return outbox_leftovers(outbox, user, agent, mine)

    try:
        return clear_memory(
            storage, user, agent, collect=collect, lock_timeout=config.update_lock_timeout_seconds
        )
    finally:
        if outbox is not None:
            outbox.close()


def _nothing_to_clear(
    storage: MemoryStorage, config: MemoryConfig, args: argparse.Namespace
) -> str | None:
    """Why ``clear`` has nothing to delete, said before it asks (a mistyped ``--user`` was
    asked about, then fenced): no memory, failed update or waiting update of the user's.
    None while an update of theirs waits, or a letter or waiting update cannot be read (whose
    cannot be told). Reads only."""
    from deerflow_memory.storage.file import FileMemoryStorage
    from deerflow_memory.storage.migrate_pending import waits_for

    if not (isinstance(storage, FileMemoryStorage) and not storage.root.exists()):
        # (a root that does not exist, a mistyped --root or --tenant: no process ever stored
        # or queued anything there, and no folder is made for it)
        try:
            document = storage.load(args.user, args.agent)
        except OSError:  # (a StorageError too) a corrupt document is one to delete: go on
            return None
        if not _no_memory_in(document):
            return None
        letters = _dead_letters(storage, args.user)
        if any(of_memory(x.user_id, x.agent_name, args.user, args.agent) for x in letters):
            return None
        if storage.unreadable_dead_letters() or waits_for(storage, args.user, args.agent):
            return None
    return _no_memory(storage, config, args.user, args.agent, args.tenant)


def _nothing_deleted(why: str) -> str:
    """The line of a ``clear`` that found nothing: ``why`` (as show says it: whose memory is
    missing where, what is stored instead) said once, not after "had no memory to delete"."""
    return f"nothing to delete: {why}"


def _cmd_clear(args: argparse.Namespace, console: Console) -> int:
    whose = f"{args.user!r} ({args.agent or 'default agent'})"
    config = _config(args)
    with _storage(args, config, look=True) as storage:
        nothing = _nothing_to_clear(storage, config, args)
    if nothing is not None:  # "nothing to do": status 1, as show and export say
        raise CommandFailed(_nothing_deleted(nothing))
    if not args.yes:
        question = f"Delete the memory of {args.user!r} ({args.agent or 'default agent'})? [y/N] "
        answer = ask_yes_no(question)
        if answer is None:
            raise CommandFailed("not deleting without an answer: pass --yes (no terminal to ask)")
        if not answer:
            raise CommandFailed("nothing deleted")
    with _storage(args, config) as storage:
        cleared = _clear(storage, config, args.user, args.agent)
        if not cleared.existed and not cleared.unattributed:  # "nothing to do": status 1
            # what is stored instead, as show and export say it ("did you mean")
            nothing = _no_memory(storage, config, args.user, args.agent, args.tenant)
            raise CommandFailed(_nothing_deleted(nothing))
    # where, as an error line would say it: a secret-looking tenant hidden, a credential masked
    where = _as_printed(_where(config, args.tenant), (args.tenant or "",))
    said = f"deleted the memory of {whose} in {where}"
    if not cleared.existed:
        said = f"{whose} had no memory to delete in {where}"
    if cleared.unattributed:
        n = len(cleared.unattributed)
        where = ", ".join(bad.location for bad in cleared.unattributed)
        said += (
            f"; {n} unreadable dead letter{'' if n == 1 else 's'} left, whose owner cannot be "
            f"read (may hold this user's words; check and remove by hand): {where}"
        )
    console.print(Text(said))
    return 0


def _cmd_remember(args: argparse.Namespace, console: Console) -> int:
    from deerflow_memory.update.manual import add_manual_fact, save_edit

    config = _config(args)
    started: list[bool] = []  # whether the document (as last loaded) held no memory

    def add(document: MemoryDocument) -> tuple[MemoryDocument, Fact]:
        return add_manual_fact(
            document,
            args.text,
            args.category,
            args.confidence,
            max_fact_chars=config.max_fact_chars,
        )

    # Bad text, category or confidence is refused before the storage is opened: a missing
    # database or folder is made for a fact that is stored, never for one refused.
    add(MemoryDocument())

    def started_and_add(document: MemoryDocument) -> tuple[MemoryDocument, Fact]:
        started.append(_no_memory_in(document))
        return add(document)

    with _storage(args, config) as storage:
        saved, fact = save_edit(storage, args.user, args.agent, started_and_add)
        # A first fact for a user while others are stored: perhaps the id was mistyped.
        others = _other_users(storage, args.user) if started[-1] else []
    unsafe = unsafe_to_store(fact.content)
    # A stored text said again is that fact confirmed (no copy); only a new fact has no
    # confirmation stamp. The stored confidence is said: "2" is read as 2 %, not as 1.
    done = "remembered" if fact.last_confirmed_at is None else "already remembered, confirmed"
    console.print(
        Text(
            f"{done} {_fact_said(fact.id, fact.content, unsafe)} "
            f"(confidence {fact.confidence:g}, revision {saved.revision})"
        )
    )
    if unsafe:  # stored as asked, but said: the model reads it every turn
        _warn_unsafe(f"{fact.id} looks", "it")
    if started[-1]:
        _note_new_memory(config, args, others, "this fact")
    return 0


def _other_users(storage: MemoryStorage, user: str) -> list[str]:
    """The users with a memory in ``storage`` besides ``user``, sorted."""
    return sorted({u for u, _ in storage.list_documents()} - {user})


def _note_new_memory(
    config: MemoryConfig, args: argparse.Namespace, others: Sequence[str], what: str
) -> None:
    """A note on stderr that ``what`` started a memory: perhaps ``--user`` or ``--root``
    was mistyped (``others`` are the other users stored there)."""
    where = _where(config, args.tenant)
    if others:
        _print_error(
            f"user {args.user!r} had no memory in {where}; {what} starts one "
            f"({_first(others, 'user')}{did_you_mean(args.user, others, _quoted)})",
            "note",
        )
    else:  # the first memory of all there: perhaps the root was mistyped
        beside = ""
        if config.storage == "sqlite" and (
            tables := tables_of_another_program(config.storage_path, beside_the_store=True)
        ):  # (another program's database, or one shared with LangGraph's checkpointer)
            beside = f" (beside the tables of another program there: {_listed(tables, 5)})"
        _print_error(f"no memory was stored in {where}; {what} starts it{beside}", "note")


def _fact_said(fact_id: str, content: str, unsafe: bool) -> str:
    """``"fact_1: Likes tea"``; a fact that looks like a secret by its id alone
    (the output may be logged or on a shared screen)."""
    return f"{fact_id}, its text not repeated here" if unsafe else f"{fact_id}: {content}"


def _cmd_forget(args: argparse.Namespace, console: Console) -> int:
    from deerflow_memory.update.manual import delete_fact, save_edit

    if says_nothing(args.fact_id):  # "", "  ", a zero-width space: bad input, not "no such fact"
        raise CommandFailed(
            "the fact id is empty or has no letter or digit (show --user USER lists the ids)",
            status=2,
        )
    config = _config(args)

    def delete(document: MemoryDocument) -> tuple[MemoryDocument, SupersededFact]:
        return delete_fact(document, args.fact_id, max_superseded_facts=config.max_superseded_facts)

    # Looked for first, read only: a fact or user not there is "nothing to do", also where
    # the storage cannot be written (not "cannot write").
    with _storage(args, config, look=True) as storage:
        try:
            delete(storage.load(args.user, args.agent))
        except FactNotFoundError as e:
            _no_fact_to_forget(storage, config, args, e)
    with _storage(args, config) as storage:
        try:
            saved, gone = save_edit(storage, args.user, args.agent, delete)
        except FactNotFoundError as e:  # (deleted by another process meanwhile)
            _no_fact_to_forget(storage, config, args, e)
    unsafe = unsafe_to_store(gone.content)
    if unsafe:  # the model no longer reads it; the history still holds it
        _print_error(
            f"{gone.id} looked like a secret: the model no longer reads it, but its text stays "
            "in the memory's history and in exports until the memory is cleared "
            "(deerflow-memory clear)",
            "warning",
        )
    console.print(
        Text(
            f"forgot {_fact_said(gone.id, gone.content, unsafe)} "
            f"(kept as history; revision {saved.revision})"
        )
    )
    return 0


def _no_fact_to_forget(
    storage: MemoryStorage, config: MemoryConfig, args: argparse.Namespace, e: FactNotFoundError
) -> NoReturn:
    """Say that ``forget`` has nothing to delete ("nothing to do", status 1), like an unknown
    user: whose memory is missing, or whose fact the id is, or what is near it."""
    document = storage.load(args.user, args.agent)
    if _no_memory_in(document):
        raise CommandFailed(_no_memory(storage, config, args.user, args.agent, args.tenant)) from e
    # Nothing nearer to go on: perhaps the id is of another user's fact.
    hinted = e.near or e.text_of or e.text_in or e.in_history
    owner = None if hinted else _owner_of(storage, args.fact_id, args.user, args.agent)
    if owner is not None:
        raise CommandFailed(
            f"no current fact with id {args.fact_id[:80]!r} in the memory of user "
            f"{args.user!r}; it is a fact of user {_quoted(owner)} (pass --user with "
            "that id)"
        ) from e
    raise CommandFailed(str(e)) from e


# Other memories looked through for the owner of a fact id not found (each is one read).
_OWNERS_LOOKED_AT = 200


def _owner_of(storage: MemoryStorage, fact_id: str, user: str, agent: str | None) -> str | None:
    """The other user whose memory (of the same agent; among the first
    :data:`_OWNERS_LOOKED_AT`) holds a current fact ``fact_id``, or None."""
    for index, (other, other_agent) in enumerate(storage.list_documents()):
        if index >= _OWNERS_LOOKED_AT:
            return None
        if other == user or other_agent != agent:
            continue
        try:
            facts = storage.load(other, other_agent).facts
        except DeerflowMemoryError:  # an unreadable memory is another command's news
            continue
        if any(fact.id == fact_id for fact in facts):
            return other
    return None


def _backend_place(config: MemoryConfig) -> str:
    """Where a ``--from``/``--to`` backend lives: its real path, or its DSN with secrets hidden."""
    if config.storage == "file":
        return os.path.realpath(config.storage_path)
    if config.storage == "sqlite":
        return os.path.realpath(sqlite_path(Path(config.storage_path)))
    return redact_secrets(config.storage_dsn or "")


def _cmd_migrate(args: argparse.Namespace, console: Console) -> int:
    from deerflow_memory.storage.migrate import migrate, parse_backend_spec
    from deerflow_memory.storage.tenants import stored_tenants

    # --root and --tenant choose the storage of the other commands; here --from and --to do,
    # and every tenant is copied: silently ignoring them would copy something else.
    for option in ("root", "tenant"):
        if getattr(args, option, None) is not None:
            raise CommandFailed(
                f"migrate copies from --from to --to, every tenant included: "
                f"--{option} does not apply (leave it out)",
                status=2,
            )
    source_config = parse_backend_spec(getattr(args, "from"))
    target_config = parse_backend_spec(args.to)
    place, target_place = _backend_place(source_config), _backend_place(target_config)
    if source_config.storage == target_config.storage and place == target_place:
        raise CommandFailed(
            f"migrate --from and --to are the same storage ({redact_path(place)})", status=2
        )
    # A target inside the source folder: the copy would be written into the source's
    # own tree (file:A to file:A/users, sqlite:A putting memory.sqlite in it).
    inside = source_config.storage == "file" and target_config.storage in ("file", "sqlite")
    if inside and Path(target_place).is_relative_to(place):
        raise CommandFailed(
            f"migrate --to {redact_path(target_place)} is inside the --from folder "
            f"{redact_path(place)}",
            status=2,
        )
    # A mistyped source must not read as "0 documents copied" (nor create an empty database).
    if source_config.storage in ("file", "sqlite"):
        path = Path(source_config.storage_path)
        # A SQLite path names the file, or a folder holding memory.sqlite (sqlite_path).
        wanted = path.is_dir() if source_config.storage == "file" else sqlite_path(path).is_file()
        if not wanted:
            kind = "folder" if source_config.storage == "file" else "SQLite file"
            raise CommandFailed(
                f"migrate source {redact_path(str(path))} is not an existing {kind}", status=2
            )
    with open_storage(source_config, create=False, write=False) as source:  # (read, never set up)
        # An existing but wrong folder (the project's, not its .deerflow_memory) holds
        # nothing: say so before the target is created, as list and stats do.
        if (
            next(iter(source.list_stored()), None) is None
            and _holds_nothing(source)
            and not stored_tenants(source)
        ):
            raise CommandFailed(f"no memory is stored in {place}: nothing to migrate")
        with open_storage(target_config) as target:
            report = migrate(source, target, overwrite=args.overwrite)
    console.print(Text(report.summary()))
    return 0 if report.ok else 1


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are one line (``error: ... (see --help)``), like ours."""

    def error(self, message: str) -> NoReturn:
        _print_error(f"{message} (see {self.prog} --help)")
        raise SystemExit(2)


def _global_options(
    parser: argparse.ArgumentParser, *, defaults: bool, storage: bool = True
) -> None:
    # Subcommands get the same options with SUPPRESS defaults, so a value given
    # before the subcommand is not reset by the subparser. Without ``storage``
    # (migrate: --from and --to say where) --root and --tenant are parsed, to be
    # refused, but not offered in the help.
    default: Any = None if defaults else argparse.SUPPRESS
    parser.add_argument(
        "--config", default=default, help="YAML config file (a DeerFlow 'memory:' section works)"
    )
    parser.add_argument(
        "--root",
        default=default,
        help="storage folder, overriding the config's storage_path (the file backend's root; "
        "with storage: sqlite, the folder holding memory.sqlite)"
        if storage
        else argparse.SUPPRESS,
    )
    parser.add_argument(
        "--tenant",
        default=default,
        help="work on this tenant's memory (default: no tenant)" if storage else argparse.SUPPRESS,
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        default=False if defaults else argparse.SUPPRESS,
        help="show tracebacks",
    )


def _cmd_pending(args: argparse.Namespace, console: Console) -> int:
    from deerflow_memory.storage.migrate_pending import waiting_updates

    config = _config(args)
    with _storage(args, config) as storage:
        if _holds_nothing(storage):  # "no failed updates" would hide a mistyped --root
            if args.json:
                console.print_json(data=[])  # the output keeps its shape (like stats)
            raise CommandFailed(_nothing_stored(config, args.tenant))
        letters = storage.list_dead_letters(args.user)
        # Whose they are cannot be read: listed whatever --user says, never hidden.
        unreadable = storage.unreadable_dead_letters()
        waiting = waiting_updates(storage)
        unknown = _unknown_user(storage, config, args, unreadable, waiting)
        if unknown:
            if args.json:
                console.print_json(data=[])
            raise CommandFailed(unknown)
    if waiting is not None and any(waiting):  # not failed: updates a process did not finish
        said = (
            "left by stopped processes (the next memory service on this storage runs them; "
            "`deerflow-memory retry` starts one)",
            "held by a running process",
            "unreadable outbox journal(s) or line(s)",
        )
        parts = [f"{count} {what}" for count, what in zip(waiting, said, strict=True) if count]
        _print_error("updates waiting in the outbox: " + "; ".join(parts), "note")
    if args.json:
        console.print_json(json.dumps([letter.to_dict() for letter in letters]))
        for bad in unreadable:  # not letters: said on stderr, the JSON list keeps its shape
            _print_error(f"unreadable dead letter {bad.location}: {bad.reason}", "warning")
        return 0
    if unreadable:
        table = Table(title=f"{len(unreadable)} unreadable failed memory update(s), kept as is")
        table.add_column("where")
        table.add_column("why")
        for bad in unreadable:
            table.add_row(Text(bad.location), Text(bad.reason[:200]))
        console.print(table)
    if not letters:
        if not unreadable:
            console.print("no failed memory updates")
        return 0
    table = Table(title=f"{len(letters)} failed memory update(s)")
    for column in ("id", "user", "agent", "thread", "attempts", "last try", "messages", "error"):
        table.add_column(column)
    for x in letters:
        table.add_row(
            x.id,
            Text(x.user_id),
            Text(x.agent_name or _DEFAULT_AGENT),
            Text(x.thread_id),
            str(x.attempts),
            x.last_attempt_at,
            str(len(x.message_ids)),
            Text(x.error[:120]),
        )
    console.print(table)
    return 0


def _cmd_retry(args: argparse.Namespace, console: Console) -> int:
    from deerflow_memory.service import MemoryService
    from deerflow_memory.storage.migrate_pending import waiting_updates
    from deerflow_memory.update.updater import UpdateStatus

    config = _config(args)
    with _storage(args, config, look=True) as storage:  # before the service makes its folders
        if _holds_nothing(storage):
            raise CommandFailed(_nothing_stored(config, args.tenant))
        # Letters named by id are checked by id (below), which says whose they are.
        unreadable = storage.unreadable_dead_letters()
        unknown = (
            None
            if args.id
            else _unknown_user(storage, config, args, unreadable, waiting_updates(storage))
        )
        if unknown:
            raise CommandFailed(unknown)
    _check_file_root_writable(config, args.tenant)
    with MemoryService(config, register_atexit=False) as memory:
        scoped = memory.for_tenant(args.tenant)
        if args.id:
            _check_letter_ids(scoped.storage, args.id, args.user)
        retried = scoped.retry_dead_letters(args.id or None, user_id=args.user)
        if any(item.unrunnable is None and not item.busy for item in retried):
            # Which extractor reran them, said first: a shell without the model's settings
            # reruns them offline, and a letter applied is gone (newcomer 297).
            console.print(Text(f"retried with the {_update_path(config, memory.is_offline)}"))
        # Letters named by id were checked above; a whole retry says what it could not read.
        damaged = [] if args.id else _unreadable_of(scoped.storage, args.user)
    if not retried and not damaged:  # the words pending uses, not "0 applied, 0 still failing"
        console.print(
            "no failed memory updates: nothing to retry (updates stopped processes left in "
            "the outbox, if any, were run)"
        )
        return 0
    ran = [item for item in retried if item.unrunnable is None and not item.busy]
    busy = [item for item in retried if item.busy]
    for item in busy:
        console.print(
            Text(
                f"{item.letter.id} ({item.letter.user_id}/{item.letter.thread_id}): not run, "
                "another retry is running it"
            )
        )
    for item in ran:
        went = item.result.status in (UpdateStatus.SAVED, UpdateStatus.SKIPPED)
        if item.removed:
            status = "applied"
        elif went and item.left is not None:
            status = "applied in part; the rest stays in the letter"
        elif went:
            status = "applied, but the letter stays (its user's update lock was busy)"
        else:  # failed or to retry (a model still unreachable): the letter is stored again
            status = f"failed again: {item.result.error}"
        console.print(
            Text(f"{item.letter.id} ({item.letter.user_id}/{item.letter.thread_id}): {status}")
        )
    failed = sum(not item.removed for item in ran)
    if ran:
        console.print(f"{len(ran) - failed} applied, {failed} still failing")
    if busy:
        console.print(f"{len(busy)} left to the other retry running them")
    bad = [item for item in retried if item.unrunnable is not None]
    problems = []
    if bad:
        reasons = "; ".join(f"{item.letter.id}: {item.unrunnable}" for item in bad)
        problems.append(
            f"{len(bad)} dead letter(s) cannot be run and were left as they are: {reasons}"
        )
    if damaged:
        problems.append(_unreadable_line(damaged))
    if problems:
        raise CommandFailed("; ".join(problems), 2)
    return 1 if failed or busy else 0


_SHOWN_UNREADABLE = 3


def _unreadable_of(storage: MemoryStorage, user: str | None) -> list[UnreadableDeadLetter]:
    """The damaged letters a retry (of ``user`` when given) leaves: whose they are unknown too."""
    return [
        bad
        for bad in storage.unreadable_dead_letters()
        if user is None or bad.owner is None or bad.owner[0] == user
    ]


def _unreadable_line(damaged: list[UnreadableDeadLetter]) -> str:
    """One line naming the damaged letters a retry could not run (the first few, where and why)."""
    shown = "; ".join(f"{bad.location}: {bad.reason[:200]}" for bad in damaged[:_SHOWN_UNREADABLE])
    more = len(damaged) - _SHOWN_UNREADABLE
    if more > 0:
        shown += f"; and {more} more"
    return (
        f"{len(damaged)} dead letter(s) cannot be read and were not run, kept as they are "
        f"(deerflow-memory pending lists them): {shown}"
    )


def _check_letter_ids(storage: MemoryStorage, ids: list[str], user: str | None) -> None:
    """Refuse, before anything runs, ids that name no runnable letter (of ``user`` when given)."""
    known = {letter.id for letter in storage.list_dead_letters(user)}
    unknown = [x for x in dict.fromkeys(ids) if x not in known]
    if not unknown:
        return
    # A damaged letter is known by its file name or store key, the last part of its location.
    unreadable = {
        bad.location.rsplit("/", 1)[-1].removesuffix(".json"): bad.reason
        for bad in storage.unreadable_dead_letters()
    }
    missing = "no such letter" + (f" of user {user!r}" if user is not None else "")
    reasons = "; ".join(
        f"{x}: cannot be read ({unreadable[x]})" if x in unreadable else f"{x}: {missing}"
        for x in unknown
    )
    raise CommandFailed(
        f"unknown dead letter id(s), nothing was run: {reasons} "
        "(deerflow-memory pending lists them)"
    )


_USER_HELP = "the user id, as your app passes it"
_JSON_HELP = "print JSON instead of a table"


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="deerflow-memory",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _global_options(parser, defaults=True)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def command(name: str, summary: str) -> argparse.ArgumentParser:
        # The line the command list shows also opens the subcommand's own --help.
        return sub.add_parser(name, help=summary, description=summary)

    demo = command("demo", "two sessions, one user: memory carried across threads")
    demo.add_argument(
        "--lang", choices=sorted(DEMO_SCRIPT), default="en", help="the script's language"
    )
    demo.add_argument("--user", default=DEMO_USER, help=f"whose memory (default {DEMO_USER})")
    demo.add_argument("--keep", action="store_true", help="keep the user's earlier memory")
    demo.add_argument(
        "--yes", action="store_true", help="replace memory the demo did not write itself"
    )
    demo.add_argument(
        "--json",
        action="store_true",
        help="print the memory document after session 1 as JSON (the sessions go to stderr)",
    )

    for name, help_text in (
        ("show", "print a user's memory"),
        ("export", "write a user's memory as DeerFlow memory.json"),
        ("import", "load a DeerFlow memory.json into a user's memory"),
        ("clear", "delete a user's memory"),
    ):
        cmd = command(name, help_text)
        if name in {"show", "export"}:  # without it: an error naming the stored users
            cmd.add_argument("--user", default=None, help=f"{_USER_HELP} (needed)")
        else:
            cmd.add_argument("--user", required=True, help=_USER_HELP)
        cmd.add_argument("--agent", default=None, help="agent name (default agent when omitted)")
        if name == "show":
            cmd.add_argument("--json", action="store_true", help=_JSON_HELP)
        if name == "export":
            cmd.add_argument("--output", "-o", help="write to this file (default or -: stdout)")
        if name == "import":
            cmd.add_argument(
                "file", help="a memory document or DeerFlow memory.json (- reads stdin)"
            )
        if name in {"import", "clear", "export"}:
            cmd.add_argument("--yes", action="store_true", help="do not ask")

    listing = command("list", "list every stored user id and agent (ids as given)")
    listing.add_argument("--tenants", action="store_true", help="list the stored tenants instead")
    listing.add_argument("--json", action="store_true", help=_JSON_HELP)

    remember = command("remember", "add a fact as the user's own word (manual)")
    remember.add_argument("--user", required=True, help=_USER_HELP)
    remember.add_argument("--agent", default=None, help="agent name (default agent when omitted)")
    remember.add_argument(
        "--category",
        default="context",
        help=f"one of {', '.join(c.value for c in FactCategory)} (default context)",
    )
    remember.add_argument(
        "--confidence", default="1.0", help=f"{CONFIDENCE_RULE}; default 1".replace("%", "%%")
    )
    remember.add_argument("text", help="the fact, one short statement about the user")
    forget = command("forget", "delete a fact (kept as history, never re-learned)")
    forget.add_argument("--user", required=True, help=_USER_HELP)
    forget.add_argument("--agent", default=None, help="agent name (default agent when omitted)")
    forget.add_argument("fact_id", help="the fact's id (show lists them)")

    stats = command("stats", "per user: facts by category, unused share, cleaning")
    stats.add_argument("--user", default=None, help="one user (default: every document)")
    stats.add_argument(
        "--agent", default=None, help="only this agent's memory (of every user, or of --user)"
    )
    stats.add_argument("--json", action="store_true", help=_JSON_HELP)

    pending = command("pending", "list memory updates that failed for good")
    pending.add_argument("--user", default=None, help="only this user's")
    pending.add_argument("--json", action="store_true", help=_JSON_HELP)
    retry = command("retry", "run failed memory updates again (the configured model)")
    retry.add_argument("--user", default=None, help="only this user's")
    retry.add_argument("id", nargs="*", help="dead letter ids (default: all)")

    mig = command("migrate", "copy every document from one backend to another")
    mig.add_argument("--from", required=True, help="file:PATH | sqlite:PATH | postgres:DSN")
    mig.add_argument("--to", required=True, help="file:PATH | sqlite:PATH | postgres:DSN")
    mig.add_argument(
        "--overwrite", action="store_true", help="replace documents the target already has"
    )

    # Every subcommand, including ones added above later, takes the global options too.
    for name, parsed in sub.choices.items():
        _global_options(parsed, defaults=False, storage=name != "migrate")
    return parser


_COMMANDS = {
    "demo": _cmd_demo,
    "show": _cmd_show,
    "stats": _cmd_stats,
    "export": _cmd_export,
    "import": _cmd_import,
    "clear": _cmd_clear,
    "migrate": _cmd_migrate,
    "list": _cmd_list,
    "remember": _cmd_remember,
    "forget": _cmd_forget,
    "pending": _cmd_pending,
    "retry": _cmd_retry,
}


def _print_error(message: str, kind: str = "error", said: Sequence[str] = ()) -> None:
    # One line, written as is: "[postgres]" in a hint or "[weird]" in a path is not markup;
    # a quoted value that looks like a secret ("no current fact with id 'my PIN is 1234'")
    # is not repeated, even shaped like a path when it was typed as text (``said``).
    # A credential in a path or an option's value ("--config=postgresql://a:pw@h") is masked.
    line = _as_printed(str(message), said)
    if sys.stderr is None:  # started with stderr closed: the exit status has to say it
        return
    try:
        sys.stderr.write(f"deerflow-memory: {kind}: {line}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _as_printed(message: str, said: Sequence[str] = ()) -> str:
    """``message`` as :func:`_print_error` writes it: one line, one space between words,
    secret-looking values hidden (``said``: typed as text) and credentials masked."""
    line = " ".join(message.split())
    return terminal_safe(redact_secrets(secrets_hidden(_hidden(line, said), said=said)))


def _stop_on_broken_pipe() -> int:
    """The reader of our output went away: stop quietly, with the status SIGPIPE would give."""
    _silence_stdout()
    return 128 + int(getattr(signal, "SIGPIPE", 13))


def _silence_stdout() -> None:
    """Point standard output at /dev/null once writing to it failed (a closed pipe, a full
    disk): Python flushes it once more at exit, and that flush failing printed "Exception
    ignored …" and made the exit status 120 instead of the one line and status 2."""
    stdout = sys.stdout
    if stdout is sys.__stdout__ and stdout is not None:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass


def _describe(error: BaseException) -> str:
    text = str(error).strip()
    if isinstance(error, DeerflowMemoryError | CommandFailed):
        return text or type(error).__name__
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _given(args: argparse.Namespace, attribute: str) -> list[str]:
    """The text values of ``attribute`` (one, a list of them, or none)."""
    values = getattr(args, attribute, None)
    return [v for v in (values if isinstance(values, list) else [values]) if isinstance(v, str)]


def _typed_as_text(args: argparse.Namespace) -> list[str]:
    """The arguments given as text, never as a path: ids, names, a fact's text."""
    return [v for a in ("user", "agent", "tenant", *_TEXT_ARGUMENTS) for v in _given(args, a)]


_TEXT_ARGUMENTS = {
    "text": "the fact text",
    "category": "--category",
    "confidence": "--confidence",
    "fact_id": "the fact id",
    "id": "a dead letter id",
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (see the module docstring)."""
    parser = _parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # pointed at the subcommand's help, where its options are listed
        command = getattr(args, "command", None)
        prog = f"{parser.prog} {command}" if command else parser.prog
        # "my PIN is 4321" given as one more argument, or its words as several
        extra = " ".join(unknown)
        hidden = unsafe_to_store(extra)  # then no part of it is left to look for
        message = f"unrecognized arguments: {NOT_SHOWN if hidden else extra} (see {prog} --help)"
        _print_error(message, said=() if hidden else unknown)
        return 2
    said = _typed_as_text(args)  # checked for secrets in errors even when shaped like a path
    output = GuardedOutput(sys.stdout)
    console = make_console(output)
    try:
        if output.closed_at_start:
            raise OutputError(None)  # said before anything is done, not after
        # Every subcommand's --user/--agent obey the storage name rules, even the ones that
        # only filter (stats, pending, retry): a bad id is an error, never "nothing found".
        for attribute, kind in (
            ("user", "user_id"),
            ("agent", "agent_name"),
            ("tenant", "tenant_id"),
        ):
            if getattr(args, attribute, None) is not None:
                setattr(args, attribute, validate_name(getattr(args, attribute), kind))
        # Text from argv that was not valid UTF-8 (Python decodes it with surrogateescape)
        # is refused: stored, it would be mojibake at best. Paths may hold any bytes.
        for attribute, what in _TEXT_ARGUMENTS.items():
            if any(replace_surrogates(v) != v for v in _given(args, attribute)):
                raise CommandFailed(f"{what} is not valid UTF-8 text", status=2)
        # Paths: a control character (NUL, \x01...) is a typo, never a file or folder name;
        # an empty one is no "not given" (-o "" printed to stdout); a file's path spelled
        # as a folder (-o newdir/) would name a file "newdir".
        for attribute, what in (("root", "--root"), ("config", "--config"), ("output", "--output")):
            if getattr(args, attribute, None) is not None:
                check_path(getattr(args, attribute), what, file=attribute != "root")
        if args.command == "import" and args.file != "-":
            check_path(args.file, "the file to import", file=True)
        status = _COMMANDS[args.command](args, console)
        output.flush()  # a full disk or a closed pipe is found here, not at exit
        return status
    except KeyboardInterrupt:
        _print_error("interrupted")
        return 130
    except OutputError as e:
        if e.broken_pipe:
            return _stop_on_broken_pipe()
        _silence_stdout()  # (a full disk: the flush at exit would fail again)
        return _failed(e, 2, str(e), args.debug, said)
    except Exception as e:  # every failure, of every subcommand, ends as one line
        if isinstance(e, CommandFailed):
            return _failed(e, e.status, _describe(e), args.debug, said)
        if isinstance(e, DeerflowMemoryError):
            return _failed(e, 2, _describe(e), args.debug, said)
        if isinstance(e, OSError):  # permissions, a full disk, a file where a folder should be
            return _failed(e, 2, describe_os_error(e), args.debug, said)
        line = f"{_describe(e)} (run with --debug for the traceback)"
        return _failed(e, 1, line, args.debug, said)


def _failed(error: BaseException, status: int, line: str, debug: bool, said: Sequence[str]) -> int:
    """Say a failure, as ``line`` or with ``debug`` as its traceback, and return ``status``:
    the exit status is the same with and without ``--debug``."""
    if not debug:
        _print_error(line, said=said)
    elif sys.stderr is not None:
        try:  # (masked as the line is: an error may quote a key or a DSN as given, and an
            # OSError its path: "File name too long: 'bob:<password>@db'")
            lines = redact_secrets("".join(traceback.format_exception(error))).splitlines(True)
            sys.stderr.write("".join(redact_path(line) if "@" in line else line for line in lines))
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
    return status


if __name__ == "__main__":
    raise SystemExit(main())
