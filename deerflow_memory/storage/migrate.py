"""Copy every memory document (and the words not learned yet) to another backend, verified.

``deerflow-memory migrate --from file:./mem --to sqlite:./mem.sqlite`` is
:func:`parse_backend_spec` twice, :func:`~deerflow_memory.storage.factory.open_storage`
twice and :func:`migrate`.

Nothing in the source is changed. A document that already exists in the
target is skipped unless ``overwrite=True`` (then the target's copy is deleted
first so no stale fact survives; the report names the skipped ones that differ
from the source, :attr:`MigrationReport.skipped_different`); bare tombstones
(what a plain ``delete`` left) are neither copied nor in the way, a cleared memory's tombstone is
copied as the fence it holds (its ``clearedAt`` kept, watermarks or not). A
memory the target's user cleared is never copied back, with ``overwrite``
neither (a clear is final): a target memory whose ``clearedAt`` is later than
the source's (a clear stamps it, with or without watermarks to fence, and
later saves keep it) is reported in :attr:`MigrationReport.cleared` and kept
as it is (the facts said after the clear included), and that memory's dead
letters and pending updates are not copied either (attack 21 F4: a re-run
after a clear on the target brought the cleared facts back; a clear without
watermarks left a bare tombstone, the same as a plain ``delete``, until
``clearedAt``). Each copy is read back and compared with the source
(``revision`` aside, since each backend counts its own); a mismatch is
reported in :attr:`MigrationReport.mismatched`, and a document that cannot be
read from the source (corrupt) in :attr:`MigrationReport.failed` — the
migration goes on with the others, so check :attr:`MigrationReport.ok`.

The fence key (see :meth:`MemoryStorage.fence_key`) goes along, so what a
delete left still keeps old threads from being learned again; a target that
already has its own key keeps it (:attr:`MigrationReport.fence_keys_kept`).

Every tenant's documents are copied too, into the same tenant of the target;
the report names them ``("<tenant>/<user_id>", agent_name)`` (``/`` cannot
occur in an id).

The user's words not learned yet go along too (see
:mod:`~deerflow_memory.storage.migrate_pending`): the dead letters, ids kept,
and the pending updates of the durable outbox, which the next process on the
target runs. Pending updates a running process holds in the source, or that
the target cannot keep (no durable outbox), make the report not ok: stop the
services using the source before migrating.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deerflow_memory.arguments import expect, expect_text
from deerflow_memory.config import MemoryConfig
from deerflow_memory.config.secrets import redact_path
from deerflow_memory.errors import ConfigError, StorageError
from deerflow_memory.models import MemoryDocument, parse_timestamp
from deerflow_memory.storage.base import MemoryStorage
from deerflow_memory.storage.migrate_pending import copy_dead_letters, copy_pending_updates

__all__ = ["BACKEND_SCHEMES", "MigrationReport", "PendingName", "migrate", "parse_backend_spec"]

BACKEND_SCHEMES = ("file", "sqlite", "postgres")

DocumentName = tuple[str, str | None]
PendingName = tuple[str, str | None, str]
"""A pending update: ``("<tenant>/<user_id>", agent_name, thread_id)``."""


@dataclass
class MigrationReport:
    """What :func:`migrate` did, per document ``(user_id, agent_name)``."""

    copied: list[DocumentName] = field(default_factory=list)
    skipped: list[DocumentName] = field(default_factory=list)
    """Documents the target already had, kept there (without ``overwrite``)."""
    skipped_different: list[DocumentName] = field(default_factory=list)
    """Those of :attr:`skipped` whose target copy differs from the source's (an older
    copy, or one the target's services changed since): ``overwrite`` replaces them."""
    cleared: list[DocumentName] = field(default_factory=list)
    """Memories the target's user cleared: not copied, with ``overwrite`` neither."""
    mismatched: list[DocumentName] = field(default_factory=list)
    failed: list[tuple[DocumentName, str]] = field(default_factory=list)
    facts_copied: int = 0
    fence_keys_kept: list[str] = field(default_factory=list)
    """Tenants (``""``: none) whose target already had another fence key: the fences
    copied there do not match, so old threads of deleted memories can be learned again."""
    letters_copied: list[str] = field(default_factory=list)
    """Dead letters copied, as ``"<tenant>/<letter id>"``."""
    letters_skipped: list[str] = field(default_factory=list)
    """Dead letters the target already held (as they are, or another one without ``overwrite``)."""
    letters_mismatched: list[str] = field(default_factory=list)
    letters_failed: list[tuple[str, str]] = field(default_factory=list)
    """``(location, reason)`` of dead letters that could not be read or written."""
    pending_copied: list[PendingName] = field(default_factory=list)
    pending_skipped: list[PendingName] = field(default_factory=list)
    """Pending updates whose messages the target's outbox already held."""
    pending_mismatched: list[PendingName] = field(default_factory=list)
    pending_held: list[PendingName] = field(default_factory=list)
    """Pending updates a running process holds in the source: not copied."""
    pending_not_carried: list[PendingName] = field(default_factory=list)
    """Pending updates the target cannot keep (it has no durable outbox): not copied."""
    pending_failed: list[tuple[str, str]] = field(default_factory=list)
    """``(location, reason)`` of outbox journals (or lines) that could not be read."""

    @property
    def documents_copied(self) -> int:
        return len(self.copied)

    @property
    def verified(self) -> int:
        """Copies that read back identical to the source."""
        return len(self.copied) - len(self.mismatched)

    @property
    def ok(self) -> bool:
        """True when every source document, dead letter and pending update was copied
        (or skipped) and verified."""
        return not (
            self.mismatched
            or self.failed
            or self.letters_mismatched
            or self.letters_failed
            or self.pending_mismatched
            or self.pending_held
            or self.pending_not_carried
            or self.pending_failed
        )

    def summary(self) -> str:
        """One line for a CLI."""
        return (
            f"{_counted(self.documents_copied, 'document')} "
            f"({_counted(self.facts_copied, 'fact')}) copied, "
            f"{self.verified} verified, {len(self.skipped)} skipped (already in target"
            + (
                f"; {len(self.skipped_different)} of them differ from the source there, "
                "--overwrite replaces them"
                if self.skipped_different
                else ""
            )
            + f"), {len(self.mismatched)} mismatched, {len(self.failed)} failed"
            + (
                f", {len(self.cleared)} not copied: cleared on the target "
                "(a clear is final, --overwrite too)"
                if self.cleared
                else ""
            )
            + (
                f"; the target kept its own fence key ({len(self.fence_keys_kept)} scope(s)): "
                "deleted memories' old threads there may be learned again"
                if self.fence_keys_kept
                else ""
            )
            + self._words_summary()
        )

    def _words_summary(self) -> str:
        parts = []
        letters = (self.letters_copied, self.letters_skipped, self.letters_mismatched)
        if any(letters) or self.letters_failed:
            parts.append(
                f"{len(self.letters_copied)} dead letters copied, {len(self.letters_skipped)} "
                f"skipped, {len(self.letters_mismatched)} mismatched, "
                f"{len(self.letters_failed)} unreadable"
            )
        pending = (self.pending_copied, self.pending_skipped, self.pending_mismatched)
        if any(pending):
            parts.append(
                f"{len(self.pending_copied)} pending updates copied, "
                f"{len(self.pending_skipped)} skipped, {len(self.pending_mismatched)} mismatched"
            )
        if self.pending_held:
            parts.append(
                f"{len(self.pending_held)} pending updates NOT copied: a running process holds "
                "them in the source (stop it and migrate again)"
            )
        if self.pending_not_carried:
            parts.append(
                f"{len(self.pending_not_carried)} pending updates NOT copied: the target keeps "
                "no durable outbox"
            )
        if self.pending_failed:
            parts.append(f"{len(self.pending_failed)} outbox journals could not be read")
        return "".join("; " + part for part in parts)


