# ruff: noqa: E501  (regular expressions: one alternation per line reads better than wrapped)
"""Text analysis of the offline extractor: one user message in, candidate facts out.

Pure functions over strings, Chinese and English. A message is cleaned
(code, quoted text, ``>`` quote lines and emoji removed), cut into sentences,
and a sentence is skipped when it is a hypothetical ("if I were…", "maybe
I'll…", "说不定…"). The shapes of :mod:`deerflow_memory.update.offline.shaping`
come next: of a question only the statements before it are kept ("I'm celiac,
what can I order?" → "I'm celiac"); "My wife and I…", a household "we
live/rent…" and "我和老公…" are read as the user's; a taste said while venting
("I hate Mondays lol", "烦死了") is a mood and is dropped. Correction frames ("Y, not X", "I said Y, not X", "不是X，是Y")
are recognised on the whole sentence; everything else is cut into clauses at
commas and conjunctions, and each clause whose subject is the user ("I…",
"我…", or no subject after a clause by the user — Chinese drops it freely) goes
to the rules of :mod:`deerflow_memory.update.offline.rules`. Clauses about someone
else ("my friend…", "我妈妈…", "she…") are never matched.

Nothing here raises; text no rule understands yields no candidate.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

from deerflow_memory.arguments import expect_text
from deerflow_memory.capture.kin import KIN_EN, KIN_EN_OWNED
from deerflow_memory.models import FactCategory, with_plain_apostrophes
from deerflow_memory.update.offline.ellipsis import (
    Meant,
    Theirs,
    a_person_zh,
    added_to,
    instead_of,
    me_as_well,
    me_too_alone,
    need_of,
    put_right,
    said_last,
    same_need,
    split_instead,
    split_me_too,
    split_one_more,
    theirs,
    theirs_after,
    value_put_right,
    zh_things,
)
from deerflow_memory.update.offline.lists import REMARK_OVER, lists_read
from deerflow_memory.update.offline.own_words import (
    _TWO_EN_WORDS,
    OWN_WORDS_CONFIDENCE,
    described_before_so,
    implied_own_words,
    own_words,
    said_of_user,
    when_again,
)
from deerflow_memory.update.offline.retractions import (
    NO_LONGER_ALONE,
    WITHDRAWAL_UNDONE,
    match_retraction,
    need_things,
    retraction_frame,
    said_alone,
    says_need,
    singular,
    things_left,
    things_of,
    withdrawal_of,
)
from deerflow_memory.update.offline.rules import (
    Candidate,
    base_form,
    match_clause,
    match_instruction,
    no_verb_after_adverbs,
    normalise_value,
    refused,
    swap_pronouns,
)
from deerflow_memory.update.offline.shaping import (
    ZH_QUESTION,
    before_question,
    venting,
    with_others,
    without_ending,
)
from deerflow_memory.update.offline.vocabulary import (
    ACCESS_FIELD_EN,
    ADV_EN,
    ADV_ZH,
    ALLERGEN_EN,
    BODY_EN,
    CJK,
    CONDITION_EN,
    CONDITION_FIELD_EN,
    CONDITION_FIELD_ZH,
    CONDITION_ITEM_EN,
    CONDITION_ITEM_ZH,
    CONDITION_NAME_ZH,
    CONDITION_ONE_ZH,
    CONDITION_ZH,
    COUPLE_EN,
    COUPLE_ZH,
    DEMONYM_EN,
    DIET_EN,
    DIET_FIELD_EN,
    EMOJI_THING,
    FAITH_EN,
    FOR_EXAMPLE_ZH,
    KIN_ZH,
    ME_ZH,
    MEDICATION_FIELD_EN,
    MEDICATION_ITEM_EN,
    MEDICATION_NAME_EN,
    NEED_FIELD_BEFORE_EN,
    NEED_THING_EN,
    PERSON_ZH,
    SINCE_WHEN_EN,
    SUPPLEMENT_EN,
    SYMPTOM_EN,
    SYMPTOM_ZH,
    TAKEN_BACK,
    TRIED_EN,
)
from deerflow_memory.update.unsafe import unsafe_to_store
from deerflow_memory.update.validate import LINE_BREAKS, without_invisible

__all__ = ["candidates_from_text", "for_a_while", "restated", "restated_need"]

_I = re.IGNORECASE

# --- cleaning and splitting ----------------------------------------------------------------

# (a code span opens at a backtick that is no apostrophe typed as one: "I`m allergic to peanuts
# and I don`t eat pork" is no span from "`m" to "n`", read as "I'm … don't" further on)
_CODE = re.compile(r"```.*?```|(?!(?<=[A-Za-z])`(?:t|s|m|d|re|ve|ll)\b)`[^`\n]*`", re.DOTALL)
# A name said as code is the name ("I use `pandas` every day", "My editor is `neovim`"); any
# other code (a command, an expression, a block) is a hole, and no fact is read across it (it
# was cut out: "I always run `black .` before commits" stored "User always runs before commits").
_CODE_NAME = re.compile(r"`(?P<name>(?=[^`]*[A-Za-z])[\w.+#@/:~-]{1,40})`")
_HOLE = "\ue000"  # (a private-use character: no word, no mark, in no rule)
# (code before the user says something of their own ends what it follows: "`rm -rf /` I'm
# vegan", "Here's my config: `{a: 1}` I live in Berlin" lost the diet, the home)
_HOLE_THEN_OWN = re.compile(rf"{_HOLE}(?=\s*(?:(?-i:I)(?:['’](?:m|ve|d|ll))?\b|(?-i:My)\b|我))")


def _code_said(code: re.Match[str]) -> str:
    if code.group() == "``":  # (no code: the ends of a span typed with two, "``memory``")
        return " "
    name = _CODE_NAME.fullmatch(code.group())
    if name is None:
        return f" {_HOLE} "
    # (two names typed back to back are two words: "`vim``emacs`" is no "vimemacs")
    return name["name"] + " " if code.string.startswith("`", code.end()) else name["name"]


_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”|「[^」\n]*」|『[^』\n]*』|‘[^’\n]*’")
# (spaces before ">", no line break: "\s*" from each line start of a run of breaks was quadratic)
_QUOTE_LINE = re.compile(r"^[^\S\n]*>.*$", re.MULTILINE)
# Emoji and pictographs: "我对尘螨过敏😷" says the same without them. One that stands for a
# thing (a food, an animal, a person, an object; not a face, a hand or a symbol), after a
# possessive, an article, a preposition or a verb of eating or avoiding and before a verb,
# a joining word or the end, is that thing and stays: "My 🐱 is allergic to fish" lost its
# subject and stored the cat's allergy as the user's, and "I'm allergic to 🦐 and walnuts"
# stored "allergic to and walnuts". Anywhere else it decorates ("My ✨ doctor says…", "and
# 😅 I'm…", "…shellfish and 😂": attacker 331).
_EMOJI_CHARS = "\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\u2300-\u23ff\ufe0f\u200d\u20e3"
_BEFORE_I = r"(?=\s*(?-i:I|I'm|I've|I'd|My)\b)"
# (the words after which an emoji stands for a thing: a preposition, a joining word, a verb
# of eating, avoiding or liking)
_EMOJI_JOINERS = "to|of|with|and|or|eat|drink|avoid|no|like|love|hate|enjoy|prefer"
_THING_ENDS = (
    r"(?=\s*(?:[.,;:!?]|$|(?:is|are|was|were|has|have|had|'s|too|also|and|or|please|pls)\b))"
)
_EMOJI = re.compile(
    r"(?:(?P<owner>\b(?:my|your|his|her|its|our|their|the|an?) ?)"
    rf"|(?P<joined>\b(?:{_EMOJI_JOINERS}) ?"
    # (a comma after an emoji lists another: "allergic to 🍤, 🦀 and 🦞")
    f"|(?<=[{_EMOJI_CHARS}]),\\s?))"
    f"(?P<emoji>[{EMOJI_THING}][{_EMOJI_CHARS}]*)"
    # (what may follow a thing: after an owner it must, after a joining word it may not, and
    # then only a thing drawn is said: "allergic to 🥜 for years" lost the peanuts)
    f"(?(owner){_THING_ENDS}|(?P<fits>{_THING_ENDS})?)"
    f"|[{_EMOJI_CHARS}]+(?P<ends>{_BEFORE_I})?",
    _I,
)


def _emoji_said(match: re.Match[str]) -> str:
    joined = match["joined"]
    if (
        joined is not None
        and joined[0] == ","
        and not _LISTED_BEFORE.search(
            match.string, max(0, match.start() - _LISTED_LOOKS_BACK), match.start()
        )
    ):
        return ", "  # not a list after "to": "allergic to: 🥜, 🦐" is read as before
    if (
        joined is not None
        and match["fits"] is None
        and _NAMED_AFTER.match(match.string, match.end())
    ):
        # (before a name it draws the name's kind: "with 🐱 Miso" stored "with cats Miso",
        # helper 352)
        return f"{joined.rstrip()} "
    if joined is not None and (thing := _thing_drawn(match["emoji"][0])):
        return f"{joined.rstrip()} {thing}"  # "allergic to 🥜": "allergic to peanuts"
    if joined is not None and match["fits"] is None:  # no thing said: the emoji decorates
        ends = _ENDS_HERE.match(match.string, match.end()) is not None
        return f"{joined.rstrip()}{'. ' if ends else ' '}"
    word = match["owner"] or joined
    if word is not None:
        return f"{word.rstrip()} {match['emoji']}"
    # before "I…" or "My…" it ends what it follows: "Hey there 👋 I'm vegan"
    return ". " if match["ends"] is not None else " "


_ENDS_HERE = re.compile(_BEFORE_I)
_NAMED_AFTER = re.compile(r"[^\S\n]*(?!I\b)[A-Z][a-z]+\b")  # (a name: "with 🐶 Rex")
# (what a comma lists after: "to 🍤", "to 🍤, 🦀"; read back a short way only)
_LISTED_BEFORE = re.compile(
    rf"\b(?:{_EMOJI_JOINERS}) ?"
    f"[{EMOJI_THING}][{_EMOJI_CHARS}]*(?:,\\s?[{EMOJI_THING}][{_EMOJI_CHARS}]*)*$",
    _I,
)
_LISTED_LOOKS_BACK = 80  # characters


@functools.lru_cache(maxsize=256)
def _thing_drawn(emoji: str) -> str | None:
    """The thing a need may name that ``emoji`` draws, by a word of its Unicode name read
    from its end ("PEANUTS", "GLASS OF MILK": milk, "CAT FACE": cat), or ``None``."""
    if emoji in _DRAWS_ANOTHER:
        return None
    words = unicodedata.name(emoji, "").casefold().split()
    for word in reversed(words):
        if _KNOWN_THING.match(word):  # ("🐱": "allergic to cats")
            return f"{word}s" if word in _DRAWN_AS_MANY else word
        if _KNOWN_THING.match(many := f"{word}s"):  # ("🌰": "chestnuts")
            return many
    return None


_DRAWN_AS_MANY = frozenset(("egg", "cat", "dog", "crab", "horse"))
# Emoji whose name holds a thing's word but that draw (or are said for) another: fishing (🎣),
# a sport or ride (🏇, 🎠), a colour (🧡, 📙), ice cream, not cream (🍦, 🍨), wheat or hay
# fever as often as rice (🌾): attacker 349
_DRAWS_ANOTHER = frozenset(
    "\U0001f3a3\U0001f3c7\U0001f3a0\U0001f9e1\U0001f4d9\U0001f366\U0001f368\U0001f33e"
)


# A terminator takes the closing brackets after it: "(I'm vegan.) Also…" ends at ".)".
# So does a closing bracket before "I…" or "My…": "(I'm vegan) I live in Oslo."
_I_FORMS = "I|I'm|I've|I'd|I'll"  # the user as a subject, in the patterns below
_SENTENCE_END = re.compile(
    r"(?<!\.)\.++[)\]）】]*+(?=\s|$)|[!?。！？；;…]+[)\]）】]*|\n+"
    rf"|(?<![)\]）】])[)\]）】]++(?=\s+(?:{_I_FORMS}|My)\b)"
)
# A full stop that ends a word, not a sentence (see _ends_sentence): "Dr. Chen", "a sr.
# engineer", "vit. B12", "Ft. Lauderdale" ("I said no." ends one: "no" is not here).
_ABBREVIATIONS = frozenset(
    """st dr mr ms mrs mt jr sr vs etc ft vit approx dept inc ltd
    corp prof gen lt col capt ave blvd rd univ assn bros est
    """.split()  # noqa: SIM905
)
_DOTTED = re.compile(r"(?:[A-Za-z]{1,3}\.)+[A-Za-z]{1,3}")  # "e.g", "J.P", "Ph.D", "U.S"
# "D.C", "M.I.T", "Ph.D", "M.Sc" (not "bbc.com", "Vue.js"): a capital, 1-2 letters a part
_DOTTED_END = re.compile(r"(?<![\w.])(?=[A-Za-z.]*[A-Z])(?:[A-Za-z]{1,2}\.)+[A-Za-z]{1,2}$")
# What opens a sentence after a short form or a single letter, in any case ("My blood
# type is A. I also…", "…the U.K. and I…"), where a capital after "J." is otherwise a name
# going on ("Mary J. Blige", "J. Crew").
_SELF_WORDS = frozenset(_I_FORMS.casefold().split("|")) | {"my"}
_OPENERS = frozenset(
    """i i'm i've i'd i'll my me we our it it's the this that and but
    also so then thanks thank please plus oh ok okay yes no
    """.split()  # noqa: SIM905
)
# ... and these when capitalised ("…vitamin D. Sadly I…"); in lower case they go on
# ("rye etc. since I'm…"), and no word that is also a name is here ("Kelly", "Will").
_CAPITAL_OPENERS = frozenset(
    """he she they you your his her their its these those there here we're however
    besides sadly luckily unfortunately fortunately thankfully honestly actually basically
    apparently personally yeah sorry don't doesn't didn't
    """.split()  # noqa: SIM905
)
# After a capital alone that a label comes before ("vitamin C", "type A", "blood type is
# O"), a capitalised word and a verb open a new sentence ("…vitamin C. Kiwis are fine"):
# a name goes on after anything else ("My dentist J. Patel is great", "I think J. Cole is").
_LABELS = frozenset(
    """vitamin vitamins hepatitis type plan grade size group class level section option
    tier part zone gate terminal row seat block building wing floor category phase stage
    model version is was am are
    """.split()  # noqa: SIM905
)
_FINITE = frozenset(
    """is are was were am has have had do does did can could will would should may might
    must isn't aren't wasn't weren't hasn't haven't don't doesn't didn't can't won't
    """.split()  # noqa: SIM905
)
# After a dotted place in capitals that a place word comes before ("in the U.S.", "to
# D.C."), a capitalised word and a verb open a new sentence ("…the U.K. Shellfish makes me
# ill"); initials of a name go on ("I think J.K. Rowling is…": no place word before).
_PLACE_WORDS = frozenset(["the", "in", "to", "from", "near", "across", "around", "outside"])
_DOTTED_CAPITALS = re.compile(r"(?:[A-Z]\.)+[A-Z]")  # "U.S", "D.C", "U.S.A" (the last dot apart)
# a verb after that capitalised word: "gives", "makes" (not "less", "glass"), or the plural
# of one that tells a reaction ("Mushrooms make me ill"), with an object after it ("…gives
# me hives"; not "the U.S. Patent offices in…", "the U.S. Army bases overseas")
_LIKELY_VERB = re.compile(r"[a-z]{2,}[^s]s|make|give|cause|trigger|upset|bother|irritate")
_OBJECTS = frozenset("me my us our him her them it the a an".split())  # noqa: SIM905
# "For the trip, …", "quick q — …", "heads up before you plan: …": what the statement is for.
_EN_TOPIC = re.compile(
    r"^(?:for (?:the|my|our|this|that|a|an|any|tomorrow's|next week's) [^,:—–]{1,40}|"
    r"quick (?:q|question|one|note)|heads[- ]up[^,:—–]{0,40}|side note|one thing|ps|p\.s\.|"
    # a label before what the user tells ("Bad news: I'm allergic to cats", "Important: …")
    r"(?:bad|good|sad|big|great|some|the|other|terrible|awful|sad|exciting|medical|health) news|"
    r"(?:(?:also|very|super|really) )?important|confession|true story|fun fact|"
    r"(?:quick|small|health|medical|life|diet|allergy) update|"
    r"warning|reminder|(?:one more|another|(?:the )?last|(?:the )?main) thing|update|edit|disclaimer|caveat|"
    # a need's field label before a statement of the user's ("Allergies: I react to peanuts")
    r"(?:allerg(?:y|ies)|health|medical|diet|conditions?|medications?|meds|accessibility)"
    r"(?=\s*:\s*(?:I|I'm|I've|I'd|my)\b)(?!\s*:\s*(?:I(?:'m| am) (?:not sure|unsure)|I (?:don't|do not) know"
    r"|I (?:have|take|need|use) (?:none|nothing|no\b)|I (?:have|need) to\b)))"
    r"\s*(?:[,:—–]|\s-)\s*",
    _I,
)
_EN_LEADIN = re.compile(
    r"^(?:(?:oh|ah|um|uh|well|so|ok|okay|yes|yeah|yep|hi|hello|hey|also|and|but|plus|btw|by the way|fyi|"
    r"ha(?:ha)++|he(?:he)++|lol|lmao|however|besides|sadly|luckily|unfortunately|fortunately|"
    r"thankfully|basically|personally|apparently|"
    r"not that (?:it matters|it's important|it is important|you asked|anyone asked)|"
    r"not sure if (?:it|this|that) (?:matters|is relevant|helps|is important|is useful)|"
    r"not to (?:brag|complain|be picky)|not gonna lie|not going to lie|all my life|(?:all )?my (?:whole|entire) life|"
    r"just so you know|for the record|for your information|to be honest|honestly|as you know|"
    r"(?P<remember>remember|please remember|note|please note|keep in mind|don't forget|do not forget|"
    r"(?:can|could|would) you (?:please )?(?:remember|note|keep in mind)))(?:\s+that)?\s*[,!:;-]?\s+)+",
    _I,
)
# A politeness before a request or a need, or all that is said ("I hate to be picky, but…",
# "Sorry to be a pain, but:"): no taste of the user's.
_EN_POLITENESS = re.compile(
    r"^(?:I hate to|I don't mean to|I don't want to|sorry to|not to) (?:be (?:picky|fussy|a pain|"
    r"difficult|rude|that (?:guy|person)|annoying|demanding)|bother you|ask|complain|nag)\s*,?\s+but\b\W*",
    _I,
)
# A hedge or a preface before the user's own statement, at the start of any clause: "I'm
# pretty sure I'm allergic to…", "…and it turns out I have…" (not "I think I'm…", too
# unsure: "I think I'm pregnant", "I think I'm a terrible cook"),
# "Since I'm diabetic, can I…" (before a state of the user's only: "I think J. Cole
# is…", "I think my flight is at 6" stay as they are); "Background: I'm…", "Fun fact:
# my…" (before any "I …" or "my …"). What follows is read by the rules alone (_HEDGED).
_EN_TOLD_BY = (
    r"(?:my|the|our|a|an)\s+(?:(?:family|new|old|regular|own)\s+)?(?:doctor|doc|gp|allergist|"
    r"dermatologist|immunologist|gastroenterologist|nurse|dietitian|dietician|nutritionist|"
    r"specialist|physician|pediatrician|paediatrician|cardiologist|endocrinologist|"
    r"(?:allergy |blood |skin |prick )?tests?|blood\s?work|results?|scans?|biopsy)"
)
_EN_SAID_SO = (
    r"(?:says|said|told me|tells me|confirmed|has confirmed|showed|shows|found|came back saying)"
)
_EN_PREFACE = re.compile(
    r"^(?:(?:(?:I'm|I am) (?:(?:pretty|fairly|quite|almost|absolutely|\d{1,3} ?%) )?(?:sure|certain|positive)|"
    r"(?:it |as it )?turns out|it turned out|"
    r"since|because|'?cause|cuz|given that|seeing (?:as|that)|now that)"
    r"(?: that)?\s*[,:—–-]?\s+(?=(?:I'm|I am|I have|I've|I can't|I cannot|I don't|I do not)\b)|"
    r"(?:the thing (?:about me |with me )?is|(?:some )?background|(?:for |some |quick )?context|fun fact|"
    r"(?:a (?:bit|little) )?about me)(?: that)?\s*[,:—–-]?\s+(?=(?:I|I'm|I've|I'd|my)\b)|"
    # a regret said before what follows, no fear: "I'm afraid I can't make it", "I'm afraid I'm vegan"
    r"(?:I'm|I am|Im) afraid(?: that)?\s*,?\s+(?=(?:I|I'm|I've|I'd|I'll|im|ive|my|we|it|this|that|there|you)\b))",
    _I,
)
# The main clause after a lead clause without a comma ("Because I'm vegan I need B12"): the
# two are not told apart, so the lead is kept and the whole is read as before.
_EN_MAIN_CLAUSE = re.compile(r"\s(?:I|I'm|I've|I'd)\s")
# A lead clause that describes the user without "I": said as "I …", the rules read it.
# "Being gluten intolerant, which beers…" → "I'm gluten intolerant" (not "Being honest, …").
_EN_BEING = re.compile(
    r"^being (?!(?:honest|fair|realistic|serious|frank|careful|practical|sure|safe|here|there|"
    r"able|told|asked|so|such|that|this|it|the|my|your|his|her|their|our|with|in|on|at|"
    r"from(?!\s+(?-i:[A-Z]))|for|"
    r"like|as|too|very|really|quite|just|new|late|early|stuck|away|busy|nice|kind|polite|"
    r"curious|lazy|bored|tired|cheap|smart|clever|stupid|silly|picky)\b)(?=\S+(?:\s+\S+){0,5}$)"
    r"(?!.*\b(?:is|are|was|were|has|have|can|will|would|makes?|feels?|sucks)\b)",  # "Being a parent is hard"
    _I,
)
# A lead clause naming what the user lives with: "With my bad back, what chair…" → "I have a bad
# back", "With my asthma, is it safe…" → "I have asthma" (not "With my budget, …").
_EN_WITH_MY = re.compile(
    # (each word once in the list, and at most three: "dodgy" and "weak" listed twice, a run of
    # them was tried split every way, "With my " + "dodgy " * 30 + "x, …" for hours: helper 360)
    r"^with my (?P<what>(?P<part>(?:(?:bad|weak|injured|sore|dodgy|bum|broken|stiff|arthritic|"
    rf"herniated|slipped|torn|fragile|sensitive) ){{1,3}}(?:{BODY_EN}))|(?:{CONDITION_EN}))$",
    _I,
)
# …said with "a" when it ends on one part of the body ("a bad hip", "a herniated disc"), not on
# what has none ("bad hearing", "sensitive skin", "bad knees"; helper 359).
_EN_ONE_PART = re.compile(
    r"\s(?:back|knee|hip|ankle|wrist|shoulder|neck|heart|stomach|liver|gut|disc|foot|leg|arm|"
    r"elbow|spine|joint|kidney|lung|eye|ear|bladder|immune system|thyroid)$",
    _I,
)
# "As someone who doesn't drive, how…" → "I don't drive"; "As a person with ADHD" → "I have ADHD".
_EN_AS_ONE = re.compile(
    r"^as (?:someone|somebody|a person|one|a (?:guy|woman|man|girl|mom|mum|dad|parent)) "
    r"(?:(?P<with>with)|who(?:'s| is)|who (?P<verb>has|doesn't|does not|can't|cannot|never|only|"
    r"always|hates|loves|lives|works|eats|drinks|uses|suffers from|struggles with|gets)) "
    r"(?=\S+(?:\s+\S+){0,6}$)",
    _I,
)
_AS_I = {"has": "I have", "does not": "I do not", "suffers from": "I suffer from",
         "struggles with": "I struggle with"}  # fmt: skip
# Inside a question: "…for someone with a bad knee like me?" → "I have a bad knee", "…a
# left-handed person like me…" → "I'm left-handed", "a 40-year-old woman like me" → "I'm a…".
_EN_LIKE_ME = re.compile(
    r"\b(?:someone|somebody|a person|people) with (?P<with>(?:[\w'-]+ ){0,4}?[\w'-]+) like me\b|"
    r"\b(?P<article>an?) (?P<what>(?:[\w'-]+ ){0,3}?[\w'-]+) (?P<who>person|woman|man|guy|girl|lady|mom|"
    r"mum|dad|parent|student|beginner|vegan|vegetarian|diabetic) like me\b",
    _I,
)


# What a doctor or a test told the user, or the user found out, is the user's need ("My
# allergist said I'm allergic to…", "The tests showed I have celiac disease", "I just found
# out I'm allergic to latex", "医生说我对青霉素过敏", "我发现我对芒果过敏"): only a need is read
# so, never a withdrawal (a doctor's "no longer" is the user's to say) or another fact ("The
# tests showed I have two kids"); what anyone else says of the user stays unsaid ("My wife
# says I'm stubborn"). See _TOLD.
_EN_TOLD_BY = (
    r"(?:my|the|our|a|an)\s+(?:(?:family|new|old|regular|own)\s+)?(?:doctor|doc|gp|allergist|"
    r"dermatologist|immunologist|gastroenterologist|nurse|dietitian|dietician|nutritionist|"
    r"specialist|physician|pediatrician|paediatrician|cardiologist|endocrinologist|"
    r"(?:allergy |blood |skin |prick )?tests?|blood\s?work|results?|scans?|biopsy)"
)
_EN_SAID_SO = (
    r"(?:says|said|told me|tells me|confirmed|has confirmed|showed|shows|found|came back saying)"
)
_EN_TOLD = re.compile(
    rf"^(?:{_EN_TOLD_BY}\s+(?:(?:just|recently|finally|also|has|have)\s+)?{_EN_SAID_SO}"
    r"|I(?:'ve| have)?\s+(?:(?:just|recently|finally|only|then)\s+)?(?:found out|learned|learnt|"
    r"discovered|realized|realised))(?: that)?\s*[,:—–-]?\s+(?=I\b|I'm\b|I've\b)",
    _I,
)
# "My doctor told me to avoid gluten": "I need to avoid gluten" (of food, a drink or a drug).
_EN_LEFT_OUT = (
    rf"(?:{NEED_THING_EN}|salt|sodium|sugar|sweets|carbs|fat|fatty food|fried food|processed food|"
    r"smoking|drinking|red meat)"
)
_EN_LEAVE_OUT = (
    r"(?=(?:avoid|stay away from|steer clear of|keep off|lay off|go easy on|cut out|cut (?:down|back) on|"
    r"eat less|drink less|limit|reduce|give up|quit|stop eating|stop drinking|"
    rf"not eat|not drink)\s+(?:any\s+|all\s+)?{_EN_LEFT_OUT}\b)"
)
# …or forbade it: "My doctor won't let me eat sugar", "The doctor banned me from caffeine",
# "My GP says no more alcohol for me": "I need to avoid sugar".
_EN_FORBIDDEN = re.compile(
    rf"^{_EN_TOLD_BY}\s+(?:(?:just|recently|also|has|have)\s+)?(?:(?:won't|will not|doesn't|does not|"
    r"wouldn't) (?:let|allow) me (?:to )?(?:eat|drink|have|take)|(?:banned|forbade|forbidden|barred) me "
    r"from(?: eating| drinking| having)?|(?:says|said) no(?: more)?)\s+(?:any\s+|all\s+)?"
    rf"(?P<thing>{_EN_LEFT_OUT})(?:\s+(?:for me|anymore|any more|at all))*\W*$",
    _I,
)
_EN_TOLD_TO = re.compile(
    rf"^{_EN_TOLD_BY}\s+(?:(?:just|recently|also|has|have)\s+)?(?:told|tells|advised|advises|"
    rf"asked|wants|recommended|recommends)\s+me\s+to\s+{_EN_LEAVE_OUT}",
    _I,
)
_EN_NEED_TO = re.compile(
    rf"I\s+(?:really\s+)?(?:need to|have to|should|must|ought to|am supposed to|'m supposed to)\s+{_EN_LEAVE_OUT}",
    _I,
)
# …in Chinese: "医生说我对青霉素过敏", "检查结果显示我对尘螨过敏", "我发现我对芒果过敏"; and
# "医生让我少吃盐" ("我需要少吃盐"), "医生叫我别吃海鲜" ("我不能吃海鲜").
_ZH_TOLD = re.compile(
    r"^(?:(?:我的)?(?:医生|大夫|过敏科(?:医生)?|营养师|检查(?:结果)?|化验(?:结果)?|体检(?:结果)?|"
    r"过敏原?(?:检测|测试)(?:结果)?|报告)(?:也|都|已经)?(?:说|告诉我|跟我说|显示|表明|确诊)了?"
    r"|我(?:最近|后来|才|刚|刚刚|今天)*(?:发现|知道|得知|查出来?)了?|原来)[，,：:]?\s*(?=我)"
)
_ZH_TOLD_TO = re.compile(
    r"^(?:我的)?(?:医生|大夫|营养师)(?:也|都|已经)?(?:(?P<forbid>不让|不许|禁止|不准)我|让我|叫我|建议我|"
    r"要我|嘱咐我|告诉我要?|说我(?:得|要|需要|必须|应该)|说(?:我)?(?=别|不要|不能))"
    r"(?P<dont>别|不要|不能)?(?P<less>少)?(?P<verb>吃|喝|戒)"
    r"(?P<thing>[^，,。！？!?；;\s]{1,10})$"
)


# Doubt of what was told, in its sentence or the next two ("…, but I doubt it", "She was wrong.",
# "…a false positive", "但我不信", "误诊了"): nothing told is read then.
# (Of the diagnosis, not of anything: "I doubt it", not "I doubt the pills will help"; "I
# outgrew it", not "My son outgrew his allergy"; "I still eat it", not "I still do a lot of
# baking"; "我不信", not "我妈不信".)
_DOUBTED = re.compile(
    r"\b(?:doubt(?:s|ful)?(?:\s+(?:it|that|this|the (?:diagnosis|test|results?)))?"
    r"(?=\s*(?:$|[.!?,;)]|\s+(?:but|though|honestly|lol|haha|tbh|tho)\b))"
    r"|don't (?:believe|buy|trust|think so)|do not believe|not (?:true|convinced)|"
    r"false (?:positive|alarm)|misdiagnos\w*|but I(?:'m| am) not(?!\s+(?:sure|certain|positive))|"
    r"I'm not(?: though| really)?(?=\W*$|[.!])|I(?:'ve| have)? (?:grew out|outgrew|outgrown)|"
    r"I still (?:eat|have|drink) (?:it|them|that)\b|I still do(?=\W*$|[.!,])|"
    r"is that (?:true|right|so)|really\?|disagree|I(?:'m| am) (?:\w+ )?(?:skeptic|sceptic)\w*|"
    r"(?:skeptic|sceptic)\w* (?:of|about) (?:it|that|this|the (?:diagnosis|test|results?))\b|"
    r"hard to believe(?:\s+(?:it|that))?(?=\s*(?:$|[.!?]))|"
    r"(?:lol|haha),? no(?!\s+joke)|yeah,? right|for years with no)|"
    r"(?<![妈爸他她们婆公子友人])不(?:相)?信|误诊|其实不是|其实没有|其实我没有|假阳性|阴性|怀疑|真的吗",
    _I,
)
# Words of doubt that say it of anything ("Something went wrong with my car", "I made a
# mistake at work", "我算错了账"): in its own sentence they doubt what was told; in the next
# two only when that sentence speaks of it (:data:`_OF_WHAT_WAS_TOLD`: "She was wrong.",
# "Turns out it was nothing.", "Wrong!", "医生搞错了", "结果不准").
_DOUBTED_IF_OF_IT = re.compile(
    r"\b(?:wrong(?!\s+with)|mistaken|mistake|(?:turns|turned) out)\b|搞错|弄错|错了"
    r"|(?<!说)不准(?![我吃喝用再碰])|后来发现|并不是",  # (not "不准我喝牛奶", "说不准")
    _I,
)
_OF_WHAT_WAS_TOLD = re.compile(
    r"^\W*(?:(?:but|and|so|well|honestly|though|actually|i think|i'm (?:pretty )?sure|pretty sure"
    r"|i bet|maybe|probably|obviously|clearly)\W+)*"
    r"(?:(?:she|he|they|it|that|this|which)\b|the (?:doctor|doc|allergist|test|tests|results?|lab"
    r"|diagnosis|nurse|gp|dermatologist|specialist|guy|man|woman|lady)\b|(?:my )?(?:doctor|doc|allergist|gp)\b"
    r"|(?:turns|turned) out\b|wrong\b|(?:a |an |total |big )?(?:mistake|error)\b"
    r"|(?:my )?\w+ (?:thinks|says|said|thought) (?:that )?(?:she|he|they|it|that)\b)"
    r"|医生|大夫|检查|结果|报告|化验|诊断|[他她它这那]|^\W*(?:其实|我觉得|我认为|我感觉|感觉)?(?:搞错|弄错|错|不准)",
    _I,
)


def _doubts_it(sentence: str, told_in_it: bool) -> bool:
    """Whether ``sentence`` doubts what a doctor or a test told (said in it, or in the
    sentence before it or the one before that)."""
    if _DOUBTED.search(sentence):
        return True
    return _DOUBTED_IF_OF_IT.search(sentence) is not None and (
        told_in_it or _OF_WHAT_WAS_TOLD.search(sentence) is not None
    )


# How it was found out, after the need: no part of it.
_HOW_TOLD = re.compile(
    r"\s+(?:from|through|via|thanks to|by)\s+(?:my|the|a|an|his|her|our|google|reddit|chatgpt)\b.*$",
    _I,
)
# What a doctor may tell the user to eat less of that no vocabulary names as a thing.
_ZH_LESS_OF = re.compile("(?:盐|油|糖|甜食?|咸的?|辣的?|油腻的?|肉|酒|咖啡|浓茶|烟)")


def _told_need(text: str, zh: bool) -> str | None:
    """The user's words of what a doctor or a test told them, or they found out
    (:data:`_EN_TOLD`, :data:`_ZH_TOLD`), when they state a need; else ``None``."""
    told = (_ZH_TOLD if zh else _EN_TOLD).match(text)
    if told is None or (not zh and _EN_MAIN_CLAUSE.search(text, told.end() + 1)):
        return None
    said = _HOW_TOLD.sub("", text[told.end() :])  # "…allergic to sesame from my mom"
    need = match_clause(_zh_normalise(said) if zh else _en_normalise(said), zh)
    ok = need is not None and need.constraint and need.retract is None and not need.retract_slots
    return said if ok else None


def _told_to(text: str, zh: bool) -> str | None:
    """What a doctor told the user to leave out, as the user would say it ("My doctor told me
    to avoid gluten" → "I need to avoid gluten", "医生叫我别吃海鲜" → "我不能吃海鲜"), or ``None``."""
    if zh:
        told = _ZH_TOLD_TO.match(text)
        thing = told["thing"] if told else ""
        if told is None or "药" in thing or not (zh_things(thing) or _ZH_LESS_OF.fullmatch(thing)):
            return None  # ("别吃太多", "别吃药": no thing to leave out)
        if told["verb"] == "戒":  # "医生让我戒酒": "我需要戒酒"
            return None if told["dont"] or told["less"] or told["forbid"] else f"我需要戒{thing}"
        if told["forbid"]:  # "医生不让我吃糖": "我不能吃糖" (not "…不让我别吃", "…不让我少吃")
            return None if told["dont"] or told["less"] else f"我不能{told['verb']}{thing}"
        if told["dont"]:
            return f"我不能{told['verb']}{thing}"
        return f"我需要少{told['verb']}{thing}" if told["less"] else None
    if (forbidden := _EN_FORBIDDEN.match(text)) is not None:
        return f"I need to avoid {forbidden['thing']}"
    told = _EN_TOLD_TO.match(text)
    if told is None and (said := _EN_TOLD.match(text)) is not None:
        told = _EN_NEED_TO.match(text, said.end())  # "My doctor said I need to avoid caffeine"
    return None if told is None else f"I need to {text[told.end() :]}"


def _need_said_short(fragment: str, before: str | None) -> str | None:
    """``fragment``, a need said without its subject, said as the user would ("Allergic to
    peanuts" → "I'm allergic to peanuts", "Nut allergy." → "I have a nut allergy", "so no raw
    fish" after the user's need ``before`` → "I avoid raw fish"), or ``None``."""
    if _EN_DROPPED_NEED.match(fragment):
        return "I'm " + fragment[:1].lower() + fragment[1:]
    if (noun := _EN_DROPPED_ALLERGY.match(fragment)) is not None:
        one = (noun["one"] or noun["one2"]) and not noun["article"]
        return ("I have a " if one else "I have ") + fragment[:1].lower() + fragment[1:]
    if (
        before is not None
        and (no := _EN_SO_NO.match(fragment)) is not None
        and (need := match_clause(before, False)) is not None
        and (need.constraint or _EN_EXPECTING.search(need.content) is not None)
    ):
        return f"I avoid {no['x']}"  # "I'm pregnant, so no raw fish": "User avoids raw fish"
    return None


def _without_preface(text: str) -> str:
    """``text`` without the hedge or preface it opens with (:data:`_EN_PREFACE`), if any."""
    preface = _EN_PREFACE.match(text)
    if preface is None or _EN_MAIN_CLAUSE.search(text, preface.end() + 1):
        return text
    return text[preface.end() :]


# A bare "I'm 8" is an age unless the message asks for another number: a size, a level, a
# score ("Dress size? I'm 8", "On a scale of 1 to 10, I'm 7", "Pain level? I'm 6").
# (an age said as a decade or a generation is no other number: "I'm in my early 50s. How do I
# ease back pain?", "I'm Gen X. What level…", "我是80后")
_AGE_WORD = re.compile(
    r"\b(?:years?|yrs?|yo|y/o|y\.o\.|old|turned|age)\b|岁|\bin my (?:(?:early|mid|late)[- ]?)?"
    r"(?:teens|\w+ties|[1-9]0['’]?s)\b|\bgen(?:eration)?[ -]?(?:[xyz]|alpha)\b|"
    r"\b(?:millennial|zoomer|(?:baby )?boomer|xennial)s?\b|\d0后|[五六七八九零]零后",
    re.IGNORECASE,
)
_NOT_AN_AGE = re.compile(
    r"\b(?:size|level|scale|score|rate|rating|rank|number|pain|out of|points?|place|grade|floor|"
    r"seat|room|table|shoe|dress|ring|jersey|weight|height|handicap)\b|/\s*10\b",
    re.IGNORECASE,
)


def _not_an_age(sentence: str, asks_a_number: Callable[[], bool]) -> bool:
    """Whether a bare number the sentence gives as the user's is some other number
    (``asks_a_number``: whether the message names one, looked for once per message: each
    age said would read the whole message again, N² time on a long one)."""
    return _AGE_WORD.search(sentence) is None and asks_a_number()


def _as_statement(fragment: str) -> str:
    """An English lead clause or cleft about the user said as "I …"; other text unchanged."""
    if (plain := _en_cleft(fragment)) != fragment:  # "…, it's me who is allergic to shrimp"
        return plain
    if _EN_BEING.match(fragment):
        return "I'm " + fragment[6:]
    if (with_mine := _EN_WITH_MY.match(fragment)) is not None:  # "With my bad back, …"
        a_part = _EN_ONE_PART.search(with_mine["what"]) is not None  # not "bad knees"
        return f"I have {'a ' if a_part else ''}{with_mine['what']}"
    if (one := _EN_AS_ONE.match(fragment)) is None:
        return fragment
    rest = fragment[one.end() :]
    if one["with"]:
        return "I have " + rest
    verb = one["verb"]
    if verb is None:
        return "I'm " + rest
    said = _AS_I.get(verb.casefold())
    if said is None:  # "doesn't" → "don't", "loves" → "love"
        said = "I " + ("don't" if verb.casefold() == "doesn't" else base_form(verb))
    if verb.casefold() in ("never", "only", "always"):  # "who never cooks" → "I never cook"
        first, _, tail = rest.partition(" ")
        rest = f"{base_form(first)} {tail}".strip()
    return f"{said} {rest}"


_EN_STANDING_ASK = re.compile(
    r"(?:can|could) you (?:please )?(?:always|never) (?:reply|respond|answer|write|talk|speak|use) "
    r"(?:in|using|like)\b"
    # "Can you keep answers short from now on?": asked once, for good
    r"|^(?:please\s+)?(?:can|could|would|will) you\b.{4,90}?,?\s+(?:from now on|going forward"
    r"|moving forward|in (?:the )?future)(?:,?\s*please)?\W*$",
    _I,
)
_EN_AUXILIARY_FIRST = re.compile(r"\s*(?:do|does|did|would|will|can|could|should|might)\b", _I)


# A trip or a move the user's question takes as known: "What should I pack for my trip to
# Norway next month?" → "I'm planning a trip to Norway next month" (a named place only: not
# "my trip to the shops", "my move to the new server").
_EN_MY_PLAN_TO = re.compile(
    r"\bmy (?:upcoming |next |first |big |long |short |(?:[\w-]+-(?:day|week|month)|week-long|"
    r"month-long|weekend|summer|winter|family|solo|road|ski|business|work) )?"
    r"(?P<kind>trip|vacation|holiday|honeymoon|visit|move|relocation) to "
    # (a saint's or a mountain's abbreviation opens the name: "St. Lucia", "Mt. Fuji")
    r"(?P<place>(?:(?-i:St|Mt|Ft|Pt|Ste)\. ?)?(?-i:[A-Z])[\w'-]+(?: (?-i:[A-Z])[\w'-]+){0,2})"
    r"(?P<when> (?:next (?:week|weekend|month|year|summer|spring|fall|autumn|winter)|this (?:summer|"
    r"spring|fall|autumn|winter|weekend|month|year)|in (?:(?-i:[A-Z])[a-z]+|the (?:spring|summer|fall|"
    r"autumn|winter)|(?:two|three|four|a few|\d+) (?:days|weeks|months))|tomorrow))?",
    _I,
)
_MOVES = frozenset(("move", "relocation"))
# …not one gone by: "Do you think my trip to Rome was too short?", "…after my trip to Oslo last May"
_EN_GONE_BY = re.compile(r"\b(?:was|were|went|did|had|last|ago|after|since|back from)\b", _I)


# …and in Chinese, said first: "我去日本旅游要带什么？" → "我去日本旅游" (a trip, a stay abroad
# or a work trip; not "我去公园玩": an outing)
_ZH_PLAN_FIRST = re.compile(
    r"^我(?:下个?月|下周|明年|今年|年底|月底|暑假|寒假|国庆|春节|五一|十一)?(?:要|准备|打算|计划|想)?去"
    r"[\u4e00-\u9fffA-Za-z]{1,8}?(?:旅游|旅行|度假|出差|留学|度蜜月|自驾游?)"
)


def _plan_asked(sentence: str, zh: bool) -> str:
    """The trip or move a question takes as known ("" when it names none): see _EN_MY_PLAN_TO
    and _ZH_PLAN_FIRST."""
    if zh:
        return plan.group() if (plan := _ZH_PLAN_FIRST.match(sentence)) is not None else ""
    if "my " not in sentence.casefold() or (plan := _EN_MY_PLAN_TO.search(sentence)) is None:
        return ""
    if _EN_GONE_BY.search(sentence):
        return ""
    when = plan["when"] or ""
    if plan["kind"].casefold() in _MOVES:
        return f"I'm moving to {plan['place']}{when}"
    return f"I'm planning a {plan['kind'].casefold()} to {plan['place']}{when}"


def _described_like_me(sentence: str) -> str:
    """What a question says the user is by "… like me" ("" when it says nothing so)."""
    if (
        "like me" not in sentence.casefold()
        or _EN_AUXILIARY_FIRST.match(sentence)  # "Do people with money like me?": "like" the verb
        or (like := _EN_LIKE_ME.search(sentence)) is None
    ):
        return ""
    if like["with"]:
        return "I have " + like["with"]
    if like["who"].casefold() == "person":
        return "I'm " + like["what"]
    return f"I'm {like['article']} {like['what']} {like['who']}"


_EN_MARKER = re.compile(
    r"^(?:(?:actually|no(?![\w -]{2,30}? for me\b)|nope|correction|sorry|oops|wait|in fact|to clarify|let me clarify|to be clear|"
    r"i mean|i meant to say|as i said|like i said)\s*[,!:;-]?\s+)+",
    _I,
)
# A statement taken back: by a sentence of its own ("Just kidding."), or by a clause
# at its end ("…, jk", "…（开玩笑的）", "…, or at least I was").
_TAKEN_BACK = re.compile(
    rf"[\s(（—–-]*(?:lol\s+|haha\s+|哈{{2,}}[，,]?\s*)?(?:{TAKEN_BACK}|怎么可能|[…。.]*才怪)(?:\s+about\s+(?:the\s+|my\s+|that\s+)?(?P<about>[\w' -]{{1,40}}?))?"
    r"(?:[\s,]+(?:I'm not|I am not))?[\s)）.!！。~～]*",
    _I,
)
_TAKEN_BACK_AFTER = re.compile(
    rf"[,，;；(（\s]\s*(?:(?:哈{{2,}}[，,]\s*)?(?:{TAKEN_BACK}|怎么可能)"
    r"|(?<=[(（])(?:joking|sarcasm)|/s|"
    r"or\s+at\s+least\s+I\s+(?:was|used\s+to(?:\s+be)?)|or\s+so\s+I\s+thought|至少以前是)"
    r"(?:\s+(?:lol|lmao|haha))*(?:[\s,]+(?:I'm not|I am not))?[\s)）.!！。~～]*$",  # "(jk lol)"
    _I,
)
# Sarcasm that takes back one clause, not the sentence: "…, said no one ever", "（反话）"
# and "…才怪" the clause before them, or "…才怪" its own ("我对花生过敏，餐厅会注意才怪":
# the allergy stands; "它的名字叫才怪" is a name). A clause ends at a comma or a joiner.
_SARCASM_MARK = (
    r"(?:said\s+(?:literally\s+)?(?:no\s*one|nobody)(?:,?\s+ever)?|[(（]\s*(?:反话|sarcasm)\s*[)）]"
    r"|(?<![叫是])才怪(?:呢|啦|了|咧|嘞)?)"
)
# A need denied plainly: "Wait, I'm not allergic to shrimp", "不对，我对虾不过敏".
# With a mark of a correction ("Actually, I'm not allergic to shrimp", "不对，我对虾不过敏")
# it also withdraws a need stored before (a bare denial may say what was never stored).
# (an apology after it marks it too: "I'm not allergic to shrimp, sorry", "…不过敏，抱歉")
_DENIES_NEED = re.compile(
    r"(?P<mark>(?:(?:wait|actually|no|sorry|oh|hmm|oops|well)[,!.]?\s*)*)I'?m not"
    r" (?:(?P<kind>allergic|intolerant|sensitive) to (?P<x>[\w' -]{1,40}?)"
    rf"|(?P<z>{NEED_THING_EN}) (?P<kind_after>intolerant|allergic|sensitive))(?: after all)?"
    r"(?:,\s*(?P<after>sorry|my bad|oops|whoops|my mistake))?[.!]?"
    r"|(?P<mark2>不对|等等|其实|哦|不是|抱歉|不好意思|对不起)?[，,]?\s*我对(?P<y>[^，,。！？]{1,12}?)"
    r"(?:并|其实)?不过敏(?:[，,]\s*(?P<after2>抱歉|不好意思|对不起|我说错了|说错了))?[。！!]?",
    _I,
)
# The kinds of need a denial names (the last: a need of no such word, "对虾过敏"), each
# found by its stem ("intolerance" and "intolerant" are one kind); a value said with its
# kind's noun ("gluten intolerance") is of the thing alone.
_NEED_KINDS = ("intolerant", "allergic", "sensitive", "")
_KIND_STEMS = (("intoleran", "intolerant"), ("allerg", "allergic"), ("sensitiv", "sensitive"))
_NEED_NOUN = re.compile(r"\s+(?:intolerance|allergy|allergies|sensitivity)$")


def _kind_of(content: str) -> str:
    """The first of :data:`_NEED_KINDS` a need's wording holds ("" for none)."""
    folded = content.casefold()
    return next((kind for stem, kind in _KIND_STEMS if stem in folded), "")


_CORRECTION_MARK = re.compile(
    r"wait|actually|no\b|sorry|oops|whoops|my bad|my mistake|不对|其实|不是|抱歉|不好意思|对不起|"
    r"我?说错了",
    _I,
)
# What says a withdrawal is not so, after it ("My kiwi allergy is gone, yeah right", "…, I
# wish", "…, until it didn't", "我的芒果过敏好了，可惜没有") or as the next sentence ("…gone.
# Not!", "…gone... I wish"): the need stands.
_NOT_SO = r"(?:yeah,?\s+right|in\s+(?:my|your)\s+dreams|I\s+wish|until\s+it\s+didn't|not|supposedly|allegedly|or\s+so\s+(?:they|people)\s+say|我希望|可惜没有|想得美|做梦吧?|据说|听说)"
_NOT_SO_AFTER = re.compile(rf"[,，]\s*{_NOT_SO}[\s.!！。~～]*$", _I)
_NOT_SO_ALONE = re.compile(rf"\s*{_NOT_SO}[\s.!！。~～]*", _I)
# A hedge said after a withdrawal ("My kiwi allergy is gone, I think", "…anymore, not sure",
# "我的芒果过敏好了，我觉得") or as the next sentence ("…gone. Maybe.", "…好了。不确定。"): the
# user does not say it is over, so nothing is withdrawn (a stored need goes only when the
# user says so; "I think my kiwi allergy is gone" already withdrew nothing). The hedge
# itself is no fact ("User is not sure"). A statement said with it stays, as before.
_EN_HEDGE = (
    r"(?:I\s+(?:really\s+)?(?:think|guess|believe|suppose|reckon|hope|assume|imagine|doubt|suspect|"
    r"gather)(?:\s+(?:so|not|it))?|I\s+(?:don't|do\s+not)\s+think\s+so|I'd\s+say|I'm\s+guessing"
    r"|(?:I'm\s+|I\s+am\s+)?not\s+(?:(?:really|totally|entirely|completely|quite|exactly|fully|so|that|too|100%)\s+)?"
    r"(?:sure|certain|positive)|not\s+that\s+I'm\s+sure|(?:I'm\s+)?unsure"
    r"|I\s+(?:don't|do\s+not)\s+know|I\s+dunno|dunno|idk|(?:it\s+)?(?:seems|looks)(?:\s+like)?"
    r"|I\s+feel\s+like|I\s+hear|could\s+be|might\s+be|we'll\s+see|who\s+knows"
    r"|(?:maybe|perhaps|probably|possibly|hopefully|presumably)(?:\s+not)?|fingers\s+crossed)"
    r"(?:\s+(?:though|tbh|anyway|yet|lol|haha))*"
)
_ZH_HEDGE = (
    r"(?:我(?:也)?(?:觉得|想|猜|估计|感觉|认为)(?:是)?(?:的|吧|是的|是吧)?|我?(?:也|还)?(?:不太?|不敢)确定|我?不知道"
    r"|说不准|不一定|谁知道呢?|(?:好像|应该|大概|可能|也许|或许|估计|似乎|貌似|说不定)(?:是|吧|是吧)?|吧)"
)
# A clause after a comma that says what was said over is so for now only, or still treated.
_ZH_NOT_FOR_GOOD = re.compile(
    r"[，,][^，,。！!？?]*(?:暂时|还要|还得|继续|观察|复发|又会|又有|可能又|过几天|随时)"
)
# A medication given up for a while only, said anywhere in the message: "I don't take warfarin
# anymore, until after the surgery", "My doctor took me off it. Just for a week.", "我已经停了
# 阿司匹林，手术后再吃". The stop withdraws nothing then (a need kept is the safer error); only
# a medication stopped is read so (attacker 318: "I'm not vegan anymore. Until the pandemic I
# was." and "我不住在北京了，等结果出来再告诉你" are over for good).
_HOW_MANY = r"a|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|several|\d+"
_FOR_A_WHILE = re.compile(
    # (not "Until the pandemic I was": a time gone by; not "while I'm thinking of it")
    r"\b(?:(?:until|till|til)\b(?!\s+(?:last|recently|(?:19|20)\d\d)\b)"
    r"(?![^.!?,]{0,80}\b(?:I was|I did|I had|I used|came|was|were|got|went)\b)"
    r"|while (?:I'm|I am) (?:pregnant|breastfeeding|nursing|recovering|away|travell?ing|in hospital)"
    r"|during (?:the|my) (?:pregnancy|surgery|operation|procedure|treatment|recovery|fast|trip)"
    r"|before|pending|temporar(?:y|ily)|for now|for the time being"
    rf"|for (?:{_HOW_MANY}|the next) (?:\w+ )?(?:days?|weeks?|months?)"
    rf"|(?:{_HOW_MANY}) (?:days?|weeks?|months?|fortnight)(?! ago)"
    r"|(?:a|short|little) (?:break|pause)|restart\w*|resum\w*|back on|next (?:week|month|year)"
    r"|this (?:week|month)|over the weekend"
    r"|for (?:my|the|an?) (?:\w+ )?(?:surgery|operation|procedure|extraction|scan|test|colonoscopy|"
    r"endoscopy|biopsy|dental work|tooth extraction))\b"
    r"|暂时|先停|先不|停几天|停[一二两三四五六七八九十几\d]+(?:天|周|个?星期|个?月)|手术|复查|检查|期间|拔牙|胃镜|肠镜|体检"
    r"|(?<!不)(?<!不用)再(?:吃|用)|等[^。！？]{0,12}再"
    # "医生说下周恢复", "下个月重新吃", "恢复服用" (not "身体恢复了", "血糖已经恢复", "肝功能还没
    # 恢复", "慢慢恢复吧": getting well; a time when, or what is taken, goes with it)
    r"|过几天|这几天|这阵子|一阵子|一段时间|重新(?:吃|用|服)|恢复(?:吃|用|服)"
    r"|(?:下(?:周|个?星期|个?月)|明天|后天|过几天|之后|以后|再|月底|周末|术后)恢复(?!了|得|过来|健康|正常|好|中)",
    re.IGNORECASE,
)
# A thing given up, said first: "吉他我不学了", "咖啡我已经戒了", "日语我放弃了", "日本不去了"
# (not a time or a meal: "今天我不吃了", "晚饭我不吃了" say no habit).
_ZH_TOPIC_FIRST = re.compile(
    r"^(?P<obj>(?!今天|明天|昨天|现在|以后|这次|下次|这|那|[早午晚]?饭|[早午晚]餐|他|她|它|你|我)"
    r"[\u4e00-\u9fffA-Za-z]{1,8}?)(?:我|(?=不去))(?P<adv>(?:已经|早就|现在|也|都)*)"
    r"(?P<verb>不(?:再)?(?:学|喝|吃|抽|玩|打|练|弹|追|看|用|做|去)|戒(?:掉)?|放弃)了$"
)


def _zh_said_in_order(first: re.Match[str]) -> str:
    verb = first["verb"]
    if verb.startswith("不"):
        return f"我{first['adv']}{verb}{first['obj']}了"
    return f"我{first['adv']}{verb.removesuffix('掉')}了{first['obj']}"


# A habit quit, as the rules state it ("用户戒了咖啡", "用户已经把奶茶戒掉了").
_ZH_QUIT = re.compile(
    r"^用户(?:已经|早就|现在|终于|最近)*(?:把)?戒(?:了|掉了|掉)?"
    r"(?P<x>咖啡|奶茶|可乐|碳酸饮料|饮料|茶|酒|烟|糖|甜食|零食|夜宵|宵夜)(?:戒掉)?了?$"
)
_ZH_HABIT_VERB = {
    "烟": "抽",
    **dict.fromkeys(("咖啡", "奶茶", "可乐", "碳酸饮料", "饮料", "茶", "酒"), "喝"),
}
_FIRST_SENTENCE = re.compile(r"[^.!?。！？\n]*")
_FIRST_SENTENCE_MOST = 400  # characters of it read for a while-word


def for_a_while(message: str) -> bool:
    """Whether ``message`` opens by saying a stop is for a while only ("Just for a week.",
    "Until the surgery, then I restart.", "手术后再吃。"): said in the user's next message
    after "I stopped taking warfarin.", the medication stays (see :data:`_FOR_A_WHILE`)."""
    first = _FIRST_SENTENCE.match(message.lstrip())
    return first is not None and _FOR_A_WHILE.search(first[0][:_FIRST_SENTENCE_MOST]) is not None


# (after a comma: "…foods I don't know", "…the band Hopefully" end a fact with such words)
_HEDGE_AFTER_EN = re.compile(
    rf",\s*\b{_EN_HEDGE}[\s.!?~…]*$"
    # …or "I think" with no comma, but not as the end of a clause ("…what I think", "…than I guess")
    r"|(?<!\bwhat)(?<!\bhow)(?<!\bwho)(?<!\bthat)(?<!\bwhich)(?<!\bthan)(?<!\bso)(?<!\bas)(?<!\bwhatever)"
    r"\s+I\s+(?:think|guess|believe|suppose|reckon)[\s.!?~…]*$",
    _I,
)
_HEDGE_AFTER_ZH = re.compile(rf"(?:[,，]|\s)\s*{_ZH_HEDGE}[\s.!?！？。~～…]*$")
# Said sure after it ("…anymore, I'm pretty sure"): the statement stands, the remark is no fact
# ("…, I'm positive" is not read so, "My blood type is O, I'm positive", but after a denial:
# retractions._EN_REMARK).
_SURE_AFTER_EN = re.compile(
    r",\s*(?:I'm|I\s+am)\s+(?:(?:pretty|fairly|quite|very|totally|absolutely|100%|dead)\s+)?"
    r"(?:sure|certain)(?:\s+(?:of\s+it|about\s+(?:it|that)))?[\s.!~…]*$",
    _I,
)
_HEDGE_ALONE = re.compile(
    rf"\s*(?:(?:but|though|well|hmm+|um+|uh+|then again)[,\s]+)?{_EN_HEDGE}[\s.!?~…]*"
    rf"|\s*(?:不过|但是?|嗯+)?[,，]?{_ZH_HEDGE}[\s.!?！？。~～…]*",
    _I,
)
# Where a clause of the sarcasm's ends, besides punctuation.
_JOINERS_EN = (
    r"and|so|because|but|where|which|plus|while|who|whereas|though|that|yet|with|as well as|as|since"
    r"|then|&"
)
# (one character only where it is seldom inside a word: not 和 of 暖和, 也 of 也许, 还 of 还是)
_JOINERS_ZH = r"并且|而且|但是|所以|因为|可是|不过|然而|反而|结果|然后|甚至|同时|又|但|却"
# Characters of the clause sarcasm takes back: a longer run without a stop is a run-on whose
# other facts it would take too ("我住在北京天天堵车开心才怪"), left as said.
_SARCASM_CLAUSE = 40
_SARCASM_CLAUSE_ZH = 10  # Chinese characters: "我最喜欢周末加班了" is nine
_SARCASM = re.compile(
    rf"(?:^|(?<=[,，;；:：])|\s+(?:{_JOINERS_EN})\s+|{_JOINERS_ZH})"
    rf"(?:(?!\b(?:{_JOINERS_EN})\b|\s&\s|{_JOINERS_ZH})[^,，;；:：]){{0,{_SARCASM_CLAUSE}}}?"
    rf"(?:[,，]\s*(?:这|那)?|\s*)?{_SARCASM_MARK}[\s.!！。~～]*(?=$|[,，;；])",
    _I,
)


def _taken_back(m: re.Match[str]) -> str:
    """ "" for the clause sarcasm takes back (see _SARCASM), unless it is a Chinese run-on."""
    clause = m.group().replace("才怪", "")  # the mark itself is no part of the clause
    return m.group() if len(CJK.findall(clause)) > _SARCASM_CLAUSE_ZH else ""


# …said alone, after the sentence it takes back: only that sentence's last fact goes, when
# it is a taste ("I live in Leeds and I love traffic. Said no one ever.").
_SARCASM_ALONE = re.compile(rf"\s*(?:这|那)?{_SARCASM_MARK}[\s.!！。~～]*", _I)
_ZH_LEADIN = re.compile(
    r"^(?:(?:对了|另外|而且|并且|顺便说一下|顺便说一句|顺便提一下|补充一下|提醒一下|请记住|你要记住|帮我记住|"
    r"帮我记一下|请记一下|记住|我跟你说|跟你说一下|告诉你|说实话|老实说|然后|所以|但是|可是|同时|首先|其次)"
    r"[，,：:！!、\s]*|(?:哦|噢|嗯|啊|好的|好|还有|顺便|补充|嘿|对|不过)[，,：:！!、\s]+"
    # laughter, with or without a mark after it ("哈哈我对花生过敏"), taken whole
    r"|(?:哈{2,}+|嘿{2,}+|呵{2,}+)[，,：:！!、\s]*)+"
)
_ZH_MARKER = re.compile(
    r"^(?:(?:其实|实际上|事实上|更正一下|纠正一下|更正|纠正|我说错了|说错了|我搞错了|搞错了|不好意思|抱歉|"
    r"我刚才说错了|我是说)[，,：:！!、\s]*|(?:不对|不是的)[，,：:！!、\s]+)+"
)
_EN_HYPOTHETICAL = re.compile(
    r"\b(?:if|suppose|supposing|imagine|assuming|unless|pretend|hypothetically|wish|whether|what about|"
    r"maybe|perhaps|possibly|might|who knows)\b",
    _I,
)
# "I'm allergic to peanuts, if that matters": an aside about relevance, not a condition.
_EN_META_IF = re.compile(
    # (?<!…): a match starts where its run of separators starts, never inside a long one
    r"(?<![\s,;(-])[\s,;(-]*\b(?:if|in case) (?:(?:that|it|this) (?:matters|helps|is (?:relevant|important|useful|"
    r"helpful)|makes a difference|changes anything|is of any use)|(?:you|u) (?:need|want|must|care) to "
    r"know|relevant|needed|useful|helpful|that's (?:relevant|useful|helpful))\b[)\s.!]*$",
    _I,
)
_ZH_META_IF = re.compile(
    r"(?<![\s，,（(])[\s，,（(]*(?:如果|要是|假如)?(?:这|这个|这点)?(?:重要|有用|有关系|有影响|有帮助|相关)的话[)）\s。！]*$"
)
_ZH_HYPOTHETICAL = re.compile(
    r"如果|假如|假设|要是|万一|倘若|假使|若是|想象一下|的话|说不定|也许|或许|没准|指不定|搞不好|但愿|就好了|可能会"
)
# A reaction said with when it comes ("I break out if I eat shrimp", "Whenever I drink milk I
# get sick", "I swell up when I touch latex"): no hypothetical but a need, said as the rules
# read a reaction ("Shrimp makes me break out"). Of a thing only: "I feel sick when I eat too
# fast", "…when I eat late" say when, not what; "have" takes a thing the vocabulary knows.
_EN_REACTION = (
    r"(?:break out(?: in (?:hives|a rash|spots))?|get (?:sick|ill|hives|a rash|rashes|migraines?|"
    r"headaches?|a headache|a stomach ?ache|stomach ?aches|stomach cramps|cramps|bloated|"
    r"diarrh(?:o)?ea|eczema|itchy|wheezy)|feel (?:sick|ill|awful|terrible|nauseous)|throw up|"
    r"vomit|puke|swell(?: up)?|itch|wheeze|can't breathe|cannot breathe|"
    r"go into (?:anaphylaxis|anaphylactic shock)|end up in (?:the )?(?:hospital|er|a&e)|"
    r"have (?:a reaction|an allergic reaction|a bad reaction)|react(?: badly)?)"
    r"(?:\s+(?:badly|really badly|every time|straight away|right away|immediately|instantly))?"
)
_EN_ON_CONTACT = (
    r"(?:if|when|whenever|every time|each time|after|as soon as) I (?:even )?(?P<verb>eat|drink|touch|"
    r"take|smell|consume|have) (?:any |even a little |a little |some |a bit of |just a bit of )?"
    r"(?P<x>[a-z][\w'-]*(?: [a-z][\w'-]*){0,2}?)"
)
_EN_REACTS_WHEN = (
    re.compile(
        rf"I (?:always |usually |often |sometimes |also )?(?P<r>{_EN_REACTION}),? {_EN_ON_CONTACT}",
        _I,
    ),
    re.compile(
        rf"{_EN_ON_CONTACT},? (?:then )?I (?:always |usually |often |also )?(?P<r>{_EN_REACTION})",
        _I,
    ),
)
_NOT_A_THING = re.compile(
    r"(?:too|so|very|late|early|fast|quickly|out|in|at|on|with|before|after|while|anything|"
    r"something|it|that|this|them|much|a lot|lots|too much|dinner|lunch|breakfast)\b",
    _I,
)
_KNOWN_THING = re.compile(rf"(?:{NEED_THING_EN})$", _I)


def _reaction_said_when(sentence: str) -> str | None:
    """ "I break out if I eat shrimp" → "Shrimp makes me break out" (see _EN_REACTS_WHEN)."""
    said = sentence.rstrip(" .!")
    if (apart := _EN_THING_AND_I.fullmatch(said)) is not None:
        return f"{apart['x'] or apart['y']} doesn't agree with me"
    if (m := _EN_REACTS_WHEN[0].fullmatch(said) or _EN_REACTS_WHEN[1].fullmatch(said)) is None:
        return None
    thing = m["x"]
    if _NOT_A_THING.match(thing) or (
        m["verb"].casefold() == "have" and not _KNOWN_THING.match(thing)
    ):
        return None
    # as a reaction is said of what causes it: "makes me sick", "gives me hives"
    verb, reaction = "make", m["r"]
    if _NO_BREATH.match(reaction):
        reaction = "short of breath"
    elif (got := _GOT.match(reaction)) is not None:
        reaction = got["what"]
        verb = "make" if _FELT.fullmatch(reaction) else "give"
    plural = thing.casefold().endswith("s") and not thing.casefold().endswith("ss")
    return f"{thing[:1].upper()}{thing[1:]} {verb}{'' if plural else 's'} me {reaction}"


# …in Chinese: "如果我吃海鲜就会过敏", "每次喝牛奶我都拉肚子", "只要吃鸡蛋我就起疹子", "吃海鲜的话我会
# 过敏": said as the rules read it, "我一吃海鲜就过敏". ("假如", "suppose", is a hypothetical.)
_ZH_REACTS_WHEN = re.compile(
    rf"(?:如果|要是|只要|每次|每回|一旦)?我?(?:只要|每次|每回|一)?(?P<verb>吃|喝|碰|接触|闻到|摸)(?:了|到)?"
    rf"(?P<x>[^，,。就会都我的了]{{1,10}}?)(?:的话)?[，,]?\s*我?(?:就|都|会|也|肯定|一定|马上|立刻)*"
    rf"(?P<s>{SYMPTOM_ZH})了?[。！!]*"
)


_ZH_NOT_A_THING = re.compile(r"太|多了|饱|完?饭|东西|早餐|午餐|晚餐|夜宵|得|快|慢")


def _zh_reaction_said_when(sentence: str) -> str | None:
    """ "如果我吃海鲜就会过敏" → "我一吃海鲜就过敏" (see _ZH_REACTS_WHEN)."""
    if (m := _ZH_REACTS_WHEN.fullmatch(sentence)) is None or _ZH_NOT_A_THING.match(m["x"]):
        return None
    return f"我一{m['verb']}{m['x']}就{m['s']}"


_A_THING_ONE_EATS = (
    rf"{NEED_THING_EN}|(?:spicy|fried|greasy|oily|rich|fatty|processed|junk|hot) foods?"
)
# "Gluten and I don't get along", "Spicy food and I don't mix": of a thing one eats or reacts to
# ("My sister and I don't get along", "Mornings and I…" are no need), said as the rules read
# it: "Gluten doesn't agree with me".
_EN_THING_AND_I = re.compile(
    rf"(?:(?P<x>{_A_THING_ONE_EATS}) and (?:I|me)|(?:me|I) and (?P<y>{_A_THING_ONE_EATS})) "
    r"(?:just |really |really just )?(?:don't|do not) (?:really |just )?"
    r"(?:get along|mix|agree|go together|get on)(?: (?:very |too |that )?well)?"
    r"(?: at all| anymore| any more| these days| lately)?(?:,? (?:lol|haha|sadly|tbh))?[.!]*",
    _I,
)


_GOT = re.compile(r"(?:get|feel|have)\s+(?P<what>.+)", _I)
_NO_BREATH = re.compile(r"can(?:'t|not) breathe", _I)
_FELT = re.compile(r"(?:sick|ill|nauseous|bloated|itchy|wheezy|awful|terrible)\b.*", _I)


# Where the clause before a hypothetical ends (_read_into keeps the needs said before it).
# (a joiner only before a clause of its own: "…peanuts and tree nuts unless…" is one list)
_EN_CLAUSE_BREAK = re.compile(
    r"\s*(?:[,;:]|\s+(?:and|but|so|because|though|although)\s+(?=(?:I|I'm|I've|I'd|my|it|it's|if|maybe|"
    r"perhaps|possibly|please|pls|let|check|tell|you|we|they|he|she|there)\b)|\s+[-—–]+\s+)",
    _I,
)
# (…or taken back in a clause of its own: "…, or at least I was as a kid, if…")
_TAKEN_BACK_IN = re.compile(
    r"[,，;；]\s*(?:not really|or at least I (?:was|used to)|or so I thought|(?:haha|lol|lmao),?\s*no(?!\s+joke)|"
    r"sarcasm|至少以前是)\b|\bjk\W*$",
    _I,
)
_DANGLING_JOINER = re.compile(r"(?:[\s,;]+(?:and|or|but|so|plus))*[\s,;:—–-]*$", _I)


def _without_dangling_joiner(head: str) -> str:
    """``head`` without the joiners and separators it ends with ("…penicillin and,"). Only
    its last 80 characters are searched: the pattern from every place of a long run of
    separators was quadratic (attacker 278: 9 s at 20k characters)."""
    cut = max(0, len(head) - 80)
    return (head[:cut] + _DANGLING_JOINER.sub("", head[cut:])).rstrip(" ,;:—–-")


_ZH_CLAUSE_BREAK = re.compile(r"[，,；;：:]")
# "Can't stand cilantro" starts with "can" but asks nothing ("can't" is a word of its own).
_EN_QUESTION_START = re.compile(
    r"^(?:do|does|did|can|could|would|will|should|shall|is|are|am|was|were|have|has|what|how|why|"
    r"where|when|who|whom|which|may|might)\b(?!['’]t\b| not\b)",  # ("Do not add salt, I'm…")
    _I,
)
# A day or a week: a need said of one is no need of the user's (a need "for now" is one now).
_EN_A_DAY = (
    r"today|tonight|tomorrow|yesterday|this (?:morning|afternoon|evening|week|weekend|time)|"
    r"next week|later today"
)
_EN_FOR_NOW = r"right now|at the moment|for now"
_EN_SHORT_TERM = re.compile(rf"\b(?:{_EN_A_DAY}|{_EN_FOR_NOW})\b", _I)
# (nor is a need over "for now": "I don't eat vegan anymore for now")
_EN_A_MOMENT = re.compile(rf"\b(?:{_EN_A_DAY}|anymore|any more|no longer)\b", _I)
_EN_LIFE_CHANGE = re.compile(
    r"^I'm (?:\w+ )?(?:retiring|graduating|getting (?:married|divorced|engaged)|having a baby|"
    r"starting (?:a|my) new (?:job|role|position)|changing (?:jobs|careers)|moving to|relocating to|"
    r"emigrating to)\b",
    _I,
)
_EN_NOW_SAID = re.compile(rf",?\s*\b(?:{_EN_FOR_NOW})\b", _I)
_STATE_SLOTS = frozenset({"job", "employer", "location", "marital"})
# A search that lasts said "right now" is a search still ("I'm looking for a job right now",
# "I'm flat hunting at the moment"): the goal is kept as a state is (helper 355).
_EN_SEARCH_SAID = re.compile(
    r"^I'm (?:\w+ )?(?:(?:looking|searching|hunting) for|(?:job|house|home|apartment|flat)[- ]hunting)\b",
    _I,
)
_ZH_SHORT_TERM = re.compile(
    # (not "从今天起/开始", from today on: "从今天起我吃素" lost the diet, as "As of today I'm
    # vegan" did not: helper 351)
    r"(?<!从)今天|从今天(?!起|开始)|今晚|明天|后天|昨天|今早|下周|下星期|下礼拜|这周|本周|这个周末|这周末|待会|一会儿|马上|现在就|刚才|"
    r"刚刚|此刻|这次|这一次|这趟"
)
# What a clause may end with that is not part of its fact: words of the moment ("too",
# "lol", "哈哈") or punctuation. Each is matched on the reversed clause from its start, so
# one attempt is made, not one per position (a run of 10,000 commas, or 40 "哈" before
# more text, held the updater for seconds to hours), and the longest such ending goes.
_EN_TAIL_WORDS = (
    "too|as well|though|anyway|lol|haha|ugh|btw|by the way|thanks|thank you|please|actually|"
    "sorry|my bad|oops|whoops|"
    "tbh|ngl|fwiw|fyi|imo|"
    "vs"  # a short form left at the end: "I can't eat gluten vs." says "gluten"
)
_EN_TRAILING = (
    # (and a joining word left at the end, in lower case: "I'm coeliac and 💪" once the
    # emoji goes; not "the OR", "My name is Or"; written reversed, as the words are)
    re.compile(rf"(?:(?:{_EN_TAIL_WORDS[::-1]}|(?-i:dna|ro|tub))[\s,]+)+", _I),
    re.compile(r"[\s,.;:!~…]+"),
)
_ZH_TRAILING = (
    re.compile(r"(?:[哦啊呀啦哈喔嘛噢哟]|嘿嘿|呵呵|说的)+"),
    re.compile(r"[\s,.;:!~…，。；：！～]+"),
)
_EN_CLAUSE_SPLIT = re.compile(
    r"(\s*[,;]\s*|\s+(?=(?:and|but|so|plus|while|whereas)\s+(?:now\s+)?"
    r"(?:(?:it |as it )?turn(?:s|ed) out (?:that )?)?(?:I|I'm|I've|I'd|my)\b"
    # "my name is Olumide but everyone calls me Olu"
    r"|(?:and|but)\s+(?:everyone|everybody|people|most people|(?:my )?friends) calls? me\b)"
    # "I'm vegan and avoid animal products": a second verb of the same subject
    r"|\s+(?=(?:and|so)\s+(?:(?:also|strictly|always|never|only|completely|totally)\s+)?"
    r"(?:avoid|don't|do not|can't|cannot|never|only|eat|drink|stay away|steer clear|keep away|"
    r"follow|use|need|watch|limit|cut out|have to avoid|must avoid)\b)"
    # a need given as the reason, or after a dash: "I need a recipe without nuts because I'm
    # allergic to nuts", "Please leave out the shrimp - I'm allergic to it"
    r"|\s+(?:because|since|as|cause|'cause|coz|cos)\s+(?=I(?:'m| am)\s+(?:\w+\s+)?"
    r"(?:allergic|intolerant|coeliac|celiac|diabetic|vegan|vegetarian|pescatarian|pregnant)\b)"
    r"|\s+[-–—]+\s+(?=I(?:'m|'ve| am| have)?\s))",
    _I,
)
# A space splits Chinese clauses between Chinese words or before "我"; around an English
# word it is a word space ("我对 gluten 过敏").
_ZH_CLAUSE_SPLIT = re.compile(
    r"([，,；;、]\s*|(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])|\s+(?=我)"
    r"|(?=而且|并且|但是|可是|同时|另外|不过(?!敏)))"
)
_EN_CONJ = re.compile(r"^(?:(?:and|but|so|plus|also|while|whereas|then)\s+)+", _I)
_ZH_CONJ = re.compile(
    r"^(?:而且|并且|但是|可是|但(?!愿)|同时|另外|不过(?!敏)|然后|也|还(?!有[，,])|其实(?:是(?=对|我))?|而(?=我))+"
)
_ZH_HOW_LONG = re.compile(
    # (with the verb of what was said before: "我在自学吉他，刚学了三个月", "…，已经练了两年了")
    r"(?:已经|都|快|刚|才|刚刚)?(?P<verb>[学练做干用玩跑住写弹教读开养吃戒]了(?:有)?)?"
    r"[\d一二三四五六七八九十两几多半]+(?:年|个月|天|周|星期)(?:多)?了?"
)
# A time frame said alone before its comma ("Going forward, please use metric units",
# "从现在开始，回答简短一点"): the order after it is joined to it, for good.
_FROM_NOW_ALONE = re.compile(
    r"(?:from now on|going forward|moving forward|in (?:the )?future|henceforth"
    r"|以后|今后|往后|从现在(?:开始|起)|从今(?:以后|往后|天起))",
    _I,
)
# How an order to the assistant starts (a verb, "please", "don't"; "请", "用", "别", "回答").
_AN_ORDER = re.compile(
    r"(?:please|kindly|always|never|don't|do not|use|keep|write|reply|respond|answer|give"
    r"|include|add|format|talk|speak|address|avoid|skip|stop|call|be|send|tell|remind|show|list"
    r"|put|make|stick|switch|limit|cite|ask|let|just)\b"
    r"|请|麻烦|你|您|回答|回复|用|别|不要|都|就|每次|记得|给我|帮我|尽量|务必|一律|统一|叫我|称呼",
    _I,
)
_INTERJECTION = re.compile(r"(?:哈哈+|呵呵+|嘿嘿+|lol|haha+|hehe+|嗯+|哦+|啊+)", _I)

_EN_SELF = re.compile(
    r"^(?:I|I'm|I've|I'd|I'll)\b|^(?:everyone|everybody|people|my friends|friends) calls? me\b|^my\s+(?:(?:full|first|real|main|big|biggest|long-term|ultimate|career|life|"
    r"all-time|absolute|job)\s+)*(?:name|goal|dream|aim|ambition|plan|objective|job|profession|occupation|role|"
    r"title|favou?rite)\b|^(?:(?:you can|please|just)\s+)*call me\b|"
    rf"^my\s+{BODY_EN}\s+(?:is|are|has|have|'s)\b",  # "my blood pressure is high"
    _I,
)
_EN_OTHER = re.compile(
    r"^(?i:he|she|they|we|you|it|this|that|there|these|those|his|her|their|our|your|its|my|mine|someone|"
    r"somebody|everyone|everybody|people|nobody|one of)\b|^[A-Z][a-z]+\s+(?:is|was|has|had|likes|loves|lives|"
    r"works|does|doesn't|hates|said|says|thinks)\b"
)
# A person named before what is said of them ("王伟对虾过敏", "小李不吃辣", "老张喜欢钓鱼"):
# a name (PERSON_ZH) right before a need or a taste, which is no food or illness said first
# ("黄豆不能吃", "高血压不能吃太咸": see ellipsis.a_person_zh).
_ZH_NAMED = re.compile(
    rf"(?P<name>{PERSON_ZH})(?:[和跟与、](?:{PERSON_ZH}|(?:我的?)?(?:{KIN_ZH}))){{0,3}}"  # "王伟和李娜"
    r"(?=(?:也|都|还)?(?:对[^，,。！？]{1,12}?(?:过敏|不耐受|敏感)|不(?:能|太)?(?:吃|喝))"
    r"|(?:很|最|也|特别|非常)?"
    r"(?:喜欢|讨厌|爱吃|爱喝)|住在)"
)


def _named_someone(clause: str) -> bool:
    """Whether Chinese ``clause`` opens with someone's name before a need or a taste."""
    m = _ZH_NAMED.match(clause)
    return m is not None and a_person_zh(m["name"], clause[m.end() :])


_ZH_OTHER = re.compile(
    rf"^(?:我(?:的)?(?:家(?:里)?的?)?(?:{KIN_ZH}|猫|狗|宠物)|我们|咱们|他|她|它|你|您|大家|别人|有人|人家|(?:{KIN_ZH}))"
)
# A request or question after a statement ("pescatarian here, give me a lunch idea")
# is no item of an enumeration: it does not join the clause before it.
_EN_ASKING = re.compile(
    r"^(?:give|tell|show|help|send|find|get|make|write|explain|suggest|recommend|list|any|what|how|"
    r"which|where|when|why|who|can|could|would|should|is|are|do|does|please|pls)\b(?!['’]t\b)",
    _I,
)
_SELF, _OTHER = "self", "other"
# The user's, said after a hedge or a preface (:data:`_EN_PREFACE`: "I'm pretty sure I'm…",
# "Background: I'm…"): only a rule's fact is kept, no own-words fallback and no retraction
# (what the hedge hid before was mostly chat and errands).
_HEDGED = "hedged"
# The user's need, as a doctor or a test told it (_told_need): the rules' need alone is kept.
_TOLD = "told"
_EN_NOW_I = re.compile(r"^(?:but |and )?now,?\s+(?P<i>I'm|I)\s+(?!now\b)", _I)
# "now I don't", "now I can eat them", "now I'm in York on a work trip": nothing lasting said
_EN_NOW_VAGUE = re.compile(  # "now I work in IT" is a field, not "it"
    r"\b(?:[Ii]t|(?i:them|there|that|this|again|trip|visit|holiday|vacation|conference|weekend))\b"
)
_EN_AWAY = re.compile(
    r"\b(?:visit(?:ing)?|trip|holiday|vacation|conference|temporar(?:y|ily)|for now)\b", _I
)
# (or a change just said: "I changed jobs, now I work at a school", "I quit, now I freelance")
_EN_PAST = re.compile(
    r"\b(?:used to|was|were|had|lived|grew up|before|previously|until|changed|switched|quit|"
    r"left|moved|retired|stopped|graduated|finished|gave up|worked|studied|taught|trained|served|"
    r"owned|managed|dated|ago|last (?:year|month)|back (?:then|in))\b",
    _I,
)
_EN_PAST_HOME = re.compile(r"\b(?:used to live|was living|lived|grew up|was based)\b", _I)
# What the user used to be, said to hold still ("…，现在还是", "…，至今如此", "and I still
# am"): the past statement withdraws nothing then.
# Only the user's own "still" (not "my sister still is", "我妈妈还是吃素"), said of what they
# used to be or do: any other retraction stands.
_ZH_STILL = re.compile(
    r"(?:现在|如今|目前|今天|最近)[^，,。]{0,3}?(?:还|也|依旧|依然|仍然|仍|照样|同样)"
    r"|(?:现在|如今)?更(?:严重|厉害|重|多)|依旧|依然|仍然|至今|到现在|一辈子|又(?:搬回|回到|回去|开始)"
)
_EN_STILL = re.compile(
    r"(?:^|[,;]\s*|\b(?:and|but)\s+)(?:I\s+)?still\s+(?:do|am)"
    r"(?:\s+(?:on|at|every)\s+\w+|\s+(?:sometimes|occasionally|now and then|too))*\s*(?:$|[,.;!?])",
    _I,
)
# A sentence saying only that: "I still do.", "And I still am." (after "I used to…")
# A sentence saying only that: "I still do.", "Honestly, I still am.", "I still love it."
# (its verb is "do"/"am" or the one of what the user used to do: "I still love it" keeps
# "used to love jazz", not "used to be a teacher").
_EN_STILL_ALONE = re.compile(
    r"(?:(?:actually|honestly|well|yes|yeah|yep|lol|haha|and|but|though|sadly|ha)[,!]?\s+)*"
    r"(?:I\s+)?(?:still\s+(?P<verb>[a-z]+)(?:\s+(?:it|him|her|them|there|that))?|do\s+still)"
    r"(?:[,\s]+(?:sometimes|occasionally|a lot|now and then|sadly|though|lol|haha|too))*",
    _I,
)
# "我以前吃素，现在吃肉了": after what the user used to be or do (a rule's past, not "我之前
# 问过"), "现在…了" is the new state, not a moment ("现在吃了" alone is one); its 了 goes,
# so a rule reads the state ("现在吃肉"), or nothing is kept ("现在明白了", "现在坏掉了").
_ZH_NOW_CHANGED = re.compile(
    r"^(?P<now>(?:我)?(?:现在|如今|目前)(?:又|也|开始|改成|改为)?[\u4e00-\u9fff]{2,12}?)了$"
)
# "我不在腾讯工作了，现在在美团": where the user is now, said without the verb of the place
# given up, which it takes ("我现在在美团工作"); "…不住在上海了，现在在杭州" likewise.
_ZH_NOW_AT = re.compile(r"^(?:我)?(?:现在|如今|目前)(?:改)?在(?P<at>[^，,了]{2,12})$")
_ZH_LEFT_PLACE = re.compile(
    r"不(?:再)?(?P<live>住)?在[^，,]{1,20}?(?P<verb>工作|上班|上学|读书|住)?了$"
)


# "I don't work at Acme anymore, I'm at Globex now": an employer, said after the one left.
_EN_LEFT_WORK = re.compile(r"\b(?:don't|do not|no longer) work (?:at|for) ", _I)
_EN_NOW_AT = re.compile(
    r"^(?:now,? )?I'm (?:now )?(?P<prep>at|with) (?P<at>(?-i:[A-Z][\w&.'-]*)(?: (?-i:[A-Z][\w&.'-]*)){0,3})"
    r"(?: now| these days| instead)?$",
    _I,
)


def _zh_now_said(fragment: str, before: str) -> str | None:
    """What the user is or does now, said after a clause that withdraws what they were (a
    rule's retraction), with the subject it dropped; else ``None``."""
    before = _zh_normalise(before)
    if (changed := _ZH_NOW_CHANGED.match(fragment)) is not None:
        was = match_clause(before, True)
        now_said = "我" + changed["now"].removeprefix("我")
        return now_said if was and was.retract and match_clause(now_said, True) else None
    if (
        (now := _ZH_NOW_AT.match(fragment))
        and (left := _ZH_LEFT_PLACE.search(before))
        and match_retraction(before, True) is not None
    ):
        verb = "住" if left["live"] else left["verb"] or "住"  # ("不在北京了": not there)
        if verb in ("上学", "读书"):
            return None  # (a school is no workplace)
        now_said = f"我现在住在{now['at']}" if verb == "住" else f"我现在在{now['at']}{verb}"
        return now_said if match_clause(now_said, True) else None
    return None


# (not "I'm a 素食者": an English opening before a Chinese noun is read as Chinese)
_EN_OPENING = re.compile(
    r"\s*(?:I am|I'm|I've|I'd|my|My|I(?! am\b))\s+"
    r"(?!(?:an?|the)\s+[\u3400-\u9fff]+(?:[\s,，.。!！]*$|[\s,，]*(?:(?:but|and|so|though)\s+)?I\b))"
    r"[A-Za-z]"
)
_EN_TO_YOU = re.compile(r"\b(?:you|your|yours|u)\b", re.IGNORECASE)
# Words of an order to the assistant, in a clause after someone else's ("我老公不吃辣，以后回答简短")
_ZH_TO_THE_ASSISTANT = re.compile(r"^(?:请|麻烦|以后|今后|之后)|你|您|回答|回复|答复")
_IMPLIED = "implied"  # a Chinese clause without a subject that no rule reads, taken as the user's


_SPACE_RUN = re.compile(r"[^\S\n]{2,}|[^\S\n ]")  # line breaks end sentences: kept
# List markers ("1)", "(b)", "[2]", "1）"), one item a line when one of them opens a statement
# of the user's own ("1) I'm vegan 2) allergic to soy"); "I'm allergic to: 1) peanuts
# 2) shellfish" is one statement listing its objects, and stays one.
_LIST_MARK = re.compile(r"(?<!\S)[(\[（]?(?:\d{1,2}|[a-hA-H])[)\]）]")
_LIST_ITEM_OF_MINE = re.compile(rf"{_LIST_MARK.pattern}\s*(?:(?:{_I_FORMS}|My|i|im)\b|我)")
# Text in brackets, left out when telling the language of a sentence: "I'm allergic to
# peanuts (花生, 严重)" is English, read by the English rules.
_LETTER = re.compile(r"[^\W\d_]")
_BRACKETED = re.compile(r"\([^()]*\)|（[^（）]*）|【[^【】]*】|\[[^\[\]]*\]|\([^()]*$|（[^（）]*$")
# A face drawn with a bracket is no bracket: ":(", ";-)", "=]", "):"; other faces go too
# (":D", "xD", "<3", "^_^").
_EMOTICON = re.compile(
    r"(?<![)(\]\[])[:;=]['’-]?[()\[\]]+(?=\s|$)"
    r"|(?<![A-Za-z0-9])(?:[:;=]['’-]?[DPpO3]|[xX]D|<3+|\^_*\^)(?![A-Za-z0-9])"
    r"|(?<![A-Za-z0-9)(\]\[])[:;=]['’-]?[()\[\]]+(?![A-Za-z0-9(\[])"
    r"|(?<!\S)[()\[\]]+['’-]?[:;=](?![A-Za-z0-9(\[])"
)


_BRACKET_RUN = re.compile(r"[(\[{（【「『<]{3,}|[)\]}）】」』>]{3,}")
# A line broken inside a sentence (text wrapped by a mail client or a narrow box: "I'm
# allergic to peanuts and\nshellfish", "I'm allergic\nto sesame"): one line where the line
# before ends on a word that goes on and the next goes on in lower case, or the next starts
# with "to" (not "to be honest"). A line ended by any other word stays its own sentence ("I'm
# vegan\nI live in Oslo", "oh my\nI'm allergic…").
_WRAPPED = re.compile(
    r"(?<![^\W\d_])(?P<end>and|or|but|to|of|the|a|an|with|without|my|for|in|at|from|on|by|as|"
    r"am|is|are|was|were|be|very|so|than|that|because|since|I|I'm|not|never|also|really)"
    r"[^\S\n]*\n[^\S\n]*"
    r"(?=[a-z])|(?<=[^\W\d_])[^\S\n]*\n[^\S\n]*"
    r"(?=to (?!(?:summari[sz]e|sum up|be (?:honest|fair|clear)|clarify|recap|conclude|me|you)\b))"
)


# …in Chinese, where a line goes on after a word that needs what follows ("我儿子对\n花生过
# 敏", "花生、\n芝麻") or the next line starts with one that needs what came before ("我儿子\n
# 对花生过敏", "我乳糖\n不耐受"): joined with nothing between.
_ZH_BREAK = re.compile(r"(?<=[\u3400-\u9fff、])[^\S\n]*\n[^\S\n]*(?=[\u3400-\u9fff])")
_ZH_GOES_ON = "对不和及与跟、"  # a line ending so goes on
# a line starting so went on (not "对了", "by the way", nor a clause of its own: "和我妈一样")
_ZH_WENT_ON = re.compile(r"(?:对(?!了|我|于我)|和(?!我)|及|与(?!生俱来)|跟(?!我)|、)")
_ZH_WHOLE_NEED = re.compile(r"对[^，,。：:]{1,16}?(?:过敏|不耐受|敏感)")
_ZH_SUBJECT_ALONE = re.compile(rf"(?:我的?)?(?:{KIN_ZH})|我|本人")
_ZH_CLOSED = re.compile(r"(?:过敏|不耐受|了|吧|的|呢|啊)$")  # …after a line that said its all
_ZH_NEED_AFTER = re.compile(r"过敏|不耐")  # …and a need after an open "对…", "乳糖"
_ZH_OPEN_NEED = re.compile(r"对[^，,。：:]{1,12}$|(?:乳糖|麸质|酒精)$")
_ZH_FIELD_AHEAD = re.compile(r"[^\n]{0,8}[:：]")  # "过敏：青霉素" is a line of its own


def _zh_unwrapped(text: str) -> str:
    """``text`` with a Chinese line that goes on joined to the next, with nothing between."""

    def join(m: re.Match[str]) -> str:
        before = text[max(0, m.start() - 13) : m.start()].rsplit("\n", 1)[-1]
        after = text[m.end() : m.end() + 20].split("\n", 1)[0]
        if before[-1:] in _ZH_GOES_ON and not after.startswith("我"):
            return ""  # ("我老公和\n我都…": a clause of the user's starts)
        if _ZH_FIELD_AHEAD.match(after):
            return m[0]
        if _ZH_WENT_ON.match(after) and not _ZH_CLOSED.search(before):
            # a line "对X过敏" is a need of its own ("我吃素\n对鸡蛋过敏"), after a bare subject
            # its end ("我儿子\n对鸡蛋过敏")
            whole = _ZH_WHOLE_NEED.match(after) is not None
            return "" if not whole or _ZH_SUBJECT_ALONE.fullmatch(before) else m[0]
        return "" if _ZH_NEED_AFTER.match(after) and _ZH_OPEN_NEED.search(before) else m[0]

    return _ZH_BREAK.sub(join, text) if "\n" in text else text


# A product's label pasted in ("Ingredients: wheat flour, sugar. Allergens: milk, soy."): its
# "Allergens:" says what the product holds, not what the user reacts to (the user's own,
# "My allergens: sesame", and a message with no label are read as before).
_PRODUCT_LABEL = re.compile(
    r"\b(?:ingredients|may contain|nutrition(?:al)? (?:facts|information|info)|per 100 ?(?:g|ml)"
    r"|allergy advice|best before)\b|配料|成分表|营养成分",
    _I,
)
_LABEL_ALLERGENS = re.compile(r"(?<!\bmy )\ballergens?(?=\s*:)", _I)


# …inside Chinese, where no space parts words ("我对花\ufffd生过敏" is "我对花生过敏"), unless a
# clause of the user's starts after it: a lost full stop ("我儿子对海鲜过敏\ufffd我对花生过敏")
_UNREAD_IN_CJK = re.compile("(?<=[\u3400-\u9fff])\ufffd+(?P<next>[\u3400-\u9fff])")


def _unread_in_cjk(m: re.Match[str]) -> str:
    return ("。" if m["next"] in "我本" else "") + m["next"]


# …between a word and the end of a contraction ("don\ufffdt", "I\ufffdve", "Sam\ufffds")
_UNREAD_APOSTROPHE = re.compile(r"(?<=[A-Za-z])\ufffd(?=(?:t|s|m|d|re|ve|ll)\b)")


# Who told it, said after the need: "I'm allergic to sesame, says the allergist" is read as
# "the allergist says I'm allergic to sesame" (what was told, which a doubt may put in question).
_TOLD_AFTER = re.compile(
    r"(?<![\w,])(?P<said>I(?:'m| am| have)\b[^,.!?\n]{3,80}),\s*(?:says|said|according to)\s+"
    r"(?P<who>(?:my|the|our)\s+(?:doctor|doc|allergist|gp|dermatologist|specialist|nurse"
    r"|(?:blood |allergy |skin )?tests?))\b",
    _I,
)


_NUL_BREAK = re.compile(r"\x00+(?=[A-Z\-*•]|我|本人)")


# Stars of markdown emphasis next to a word ("**I'm vegan**", "I'm *vegan*": nothing was
# stored, and "allergic to **peanuts**" kept the stars); not a star between spaces ("5 * 3")
# …but an action between stars is none of what is said ("I'm vegan *laughs*": helper 352)
_STARRED_ACTION = re.compile(
    r"\*(?:laugh|sigh|shrug|cr(?:y|ie)|wave|smile|grin|wink|nod|giggle|blushe|facepalm|sob|hug"
    r"|cough|gasp|groan|yawn)s?\*",
    _I,
)
_EMPHASIS = re.compile(r"(?<![\w*])\*{1,3}(?=[^\s*])|(?<=[^\s*])\*{1,3}(?![\w*])")
# Full-width ASCII letters and digits as the ASCII ones (NFKC's mapping of these only: the
# full-width marks Chinese is written with stay)
_FULL_WIDTH_ASCII = {
    code: code - 0xFEE0
    for code in (*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B), *range(0xFF41, 0xFF5B))
}


