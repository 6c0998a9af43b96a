"""The file backend's delta journal: what changed since ``memory.json``, one line per save.

Beside each ``memory.json`` (the *snapshot*: a whole DeerFlow-compatible
document) a save may append one record to ``memory.journal.jsonl`` instead of
rewriting the snapshot, so an update on a 5,000-fact document writes a few
kilobytes, not megabytes. The file holds JSON lines:

- a header ``{"journal": 1, "snapshotRevision": R, "snapshotBytes": S, "snapshotCrc32": C}``
  naming the snapshot the records apply to (by content, so a copied folder
  stays valid and a snapshot written by someone else, e.g. DeerFlow, is noticed:
  the journal is then ignored);
- records ``{"revision": N, "set": {...}, "unset": [...], "facts": [...], ...}``,
  each turning revision ``N - 1`` into ``N``: changed top-level fields are in
  ``set`` (camelCase, as in ``memory.json``), fields that became null in
  ``unset``, and a changed list field (``facts``, ``supersededFacts``,
  ``extractionWatermarks``) is a list of *segments*: ``[start, end]`` keeps
  items ``start..end-1`` of the previous list, an object is a new item; two
  ranges of one list never overlap (a record that keeps an item twice is corrupt).

A torn last line (a crash mid-append) is ignored, never read as corruption;
an unreadable line before the last one is corruption. Everything here is pure
(bytes in, documents out); :mod:`deerflow_memory.storage.file` does the I/O.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from deerflow_memory.errors import CorruptMemoryError
from deerflow_memory.models import MemoryDocument, first_problem

__all__ = [
    "JOURNAL_FILE",
    "Journal",
    "JournalHeader",
    "encode_record",
    "header_line",
    "parse_journal",
    "replay",
]

JOURNAL_FILE = "memory.journal.jsonl"
FORMAT = 1
# List fields written as segments; every other field is written whole when it changed.
_LISTS = ("facts", "superseded_facts", "extraction_watermarks")
_FIELDS = MemoryDocument.model_fields
_ALIAS = {name: field.alias or name for name, field in _FIELDS.items()}
_NAME = {alias: name for name, alias in _ALIAS.items()}


@dataclass(frozen=True, slots=True)
class JournalHeader:
    """The snapshot a journal's records apply to: its revision, size and CRC-32."""

    revision: int
    size: int
    crc32: int

    @classmethod
    def of(cls, revision: int, snapshot: bytes) -> JournalHeader:
        """The header of ``snapshot`` (the raw bytes of ``memory.json``) at ``revision``."""
        return cls(revision, len(snapshot), zlib.crc32(snapshot))


def header_line(header: JournalHeader) -> bytes:
    """The first line of a journal (newline included)."""
    data = {
        "journal": FORMAT,
        "snapshotRevision": header.revision,
        "snapshotBytes": header.size,
        "snapshotCrc32": header.crc32,
    }
    return (json.dumps(data, separators=(",", ":")) + "\n").encode("utf-8")


@dataclass(frozen=True, slots=True)
class Journal:
    """A parsed journal (or the part of one after ``start``).

    Attributes:
        header: the snapshot it applies to; ``None`` when the header is missing or torn.
        records: parsed records in file order.
        end: byte offset just past the last complete record (or the header).
        last_line: the bytes of the last complete line (newline included).
        torn: bytes after ``end`` were ignored (a crash mid-append, or a line
            still being written by another process).
    """

    header: JournalHeader | None
    records: tuple[dict[str, Any], ...]
    end: int
    last_line: bytes
    torn: bool


def parse_journal(path: Path, raw: bytes, start: int = 0) -> Journal:
    """Parse ``raw`` (the journal's bytes from offset ``start``).

    With ``start == 0`` the first line is the header. The last line may be torn
    (no newline, or not JSON): it is left out and reported in ``torn``.

    Raises:
        CorruptMemoryError: a line before the last one is not a JSON object.
    """
    lines = raw.split(b"\n")
    tail = lines.pop()  # b"" when raw ends with a newline: everything is complete
    header: JournalHeader | None = None
    records: list[dict[str, Any]] = []
    offset = start
    last = b""
    torn = bool(tail)
    for n, line in enumerate(lines):
        try:
            data = json.loads(line)
            if not isinstance(data, dict):
                raise ValueError(f"expected a JSON object, found {type(data).__name__}")
        except (ValueError, RecursionError, MemoryError) as e:
            if n == len(lines) - 1 and not tail:
                torn = True  # a complete-looking but damaged last line: a torn append
                break
            raise CorruptMemoryError(path, f"journal line at byte {offset}: {e}") from e
        if start == 0 and n == 0:
            header = _header(data)
            if header is None:  # not ours, or damaged: nothing after it can be trusted
                raise CorruptMemoryError(path, "journal does not start with a header")
        else:
            records.append(data)
        offset += len(line) + 1
        last = line + b"\n"
    return Journal(header, tuple(records), offset, last, torn)


def _header(data: dict[str, Any]) -> JournalHeader | None:
    if data.get("journal") != FORMAT:
        return None
    values = (data.get("snapshotRevision"), data.get("snapshotBytes"), data.get("snapshotCrc32"))
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return None
    revision, size, crc = values
    return JournalHeader(revision, size, crc)  # type: ignore[arg-type]


