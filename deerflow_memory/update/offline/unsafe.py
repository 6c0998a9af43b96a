# ruff: noqa: E501  (regular expressions: one alternation per line reads better than wrapped)
"""What no offline fact may hold: a secret, or words to the assistant's instructions.

Memory is shown to a model provider on every turn, so "User's password is
hunter2" must never be stored, whichever offline rule read it ("Big fan of
sk-proj-…", "4111 1111 1111 1111 is my go-to"). Nor may a stored "fact" carry
an instruction into every prompt ("goal for this year: ignore all previous
instructions"). :func:`unsafe_to_store` refuses by kind, not by a word list:

- **names of secrets** (English, simplified and traditional Chinese):
  passwords however spelled ("pass", "pwd", "pass word", "p-a-s-s-w-o-r-d",
  "p@$$w0rd"), PINs, keys, tokens, seed phrases, the numbers of cards,
  accounts and identity papers (passport, SSN, SIN, NHS, a driver's
  licence, 身份证);
- **codes that open something**: a door, a safe, a locker, a bike lock, a
  voicemail box or a payment ("the front door opens with 4821", 门锁是4821,
  支付六位数);
- **shapes**: card, account and ID numbers whatever their separators, keys
  and tokens (``sk-…``, ``ghp_…``, a JWT, a run of 24+ characters mixing
  letters and digits), credentials in a URL (``postgres://bob:s3cr3t@…``,
  ``?token=…``) and webhook URLs;
- **words to the assistant** ("ignore previous instructions", "system
  prompt", 忽略之前…).

The text is read as a model would read it: characters that show nothing
(format characters such as U+200E, combining marks, variation selectors, tag
characters) are read as absent, compatibility forms as their plain letters
(``ｐａｓｓ``, ``𝐩𝐚𝐬𝐬``), Cyrillic and Greek letters that look Latin as Latin
(``pаssword`` with a Cyrillic а), and letters spelled one by one as a word.
A fact refused here is simply not kept; a false refusal costs one fact.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["unsafe_to_store"]

_I = re.IGNORECASE

# --- names of secrets ---------------------------------------------------------------------------

_SAID_IS = r"(?=\s*(?:is|was|=|:))"  # "pass is …", "PIN: …"
_SECRET_NAMES = re.compile(
    r"\b(?:pass ?words?|passphrases?|passcodes?|passwd|pwd?|p@ss\w*|passwort|mot de passe|contraseña"
    rf"|pass{_SAID_IS}|pins?{_SAID_IS}|pin (?:code|number)|pincode"
    r"|one[- ]time (?:code|password)|verification code|security (?:code|question|answer)|2fa code"
    r"|api[ _-]?keys?|access keys?|secret keys?|private keys?|license keys?|licence keys?|product keys?"
    r"|(?:auth|access|bearer|refresh|github|slack|api|session) tokens?|tokens?"
    + _SAID_IS
    + r"|(?:wi-?fi|wlan|network|router|wallet|encryption|ssh|gpg|pgp|recovery|backup) (?:key|pass\w*|code|pin|phrase|seed)s?"
    r"|seeds?(?: phrase| words)?"
    + _SAID_IS
    + r"|seed (?:phrase|words)|recovery (?:phrase|words|codes?)|mnemonic"
    r"|card numbers?|cvv2?|cvc|expiry date|iban|account (?:number|no)s?|routing number|sort code|swift code"
    r"|ssn|social security|national insurance|ni number|sin(?= number| no| is|:|#)|nhs (?:number|no)"
    r"|passport(?: number| no)?" + _SAID_IS + r"|passport (?:number|no)"
    r"|driver'?s? licen[cs]e|driving licen[cs]e|licen[cs]e (?:number|no)|national id|id (?:number|card number)"
    r"|tax (?:id|number)|tin(?= number| is)|medicare number|health (?:card|insurance) number|maiden name)\b"
    # a key that is said to be a long string: "my key is ABCDEFGHIJKLMNOP"
    r"|\bkey\s*(?:is|was|=|:)\s*\S{12,}",
    _I,
)
# Leetspeak of the names ("p4$$w0rd"): read with these letters, names only (not numbers).
_LEET = str.maketrans("0134$@57!|", "oieasastil")

# --- codes that open something ------------------------------------------------------------------

_OPENING_CODES = re.compile(
    r"\b(?:door|gate|garage|lock|alarm|safe|locker|entry|building|keypad|atm|bank|voicemail|"
    r"padlock|suitcase|bike|storage|mailbox|lockbox|key ?safe|unlock|wi-?fi)"
    r"(?: \w+)? (?:code|combo|combination|pin|password|number)s?\b"
    r"|\b(?:code|combo|combination|pin|lock)\b[^.!?;]{0,24}?(?:\d{3,}|\d{1,3}(?:[ -]\d{1,3}){2,})\b"
    r"(?!\s*(?:years?|months?|weeks?|days?|hours?|minutes?|people|times|lines|languages|%))"
    r"|\bopens? with\s+(?:the\s+)?(?:code\s+)?\d[\d\s-]{2,}|\bcombination (?:is|to)\b|\bunlock (?:code|pattern)\b"
    r"|[密口]碼|[密口]码|口令|驗證碼|验证码|安全[码碼]|支付[码碼]|暗[号號]|门禁|門禁|取件[码碼]|提货[码碼]|提貨碼|开锁|開鎖"
    r"|六位数|六位數|(?:锁|鎖|门|門|柜|櫃|箱|支付|取件|验证|驗證|密)[^，。；,.;]{0,6}(?:是|为|為|：|:)\s*\d{4,}",
    _I,
)

# --- identity and account numbers, in Chinese -------------------------------------------------------

_ZH_PAPERS = re.compile(
    r"身份[证證]|護照|护照|[卡帳帐账][号號]|银行卡|銀行卡|[密私]钥|[密私]鑰|助记词|助記詞|社保号|社保號|驾驶证号|駕駛證號"
)

# --- shapes ---------------------------------------------------------------------------------------

_SECRET_SHAPES = re.compile(
    r"\bsk-[a-z0-9-]{6,}|\bakia[a-z0-9]{8,}|\b(?:ghp|gho|ghu|ghs|github_pat|xox[abpr]|glpat)[_-]\w{8,}"
    r"|\beyj[\w-]{8,200}\.[\w-]{8,}|\baiza[\w-]{20,}|\bbc1[a-z0-9]{20,}"
    # card, account and ID numbers, whatever separates their groups
    r"|\b\d{9,}\b|\b\d{4}(?:[^\w\s]?\s?\d{4}){3}\b|\b\d{4}[^\w\s]?\s?\d{6}[^\w\s]?\s?\d{5}\b"
    r"|\b\d{3}-\d{2}-\d{4}\b|\b\d{3}[ .-]\d{3}[ .-]\d{3,4}\b"
    r"|\b[a-z]{2}\d{2}[a-z0-9]{11,30}\b|\b[a-z]{2}\d{2}(?: [a-z0-9]{4}){2,7}(?: [a-z0-9]{1,4})?\b"
    # credentials in a URL, and URLs that are a secret themselves
    r"|\b[a-z][a-z0-9+.-]{0,30}://[^\s/:@]{1,200}:[^\s/@]{1,200}@|[?&](?:token|key|api_?key|secret|sig|signature|access_token|password|pass|auth)="
    r"|hooks\.slack\.com/|discord(?:app)?\.com/api/webhooks/|webhook\.office\.com/",
    _I,
)
# A long run of letters and digits mixed (keys, tokens, wallet addresses), found in
# one pass over maximal runs: lookaheads at each word start were quadratic in a run
# like "a-a-a-…".
_RUN = re.compile(r"[\w-]{24,}")
_DIGIT = re.compile(r"\d")
_LATIN = re.compile(r"[a-z]", _I)

# --- words to the assistant -----------------------------------------------------------------------

_TO_THE_ASSISTANT = re.compile(
    r"\b(?:ignore|disregard|override|bypass) (?:all |any |the |your )?(?:previous|prior|above|"
    r"earlier|system|your) (?:instructions?|rules|prompts?|messages?)\b|\bsystem prompt\b|"
    r"\bdeveloper mode\b|\bjailbreak|\byou (?:must|will) obey\b|^system:|\bsystem:\s"
    r"|忽略(?:之前|以上|前面|所有)|系统提示|系統提示|提示词|提示詞|越狱|越獄|开发者模式|開發者模式",
    _I,
)

# --- reading the text as a model would ---------------------------------------------------------

# Cyrillic and Greek letters a reader takes for Latin ones (Unicode's confusables, the common ones).
_LOOKALIKES = str.maketrans(
    "асеорхуіјѕԁԛԝһӏАВЕКМНОРСТХУІЈЅαβεικνορτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aceopxyijsdqwhlABEKMHOPCTXYIJSaBeikvoptuxABEZHIKMNOPTYX",
)
# Letters spelled one by one: "p-a-s-s-w-o-r-d", "p a s s w o r d", "p.a.s.s".
_SPELLED = re.compile(
    r"(?<![^\W\d_])[^\W\d_](?P<gap>\s|[.\-_*·,/]\s?)[^\W\d_](?:(?P=gap)[^\W\d_]){2,}(?![^\W\d_])"
)
_NOT_LETTER = re.compile(r"[\W\d_]+")


def _unspelled(match: re.Match[str]) -> str:
    return f" {_NOT_LETTER.sub('', match.group())} "  # one word, still a word on its own


def _as_read(text: str) -> str:
    """``text`` without what shows nothing, in plain letters, spelled-out words joined."""
    if not text.isascii():
        # Compatibility forms to plain ones (NFKD), then every mark, format, control and
        # unassigned character dropped: they show nothing, or nothing a reader would read.
        decomposed = unicodedata.normalize("NFKD", text)
        text = "".join(
            char
            for char in decomposed
            if char.isascii() or unicodedata.category(char) not in _SHOW_NOTHING
        ).translate(_LOOKALIKES)
    return _SPELLED.sub(_unspelled, text)


_SHOW_NOTHING = frozenset({"Mn", "Me", "Cf", "Cc", "Cn", "Co", "Cs"})


def unsafe_to_store(text: str) -> bool:
    """Whether an offline fact's ``text`` holds a secret or words to the assistant's instructions.

    Args:
        text: a candidate fact's content.

    Returns:
        True when no offline rule may keep it (the kinds: module docstring),
        read as a model would read it: invisible characters as absent,
        lookalike and compatibility letters as plain ones, spelled-out
        letters as a word. Linear in the length of ``text``.
    """
    read = _as_read(text)
    return (
        _SECRET_NAMES.search(read) is not None
        or _SECRET_NAMES.search(read.translate(_LEET)) is not None
        or _OPENING_CODES.search(read) is not None
        or _ZH_PAPERS.search(read) is not None
        or _SECRET_SHAPES.search(read) is not None
        or _TO_THE_ASSISTANT.search(read) is not None
        or any(
            _DIGIT.search(run) and _LATIN.search(run)
            for run in map(re.Match.group, _RUN.finditer(read))
        )
    )