def _prepare(text: str) -> str:
    # read as stored ("so\u00adba" is "soba"); a NUL before what starts a line parts two as a
    # line break does ("I'm vegan.\x00I live in Ghent" was one garbled fact; "pea\x00nuts" stays)
    text = without_invisible(_NUL_BREAK.sub("\n", text) if "\x00" in text else text)
    # U+FFFD stands for what could not be read (a lone surrogate: capture.messages.message_text,
    # or a curly apostrophe decoded as the wrong charset: "I don\ufffdt eat pork")
    if "\ufffd" in text:
        text = _UNREAD_APOSTROPHE.sub("'", _UNREAD_IN_CJK.sub(_unread_in_cjk, text))
        text = text.replace("\ufffd", " ")
    # "\r", U+2028 and the other line separators end a line as "\n" does (not a space).
    # (the mark of a hole typed by the user is no hole, nor kept: "I live in Oslo\ue000")
    if _HOLE in text:
        text = text.replace(_HOLE, " ")
    text = _CODE.sub(_code_said, LINE_BREAKS.sub("\n", text))
    if _HOLE in text:
        text = _HOLE_THEN_OWN.sub(f"{_HOLE}\n", text)
    text = _QUOTE_LINE.sub(" ", text)
    if _PRODUCT_LABEL.search(text):
        text = _LABEL_ALLERGENS.sub("Contains", text)
    text = lists_read(_zh_unwrapped(text))  # (a bulleted line is no line that goes on)
    if "*" in text:  # markdown emphasis says the same without its stars ("**I'm vegan**")
        text = _EMPHASIS.sub("", _STARRED_ACTION.sub(" ", text))
    text = text.translate(_FULL_WIDTH_ASCII)  # ("Ｉ'm ＧＦ": the letters typed full-width)
    text = _TOLD_AFTER.sub(r"\g<who> says \g<said>", text)
    text = _WRAPPED.sub(lambda m: f"{m['end'] or ''} ", text)
    text = _QUOTED.sub(" ", text)
    text = _EMOJI.sub(_emoji_said, text)
    text = _EMOTICON.sub(".", text)  # a face ends what it follows, like a full stop
    # A run of brackets says nothing, and each opener left open was closed in the fact
    # ("…peanuts " + "(" * 20000 stored 40,028 characters: attacker 283)
    text = _BRACKET_RUN.sub(" ", text)
    if _LIST_ITEM_OF_MINE.search(text):  # "1) I'm vegan 2) I live in Oslo": one item a line
        text = _LIST_MARK.sub("\n", text)
    # One space for any run of spaces: the patterns' "\s*X" tried each position of a
    # long run (40,000 spaces in one sentence held the updater for 68 s).
    text = _SPACE_RUN.sub(" ", text)
    if ";" in text:
        text = _SEMICOLON_RUN.sub(_semicolon_list, text)
    # (an apostrophe typed as another mark too: "Iʼm from Canada" stored nothing, helper 363)
    text = with_plain_apostrophes(text.replace("’", "'").replace("‘", "'"))
    if ":" in text or "：" in text:
        text = _REQUEST_THEN_COLON.sub(r"\g<lead>\g<request>, ", text)
    if "：" in text:
        text = _ZH_REQUEST_THEN_COLON.sub(r"\g<lead>\g<request>，", text)
    if _DIET_SHORT.search(text):
        text = _DESCRIBED.sub(_diets_said_in_full, text)
    return _run_ons_apart(_reaction_of_left_out(text) if _REACTS.search(text) else text)