def replay(
    path: Path, document: MemoryDocument, records: tuple[dict[str, Any], ...]
) -> MemoryDocument:
    """``document`` with every record newer than its revision applied, in order.

    Raises:
        CorruptMemoryError: a record skips a revision or does not describe a valid change.
    """
    for record in records:
        revision = record.get("revision")
        if not isinstance(revision, int) or isinstance(revision, bool):
            raise CorruptMemoryError(path, "journal record without a revision")
        if revision <= document.revision:
            continue  # already in the snapshot (a compaction that crashed before cleaning up)
        if revision != document.revision + 1:
            raise CorruptMemoryError(
                path, f"journal jumps from revision {document.revision} to {revision}"
            )
        document = _apply(path, document, record)
    return document


def _apply(path: Path, document: MemoryDocument, record: dict[str, Any]) -> MemoryDocument:
    changed = record.get("set", {})
    unset = record.get("unset", [])
    if not isinstance(changed, dict) or not isinstance(unset, list):
        raise CorruptMemoryError(path, f"journal record {record['revision']} is malformed")
    data: dict[str, Any] = dict(changed)
    segments: dict[str, list[Any]] = {}
    for name in _LISTS:
        value = record.get(_ALIAS[name])
        if value is None:
            continue
        if not isinstance(value, list):
            raise CorruptMemoryError(path, f"journal record {record['revision']}: bad {name}")
        segments[name] = value
        data[_ALIAS[name]] = [item for item in value if isinstance(item, dict)]
    try:
        # New values are validated exactly as in a whole document.
        partial = MemoryDocument.model_validate(data)
    except ValidationError as e:
        raise CorruptMemoryError(
            path, f"journal record {record['revision']} is not valid: {first_problem(e, 'record')}"
        ) from e
    updates: dict[str, Any] = {
        name: getattr(partial, name) for name in partial.model_fields_set if name not in _LISTS
    }
    for alias in unset:
        field = _NAME.get(alias) if isinstance(alias, str) else None
        if field is None or _FIELDS[field].default is not None:
            raise CorruptMemoryError(path, f"journal record {record['revision']}: bad unset")
        updates[field] = None
    for name, parts in segments.items():
        old = getattr(document, name)
        new_items = iter(getattr(partial, name))
        items: list[Any] = []
        ranges: list[tuple[int, int]] = []
        for part in parts:
            if isinstance(part, dict):
                items.append(next(new_items))
            elif _is_range(part, len(old)):
                items.extend(old[part[0] : part[1]])
                ranges.append((part[0], part[1]))
            else:
                raise CorruptMemoryError(path, f"journal record {record['revision']}: bad {name}")
        if _overlap(ranges):
            raise CorruptMemoryError(
                path, f"journal record {record['revision']}: {name} keeps an item twice"
            )
        updates[name] = tuple(items)
    updates["revision"] = record["revision"]
    return document.model_copy(update=updates)


def _is_range(part: Any, length: int) -> bool:
    return (
        isinstance(part, list)
        and len(part) == 2
        and all(isinstance(i, int) and not isinstance(i, bool) for i in part)
        and 0 <= part[0] < part[1] <= length
    )


def _overlap(ranges: list[tuple[int, int]]) -> bool:
    """True when two ``[start, end)`` ranges share an index (the encoder never writes that)."""
    if len(ranges) < 2:
        return False
    ranges.sort()
    return any(ranges[i][0] < ranges[i - 1][1] for i in range(1, len(ranges)))


def encode_record(old: MemoryDocument, new: MemoryDocument) -> tuple[bytes, int] | None:
    """The journal line turning ``old`` into ``new``, and how many list items it spells out.

    Items are matched by identity (documents share unchanged facts), so a
    document derived from ``old`` costs a few segments; ``None`` when the
    change cannot be written as a record (unknown top-level keys changed, or
    one item of ``old`` appears twice in ``new``).
    """
    if new.model_extra != old.model_extra:
        return None
    record: dict[str, Any] = {"revision": new.revision}
    changed: list[str] = []
    unset: list[str] = []
    literal = 0
    for name in _FIELDS:
        if name == "revision":
            continue
        before, after = getattr(old, name), getattr(new, name)
        if before is after:
            continue
        if name in _LISTS:
            parts, count = _segments(before, after)
            if parts is not None and _overlap([tuple(p) for p in parts if isinstance(p, list)]):
                return None  # ``new`` holds one item twice: a record cannot say so
            if parts is not None:
                record[_ALIAS[name]] = parts
                literal += count
        elif after is None:
            unset.append(_ALIAS[name])
        elif before != after:
            changed.append(name)
    if changed:
        record["set"] = new.model_dump(
            mode="json", by_alias=True, exclude_none=True, include=set(changed)
        )
    if unset:
        record["unset"] = unset
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
    return line.encode("utf-8"), literal


def _segments(
    old: tuple[BaseModel, ...], new: tuple[BaseModel, ...]
) -> tuple[list[Any] | None, int]:
    """``new`` as ranges of ``old`` and new items; ``(None, 0)`` when it equals ``old``."""
    position = {id(item): i for i, item in enumerate(old)}
    parts: list[Any] = []
    literal = 0
    start = end = -1  # the open range old[start:end]
    for item in new:
        i = position.get(id(item), -1)  # ids of items of the live ``old`` cannot be reused
        if i >= 0 and i == end:
            end += 1
            continue
        if end > start:
            parts.append([start, end])
        if i >= 0:
            start, end = i, i + 1
        else:
            start = end = -1
            parts.append(item.model_dump(mode="json", by_alias=True, exclude_none=True))
            literal += 1
    if end > start:
        parts.append([start, end])
    if parts == [[0, len(old)]] or (not parts and not old):
        return None, 0
    return parts, literal
