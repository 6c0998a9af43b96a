"""A stored fact that joins two statements of the user with "and", read as its parts.

"User works at a hospital and has asthma", "User is single and allergic to penicillin",
"User is pregnant and takes insulin": the offline extractor keeps an English sentence whole
when its clauses share the subject, and a model may write facts so too. A change that ends
one part ("I switched jobs", "I got married", "I had the baby") must not end the other, a
need least of all; the extractor withdraws such a fact part by part
(:func:`joined_parts`).

Chinese facts are not split: the extractor stores a Chinese clause as a fact of its own
("我在医院工作，有哮喘" is "用户在医院工作" and "用户有哮喘").
"""

from __future__ import annotations

import re

from deerflow_memory.update.offline.retractions import says_need

# How a second statement about the user opens after "and": a verb of the third person
# ("…and has asthma", "…and still takes insulin"), or one the extractor left as said ("User
# lives in Leeds and work at Acme").
_ADVERB = r"(?:(?:also|still|now|currently|usually|often|always|never|regularly|no longer)\s+)*"
_VERB = re.compile(
    rf"^(?P<adverb>{_ADVERB})(?:(?:is|has|takes|uses|needs|works|lives|follows|avoids|wears|keeps"
    r"|eats|drinks|can(?:not|'t)?|does(?:n't| not)|suffers|studies|teaches|owns|speaks|injects"
    r"|carries|relies|attends|goes|plays|runs|loves|likes|hates|prefers|enjoys|gets|stays|was"
    r"|had)\b|(?P<base>have|take|use|need|work|live|follow|avoid|wear|keep|eat|drink|study"
    r"|teach|own|speak|inject|suffer|rely|attend|go|play|love|like|hate|prefer|enjoy|carry"
    r"|am)\b(?=\s+\w))",  # (with what it does: not the game of "…likes chess and go")
    re.IGNORECASE,
)
_THIRD_PERSON = {
    "have": "has",
    "carry": "carries",
    "study": "studies",
    "teach": "teaches",
    "rely": "relies",
    "go": "goes",
    "am": "is",  # "User has a dog and am allergic to peanuts"
}
# A short description after "is", with no preposition ("is single", "is a nurse", "is lactose
# intolerant"; not "is allergic to peanuts", whose "and" may list the things of the need).
_DESCRIPTION = re.compile(
    r"^(?:is|'s)\s+(?!(?:\w+\s+){0,2}(?:to|of|in|at|on|for|from|with|about|by|than|as)\b)"
    r"(?:an?\s+)?[\w-]+(?:\s+[\w-]+)?$",
    re.IGNORECASE,
)
_AND = re.compile(r",?\s+and\s+", re.IGNORECASE)
_SUBJECT = "User "
_LONGEST = 300  # characters: longer facts are read whole


def joined_parts(content: str) -> tuple[str, ...]:
    """The statements a fact joins with "and", each a fact of its own; ``(content,)`` when
    it joins none.

    Args:
        content: a fact's text, "User …".

    Returns:
        "User works at a hospital and has asthma" → ("User works at a hospital",
        "User has asthma"); "User is single and allergic to penicillin" → ("User is
        single", "User is allergic to penicillin"); "User is allergic to peanuts and
        shellfish" (one need of two things) → itself alone.
    """
    if " and " not in content or not content.startswith(_SUBJECT) or len(content) > _LONGEST:
        return (content,)
    return _parts(content[len(_SUBJECT) :])


def _parts(said: str) -> tuple[str, ...]:
    for joiner in _AND.finditer(said):
        left, right = said[: joiner.start()].strip(), said[joiner.end() :].strip()
        if not left or not right:
            continue
        verb = _VERB.match(right)
        if verb is None:
            if _DESCRIPTION.match(left) is None:
                continue
            right = f"is {right}"  # "is single and allergic to X": "is allergic to X"
        elif base := verb["base"]:
            if base.casefold() == "carry" and says_need(left):
                continue  # "allergic to sesame and carry an EpiPen": one need, with its pen
            said_so = _THIRD_PERSON.get(base.casefold(), f"{base}s")
            right = f"{verb['adverb']}{said_so}{right[verb.end() :]}"
        return (_SUBJECT + left, *_parts(right))
    return (_SUBJECT + said,)