# Diets said short among the user's descriptions: "I'm GF", "I'm vegan and GF", "I'm GF,
# DF and NF" (nothing was stored, the other descriptions lost with them); not elsewhere
# ("my GF is vegan" is a girlfriend)
_DIET_SHORT = re.compile(r"\b(?:GF|DF|NF)\b", _I)
_DIET_SAID_SHORT = {"gf": "gluten-free", "df": "dairy-free", "nf": "nut-free"}
_DESCRIBED = re.compile(
    r"\b(?P<i>(?:I'm|I am|Im) (?:(?:strictly|fully|mostly|also|totally|now|both) )?)"
    r"(?P<items>[\w-]+(?:(?:,? and |, | & | ?/ ?)[\w-]+){0,5})(?![\w'-])"
    # (the descriptions end there: not "I'm busy, GF wants to visit", "I'm home and GF is
    # cooking", where GF is a girlfriend doing something: attacker 349)
    r"(?=\s*(?:[.!?,;:()\n~-]|$|\b(?:too|now|lol|haha|also|since|because|bc|but|though|and|"
    r"so|btw|as well|for|these days|again|anyway|tbh|actually|mostly|diet)\b))",
    _I,
)
_ITEM = re.compile(r"[\w-]+")


def _diets_said_in_full(described: re.Match[str]) -> str:
    items = _ITEM.sub(lambda m: _DIET_SAID_SHORT.get(m[0].casefold(), m[0]), described["items"])
    if items == described["items"]:
        return described.group()  # (no diet said short among them: "I'm happy/sad" as said)
    # (a slash lists them too: "I'm GF/DF/NF" stored nothing, helper 351)
    return described["i"] + _SLASH.sub(", ", items)


_SLASH = re.compile(r" ?/ ?")


# A request, a colon, then what the user says of themself ("Hold the mayo: I'm allergic to
# eggs", "No cheese on mine: I'm vegan"): the colon parts two clauses as a comma does (the
# statement was lost with the request); not a label ("Allergies: I have none", "Said: I…")
_REQUEST_THEN_COLON = re.compile(
    # (the space before kept; a run of line breaks is not tried from each: attacker 348)
    r"(?:^|(?<=[.!?\n]))(?P<lead>[^\S\n]*)"
    r"(?P<request>(?:please\s+|pls\s+)?(?:no|hold|skip|leave|without|don't|do not"
    r"|make|go easy on|easy on|nothing with|cut|keep|avoid)\b[^:：.!?\n]{0,80}?)[^\S\n]*"
    # (a full-width colon, a run of them, or none of a space or a line break after:
    # "No nuts：I'm allergic", "No sesame:: I'm allergic", "No nuts:\nI'm allergic": helper 351)
    r"[:：]+\s*(?=I(?:'m| am|'ve| have)?\s)",
    _I,
)


# …and in Chinese, or a note ("别放虾：我对海鲜过敏", "注意：我对鸡蛋过敏": a clause without a
# mark before "我" was one clause of no one's, the need lost; attacker 348)
_ZH_REQUEST_THEN_COLON = re.compile(
    r"(?:^|(?<=[。！？!?\n]))(?P<lead>[^\S\n]*)"
    r"(?P<request>请?(?:不要|别|不用|不加|少放|少加|免|去掉|勿|注意|备注|补充|提醒(?:一下)?)"
    r"[^：:。！？!?\n]{0,20}?)[^\S\n]*：[^\S\n]*"
    rf"(?={ME_ZH})"
)


# "No nuts please, I'm allergic.", "Hold the shrimp - I'm allergic to it.", "I need a
# recipe without sesame because I'm allergic.": a reaction said bare, of the thing the
# request just left out; it is said of that thing ("I'm allergic to nuts"), so the rules
# read the need (said bare, it stored nothing)
_REACTS = re.compile(r"\b(?:allergic|intolerant)\b|过敏", _I)
_EN_BARE_REACTION = re.compile(
    r"\b(?P<head>(?:I'm|I am|Im) (?:(?:very|severely|deathly|really|super|highly|so|quite|badly|"
    r"mildly|seriously) )?(?:allergic|intolerant))(?: to (?:it|them|that|those|these|this|both)"
    # (and more things after it: "…, I'm allergic to them and eggs")
    # ("…allergic to it and to peanuts": attacker 349)
    rf"(?P<more>(?:,? (?:and also|and|or|plus|as well as)|,) (?:to )?(?:{NEED_THING_EN})"
    rf"(?:(?:,? (?:and|or)|,) (?:{NEED_THING_EN}))*)?)?"
    # ("…allergic to them too", "…to it as well": attacker 348)
    # (or a line break: "No shrimp, I'm allergic\nThanks for checking": helper 351)
    r"(?=\s*(?:[.!,;)~\n]|\b(?:lol|haha|btw|tbh|though|sadly|too|as well)\b|$)"
    # ("…and I hate squid"; "…and it's a shame" is a remark, said apart: attacker 348)
    r"|\s+(?:and|but|so|plus)\s+(?:I|I'm|I've|I'd|my|(?P<remark>it's|that's|it is|that is|it"
    r"|so (?:is|are|does|do)|so's|he|she|he's|she's|they|they're|we|we're))\s"
    # (or a thing more said on: "…allergic to them and kiwi fruit", "…to them & kiwi (bad)",
    # left as said after the thing left out: both needs were lost, helper 351)
    rf"|\s+(?:and|&|plus|or)\s+(?:to )?(?:{NEED_THING_EN})\b"
    # (the things end the clause, a word such as "fruit" at most after them: not "…to them and
    # eggs are fine", "…and milk is okay", where the thing said on is no need: helper 352)
    rf"(?:(?:\s*,|\s+(?:and|&|or))\s+(?:{NEED_THING_EN})\b)*(?:[^\S\n]+[\w-]+)?"
    r"(?=\s*(?:[.!,;()~\n]|\b(?:lol|haha|btw|tbh|though|sadly|too|as well|also)\b|$))"
    # (a thing said on with a verb of its own is a remark, said apart: "…and eggs are fine")
    rf"|\s+(?:and|but|&|plus)\s+(?P<thing_remark>(?:{NEED_THING_EN})\s+(?:is|are|was|were|isn't"
    r"|aren't|seems?|makes?|gives?|does|do|doesn't|don't|'s)\b))",
    _I,
)
_EN_REQUEST_LEAVES_OUT = re.compile(
    r"\b(?:no|without|avoid(?:ing)?|leave (?:out|off)|leaving out|hold|skip|minus|exclud(?:e|ing)|"
    r"free of|nothing with|(?:don't|do not|never) (?:add|put|use|include|serve|give me))\s+"
    r"(?:the |any |all )?"
    rf"(?P<x>(?:{NEED_THING_EN})(?:(?:,\s*(?:and |or )?|\s+(?:and|or)\s+)(?:{NEED_THING_EN}))*)\b"
    rf"|\b(?P<free>{NEED_THING_EN})[- ]free\b",
    _I,
)
_LEFT_OUT_LOOKS_BACK = 200  # characters: the sentence before, at most
_SAID_AS_MANY = frozenset(("nut", "peanut", "tree nut", "egg", "cashew", "almond", "walnut"))
# (a run is one stop, spaced or not: "No nuts... I'm allergic", "No sesame. . . I'm allergic")
_LEFT_OUT_STOP = re.compile(r"[.!?\n](?:[^\S\n]*[.!?\n])*")


