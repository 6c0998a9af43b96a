"""The hygiene parts of the update prompt: time frames, staleness review, merges.

Kept apart from :mod:`deerflow_memory.update.prompt` so the update prompt
module stays about the conversation and the schema. :data:`HYGIENE_RULES` is
static text appended to the system prompt (provider prefix caches still
hold); :func:`review_block` lists the facts due for review in the human
message, escaped like the rest of the stored memory.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from deerflow_memory.models import Fact

__all__ = ["HYGIENE_RULES", "JSON_EXTRA_ESCAPES", "SCHEMA_KEYS", "review_block", "today_line"]

HYGIENE_RULES = """\
Time frames, review and duplicates
- When the user gives a time frame for a goal or plan ("next week", "this summer", \
"until June", "明年春节"), set "expiresAt" on that fact to the ISO date (YYYY-MM-DD) \
of the first day after the frame, reading it relative to today's date. Leave it null \
for lasting facts.
- <due_for_review> (when present) lists stored facts nobody has confirmed for a long \
time. For each: if the conversation or the rest of memory shows it still holds, put \
its id in factsToConfirm; if it changed, remove it and add the updated fact; if it is \
outdated or no longer useful, put its id in factsToRemove with a reason starting \
"retired:". When unsure, leave it alone.
- If stored facts say the same thing in different words, list their ids together in \
factsToMerge (one group per meaning); the highest-confidence one is kept."""

# Added to the answer schema shown to the model.
SCHEMA_KEYS = """\
  "factsToConfirm": ["fact_..."],
  "factsToMerge": [{"ids": ["fact_...", "fact_..."]}]"""

# json.dumps(ensure_ascii=False) escapes C0 controls, but leaves these raw: each is
# a line break to str.splitlines() or to some tokenizer, or could close/open a tag.
# Shared with prompt.py (json_text_for_prompt).
JSON_EXTRA_ESCAPES = str.maketrans(
    {
        "<": "\\u003c",
        ">": "\\u003e",
        "&": "\\u0026",
        "\x7f": "\\u007f",
        "\x85": "\\u0085",
        "\u2028": "\\u2028",
        "\u2029": "\\u2029",
    }
)


def today_line(today: str) -> str:
    """``"Today is YYYY-MM-DD."`` or ``""`` when the date is unknown."""
    return f"Today is {today}.\n" if today else ""


def review_block(facts: Sequence[Fact], age_days: float | None = None) -> str:
    """The ``<due_for_review>`` block for ``facts``; ``""`` when there are none.

    Each fact is one JSON line (``id``, ``content``, ``category``,
    ``lastConfirmed``); ``<``, ``>`` and ``&`` are escaped so stored text can
    never close the block.
    """
    if not facts:
        return ""
    lines = [
        json.dumps(
            {
                "id": f.id,
                "content": f.content,
                "category": f.category.value,
                "lastConfirmed": f.last_confirmed_at or f.created_at,
            },
            ensure_ascii=False,
        ).translate(JSON_EXTRA_ESCAPES)
        for f in facts
    ]
    note = f"not confirmed for {age_days:g}+ days" if age_days else "not confirmed for long"
    return f'<due_for_review note="{note}">\n' + "\n".join(lines) + "\n</due_for_review>\n\n"
