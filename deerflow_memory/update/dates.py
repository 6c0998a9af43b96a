# ruff: noqa: E501  (rule tables: one regular expression per line reads better than wrapped)
"""Time frames in what the user says → the date a fact stops mattering (its ``expiresAt``).

:func:`time_frame_end` reads one English or Chinese phrase naming a *future*
time frame and returns the first day after it: "next week" → the Monday after
next week, "this summer" → 1 September, "明年春节" → a week after next
year's Spring Festival, "by June 2027" → 1 July 2027, "2027-03-12" → 13 March
2027. Past frames ("last year", "去年") and durations of a state ("for three
years") are not time frames of a plan and give ``None``.

It is pure: ``today`` is passed in, nothing is read from the clock. Nothing
raises on odd text; what it does not understand gives ``None``. Spring
Festival dates are a table (2024–2040); outside it, mid-February is assumed.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

from deerflow_memory.arguments import expect, expect_text
from deerflow_memory.models import iso_utc

__all__ = ["expiry_for_text", "time_frame_end"]

# Chinese New Year (正月初一), Gregorian dates.
_SPRING_FESTIVAL = {
    2024: date(2024, 2, 10),
    2025: date(2025, 1, 29),
    2026: date(2026, 2, 17),
    2027: date(2027, 2, 6),
    2028: date(2028, 1, 26),
    2029: date(2029, 2, 13),
    2030: date(2030, 2, 3),
    2031: date(2031, 1, 23),
    2032: date(2032, 2, 11),
    2033: date(2033, 1, 31),
    2034: date(2034, 2, 19),
    2035: date(2035, 2, 8),
    2036: date(2036, 1, 28),
    2037: date(2037, 2, 15),
    2038: date(2038, 2, 4),
    2039: date(2039, 1, 24),
    2040: date(2040, 2, 12),
}
# The holiday lasts about a week; a plan "for Spring Festival" matters until then.
_FESTIVAL_DAYS = 8

_MONTHS_EN = {
    name: i
    for i, names in enumerate(
        [
            (),
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for name in names
}
_MONTH_EN = "|".join(sorted(_MONTHS_EN, key=len, reverse=True))
_WEEKDAYS_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_DIGITS = {
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_ZH_DIGITS.update({"十": 10, "十一": 11, "十二": 12})
# Season → (first month, last month); winter ends in February of the next year.
_SEASONS = {"spring": (3, 5), "summer": (6, 8), "autumn": (9, 11), "fall": (9, 11)}
_SEASONS_ZH = {"春天": (3, 5), "春季": (3, 5), "夏天": (6, 8), "夏季": (6, 8), "暑假": (7, 8)}
_SEASONS_ZH.update({"秋天": (9, 11), "秋季": (9, 11)})


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def _week_end(day: date, weeks_ahead: int) -> date:
    """Sunday of the week ``weeks_ahead`` after ``day``'s week (weeks start on Monday)."""
    return day + timedelta(days=6 - day.weekday() + 7 * weeks_ahead)


def _next_month_end(day: date) -> date:
    following = _add_months(day.replace(day=1), 1)
    return _month_end(following.year, following.month)


def _season_end(today: date, last: int, which: str) -> date:
    """Last day of a season: ``this`` year's, ``next`` year's, or the next one to end."""
    if which == "this":
        return _month_end(today.year, last)
    if which == "next":
        return _month_end(today.year + 1, last)
    year = today.year + (1 if today > _month_end(today.year, last) else 0)
    return _month_end(year, last)


def _winter_end(today: date, year_shift: int) -> date:
    # Winter runs December → February: "this winter" in January is the current one.
    year = today.year if today.month <= 2 else today.year + 1
    return _month_end(year + year_shift, 2)


def _festival(year: int) -> date:
    return _SPRING_FESTIVAL.get(year, date(year, 2, 10))


def _festival_end(today: date, next_year: bool) -> date:
    """Last day of the Spring Festival holiday: next year's, or the next one to end."""
    holiday = timedelta(days=_FESTIVAL_DAYS - 1)
    if next_year:
        return _festival(today.year + 1) + holiday
    year = today.year + (1 if today > _festival(today.year) + holiday else 0)
    return _festival(year) + holiday


def _yearly(today: date, month: int, day: int) -> date:
    """The next ``month``/``day`` on or after ``today``."""
    this_year = date(today.year, month, day)
    return this_year if this_year >= today else date(today.year + 1, month, day)


def _month_named(today: date, month: int, year: int | None) -> date:
    if year is None:
        year = today.year if month >= today.month else today.year + 1
    return _month_end(year, month)


