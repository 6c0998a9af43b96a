"""Settings from a YAML config file, read strictly and bounded.

The file is a bare mapping or a DeerFlow ``config.yaml`` with a ``memory:`` section.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Hashable
from pathlib import Path
from typing import Any

from deerflow_memory.config.messages import (
    ERRORS_SHOWN,
    clipped,
    did_you_mean,
    first_few,
    quoted,
    shown,
)
from deerflow_memory.config.paths import check_path, looks_like_url
from deerflow_memory.config.secrets import redact_path, redact_secrets
from deerflow_memory.config.settings import DEERFLOW_ALIASES, MemoryConfig
from deerflow_memory.errors import ConfigError
from deerflow_memory.logs import package_logger

logger = package_logger(__name__)

MAX_CONFIG_BYTES = 1 << 20
"""A config file is read up to this many bytes (1 MiB); a larger one (or an endless
device such as ``/dev/zero``) is refused with a :class:`ConfigError`, never read whole."""

# Settings a DeerFlow config.yaml may hold that we knowingly do not use: a warning,
# not an error (the README lists them). Top-level DeerFlow sections appear here
# too, for a file without a ``memory:`` section.
DEERFLOW_IGNORED_KEYS = frozenset(
    {
        "storage_class",
        "models",
        "tools",
        "tool_groups",
        "sandbox",
        "skills",
        "title",
        "summarization",
        "subagents",
        "checkpointer",
        "channels",
    }
)


MAX_ALIASED_VALUES = 10_000
"""YAML aliases (``*name``) in a config file may repeat at most this many values in
all: a few hundred bytes of nested aliases otherwise stand for billions of values
("billion laughs") that validation and error messages would walk. Each character
of a repeated text counts as a value too (:data:`_ALIASED_CHARACTERS` per value):
9,000 aliases of one 50 KB text would otherwise hold 450 MB."""

_ALIASED_CHARACTERS = 100  # characters of repeated text that count as one value


class _LineProblem(Exception):
    """What is wrong at one line of a config file, said without quoting the line."""

    def __init__(self, problem: str, line: int) -> None:
        super().__init__(problem)
        self.problem, self.line = problem, line


class _AliasError(_LineProblem):
    """A config file's aliases repeat too much, or one holds itself."""


class _KeyNotTextError(_LineProblem):
    """A config file's mapping has a key no dict can hold (a list or a mapping)."""


class _ValueNotOfTagError(_LineProblem):
    """A scalar of a config file cannot be built as its YAML type ("!!int sk-…")."""


_YAML_TAG = "tag:yaml.org,2002:"
_YAML_TYPES = frozenset(
    "!!" + t
    for t in "null bool int float binary timestamp omap pairs set str seq map merge value".split()  # noqa: SIM905
)


def _unbuilt(node: Any) -> str:
    """Why the scalar ``node`` could not be built, without its text or tag (either may be a
    secret: "api_key: !!int sk-…", "api_key: !sk-…" reads the key as a tag)."""
    tag = str(node.tag)
    if not tag.startswith(_YAML_TAG):
        return "a value has a tag that is no YAML type (quote the value to keep it as text)"
    name = "!!" + tag[len(_YAML_TAG) :]
    if name not in _YAML_TYPES:  # "!!<key>": a tag of YAML's own namespace that names none
        return "a value has a tag that is no YAML type (quote the value to keep it as text)"
    digits = str(node.value).strip().lstrip("+-").replace("_", "")
    if name == "!!int" and len(digits) > 4300 and digits.isdigit():
        return "a number of more than 4,300 digits cannot be read (Python's limit)"
    return f"a value of YAML type {name} cannot be read as one (quote it to keep it as text)"


def _not_text(key: Any) -> str:
    """Why ``key`` is no setting name: its kind and its value, bounded and escaped."""
    kinds = {list: "a list", dict: "a mapping", set: "a set", bool: "a boolean", int: "a number"}
    kinds.update({float: "a number", type(None): "null", bytes: "binary data"})
    kind = kinds.get(type(key)) or f"a {type(key).__name__}"  # a date, a datetime
    return f"a key is {kind} ({shown(key)}); a setting's name must be text"


