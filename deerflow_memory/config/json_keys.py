"""JSON objects read strictly: a key given twice is an error, not the later value."""

from __future__ import annotations

from typing import Any


class DuplicateKeyError(ValueError):
    """A JSON object repeats a key (``{"content": "a", "content": "b"}``); ``key`` is that key."""

    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(f"duplicate key {key[:80]!r} in a JSON object")


def json_object_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` for :func:`json.loads` that refuses a repeated key.

    JSON parsers keep the last of two equal keys silently; for settings and
    imports that hides which value was meant, so it is an error instead.

    Raises:
        DuplicateKeyError: naming the key (``duplicate key 'content'``).
    """
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKeyError(key)
            seen.add(key)
    return data