def _valid(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _day_ahead(today: date, year: int | None, month: int, day: int) -> date | None:
    found = _valid(today.year if year is None else year, month, day)
    if found is not None and year is None and found < today:
        found = _valid(today.year + 1, month, day)
    return found


def _zh_number(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    return _ZH_DIGITS.get(text)


Resolve = Callable[[re.Match[str], date], date | None]


def _en(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){pattern}(?![\w-])", re.IGNORECASE)


def _iso_date(m: re.Match[str], today: date) -> date | None:
    return _valid(int(m["y"]), int(m["m"]), int(m["d"]))


def _en_day_month(m: re.Match[str], today: date) -> date | None:
    year = int(m["y"]) if m["y"] else None
    return _day_ahead(today, year, _MONTHS_EN[m["mon"].casefold()], int(m["d"]))


def _en_month(m: re.Match[str], today: date) -> date | None:
    return _month_named(today, _MONTHS_EN[m["mon"].casefold()], int(m["y"]) if m["y"] else None)


_EN_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_EN_COUNTS.update({"a couple of": 2, "a few": 3, "seven": 7, "eight": 8, "ten": 10})


def _in_n(today: date, n: int, unit: str) -> date | None:
    if n > 1000:
        return None
    if unit == "day":
        return today + timedelta(days=n)
    if unit == "week":
        return today + timedelta(weeks=n)
    if unit == "month":
        return _add_months(today, n)
    return _valid(today.year + n, today.month, min(today.day, 28))


def _en_in_n(m: re.Match[str], today: date) -> date | None:
    raw = m["n"].casefold()
    n = int(raw) if raw.isdigit() else _EN_COUNTS.get(raw)
    return None if n is None else _in_n(today, n, m["unit"].casefold().rstrip("s"))


# "Monday through Friday": a weekly range, no end.
_WEEKDAY_BEFORE = re.compile(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?\s+$|\b(?:mon|tue|wed|thu|fri|sat|sun)\s+$",
    re.IGNORECASE,
)


def _en_weekday(m: re.Match[str], today: date) -> date | None:
    if _WEEKDAY_BEFORE.search(m.string, 0, m.start()) or _not_due(m):
        return None
    target = _WEEKDAYS_EN.index(m["wd"].casefold())
    ahead = (target - today.weekday()) % 7 or 7
    if m["w"].strip().casefold() == "next" and ahead <= 6 - today.weekday():
        ahead += 7  # "next Friday" said on a Monday: the Friday of next week
    return today + timedelta(days=ahead)


def _en_day_of_month(m: re.Match[str], today: date) -> date | None:
    """ "until the 15th": that day of this month, or of the next when it is past."""
    if _not_due(m):
        return None
    day = int(m["d"])
    this = _valid(today.year, today.month, day)
    if this is not None and this >= today:
        return this
    month = _add_months(date(today.year, today.month, 1), 1)
    return _valid(month.year, month.month, day)


# Said of what has lasted or recurs, "for two weeks" is no end: "I've been vegan for a year",
# "I fast for a day every week".
_NOT_AHEAD = re.compile(
    r"\b(?:been|have|has|had|'ve|since|ago|used to|every|each|per|usually|always|often|once a|"
    r"twice a|was|were|did|went|last|\w+ed)\b",  # (and the past: "I lived in Tokyo for a year")
    re.IGNORECASE,
)
# "by Friday" is a deadline only for what must be done ("I need to finish it by Friday");
# "I pay rent by the 1st" is a habit.
_DUE = re.compile(
    r"\b(?:need|needs|have to|has to|must|should|got to|gotta|want to|wants to|will|'ll|going to"
    r"|gonna|plan to|plans to|due|deadline)\b",
    re.IGNORECASE,
)


def _not_due(m: re.Match[str]) -> bool:
    """A "by" frame of a sentence that says nothing must be done by then."""
    return m.group().split(None, 1)[0].casefold() == "by" and not _DUE.search(m.string)


def _en_for_n(m: re.Match[str], today: date) -> date | None:
    """ "off caffeine for a month", "staying with my parents for two weeks": from today."""
    if _NOT_AHEAD.search(m.string) or m.string[m.end() :].lstrip().startswith("now"):
        return None  # (and "sober for 6 months now": lasted so far)
    return _en_in_n(m, today)


def _en_season(m: re.Match[str], today: date) -> date | None:
    which = (m["w"] or "").strip().casefold()
    season = m["season"].casefold()
    if season == "winter":
        return _winter_end(today, 1 if which == "next" else 0)
    return _season_end(today, _SEASONS[season][1], which if which in ("this", "next") else "")


def _zh_ymd(m: re.Match[str], today: date) -> date | None:
    month, day = _zh_number(m["m"]), _zh_number(m["d"])
    if month is None or day is None:
        return None
    return _day_ahead(today, int(m["y"]) if m["y"] else None, month, day)


def _zh_month(m: re.Match[str], today: date) -> date | None:
    month = _zh_number(m["m"])
    if month is None or not 1 <= month <= 12:
        return None
    year = today.year + 1 if m["next"] else today.year if m["this"] else None
    return _month_named(today, month, year)


def _zh_season(m: re.Match[str], today: date) -> date | None:
    which = {"明年": "next", "今年": "this"}.get(m["w"], "")
    season = m["season"]
    if season in ("冬天", "冬季", "寒假"):
        return _winter_end(today, 1 if which == "next" else 0)
    return _season_end(today, _SEASONS_ZH[season][1], which)


def _zh_in_n(m: re.Match[str], today: date) -> date | None:
    n = _zh_number(m["n"])
    unit = {"天": "day", "周": "week", "个星期": "week", "个月": "month"}[m["unit"]]
    return None if n is None else _in_n(today, n, unit)


def _days(days: int) -> Resolve:
    return lambda _m, today: today + timedelta(days=days)


_MONTH_ZH = r"\d\d?|十[一二]?|[一二三四五六七八九]"
_SEASON_ZH = r"春天|春季|夏天|夏季|秋天|秋季|冬天|冬季|暑假|寒假"
_SEASON_EN = r"spring|summer|autumn|fall|winter"

# Ordered: the most specific phrases first; the first match (not in the past) wins.
# Each resolver returns the *last day* of the frame.
_RULES: tuple[tuple[re.Pattern[str], Resolve], ...] = (
    (re.compile(r"(?P<y>20\d\d)-(?P<m>\d\d?)-(?P<d>\d\d?)"), _iso_date),
    (re.compile(r"(?P<y>20\d\d)\s*年\s*(?P<m>\d\d?)\s*月\s*(?P<d>\d\d?)\s*[日号]"), _zh_ymd),
    (re.compile(rf"(?P<y>)(?P<m>{_MONTH_ZH})月(?P<d>\d\d?)[日号]"), _zh_ymd),
    (re.compile(r"明年(?:的)?(?:春节|过年|新年)"), lambda _m, t: _festival_end(t, True)),
    (re.compile(r"春节|过年|农历新年"), lambda _m, t: _festival_end(t, False)),
    (re.compile(rf"(?P<w>明年|今年|这个|今)(?P<season>{_SEASON_ZH})"), _zh_season),
    (re.compile(r"(?P<w>)(?P<season>暑假|寒假)"), _zh_season),
    (re.compile(rf"(?:(?P<next>明年)|(?P<this>今年))?(?P<m>{_MONTH_ZH})月"), _zh_month),
    (re.compile(r"国庆"), lambda _m, t: _yearly(t, 10, 7)),
    (re.compile(r"圣诞"), lambda _m, t: _yearly(t, 12, 26)),
    (re.compile(r"元旦"), lambda _m, t: _yearly(t, 1, 1)),
    (
        re.compile(
            r"(?P<n>\d+|[一二两三四五六七八九十])(?P<unit>天|周|个星期|个月)(?:后|以后|之后|内|之内)"
        ),
        _zh_in_n,
    ),
    (re.compile(r"下(?:个)?(?:周|星期|礼拜)"), lambda _m, t: _week_end(t, 1)),
    (re.compile(r"(?:这|本)(?:个)?(?:周|星期|礼拜)|周末"), lambda _m, t: _week_end(t, 0)),
    (re.compile(r"下(?:个)?月"), lambda _m, t: _next_month_end(t)),
    (re.compile(r"(?:这|本)(?:个)?月"), lambda _m, t: _month_end(t.year, t.month)),
    (re.compile(r"明年"), lambda _m, t: date(t.year + 1, 12, 31)),
    (re.compile(r"今年|年底|年内"), lambda _m, t: date(t.year, 12, 31)),
    (re.compile(r"后天"), _days(2)),
    (re.compile(r"明天|明早|明晚"), _days(1)),
    (re.compile(r"今天|今晚|今早"), _days(0)),
    # English
    (
        _en(rf"(?P<d>\d\d?)(?:st|nd|rd|th)?(?: of)? (?P<mon>{_MONTH_EN})\.?(?:,? (?P<y>20\d\d))?"),
        _en_day_month,
    ),
    (
        _en(rf"(?P<mon>{_MONTH_EN})\.? (?P<d>\d\d?)(?:st|nd|rd|th)?(?:,? (?P<y>20\d\d))?"),
        _en_day_month,
    ),
    (_en(r"(?:chinese|lunar) new year|spring festival"), lambda _m, t: _festival_end(t, False)),
    (_en(rf"(?P<w>this |next |the coming |coming )?(?P<season>{_SEASON_EN})"), _en_season),
    (_en(r"(?:this |next )?christmas"), lambda _m, t: _yearly(t, 12, 26)),
    (_en(r"new year(?:'s)?(?: eve| day)?"), lambda _m, t: _yearly(t, 1, 1)),
    (
        _en(
            rf"(?:in|by|until|till|before|this|next|end of|during) (?P<mon>{_MONTH_EN})(?: (?P<y>20\d\d))?"
        ),
        _en_month,
    ),
    (
        _en(
            r"(?:in|within) (?P<n>\d+|a couple of|a few|an?|one|two|three|four|five|six|seven|eight|ten)"
            r" (?P<unit>days?|weeks?|months?|years?)"
        ),
        _en_in_n,
    ),
    (
        _en(
            r"(?:for|for the next) (?P<n>\d+|a couple of|a few|an?|one|two|three|four|five|six"
            r"|seven|eight|ten) (?P<unit>weeks?|months?)"
        ),
        _en_for_n,
    ),
    (
        _en(
            r"(?P<w>next |this |on |coming |until |till |til |through |thru |by )"
            r"(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
        ),
        _en_weekday,
    ),
    (_en(r"(?:until|till|til|through|thru|by) the (?P<d>\d\d?)(?:st|nd|rd|th)"), _en_day_of_month),
    (_en(r"next week(?:end)?"), lambda _m, t: _week_end(t, 1)),
    (_en(r"this week(?:end)?|the weekend"), lambda _m, t: _week_end(t, 0)),
    (_en(r"next month"), lambda _m, t: _next_month_end(t)),
    (_en(r"this month|(?:the )?end of the month"), lambda _m, t: _month_end(t.year, t.month)),
    (_en(r"next year"), lambda _m, t: date(t.year + 1, 12, 31)),
    (_en(r"this year|(?:the )?end of the year|year-end"), lambda _m, t: date(t.year, 12, 31)),
    (_en(r"(?:by|in|during) (?P<y>20\d\d)"), lambda m, t: _valid(int(m["y"]), 12, 31)),
    (_en(r"the day after tomorrow"), _days(2)),
    (_en(r"tomorrow"), _days(1)),
    (_en(r"today|tonight|this (?:morning|afternoon|evening)"), _days(0)),
)

# A phrase right after one of these names a past frame ("last summer", "去年春节").
_PAST_BEFORE = re.compile(
    r"(?:\blast\s+|\bpast\s+|去年(?:的)?|上(?:个)?|前年(?:的)?)$", re.IGNORECASE
)


def time_frame_end(text: str, today: date) -> date | None:
    """The first day after the future time frame named in ``text``, or ``None``.

    Args:
        text: a sentence or fact, English or Chinese.
        today: the date the text was said on (the frame is read relative to it).

    Returns:
        The day the frame is over (a fact tied to it expires at its start),
        never earlier than tomorrow; ``None`` when ``text`` names no future frame.

    Example:
        >>> time_frame_end("trip to Sanya next week", date(2026, 11, 30))
        datetime.date(2026, 12, 14)
        >>> time_frame_end("明年春节去三亚过年", date(2026, 11, 30))
        datetime.date(2027, 2, 14)

    Raises:
        InvalidArgumentError: ``text`` is not a ``str`` or ``today`` not a ``date``.
    """
    expect_text(text, "text")
    expect(today, date, "today", "a datetime.date (date.fromisoformat reads text)")
    for pattern, resolve in _RULES:
        for m in pattern.finditer(text):
            if _PAST_BEFORE.search(text, 0, m.start()):
                continue
            last = resolve(m, today)
            if last is not None:
                # The first frame named decides; a frame already over names no plan ahead.
                return last + timedelta(days=1) if last >= today else None
    return None


def expiry_for_text(text: str, now: datetime) -> str | None:
    """``expiresAt`` (ISO-8601 UTC, midnight) for a fact text said at ``now``; ``None`` if none.

    Example:
        >>> expiry_for_text("User plans a trip this summer", datetime(2026, 3, 1, tzinfo=UTC))
        '2026-09-01T00:00:00Z'
    """
    end = time_frame_end(text, now.astimezone(UTC).date() if now.tzinfo else now.date())
    return None if end is None else iso_utc(datetime(end.year, end.month, end.day))