def _strict_loader() -> type:
    import yaml  # deferred: only file-based configuration needs it

    class StrictLoader(yaml.SafeLoader):
        """``safe_load`` that refuses a key given twice in one mapping, and aliases
        that repeat more than :data:`MAX_ALIASED_VALUES` values or hold themselves
        (both raise :class:`_AliasError`)."""

        def __init__(self, stream: Any) -> None:
            super().__init__(stream)
            self._aliased = 0  # values repeated through aliases so far
            self._sizes: dict[int, int] = {}  # id(node) -> values it stands for
            self._open: set[str] = set()  # anchors whose value is being read

        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.peek_event()
            anchor = event.anchor
            if isinstance(event, yaml.AliasEvent):
                line = event.start_mark.line + 1 if event.start_mark else 0
                if anchor in self._open:
                    raise _AliasError(f"alias *{anchor} is inside the value it names", line)
                if anchor in self.anchors:
                    self._aliased += self._size(self.anchors[anchor])
                    if self._aliased > MAX_ALIASED_VALUES:
                        raise _AliasError(
                            f"aliases (*{anchor} and those before it) repeat more than "
                            f"{MAX_ALIASED_VALUES:,} values (a long text counts one per "
                            f"{_ALIASED_CHARACTERS} characters), far more than a configuration "
                            "holds",
                            line,
                        )
                return super().compose_node(parent, index)
            if anchor is None:
                return super().compose_node(parent, index)
            self._open.add(anchor)
            try:
                return super().compose_node(parent, index)
            finally:
                self._open.discard(anchor)

        def _size(self, node: Any) -> int:
            """How many values ``node`` stands for, itself included (a long text: one
            per :data:`_ALIASED_CHARACTERS` characters)."""
            known = self._sizes.get(id(node))
            if known is None:
                known = 1
                if isinstance(node, yaml.ScalarNode):
                    known += len(node.value) // _ALIASED_CHARACTERS
                elif isinstance(node, yaml.SequenceNode):
                    known += sum(self._size(item) for item in node.value)
                elif isinstance(node, yaml.MappingNode):
                    known += sum(self._size(k) + self._size(v) for k, v in node.value)
                self._sizes[id(node)] = known
            return known

        def construct_object(self, node: Any, deep: bool = False) -> Any:
            if not isinstance(node, yaml.ScalarNode):
                return super().construct_object(node, deep=deep)
            try:
                return super().construct_object(node, deep=deep)
            except (ValueError, LookupError, AttributeError, TypeError, yaml.YAMLError):
                pass
            # PyYAML's errors here quote the text ("invalid literal for int(): 'sk-…'", a
            # KeyError of it, the line under a "!!binary" error): a secret as given. Said by
            # its line and type only, raised outside the handler so it holds none of them.
            line = node.start_mark.line + 1 if node.start_mark else 0
            raise _ValueNotOfTagError(_unbuilt(node), line)

        def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
            seen: dict[Any, Any] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":  # "<<: *base": keys it merges
                    continue  # may be given again here, where they win (YAML's rule)
                if not isinstance(key_node, yaml.ScalarNode):  # "? [max_facts]": a list key
                    line = key_node.start_mark.line + 1 if key_node.start_mark else 0
                    key = self.construct_object(key_node, deep=True)  # built whole, to show it
                    raise _KeyNotTextError(_not_text(key), line)
                key = self.construct_object(key_node, deep=deep)
                if not isinstance(key, Hashable):  # a scalar of a tag that builds a list
                    line = key_node.start_mark.line + 1 if key_node.start_mark else 0
                    raise _KeyNotTextError(_not_text(key), line)
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        "while constructing a mapping",
                        node.start_mark,
                        f"found duplicate key {shown(key)} (first at line {seen[key].line + 1})",
                        key_node.start_mark,
                    )
                seen[key] = key_node.start_mark
            return super().construct_mapping(node, deep=deep)

    return StrictLoader


