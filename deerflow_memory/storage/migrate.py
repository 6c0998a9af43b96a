"""Copy every memory document from one storage backend to another, verified by reading back.

``deerflow-memory migrate --from file:./mem --to sqlite:./mem.sqlite`` is
:func:`parse_backend_spec` twice, :func:`~deerflow_memory.storage.factory.open_storage`
twice and :func:`migrate`.

Nothing in the source is changed. A document that already exists in the
target is skipped unless ``overwrite=True`` (then the target's copy is deleted
first so no stale fact survives); bare tombstones (what a delete left) are
neither copied nor in the way, a cleared memory's fenced tombstone is copied
as the fence it holds. Each copy is read back and compared with the
source (``revision`` aside, since each backend counts its own); a mismatch is
reported in :attr:`MigrationReport.mismatched`, and a document that cannot be
read from the source (corrupt) in :attr:`MigrationReport.failed` — the
migration goes on with the others, so check :attr:`MigrationReport.ok`.

The fence key (see :meth:`MemoryStorage.fence_key`) goes along, so what a
delete left still keeps old threads from being learned again; a target that
already has its own key keeps it (:attr:`MigrationReport.fence_keys_kept`).

Every tenant's documents are copied too, into the same tenant of the target;
the report names them ``("<tenant>/<user_id>", agent_name)`` (``/`` cannot
occur in an id).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deerflow_memory.config import MemoryConfig
from deerflow_memory.errors import ConfigError, StorageError
from deerflow_memory.models import MemoryDocument
from deerflow_memory.storage.base import MemoryStorage

__all__ = ["BACKEND_SCHEMES", "MigrationReport", "migrate", "parse_backend_spec"]

BACKEND_SCHEMES = ("file", "sqlite", "postgres")

DocumentName = tuple[str, str | None]


@dataclass
class MigrationReport:
    """What :func:`migrate` did, per document ``(user_id, agent_name)``."""

    copied: list[DocumentName] = field(default_factory=list)
    skipped: list[DocumentName] = field(default_factory=list)
    mismatched: list[DocumentName] = field(default_factory=list)
    failed: list[tuple[DocumentName, str]] = field(default_factory=list)
    facts_copied: int = 0
    fence_keys_kept: list[str] = field(default_factory=list)
    """Tenants (``""``: none) whose target already had another fence key: the fences
    copied there do not match, so old threads of deleted memories can be learned again."""

    @property
    def documents_copied(self) -> int:
        return len(self.copied)

    @property
    def verified(self) -> int:
        """Copies that read back identical to the source."""
        return len(self.copied) - len(self.mismatched)

    @property
    def ok(self) -> bool:
        """True when every source document was copied (or skipped) and verified."""
        return not self.mismatched and not self.failed

    def summary(self) -> str:
        """One line for a CLI."""
        return (
            f"{self.documents_copied} documents ({self.facts_copied} facts) copied, "
            f"{self.verified} verified, {len(self.skipped)} skipped (already in target), "
            f"{len(self.mismatched)} mismatched, {len(self.failed)} failed"
            + (
                f"; the target kept its own fence key ({len(self.fence_keys_kept)} scope(s)): "
                "deleted memories' old threads there may be learned again"
                if self.fence_keys_kept
                else ""
            )
        )


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
        ConfigError: unknown scheme or empty location.

    Example:
        >>> parse_backend_spec("sqlite:/tmp/memory.sqlite").storage
        'sqlite'
    """
    if spec.startswith(("postgresql://", "postgres://")):
        scheme, location = "postgres", spec
    else:
        scheme, sep, location = spec.partition(":")
        if not sep:
            raise ConfigError(
                f"backend spec {spec!r} has no scheme: use file:PATH, sqlite:PATH or postgres:DSN"
            )
    if scheme not in BACKEND_SCHEMES:
        raise ConfigError(
            f"unknown backend {scheme!r} in {spec!r}: use one of {', '.join(BACKEND_SCHEMES)}"
        )
    if not location:
        raise ConfigError(f"backend spec {spec!r} names no location")
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


def migrate(
    source: MemoryStorage, target: MemoryStorage, *, overwrite: bool = False
) -> MigrationReport:
    """Copy every document of ``source`` into ``target`` and verify each copy.

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
    """
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
    for user_id, agent_name in list(source.list_stored()):
        name = (label + user_id, agent_name)
        try:
            document = source.load(user_id, agent_name)
        except StorageError as e:
            report.failed.append((name, str(e)))
            continue
        bare = document.deleted_at is not None and not document.extraction_watermarks
        if bare and document.holds_only_fence():
            continue  # a bare tombstone: what a delete left, nothing to copy
        existing = target.load(user_id, agent_name)
        # The target's tombstone is no document: the copy continues its revisions.
        if existing.deleted_at is None and (existing.revision > 0 or not existing.is_empty()):
            if not overwrite:
                report.skipped.append(name)
                continue
            target.delete(user_id, agent_name)
        target.save(user_id, agent_name, document)
        report.copied.append(name)
        report.facts_copied += len(document.facts)
        if _comparable(target.load(user_id, agent_name)) != _comparable(document):
            report.mismatched.append(name)
