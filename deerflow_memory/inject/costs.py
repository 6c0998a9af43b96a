"""Exact facts about the tiktoken cost of the memory block's lines, used to skip encodes.

Both shipped vocabularies (``o200k_base``, ``cl100k_base``) cut text into
*pieces* with a regular expression before byte-pair encoding, and BPE never
merges across pieces, so a text costs the sum of its pieces' costs and every
piece costs at least one token. Reading their patterns
(:data:`deerflow_memory.inject.tokens._PAT_STR`) gives four facts:

1. **Words.** In a text whose only line break is its last character (each
   line of the block: stored text is escaped onto one line), a piece holds
   whitespace only as its first character (``" word"``, ``" (("``) or holds
   nothing else, so no piece spans two whitespace-separated words:
   ``tokens(line) >= len(line.split())`` (Python's and the pattern's
   whitespace agree once control characters are escaped).
2. **Lines.** A piece holding a line break ends at that break or at further
   line breaks, whitespace or ``/``; it never reaches a following ``-``,
   ``#`` or ``<``. Every line of the block ends in ``"\\n"`` and the next one
   starts with ``-`` (a fact or summary), ``#`` (a heading) or ``<`` (the
   closing tag), so the lines are encoded independently:
   ``tokens(a + b) == tokens(a) + tokens(b)`` at each such junction. The one
   exception is the blank line between two sections: ``"\\n"`` after a line's
   own ``"\\n"`` joins its piece (``"\\n\\n"``, ``".\\n\\n"``), so the block's
   total pays ``tokens(last_line + "\\n")`` there instead of the two parts.
3. **Prefix.** ``"- [category]"`` followed by a space ends a piece, so a fact
   line costs ``tokens("- [category]")`` plus the cost of the rest, which
   holds at least one piece per word of its content.
4. **Line ends.** A line break right after a letter or a digit is a piece of
   its own (one more token).

These hold only for real tiktoken counts: callers use them when
:meth:`~deerflow_memory.inject.tokens.TiktokenCounter.is_exact` says so, and
count every text otherwise. ``tests/test_line_costs.py`` checks the block's
total against a direct count of its text on generated hostile documents, for
both vocabularies.
"""

from __future__ import annotations

from collections.abc import Sequence

from deerflow_memory.inject.tokens import TokenCounter

__all__ = ["block_tokens", "content_floor", "line_floor", "text_floor"]


def text_floor(line: str) -> int:
    """At least this many tokens for one escaped line of the block (facts 1 and 4 above).

    One per word, and one for a line break after a letter or digit.

    Args:
        line: a fact or summary line (one line: no line break but a final one).
    """
    floor = len(line.split())
    if len(line) > 1 and line[-1] == "\n" and line[-2].isalnum():
        floor += 1
    return floor


def line_floor(line: str, prefix_length: int, prefix_tokens: int) -> int:
    """At least this many tokens for the fact line ``line`` (``"- [category] …\n"``).

    Args:
        line: the fact line, its trailing ``"\n"`` included.
        prefix_length: characters of its ``"- [category]"`` prefix.
        prefix_tokens: exact tokens of that prefix (the rest is counted apart: fact 3).
    """
    return prefix_tokens + text_floor(line[prefix_length:])


def content_floor(content: str, prefix_tokens: int) -> int:
    """At least this many tokens for the fact line of ``content``, before it is even built.

    Printable text is left as it is by escaping apart from entities (``&``,
    ``<``, ``>``), which never lower the word count, so its words are a floor
    of the line's content words. Text with other characters (controls, line
    breaks, Unicode spaces) may lose whole words to escaping: only the one
    piece a non-empty content has is counted then.

    Args:
        content: the fact's stored content (unescaped).
        prefix_tokens: exact tokens of the fact's ``"- [category]"`` prefix.
    """
    if content.isprintable():
        return prefix_tokens + len(content.split())
    return prefix_tokens + 1


def block_tokens(
    counter: TokenCounter,
    open_tag: str,
    close_tag: str,
    blocks: Sequence[tuple[str, Sequence[tuple[str, int]]]],
) -> int:
    """Exact tokens of ``open_tag + "\\n".join(heading + lines) + close_tag`` from line costs.

    Args:
        counter: a counter whose counts are exact tiktoken counts.
        open_tag: the opening text (ends in ``"\\n"``).
        close_tag: the closing text (starts with ``<``).
        blocks: ``(heading, [(line, tokens of line), ...])`` per section, each
            with at least one line; headings and lines end in ``"\\n"``.

    Returns:
        The same number as counting the assembled text, without encoding it.
    """
    count = counter.count
    total = count(open_tag) + count(close_tag)
    last = len(blocks) - 1
    for index, (heading, lines) in enumerate(blocks):
        total += count(heading) + sum(cost for _, cost in lines)
        if index < last:
            # The blank line joins the section's last line break (fact 2).
            final_line, final_cost = lines[-1]
            total += count(final_line + "\n") - final_cost
    return total
