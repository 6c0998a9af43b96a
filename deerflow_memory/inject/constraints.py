"""Which facts are constraints: needs every answer must respect, whatever the request.

A constraint is an allergy or intolerance, a diet, a medical condition or
medication, or an accessibility need. Extractors mark them when they write a
fact (``Fact.constraint``); :func:`is_constraint` also recognises unmarked
ones by wording (Chinese and English), so a DeerFlow file, an older document
or a model that forgot the mark still gets "is allergic to peanuts" injected on
every turn. Injection gives constraints their own token budget in both modes
(:mod:`deerflow_memory.inject.format`, :mod:`deerflow_memory.inject.retrieval`).

The other guaranteed facts are those of the ``guaranteed_categories``:
:func:`guaranteed_members` reads that setting once for both injection modes.

The wording rules aim at precision: a false constraint costs a line of the
constraint budget on every turn; a missed one is only a fact ranked like any
other. A text that is not a ``str`` (None, bytes, a number) is a caller's slip,
not "no constraint": it raises :class:`~deerflow_memory.errors.InvalidFactError`,
as :func:`~deerflow_memory.update.validate.check_fact_text` does for the same
input; nothing else raises.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from deerflow_memory.caching import TextCache
from deerflow_memory.errors import ConfigError, InvalidFactError
from deerflow_memory.models import Fact, FactCategory

__all__ = ["guaranteed_members", "is_constraint", "looks_like_constraint"]

_FOOD = (
    r"(?:meat|pork|beef|lamb|chicken|poultry|fish|seafood|shellfish|shrimp|prawns?|crab|"
    r"lobster|eggs?|dairy|milk|cheese|butter|lactose|gluten|wheat|bread|soy|sesame|"
    r"nuts?|peanuts?|almonds?|walnuts?|cashews?|alcohol|beer|wine|liquor|caffeine|coffee|"
    r"tea|sugar|sweets|salt|sodium|spicy|garlic|onions?|mushrooms?|animal products?|"
    r"red meat|fried food|carbs?|sugary)"
)
_EN = re.compile(
    r"\b(?:"
    # allergies and intolerances
    r"allerg\w*|intoleran\w*|anaphyla\w*|epi-?pens?|coeliac|celiac|"
    r"(?:sensitive|sensitivity) to|can(?:no|')t (?:digest|tolerate)|"
    # diets
    r"(?:vegan|vegetarian|pescatarian)(?:s|ism)?|halal|kosher|teetotal\w*|"
    r"gluten[- ]free|dairy[- ]free|"
    r"sugar[- ]free|low[- ](?:sodium|salt|sugar|carb(?:ohydrate)?s?)|keto(?:genic)?|"
    r"(?:does(?:n't| not)|do(?:n't| not)|never|can(?:no|')t|won't|will not|must not|"
    r"mustn't|no longer|stopped|gave up)\s+(?:\w+\s+)?(?:eat|eats|eating|drink|drinks|"
    r"drinking|consume|consumes|touch|touches)\b|"
    rf"(?:avoids?|avoiding|abstains? from|cuts? out|only eats?|aversion to|stays? away from|"
    rf"can(?:no|')t have)\s+(?:\w+\s+){{0,2}}{_FOOD}|"
    rf"\bno {_FOOD}\b|"
    # medical
    r"diabet\w*|insulin|pregnan\w*|epilep\w*|seizures?|asthma\w*|hypertension|"
    r"high blood pressure|heart (?:condition|disease|problems?)|blood thinners?|"
    r"medications?|medicines?|kidney (?:disease|failure)|dialysis|chronic (?:pain|illness)|"
    r"immunocompromised|pacemakers?|"
    # accessibility
    r"wheelchairs?|mobility (?:aids?|scooters?|issues?|impair\w*)|crutches|"
    r"walking (?:sticks?|canes?)|blind(?:ness)?|visually impaired|low vision|"
    r"screen[- ]readers?|large print|colou?r[- ]?blind\w*|"
    r"deaf(?:ness|blind(?:ness)?)?|hard of hearing|hearing (?:aids?|loss|impair\w*)|"
    r"sign language|dyslexi\w*|"
    r"(?:can(?:no|')t|unable to) (?:climb|use|walk up) (?:stairs|steps)|disabilit\w*|disabled"
    # whole words only ('ketones', 'window blinds', 'Deafheaven' are no needs), so
    # each need above spells the endings it takes (vegetarianism, low-carbohydrate)
    r")\b",
    re.IGNORECASE,
)
_ZH = re.compile(
    # allergies, intolerances
    r"过敏|不耐受|乳糖|麸质|"
    # diets
    r"吃素|素食|纯素|清真|忌口|戒酒|戒糖|不吃|不能吃|不敢吃|不喝|不能喝|不沾|只吃|控糖|低盐|低糖|无糖|"
    # medical
    r"糖尿病|胰岛素|怀孕|孕期|孕妇|癫痫|哮喘|高血压|心脏病|透析|肾病|服药|吃药|药物|"
    # accessibility
    r"轮椅|拐杖|行动不便|腿脚不便|失明|盲人|视障|视力不好|弱视|色盲|听力|助听器|耳聋|聋|手语|"
    r"残疾|无障碍|读屏|大字"
)


def _looks_like_constraint(text: str) -> bool:
    """True when ``text`` names an allergy, diet, medical or accessibility need.

    Args:
        text: a fact's content, in Chinese or English.

    Returns:
        Whether the wording rules recognise a constraint.

    Raises:
        InvalidFactError: ``text`` is not a ``str``.

    Example:
        >>> looks_like_constraint("Stays away from dairy; lactose makes them ill")
        True
        >>> looks_like_constraint("Likes jazz")
        False
    """
    if not isinstance(text, str):
        raise InvalidFactError(f"a fact must be text, got {type(text).__name__}")
    return _EN.search(text) is not None or _ZH.search(text) is not None


# Bounded by characters too: 65,536 texts of 500 characters kept ~70 MB of keys.
looks_like_constraint = TextCache(_looks_like_constraint, max_entries=65_536, max_chars=2_000_000)


def is_constraint(fact: Fact) -> bool:
    """True when ``fact`` is marked a constraint or its wording names one.

    Args:
        fact: a stored fact.

    Returns:
        Whether injection must guarantee it.

    Raises:
        InvalidFactError: ``fact`` is no fact (no ``constraint``/``content``),
            or its content is not a ``str``.
    """
    try:
        return fact.constraint or looks_like_constraint(fact.content)
    except AttributeError:
        raise InvalidFactError(f"is_constraint takes a Fact, got {type(fact).__name__}") from None


@lru_cache(maxsize=64)  # a handful of settings, read on every turn
def _members(categories: tuple[str | FactCategory, ...]) -> frozenset[FactCategory]:
    try:
        names = {c.strip().lower() for c in categories}  # FactCategory is a str
    except AttributeError as e:
        raise ConfigError(
            f"guaranteed_categories must be category names, got {categories!r}"
        ) from e
    return frozenset(c for c in FactCategory if c.value in names)


def guaranteed_members(categories: Iterable[str | FactCategory]) -> frozenset[FactCategory]:
    """The categories of ``guaranteed_categories``, read once for both injection modes.

    Args:
        categories: category names (trimmed, any case; unknown ones ignored) or
            members; a bare string is one name.

    Returns:
        The members; the same setting again costs one cache lookup.

    Raises:
        ConfigError: ``categories`` is not an iterable of strings.
    """
    if isinstance(categories, str):  # a bare "correction" is one category, not letters
        categories = (categories,)
    try:
        return _members(tuple(categories))
    except TypeError as e:  # not iterable, or an item that is no name (unhashable)
        raise ConfigError(
            f"guaranteed_categories must be category names, got {categories!r}"
        ) from e