# …and in Chinese: "不要放花生，我过敏", "别放香菜，我过敏" (also with a space between, not a
# mark: "别加香菜 我很过敏" stored "用户对很过敏", attacker 345)
_ZH_BARE_REACTION = re.compile(
    r"(?P<head>我)(?:有点|很|严重|非常|会)?过敏(?=\s*(?:[。！!，,~～]|$))"
)
_ZH_REQUEST_LEAVES_OUT = re.compile(
    r"(?:不要|别|不|免|去掉|不用|少)(?:放|加|搁|要)?(?P<x>[\u4e00-\u9fff、和]{1,12}?)(?=\s*(?:[，,。！!；;]|$))"
)


def _reaction_of_left_out(text: str) -> str:
    """``text`` with each reaction said bare after a request that left a thing out said of
    that thing (see :data:`_EN_BARE_REACTION`, :data:`_ZH_BARE_REACTION`): looked for in
    the clause or the sentence before only, at most :data:`_LEFT_OUT_LOOKS_BACK`
    characters back."""
    text = _EN_REACTION_LEFT_OUT.reading(text)
    return _ZH_REACTION_LEFT_OUT.reading(text) if "过敏" in text else text


@dataclass(frozen=True)
class _LeftOut:
    """How one language says a bare reaction, a request leaving a thing out, and the reaction
    said of that thing."""

    bare: re.Pattern[str]
    request: re.Pattern[str]
    stops: re.Pattern[str]
    said_of: Callable[[re.Match[str], str], str]
    thing: Callable[[re.Match[str]], str | None]
    run_on: tuple[tuple[re.Pattern[str], str], ...]
    """A request typed straight on into the reaction, with no mark between: read as with
    the comma paired with the first pattern that matches ("No nuts please I'm allergic",
    "别放芝麻我过敏"; either language's, as text mixes them: "别放花生！I mean 我过敏")."""

    def reading(self, text: str) -> str:
        parts: list[str] = []
        done = 0
        for bare in self.bare.finditer(text):
            window = text[max(done, bare.start() - _LEFT_OUT_LOOKS_BACK) : bare.start()]
            ends = [m.start() for m in self.stops.finditer(window.rstrip())]
            window = window[ends[-2] + 1 :] if len(ends) > 1 else window  # (this or the one before)
            left = next(reversed(list(self.request.finditer(window))), None)
            if left is None or (thing := self.thing(left)) is None:
                continue
            said = self.said_of(bare, thing)
            if _shouted(bare.group()):
                said = said.upper()  # ("NO NUTS PLEASE, I'M ALLERGIC": all of it shouted)
            before = text[done : bare.start()]
            comma = next((c for run_on, c in self.run_on if run_on.search(before)), None)
            if comma is not None:
                before = before.rstrip() + comma
            parts += [before, said]
            done = bare.end()
        return "".join(parts) + text[done:] if parts else text


# A request typed straight on into the reaction, with no mark between ("No nuts please I'm
# allergic", "no nuts pls im allergic"): read as with a comma (attacker 345: nothing was
# stored), but not after a word that joins it ("…because I'm allergic")
_ZH_RUN_ON_REQUEST = re.compile(r"[\u4e00-\u9fff][^\S\n]*$")
_RUN_ON_REQUEST = re.compile(
    r"(?<![\w'’])(?!(?:because|cause|cuz|coz|cos|bc|since|as|and|but|so|or|if|that|though)\s+$)"
    r"[\w'’]+[^\S\n]+$",
    _I,
)


def _en_thing_left_out(left: re.Match[str]) -> str:
    thing = (left["x"] or left["free"]).lower()
    return thing + "s" if thing in _SAID_AS_MANY else thing  # "nut-free": "allergic to nuts"


_EN_REACTION_LEFT_OUT = _LeftOut(
    _EN_BARE_REACTION,
    _EN_REQUEST_LEAVES_OUT,
    _LEFT_OUT_STOP,
    lambda bare, thing: (
        f"{bare['head']} to {thing}{bare['more'] or ''}"
        f"{',' if bare['remark'] or bare['thing_remark'] else ''}"
    ),
    _en_thing_left_out,
    ((_RUN_ON_REQUEST, ", "), (_ZH_RUN_ON_REQUEST, "，")),
)
_ZH_REACTION_LEFT_OUT = _LeftOut(
    _ZH_BARE_REACTION,
    _ZH_REQUEST_LEAVES_OUT,
    re.compile(r"[。！？!?\n]"),
    lambda bare, thing: f"我对{thing}过敏",
    lambda left: left["x"] if zh_things(left["x"]) else None,
    ((_RUN_ON_REQUEST, ", "), (_ZH_RUN_ON_REQUEST, "，")),
)


# A list written with semicolons ("I'm allergic to peanuts; shellfish; and sesame", "Meds:
# ramipril; rosuvastatin; warfarin") is one sentence: its semicolons are commas. Two to eight
# items after the first, or one after "and"/"or", ending the sentence, each a thing a need is
# of with a word or two before it at most. Anything else stays as said: "I'm vegan; my wife
# isn't", "…; pecans too; …", "I take warfarin; dad aspirin", "…peanuts; Sarah shellfish"
# (attacker 331). Read run by run, each item once (a regex over the run was quadratic).
# (from a sentence's start only: tried at every place of a long sentence, it was quadratic)
_SEMICOLON_RUN = re.compile(r"(?:^|(?<=[.!?\n]))[^.!?\n;]*(?:;[^.!?\n;]*)+")
_SEMICOLON_ITEM = re.compile(
    rf"(?:(?:and|or)\s+)?(?:(?-i:[a-z-]+)\s+){{0,2}}?"
    rf"(?:{NEED_THING_EN}|{MEDICATION_NAME_EN}|{SUPPLEMENT_EN})(?:e?s)?",
    _I,
)
_SEMICOLON_NOT_AN_ITEM = re.compile(rf"\b(?:{KIN_EN_OWNED}|dog|cat)\b", _I)


def _semicolon_list(run: re.Match[str]) -> str:
    head, *items = run[0].split(";")
    said = [item.strip() for item in items]
    if not (2 <= len(said) <= 8 or (len(said) == 1 and re.match(r"(?:and|or)\s", said[0], _I))):
        return run[0]
    if all(_SEMICOLON_ITEM.fullmatch(i) and not _SEMICOLON_NOT_AN_ITEM.search(i) for i in said):
        return ",".join([head, *items])
    return run[0]


# A message typed without stops ("i live in leeds i work at a bank", "i like thai food my
# girlfriend prefers italian"): in one that begins with the user ("i…", "my…"), a new
# subject ("i", "my wife is") starts a new sentence. Not after a word that leads into a
# clause ("i think i", "what i", "because my", "can i"), nor inside a phrase a determiner
# opens ("i love the town i grew up in": a relative clause).
_NEW_SUBJECT = re.compile(
    r"(?<=[A-Za-z]) (?=(?:i|im|i'm|i've|i'd|I|I'm|I've|I'd) [a-z]"
    r"|my (?:[a-z]+ ){1,2}(?:is|was|has|does|doesn't|isn't|can't|prefers|likes|loves|hates"
    r"|works|lives|wants|eats|drinks)\b)"
)
_SELF_FIRST = re.compile(
    r"^(?:(?:hi|hey|hello|ok|okay|so|well|also|btw|and) )*(?:i|im|i'm|i've|i'd|my)\b", _I
)
_LEADS_IN = frozenset(
    """and but or nor so if when whenever where what whatever which who whom whose that than
    then because cause cuz coz as since until till while though although unless whether before
    after once how why think thought know knew guess hope feel felt believe mean meant say said
    says wish wonder bet swear promise suppose reckon like am is are was were be been do does
    did can could would will should shall may might must have has had not also just only even
    tell told ask asked all everything something anything nothing one ones thing things stuff
    way time times place reason kind sort me you he she we they it i im to for of with about
    in on at by from now sure out actually really""".split()  # noqa: SIM905
)
_DETERMINERS = frozenset(
    """the a an this that these those my your his her our their its some any every all no
    each which what one another other""".split()  # noqa: SIM905
)


# The same in Chinese: "我住在深圳我爸妈住在长沙", "我吃素我老婆也吃素". Not where "我" is
# an object ("妈妈让我…", "给我…") or what a verb of thinking says ("我觉得我…").
_ZH_NEW_SUBJECT = re.compile(
    r"(?<=[\u4e00-\u9fff])(?<![给让和跟帮叫请对被把使令教问找陪带送向替为与同像比是说猜爱念信见到顾恨等欢厌])"
    r"(?<!觉得|认为|希望|知道|发现|感觉|担心|害怕|以为|相信|记得|忘了|听说|怀疑|确定|保证|猜想|说过|讲过|提过|告诉)"
    r"(?=我(?!们))"
)


_RUN_ON_CLAUSE = 160  # characters a clause of a run-on is read up to, for a fact by itself


def _run_ons_apart(text: str) -> str:
    """``text`` with a stop put between the clauses of a message typed without any.

    Only after a clause that states a fact by itself ("i live in leeds", "我住在深圳"):
    one that leads into what follows ("i doubt", "my friend thinks", "我梦见", the
    "我喜欢" of "我喜欢我的工作") keeps it.
    """
    zh = text.startswith("我")
    if zh:
        if any(mark in text for mark in "，。！？,.;；!?、\n "):
            return text
    elif any(mark in text for mark in ".,;!?\n") or not _SELF_FIRST.match(text):
        return text  # a writer who stops sentences stops these too
    parts, pos = [], 0
    for m in (_ZH_NEW_SUBJECT if zh else _NEW_SUBJECT).finditer(text):
        if m.start() - pos > _RUN_ON_CLAUSE:
            break  # no fact said by itself for that long: the rest stays as typed (linear)
        if not zh:
            words = text[max(0, m.start() - 80) : m.start()].rsplit(None, 2)[-2:]
            if words[-1].casefold() in _LEADS_IN or (
                len(words) == 2 and words[0].casefold() in _DETERMINERS
            ):
                continue
        said = text[pos : m.start()]
        if match_clause(_zh_normalise(said) if zh else _en_normalise(said), zh) is None:
            continue
        parts.append(said)
        pos = m.end()
    return ("。" if zh else ". ").join([*parts, text[pos:]])


def _sentences(text: str) -> Iterator[tuple[str, str]]:
    """``(sentence, its terminator)`` in order; a terminator inside an aside that a
    closing bracket ends stays in its sentence ("I'm allergic to nuts (badly!)")."""
    pos = 0
    for end in _SENTENCE_END.finditer(text):
        mark = end.group().rstrip(_CLOSING)
        if mark == "." and not _ends_sentence(text, end.start()):
            continue
        sentence = text[pos : end.start()]
        if mark != end.group() and _opens_aside(sentence):
            yield text[pos : end.end()], end.group()  # "(is that right?)" still asks
        else:
            yield sentence, end.group()
        pos = end.end()
    if pos < len(text):
        yield text[pos:], ""


# A statement of the user's own in brackets inside a sentence ("…a 12 hour shift (I'm a
# paramedic) and…", "Any tips for the trip (I'm vegan)?", "（我是素食者）"): a sentence of
# its own, after the one it sat in. Not a hedge ("(I think)"), a taking back ("(I'm
# kidding)", "(I'm not)") or a single word.
_OWN_ASIDE = re.compile(
    r"\s*[(（]\s*(?P<a>(?:I|I'm|I've|I'd|I am)\s(?!(?:think|guess|believe|mean|hope|suppose|reckon|"
    r"know|not\b|kidding|joking))[^()（）]{2,300}?|我(?!觉得|想|猜|开玩笑|是说)[^()（）]{2,150}?)\s*[)）]"
)


_ASIDE_END = "()"  # the terminator of such a statement: only a rule's fact is kept from it


