"""The text of the memory block's lines: escaping stored text, fact lines, sentences.

Stored text is escaped (:func:`escape_memory_text`) so it can never close the
block, open a ``<system-reminder>``, spell a special token or start a line of
its own. Nothing here raises.
"""

from __future__ import annotations

import re

from deerflow_memory.models import Fact, FactCategory, says_nothing, without_invisible

__all__ = ["MEMORY_CLOSE_TAG", "MEMORY_OPEN_TAG", "escape_memory_text", "format_fact_line"]

MEMORY_OPEN_TAG = "<user_memory>"
MEMORY_CLOSE_TAG = "</user_memory>"


# --- escaping ----------------------------------------------------------------------

# Dropped, being invisible: bidi marks (U+061C, U+200E/F), embeddings, overrides
# and isolates, which can reorder how a line reads; the BOM; the interlinear
# annotation marks (U+FFF9-FFFB); the Unicode tag characters (U+E0000-E007F) and
# the variation selectors (U+FE00-FE0F, U+E0100-E01EF), which spell ASCII no reader
# sees but a model can ("</user_memory>" written in tags or one selector per byte,
# at a token or more each); and the other default-ignorable characters that mark
# nothing a model needs (U+034F, U+17B4/5, U+180B-180F, U+2065, U+FFF0-FFF8,
# U+1BCA0-1BCA3, U+1D173-1D17A, the rest of U+E0000-E0FFF). The validators drop all
# of these when text is stored; this is for documents written before that, or by
# other tools. The emoji presentation selectors and the joiners (U+FE0E/FE0F, ZWJ,
# ZWNJ) are kept where storage keeps them (models.without_invisible).
_INVISIBLE_RANGES = (
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200E, 0x200F),
    (0x202A, 0x202E),
    (0x2065, 0x2069),
    (0xFE00, 0xFE0D),
    (0xFEFF, 0xFEFF),
    (0xFFF0, 0xFFFB),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
_INVISIBLE = "".join(chr(c) for low, high in _INVISIBLE_RANGES for c in range(low, high + 1))
_INVISIBLE_CLASS = "".join(f"\\U{low:08x}-\\U{high:08x}" for low, high in _INVISIBLE_RANGES)
# Every C0 and C1 control (line breaks among them) and the Unicode line separators.
# Ranges, not lists of characters: the check runs on every fact of every render.
_CONTROLS = "\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029"
# Characters a model reads as "<" and ">", escaped as those are ("＜/user_memory＞"
# would close the block for a reader as well as the real tag). Chosen from the
# Unicode names holding "LEFT/RIGHT ANGLE BRACKET", "LESS-/GREATER-THAN SIGN",
# "ARROWHEAD" or "LEFT/RIGHT-POINTING ANGLE" (single ones: 《》, «» and ≪≫ stay),
# and the confusables of < and > (Canadian syllabics ᐸ ᐳ, runic ᚲ, ≺ ≻, ⋖ ⋗, ⩹ ⩺,
# circled, arc, APL-quad, arrowhead and vertical-form ones).
_LOOKALIKE_OPEN = (
    "\u02c2\u02f1\u2039\u2329\u276c\u276e\u2770\u27e8\u3008\ufe64\uff1c"
    "\u1438\u29fc\u2991\u2a79\u227a\u22d6"
    "\u16b2\U0001d236\u29c0\u2993\u2343\u2b9c\U0001f890\ufe3f"
)
_LOOKALIKE_CLOSE = (
    "\u02c3\u02f2\u203a\u232a\u276d\u276f\u2771\u27e9\u3009\ufe65\uff1e"
    "\u1433\u29fd\u2992\u2a7a\u227b\u22d7\u2e16"
    "\U0001d237\u29c1\u2994\u2344\u2b9e\U0001f892\ufe40"
)
_JOINING = "\u200c\u200d\ufe0e\ufe0f"
_NEEDS_ESCAPE = re.compile(
    f"[&<>{_LOOKALIKE_OPEN}{_LOOKALIKE_CLOSE}{_CONTROLS}{_INVISIBLE_CLASS}{_JOINING}]"
)
_LINE_BREAKS = re.compile(f"\\s*[{_CONTROLS}]+\\s*")
_ENTITIES = str.maketrans(
    {
        "&": "&amp;",
        "<": "&lt;",
        ">": "&gt;",
        **dict.fromkeys(_LOOKALIKE_OPEN, "&lt;"),
        **dict.fromkeys(_LOOKALIKE_CLOSE, "&gt;"),
        **dict.fromkeys(_INVISIBLE),
    }
)


def escape_memory_text(text: str) -> str:
    """Make stored text safe to place inside the ``<user_memory>`` block.

    ``&``, ``<`` and ``>`` become entities, so no tag (``</user_memory>``,
    ``<system-reminder>``) and no special-token string (``<|endoftext|>``) can
    appear (nor one written with brackets that look like them: ``＜``, ``‹``,
    ``〈``, ``⟨`` and the like become ``&lt;``/``&gt;`` too); line breaks and
    control characters (C0 and C1) collapse to one space so a stored value can
    never start a line of its own (and forge a heading or a fact); invisible
    characters that reorder text or spell hidden ASCII (bidi controls, Unicode
    tag characters) are dropped; surrounding whitespace is stripped.

    Args:
        text: stored text (a fact, a summary, a correction's source error).

    Returns:
        The escaped single-line text.
    """
    if _NEEDS_ESCAPE.search(text) is None:
        return text.strip()
    if any(char in text for char in _JOINING):
        text = without_invisible(text)
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
        that record what was wrong; ``""`` for a fact whose content says
        nothing (no letter or digit that shows: :func:`~deerflow_memory.models.says_nothing`).
    """
    return _fact_line(fact)[:-1]


def _fact_line(fact: Fact) -> str:
    # The hot loop of rendering: escape inline when the fast check says so.
    content = fact.content
    # Judged as stored, not as escaped: escaping removes no letter or digit but adds
    # those of "&lt;" (a fact of "<>" says nothing). Such text is refused when written.
    if says_nothing(content):
        return "\n"
    content = (
        content.strip() if _NEEDS_ESCAPE.search(content) is None else escape_memory_text(content)
    )
    source_error = fact.source_error
    if source_error and not says_nothing(source_error):  # then escaping leaves words
        wrong = escape_memory_text(source_error)
        return f"{_FACT_PREFIX[fact.category]}{content} (not: {wrong})\n"
    return f"{_FACT_PREFIX[fact.category]}{content}\n"