def parse_backend_spec(spec: str, base: MemoryConfig | None = None) -> MemoryConfig:
    """Turn ``file:PATH``, ``sqlite:PATH`` or ``postgres:DSN`` into a config selecting that backend.

    A bare ``postgresql://...`` URL also means postgres. A ``sqlite:`` path
    spelled as a folder (``sqlite:db/``, ``sqlite:db.sqlite/``) means the
    ``memory.sqlite`` inside that folder, whatever its name's suffix (the
    config's own rule for ``storage_path``).

    Args:
        spec: the backend spec.
        base: settings to start from (default: defaults); only storage fields change.

    Raises:
        ConfigError: unknown scheme or empty location, ``spec`` not text or
            ``base`` not a :class:`MemoryConfig`.

    Example:
        >>> parse_backend_spec("sqlite:/tmp/memory.sqlite").storage
        'sqlite'
    """
    expect_text(spec, "spec", ConfigError)
    expect(base, MemoryConfig, "base", "a MemoryConfig", ConfigError, optional=True)
    if spec.startswith(("postgresql://", "postgres://")):
        scheme, location = "postgres", spec
    else:
        scheme, sep, location = spec.partition(":")
        if not sep:
            raise ConfigError(
                f"backend spec {redact_path(repr(spec))} has no scheme: use file:PATH, "
                "sqlite:PATH or postgres:DSN"
            )
    if scheme not in BACKEND_SCHEMES:  # ("bob:pw@db" is a DSN without its scheme: masked)
        raise ConfigError(
            f"unknown backend {scheme!r} in {redact_path(repr(spec))}: use one of "
            f"{', '.join(BACKEND_SCHEMES)}"
        )
    if not location:
        raise ConfigError(f"backend spec {redact_path(repr(spec))} names no location")
    values: dict[str, Any] = (base or MemoryConfig()).model_dump()
    values["storage"] = scheme
    if scheme == "postgres":
        values["storage_dsn"] = location
    else:
        values["storage_path"] = location
    return MemoryConfig(**values)  # ConfigError (one line) for a bad location