def _asides_apart(sentences: Iterable[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    """The sentences, each followed by the statements of the user's own it held in brackets."""
    for sentence, terminator in sentences:
        if "(" not in sentence and "（" not in sentence:
            yield sentence, terminator
            continue
        asides = [m["a"] for m in _OWN_ASIDE.finditer(sentence)]
        rest = _OWN_ASIDE.sub("", sentence) if asides else sentence
        if asides and not rest.strip(" ,;:-—"):  # "(I'm vegan.)": the whole sentence
            if len(asides) == 1:
                yield sentence, terminator
            else:  # "(I'm a nurse) (I work nights)": one sentence each
                yield from ((aside, terminator) for aside in asides)
            continue
        yield rest, terminator
        for aside in asides:
            yield aside, _ASIDE_END


# Where a Chinese word ends and an English clause of the user's begins: "I'm a 素食者 but I
# eat eggs", "我住在杭州, and I work in tech": each part is read in its own language.
_EN_AFTER_ZH = re.compile(
    r"(?<=[\u3400-\u9fff])\s*[,，;；]?\s*(?=(?:(?:but|and|so|though)\s+)?I(?:'m|'ve| am| have)?\s)",
    _I,
)


# A Chinese clause of the user's after an English one, past a comma or a conjunction: "I'm
# a 老师 and 我住在北京" (not "I love 我的家乡": an object, no clause).
_ZH_AFTER_EN = re.compile(
    r"(?:\s*[,，;；]\s*(?:(?:but|and|so|though)\s+)?|\s+(?:but|and|so|though)\s+)"
    r"(?=我[\u3400-\u9fff])",
    _I,
)


def _languages_apart(sentences: Iterable[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    """The sentences, one cut where a clause of the user's in one language follows the other."""
    for sentence, terminator in sentences:
        if _EN_OPENING.match(sentence):
            # (an English sentence with a Chinese word stays whole: "I live in 北京 but I
            # work…"), a Chinese clause after it goes apart
            parts = _ZH_AFTER_EN.split(sentence)
            if any(_TWO_EN_WORDS.search(part) for part in parts[1:]):
                parts = [sentence]  # "…, and 我住在杭州 is the title of my book": no clause
        elif _EN_AFTER_ZH.search(sentence) is not None:
            parts = _EN_AFTER_ZH.split(sentence)
        else:
            parts = [sentence]
        for part in parts:
            yield part, terminator


# "…, but not anymore", "…, but I outgrew it", "…，不过现在好了": the withdrawal of what the
# clause before it said (see NO_LONGER_ALONE), said in the same sentence: looked for after a
# break within the last _TAIL_CHARS characters only (tried at every comma of a long run of
# ", actually" it took quadratic time).
_TAIL_BREAK = re.compile(r"\s*[,;，；—–-]\s*")
_TAIL_CHARS = 80


# …not after what was so once ("I was vegetarian for years, but not anymore", "小时候对牛奶
# 过敏，后来好了"): the sentence whole says what ended, as the rules of the past read it.
_SAID_OF_THE_PAST = re.compile(
    r"\b(?:was|were|used to|had|as an? (?:kid|child|baby|teen|teenager)|when I was|years ago"
    r"|back then|for (?:years|a while|a long time))\b|小时候|以前|之前|过去|曾经|原来|当时|那时",
    _I,
)


def _no_longer_apart(sentences: Iterable[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    """The sentences, one cut before a last clause that says the rest holds no more."""
    for sentence, terminator in sentences:
        tail = None
        if len(sentence) > 1 and not NO_LONGER_ALONE.fullmatch(sentence):
            start = max(1, len(sentence) - _TAIL_CHARS)
            for cut in _TAIL_BREAK.finditer(sentence, start):
                if cut.start() > 0 and NO_LONGER_ALONE.fullmatch(sentence, cut.end()):
                    tail = cut
                    break
        if tail is not None and not _SAID_OF_THE_PAST.search(sentence, 0, tail.start()):
            yield sentence[: tail.start()], ""
            yield sentence[tail.end() :], terminator
        else:
            yield sentence, terminator


def _theirs_apart(sentences: Iterable[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    """The sentences, one cut before words that say the rest was someone else's ("I'm allergic
    to peanuts, I mean my son is": :func:`~.ellipsis.theirs_after`)."""
    for sentence, terminator in sentences:
        if (cut := theirs_after(sentence)) is not None:
            yield sentence[: cut[0]], ""
            yield sentence[cut[1] :], terminator
        else:
            yield sentence, terminator


def _opens_aside(sentence: str) -> bool:
    # A bracket left open after the sentence's first word: "…nuts (badly", not "(I'm vegan".
    body = sentence.lstrip(_OPENING + " ")
    return any(c in _OPENING for c in body) and _depth(body) > 0


_GENERATION_BEFORE = re.compile(r"(?<![\w'’-])gen(?:eration)?[ -]$", re.IGNORECASE)


def _ends_sentence(text: str, at: int) -> bool:
    """Whether the full stop at ``text[at]`` ends a sentence, not an abbreviation or initial.

    It does not after a known abbreviation (:data:`_ABBREVIATIONS`, any case), a
    dotted one ("Ph.D.", "J.R.R.", "U.S.") or a capital alone ("Mary J. Blige"),
    unless the next word, past a bracket or quote, opens a sentence
    (:data:`_OPENERS`; :data:`_CAPITAL_OPENERS` capitalised: "…the U.S. I like
    jazz", "…type is A. (My…", "…vitamin D. Sadly…"), or, after a capital alone that
    a label comes before (:data:`_LABELS`), is a capitalised word before a verb
    (:data:`_FINITE`: "…vitamin C. Tomatoes are fine"), or, after a dotted place
    in capitals that a place word comes before (:data:`_PLACE_WORDS`), a
    capitalised word before a verb ("…the U.S. Penicillin gives me hives").
    """
    start = at
    while (
        start > 0
        and at - start < 24
        and (text[start - 1].isascii() and (text[start - 1].isalpha() or text[start - 1] == "."))
    ):
        start -= 1
    word = text[start:at]
    initial = len(word) == 1 and word.isupper()
    if not (initial or word.casefold() in _ABBREVIATIONS or _DOTTED.fullmatch(word)):
        return True
    words = text[at + 1 : at + 80].split(None, 2)[:2]
    following = [w.strip("([{\"'“‘,;:") for w in words]
    if not following or not following[0]:
        return True
    after = following[0]
    if words[0][0] in _OPENING:  # "Acme Corp. (the one in Ohio)" goes on; "…B12. (I'm…" not
        return after.casefold() in _SELF_WORDS
    if after.casefold() in _OPENERS or (
        after[0].isupper() and after.casefold() in _CAPITAL_OPENERS
    ):
        return True
    if (
        initial
        and after[0].isupper()
        and _GENERATION_BEFORE.search(text, max(0, start - 12), start)
    ):
        return True  # a generation's letter is no initial: "I'm Gen Z. Any tips…"
    if not (after[0].isupper() and len(following) > 1):
        return False
    verb = following[1]
    before = text[max(0, start - 40) : start].split()  # the word before: a bounded look
    if initial:
        return verb in _FINITE and bool(before) and before[-1] in _LABELS
    then = text[at + 1 : at + 120].split(None, 3)[2:3]  # the word after the verb
    has_object = bool(then) and then[0].strip(",.;:!?").casefold() in _OBJECTS
    return (
        (verb in _FINITE or (_LIKELY_VERB.fullmatch(verb) is not None and has_object))
        and _DOTTED_CAPITALS.fullmatch(word) is not None
        and bool(before)
        and before[-1].casefold() in _PLACE_WORDS
    )


_OPENING, _CLOSING = "([{（【", ")]}）】"
# Which pair a bracket belongs to: "(海淀）" mixes the two widths of one pair.
_PAIR = dict(zip("([{（【)]}）】", "([{([([{([", strict=True))
_AFTER_CLOSER = " ,.;:!~…，。；：！～"


def _without_stray_closers(clause: str, trailing: tuple[re.Pattern[str], ...]) -> str:
    """``clause`` without the closing brackets at its end that open nowhere in it, and what
    ``trailing`` then takes: "I live in Oslo (Norway)" keeps its pair, "…in Oslo!)" ends at
    "Oslo". One pass from the end, whatever the run of brackets."""
    clause = clause.strip()
    surplus = dict.fromkeys("([{", 0)
    for char in clause:
        if char in _PAIR:
            surplus[_PAIR[char]] += 1 if char in _CLOSING else -1
    end = kept = len(clause)
    while end and (
        (ch := clause[end - 1]) in _AFTER_CLOSER or (ch in _CLOSING and surplus[_PAIR[ch]] > 0)
    ):
        if ch in _CLOSING:
            surplus[_PAIR[ch]] -= 1
            kept = end - 1
        end -= 1
    return clause if kept == len(clause) else without_ending(clause[:kept], trailing).strip()


def _closed(clause: str) -> str:
    """``clause`` with the brackets it leaves open closed at its end, each in its own width:
    "…diabetic (type 2, I take metformin)" cut at its second clause keeps "(type 2)"."""
    if not any(c in _OPENING for c in clause):
        return clause
    open_: list[str] = []
    for char in clause:
        if char in _OPENING:
            open_.append(char)
        elif char in _CLOSING and open_ and _PAIR[open_[-1]] == _PAIR[char]:
            open_.pop()
    return clause + "".join(_CLOSING[_OPENING.index(c)] for c in reversed(open_))


def _unbracketed(sentence: str) -> str:
    """``sentence`` without the brackets around an aside: "(I'm vegan, so…)" is still said."""
    return _without_stray_closers(sentence.lstrip(_OPENING + " "), ())


# Misspellings of the words a need or a job is told by, common in quick typing ("i'm alergic
# to bees", "im vegitarian", "a software enginer"): read, and stored, as meant.
_TYPOS = {
    "alergic": "allergic", "allergc": "allergic", "alergy": "allergy", "alergies": "allergies",
    "vegitarian": "vegetarian", "vegeterian": "vegetarian", "vegatarian": "vegetarian",
    "vegiterian": "vegetarian", "intollerant": "intolerant", "intolarant": "intolerant",
    "enginer": "engineer", "engeneer": "engineer", "asthama": "asthma", "diabetis": "diabetes",
    "excema": "eczema", "exzema": "eczema", "glutten": "gluten", "pescitarian": "pescatarian",
    "intolerent": "intolerant", "intollerent": "intolerant",
    # texting shorthand: "pls always answer in bullet points", "i h8 cilantro"
    "pls": "please", "plz": "please", "plez": "please", "pleeease": "please", "h8": "hate",
}  # fmt: skip
_TYPO = re.compile(rf"\b(?:{'|'.join(_TYPOS)})\b", _I)


# A place pointed at, then named: "I live nearby, in Leeds", "I live here now, in Porto" say
# "I live in Leeds" (a name or "the …": not "I live here, in theory", "…, in case you need me").
_PLACE_POINTED_THEN_NAMED = re.compile(
    r"^(?P<said>I(?:'ve| have)?\s+(?:[a-z]+\s+){0,2}?(?:live[sd]?|living|work(?:s|ed|ing)?"
    r"|stud(?:y|ied|ying)))\s+(?:here|there|nearby|close by|over there)(?:\s+(?:now|still|too))?,?\s+"
    r"(?=(?:in|at|near)\s+(?!(?:January|February|March|April|May|June|July|August|September"
    r"|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Christmas"
    r"|Easter|Thanksgiving|Ramadan|Diwali|Hanukkah|New Year|Summer|Winter|Spring|Autumn|Fall|English"
    r"|French|Spanish|German|Chinese|Mandarin|Cantonese|Italian|Japanese|Korean|Arabic)\b)(?-i:[A-Z])"
    r"|(?:at|near)\s+the\s+(?!(?:end|meantime|moment|same|weekend|time|start|beginning|age|request"
    r"|height|peak)\b)\w)",
    _I,
)


def _shouted(text: str) -> bool:
    """Whether ``text`` is said in capitals only ("I'M ALLERGIC TO IT")."""
    return not any(c.islower() for c in text) and sum(c.isalpha() for c in text) > 3


def _en_normalise(clause: str) -> str:
    if _shouted(clause):
        clause = clause.lower()  # "I'M ALLERGIC TO IT": shouted, read as said ("…to it")
    clause = re.sub(r"^i\b", "I", clause)
    clause = re.sub(r"^(?:im|Im|IM|[iI] m)\b|^(?:iam|Iam)\b(?= [a-z])", "I'm", clause)
    # "allergic 2 peanuts": a texter's "to"
    clause = re.sub(
        r"\b(allergic|intolerant|sensitive|addicted|used) 2\b(?= [a-z])", r"\1 to", clause
    )
    clause = re.sub(r"^I hav\b", "I have", clause)
    clause = re.sub(r"^(my|My) names(?= \S+$)", r"\1 name is", clause)  # "my names jake"
    clause = _TYPO.sub(lambda m: _TYPOS[m.group().casefold()], clause)
    clause = re.sub(r"^(?:ive|Ive)\b", "I've", clause)
    clause = re.sub(r"\b(do|does|is|are|was|were|have|has|ca|wo)nt\b", r"\1n't", clause, flags=_I)
    clause = re.sub(r"\bi'(m|ve|d|ll)\b", r"I'\1", clause)
    clause = re.sub(r"\bI am\b", "I'm", clause, flags=_I)
    clause = re.sub(r"^I(?:'ve| have) got\b", "I have", clause, flags=_I)
    clause = re.sub(r"\bI would\b", "I'd", clause, flags=_I)
    clause = re.sub(r"\bdo not\b", "don't", clause, flags=_I)
    clause = re.sub(r"\b(?:cannot|can not)\b", "can't", clause, flags=_I)
    clause = re.sub(r"\bwill not\b", "won't", clause, flags=_I)
    clause = _PLACE_POINTED_THEN_NAMED.sub(r"\g<said> ", clause)
    clause = re.sub(r"\s+", " ", clause).strip()
    clause = _closed(_without_stray_closers(without_ending(clause, _EN_TRAILING), _EN_TRAILING))
    # A dotted short form keeps its last full stop: "…in Washington, D.C.", "…at M.I.T."
    return clause + "." if _DOTTED_END.search(clause) else clause


# "It's me who…", "I'm the one (who)…": who it is, said of the user ("My son is fine, it's
# me who is allergic to shrimp"), read as the plain statement; a "not my son" beside it
# names the other person, not a wrong value.
_EN_NOT_THEM = (
    r"not (?:my|his|her|their|our|the)\s+[\w'’-]+(?:\s+[\w'’-]+){0,3}|not (?:him|her|them)"
)
_EN_CLEFT = re.compile(
    # "it's me who…", "it's me, not my son, who…"
    r"^(?:it(?:'s|’s| is| was)\s+(?:actually\s+|really\s+|just\s+|only\s+)?me"
    rf"(?:\s*,\s*(?:{_EN_NOT_THEM})\s*,)?\s+(?P<who>who|that)"
    r"|(?:I'm|I’m|I am)\s+(?:actually\s+|really\s+|just\s+)?the one(?:\s+(?P<who2>who|that))?)"
    r"(?:(?P<s>'s|’s)\s+|\s+)(?=\S)",
    _I,
)
_EN_CLEFT_AROUND = re.compile(
    rf"^(?:(?:it's|it’s|it is|it was)\s+)?(?:{_EN_NOT_THEM})\s*[,;:—–-]+\s*(?=(?:it|I))"
    rf"|\s*[,;:—–-]?\s+(?:and\s+|but\s+)?(?:{_EN_NOT_THEM})[.!]?$",
    _I,
)
_CLEFT_VERBS = {"is": "I'm", "am": "I'm", "was": "I was", "has": "I have", "does": "I do",
                "doesn't": "I don't", "isn't": "I'm not", "with": "I have"}  # fmt: skip
# fmt: off
_CLEFT_KEPT = frozenset(["can", "can't", "cannot", "must", "won't"])  # "I must avoid sugar"
_CLEFT_MODAL = frozenset(["should", "might", "could", "would", "will", "shall"])
_CLEFT_ADVERBS = frozenset([
    "never", "always", "also", "only", "really", "actually", "still", "usually", "often",
    "rarely", "hardly", "barely", "already", "just", "sometimes", "mostly", "generally", "seldom",
])
# "it's me who the doctor diagnosed…", "…that my doctor says…": a clause with its own subject
_CLEFT_NOT_A_VERB = frozenset([
    "the", "a", "an", "my", "his", "her", "their", "our", "your", "they", "he", "she", "we",
    "you", "it", "this", "that", "these", "those",
])
# fmt: on
_CLEFT_PLACE = frozenset(
    [
        "in",
        "on",
        "at",
        "by",
        "behind",
        "near",
        "next",
        "over",
        "under",
        "from",
        "for",
        "to",
        "of",
        "here",
        "there",
    ]
)


def _en_cleft(text: str) -> str:
    """ "it's me who is allergic to shrimp" → "I'm allergic to shrimp"; other text unchanged."""
    head = _EN_CLEFT.match(text)
    if head is None:
        return text
    rest = _EN_CLEFT_AROUND.sub("", text[head.end() :])
    if head["s"]:  # "it's me who's vegan"
        return "I'm " + rest
    if rest[:10].casefold() == "no longer ":  # "who no longer eats meat"
        verb, _, after = rest[10:].partition(" ")
        return f"I no longer {base_form(verb)} {after}".strip()
    word, _, after = rest.partition(" ")
    low = word.casefold().replace("’", "'")
    if low in _CLEFT_NOT_A_VERB:
        return text
    if low in _CLEFT_VERBS:
        return f"{_CLEFT_VERBS[low]} {after}".strip()
    if low in _CLEFT_KEPT:
        return "I " + rest
    if low in _CLEFT_MODAL:  # "it's me who should apologise": no lasting fact
        return text
    if low in _CLEFT_ADVERBS:  # "who always cooks" → "I always cook"
        verb, _, after = after.partition(" ")
        return f"I {word} {base_form(verb)} {after}".strip()
    if not (head["who"] or head["who2"]):  # "I'm the one allergic to shrimp"
        # "I'm the one in the red jacket": where, not what the user is
        return text if low in _CLEFT_PLACE else "I'm " + rest
    return f"I {base_form(word)} {after}".strip()  # "who needs" → "I need"


def _cleft(sentence: str, zh: bool) -> str:
    """A sentence that says the user, not someone else, is the one: said plainly.

    "Not my son, it's me who is allergic to shrimp" → "I'm allergic to shrimp";
    "不是我儿子，是我对虾过敏", "是我对虾过敏，不是我儿子", "对虾过敏的是我" → "我对虾过敏";
    what one reacts to said first: "花生和虾，我都过敏", "海鲜我也过敏" → "我对花生和虾过敏".
    """
    if zh:
        topic = _ZH_TOPIC_FIRST_NEED.match(sentence)
        if topic is not None and topic["comma"] and not _ZH_A_LIST.search(topic["what"]):
            topic = None if topic["all"] not in ("都", "全都", "统统", "一概") else topic
        if topic is not None:  # (before a comma, a list or "都": "好巧，我也过敏" names none)
            plain = f"我对{topic['what']}{topic['how'] or ''}过敏"
        elif (pseudo := _ZH_PSEUDO_CLEFT.match(sentence)) is not None:
            plain = "我" + pseudo["what"]
        elif (cleft := _ZH_CLEFT.match(sentence)) is not None:
            plain = "我" + _ZH_CLEFT_TAIL.sub("", sentence[cleft.end() :], count=1)
        else:
            return sentence
        # only what a rule reads (a need, a taste…): "是我选的餐厅", "站在中间的是我",
        # "是我应该道歉" are moments, and stay as they were
        return plain if match_clause(_zh_normalise(plain), True) is not None else sentence
    lead = _EN_CLEFT_AROUND.match(sentence)
    if lead is not None and _EN_CLEFT.match(sentence[lead.end() :]):
        sentence = sentence[lead.end() :]
    return _en_cleft(sentence)


# "花生和虾，我都过敏", "像花生这类坚果，我都过敏", "海鲜我也过敏": what comes first (not a
# pronoun: "这些我都过敏" names nothing; not someone: "我儿子，我都…")
_ZH_TOPIC_FIRST_NEED = re.compile(
    r"^(?:像|比如|对于|至于|说到)?(?!这|那|它|他|她|都|也|是的|是啊|对的|对啊|没错|没有|不是|好的|好吧|嗯|哦|"
    r"真巧|好巧|真的|谢谢|谢天谢地|除了|可能|好像|也许|大概|估计|以前|之前|小时候|从前|过去|原来|现在|最近|今年|"
    r"去年|医生|听说|没想到|真倒霉|倒霉|好惨|没办法|不幸|是这样|幸好|还好|其实|结果|后来|然后|所以|因为|但是|不过)"
    r"(?P<what>[^，,。！？!?我你他她们说对吧吗呢啊]{1,20}?)(?:(?P<comma>[，,])\s*)?"
    r"我(?P<all>都|也|全都|统统|一概|还)(?P<how>严重|非常|很|有点|特别)?过敏[。！!]?$"
)
_ZH_A_LIST = re.compile(r"[和、及与跟]")
_ZH_THEM = rf"(?:我的?)?(?:{KIN_ZH})|他们|她们|他|她"
# "是我对虾过敏" (not "是我的…", "是我妹妹…"), after "不是我儿子，" too
_ZH_CLEFT = re.compile(
    rf"^(?:其实|实际上|不过|但是?)?(?:(?:而)?不是(?:{_ZH_THEM})[^，,]{{0,4}}[，,]\s*(?:而)?)?"
    rf"(?:其实|实际上)?(?:就)?是我(?!的|们|{KIN_ZH})(?=\S)"
)
# "…，不是我儿子" after a cleft: the other person, no wrong value
_ZH_CLEFT_TAIL = re.compile(rf"(?<=\S)[，,]\s*(?:而)?不是(?:{_ZH_THEM})\S{{0,8}}?[。！!]?$")
# "对虾过敏的是我", "不吃猪肉的其实是我，不是我老婆"
_ZH_PSEUDO_CLEFT = re.compile(
    rf"^(?!.*(?:说|觉得|认为|以为|听说))(?P<what>[^，,我你他她]{{2,24}}?)的(?:人|那个)?"
    rf"(?:其实|就|才)?是我(?:自己)?"
    rf"(?:[，,]\s*(?:而)?不是(?:{_ZH_THEM})\S{{0,4}})?[。！!]?$"
)


# The user said another way at the start of a Chinese clause: "本人", "俺", or English "I".
_ZH_I = re.compile(r"^(?P<i>本人|俺|I'm (?:an? )?|I am (?:an? )?|I )(?=(?P<next>[^A-Za-z]))")
_ZH_VERB_NEXT = frozenset("在住对不没很也已刚想要会喜有叫去来从是")


def _zh_i(match: re.Match[str]) -> str:
    """ "我", or "我是" for "I'm" before a Chinese noun ("I'm 素食者"; "I'm 在上海工作" is 我在…)."""
    before_noun = "\u3400" <= match["next"] <= "\u9fff" and match["next"] not in _ZH_VERB_NEXT
    return "我是" if match["i"].startswith(("I'm ", "I am ")) and before_noun else "我"


def _zh_normalise(clause: str) -> str:
    clause = re.sub(r"\s+", " ", clause).strip()
    clause = _ZH_I.sub(_zh_i, clause)  # "俺是东北人", "I'm 素食者", "I'm 在上海工作"
    return _closed(_without_stray_closers(without_ending(clause, _ZH_TRAILING), _ZH_TRAILING))


def _subject(clause: str, zh: bool) -> str | None:
    if zh:
        if _ZH_OTHER.match(clause) or _named_someone(clause):
            return _OTHER
        return _SELF if clause.startswith(("我", "本人")) else None
    if _EN_SELF.match(clause):
        return _SELF
    return _OTHER if _EN_OTHER.match(clause) else None


_EN_I_INSIDE = re.compile(r"(?:\S+\s+){1,2}I\b")
_ZH_SOMEONE_ELSE = re.compile(
    rf"^(?:[^，,]{{1,24}}?的(?:人)?(?:其实|就|才)?)?是?(?:我的?|他的?|她的?)(?:{KIN_ZH})|^是(?:他|她)"
)  # "…，是我儿子过敏", "喜欢猫的是我女儿"


def _implied(fragment: str, zh: bool, before: str = "") -> str | None:
    """The fragment with the user as implied subject, when that makes a known statement.

    A bare name never does: "I get it, Jon." addresses Jon, it does not name the user.
    """
    if zh and _ZH_SOMEONE_ELSE.match(fragment):  # "…，是我儿子过敏": someone else is
        return None
    # "我有食物过敏，比如对花生过敏": an example that is a need of its own (only a need: "我改掉了
    # 坏习惯，比如每天喝可乐" is no habit the user has)
    opening = _ZH_FOR_EXAMPLE.match(fragment) if zh else None
    example = opening is not None
    if opening is not None:
        fragment = fragment[opening.end() :]
    if not zh and _EN_I_INSIDE.match(fragment):  # "now I visit it": "I" is there already
        return None
    if not zh and _A_PILL_FIRST.match(fragment):
        return None  # "I take metformin, fish oil and melatonin": no "I fish oil"
    if not zh and _EN_NOUN_SUBJECT.match(fragment):
        return None  # "I'm pescatarian, so fish is fine": a thing said of, no "I fish"
    if (
        not zh
        and _THINGS_ONLY.fullmatch(fragment)
        and _A_THING_LAST.search(before.rstrip(" ,.!")) is not None
    ):
        # "I'm allergic to nuts, fish and milk": no "I fish and milk" (but "I garden, and
        # fish" names no thing before it: the user fishes, attacker 348)
        return None
    for prefix in ("我",) if zh else ("I ", "I'm "):
        if prefix == "I " and no_verb_after_adverbs(fragment):
            continue  # "…, mostly sushi": no "I mostly sushi"
        clause = prefix + fragment
        candidate = match_clause(clause, zh)
        if candidate is not None and candidate.slot not in ("name", "surname"):
            return clause if candidate.constraint or not example else None
        # what the user gave up, with "I" dropped: "我膝盖受伤了，不打篮球了"
        if not example and (gone := match_retraction(clause, zh)) is not None and gone.retract:
            return clause
    return None


_ZH_FOR_EXAMPLE = re.compile(FOR_EXAMPLE_ZH)
# A fragment whose first word or two are the subject of "is"/"are" ("fish is fine", "red
# meat is out"): a thing the user speaks of, not a verb the user does.
_EN_NOUN_SUBJECT = re.compile(
    r"^(?:so |but |and )?[\w'-]+(?: [\w'-]+)?\s+(?:is|are|was|were|isn't|aren't|wasn't|weren't)\b",
    _I,
)
_A_SUPPLEMENT_FIRST = re.compile(rf"(?:{SUPPLEMENT_EN})\b", _I)
# ("…, atorvastatin and metformin daily": no "I atorvastatin" either)
_A_PILL_FIRST = re.compile(rf"(?:{SUPPLEMENT_EN}|{MEDICATION_NAME_EN})\b", _I)
# (things a need names, and nothing else: "fish and milk", "fish, or squid", "duck")
_A_THING_LAST = re.compile(rf"\b(?:{NEED_THING_EN})$", _I)  # (the clause before ends a list)
_THINGS_ONLY = re.compile(
    rf"(?:(?:and|or) )?(?:{NEED_THING_EN})(?:(?:,? (?:and|or)|,) (?:{NEED_THING_EN}))*[.!]*", _I
)
_ZH_BARE_CONDITION = re.compile(rf"\s*(?:和|及|还有)?{CONDITION_ZH}\s*")
# A need's examples after it: "…，比如杏仁和腰果", "…，像虾和蟹" (things only: "…，比如昨天吃了
# 虾就住院了" is a story, "…，像我爸一样" someone else)
_ZH_EXAMPLES_AFTER = re.compile(rf"[，,](?:{FOR_EXAMPLE_ZH})(?P<things>[^，,。]{{1,40}})$")


def _zh_need_with_examples(clause: str) -> Candidate | None:
    """The need a Chinese clause states before its examples, which its content keeps (as
    "User is allergic to nuts, like almonds" does); ``None`` when no need comes first."""
    tail = _ZH_EXAMPLES_AFTER.search(clause)
    if tail is None or not zh_things(tail["things"]):
        return None
    if (need := match_clause(clause[: tail.start()], True)) is None:
        return None
    if not need.constraint:
        return None
    need.content += clause[tail.start() :]
    return need


# English drops "I'm" before an effort: "Hoping to…", "Trying to…", "Training for…", "Been vegan…".
_EN_DROPPED = re.compile(
    r"^(?:based in|living in|(?:hoping|planning|trying|aiming|learning) to|(?:aiming|training|studying|saving up) for|"
    r"working (?:towards?|on my)|been|no longer|not (?=.+ (?:anymore|any more|any longer)$))\b",
    _I,
)


# A need said as a form's field ("Allergies: peanuts, shellfish", "Food allergies - sesame",
# "Diet: vegan", "Conditions: asthma", "Medications: metformin", "Accessibility: wheelchair
# user"), not one that is empty ("Allergies: none").
_EN_NEED_LABEL = re.compile(
    rf"^{NEED_FIELD_BEFORE_EN}(?:(?P<allergy>allerg(?:y|ies|ic(?:\s+to)?)|allergens?)"
    rf"|(?P<intolerance>intolerances?)|(?P<other>{DIET_FIELD_EN}|(?P<access>{ACCESS_FIELD_EN}))"
    rf"|(?P<condition>{CONDITION_FIELD_EN})|(?P<medication>{MEDICATION_FIELD_EN}))"
    r"\s*(?::|\s[-–—])(?!\s*-|\W*$)\s*",  # (an empty answer: _NO_FIELD_ITEM)
    _I,
)
# Kin said as family say it: someone else only as the user's ("My gran is coming to stay.
# Conditions: dementia"; not "Gran Canaria", "NaN", a title: "Name: Mrs Jane Smith").
_KIN_MORE_EN = (
    r"gran|granny|grannie|nan|nana|nanna|grandad|granddad|gramps|grampa|gramma|oma|opa|abuela|"
    r"abuelo|in-laws|mother-in-law|father-in-law|stepson|stepdaughter|step-son|step-daughter|"
    r"hubby|missus"
)
_MY_KIN_MORE_EN = rf"(?:my|our)\s+(?:{_KIN_MORE_EN})"
# Someone or something else a message is about, whose conditions, medications or access needs a
# form's fields may be: kin and others of the user's, a pet, a patient, a guest, a character, a
# case study, a quiz ("My dad saw the cardiologist.\nDiagnosis: hypertension").
_OTHERS_IN_MESSAGE = re.compile(
    # "Gran is coming to stay", "Nana's meds list" (not "Gran Canaria", "Nan Goldin", "NaN"; a
    # title or a carer named is no one else: "Name: Mrs Ada Obi", "My caregiver's number")
    r"(?-i:\b(?:Gran|Granny|Nan|Nana|Nanna|Grandad|Gramps)\b(?!\s+[A-Z]))|"
    rf"\b(?:{KIN_EN}|{_MY_KIN_MORE_EN}|partner|friend|colleague|coworker|roommate|flatmate|guest|"
    r"traveller|traveler|passenger|patient|client|resident|student|child|kid|baby|pet|dog|cat|vet|"
    r"character|hero|heroine|novel|story|episode|season|case study|exam|quiz|question|homework|"
    r"assignment|scenario|example|sample|template|he|she|his|her|him|they|their|them)s?\b|"
    rf"(?:{KIN_ZH})|朋友|同事|室友|病人|患者|客人|宠物|狗|猫|角色|小说|案例|考试|题目|作业|例子|(?<!其)他|她",
    _I,
)


# A sentence that heads someone else's record, after which an allergy or diet field is theirs:
# "My son's intake form.", "Here are my wife's details", "Filling this in for my dad",
# "我女儿的入园登记", "帮我老公填个表" (not "My colleague recommended this place", "Hiking with
# my dad", "Booking for my husband and me": the user's own field there, kept).
_THEIRS_WHO = (  # (not "my family", which the user is one of)
    rf"(?:my|our)\s+(?:[\w-]+\s+){{0,2}}?(?!family\b|household\b)(?:{KIN_EN_OWNED}|{_KIN_MORE_EN}|guest"
    r"|patient|client|student)(?:\s+(?-i:[A-Z][a-z]+))?"  # "my son Tom"
)
_RECORD = (
    r"(?:forms?|details|profile|chart|records?|info|information|notes|registration|application"
    r"|sign-?up|intake|sheet|card|meds\s+list)"
)
_THEIR_RECORD = re.compile(
    # "My son's intake form", "Here are my wife's details", "My son Tom's form, he's 6"
    r"(?:(?:here(?:'s| is| are)|this is|these are|below (?:is|are)|attached (?:is|are))\s+)?"
    rf"{_THEIRS_WHO}(?:'s|s'|’s)\s+(?:[\w-]+\s+){{0,2}}?{_RECORD}(?:\s*,\s*(?:he|she)'s\s+\d+)?"
    # "Here's her form", "This is his info"
    rf"|(?:here(?:'s| is)|this is|attached is)\s+(?:his|her)\s+(?:[\w-]+\s+)?{_RECORD}"
    # "Booking for my husband", "This is for my dad": for them alone (not "Notes for my boss":
    # the user's own, for someone to read)
    r"|(?:(?:this is|it's|booking|a booking|reservation|a reservation|a table|order"
    r"|filling (?:this|it) (?:in|out))\s+)?(?:for|on behalf of)\s+"
    rf"{_THEIRS_WHO}"
    # "Signing up my daughter for camp", "Registering my son for nursery"
    rf"|(?:signing up|registering|enrolling|enroling|booking in)\s+{_THEIRS_WHO}"
    r"(?:\s+(?:for|at|in|on|with)\s+[\w' -]{1,30})?"
    # "My daughter saw the allergist", "My son had his allergy test": a visit of theirs
    rf"|{_THEIRS_WHO}\s+(?:just\s+|finally\s+)?(?:saw|visited|went to(?:\s+see)?|was seen by"
    r"|(?:got|was) tested by)\s+(?:the\s+|an?\s+|(?:his|her|their)\s+)?(?:allergist|doctor"
    r"|paediatrician|pediatrician|gp|dermatologist|immunologist|specialist)(?:\s+today|\s+yesterday)?"
    rf"|{_THEIRS_WHO}\s+(?:just\s+)?(?:had|got)\s+(?:(?:his|her|their|an?)\s+)?(?:allergy\s+)?"
    r"(?:tests?|test results|check-?up|skin[- ]prick test)(?:\s+(?:done|back))?(?:\s+today|\s+yesterday)?"
    # "我女儿今天去看了过敏科", "我儿子做了过敏原检测"
    rf"|我的?(?!家人|家里人|全家)(?:{KIN_ZH})(?:今天|刚|刚刚|昨天)?(?:去)?(?:看了|做了)"
    r"(?:过敏科|医生|儿科|皮肤科|过敏测试|过敏原检测|体检)"
    # "我女儿的入园登记", "帮我妈妈填个表", "帮我儿子报名夏令营", "替我爸报名体检"
    rf"|(?:这是|下面是|以下是|帮|替|给)?我的?(?!家人|家里人|全家)(?:{KIN_ZH})的?[\u4e00-\u9fff]{{0,4}}?"
    r"(?:表|单|登记|病历|资料|信息|档案|情况)"
    rf"|(?:帮|替|给)我的?(?!家人|家里人|全家)(?:{KIN_ZH})(?:报名|预约|登记|订)[\u4e00-\u9fff]{{0,8}}",
    _I,
)


# …until the user speaks of their own ("My allergies:", "Me:", "Mine", "(me)", "我的过敏").
_USERS_OWN = re.compile(rf"\b(?:my|me|mine|myself|I|I'm|I've)\b|{ME_ZH}", _I)


# An access need: "wheelchair user", "step-free access", "a hearing loop" (not "great", "92",
# "WCAG AA compliance", "car").
_ACCESS_ITEM = re.compile(
    r"(?:(?:uses?|needs?|requires?|with)\s+)?(?:an?\s+|the\s+)?(?:wheelchair(?:\s+(?:user|access))?"
    r"|step-free(?:\s+access)?|level access|ramps?|lifts?|elevators?|(?:walking\s+)?(?:cane|stick|frame|walker|"
    r"rollator|crutches|aid)|mobility scooter|hearing loop|sign language(?: interpreter)?|bsl|asl|large print|"
    r"braille|screen reader|(?:service|guide|assistance) (?:dog|animal)|ground[- ]floor(?: room)?|"
    r"accessible (?:room|bathroom|toilet|parking|entrance|seating)|no stairs|captions|subtitles|blue badge|"
    r"disabled parking|hearing aids?)",
    _I,
)


# What a joke says one is allergic to (no need): "Allergic to commitment", "Allergies: taxes".
_NOT_A_NEED_EN = (
    r"(?:nothing|everything|anything|each other|one another|people|idiots|fools|stupidity|work|hard work|"
    r"school|homework|effort|life|fun|drama|commitment|responsibility|exercise|cardio|running|the gym|gym|"
    r"waking up|early mornings?|mornings?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|weekdays|"
    r"math|taxes|traffic|criticism|small talk|bad jokes|bad vibes|nonsense|mediocrity|stuff|decisions|"
    r"meetings|zoom calls|spreadsheets|excel|python|javascript|jira|being on time)\b"
)
_FIELD_ITEMS = re.compile(r"\s*(?:[,;/&]|\band\b|\bor\b)\s*", _I)
# An item that is no thing: a clause, someone, an empty answer or a remark ("my sister has
# them", "NKDA", "nope", "see chart", "acting up again", "people who chew loudly").
_NO_FIELD_ITEM = re.compile(
    r"\b(?:I|I'm|my|his|her|their|our|you|he|she|they|them|it|is|are|was|were|has|have|had|who|which|"
    r"that|not|no(?!\s+(?:known\s+)?\w)|none|nope|nah|nada|zero|nil|nkda|nka|nkfa|n/?a|unknown|unsure|dunno|"
    r"idk|tbd|see|ask|same|usual|worst|getting|acting|season|today|again|lol|haha|lmao|rofl|starts?|started|"
    r"going|goes|went|begins?|whatever|suggest|badly|over|hmm+|ok|okay|hubby|kiddo|missus|please|"
    r"list|here|inform|notify|insert|enter|fill|allerg(?:y|ies)|"
    rf"{KIN_EN})\b|[:?\[\]_<>]|{_NOT_A_NEED_EN}",
    _I,
)
# The user's own remark after a field's answers ("Allergies: peanuts, I carry an EpiPen").
_FIELD_OWN_REMARK = re.compile(r"\s*[,;]\s*(?P<remark>(?:I|I'm|I've|I'd)\b.*)$")
# "Allergies: none except penicillin", "Allergies: nothing but latex": the exception is the need.
_NONE_EXCEPT = re.compile(
    r"(?:none|nothing|no(?:ne)? (?:known |other |food |drug )?allergies)\s*,?\s*"
    r"(?:except(?: for)?|but|apart from|other than|besides|save)\s+",
    _I,
)
_DIET = re.compile(
    rf"(?:{DIET_EN})|low[- ](?:carb|fodmap|sodium|salt|fat|sugar|gi)|diabetic|no\s+(?:{NEED_THING_EN})",
    _I,
)


def _said_as_field(sentence: str, health: bool = True) -> str:
    """``sentence`` with a need said as a form's field said as the user would say it
    ("Allergies: peanuts" → "I'm allergic to peanuts", "Diet: vegan" → "I'm vegan", "Diet:
    low FODMAP" → "My diet: low FODMAP"), unless an item is no thing: a clause, someone, an
    empty answer or a remark ("Allergies: my sister has them", "NKDA", "Diet: starts
    Monday": attacker 278), then it is left as said."""
    label = _EN_NEED_LABEL.match(sentence)
    if label is None:
        return sentence
    rest = sentence[label.end() :]
    if (but := _NONE_EXCEPT.match(rest)) is not None:
        rest = rest[but.end() :]
    remark = False
    if (own := _FIELD_OWN_REMARK.search(rest)) is not None:
        # "Allergies: peanuts, I carry an EpiPen": the answer without the user's remark (the
        # peanuts were lost); "…, I outgrew it" says it is over
        if REMARK_OVER.fullmatch(own["remark"]):
            return ""  # no need of the user's now
        rest, remark = rest[: own.start()], True
    items = [item for item in _FIELD_ITEMS.split(rest.rstrip(" .!")) if item]
    if not items or _NO_FIELD_ITEM.search(rest) or any(len(item.split()) > 4 for item in items):
        return sentence
    if label["allergy"]:
        return f"I'm allergic to {rest}"
    if label["intolerance"]:
        return f"I'm intolerant to {rest}"
    if remark:
        return sentence
    if not health and (label["condition"] or label["medication"] or label["access"]):
        return sentence  # (maybe someone else's: see _OTHERS_IN_MESSAGE)
    if label["condition"] or label["medication"]:
        # (one item ruled out rules the field out: "Conditions: asthma, sunny" is no form, and
        # "…, cured", "…, suspected", "…, Nana's", "Meds: insulin, avoid" say it is no need
        # of the user's now: attacker 302)
        known = CONDITION_ITEM_EN if label["condition"] else MEDICATION_ITEM_EN
        if not all(known.fullmatch(item) for item in items):
            return sentence
        if label["medication"]:  # the supplements last: "I take fish oil, metformin…" kept
            items.sort(key=lambda item: _A_SUPPLEMENT_FIRST.match(item) is not None)
        things = ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else items[0]
        return f"I have {things}" if label["condition"] else f"I take {things}"
    if label["access"]:
        return (
            f"My accessibility needs: {rest}"
            if all(map(_ACCESS_ITEM.fullmatch, items))
            else sentence
        )
    if all(_DIET.fullmatch(item) for item in items) and not items[0].casefold().startswith("no "):
        return f"I'm {rest}"  # "Diet: vegan, no soy"
    return f"My {label['other'].casefold()}: {rest}"


# …in Chinese: "过敏：花生，芝麻" is "我对花生、芝麻过敏" (so "我对芝麻不过敏了" withdraws one),
# "病史：哮喘，高血压" is "我有哮喘和高血压"; an answer that is none or not known yet ("过敏：待查",
# "病史：不详", "忌口：无") says nothing.
_ZH_NEED_LABEL = re.compile(r"\s*(?:食物|药物)?过敏(?:原|源|史)?\s*[:：]\s*")
_ZH_CONDITION_LABEL = re.compile(rf"\s*(?:{CONDITION_FIELD_ZH})\s*[:：]\s*")
_ZH_DENIED = re.compile(r"(?:否认|无|没有|未见|未发现|未患)")
_ZH_NO_ANSWER = re.compile(
    rf"\s*(?:(?:食物|药物)?过敏(?:原|源|史)?|{CONDITION_FIELD_ZH}|忌口|饮食禁忌"
    r"|用药|服药)\s*[:：]\s*(?:无|没有|暂无|不详|不清楚|不确定|不知道|未知|待查|待定|未查|没查过?|还没查"
    r"|尚未检查|未检查)[\s。.！!]*"
)
_ZH_HOW_BAD = re.compile(r"(?:很|非常|特别)?(?:严重|轻微|轻度|重度|中度)")  # "过敏：青霉素 严重"
_ZH_FIELD_ITEMS = re.compile(r"\s*[，,、/和及]\s*|\s+")
_ZH_NO_THING = re.compile(r"[我你他她它不没无未请见详待查吗呢吧是有点？?：:（）()]|好像|反应")
_ZH_NONE_BUT = re.compile(r"(?:无|没有|暂无)\s*[，,]?\s*(?:除了|只有)(?:对)?")  # "无，除了青霉素"


def _zh_said_as_field(sentence: str, health: bool = True) -> str:
    """``sentence`` with a Chinese allergy field said as the user would say it ("过敏：花生，
    芝麻" → "我对花生、芝麻过敏"), unless an item is no thing (someone, a clause, "无", "不详");
    a condition field ("病史：哮喘" → "我有哮喘"), when each item names one; "" for a need field
    answered with none or not known ("过敏：待查")."""
    if _ZH_NO_ANSWER.fullmatch(sentence):
        return ""
    if health and (condition := _ZH_CONDITION_LABEL.match(sentence)) is not None:
        rest = sentence[condition.end() :].rstrip("。！!. ")
        if _ZH_DENIED.match(rest):
            return ""  # "既往史：否认高血压，糖尿病", "病史：无糖尿病，无高血压": none of them
        items = [i for i in _ZH_FIELD_ITEMS.split(rest) if i]
        if not items or not all(CONDITION_ITEM_ZH.fullmatch(item) for item in items):
            return sentence
        said = "、".join(items[:-1]) + "和" + items[-1] if len(items) > 1 else items[0]
        return f"我有{said}"
    label = _ZH_NEED_LABEL.match(sentence)
    if label is None:
        return sentence
    rest = sentence[label.end() :].rstrip("。！!. ")
    if (but := _ZH_NONE_BUT.match(rest)) is not None:
        rest = re.sub(r"(?:以外|之外|过敏)$", "", rest[but.end() :])
    items = [i for i in _ZH_FIELD_ITEMS.split(rest) if i and not _ZH_HOW_BAD.fullmatch(i)]
    if not items or any(len(item) > 8 or _ZH_NO_THING.search(item) for item in items):
        return sentence
    return f"我对{'、'.join(items)}过敏"


# A need said without "I'm" ("Allergic to peanuts.", "Severely allergic to bees", "Lactose
# intolerant.", "Celiac.", "Vegan."): a diet word only when it is all that is said ("Vegetarian
# restaurants near me" is no diet).
_EN_DROPPED_NEED = re.compile(
    r"^(?:(?:very|really|severely|highly|mildly|deathly|super|also|extremely|slightly|strictly|fully)\s+)*"
    rf"(?:(?:allergic|intolerant|hypersensitive)\s+to\s+(?!{_NOT_A_NEED_EN}|(?:you|me|him|her|them)\b)(?=\w)"
    r"|(?:lactose|gluten|fructose|histamine|dairy|"
    r"wheat|soy)\s+intolerant\W*$|(?:celiac|coeliac|diabetic|pregnant|vegan|vegetarian|pescatarian|"
    r"(?:gluten|dairy|lactose|nut)[- ]free|halal|kosher)\W*$)",
    _I,
)
_EN_ANOTHER_PERSON = re.compile(
    # who the need is of, said after it or for it: "Diabetic, my dad.", "Allergic to peanuts:
    # my son.", "…not me, my son", "For my daughter: …", "…, says my sister"; not one said
    # beside it ("Vegan, like my mom", "Allergic to peanuts, my son is too")
    rf"\bnot me\b|\b(?:for|says|said)\s+(?:my|his|her|our)\s+(?:\w+\s+)?(?:{KIN_EN_OWNED}|roommate|flatmate)\b"
    rf"|(?:^|[,;:—–-])\s*(?:my|his|her|our)\s+(?:\w+\s+)?(?:{KIN_EN_OWNED}|dog|cat|roommate|flatmate)\W*$",
    _I,
)
# …or what the user's need keeps them from, after it ("I'm pregnant, so no raw fish").
_EN_SO_NO = re.compile(
    r"^(?:(?:so|and|but|hence|therefore|which means)\s+)?no\s+(?!(?:problem|worries|thanks|way|idea|clue|"
    r"rush|need|doubt|pressure|offen[cs]e|comment|hurry|kidding|joke|big deal|chance|more|one|matter|kids?|"
    r"car|pets?|time|money|job|plans?|reason|wonder|longer|judgement|judgment)\b)(?P<x>[\w -]{2,30}?)\W*$",
    _I,
)
_EN_EXPECTING = re.compile(r"\b(?:pregnant|breastfeeding|nursing|expecting)\b", _I)
# …or an allergy said as a noun alone ("Nut allergy.", "Severe peanut allergy."): "I have a…".
_EN_DROPPED_ALLERGY = re.compile(
    r"^(?P<article>an?\s+)?(?:(?:severe|mild|bad|serious|life-threatening|deadly|slight)\s+)?"
    # (the thing first: not "a real allergy", "some allergies", "the allergy")
    r"(?!(?:real|true|actual|genuine|proper|big|huge|major|minor|little|small|weird|strange|rare|common|"
    r"new|old|an?|the|this|that|some|any|no|my|your|his|her|their|our)\b)"
    r"[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+(?:allerg(?P<one>y)|allergies|intoleranc(?P<one2>e)|intolerances)\W*$",
    _I,
)
# …"I", not "I'm", before "no longer" and a verb ("I'm sober, no longer drink": not "I'm no
# longer drink", which withdrew every fact of drinking, coffee too).
_EN_NO_LONGER_DOING = re.compile(
    r"no longer (?:drink|smoke|vape|eat|drive|gamble|work|live|play|use|take|need|have|own|do|go"
    r"|follow|keep|ride|cook|run|travel|study|teach|attend|wear|cycle|swim|train)\b",
    _I,
)


# …and "I" before a verb of where or how one lives ("moved to Toronto", "run a small
# bakery", "grew up in Cork"): a verb that tells a life, with a place or an object of
# one's own; or of what one cannot eat ("can't eat gluten").
# …or a verb said with its negation ("I'm Sikh and don't cut my hair"): "I don't…", never
# "User is don't cut their hair" (helper 355).
_EN_DONE_NOT = re.compile(
    r"^(?:don'?t|do not|never|can'?t|cannot|won'?t|didn'?t|rarely|always|usually)\s+(?!(?:been|be)\b)[a-z]",
    _I,
)
_EN_DROPPED_VERB = re.compile(
    r"^(?:(?:just |recently )?(?:moved|relocated) (?:to|from|here|back)|grew up (?:in|on|near)|was born in|"
    r"live (?:in|on|near|with|alone)|work (?:as|at|in|for|from)|run (?:a|an|my|our)|"
    r"own (?:a|an|two|three)|teach (?:at|in|\w+ at)|study (?:at|in)|"
    r"(?:can't|cannot|can not) (?:eat|drink|tolerate|digest))\b",
    _I,
)


# …and a taste said without "I" ("Big fan of slow travel", "honestly can't stand
# cilantro", "not a fan of horror films"): the phrase is one only a person uses of themself.
_EN_DROPPED_TASTE = re.compile(
    r"^(?:(?:honestly|really|just|totally|seriously|personally),? )?(?:"
    r"(?:an? )?(?P<fan>(?:big|huge|great|massive|die-hard|lifelong) fan of)"
    r"|(?P<stand>can't stand|cannot stand|can not stand|can't bear|cannot bear)"
    r"|(?P<not>not (?:a (?:big |huge |great )?fan of|into|keen on|fond of)))\s+(?P<rest>\S.*)$",
    _I,
)


def _taste_said_in_full(taste: re.Match[str]) -> str:
    """The dropped-subject taste with "I" put back, in the shape the taste rules read."""
    rest = taste["rest"]
    if taste["fan"]:
        return f"I'm a {taste['fan'].lower()} {rest}"
    if taste["stand"]:
        return f"I cannot {taste['stand'].lower().split()[-1]} {rest}"
    return f"I'm {taste['not'].lower()} {rest}"


# After a comma, "like" without a joining word may give examples of what came before ("I'm
# allergic to nuts, like almonds", "I hate seafood, like shrimp"); "like to …" never does.
_EN_LIKE = re.compile(r"like\b(?!\s+to\b)", _I)
# …nor "like X" that says more than X: a taste ("…, like beef a lot", "…, like tea
# instead"), or after a taste (not a need: "allergic to shellfish, like shrimp too") a word
# that may add one ("…, like tea though").
_EN_A_TASTE_SAID = re.compile(
    r"\b(?:a lot|instead|better|(?<!and )(?<!many )(?<!lots )(?<!much )(?<!even )more)\W*$", _I
)  # (not a list's "and more", "lots more")
_EN_SAYS_MORE = re.compile(r"\b(?:though|too|as well|still|anyway)\W*$", _I)
_EN_DENIED = re.compile(r"\b(?:not|never|no)\b|n't\b", _I)
# things of a kind, whose examples follow ("I have some conditions, like epilepsy")
_EN_KINDS_OF = re.compile(
    r"\b(?:some|a few|several|certain|various|all kinds of|conditions|meds|medications|"
    r"allergies|illnesses|foods|things|stuff)\b",
    _I,
)
_EN_LIKE_CONTRARY = re.compile(
    r",\s*like\b(?=[^,;.!?]{0,200}\b(?:though|tho|anyway|instead)\W*$)", _I
)


# "I visited Porto last spring, and loved every minute of it": the taste of what the clause
# before named, said after a comma; read with that clause (rules.py, "then the taste of it").
_EN_TASTE_OF_IT = re.compile(
    r",\s*(?=and (?:I )?(?:(?:really|absolutely|totally|honestly|just) )?(?:loved|liked|enjoyed"
    r"|adored|hated|disliked|loathed) (?:it|them|every (?:minute|second|page|bit) of it)\W*$)",
    _I,
)


_EN_TRIED = re.compile(rf"I {TRIED_EN}\b", _I)


def _taste_of_it_joined(sentence: str) -> str:
    """``sentence`` without the comma before a closing "and loved it" (see _EN_TASTE_OF_IT),
    when it opens with a work or a place tried ("I watched…", "I visited…")."""
    if "," not in sentence or _EN_TRIED.match(sentence) is None:
        return sentence
    return _EN_TASTE_OF_IT.sub(" ", sentence, count=1)


def _like_said_against(sentence: str) -> str:
    """``sentence`` with "…, like X though" read as "…, but like X" (a taste said against
    the clause before), unless that clause states a need: "I don't eat pork, like bacon
    though" gives examples of the need (a taste for them is the unsafe reading). Said at
    the sentence's end, the word goes when the sentence is normalised, so it is read here."""
    m = _EN_LIKE_CONTRARY.search(sentence)
    if m is None or _before_like(_en_normalise(sentence[: m.start()])) == "need":
        return sentence
    return f"{sentence[: m.start()]}, but like{sentence[m.end() :]}"


def _gives_examples(separator: str, fragment: str, before: str) -> bool:
    """Whether ", like X" after the user's clause ``before`` gives examples of it, so no
    taste for X is read with "I" put back, unless X is said as a taste ("…, like lamb a
    lot"): after a need ("allergic to shellfish, like shrimp too"), and after a taste or a
    clause that states none unless X says more ("I hate seafood, like prawns", "I'm not
    allergic to nuts, like almonds"; not "…, like tea though"); never
    after a place, a job, an age or a habit ("I live in Oslo, like skiing", "I run every
    morning, like the fresh air": the verb), nor after a joining word."""
    if separator.strip() != "," or not _EN_LIKE.match(fragment):
        return False
    kind = _before_like(before)
    if kind is None or _EN_A_TASTE_SAID.search(fragment):
        return False
    return kind == "need" or _EN_SAYS_MORE.search(fragment) is None


@functools.lru_cache(maxsize=64)
def _before_like(clause: str) -> str | None:
    """What the user's ``clause`` is to a ", like X" after it: ``"need"`` (its examples,
    whatever follows them), ``"examples"`` (a taste, a denial the rules do not read, things
    of a kind) or ``None`` (a place, a job, an age, a habit: "like" is the verb). Kept per
    clause: a clause that grew past :data:`_MAX_CLAUSE` stays the one before each of its
    fragments ("I hate …" + ", like x" x 6,000)."""
    said = match_clause(clause, False)
    if (said is not None and said.constraint) or says_need(clause):  # ("…since childhood")
        return "need"
    if said is None:  # a denial ("I'm not allergic to nuts, like almonds") or things named
        denied = _EN_DENIED.search(clause) or _EN_KINDS_OF.search(clause)
        return "examples" if denied else None
    return "examples" if said.category == FactCategory.PREFERENCE else None


# Joining words that add one more thing to a list ("and", "plus", "also", "还有"): not "but".
_ADDING = re.compile(r"^(?:(?:and|plus|also|as well as)\b\s*|还有|以及|和|跟|及)+", _I)
# One thing more: a few words, none a person or a verb of a clause of its own ("…, and dogs
# are fine", "…, and also remind me", "…，还有我老公对猫过敏" are no item of the list).
_A_THING_MORE = re.compile(
    r"(?!.*\b(?:I|me|my|you|your|we|our|he|she|they|it|is|are|am|was|were|be|been|do|does|"
    r"remind|thank|thanks|please|can|could|would|will|scared|afraid)\b)"
    r"(?:to\s+)?[A-Za-z'-]+(?:\s+[A-Za-z'-]+){0,3}|[^我你他她们的是在对不没\sA-Za-z]{1,12}",
    _I,
)


def _list_goes_on(clause: list[str | None], merged: str, zh: bool) -> bool:
    """Whether ``merged`` (``clause``'s text, a joining word and a fragment) is still what
    ``clause`` says with one thing more: "I'm allergic to peanuts" + ", and shellfish" is
    still the need, "My allergies are cashews, eggs" + ", and mould" one more item of a
    statement no rule reads. At most :data:`_MAX_CLAUSE` characters."""
    before = clause[0] or ""
    if len(merged) > _MAX_CLAUSE or not _A_THING_MORE.fullmatch(
        _ADDING.sub("", merged[len(before) :].strip(" ,，、")).strip()
    ):
        return False
    if clause[1] != _SELF:  # (joined as its enumeration is, below)
        return True
    clean = _zh_normalise if zh else _en_normalise
    said = match_clause(clean(before), zh)
    if said is None and not zh and len(two := _descriptions(clean(before))) == 2:
        # "I'm vegan and allergic to nuts, eggs" + ", and soy": one thing more of the second
        # description (see _descriptions)
        now_two = _descriptions(clean(merged))
        said, now = two[-1], (now_two[-1] if len(now_two) == 2 else None)
        return (
            bool(said.constraint)  # (a need's list: "…and love hiking, cycling" is a taste)
            and now is not None
            and (now.constraint, now.category) == (said.constraint, said.category)
        )
    if said is None and (gone := match_retraction(clean(before), zh)) is not None:
        # "I'm no longer allergic to peanuts, eggs" + ", and milk": the need withdrawn is
        # of one thing more (the milk allergy stayed)
        now = match_retraction(clean(merged), zh)
        return bool(gone.retract and says_need(gone.retract) and now is not None and now.retract)
    if said is None or not (said.constraint or said.category == FactCategory.PREFERENCE):
        return False
    now = match_clause(clean(merged), zh)
    return now is not None and (now.constraint, now.category) == (said.constraint, said.category)


# After the user's clause, "never eat pork", "don't drink alcohol": what only a person does,
# with "I" dropped ("I'm Muslim, never eat pork"), no order to the assistant (which "always
# get to the point", "never wake me" and "never get me…" are).
_EN_OWN_HABIT = re.compile(
    r"(?:never|always|usually|rarely|seldom|don't|do not)\s+(?:eat|drink|touch|smoke|consume|vape|sleep)"
    r"\b(?!\s+(?:up|me|my|us|our|it|them|to|into)\b)",
    _I,
)


def _need_list(parts: list[str], at: int, merged: str) -> tuple[str, int] | None:
    """``merged`` (a clause and the item ``parts[at]``) with the next few items of its list,
    and the index of the last one, when only then does the clause say a need; else None."""
    for j in range(at + 2, min(len(parts), at + 10), 2):
        item = parts[j].strip()
        if not _A_THING_MORE.fullmatch(_ADDING.sub("", item).strip()):
            return None
        merged = f"{merged}{parts[j - 1]}{item}"
        if len(merged) > _MAX_CLAUSE:
            return None
        if not _A_NEED_ITEM.search(item):
            continue  # (only a thing a need is of can make it one: no rule read for the rest)
        said = match_clause(_en_normalise(merged), False)
        if said is not None and said.constraint:
            return merged, j
    return None


_LIST_TRIES = 3  # looks ahead a sentence ("candesartan, " x 7,000 made 28,000 rule reads)
_A_NEED_ITEM = re.compile(rf"\b(?:{NEED_THING_EN}|{MEDICATION_NAME_EN})", _I)


def _owned(clause: str, zh: bool) -> bool:
    """Whether a clause without "I"/"我" first is still the user's statement or retraction."""
    return match_clause(clause, zh) is not None or match_retraction(clause, zh) is not None


_MAX_CLAUSE = 1_000  # characters; twice the default max_fact_chars (a longer fact is refused)
# A hedge inside an aside stays with it: "(and amoxicillin, I think)".
_HEDGE = re.compile(
    r"\s*(?:I (?:think|guess|believe|suppose|reckon)|I'm not sure|I am not sure|我(?:觉得|想|猜|估计|不确定))"
)


def _outside_brackets(parts: list[str], zh: bool) -> list[str]:
    """``[part, separator, part, …]`` with the cuts inside a closed bracket pair undone:
    "I'm vegan (no dairy, no eggs)" is one clause; a statement with a subject inside stays
    a clause of its own ("diabetic (type 2, I take metformin)", "(…, he loves steak)")."""
    if len(parts) < 3 or not any(c in _OPENING for part in parts[::2] for c in part):
        return parts
    joined = [parts[0]]
    depth = _depth(parts[0])
    closes_later = [False] * len(parts)  # a closing bracket in parts[i + 1:]
    for i in range(len(parts) - 2, -1, -1):
        closes_later[i] = closes_later[i + 1] or any(c in _CLOSING for c in parts[i + 1])
    for i in range(1, len(parts), 2):
        inside = depth > 0 and closes_later[i]
        if inside and (_subject(parts[i + 1].strip(), zh) is None or _HEDGE.match(parts[i + 1])):
            joined[-1] += parts[i] + parts[i + 1]
        else:
            joined += [parts[i], parts[i + 1]]
        depth = max(0, depth + _depth(parts[i + 1]))
    return joined


_ZH_CLOSES_NEED = re.compile(r"过敏|不耐|敏感")


def _zh_open_need(text: str) -> bool:
    """Whether ``text`` ends inside the user's need: "我对" (adverbs between) and a thing not
    yet closed by what the need is ("我对花生" of "我对花生、虾和芒果过敏"; not "我对象…", nor
    "我对这个方案很满意", which says more than a thing)."""
    last = text.rfind("对")
    return (
        last >= 0
        and _ZH_NEED_OPENS.search(text, max(0, last - 8), last + 1) is not None
        and _ZH_A_THING.fullmatch(text, last + 1) is not None
    )


# "我对", "本人对", "我从小就对", "我好像对": the user, a few words at most, "对"
_ZH_NEED_OPENS = re.compile(
    r"(?:(?:我|本人)(?!对象)[^，,。！？我你他她]{0,6}|^\s*(?:还|也|而且|并且|另外|同时)?)对$"
)  # (or a clause that drops the subject: "我乳糖不耐受，还对花生、虾过敏")
# a thing, not what the user thinks of it ("我对这个方案很满意"), nor "我对象" (a partner)
_ZH_A_THING = re.compile(r"(?!象)(?:(?!很|非常|挺|满意|认真|感激|觉得|说|过敏|不耐|敏感).){1,16}")


def _zh_listing(separator: str, part: str) -> bool:
    """Whether ``part`` is the next item of a list: after "、", or after a comma with "还有",
    "以及"… ("我对猫毛、尘螨，还有花粉过敏"), or after a comma a short thing ("我对芒果，花生
    和牛奶过敏"); not a clause of the user's own ("…、我…")."""
    if part.lstrip().startswith("我"):
        return False
    # after a comma, a thing (that may close the need): "我对芒果，花生和牛奶过敏"
    return separator.strip() == "、" or (
        separator.strip() in ("，", ",") and _ZH_ONE_MORE.fullmatch(part.strip()) is not None
    )


_ZH_ONE_MORE = re.compile(
    r"(?:还有|以及|和|及)?[^我你他她们不没也都很就是在，,。]{1,10}?(?:过敏|不耐受?|敏感)?"
)


def _zh_need_lists(parts: list[str]) -> list[str]:
    """``[part, separator, …]`` with a need's list joined back across its "、": "我对花生、
    虾和芒果过敏" is one need of three things, not "我对花生" and "虾和芒果过敏" (which kept
    the last two alone). Joined only when a later item of the list closes the need."""
    # closes[i]: the index of the first part from i on, within one list, that closes a need
    closes = [-1] * len(parts)
    for i in range(len(parts) - 1, -1, -2):
        if _ZH_CLOSES_NEED.search(parts[i]):
            closes[i] = i
        elif i + 2 < len(parts) and _zh_listing(parts[i + 1], parts[i + 2]):
            closes[i] = closes[i + 2]
    joined = [parts[0]]
    i = 1
    while i < len(parts):
        separator, part = parts[i], parts[i + 1]
        end = closes[i + 1]
        if end >= 0 and _zh_listing(separator, part) and _zh_open_need(joined[-1]):
            # (an item said again is said once: "我对花生、虾、虾…过敏" grew past what a fact
            # may hold and the peanut allergy was lost)
            seen: set[str] = set()
            for at in range(i, end + 1, 2):
                item = parts[at + 1].strip()
                if item not in seen or at + 1 == end:
                    seen.add(item)
                    joined[-1] += parts[at] + parts[at + 1]
            i = end + 1
        else:
            joined += [separator, part]
            i += 2
    return joined


def _depth(text: str) -> int:
    # Openers less closers of any kind: how deep a run of clause parts has gone.
    return sum(text.count(c) for c in _OPENING) - sum(text.count(c) for c in _CLOSING)


# The user's conditions listed after one verb ("我患有糖尿病、高血压、痛风", "我有哮喘，湿疹和鼻炎"): each
# is said with the verb (the later ones were lost, or stored as "用户高血压和痛风").
# (At a clause's start, the verb right after 我: "我有个同事得了胃炎和痛风" is a colleague's, "他以为
# 我有胃炎、痛风" no statement of the user's; without a verb, conditions by name: "我高血压、糖尿病".
# Only in a short sentence: the items' search is not linear, and no list of conditions is long.)
_ZH_CONDITIONS = re.compile(
    rf"(?:^|(?<=[，,；;。！!\s])|(?<=但)|(?<=不过)|(?<=而且)|(?<=其实)|(?<=另外)|(?<=嗯)|(?<=对了))"
    rf"(?:(?P<said>我{ADV_ZH}(?:也|还|一直)?(?:有|患有|得了|得过|查出了?|确诊了?))"
    rf"(?P<items>{CONDITION_ONE_ZH}(?:\s*[、，,和及]\s*{CONDITION_ONE_ZH})+)"
    rf"|(?P<bare>我{ADV_ZH}(?:也|还|一直)?)"
    rf"(?P<names>{CONDITION_NAME_ZH}(?:\s*[、，,和及]\s*{CONDITION_NAME_ZH})+))"
    r"(?![\u4e00-\u9fff])"
)
_ZH_CONDITIONS_MOST = 120  # characters of a sentence searched for such a list
_ZH_CONDITION_SEPARATOR = re.compile(r"\s*[、，,和及]\s*")


def _zh_each_condition(m: re.Match[str]) -> str:
    said, items = (m["said"], m["items"]) if m["said"] else (m["bare"], m["names"])
    return "，".join(said + item for item in _ZH_CONDITION_SEPARATOR.split(items))


def _dropped_subject(fragment: str) -> str | None:
    """What English dropped before ``fragment`` (:data:`_EN_DROPPED`), or ``None``: "I've "
    ("Been vegan…"), "I " ("No longer drink…"), else "I'm " ("Hoping to…")."""
    if not _EN_DROPPED.match(fragment):
        return None
    if fragment[:5].casefold() == "been ":
        return "I've "
    return "I " if _EN_NO_LONGER_DOING.match(fragment) else "I'm "


def _clauses(
    sentence: str, zh: bool, *, told: bool = True, mine: bool = True
) -> list[tuple[str, str | None]]:
    """Split at commas and conjunctions; a fragment that is no statement rejoins the previous
    clause. With ``told``, a need a doctor told the user of is theirs (:func:`_told_need`);
    without ``mine``, a need said without "I'm" is not (someone else is named)."""
    if zh and len(sentence) <= _ZH_CONDITIONS_MOST:
        sentence = _ZH_CONDITIONS.sub(_zh_each_condition, sentence)
    parts = _outside_brackets((_ZH_CLAUSE_SPLIT if zh else _EN_CLAUSE_SPLIT).split(sentence), zh)
    if zh and "对" in sentence:
        parts = _zh_need_lists(parts)
    clauses: list[list[str | None]] = []  # [text, subject]
    # Chinese drops the subject freely, so a sentence starting without one is taken as the user's.
    inherited: str | None = _SELF if zh else None
    # (a need said without "I'm" is the user's only when no one else is named in the sentence:
    # "My wife is vegan, allergic to nuts", "Diabetic, my dad.": attacker 278)
    mine = mine and (zh or _EN_ANOTHER_PERSON.search(sentence) is None)
    examples = False
    separator = ""
    joined_upto = -1  # parts already joined to a clause ahead of their turn
    list_tries = 0  # (looks ahead for a need's list: a few a sentence, not one per item)
    for i, part in enumerate(parts):
        if i <= joined_upto:
            continue
        if i % 2:
            separator += part
            continue
        raw = part.strip()
        if not raw:
            continue
        fragment = (_ZH_CONJ if zh else _EN_CONJ).sub("", raw).strip()
        had_conjunction = fragment != raw
        hedged = False
        if not zh and clauses and clauses[-1][1] == _SELF and (now := _EN_NOW_I.match(fragment)):
            # "I used to be vegan, now I eat fish": the present after a past ("now I get
            # it" alone is chat); "now I'm in Madrid" tells a home only after a past one
            rest, before = fragment[now.end() :], clauses[-1][0] or ""
            past = (_EN_PAST_HOME if rest.startswith("in ") else _EN_PAST).search(before)
            if rest.startswith("in ") and _EN_AWAY.search(sentence):
                past = None  # "…now I'm in Lyon, it's a visit": no new home
            if past and len(rest.split()) > 1 and not _EN_NOW_VAGUE.search(rest):
                fragment = f"{now['i']} now {rest}"
        if (
            zh
            and clauses
            and clauses[-1][1] == _SELF
            and (now_said := _zh_now_said(fragment, clauses[-1][0] or ""))
        ):
            fragment = now_said  # with the subject it dropped
        if (
            not zh
            and clauses
            and clauses[-1][1] == _SELF
            and (at := _EN_NOW_AT.match(fragment))
            and _EN_LEFT_WORK.search(clauses[-1][0] or "")
        ):
            fragment = f"I work {at['prep']} {at['at']}"  # "…anymore, I'm at Meta now"
        was_told = False
        if told and (said := _told_need(fragment, zh)) is not None:
            fragment, was_told = said, True  # "My allergist said I'm allergic to…": a need
        elif told and (said := _told_to(fragment, zh)) is not None:
            fragment = said  # "My doctor told me to avoid gluten": "I need to avoid gluten"
        elif not zh:  # "it turns out I have…": "I have…", read by the rules alone (_HEDGED)
            said = _without_preface(fragment)
            hedged, fragment = said != fragment, _as_statement(said)  # "Being vegan": "I'm vegan"
        # (a Chinese cleft after a clause: "我儿子没事，是我对虾过敏")
        fragment = _zh_normalise(_cleft(fragment, True)) if zh else _en_normalise(fragment)
        if zh and (first := _ZH_TOPIC_FIRST.match(fragment)):
            fragment = _zh_said_in_order(first)  # "吉他我不学了": "我不学吉他了"
        sep, separator = separator, ""
        # an item of examples: opening with "比如…", or after one and "、"
        examples = zh and ((examples and "、" in sep) or _ZH_FOR_EXAMPLE.match(raw) is not None)
        if not fragment or _INTERJECTION.fullmatch(fragment):
            continue
        if zh and (how_long := _ZH_HOW_LONG.fullmatch(fragment)):
            # "我吃素，已经五年了" / "我不吃素了，已经三年了": how long, no fact; with its verb it
            # stays with the fact it is of, as before ("我住在北京，住了十年了")
            if (
                how_long["verb"]
                and clauses
                and clauses[-1][1] == _SELF
                and len(merged := f"{clauses[-1][0]}{sep}{raw}") <= _MAX_CLAUSE
                and _owned(_zh_normalise(merged), zh)
                # (not after a retraction or a habit quit: "我戒烟了，戒了两年了" withdraws the
                # smoking)
                and "戒" not in (clauses[-1][0] or "")
                and match_retraction(_zh_normalise(clauses[-1][0] or ""), zh) is None
            ):
                clauses[-1][0] = merged
            continue
        if zh and clauses and when_again(fragment):
            continue  # "在吃华法林，手术后再吃": when it starts again, joined to nothing
        subject = _subject(fragment, zh)
        if (
            subject is None
            and clauses
            and _FROM_NOW_ALONE.fullmatch(clauses[-1][0] or "")
            and _AN_ORDER.match(fragment)
        ):
            # an order ("…, please use metric units"), not "…, I will cook", "以后，房价会涨"
            clauses[-1] = [f"{clauses[-1][0]}{sep}{raw}", None]
            continue
        if subject != _SELF and _owned(fragment, zh):
            subject = (
                _SELF  # "Penicillin gives me hives", "海鲜我不能吃", "forget the Iceland trip"
            )
        elif subject is None and not zh and (prefix := _dropped_subject(fragment)):
            fragment = prefix + fragment[:1].lower() + fragment[1:]
            subject = _SELF  # "Hoping to switch careers next year"
        elif (
            subject is None
            and not zh
            and mine
            and inherited != _OTHER
            and (said := _need_said_short(fragment, clauses[-1][0] if clauses else None))
        ):
            fragment, subject = said, _SELF  # "Allergic to peanuts", "Nut allergy."
        elif subject is None and not zh and _EN_DROPPED_VERB.match(fragment):
            fragment = "I " + fragment[:1].lower() + fragment[1:]
            subject = _SELF  # "moved to Leeds two years ago", "run a small bakery"
        elif subject is None and not zh and (taste := _EN_DROPPED_TASTE.match(fragment)):
            fragment = _taste_said_in_full(taste)
            subject = _SELF  # "Big fan of slow travel", "can't stand cilantro"
        if subject is not None:
            clauses.append([fragment, _TOLD if was_told else _HEDGED if hedged else subject])
            inherited = subject
        elif hedged:  # "Context: my laptop just died": the rules alone read it
            clauses.append([fragment, _HEDGED])
        elif (
            match_instruction(fragment, zh) is not None
            and not (zh and inherited == _OTHER and _ZH_TO_THE_ASSISTANT.search(fragment) is None)
            and not (not zh and inherited == _SELF and _EN_OWN_HABIT.match(fragment))
        ):  # "我奶奶，总是说粤语": grandma's habit, no order to the assistant
            clauses.append([fragment, None])
        elif (
            inherited == _SELF
            and not (not zh and _gives_examples(sep, raw, clauses[-1][0] or ""))
            # (a bare condition after a clause: "我有个朋友有胃炎、痛风" is the friend's; the
            # user's own lists are said each with the verb: _ZH_CONDITIONS)
            and not (zh and clauses and _ZH_BARE_CONDITION.fullmatch(fragment))
            and (implied := _implied(fragment, zh, clauses[-1][0] or "" if clauses else ""))
            is not None
        ):
            clauses.append([implied, _SELF])
        elif (
            not zh
            and mine
            and clauses
            and clauses[-1][1] == _SELF
            and (described := _described_more(fragment, clauses[-1][0] or "")) is not None
        ):
            clauses.append([described, _SELF])  # "I'm single, vegan and allergic to nuts"
        elif zh and _ZH_SOMEONE_ELSE.match(fragment):
            clauses.append([fragment, _OTHER])  # "…，是我儿子过敏": not joined to the user's
        elif (
            zh
            and "、" in sep
            and clauses
            and clauses[-1][1] == _SELF
            and not examples
            and len(merged := f"{clauses[-1][0]}{sep}{raw}") <= _MAX_CLAUSE
            and match_clause(_zh_normalise(clauses[-1][0] or ""), True) is None
        ):
            # the next item of a list in the user's own words: "我的过敏原是花生、芒果和猫毛"
            clauses[-1][0] = merged
        elif (
            zh
            and inherited == _SELF
            # a list's own comma after examples or no statement of the user's: "…，包括虾、
            # 蟹和贝类" has no "我蟹和贝类" (but "我对花生过敏、头疼好几天了" is two)
            and not ("、" in sep and (examples or not clauses or clauses[-1][1] != _SELF))
            and implied_own_words(fragment) is not None
        ):
            clauses.append([fragment, _IMPLIED])  # "失眠好几年了": the user's, in their words
        elif (
            had_conjunction
            and clauses
            and _ADDING.match(raw)
            and not (not zh and _EN_ASKING.match(fragment))
            and _list_goes_on(clauses[-1], merged := f"{clauses[-1][0]}{sep}{raw}", zh)
        ):
            # "I'm allergic to peanuts, and shellfish", "I like hiking, cycling, and swimming":
            # the last thing of a need or a taste, after a joining word (it was dropped)
            clauses[-1][0] = merged
        elif clauses and not had_conjunction and not (not zh and _EN_ASKING.match(fragment)):
            # "I like hiking, cycling and swimming": an enumeration continues the clause,
            # as long as the longer clause still says something; else the fragment is dropped.
            # Past _MAX_CLAUSE characters it is dropped unread: each join reads the whole
            # clause again ("I'm vegan" + "too, " x 4,000 took 9 s).
            merged = f"{clauses[-1][0]}{sep}{raw}"
            if len(merged) > _MAX_CLAUSE:
                continue
            if (
                clauses[-1][1] != _SELF
                or _owned(_zh_normalise(merged) if zh else _en_normalise(merged), zh)
                or (examples and _zh_need_with_examples(_zh_normalise(merged)) is not None)
                or (not zh and _description_goes_on(clauses[-1][0] or "", f"{sep}{raw}"))
            ):
                clauses[-1][0] = merged
            elif (
                not zh
                and clauses[-1][1] == _SELF
                and (list_tries := list_tries + 1) <= _LIST_TRIES
                and (whole := _need_list(parts, i, merged))
            ):
                # "I take lisinopril, rosuvastatin, and aspirin": a list that says the need
                # only once its last item is in (the middle items were dropped)
                clauses[-1][0], joined_upto = whole
        else:
            clauses.append([fragment, None])
    result: list[tuple[str, str | None]] = []
    for text, subject in clauses:
        assert text is not None
        result.append(((_zh_normalise(text) if zh else _en_normalise(text)), subject))
    return result


_EN_ANYMORE = re.compile(r"\s+(?:anymore|any more|any longer)$", _I)
_ZH_ANYMORE = re.compile(
    r"^我(?P<adv>(?:现在|已经|早就|渐渐|慢慢)*)不(?P<verb>喜欢|爱)(?P<v>.+?)了$"
    r"|^我(?P<adv2>(?:现在|已经|早就|渐渐|慢慢)*)不再(?P<verb2>喜欢|爱|吃|喝)(?P<v2>.+?)了?$"
)


_ASIDE = re.compile(r"\s*(?:\([^()]*\)|（[^（）]*）)$")  # a bracketed aside ending the clause
# An aside that takes the statement back: "I'm vegetarian (jk)", "(lol no)", "(not really)".
_JOKING = re.compile(rf"{TAKEN_BACK}|\b(?:lol|lmao|haha|not really)\b", _I)


# An aside saying who else it is not true of: "I'm allergic to cats (not my wife)", "I'm
# vegan (my husband isn't)". It says nothing of the user: it goes, the fact stays.
_EN_NOT_THEM_ASIDE = re.compile(
    rf"\s*[(（]\s*(?:but\s+|though\s+)?(?:not (?:my|his|her|their|our)\s+(?:{KIN_EN_OWNED})|not (?:him|her|them)"
    rf"|(?:my|his|her|their|our)\s+(?:{KIN_EN_OWNED})\s+(?:isn't|is not|doesn't|does not"
    r"|aren't|are not|can't|cannot|don't|do not|wasn't|won't))\s*[.!]?\s*[)）]\s*$",
    _I,
)


# Two short descriptions of the user joined ("I'm diabetic and vegan", "I'm vegan and
# allergic to nuts"): no rule reads them together, so each is read as said alone (lowercase
# words only: not "I'm Ann and Bo's mum"); the second may say what the user does ("…and live
# in Leeds", see _EN_DROPPED_VERB).
# (a heritage or a faith is written with a capital: "I'm Chinese and vegetarian", "I'm Catholic
# and vegetarian" lost the diet: helper 355)
# (…or an age: "I'm 67 and recently retired" stored one fact and no age)
_EN_DESCRIPTION = (
    rf"(?:[a-z]|\d{{1,3}}\b|(?=(?i:{DEMONYM_EN}|{FAITH_EN})\b)[A-Z])[\w'-]*(?: [\w'-]+){{0,3}}"
)
# (the second may end on a list of what it is of: "…and allergic to peanuts, kiwi and soy")
_EN_LISTED = (
    r"(?: (?:and|or) [\w'-]+(?: [\w'-]+){0,2})?(?:,\s+(?:(?:and|or)\s+)?[\w'-]+(?: [\w'-]+){0,3})*"
)
_EN_TWO_DESCRIPTIONS = re.compile(
    rf"^(?P<i>I'm|I am) (?P<a>{_EN_DESCRIPTION}) and (?P<b>{_EN_DESCRIPTION}{_EN_LISTED})$"
)
# …said after a description and a comma, with "I'm" left out: "I'm single, vegan and
# allergic to nuts", "I'm 34, diabetic and vegan"
_EN_MORE_DESCRIPTIONS = re.compile(rf"{_EN_DESCRIPTION}(?: and {_EN_DESCRIPTION})?")


def _description_goes_on(clause: str, more: str) -> bool:
    """Whether ``more`` goes on the list of the last of two descriptions ``clause`` joins
    ("I'm vegan and allergic to kiwi", then ", mango and eggs"): the whole clause says no
    statement the rules read, but its last description so continued does."""
    two = _EN_TWO_DESCRIPTIONS.match(clause)
    return two is not None and _owned(_en_normalise(f"{two['i']} {two['b']}{more}"), False)


def _described_more(fragment: str, before: str) -> str | None:
    """``fragment`` as "I'm …" when it goes on the description of the clause ``before``
    ("I'm single", then "vegan and allergic to nuts") and so read says something (not
    "…, like rugby", "…, so evenings are hectic")."""
    if not (_EN_I_AM.match(before) and _EN_MORE_DESCRIPTIONS.fullmatch(fragment)):
        return None
    if _EN_DONE_NOT.match(fragment):  # "I'm Sikh and don't cut my hair": "I don't…"
        return f"I {fragment}" if _clause_candidate(f"I {fragment}", _SELF, False) else None
    if _EN_OWN_VERB.search(fragment):
        return None  # a clause of its own: "…, so evenings are pretty hectic"
    if _EN_NOT_MORE_OF_ME.search(fragment) or _EN_NOT_SO.match(before):
        return None  # "I'm married, kids vegan and …", "I'm no longer single, vegan and …"
    # each item says something of the user read alone (not "…, coffee in hand and ready",
    # "I'm a dietitian, vegan and diabetic clients mostly")
    for item in fragment.split(" and "):
        alone = f"I {item}" if _EN_DROPPED_VERB.match(item) else f"I'm {item}"
        if _clause_candidate(alone, _SELF, False) is None:
            return None
    said = f"I'm {fragment}"
    return said if _clause_candidate(said, _SELF, False) or _descriptions(said) else None


def _descriptions(clause: str) -> list[Candidate]:
    """The candidates of two short descriptions joined ("I'm diabetic and vegan"), each
    read as said alone (not two plant diets, which one ends with the other: _each_diet)."""
    two = _EN_TWO_DESCRIPTIONS.match(clause)
    if (
        two is None
        or {
            two["a"].split(" ", 1)[0].casefold(),
            two["b"].split(" ", 1)[0].casefold(),
        }
        <= _PLANT_DIET_WORDS
    ):
        return []
    said = [c for each in (two["a"], two["b"]) if (c := _description(two["i"], each)) is not None]
    keys = {(_key_of(c) or c.content).casefold().replace("-", " ") for c in said}
    return said[:1] if len(keys) < len(said) else said  # ("nut free and nut-free": one)


def _description(i_am: str, each: str) -> Candidate | None:
    """One of two descriptions joined, read as said alone: "I'm <each>", or "I <each>" when it
    says what the user does ("…and live in Leeds", "…and take warfarin", "…and have asthma")."""
    if _EN_DROPPED_VERB.match(each) or _EN_DONE_NOT.match(each):
        return _clause_candidate(f"I {each}", _SELF, False)
    said = _clause_candidate(f"{i_am} {each}", _SELF, False)
    if said is None or said.confidence <= OWN_WORDS_CONFIDENCE:
        done = _clause_candidate(f"I {each}", _SELF, False)
        if done is not None and done.confidence > OWN_WORDS_CONFIDENCE:
            return done
    return said


# (a description with no preposition: not "I'm allergic to peanuts", whose list goes on)
_EN_OWN_VERB = re.compile(
    r"\b(?:is|are|was|were|am|be|been|being|has|have|had|do|does|did|will|would|can|could"
    r"|should|may|might|must|'s|'re|'ve|'ll|'d)\b",
    _I,
)
# An item of such a list that is of someone else ("I'm married, husband diabetic and allergic
# to shellfish", "I'm a vet, dogs allergic to chicken") or says what the user is not, was or
# may be ("…, formerly vegan", "…, not vegan and diabetic anymore", "…, kinda diabetic").
_EN_NOT_MORE_OF_ME = re.compile(
    r"(?:^|\band )(?:(?:my|our|the|his|her|their)\s+)?(?:wife|husband|partner|spouse|kids?|"
    r"sons?|daughters?|child|children|baby|babies|mom|mum|mother|dad|father|parents?|brothers?|"
    r"sisters?|siblings?|twins?|boyfriend|girlfriend|fianc[eé]e?|family|friends?|roommates?|"
    r"flatmates?|boss|colleagues?|patients?|students?|clients?|customers?|guests?|dogs?|cats?|"
    rf"pets?|everyone|everybody|both|all|{_KIN_MORE_EN}|not|no|never|formerly|former|ex|"
    r"previously|once|used|hardly|barely|kinda|kind|sort|sorta|maybe|perhaps|possibly|"
    r"probably|almost|nearly|half|pretending|hypothetically|supposedly)\b|\bany ?more\b",
    _I,
)
_EN_NOT_SO = re.compile(r"^(?:I'm|I am) (?:not|no|never)\b", _I)
_EN_I_AM = re.compile(
    r"^(?:I'm|I am) (?!(?:\S+ ){0,3}(?:to|of|in|at|on|for|from|with|about|by)\b)[^,]+$"
)


def _clause_candidate(clause: str, subject: str | None, zh: bool) -> Candidate | None:
    if subject == _SELF and not zh:
        clause = _EN_NOT_THEM_ASIDE.sub("", clause)
    if subject == _SELF and (retraction := match_retraction(clause, zh)) is not None:
        return retraction
    if (
        not zh
        and subject == _SELF
        and _EN_LIFE_CHANGE.match(clause)
        and (change := match_clause(clause, zh)) is not None
    ):
        return change  # "I'm moving to Leeds next week": a life to come, not a moment
    if (_ZH_SHORT_TERM if zh else _EN_SHORT_TERM).search(clause):
        # a need so for now is a need now ("I take warfarin for now", "I'm on insulin at
        # the moment": a need kept is the safer error); anything else said of a moment goes
        if zh or subject != _SELF or _EN_A_MOMENT.search(clause):
            return None
        if (now := match_clause(clause, zh)) is not None and now.constraint:
            return now
        # …and so is where one lives or works, or one's status, "at the moment" ("I'm
        # between jobs right now", "I live in Leeds for now"), or a need the rules read
        # only without those words ("I'm vegan right now"): the value now
        now = match_clause(_EN_NOW_SAID.sub("", clause), zh)
        keep = now is not None and (
            now.constraint
            or now.slot in _STATE_SLOTS
            or (now.category is FactCategory.GOAL and _EN_SEARCH_SAID.match(clause) is not None)
        )
        return now if keep else None
    if subject == _TOLD:
        told = match_clause(clause, zh)
        return told if told is not None and told.constraint and told.retract is None else None
    if subject == _HEDGED:  # not what is said of the chat: "I think I never got your email"
        if (retraction := match_retraction(clause, zh)) is not None:
            return retraction  # "Turns out I'm not allergic to X after all"
        return None if _EN_TO_YOU.search(clause) else match_clause(clause, zh)
    if subject == _SELF:
        # "I don't like jazz anymore" / "我不再喜欢爵士乐了" state the new taste, which
        # supersedes the old one through its slot.
        if zh:
            clause = _ZH_ANYMORE.sub(
                lambda m: f"我不{m['verb'] or m['verb2']}{m['v'] or m['v2']}", clause
            )
        else:
            clause = _EN_ANYMORE.sub("", clause)
        if (candidate := match_clause(clause, zh)) is not None:
            return candidate
        if zh and (candidate := _zh_need_with_examples(clause)) is not None:
            return candidate  # "我对坚果过敏，比如杏仁和腰果": the need, with its examples
        if (
            (aside := _ASIDE.search(clause))
            and not _JOKING.search(aside.group())
            and _subject(aside.group().strip(" (（)）"), zh) != _OTHER  # "(my son too)"
            and (candidate := match_clause(clause[: aside.start()], zh)) is not None
        ):
            # "I'm vegan (no dairy, no eggs)": still a diet; "(none for me)" told of the user
            candidate.content += aside.group() if zh else swap_pronouns(aside.group())
            return candidate
    if refused(clause, zh):  # a rule read it and said no: no fallback either
        return None
    if subject == _SELF:
        return own_words(clause, zh)
    if subject == _IMPLIED:
        return implied_own_words(clause)
    if subject is None:
        return match_instruction(clause, zh) or said_of_user(clause, zh)
    return said_of_user(clause, zh) if clause[:3].casefold() == "my " else None


# --- correction frames -------------------------------------------------------------------------

# Y never starts with "not": "It's not me who's allergic, it's my son, it's not me who…"
# (said twice) is no "Y, not X"; it stored a 41,000-character clarification (attacker 322).
# fmt: off
_EN_REPLACE_FRAMES = (
    re.compile(r"^(?:no,?\s*)?I (?:said|meant|wrote|typed|asked for|asked about|was talking about|was referring to)\s+(?!not\b)(?P<y>.+?),?\s+(?:and\s+|but\s+)?not\s+(?P<x>.+)$", _I),
    re.compile(r"^(?:no,?\s*)?(?:it's|it is|that's|that is|it was)\s+(?!not\b)(?P<y>.+?),?\s+(?:and\s+|but\s+)?not\s+(?P<x>.+)$", _I),
    re.compile(r"^not\s+(?P<x>.+?),(?!\s*(?:so|and|because|which|please)\b)\s*(?:but\s+|it's\s+|it is\s+|it was\s+|rather\s+)?(?P<y>.+)$", _I),
)
# fmt: on
# "I'm not allergic to walnuts, it's cashews", "I don't live in Leeds, it's York": the
# statement with Y in X's place, correcting X.
_EN_NOT_ITS_FRAME = re.compile(
    r"^I(?:(?P<neg>'m not) (?P<head>(?:allergic|intolerant|sensitive) to|from|based in)"
    r"|(?P<neg2> don't) (?P<head2>live in|work (?:at|for)|study at))\s+(?P<x>[^,;]{1,60}?),?"
    r"\s+(?:it's|it is|it was)\s+(?:actually\s+)?(?P<y>[^,;]{1,40})$",
    _I,
)
# What follows "it's" that is no new value but a reason, a person or a doubt: "it's a
# misdiagnosis", "it's just a cold", "it's probably the shampoo", "it's my sister".
_NOT_A_VALUE = re.compile(
    r"^(?:an?|the|just|only|probably|maybe|possibly|likely|not|my|his|her|their|our|your|this|that|"
    r"too|so|really|more)\b|\b(?:disease|intolerance|syndrome|condition|allergy|misdiagnosis|"
    r"cold|flu|thing|problem|issue|phase|phobia|rumou?r|lol|haha)\b",
    _I,
)
# What can stand in X's place: for a need, something one reacts to (a food, a drug, an
# animal, a plant: a known word, or one plural noun: "it's cashews"); for a home or work, a
# name ("it's York", "it's Meta"; not "it's Sunday", "it's nearby").
_ALLERGEN = re.compile(rf"^(?:{ALLERGEN_EN})$", re.IGNORECASE)
_A_SYMPTOM = re.compile(rf"\b(?:{SYMPTOM_EN})\b", re.IGNORECASE)
_NOT_A_NAME = re.compile(
    r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|"
    r"april|may|june|july|august|september|october|november|december|today|tomorrow)\b",
    re.IGNORECASE,
)


def _a_new_value(frame: re.Match[str]) -> bool:
    """Whether "it's Y" of a "not X, it's Y" frame names a value that can take X's place."""
    value = frame["y"].strip()
    if _NOT_A_VALUE.search(value):
        return False
    if frame["neg"] and frame["head"].casefold().endswith(" to"):  # allergic, intolerant…
        plural = re.fullmatch(r"[a-z]{3,}s", value) is not None and not _A_SYMPTOM.search(value)
        return _ALLERGEN.match(value) is not None or plural
    words = value.split()
    return (
        len(words) <= 4
        and all(word[:1].isupper() for word in words)
        and not _NOT_A_NAME.search(value)
    )


_EN_STATEMENT_FRAME = re.compile(
    r"^(?P<stmt>(?:I|my)\b.+?),?\s+(?:and\s+|but\s+)?not\s+(?P<x>[^,;]+)$", _I
)
# fmt: off
_ZH_REPLACE_FRAMES = (
    re.compile(r"^(?:我)?(?:说|指|要|问)的是(?P<y>.+?)[，,]\s*(?:而)?不是(?P<x>.+)$"),
    re.compile(r"^(?:我)?(?:说|指|要|问)的不是(?P<x>.+?)[，,]\s*(?:而)?是(?P<y>.+)$"),
    # "其实是周二不是周一": no subject, so a value put right, not what the user is
    re.compile(r"^(?:应该)?是(?P<y>[^，,]+?)[，,]?\s*(?:而)?不是(?P<x>[^，,]+)$"),
)
# fmt: on
_ZH_NOT_BUT_FRAME = re.compile(r"^(?P<pre>.*?)不是(?P<x>[^，,]+?)[，,]\s*(?:而)?是(?P<y>.+)$")
# "我不住在上海，是杭州", "我不在谷歌工作，是在微软": the statement with Y in X's place
_ZH_NOT_ITS_FRAME = re.compile(
    r"^我(?:现在)?不(?P<verb>住在|在)(?P<x>[^，,]{1,20}?)(?P<tail>工作|上班|上学|读书)?[，,]\s*"
    r"(?:而)?是(?:在|住在)?(?P<y>[^，,的我你他她不很因为]{1,12}?)(?:工作|上班|上学|读书)?$"
)
_ZH_STATEMENT_FRAME = re.compile(r"^(?P<stmt>.+?)[，,]\s*(?:而)?不是(?P<x>.+)$")
_SINGLE_SLOTS = frozenset(
    {"name", "surname", "location", "origin", "job", "employer", "workplace", "marital"}
)


def _correction(candidate: Candidate, wrong: str, marker: bool, zh: bool) -> Candidate:
    """A statement followed by "not X": a correction for single-valued slots or after a marker."""
    wrong = (
        _zh_normalise(wrong)
        if zh
        else re.sub(r"^(?:a|an|the)\s+", "", _en_normalise(wrong), flags=_I)
    )
    if candidate.slot in _SINGLE_SLOTS or marker:
        candidate.category, candidate.confidence = FactCategory.CORRECTION, 0.95
        candidate.wrong_value = wrong
    else:  # "I like tea, not coffee": a contrast, kept in the fact
        # (in the third person: "…at home, not when they go out")
        candidate.content += "，不是" + wrong if zh else ", not " + swap_pronouns(wrong)
    return candidate


def _correction_frame(sentence: str, zh: bool, marker: bool) -> list[Candidate] | None:
    """Candidates of a correction-shaped sentence, or ``None`` when it has no such shape."""
    clean = _zh_normalise if zh else _en_normalise
    for frame in _ZH_REPLACE_FRAMES if zh else _EN_REPLACE_FRAMES:
        if m := frame.match(sentence):
            y, x = clean(m["y"]), clean(m["x"])
            if not zh and _EN_SELF.match(y) and not re.match(r"(?:only|just|merely)\b", x, _I):
                # "I meant I live in Austin, not Houston": the statement corrected
                return _correction_frame(f"{y}, not {x}", zh, True)
            return [Candidate("", FactCategory.CORRECTION, 0.9, replace=(y, x))] if y and x else []
    if zh and (m := _ZH_NOT_BUT_FRAME.match(sentence)) and not _ZH_SOMEONE_ELSE.match(m["y"]):
        pre, y, x = m["pre"], clean(m["y"]), clean(m["x"])
        said = pre if pre.startswith("我") else "我" + pre
        # "我不是对花生过敏，是对芝麻过敏": Y says what the user does (我对芝麻过敏), else
        # what the user is ("我不是医生，是护士": 我是护士)
        candidate = match_clause(clean(said + y), True) or match_clause(
            clean(said + "是" + y), True
        )
        if candidate is not None:
            return [_correction(candidate, x, True, True)]
        return [Candidate("", FactCategory.CORRECTION, 0.9, replace=(y, x))] if y and x else []
    if zh and (m := _ZH_NOT_ITS_FRAME.match(sentence)):
        stmt = f"我{m['verb']}{m['y']}{m['tail'] or ''}"
        if (candidate := match_clause(clean(stmt), True)) is not None:
            return [_correction(candidate, m["x"], True, True)]
    if not zh and (m := _EN_NOT_ITS_FRAME.match(sentence)) and _a_new_value(m):
        said = f"I'm {m['head']}" if m["neg"] else f"I {m['head2']}"
        candidate = _clause_candidate(clean(f"{said} {m['y']}"), _SELF, False)
        return [_correction(candidate, m["x"], True, False)] if candidate is not None else None
    m = (_ZH_STATEMENT_FRAME if zh else _EN_STATEMENT_FRAME).match(sentence)
    if m is None or _depth(m["stmt"]) > 0:  # "…cats (but not dogs)": an aside, no frame
        return None
    stmt = clean(m["stmt"])
    subject = _subject(stmt, zh)
    if subject is None and zh:
        stmt, subject = "我" + stmt, _SELF
    if subject != _SELF or (candidate := _clause_candidate(stmt, _SELF, zh)) is None:
        return None
    return [_correction(candidate, m["x"], marker, zh)]


# A time said before "I" ("Now I live in Oslo", "These days I work at a school", "Currently
# I'm vegan"): the rules read "I" first, so it is said after the subject as the rules read it
# ("I now live…", "I currently work…", "I'm recently married"); what only the own-words
# fallback reads so ("Now I want pizza", "Now I have a question") is a moment, no fact. A
# span said first ("Since last year I have asthma", "For two years now I've been vegan") is
# said after the clause ("I have asthma since last year"); a span, "recently" or "lately"
# may also be left out when no rule reads the clause with it ("Recently I have asthma").
_EN_TIME_FIRST = re.compile(
    r"^(?:(?P<adv>now|currently|presently|these days|nowadays|at present|at the moment|right now"
    r"|recently|lately|as of (?:now|today)|from now on|starting (?:today|now))"
    rf"|(?P<span>(?:ever )?since (?:{SINCE_WHEN_EN}|then|forever|last (?:christmas|easter)"
    r"|(?:the|my) (?:accident|surgery|operation|diagnosis|injury|stroke|transplant|pregnancy"
    rf"|divorce|pandemic|crash|fall|heart attack))|as of {SINCE_WHEN_EN}"
    r"|for (?:years|ages|decades|a long time|a while|a long while|some time)(?: now)?"
    r"|for (?:the (?:past|last) )?(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2}"
    r"|a few|a couple of|several|many) (?:years?|months?|weeks?)(?: now)?"
    r"|(?:over|in|for) the (?:past|last) (?:few |couple of )?(?:years?|months?|weeks?))"
    # a past time: "Two years ago I moved to Bergen", "Last spring I got married", "In 2019 I…"
    r"|(?P<past>(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2}|a few|a couple of"
    r"|several|many) (?:years?|months?|weeks?) ago|last (?:year|month|spring|summer|autumn|fall"
    r"|winter|christmas)|(?:back )?in (?:19|20)\d\d|earlier this (?:year|month)))"
    r"\s*[,，:]?\s+(?P<i>I(?:['’]m| am|['’]ve| have)?)\s+(?P<rest>\S.*)$",
    _I,
)
_EN_TIME_SAID_AS = {"now": "now", "recently": "recently", "lately": "recently"} | dict.fromkeys(
    ("as of now", "as of today", "from now on", "starting today", "starting now"), "now"
)


def _time_after_subject(sentence: str) -> tuple[str, bool] | None:
    """``sentence`` with the time said first after its "I" (see :data:`_EN_TIME_FIRST`) and
    whether that time may be a moment (not a span), or ``None`` when it opens with none."""
    if (first := _EN_TIME_FIRST.match(sentence)) is None:
        return None
    if (
        first["span"] is not None
        and _A_REASON_SPAN.match(first["span"])
        and not first["i"].casefold().endswith(("'ve", "’ve", " have"))
    ):
        return None  # "Since I was a student, I can't afford it": a reason (attacker 348)
    # (its end marks apart first: matched in the pattern, a run of them was tried from each
    # of its marks, quadratic: "Now I need a wheelchair" + "." * 20_000 + "x", attacker 345)
    # (and a word of the moment at its end stays at the end: "Two years ago I moved to Bergen
    # lol" is "I moved to Bergen two years ago lol", not "…to Bergen lol two years ago")
    said_only = without_ending(first["rest"], _EN_TRAILING)
    end = first["rest"][len(said_only) :]
    one_clause = _EN_ONE_CLAUSE_TIMED.fullmatch(said_only) is not None
    left_out = f"{first['i']} {first['rest']}"
    unread = 0  # (the way taken when no rule reads any)
    if (span := first["span"] or first["past"]) is not None:
        # (a withdrawal is read with the time left out: "As of 2024 I no longer eat meat" kept
        # "User eats meat" beside "…no longer eats meat as of 2024")
        timed_too = one_clause and _WITHDRAWN_EN.search(said_only) is None
        said_after = span.lower() if span.isupper() else f"{span[0].lower()}{span[1:]}"
        ways = [f"{first['i']} {said_only} {said_after}{end}"] if timed_too else []
        ways.append(left_out)
    else:
        adverb = _EN_TIME_SAID_AS.get(first["adv"].casefold(), "currently")
        ways = [f"{first['i']} {adverb} {first['rest']}"]
        # The rules read some statements only with the time after the verb or at the end: "Now
        # I have asthma" is "I now have asthma" (not "I have now asthma"), "Now I need a
        # wheelchair" is "I need a wheelchair now"; the first of these a rule reads is taken
        if first["i"][1:].strip().casefold() in ("have", "'ve", "’ve"):
            ways.append(f"I {adverb} have {first['rest']}")
        if adverb == "recently":
            ways.append(left_out)  # (not "now": "Now I want pizza" is no "I want pizza")
            # (and said so when no rule reads any "…been…": the own-words fallback reads
            # "Recently I've been taking metformin" as "I've been taking metformin", not as
            # "I've recently been…"; "Recently I found out my son is…" as said)
            if first["rest"].casefold().startswith("been "):
                unread = len(ways) - 1
        elif one_clause:
            ways.append(f"{first['i']} {said_only} now{end}")
    if _shouted(sentence):  # ("NOW I LIVE IN OSLO": the words put in are shouted too)
        ways = [way.upper() for way in ways]
    said = next((way for way in ways if match_clause(_en_normalise(way), False)), None)
    if said is None:
        # a withdrawal read with the time left out ("Lately I don't take insulin anymore",
        # "Since May I don't take insulin anymore": the rules read none with the time in it)
        said = next(
            (way for way in ways if match_retraction(_en_normalise(way), False) is not None),
            ways[unread],
        )
    # (a span of weeks may be a moment too: "For two weeks I've had the flu", "Since last
    # week I've been coughing" are no lasting facts, attacker 348)
    return said, span is None or _WEEKS.search(span) is not None


_WEEKS = re.compile(r"\bweeks?\b", _I)
# A run of "no …" items ended by one "… for me" ("No dairy, no gluten, no soy for me").
_EN_NO_LIST_FOR_ME = re.compile(
    r"^(?P<items>(?:no [\w' -]{2,30}?,\s*(?:and\s+)?)+)(?P<last>no [\w' -]{2,30}? for me\b.*)$", _I
)
_EN_NO_ITEM = re.compile(r"(?P<item>no [\w' -]{2,30}?)(?=,)", _I)

_WITHDRAWN_EN = re.compile(
    r"\b(?:no longer|any ?more|stopped|quit|gave up|have given up|'ve given up)\b", _I
)
# (a span that may be a reason: "since I was a student" is a time only before "I've…")
_A_REASON_SPAN = re.compile(r"(?:ever )?since I was (?:a )?student", _I)


# What one uses or wears to live with a need ("Nowadays I wear hearing aids").
_AID_EN = (
    r"(?:wheelchair|hearing aids?|glasses|contact lenses|contacts|(?:walking )?(?:cane|stick|frame)"
    r"|walker|rollator|crutches|inhalers?|cpap(?: machine)?|brace|insulin pump|mobility scooter"
    r"|prosthetic(?: \w+)?|splint|compression (?:socks|stockings)|orthotics|screen reader"
    r"|guide dog|cochlear implants?|epipen)"
)


# What a time said first leaves a fact although only the own-words fallback reads it: a
# condition had, a diet, or a way of living with a need ("Now I follow a low-sodium diet",
# "Recently I've been diagnosed with diabetes", "Lately I take an inhaler")
_LASTING_EN = re.compile(
    rf"\b(?:has|have|had|with|from) (?:{CONDITION_EN})\b|\b(?:{DIET_EN})\b"
    r"|^User (?:\w+ )?(?:avoids|has been diagnosed|got diagnosed|was diagnosed)\b"
    # (a habit verb only with what a need is lived with: "Now I take a nap", "Now I eat
    # dinner", "At the moment I take a break" are moments, attacker 348)
    r"|^User (?:\w+ )?(?:follows|sticks to|keeps to|is on) (?:an? |the |their )?(?:[\w-]+ ){0,2}diet\b"
    r"|^User (?:\w+ )?(?:eats|drinks) (?:only|no|mostly|less|little|nothing but)\b"
    rf"|^User (?:\w+ ){{0,2}}(?:takes|taking|uses|using|wears|wearing|needs|on)"
    rf" (?:an? |the |their )?(?:[\w-]+ )?"
    rf"(?:{MEDICATION_NAME_EN}|{SUPPLEMENT_EN}|{_AID_EN})\b",
    _I,
)


# (…but not when it says the user has not: "Now I don't have asthma" is no condition had)
_NOT_SO_EN = re.compile(r"\b(?:not|no longer|never|without)\b", _I)


# (a statement of one clause, its end marks apart: "need a wheelchair" + ".")
_EN_ONE_CLAUSE_TIMED = re.compile(
    r"(?:(?![,;:]| and | but | because | so | or | though | if | when ).)+", _I
)


# …and in Chinese: "现在我住在上海", "目前我在腾讯工作", "现在我对芒果过敏", "最近我在学游泳"
# (the times said first that may be a moment: what only the own-words fallback reads after
# them is none of the user's facts, "现在我吃晚饭", as in English)
_ZH_MOMENT_TIMES = frozenset(("现在", "目前", "如今"))
_ZH_TIME_FIRST = re.compile(
    r"^(?P<time>现在|目前|如今|最近|近来|这几年|这些年|这两年|近几年|近年来|这段时间|这阵子|今年开始|"
    r"从今年开始|去年开始|从去年开始|今年|去年|从小|从(?!明|下|后|未来|将来)[^，,。！？我]{1,6}(?:起|开始))"
    # (the user, not "我们", "我妹妹", "我的狗": "从小我妹妹对花生过敏" is the sister's; not a time
    # to come: "从下个月开始我住在上海" is no home yet)
    rf"[，,：:]?\s*我(?!们|的|家|{KIN_ZH})"
)


# --- entry point ---------------------------------------------------------------------------------


def _strip_leadins(sentence: str, zh: bool) -> tuple[str, bool, bool]:
    """(sentence without lead-ins, correction marker seen, "remember that" seen)."""
    marker = remember = False
    leadin, marker_re = (_ZH_LEADIN, _ZH_MARKER) if zh else (_EN_LEADIN, _EN_MARKER)
    sentence = _unbracketed(sentence)
    while True:
        before = sentence
        if not zh and (m := _EN_TOPIC.match(sentence) or _EN_POLITENESS.match(sentence)):
            sentence = sentence[m.end() :]
        if m := leadin.match(sentence):
            remember = remember or bool(m.groupdict().get("remember")) or "记" in m.group()
            sentence = sentence[m.end() :]
        if m := marker_re.match(sentence):
            marker = True
            sentence = sentence[m.end() :]
        if sentence == before:
            return sentence.strip(), marker, remember


# Text the user hands over to work on is not what they say about themselves: what follows
# "Summarize this email:" / "翻译：" is material, and a role-play or story is not the user.
_MATERIAL = re.compile(
    r"\b(?:summari[sz]e|translate|rewrite|proofread|paraphrase|edit|reply to|respond to|answer|"
    r"analy[sz]e|review|check|explain|format|shorten|correct|improve|polish|critique|grade)\b"
    r"[^:\n]{0,80}:|(?:总结|翻译|改写|润色|检查|回复|分析|解释|概括|修改|校对|点评)[^：:\n]{0,30}[：:]",
    _I,
)
_PLAYED = re.compile(
    r"\b(?:role[- ]?play|pretend|in character|let['’]s play|write a story|story:|poem:|imagine you)\b|"
    r"角色扮演|扮演|假装|写个故事|编个故事",
    _I,
)


# A short sentence that sets a made-up scene and casts the user in it ("In my story, I am a
# dragon.", "Pretend I'm a pirate.", "假装我是厨师。"): what follows belongs to the scene.
# Not "Imagine / Say / Suppose I'm a beginner. I'm 45 and I have asthma…": a question about
# the user's own life, whose facts follow (attackers 69-73), nor "the game I'm playing".
_FRAME = re.compile(
    # (spaces after a stop, but no run of line breaks: searched from each of them, "\s*" was
    # quadratic, 2.6 s at 10k line breaks; a later line starts where its break ends)
    r"(?:^\s*|(?<=[.!?。！？\n])[^\S\n]*)(?="
    # (in a scene set first, what the user is need not be "a …": "In my novel, I'm vegan.",
    # "In the game, I'm Catholic." were the user's own: helper 355)
    r"(?:in (?:(?:my|our) (?:world|dream)|(?:my|our|the|this) (?:story|novel|script|screenplay|game|"
    r"campaign|fanfic)),\s*"
    r"(?:I['’]m|I am|we['’]re|we are) (?:an? |the )?"
    r"|(?:let['’]s )?pretend(?: that)? (?:I['’]m|I am|we['’]re|we are) (?:an? |the ))"
    r"[\w'’-]+(?: [\w'’-]+){0,3}[.!](?:\s|$)"
    r"|假装我是[^，,。！？!?\s]{1,8}[。！]"
    r"|在我的(?:小说|故事|剧本|游戏|梦)里)",
    _I,
)
# A sentence that steps out of the scene again: "…I'm allergic to peanuts btw.", "Anyway, …"
_REAL_AGAIN = re.compile(
    r"(?:^|(?<=[.!?。！？\n]))[^.!?。！？\n]*(?:\b(?:btw|by the way|in real life|irl|for real"
    r"|actually|seriously|real talk|anyway|anyways|jokes aside|back to reality|all jokes aside)\b"
    r"|顺便|说真的|现实中|其实我|言归正传|不开玩笑|说正经的)",
    _I,
)


def _own_text(text: str) -> str:
    """``text`` without the material it hands over ("Summarize this: …"), a role-play,
    or what follows a sentence that sets a scene (up to one that steps out of it)."""
    if _PLAYED.search(text):
        return ""
    frame = _FRAME.search(text)
    if frame:
        back = _REAL_AGAIN.search(text, frame.end() + 1)
        text = text[: frame.start()] + (" " + text[back.start() :] if back else "")
    material = _MATERIAL.search(text)
    return text[: material.start()] if material else text


# A statement that stops where its object should come was cut short: "I'm a huge fan of",
# "I'm allergic to", "I love the". Only these shapes, and not when a clause of its own ends
# there ("anything they're allergic to"; "the latex that balloons are made of" is whole).
_EN_CUT_SHORT = re.compile(
    r"(?<![\w'’-])(?:the|an|my|(?:fan|fans|lot|lots|bunch|couple|member) of|"
    r"(?:allergic|intolerant|sensitive|addicted|used) to)$"
)
_EN_OWN_CLAUSE = re.compile(r"\b(?:they|they're|their|them|we|you|he|she|it|I)\b")


# A leaving or a giving-up the user undoes in the same message ("…, but I came back in July",
# "…, but now I'm back on it", "…, but only for a month", "我又搬回…"): no fact ends. Only the
# user's own undoing counts ("…and my sister relapsed" undoes nothing).
_UNDONE = re.compile(
    r"\b(?:I|but|and) (?:came|moved|went) back (?:in|after|a (?:week|month|year) later)"
    r"|\bI(?:'ll| will) be back"
    r"|\b(?:I'm )?back on it\b|\bI relapsed|\bI started again|\bbut (?:only|just) for (?:a|an|one"
    r"|two|three|a few|\w+) (?:days?|weeks?|months?)\b|\bbut (?:that|it) (?:only )?lasted\b"
    r"|我又搬回|我搬回来了|我又开始(?:抽|喝|吃)|我复吸|只坚持了",
    _I,
)
# "…isn't my thing, it's my life / my husband's": more than a taste, or someone else's
# ("…isn't my thing anymore, it's my wife's" is the user's own taste ended).
_SOMEONE_ELSES = re.compile(
    r"(?P<what>\b[\w'’ -]{2,40}?) (?:isn'?t|is not|'s not|aren'?t|are not) (?:\w+ )?my (?:thing|jam|scene"
    r"|cup of tea),? (?:it'?s|they'?re) (?:my|our|his|her|their)\b",
    _I,
)
# A need said to be back after it went: what withdrew it in the same message withdraws nothing.
# (what came back is the need: "…, then came back", "…, but it's back"; not "the test came
# back negative")
_NEED_BACK = re.compile(
    r"\b(?:(?:then|and|but|now|it|they|allergy|allergies|intolerance|sensitivity|symptoms)\s+"
    r"(?:has\s+|have\s+)?(?:came|comes|come|is|was|are|were|returned)|it's|they're)\s+back\b"
    r"|\b(?:then|and|but|it|they|allergy|intolerance|sensitivity)\s+(?:has\s+|have\s+)?returned\b"
    r"|\bback again\b|\bflared up again\b|\brelapsed\b|复发|又回来|又犯|又开始过敏|又过敏|又有了",
    _I,
)
# Together again after a parting: "…but we got back together", "we made up", "we're giving it
# another go", "我们又复合了", "后来和好了". (Not a story made up, a mind made up, a bike put
# back together, old friends reunited with, a parent remarried, "我和同事和好了".)
_TOGETHER_AGAIN = re.compile(
    r"\b(?:(?:are|'re|were|was|is|got|get|getting|be|been|now|went|came) back together|"
    r"got back with|getting back with|reconciled|"
    rf"made up(?=\s*(?:$|[.,;:!?)]|with (?:each other|him|her|them|(?:my |our )?(?:{COUPLE_EN})"
    r"|(?-i:[A-Z]))|(?:again|and|but|since|after|later|now|in the end|eventually)\b))|"
    rf"reunited(?! with (?!each other|him\b|her\b|them\b|(?:my |our )?(?:{COUPLE_EN})\b"
    r"|(?-i:[A-Z])))|(?:we|we've|we have|we got|and I|and I got) remarried|remarried each other|"
    r"gave it another (?:go|try|shot)|giving it another (?:go|try|shot)|called off the divorce)\b"
    rf"|复合|(?:后来|又|已经|终于|我们|我俩|咱们|咱俩|(?:跟|和)(?:他|她|{COUPLE_ZH}))和好"
    r"|又在一起|重新在一起|没离成|没分成",
    _I,
)
_ENDED_HERE = re.compile(
    r"User (?:has )?(?:stopped|quit|given up|gave up|cut out) |用户(?:戒|不再)"
)
# Parted for a while ("我和老公分开了，他去出差了", "…，我先回家了", "在机场分开了"): "分开" is
# a marriage ended only without a reason of the day ("分居", "离婚" stay a marriage ended).
_ZH_APART_FOR_NOW = re.compile(
    r"(?:他|她|我|老公|老婆|丈夫|妻子|先生|太太|爱人)(?:先|要|得|又)?(?:去|回|出(?!轨))"
    r"|出差|上班|开会|加班|旅行|旅游|出门|回家|逛街|买|机场|车站|商场|超市|一会|一下|几天|暂时|临时|走散"
)


# A need said again in full after "I meant" ("Sorry, I meant I'm allergic to pecans", "说错了，
# 我是对碧根果过敏", "我是说我对碧根果过敏"): the statement, which the lead-in kept from being read.
_EN_RESTATED = re.compile(
    r"(?:(?:sorry|oops|whoops|my bad|no|wait)[,.!]?\s+)*I meant(?: to say)?,?\s+(?:that\s+)?"
    r"(?=I(?:'m| am| can't| cannot| don't| do not| have)\s)",
    _I,
)
_ZH_RESTATED = re.compile(
    r"(?:(?:说错了|我说错了|不对|抱歉|不好意思|对不起)[，,]?\s*)*(?:我是说|我的意思是)[，,]?\s*(?=我)"
    r"|(?:说错了|我说错了)[，,]?\s*(?=我)"
)
# …and "我指的是我对花生过敏", "我说的是我不吃猪肉": only a need said so (what else follows
# them names something: "我说的是我老家的方言").
_ZH_MEANT_NEED = re.compile(r"(?:我指的是|我说的是)[，,]?\s*(?=我)")
_ZH_IS_TO = re.compile(r"^我是(?=对)")  # "我是对碧根果过敏": 我对碧根果过敏


def restated(text: str) -> str | None:
    """The statement ``text`` makes after "I meant" or "说错了" ("Sorry, I meant I'm allergic
    to pecans." → "I'm allergic to pecans."), or ``None`` when it makes none so."""
    text = text.strip()
    if m := _EN_RESTATED.match(text):
        return text[m.end() :]
    if m := _ZH_RESTATED.match(text):
        return _ZH_IS_TO.sub("我", text[m.end() :])
    if (m := _ZH_MEANT_NEED.match(text)) is not None:
        said = text[m.end() :]
        return said if any(c.constraint for c in candidates_from_text(said)) else None
    return None


def restated_need(statement: str, need: Candidate) -> tuple[Candidate, bool] | None:
    """The need ``statement`` (said after "I meant": :func:`restated`) says again of another
    thing than ``need`` (said just before it) and worded like it, and whether it takes
    ``need``'s place (see :func:`~.ellipsis.put_right`): "I'm allergic to walnuts." → "Sorry,
    I meant I'm allergic to pecans."; else ``None``."""
    new = [c for c in candidates_from_text(statement) if c.constraint]
    if len(new) != 1 or not new[0].value:
        return None
    meant = put_right(need, Meant(new[0].value, wrong=True, own_words=True))
    return (new[0], meant[1]) if meant is not None and meant[0].content == new[0].content else None


# A sentence that says something is not so ("I don't eat pork", "I can't have gluten",
# "我不吃猪肉"): "I mean my husband does" after it says he does, not that it was his.
_NEGATED = re.compile(r"\b(?:not|never|no longer|cannot)\b|n't\b|n’t\b|[不没别]", _I)


def _negated(text: str) -> bool:
    return _NEGATED.search(text) is not None


def still_the_users(said: list[Candidate], sentence: str, whose: Theirs) -> list[Candidate] | None:
    """What of ``said`` (the candidates of ``sentence``, said just before) is still the
    user's when the next words say it was someone else's (``whose``: see
    :func:`~.ellipsis.theirs`): said short, all but the last ("I'm allergic to peanuts and
    I'm vegan. I mean my wife is.": the peanuts stay); said in full, all but what it names,
    one thing of a need of several ("…peanuts and shellfish. Sorry, I meant my son is
    allergic to shellfish."), and all when it names none of them (a need kept is the safer
    error). ``None`` when said short against what ``sentence`` said ("I don't eat pork. I
    mean my husband does.", "I can't have dairy. My daughter can, not me."): he does, it
    was no correction."""
    if not whose.clause:
        if whose.reaction:  # "It's my son who's allergic": the last allergy said, not a diet
            kind = whose.reaction

            def of_kind(content: str) -> bool:
                return says_need(content) if kind == "any" else kind in content.casefold()

            at = next((i for i in reversed(range(len(said))) if of_kind(said[i].content)), None)
            if at is None or len(_LAST_CLAUSE.split(said[at].content)) > 1:
                return said  # (a need joined to another stays whole)
            return said[:at] + said[at + 1 :]
        if whose.negative is not None and whose.negative != _negated(sentence):
            return None
        if whose.aux and not _agrees(whose.aux, sentence):
            return None  # "I'm diabetic. Actually, my dad was.": another time, no correction
        # the last fact, unless someone else is named in the sentence ("我对花生过敏，我老婆
        # 吃素，我是说我老婆": the wife's diet was hers; "My son is allergic to penicillin and
        # I'm allergic to sulfa. Scratch that, my daughter is." may put the son right, attacker
        # 331: which is meant cannot be told, and a need kept is the safer error) or it is a
        # need of several clauses or things ("I'm vegan and allergic to peanuts. I mean my son
        # is.")
        if not said or _SOMEONE_IN_IT.search(sentence):
            return said
        need = said[-1].constraint or says_need(said[-1].content)
        joined = len(_LAST_CLAUSE.split(said[-1].content)) > 1 or (
            len(said) > 1 and _EN_TWO_DESCRIPTIONS.match(_en_normalise(sentence.rstrip(" .!")))
        )  # (two descriptions said with one "I'm": each a fact, one statement)
        return said if need and joined else said[:-1]
    if _negated(whose.clause) != _negated(sentence):
        return None  # "I can't eat gluten. Not me, my sister eats it all the time."
    named = whose.clause.casefold()
    kept: list[Candidate] = []
    for candidate in said:
        if each := need_things(candidate.content):
            things = things_of(candidate.content)
            named_things = {
                one for one, thing in zip(each, things, strict=True) if _named(named, thing, things)
            }
            left = things_left(candidate.content, named_things.__contains__)
            if left is not None:
                kept += [replace(candidate, content=one, value=None) for one in left]
                continue
        elif (key := _key_of(candidate)) is not None:
            # a need of several things the vocabulary cannot tell apart ("oats and oatcakes")
            # goes only when each is named (a need kept is the safer error)
            parts = [part for part in _THINGS_IN_KEY.split(key) if part.strip()]
            if all(_named(named, part, parts) for part in parts):
                continue
        kept.append(candidate)
    return kept


# What the user said, for a verb said short after it to put right: "I'm…" for "is", "I have…"
# for "has", "I eat…" for "does", in the past for "was", "can't" for "can't".
_SAID_IN_PAST = re.compile(r"\b(?:was|were|did|had|used to)\b|\bI'd\b", _I)
_SAID_BE = re.compile(r"\bI(?:'m|’m| am| was)\b|\b(?:am|was) I\b", _I)
_SAID_HAVE = re.compile(r"\bI(?:'ve|’ve| have| had| (?:also |still )?(?:have|had))\b", _I)
_SAID_DO = re.compile(r"\bI\s+(?!(?:'m|’m|am|was|can|can't|cannot|will|won't|would)\b)\w", _I)
_SAID_CAN = re.compile(r"\b(?:can|can't|cannot|could|couldn't)\b", _I)
_SAID_WILL = re.compile(r"\b(?:will|won't|would|wouldn't)\b", _I)


def _agrees(aux: str, sentence: str) -> bool:
    """Whether the verb ``aux`` said short ("is", "does", "was") can stand for what
    ``sentence`` said: the same kind of verb, at the same time."""
    aux = aux.split()[0]  # ("is not": "is")
    past = aux in ("was", "were", "did", "had", "wasn't", "weren't", "didn't", "hadn't")
    if past != (_SAID_IN_PAST.search(sentence) is not None):
        return False
    if aux.startswith(("is", "are", "was", "were")):
        return _SAID_BE.search(sentence) is not None
    if aux.startswith(("has", "have", "had")):
        return _SAID_HAVE.search(sentence) is not None
    if aux.startswith(("do", "did")):
        return _SAID_DO.search(sentence) is not None
    if aux.startswith("can"):
        return _SAID_CAN.search(sentence) is not None
    return _SAID_WILL.search(sentence) is not None


# Where a sentence's last clause starts: after a comma, a semicolon, "and" or "but";
# and who besides the user a clause may speak of.
_LAST_CLAUSE = re.compile(r"[,;，；、]|\b(?:and|but|plus)\b|而且|并且|但是?", _I)
_SOMEONE_IN_IT = re.compile(
    rf"\b(?:my|our)\s+(?:\w+\s+)?(?:{KIN_EN_OWNED})\b|\b(?:he|she)\b|{KIN_ZH}|[他她]", _I
)


def _key_of(candidate: Candidate) -> str | None:
    """What ``candidate`` is of, for words to name it: the thing withdrawn, the taste's
    thing, or the value ("peanuts", "jazz", "vegan"); ``None`` when it has none."""
    slot = candidate.slot or ""
    key = candidate.retract or (slot.partition(":")[2] if slot.startswith("taste:") else None)
    return key or (candidate.value if candidate.value not in (None, "+", "-") else None)


def _named(clause: str, thing: str, listed: Iterable[str] = ()) -> bool:
    """Whether ``clause`` (case-folded) names ``thing`` whole. English by its last word, a
    plural for a singular, with no letter after it ("kiwi" is named by "…kiwis", "soy" not by
    "soybeans", "pea" not by "peanuts"); Chinese as written, but not inside a longer thing
    ``listed`` with it or a word for kin ("虾" is not named by "虾皮", "奶" not by "奶奶")."""
    thing = thing.casefold().strip()
    if CJK.search(thing):
        for longer in listed:
            if thing in longer and thing != longer:
                clause = clause.replace(longer.casefold(), " ")
        return thing in _KIN_ZH_WORD.sub(" ", clause)
    words = thing.split()
    if not words:
        return False
    stem = singular(words[-1])
    return re.search(rf"(?<!\w){re.escape(stem)}(?:e?s)?(?!\w)", clause) is not None


_KIN_ZH_WORD = re.compile(KIN_ZH)
_THINGS_IN_KEY = re.compile(r",|;|&|\b(?:and|or)\b|[和与及、，]", _I)


def candidates_from_text(text: str) -> list[Candidate]:
    """Every candidate fact the user states about themselves in ``text``, in order.

    Args:
        text: one human message.

    Returns:
        Candidates in the order they appear; empty when nothing qualifies.

    Raises:
        InvalidArgumentError: ``text`` is not a ``str``.
    """
    expect_text(text, "text")
    found: list[Candidate] = []
    previous = 0  # where the candidates of the sentence before start in ``found``
    sentence_before = ""
    # The needs said so far by value, for a denial later ("Wait, I'm not allergic to shrimp"),
    # and those denied (by id, kept alive here): they leave ``found`` once, at the end, so
    # each need is looked at once however many denials come (they were N² time).
    # Keyed by value and kind ("intolerant", "allergic", "sensitive" or ""), since "I'm not
    # gluten intolerant" denies the intolerance only.
    by_value: dict[tuple[str, str], list[Candidate]] = {}
    denied_needs: dict[int, Candidate] = {}

    def said_needs(candidates: Iterable[Candidate]) -> None:
        for candidate in candidates:
            if candidate.constraint:
                # ("gluten intolerance" is a need of gluten)
                value = _NEED_NOUN.sub("", (candidate.value or "").casefold())
                by_value.setdefault((value, _kind_of(candidate.content)), []).append(candidate)

    added = False  # whether the sentence before only added a thing to a need ("Shrimp too.")
    per_diet = False  # whether that sentence was read once per diet of a list

    def said_again(need: Candidate, replaces: bool, sentence: str) -> None:
        """``need``, the last need said again by ``sentence`` ("Shrimp too.", "I meant
        cashews"): in its place, or after it as a fact of its own ("Shrimp too. Shrimp
        too.": one fact)."""
        nonlocal previous, sentence_before, added
        if replaces:
            found[-1] = need
        elif need.content != found[-1].content:
            previous = len(found)
            found.append(need)
            said_needs([need])
        sentence_before, added = sentence, True

    said_in_order = list(
        _theirs_apart(
            _no_longer_apart(_languages_apart(_asides_apart(_sentences(_prepare(_own_text(text))))))
        )
    )
    withdrew: tuple[int, Candidate] | None = None  # what "Not anymore." just replaced, and where
    # a condition, medication or accessibility field is read only in a message naming no one
    # else, no pet and no story, case or quiz ("My son saw the GP. Diagnosis: …")
    health = _OTHERS_IN_MESSAGE.search(text) is None
    # a bare number is no age where the message asks for a size, a level, a score (_NOT_AN_AGE)
    asks_a_number = functools.cache(lambda: _NOT_AN_AGE.search(text) is not None)
    # an allergy or diet field is theirs after a sentence that heads their record ("My son's
    # intake form.\nAllergies: peanuts")
    their_record = False
    theirs_before: list[Candidate] = []  # what was just said to be someone else's
    for at, (raw, terminator) in enumerate(said_in_order):
        if not raw.strip():  # the line break after "…peanuts.": "Shrimp too." follows it
            continue
        if their_record and _USERS_OWN.search(raw):
            their_record = False  # "Booking for my husband.\nMy allergies: peanuts", "…Me too."
        needs = not their_record
        their_record = (
            their_record or _THEIR_RECORD.fullmatch(raw.strip().rstrip(".!:：。！")) is not None
        )
        if withdrew is not None:
            (where, was_said), withdrew = withdrew, None
            if WITHDRAWAL_UNDONE.fullmatch(raw) and where < len(found):
                found[where] = was_said  # "…Not anymore. Just kidding!": it stands
                continue
        if _SARCASM_ALONE.fullmatch(raw):  # a taste said last is what it takes back
            if per_diet:  # …or the diets of a list said last (_each_diet): all of them
                found[previous:] = [
                    c for c in found[previous:] if c.category != FactCategory.PREFERENCE
                ]
            elif len(found) > previous and (
                found[-1].category == FactCategory.PREFERENCE or found[-1].retract is not None
            ):
                del found[-1]  # (a withdrawal too: "我已经没有痛风了。才怪")
            continue
        back = _TAKEN_BACK.fullmatch(raw.strip())
        if back is not None and back["about"] and ("?" in terminator or "？" in terminator):
            continue  # "Kidding about the peanuts? No, I'm serious.": asked, nothing taken back
        if back is not None and back["about"]:
            # "…Shrimp too. Just kidding about the shrimp.": what names it, said in this
            # message, is no fact; naming none of them, it takes back what was said before
            # (a withdrawal of what is stored about it; "…about the movie" may name nothing)
            left = _without(found, back["about"].strip().casefold().rstrip("s"))
            if left == found:
                joke = match_retraction(f"I was joking about {back['about'].strip()}", False)
                left += [joke] if joke is not None and joke.retract else []
            found = left
            continue
        if back is not None or raw.strip() == "NOT":
            del found[previous:]  # "I'm vegan. Just kidding.": the sentence before is no fact
            continue
        restore, theirs_before = theirs_before, []
        if restore and me_as_well(raw):
            # "I'm allergic to shrimp, I mean my son is. So am I." (or "I'm allergic too."):
            # the user's too
            found += restore
            if me_too_alone(raw):
                continue
        if "?" not in terminator and "？" not in terminator and (whose := theirs(raw)) is not None:
            # "I'm allergic to peanuts. I mean my son is.", "我已经没有哮喘了，我是说我妈": what
            # the sentence before said is theirs, no fact and no withdrawal of the user's
            # (said in full, only what it names); what is said of them in full is read
            # (a reaction named, "It's my son who's intolerant", is looked for in all the
            # message said: the user's last intolerance, wherever it was)
            scope = 0 if whose.reaction else previous
            kept = still_the_users(found[scope:], sentence_before, whose)
            # ("Wait, my son is here." names nothing the user said: read as it is said)
            if not (whose.clause and found[scope:] and kept == found[scope:]):
                moved = []
                if kept is not None:
                    moved = [c for c in found[scope:] if all(c is not k for k in kept)]
                    found[scope:] = kept
                # (said again, "…I mean my son is. I mean my son is.", it moves nothing more:
                # what the first moved may still come back, "So am I.")
                theirs_before = moved or restore
                previous, sentence_before, added = len(found), "", False
                if not whose.clause:
                    continue
                raw = whose.clause
        if _NOT_SO_ALONE.fullmatch(raw) and "?" not in terminator:
            # "…is gone. Not!", "Shrimp too... not!": no withdrawal, no addition and no
            # statement but a need said in full stands (one word takes back no allergy)
            found[previous:] = [
                c for c in found[previous:] if c.constraint and c.retract is None and not added
            ]
            continue
        if _HEDGE_ALONE.fullmatch(raw):
            # "My kiwi allergy is gone. I think.": the sentence before withdraws nothing
            found[previous:] = [c for c in map(_not_withdrawing, found[previous:]) if c]
            continue
        if (alone := _EN_STILL_ALONE.fullmatch(raw.strip().rstrip(".!"))) is not None:
            # "I used to drink coffee. I still do.": the sentence before withdraws nothing
            found[previous:] = _still_so(found[previous:], (alone["verb"] or "do").casefold())
            continue
        asked = "?" in terminator or "？" in terminator
        if not asked and (no_longer := NO_LONGER_ALONE.fullmatch(raw)) is not None:
            # "I'm allergic to peanuts. Actually, not anymore.": what the sentence before said
            # last holds no more (withdrawn, a stored copy too); a statement that says "not"
            # already ("I don't eat meat. Not anymore.") stands
            if len(found) == previous + 1 and said_alone(sentence_before):
                # (a "Just kidding!" next is of this sentence, whatever it withdrew)
                withdrew = (len(found) - 1, found[-1])
                last_said = not any(s.strip() for s, _ in said_in_order[at + 1 :])
                over = withdrawal_of(found[-1], no_longer)
                if over is not None and (last_said or not no_longer["weak"]):
                    found[-1] = over
            continue
        # the need said last in the sentence before, which this one may add to or put right
        last = found[-1] if len(found) > previous and not asked else None
        if last is not None and id(last) in denied_needs:
            last = None
        if last is not None and (more := added_to(raw, sentence_before, last)) is not None:
            # "I'm allergic to peanuts. Shrimp too.": the need of the sentence before, again
            said_again(more, False, raw)
            continue
        if (again := None if asked else restated(raw)) is not None:
            # "I'm allergic to walnuts. Sorry, I meant I'm allergic to pecans."
            if last is not None and (meant := restated_need(again, last)) is not None:
                said_again(*meant, raw)
                continue
            raw = again  # the statement, read as said
        if last is not None and (meant := instead_of(raw, sentence_before, last)) is not None:
            # "I'm allergic to peanuts. Sorry, I meant cashews.": the need was of cashews
            said_again(*meant, raw)
            continue
        if last is not None and (value := value_put_right(raw, sentence_before, last)):
            said_again(value, True, raw)  # "I live in Leeds. York, not Leeds."
            continue
        if not asked:
            # "My wife is allergic to eggs. Me too.", "…, and so am I", "我老婆对鸡蛋过敏，我也是":
            # her need, of the user too (only a need: see ellipsis.same_need). Read before
            # the sentence is cleaned, which takes "too" for an ending word.
            same = same_need(raw, sentence_before) if sentence_before else None
            if same is None and (in_sentence := split_me_too(raw, CJK.search(raw) is not None)):
                same = in_sentence[1]
            if same is not None:
                said_needs(found[previous:])
                previous = len(found)
                found += _same_need(same)
                sentence_before, added = same, True  # what follows adds to the need said
                continue
        said_needs(found[previous:])
        denied = _DENIES_NEED.fullmatch(raw.strip())
        if denied is not None and not asked:
            # "I'm allergic to peanuts. Shrimp too. Wait, I'm not allergic to shrimp.": the
            # need said earlier in the message is not so (a stored one stays: see _retract)
            thing = (denied["x"] or denied["z"] or denied["y"]).strip().casefold()
            # "not gluten intolerant" denies that kind only: a gluten allergy stays
            kinds = (denied["kind_after"].casefold(),) if denied["kind_after"] else _NEED_KINDS
            for kind in kinds:
                denied_needs.update((id(c), c) for c in by_value.pop((thing, kind), ()))
        previous, sentence_before, added = len(found), raw, False
        # what a doctor told is read unless this sentence or the next two doubt it (_told_need)
        told = not any(
            _doubts_it(later, i == 0) for i, (later, _) in enumerate(said_in_order[at : at + 3])
        )
        # a list of diets is read once per diet, as each would be said alone (_each_diet);
        # what an earlier reading found is not added again
        readings = _each_diet(raw) or [raw]
        per_diet = len(readings) > 1
        for reading, said_so in enumerate(readings):
            before = {repr(c) for c in found[previous:]} if reading else None
            _read_into(
                found,
                said_so,
                terminator,
                asks_a_number,
                before,
                told=told,
                health=health,
                needs=needs,
            )
        if (
            denied is not None
            and not asked
            and _CORRECTION_MARK.match(
                denied["mark"] or denied["mark2"] or denied["after"] or denied["after2"] or ""
            )
        ):
            # "Actually, I'm not allergic to shrimp": the stored need goes too
            if denied["x"]:
                what = f"{denied['kind']} to {denied['x']}"
            elif denied["z"]:  # "Actually, I'm not gluten intolerant"
                what = f"{denied['z']} {denied['kind_after']}"
            else:
                what = f"对{denied['y']}过敏"
            found.append(Candidate("", FactCategory.CONTEXT, 0.9, retract=normalise_value(what)))
    if _UNDONE.search(text):  # "I left Paris in June, but came back in July": nothing ended
        found = [c for c in found if not (_ENDED_HERE.match(c.content) or c.retract_present)]
    if denied_needs:
        found = [c for c in found if id(c) not in denied_needs]
    if _NEED_BACK.search(text):  # "my kiwi allergy went away, then came back": it stands
        found = [c for c in found if not (c.retract and says_need(c.retract))]
    if _FOR_A_WHILE.search(text):  # "…off warfarin. Just for a week.": no stop for good
        found = [c for c in found if not c.medication_stopped]
    if _TOGETHER_AGAIN.search(text):  # "We broke up, but we're back together": no parting
        found = [c for c in found if not c.parting]
    if "分开" in text and not re.search("分居|离婚", text) and _ZH_APART_FOR_NOW.search(text):
        found = [c for c in found if not c.parting]  # "我和老公分开了，他去出差了"
    if "`" in text:  # (what was read across code cut out)
        found = [c for c in found if _HOLE not in c.content and _HOLE not in (c.retract or "")]
    # "我戒了咖啡": the need is stored, and the habit given up for it goes ("用户每天喝咖啡")
    found += [
        Candidate(
            "", FactCategory.CONTEXT, 0.9, retract=f"{_ZH_HABIT_VERB.get(m['x'], '吃')}{m['x']}"
        )
        for c in found
        if (m := _ZH_QUIT.match(c.content)) is not None
    ]
    no_dislike = {  # "Jazz isn't my thing, it's my life": no dislike of jazz
        f"user does not like {mine['what'].strip().casefold()}"
        for mine in _SOMEONE_ELSES.finditer(text)
    }
    if no_dislike:
        found = [c for c in found if c.content.casefold() not in no_dislike]
    return found


def _without(found: list[Candidate], thing: str) -> list[Candidate]:
    """``found`` without what names ``thing`` ("just kidding about the shrimp"): a need of
    several things keeps the others ("allergic to peanuts and shrimp": "…to peanuts"), and a
    need that names it among words no rule splits stays whole (keeping a need is safe)."""
    kept: list[Candidate] = []
    for candidate in found:
        if thing not in candidate.content.casefold():
            kept.append(candidate)
        elif candidate.constraint:
            left = things_left(candidate.content, lambda one: thing in one.casefold())
            if left is not None:
                kept += [replace(candidate, content=one, value=None) for one in left]
            elif not need_things(candidate.content) and (
                (candidate.value or "").casefold().rstrip("s") != thing
            ):
                kept.append(candidate)
    return kept


def _read_into(
    found: list[Candidate],
    raw: str,
    terminator: str,
    asks_a_number: Callable[[], bool],
    before: set[str] | None,
    *,
    told: bool = True,
    health: bool = True,
    needs: bool = True,
) -> None:
    """Add to ``found`` the candidates of one sentence ``raw`` of a message (ended by
    ``terminator``; ``asks_a_number``: whether the message asks for a number that is no age,
    :func:`_not_an_age`), but none whose ``repr`` is in ``before`` (what an earlier
    reading of the same sentence found, :func:`_each_diet`). With ``told``, a need a doctor
    told the user of is read (:func:`_told_need`); with ``health``, a condition, medication
    or accessibility field (the message names no one else: :data:`_OTHERS_IN_MESSAGE`); with
    ``needs``, an allergy, intolerance or diet field (no sentence before it headed someone
    else's record: :data:`_THEIR_RECORD`)."""
    raw = _SARCASM.sub(_taken_back, raw)
    if not _LETTER.search(raw):
        return
    if _TAKEN_BACK_AFTER.search(raw):  # "我对花生过敏，开玩笑的", "I'm vegan, or at least I was"
        return
    zh = CJK.search(raw) is not None
    if zh and _LETTER.search(outside := _BRACKETED.sub("", raw)):
        zh = CJK.search(outside) is not None  # "…peanuts (花生)": English
        # "I'm allergic to 花生": an English sentence with a Chinese word in it
        zh = zh and _EN_OPENING.match(outside) is None
    if not zh and (listed := _EN_NO_LIST_FOR_ME.match(raw.strip())) is not None:
        # "No dairy, no gluten, no refined sugar for me": each "no …" is for the user (read
        # before the lead-ins: the first "No" is no answer to anything)
        raw = _EN_NO_ITEM.sub(r"\g<item> for me", listed["items"]) + listed["last"]
    sentence, marker, remember = _strip_leadins(raw.strip(), zh)
    if zh:  # ("现在我住在上海": "我现在住在上海", as the rules read it)
        timed = False
        if (first := _ZH_TIME_FIRST.match(sentence)) is not None:
            timed = first["time"] in _ZH_MOMENT_TIMES  # ("现在我有个问题": a moment)
            sentence = f"我{first['time']}{sentence[first.end() :]}"
    elif (time_first := _time_after_subject(sentence)) is not None:
        sentence, timed = time_first
    else:
        timed = False
    field = (_zh_said_as_field if zh else _said_as_field)(sentence, health)  # "Allergies: …"
    if field != sentence and not needs:
        return  # a field of someone else's needs ("My son's form.\nAllergies: peanuts")
    sentence = field
    # a hedge or a sure after it ("…is gone, I think": withdraws nothing) is no part of it
    tag = (_HEDGE_AFTER_ZH if zh else _HEDGE_AFTER_EN).search(sentence)
    # (…and "我没有哮喘了，只是暂时的", "…，不过还要继续用药": over for now only, withdraws nothing)
    hedged = tag is not None or (zh and _ZH_NOT_FOR_GOOD.search(sentence) is not None)
    if tag is None and not zh:
        tag = _SURE_AFTER_EN.search(sentence)
    if tag is not None:
        sentence = sentence[: tag.start()]
    sentence = _cleft((_ZH_META_IF if zh else _EN_META_IF).sub("", sentence), zh)
    # ("I'm allergic to eggs, I think?": the mark asks of the tag, not of the statement)
    question = ("?" in terminator or "？" in terminator) and tag is None
    if zh:
        question = question or ZH_QUESTION.search(_zh_normalise(sentence)) is not None
    else:
        question = question or _EN_QUESTION_START.match(sentence) is not None
    if question and not zh and _EN_STANDING_ASK.match(sentence):
        question = False  # "Can you always reply in bullet points?": asked for good
    if question and not remember:
        asked, sentence = sentence, before_question(sentence, zh)
        if not zh and (described := _described_like_me(asked)):
            sentence = f"{sentence}, {described}" if sentence else described
        # (a Chinese question opening with a statement has said the trip already)
        if (planned := _plan_asked(asked, zh)) and not (zh and sentence):
            sentence = f"{sentence}. {planned}" if sentence else planned
    if not sentence:
        return
    needs_only = False
    if (reaction := (_zh_reaction_said_when if zh else _reaction_said_when)(sentence)) is not None:
        sentence = (
            reaction  # "I break out if I eat shrimp", "如果我吃海鲜就会过敏": no hypothetical
        )
    if (supposed := (_ZH_HYPOTHETICAL if zh else _EN_HYPOTHETICAL).search(sentence)) is not None:
        # "I'm allergic to penicillin, so check if the drug has it", "我对花生过敏，如果菜里有
        # 花生请告诉我": the need said before the clause of the "if" stands; the rest is no fact
        breaks = list(
            (_ZH_CLAUSE_BREAK if zh else _EN_CLAUSE_BREAK).finditer(sentence, 0, supposed.start())
        )
        if not breaks:
            return
        sentence = _without_dangling_joiner(sentence[: breaks[-1].start()])  # "…and, if…"
        if not sentence or any(
            taken.search(sentence) for taken in (_TAKEN_BACK_AFTER, _NOT_SO_AFTER, _TAKEN_BACK_IN)
        ):
            return  # "I'm allergic to peanuts, not really, if you must know": taken back
        needs_only = True
    vented = venting(sentence, zh)
    joking = vented or venting(raw, zh)  # "Lol I'm 12": the lead-in said it
    if not zh:
        # "…, like dogs though" is a taste said against the clause before, not its example:
        # read as "…, but like dogs" before the ending word goes with normalising
        sentence = _en_normalise(_taste_of_it_joined(_like_said_against(sentence)))
    sentence, others = with_others(sentence, zh)
    still = (_ZH_STILL if zh else _EN_STILL).search(sentence) is not None and not (
        _ZH_SOMEONE_NAMED if zh else _EN_SOMEONE_NAMED
    ).search(raw)
    # (what a doctor told is read only as said: not asked, nor doubted in the message)
    said = _sentence_candidates(
        sentence,
        zh,
        marker,
        told=told and not question,
        mine=zh or _EN_ANOTHER_PERSON.search(raw) is None,  # ("For my daughter: allergic to…")
    )
    not_so = _NOT_SO_AFTER.search(raw) is not None  # "…is gone, yeah right"
    # (looked for once in the sentence, however many ages it says)
    no_age = functools.cache(lambda: joking or _not_an_age(raw, asks_a_number))
    for candidate in _still_so(said, "do") if still else said:
        if candidate.slot == "age" and no_age():
            continue  # "Lol I'm 12", "Shoe size? I'm 44"
        if vented and (
            (candidate.slot or "").startswith("taste:")
            or candidate.confidence <= OWN_WORDS_CONFIDENCE
        ):
            continue  # "I hate Mondays lol": a mood
        if (
            timed
            and candidate.confidence <= OWN_WORDS_CONFIDENCE
            and not _diets_given_up(candidate.content, zh, found)
            and not says_need(candidate.content)
            and (
                _LASTING_EN.search(candidate.content) is None
                or _NOT_SO_EN.search(candidate.content) is not None
            )
        ):
            # "Now I want pizza": a moment (but "Now I eat meat" ends a diet, and "Recently I
            # found out my son is allergic to eggs" keeps his need as said before)
            continue
        if terminator == _ASIDE_END and candidate.confidence <= OWN_WORDS_CONFIDENCE:
            continue  # "(I'm the one in red)", "(I'm making it for my mom)": chat
        if others and candidate.content:
            candidate.content += others
        if not_so and (candidate.retract is not None or not candidate.constraint):
            continue  # "My kiwi allergy is gone, yeah right": nothing is withdrawn (a need stays)
        if hedged:  # "I quit my job, I guess": said, but nothing stored is withdrawn
            if (kept := _not_withdrawing(candidate)) is None:
                continue
            candidate = kept
        if needs_only and (
            not candidate.constraint or _not_withdrawing(candidate) is not candidate
        ):
            continue  # "…, so check if the drug has it": only the need said first
        if candidate.content and unsafe_to_store(candidate.content):
            continue  # "Big fan of sk-proj-…": a secret or an instruction, whatever the rule
        if (
            not zh
            and _EN_CUT_SHORT.search(candidate.content)
            and not _EN_OWN_CLAUSE.search(candidate.content)
        ):
            continue  # "I'm a huge fan of": what it is of was never said
        given_up = _diets_given_up(candidate.content, zh, found)
        if given_up and (_ZH_SOMEONE_NAMED if zh else _EN_SOMEONE_NAMED).search(raw):
            # someone else named: whose diet ended is unclear, so none is withdrawn;
            # "我以前室友吃素，现在吃肉了" leaves even whose plate unclear (no subject)
            if zh:
                continue
            given_up = []
        found += [c for c in (candidate, *given_up) if before is None or repr(c) not in before]


def _not_withdrawing(candidate: Candidate) -> Candidate | None:
    """``candidate`` without the stored facts it withdraws (by what it names or by their
    slots): a bare withdrawal is ``None``; "User quit their job", "User used to be vegan"
    stay as statements."""
    if candidate.retract is None and not candidate.retract_slots:
        return candidate
    if not candidate.content:
        return None
    return replace(candidate, retract=None, retract_slots=(), retract_present=False)


def _still_so(said: list[Candidate], verb: str) -> list[Candidate]:
    """``said`` when the user adds that what they used to be or do still holds ("我以前对芒果
    过敏，现在还是", "I used to drink coffee, and I still do"): nothing is withdrawn, and a
    bare retraction is no candidate then. ``verb`` is the one said with "still": "do" and
    "am" stand for any; another must be the past's own ("I still love it" after "I used to
    love jazz", not after "I used to be a teacher")."""
    kept = []
    for candidate in said:
        own = verb in ("do", "am", "is") or (candidate.retract or "").split(" ")[0] == verb
        if candidate.past and candidate.retract and own:
            if not candidate.content:
                continue
            candidate.retract = None
        kept.append(candidate)
    return kept


# Eating meat or fish again ends a vegetarian or vegan diet: "I eat meat now", "I've started
# eating fish again", "我现在吃肉", "我又开始吃鱼了". The stored diet (a constraint shown
# first on every turn) is withdrawn, as "I'm no longer vegetarian" would.
_MEAT_EN = (
    r"(?:meat|fish|chicken|beef|pork|seafood|lamb|poultry)\b"
    r"(?![\s-]*(?:[\w'-]+[\s-]+){0,2}(?:substitutes?|alternatives?|analogues?|replacements?|free\b))"
)
# (the meat itself, not a thing named after it: "User now eats fish oil capsules", "…chicken
# flavoured crisps")
_MEAT_ITSELF_EN = (
    r"(?=\s*$|\s*[,.;:!]|\s+(?:again|now|too|as well|sometimes|occasionally|regularly|daily|"
    r"every|on|at|when|once|and|or|with|but|for|these days|nowadays|at times|if|since)\b)"
)
_EN_EATS_MEAT_NOW = re.compile(
    # begun: "User has started eating fish", "User went back to eating meat"
    rf"^User (?:has |had )?(?:now |recently |just )?(?:started|begun|gone back to|went back to)"
    rf" eating {_MEAT_EN}"
    # or said to hold now: "User eats meat now", "User now eats chicken", "User currently
    # eats fish again"
    rf"|^User (?:now|currently) eats {_MEAT_EN}{_MEAT_ITSELF_EN}"
    rf"|^User eats {_MEAT_EN}(?=.*\b(?:now|again|these days|nowadays)\b)",
    _I,
)
_ZH_EATS_MEAT_NOW = re.compile(
    r"^用户(?:现在|又|重新|已经|最近)+(?:开始)?吃(?:肉|鱼|荤|海鲜|鸡肉|牛肉|猪肉)"
)
_MEAT_ENDS = ("vegetarian", "vegan")
# One diet of these said to hold now (or since a time) ends the others: "I'm vegan now" or
# "I'm vegan since 2015" after "I'm vegetarian".
_PLANT_DIETS = ("vegetarian", "vegan", "pescatarian", "flexitarian")
_EN_DIET_NOW = re.compile(
    rf"^User (?:(?:is|has been) (?:an? )?(?:strict )?(?P<d>{'|'.join(_PLANT_DIETS)})"
    rf" (?:now|again|these days|since {SINCE_WHEN_EN})"
    rf"|(?:went|turned|became|has become|has gone) (?:fully )?(?P<d2>{'|'.join(_PLANT_DIETS)}))$",
    _I,
)
_ZH_SOMEONE_NAMED = re.compile(rf"{KIN_ZH}|他|她")
_EN_SOMEONE_NAMED = re.compile(rf"\b(?:{KIN_EN}|he|she|they)\b", _I)
_MEAT_ENDS_ZH = ("吃素", "素食者", "素食主义者", "吃斋")


def _diets_given_up(content: str, zh: bool, said: list[Candidate]) -> list[Candidate]:
    """Retractions of the diets that eating meat now (``content``) ends; [] for other facts.

    A diet already withdrawn by what was ``said`` before ("我以前吃素，现在吃肉了") is not
    withdrawn again: that would take back the past the user just stated too.
    """
    # The diet itself goes ("User is vegan"), not "User works at a vegan cafe". Meat ends it
    # whatever its reason ("…since my heart attack"); another diet keeps a reason that names
    # something (the heart attack still happened).
    if not zh and (now := _EN_DIET_NOW.match(content)):
        diet = (now["d"] or now["d2"]).casefold()
        ended, any_reason = [d for d in _PLANT_DIETS if d != diet], False
    elif (_ZH_EATS_MEAT_NOW if zh else _EN_EATS_MEAT_NOW).match(content):
        ended, any_reason = list(_MEAT_ENDS_ZH if zh else _MEAT_ENDS), True
    else:
        return []  # (before reading what was said: this runs for every candidate)
    done = {candidate.retract for candidate in said}
    return [
        Candidate(
            "",
            FactCategory.CONTEXT,
            0.9,
            retract=d,
            retract_whole=True,
            retract_any_reason=any_reason,
        )
        for d in ended
        if d not in done
    ]


# "I was vegetarian for years, but not anymore", "I was a smoker; no longer": said as
# "I'm no longer X" (a retraction), not as a fact with its denial glued on.
_EN_WAS_NOT_NOW = re.compile(
    r"^I(?P<head>'m| am| was| used to be| used to)\s+(?P<x>[^,;]+?)"
    r"(?:\s+for\s+(?:years|ages|decades|a\s+(?:long\s+)?(?:while|time)|(?:\w+\s+){1,2}(?:years?|months?)))?"
    r"\s*[,;]?\s*(?:but\s+)?(?:not\s+(?:anymore|any\s+more|any\s+longer|these\s+days|nowadays)"
    r"|no\s+longer|no\s+more)$",
    _I,
)


# Diets the user says they follow, or no longer follow, named together: a list that is
# the whole complement of its clause, which ends after it ("…, halal though" and "…, keto
# now" go on past a clause's end; "a keto and paleo cookbook" names no diet of the user's).
_EN_DIET_JOINER = r"(?:\s*,\s*(?:(?:and|or|nor)\s+)?|\s+(?:and|or|nor|&)\s+)(?:also\s+)?"
_EN_DIET_LIST = rf"{DIET_EN}(?:{_EN_DIET_JOINER}{DIET_EN})+"
_EN_DIET_FRAME = re.compile(
    r"(?:^\s*|(?<=[,;:]\s)|(?<=\band\s)|(?<=\bbut\s)|(?<=\bso\s))"
    rf"(?:(?P<be>I(?:'m|’m| am)\s+{ADV_EN}(?P<neg>(?:no longer|not|never)\s+)?"
    r"(?:(?:strictly|strict|fully|mostly|pretty much)\s+)*)"
    r"|I(?:'ve| have)?\s+(?:quit|stopped|gave up|given up)\s+being\s+)"
    rf"(?P<neither>neither\s+)?(?P<diets>{_EN_DIET_LIST})(?![\w-])"
    r"(?=(?P<tail>\s+(?:now|these days|nowadays|anymore|any more|any longer|either|too|as well))?"
    # …and, after a list joined by words alone, what a diet said alone may have after it:
    # since when, for what, a laugh, an aside ("…keto and sober since May", "…(mostly)")
    r"(?P<more>\s+(?:since\s[^,.;!?()]{1,30}|last\s+\w+|in\s+(?:19|20)\d\d|for\s+\w+(?:\s+\w+)?"
    r"|(?:\w+\s+){1,4}ago|lol|haha|lmao|\([^()]{0,30}\)))?"
    r"\s*(?:[,.;!?)]|$))",
    _I,
)
_EN_DIET_SPLIT = re.compile(_EN_DIET_JOINER, _I)
_EN_OR = re.compile(r"(?:,|\s)\s*or\s", _I)
_STILL = ("now", "these days", "nowadays", "too", "as well")
_EN_NEW_ITEM = re.compile(r"\balso\b|\bnor\b.*,", _I)
_EN_COMMA_JOINED = re.compile(r",\s*(?:and|or|nor)\s", _I)
_EN_JOINED = re.compile(r"\s(?:and|or|nor|&)\s", _I)
# Plant diets said together are one choice named twice ("vegetarian and vegan"): each
# alone would end the other.
_PLANT_DIET_WORDS = frozenset(_PLANT_DIETS) | {"pescetarian", "plant-based", "meat-free"}
_DIETS_AT_MOST = 6
_DIET_SENTENCE = 600  # characters: a longer sentence is read once, as said


def _diets_of(frame: re.Match[str]) -> list[str] | None:
    """The diets of one list (_EN_DIET_FRAME), each once, or ``None`` when it is not split:
    "or" only under the clause's own negation ("I'm not keto or paleo anymore"; "keto or
    paleo" alone is a choice not yet made), a list of commas alone not under one ("I'm not
    keto, sober" may say two things), "neither … nor" only after "I'm", two plant diets."""
    listed, negated = frame["diets"], frame["neg"] is not None
    if frame["neither"] and (frame["be"] is None or negated):
        return None
    negated = negated or frame["neither"] is not None
    if (_EN_OR.search(listed) and not negated) or (negated and not _EN_JOINED.search(listed)):
        return None
    if frame["more"] and "," in listed:  # "I'm keto, sober never…": a clause ended at ","
        return None
    # Given up or denied, a list ends where a diet held now may begin: "I'm no longer
    # keto, and also halal", "…, halal now", "I gave up being keto, and halal too".
    # (An Oxford comma before the last of three or more is no new clause: "I'm no longer
    # halal, keto, and sober".)
    ending = negated or frame["be"] is None
    new_item = _EN_NEW_ITEM.search(listed) is not None or (
        listed.count(",") == 1 and _EN_COMMA_JOINED.search(listed) is not None
    )
    held_now = "," in listed and (frame["tail"] or "").strip().casefold() in _STILL
    if ending and (new_item or held_now):
        return None
    said: dict[str, str] = {}
    for diet in _EN_DIET_SPLIT.split(listed):
        said.setdefault(diet.casefold().replace(" ", "-"), diet)  # "gluten free" is "gluten-free"
    if not 2 <= len(said) <= _DIETS_AT_MOST or len(_PLANT_DIET_WORDS & said.keys()) > 1:
        return None
    say = "not " if frame["neither"] else ""
    return [say + diet for diet in said.values()]


def _each_diet(sentence: str) -> list[str] | None:
    """The sentence once per diet of the lists of diets it names (_EN_DIET_FRAME), or ``None``.

    "I gave up being vegan and keto" reads as "I gave up being vegan" and "I gave up
    being keto": each diet is stored, withdrawn or ignored as it would be said alone,
    and one withdrawn later leaves the others. Several lists are read side by side:
    the n-th reading has the n-th diet of each (the last again for a shorter list).
    """
    if len(sentence) > _DIET_SENTENCE:
        return None
    lists = [
        (frame.start("neither") if frame["neither"] else frame.start("diets"), frame.end(), diets)
        for frame in _EN_DIET_FRAME.finditer(sentence)
        if (diets := _diets_of(frame)) is not None
    ]
    if not lists:
        return None
    readings = []
    for n in range(max(len(diets) for _, _, diets in lists)):
        parts, at = [], 0
        for start, end, diets in lists:
            parts += [sentence[at:start], diets[min(n, len(diets) - 1)]]
            at = end
        readings.append("".join(parts) + sentence[at:])
    return readings


def _same_need(said: str) -> list[Candidate]:
    """The needs ``said`` states, one sentence: someone's need put in the user's words ("I'm
    allergic to eggs", from "My wife is allergic to eggs. Me too.": ellipsis.same_need). (The
    next message's "Me too" reads the whole message before: extractor.candidates reads it
    as a message.)"""
    zh = CJK.search(said) is not None
    return [c for c in _sentence_candidates(said, zh, False, instead=False) if c.constraint]


def _sentence_candidates(
    sentence: str,
    zh: bool,
    marker: bool,
    *,
    instead: bool = True,
    told: bool = True,
    mine: bool = True,
) -> list[Candidate]:
    """Candidates of one cleaned sentence: a retraction or correction frame, else its clauses.

    With ``instead``, a need put right at the end ("…peanuts, I mean cashews") is read (once
    per sentence: the head is read without it); ``told`` and ``mine`` as :func:`_clauses`
    takes them.
    """
    if not zh and (was := _EN_WAS_NOT_NOW.match(sentence)):
        # "I used to play guitar, but not anymore": the past habit's rule withdraws it
        used_to = was["head"] == " used to"
        sentence = f"I used to {was['x']}" if used_to else f"I'm no longer {was['x']}"
    if (changed := retraction_frame(sentence, zh)) is not None:
        return [changed]
    if instead and (correction := split_instead(sentence, zh)) is not None:
        # "I'm allergic to peanuts, I mean cashews", "我对花生过敏，不对，是腰果", "…, I mean
        # cashews, not peanuts": the need of the thing meant (see ellipsis.put_right)
        head, what = correction
        said = _sentence_candidates(head, zh, marker, instead=False, told=told, mine=mine)
        if said and said_last(head, said[-1], zh) and (meant := put_right(said[-1], what)):
            return [*said[:-1], meant[0]] if meant[1] else [*said, meant[0]]
    framed = _correction_frame(sentence, zh, marker)
    if framed is not None:
        return framed
    if (added := split_one_more(sentence, zh)) is not None:
        # "I'm allergic to peanuts; shrimp too", "我对花生过敏，还有虾": the need, then again
        # of each thing added (which, read alone, stated nothing or something else)
        head, things = added
        said = _sentence_candidates(head, zh, marker, instead=False, told=told, mine=mine)
        if (
            said
            and said_last(head, said[-1], zh)
            and (more := [need_of(said[-1], thing) for thing in things])[0] is not None
        ):
            # (a thing added again is one fact: each is checked for secrets after this)
            once: dict[str, Candidate] = {}
            for one in more:
                if one is not None:
                    once.setdefault(one.content, one)
            return [*said, *once.values()]
    found = []
    clauses = _clauses(sentence, zh, told=told, mine=mine)
    for clause, subject in clauses:
        candidate = _clause_candidate(clause, subject, zh)
        if (
            subject == _SELF
            and not zh
            and (candidate is None or candidate.confidence <= OWN_WORDS_CONFIDENCE)
            and (two := _EN_TWO_DESCRIPTIONS.match(clause))
            and _EN_NOT_MORE_OF_ME.match(two["b"])
        ):
            # "I'm vegan and hubby allergic to nuts": hers (but "I'm allergic to both cats
            # and dogs", read whole by a rule, is one need of two things)
            clause = f"{two['i']} {two['a']}"
            candidate = _clause_candidate(clause, subject, zh)
        # "I'm diabetic and vegan", "I'm pregnant and vegan": each said on its own; so too
        # when only the own-words fallback read them together ("I'm vegan and allergic to
        # nuts" is a diet and a need, each a rule's)
        each = (
            _descriptions(clause)
            if subject == _SELF
            and not zh
            and (candidate is None or candidate.confidence <= OWN_WORDS_CONFIDENCE)
            else []
        )
        if candidate is None or (
            len(each) == 2 and all(one.confidence > OWN_WORDS_CONFIDENCE for one in each)
        ):
            said = each
        else:
            said = [candidate]
        for candidate in said:
            candidate.marker = marker
            found.append(candidate)
    if not zh and clauses and clauses[0][1] is None and not found:
        described = described_before_so(sentence)  # "Left-handed, so which pens…"
        found += [described] if described is not None else []
    return found