def _read_config_text(path: Path) -> str:
    """The text of ``path``, a regular file of at most :data:`MAX_CONFIG_BYTES`.

    Anything else is refused before it is read: a FIFO (whose open and read
    wait for a writer, maybe forever), a device (``/dev/zero`` never ends), a
    socket or a folder. The file is opened without blocking and checked again
    once open, so one swapped in between is refused too.

    Raises:
        ConfigError: not a regular file, or more than :data:`MAX_CONFIG_BYTES` bytes.
        OSError, UnicodeDecodeError: missing, unreadable, not UTF-8.
    """
    _check_regular(path, os.stat(path).st_mode)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    with open(fd, "rb", closefd=True) as handle:
        _check_regular(path, os.fstat(fd).st_mode)
        raw = handle.read(MAX_CONFIG_BYTES + 1)  # bounded: it may have grown since
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(
            f"config file {_said(path)} is larger than {MAX_CONFIG_BYTES:,} bytes (1 MiB), "
            "the limit for a config file; it was not read"
        )
    return raw.decode("utf-8")


def _check_regular(path: Path, mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise ConfigError(f"config file {_said(path)} is a folder, not a file")
    kind = (
        "a FIFO (named pipe)"
        if stat.S_ISFIFO(mode)
        else "a device"
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "not a regular file"
    )
    raise ConfigError(
        f"config file {_said(path)} is {kind}, not a regular file; it was not read "
        f"(a config file is a regular file of at most 1 MiB)"
    )


# A name a YAML error quotes that the file chose, and may be a secret: "found undefined
# alias 'sk-…'" ("api_key: *sk-…"), a tag, an anchor.
_CHOSEN_NAME = re.compile(
    r"((?:alias|anchor|tag|handle|directive|prefix))\s*(?:'[^'\n]*'|\"[^\"\n]*\"|[!%&*]\S*)"
)


def _placed(error: Any) -> str:
    """A YAML error by its place and its problem, without the quoted line (PyYAML's text
    shows it under the problem, with any password in it) or the names the file chose: "line
    3, column 1: could not find expected ':' (while scanning a simple key at line 2,
    column 1)". Masked as a whole too (a duplicate key may be a credential)."""

    def at(mark: Any) -> str:
        return f"line {mark.line + 1}, column {mark.column + 1}"

    problem, context = error.problem_mark, error.context_mark
    said = str(error.problem or error.context or "a syntax error")
    if error.problem and error.context:
        where = f" at {at(context)}" if context is not None and problem is not None else ""
        said += f" ({error.context}{where})"
    mark = problem or context
    placed = f"{at(mark)}: {said}" if mark is not None else said
    return redact_secrets(_CHOSEN_NAME.sub(r"\1", placed))


def _said(path: Path) -> str:
    """``path`` for a message: credentials masked (a DSN given as the file is a path)."""
    return redact_path(str(path))


def read_yaml(path: Path) -> dict[str, Any]:
    """The memory settings of the config file ``path``, by setting name.

    They are its ``memory:`` section, or the whole mapping when it has none,
    with DeerFlow's names spelled as ours; the DeerFlow settings we ignore
    (:data:`DEERFLOW_IGNORED_KEYS`) are dropped with a warning.

    Raises:
        ConfigError: the file is missing, unreadable, too large, not a regular
            file or not valid YAML; a key is given twice, is not text, or is
            no setting; aliases repeat too much.
    """
    import yaml  # deferred: only file-based configuration needs it

    check_path(path, "config file")
    # A path is said with its credentials masked (_said), and its OSError (which holds it
    # as given) is not chained: "--config postgresql://bob:pw@db" is a path here.
    shown = _said(path)  # (masked on its own first: "sk-password: at…" masked whole lost "at")
    try:
        text = _read_config_text(path)
    except FileNotFoundError:
        hint = "; --config takes a YAML file (a DSN goes in its storage_dsn setting)"
        url = looks_like_url(str(path))
        raise ConfigError(f"config file not found: {shown}{hint if url else ''}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(redact_secrets(f"config file {shown} cannot be read: {e}")) from None
    try:
        data = yaml.load(text, Loader=_strict_loader())
    except _LineProblem as e:
        raise ConfigError(f"config file {shown}, line {e.line}: {e.problem}") from None
    except yaml.MarkedYAMLError as e:  # said by its place: its text quotes the line as given
        raise ConfigError(f"config file {shown} is not valid YAML: {_placed(e)}") from None
    except yaml.YAMLError as e:  # (not chained: it may quote a password as given)
        raise ConfigError(redact_secrets(f"config file {shown} is not valid YAML: {e}")) from None
    except RecursionError as e:  # "[[[[…" nested thousands deep
        raise ConfigError(f"config file {shown} is nested too deeply to be a configuration") from e
    except MemoryError as e:  # within MAX_CONFIG_BYTES, under a tight memory limit
        raise ConfigError(
            f"config file {shown} needs more memory than is available to be read "
            "(too large or too deeply nested to be a configuration)"
        ) from e
    except (ValueError, LookupError, AttributeError, TypeError):
        # Scalars raise _ValueNotOfTagError (by line); this is for any other value whose
        # constructor fails. Not chained: such errors quote the text, a password as given.
        raise ConfigError(f"config file {shown}: a value cannot be read as its YAML type") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"config file {shown} must hold a mapping, got {type(data).__name__}")
    section = data.get("memory", data)
    if not isinstance(section, dict):
        raise ConfigError(f"config file {shown}: 'memory' must be a mapping")
    _check_text_keys(path, section, "memory" if section is not data else "")
    values = _without_aliases(path, section)
    fields = MemoryConfig.model_fields
    unknown = sorted(set(values) - set(fields))
    ignored = [k for k in unknown if k in DEERFLOW_IGNORED_KEYS]
    typos = [k for k in unknown if k not in DEERFLOW_IGNORED_KEYS]
    if typos:  # did-you-mean for the first few only: a file may hold 60,000 typos
        described = [f"{quoted(k)}{did_you_mean(k, fields)}" for k in typos[:ERRORS_SHOWN]]
        problems = first_few(described, len(typos), "unknown settings")
        raise ConfigError(f"config file {shown}: unknown memory setting(s) {problems}")
    if ignored:
        logger.warning("config file %s: ignoring DeerFlow settings %s", shown, ignored)
    return {k: v for k, v in values.items() if k not in unknown}


def _check_text_keys(path: Path, section: dict[Any, Any], where: str) -> None:
    """Every key of ``section`` (the memory settings), of its ``retrieval:`` and
    ``tenants:`` mappings and of each tenant's overrides is text.

    YAML reads ``5:``, ``null:``, ``true:``, ``1.5:`` and ``2024-01-01:`` as an int,
    None, a bool, a float and a date: none of them names a setting or a tenant.

    Raises:
        ConfigError: naming the mapping (``retrieval``, ``tenants.acme``) and the key.
    """
    mappings: list[tuple[str, Any]] = [(where, section)]
    for nested in ("retrieval", "tenants"):
        mappings.append((f"{where}.{nested}".lstrip("."), section.get(nested)))
    tenants = section.get("tenants")
    if isinstance(tenants, dict):
        for tenant, overrides in tenants.items():
            if isinstance(tenant, str):
                mappings.append((f"{where}.tenants.{clipped(tenant)}".lstrip("."), overrides))
    for place, mapping in mappings:
        if not isinstance(mapping, dict):
            continue
        for key in mapping:
            if not isinstance(key, str):
                inside = f"under {place}: " if place else "at the top level: "
                raise ConfigError(
                    redact_secrets(f"config file {_said(path)}: {inside}{_not_text(key)}")
                )


def _without_aliases(path: Path, section: dict[str, Any]) -> dict[str, Any]:
    """``section`` with DeerFlow's names (:data:`DEERFLOW_ALIASES`) spelled as ours.

    Raises:
        ConfigError: both spellings of one setting are given (which one was meant
            cannot be told; YAML would keep the later silently).
    """
    values: dict[str, Any] = {}
    spelled: dict[str, str] = {}  # setting name -> the key that gave it
    for key, value in section.items():
        name = DEERFLOW_ALIASES.get(key, key)
        if name in spelled:
            raise ConfigError(
                f"config file {_said(path)}: {quoted(spelled[name])} and {quoted(key)} are two "
                f"spellings of one setting ({name}); give it once"
            )
        spelled[name] = key
        values[name] = value
    return values