def _comparable(document: MemoryDocument) -> dict[str, Any]:
    data = document.to_dict()
    data.pop("revision", None)
    data.pop("deletedAt", None)  # a save clears it: a document with content is no tombstone
    return data


def _cleared_on_target(existing: MemoryDocument, document: MemoryDocument) -> bool:
    """True when the target's user cleared ``existing`` after ``document`` (the source's) was.

    A clear (:meth:`MemoryStorage.delete_fenced`) sets ``clearedAt``, watermarks
    or not, and later saves keep it: the target's memory was cleared there
    when its ``clearedAt`` is later than the source's (or the source was never
    cleared); the same ``clearedAt`` is one clear both sides hold (an earlier
    copy of it), not a clear on the target. A fenced tombstone written before
    ``clearedAt`` existed (``deletedAt`` and watermarks) counts as a clear too.
    A plain ``delete``'s bare tombstone says nothing of what it deleted and is
    no document, as before.
    """
    mark = existing.cleared_at
    if mark is None:
        return existing.deleted_at is not None and bool(existing.extraction_watermarks)
    if mark == document.cleared_at:
        return False
    target, source = parse_timestamp(mark), parse_timestamp(document.cleared_at)
    # An unreadable time on either side: the clear wins (it is never undone by guessing).
    return target is None or source is None or target > source


def migrate(
    source: MemoryStorage, target: MemoryStorage, *, overwrite: bool = False
) -> MigrationReport:
    """Copy every document, dead letter and pending update of ``source`` into ``target``, verified.

    Args:
        source: read only.
        target: receives the documents.
        overwrite: replace documents that already exist in ``target``.

    Returns:
        The report; check ``report.ok``.

    Raises:
        StorageError: the target cannot be written (the report so far is lost;
            documents already copied stay copied, so re-running with
            ``overwrite=True`` completes the job).
        InvalidArgumentError: ``source`` or ``target`` is not a
            :class:`MemoryStorage`; nothing was read or written.
    """
    expect(source, MemoryStorage, "source", "a MemoryStorage")
    expect(target, MemoryStorage, "target", "a MemoryStorage")
    report = MigrationReport()
    _copy(source, target, overwrite, report, "")
    from deerflow_memory.storage.tenants import stored_tenants

    for tenant in stored_tenants(source):
        _copy(source.scoped(tenant), target.scoped(tenant), overwrite, report, f"{tenant}/")
    return report


def _copy(
    source: MemoryStorage,
    target: MemoryStorage,
    overwrite: bool,
    report: MigrationReport,
    label: str,
) -> None:
    # The fences (what deleting a memory keeps) are sealed with the source's key:
    # the target takes it, unless it already has its own.
    key = source.stored_fence_key()
    if key is not None and target.adopt_fence_key(key) != key:
        report.fence_keys_kept.append(label.rstrip("/"))
    # Fences too (list_stored): a cleared memory's fence keeps old threads from being learned again.
    cleared: set[tuple[str, str | None]] = set()
    for user_id, agent_name in list(source.list_stored()):
        name = (label + user_id, agent_name)
        try:
            document = source.load(user_id, agent_name)
        except StorageError as e:
            report.failed.append((name, str(e)))
            continue
        # A plain delete's tombstone: nothing to copy. A clear's (clearedAt) is copied as
        # the clear it is, as a fence is, so the target's copy of that memory goes too.
        bare = document.deleted_at is not None and not document.extraction_watermarks
        if bare and document.cleared_at is None and document.holds_only_fence():
            continue
        existing = target.load(user_id, agent_name)
        if _cleared_on_target(existing, document):
            report.cleared.append(name)  # a clear is final: overwrite does not undo it
            cleared.add((user_id, agent_name))
            continue
        # A bare tombstone is no document: the copy continues its revisions.
        if existing.deleted_at is None and (existing.revision > 0 or not existing.is_empty()):
            if not overwrite:
                report.skipped.append(name)
                if _comparable(existing) != _comparable(document):
                    report.skipped_different.append(name)
                continue
            target.delete(user_id, agent_name)
        target.save(user_id, agent_name, document)
        report.copied.append(name)
        report.facts_copied += len(document.facts)
        if _comparable(target.load(user_id, agent_name)) != _comparable(document):
            report.mismatched.append(name)
    # The user's words not learned yet: failed updates, and those waiting to run.
    copy_dead_letters(source, target, overwrite, report, label, cleared=frozenset(cleared))
    copy_pending_updates(source, target, report, label, cleared=frozenset(cleared))


def _counted(n: int, thing: str) -> str:
    """ "1 document", "3 documents" (the report's counts, said right for one)."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"
