"""The text of the memory block's lines: escaping stored text, fact lines, sentences.

Stored text is escaped (:func:`escape_memory_text`) so it can never close the
block, open a ``<system-reminder>``, spell a special token or start a line of
its own. Nothing here raises.
"""

from __future__ import annotations

import re

from deerflow_memory.models import Fact, FactCategory

__all__ = ["MEMORY_CLOSE_TAG", "MEMORY_OPEN_TAG", "escape_memory_text", "format_fact_line"]

MEMORY_OPEN_TAG = "<user_memory>"
MEMORY_CLOSE_TAG = "</user_memory>"


# --- escaping ----------------------------------------------------------------------

# Bidi marks, embeddings, overrides and isolates, and the BOM: invisible, they can
# reorder how a line reads; dropped (text the validators wrote never has them).
_INVISIBLE = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
_NEEDS_ESCAPE = re.compile(f"[&<>\\x00-\\x1f\\x7f\\x85\\u2028\\u2029{_INVISIBLE}]")
_LINE_BREAKS = re.compile(r"\s*[\x00-\x1f\x7f\x85\u2028\u2029]+\s*")
_ENTITIES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", **dict.fromkeys(_INVISIBLE)})


def escape_memory_text(text: str) -> str:
    """Make stored text safe to place inside the ``<user_memory>`` block.

    ``&``, ``<`` and ``>`` become entities, so no tag (``</user_memory>``,
    ``<system-reminder>``) and no special-token string (``<|endoftext|>``) can
    appear; line breaks and control characters collapse to one space so a
    stored value can never start a line of its own (and forge a heading or a
    fact); surrounding whitespace is stripped.

    Args:
        text: stored text (a fact, a summary, a correction's source error).

    Returns:
        The escaped single-line text.
    """
    if _NEEDS_ESCAPE.search(text) is None:
        return text.strip()
    return _LINE_BREAKS.sub(" ", text.translate(_ENTITIES)).strip()


# A sentence ends at ., ! or ? before whitespace, at CJK end punctuation, or at
# a line break; the trailing whitespace stays with it so pieces join back exactly.
_SENTENCE = re.compile(r".+?(?:[.!?](?=\s)|[。！？；…\n]|\Z)\s*", re.DOTALL)


def _split_sentences(text: str) -> list[str]:
    return _SENTENCE.findall(text)


# "- [category] " per category, looked up by member (faster than ``.value``).
_FACT_PREFIX = {category: f"- [{category.value}] " for category in FactCategory}
# Characters of "- [category]" (the prefix without its space).
_PREFIX_LENGTH = {category: len(prefix) - 1 for category, prefix in _FACT_PREFIX.items()}


def format_fact_line(fact: Fact) -> str:
    """One fact as it appears in the block, without the trailing newline.

    Args:
        fact: the fact.

    Returns:
        ``- [category] content``, plus `` (not: source error)`` for corrections
        that record what was wrong; ``""`` for a fact with no content.
    """
    return _fact_line(fact)[:-1]


def _fact_line(fact: Fact) -> str:
    # The hot loop of rendering: escape inline when the fast check says so.
    content = fact.content
    content = (
        content.strip() if _NEEDS_ESCAPE.search(content) is None else escape_memory_text(content)
    )
    if not content:
        return "\n"
    source_error = fact.source_error
    if source_error:
        wrong = escape_memory_text(source_error)
        if wrong:
            return f"{_FACT_PREFIX[fact.category]}{content} (not: {wrong})\n"
    return f"{_FACT_PREFIX[fact.category]}{content}\n"
