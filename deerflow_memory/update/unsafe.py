# ruff: noqa: E501  (regular expressions: one alternation per line reads better than wrapped)
"""What no learned fact or summary may hold: a secret, or words to the assistant's instructions.

Memory is shown to a model provider on every turn, so "User's password is
hunter2" must never be stored, whichever extractor proposed it: the memory
model, whatever its prompt says, or an offline rule ("Big fan of sk-proj-…",
"4111 1111 1111 1111 is my go-to"). Nor may a stored "fact" carry an
instruction into every prompt ("goal for this year: ignore all previous
instructions"). The gate every update passes
(:func:`~deerflow_memory.update.validate.validate_update`) and the offline
rules refuse with :func:`unsafe_to_store`, by kind, not by a word list:

- **names of secrets** (English, simplified and traditional Chinese):
  passwords however spelled ("pass", "pwd", "pass word", "p-a-s-s-w-o-r-d",
  "p@$$w0rd"), PINs, keys, tokens, seed phrases, the numbers of cards,
  accounts and identity papers (passport, SSN, SIN, NHS, EIN, PAN, a PUK, a
  driver's licence, 身份证), and parts of them ("SSN ends with 2210");
- **credentials without a name**: a login's name with its password, a
  password reused "everywhere", the answer to a security question given as a
  hint, where a house key is hidden;
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
characters, blanks such as U+2800) are read as absent, a space between two
Chinese characters as absent ("密 码"), compatibility forms as their plain letters
(``ｐａｓｓ``, ``𝐩𝐚𝐬𝐬``), Cyrillic and Greek letters that look Latin as Latin
(``pаssword`` with a Cyrillic а), and letters spelled one by one as a word.
A fact refused here is simply not kept; a false refusal costs one fact. A
password only mentioned, the whole text saying that it was forgotten, reset or
leaked and nothing else ("User forgot their password and reset it"), is kept.
:func:`secrets_hidden` applies the same check to the values an error message
quotes.
A fact a user asks for by hand (``remember``) is stored as asked: the
command line warns.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection

from deerflow_memory.arguments import expect_text, wrong_type

__all__ = ["NOT_SHOWN", "secrets_hidden", "unsafe_even_escaped", "unsafe_to_store"]

# ASCII word rules: to Unicode \b a Chinese character is a word character, so the
# names in "我的PIN是4821" or "token是abc123" had no word boundary around them.
_I = re.IGNORECASE | re.ASCII

# --- names of secrets ---------------------------------------------------------------------------
#
# A name that only ever names a secret ("PIN", "passcode", 密码) refuses the fact
# when the secret is given: said to be something ("my PIN is …", "PIN: …",
# 密码是…) or followed by a word holding a digit; the clearest ones ("password",
# "private key") refuse alone. Names that also name ordinary things ("pass",
# "seed", "code", "social", 护照) refuse only with a value holding a digit, and
# not in their ordinary compounds ("gym pass", "zip code", "密码学", 《达芬奇密码》).
# A false refusal costs one fact; a miss sends a secret to the model provider
# on every turn.

_SAID = r"\s*(?:is|was|are|were|=|:|#|是|为|為|：)\s*"  # "pass is …", "PIN: …", "PIN是…"
# what a secret is for, between its name and its value: "PIN for the Tesla is …", "code for
# the gate at work is …", "pass to Hulu is …"
_WHOSE = (
    r"(?:\s+(?:for|at|to|on|of)\s+(?:the\s+|my\s+|their\s+|user's\s+)?[\w'-]+(?![\w'-])"
    r"(?:\s+[\w'-]+(?![\w'-]))?(?:\s+(?:at|for|of)\s+[\w'-]+(?![\w'-]))?)?"
)
_WITH_DIGIT = r"\S{0,40}?\d"  # a value-like word: it holds a digit (bounded: linear time)
# A password-like word: six or more characters, lower-case letters and digits mixed
# ("hunter22", "BlueFox2024"; not a model number such as "RT-AX88U"), not a number with its
# unit ("300Mbps"), ending what is said of it ("the key is Python3 for …" is not one)
_MIXED = (
    r"(?=(?-i:[^\s,;]{0,40}[a-z]))(?=[^\s,;]{0,40}\d)(?!\d+(?:\.\d+)?[a-z]{1,6}\b)"
    r"[^\s,;]{6,64}(?=\s*(?:$|[,.;!?)]|(?:and|but)\b))"
)
_PASS_NOT_SECRET = "".join(
    rf"(?<!{word} )"
    for word in (
        "gym", "season", "bus", "train", "boarding", "ski", "day", "annual", "museum", "travel",
        "rail", "metro", "festival", "backstage", "hall", "free", "park", "parking", "press",
        "vip", "weekly", "monthly", "mountain", "bird's", "family", "theme",
    )
)  # fmt: skip
_CODE_NOT_SECRET = "".join(
    rf"(?<!{word} )"
    for word in (
        "zip", "area", "postal", "post", "country", "dress", "source", "qr", "bar", "promo",
        "discount", "coupon", "morse", "airport", "iata", "colour", "color", "error", "status",
        "tax", "sic", "naics", "product", "course", "class", "flight", "to", "write", "writing",
    )
)  # fmt: skip
_SECRET_NAMES = re.compile(
    # names only of secrets: refused when the secret is given ("… is x", "… 4821")
    r"\b(?:pass ?words?|passphrases?|passcodes?|passwd|pwd?|p@ss\w*|passwort|mot de passe|contraseña"
    r"|pin|pin (?:code|number)|pincodes?|one[- ]time (?:code|password)s?|otp|verification codes?"
    r"|passkeys?|passw|passwrd|p/w|pw\d?|master (?:key|password)s?|secret (?:word|question|answer|phrase)s?"
    r"|aws (?:secret|access)(?: access)?(?: key)?|aadhaar(?: number)?|nric|pan (?:card|number)"
    r"|mrn|medical record (?:number|no)|(?:employee|badge|member(?:ship)?|customer) (?:id|number|no)"
    r"|security (?:code|question|answer)s?|2fa codes?|cvv2?|cvc|log-?ins?"
    r"|api[ _-]?keys?|access keys?|secret keys?|private ?keys?|licen[cs]e keys?|product keys?"
    r"|session (?:ids?|tokens?|cookies?)|auth(?:orization)? (?:cookies?|headers?)|bearer|client secrets?|mfa secrets?"
    r"|totp (?:secrets?|seeds?)|2fa (?:secrets?|backups?|backup codes?)|master (?:pass\w*|key)"
    r"|(?:auth|access|bearer|refresh|github|slack|api|session) tokens?"
    r"|(?:wi-?fi|wlan|network|router|wallet|encryption|ssh|gpg|pgp|recovery|backup|crypto|bitcoin|btc|eth|ethereum)"
    r" (?:key|pass\w*|code|pin|phrase|seed|words)s?"
    r"|seed (?:phrase|words)|recovery (?:phrase|words|codes?)|mnemonic (?:phrase|words)"
    r"|(?:twelve|12|twenty[- ]four|24|eighteen|18) (?:secret |seed |recovery )?words"
    r"|card numbers?|account (?:number|no\.?)s?|acct(?:\s*#|\s*no\.?|\s*numbers?)?|routing numbers?|sort codes?|swift codes?|iban"
    r"|[a-z]{2,12}_?(?:password|passcode|passphrase|pincode)s?"  # "wifipassword", "bank_password"
    r"|employer identification number"
    r"|ssn|social security (?:number|no)s?|national insurance number|ni number|nhs (?:number|no)"
    r"|passport (?:number|no)|driver'?s? licen[cs]e (?:number|no)|driving licen[cs]e (?:number|no)"
    r"|licen[cs]e (?:number|no)|national id number|id (?:number|card number)|tax (?:id|number)"
    rf"|medicare number|health (?:card|insurance) number|maiden name)(?:{_WHOSE}{_SAID}\S|\s*{_WITH_DIGIT})"
    # names of secrets and of ordinary things too ("my pass", "social", "passport"):
    # refused with a value holding a digit ("my passport is K8812…", "social is 123 45 6789")
    rf"|\b(?:{_PASS_NOT_SECRET}pass|social|sin|tin|ein|puk(?: code)?|passport|driver'?s? licen[cs]e|driving licen[cs]e"
    rf"|national id|tokens?|creds|credentials?|seeds?)(?:{_WHOSE}{_SAID}|\s+){_WITH_DIGIT}"
    # secrets by name alone, whatever follows
    r"|\b(?:pass ?word|pass ?phrase|passcode|pin code|seed phrase|recovery phrase|private key|secret key"
    r"|api key|maiden name)\b(?! (?:security|manager|managers|management|policy|policies|reset|resets|strength"
    r"|hygiene|rules|requirements|rotation|design|cryptography|infrastructure|generator))"
    r"|\b(?:that'?s|it'?s) (?:my|their|his|her) (?:pass\w*|pin|code|key|login)\b"
    rf"|\bkey{_SAID}\S{{12,}}|\b(?:seeds?|(?:wallet|seed|recovery|crypto|bitcoin) mnemonic|recovery words){_SAID}(?:[a-z]+\s+){{7,}}"
    rf"|\bmnemonic{_SAID}(?:[a-z]+\s+){{11,}}"
    # part of a secret: "SSN ends with 6789", "PIN starts with 99"
    r"|\b(?:ssn|social security number|pin|card(?: number)?|account number|acct|passcode|password)\s+"
    r"(?:ends?|starts?|begins?)\s+(?:in|with)\s+\d{2,}(?!\d*\s*(?:days?|weeks?|months?|years?)\b)"
    # the answer to a security question, said as a hint: "first pet, used for security questions"
    r"|\bused (?:for|as|in) (?:a |the |my |their |his |her )?security (?:questions?|answers?)\b"
    r"(?!\s+(?:design|research|training|courses?|policy|policies|best practices))"
    r"|\b(?:three|3) digits on the back|\blast (?:four|4)(?: digits)?\s*(?:are|is|:)?\s*\d{4}"
    r"|\bexpir(?:es|y|ation)(?: date)?\s*(?:is|on|:)?\s*\d{1,2}\s*/\s*\d{2,4}"
    rf"|\blog(?:s|ged)?[ -]?in\s+(?:with|using)\s+{_WITH_DIGIT}|\b(?:mysql|psql|mongo\w*)\b[^.]{{0,40}}\s-p\S+"
    rf"|\baccount\b[^.]{{0,24}}\bnumber\s*(?:is|:)?\s*{_WITH_DIGIT}",
    _I,
)
# Credentials said without a secret's name, read as written (not in leetspeak: "192.168.0.1"
# would spell letters): what has a password said to be a password-like word ("wifi:
# BlueFox2024", "the wifi at my flat is Kettle9981", "the key is sunflower77"; not "wifi SSID
# is …", "router model is RT-AX88U"), a login or an account said as a name and a password
# ("jdoe / Orchid2020", "kim@mail.com, Bramble12"), logging in "using" one, "pw: …".
_HOLDER = (
    r"(?:\s+(?:at|in|for|on|of|to)\s+(?:the\s+|my\s+|our\s+|their\s+|user's\s+)?[\w'-]+(?![\w'-])"
    r"|\s+here|\s+there)?"
)
_ACCOUNT = (
    r"(?:log-?ins?|logs? in(?:to)?|sign-?ins?|signs? in(?:to)?|credentials?|creds|accounts?|"
    r"usernames?|user names?|emails?|wi-?fi|wlan|hotspot|router|network)"
)
_CREDENTIALS = re.compile(
    rf"\b(?:wi-?fi|wlan|hotspot|router|network|key){_HOLDER}{_SAID}{_MIXED}"
    rf"|\b{_ACCOUNT}\b[^.]{{0,40}}?(?:{_SAID}|\s)\S{{1,64}}\s*(?:/|,|\band\b)\s*{_MIXED}"
    rf"|\b{_ACCOUNT}\b(?:[^.]|\.(?=\S)){{0,40}}?\b(?:using|with)\s+{_MIXED}"
    rf"|(?<![\w.+-])[\w.+-]{{1,64}}@[\w-]{{1,64}}\.[\w.-]{{1,64}}\s*(?:/|,|\band\b)\s*{_MIXED}"
    rf"|\b(?:wi-?fi|wlan|hotspot|router|network)\b[^.]{{0,30}}?\buses\s+(?=\S*\d{{3}}){_MIXED}"
    r"|\b(?:re)?uses?\s+(?=\S*[a-z])(?=\S*\d{3})\S{6,40}\s+(?:everywhere|for (?:almost |nearly )?(?:most|all|every)\b[^.]{0,16}\b(?:sites?|accounts?|logins?|websites?|services?))"
    r"|\b(?:house|home|spare|door|front[- ]door|back[- ]door|flat|apartment)\s+keys?\s+(?:is|are|stays|sits|lives)"
    r"\s+(?:(?:kept|hidden|always|usually)\s+)*(?:under|behind|beneath|above|inside)\b"
    r"(?!\s+(?:repair|warranty|review|construction|lock and key))"
    r"|\bhides?\s+(?:a|the|their|his|her|my)\s+(?:spare\s+)?(?:(?:house|home|door|front[- ]door)\s+)?keys?\s+(?:under|behind|beneath|above|inside"
    r"|in (?:a|the|their|his|her|my)\s+(?:\w+\s+)?(?:gnome|rock|plant ?pot|flower ?pot|planter|mailbox|letterbox"
    r"|bird ?house|gutter|lantern|boot|shoe))\b"
    rf"|\b(?:wi-?fi|wlan|hotspot|router|network)\b[^.]{{0,40}}?\bkey\s*[:=]?\s*{_MIXED}"
    rf"|\b(?:protected|secured|locked)\s+(?:by|with)\s+{_MIXED}|\bunlocks?\s+with\s+{_MIXED}"
    rf"|\bsecret(?:\s+(?:is|was))?\s*:?\s+{_MIXED}"
    r"|\bpw\s*[:=]|\b(?:username|login|log(?:s|ged)? in|email)\b[^.]{0,40}\bpw\s+\S",
    _I,
)
# Leetspeak of the names ("p4$$w0rd"): read with these letters, names only (not numbers).
_LEET = str.maketrans("0134$@57!|", "oieasastil")

# --- codes that open something ------------------------------------------------------------------

_DIGITS = (
    r"(?:\d{3,}+|\d{1,3}(?:[ -]\d{1,3}){2,8}"
    r"|(?:(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)[ -]?){4,12}"
    r"|[零〇一二三四五六七八九]{4,}+)"
)
_OPENING_CODES = re.compile(
    r"\b(?:door|gate|garage|lock|alarm|safe|locker|entry|building|keypad|atm|bank|voicemail|"
    r"padlock|suitcase|bike|storage|mailbox|lockbox|key ?safe|unlock|wi-?fi)"
    r"(?: \w+)? (?:code|combo|combination|pin|password)s?\b"
    # the code itself, said of something that opens or pays
    rf"|\b(?:{_CODE_NOT_SECRET}code|combo|combination|pin|lock|safe|padlock|locker|lockbox|keypad|clicker"
    r"|door|gate|alarm|garage)"
    rf"(?:\s+(?:is|was|number|no|code)){{0,3}}\s*[:=#-]?\s*{_DIGITS}(?!\d)(?!\s*(?:years?|%))"
    rf"|\b(?:opens?|unlocks?|disarms?|arms?|takes|accepts)\s+(?:with|to|on|using)?\s*(?:the\s+)?(?:code\s+)?{_DIGITS}"
    r"|\bcombination (?:is|to)\b|\bunlock (?:code|pattern|gesture)\b|\bpattern lock\b"
    # Chinese: a code by name (not 密码学 "cryptography", not a title such as 《达芬奇密码》)
    r"|[密口]碼(?![學学》管])|[密口]码(?![學学》管])|驗證碼|验证码|安全[码碼]|支付[码碼]"
    r"|(?:口令|暗[号號语語]|密[语語])(?:是|为|為|：|:)"
    r"|(?:登录|登錄|登入|登陆|登陸)(?:用|密码|密碼|是|：|:)\s*\S|门禁(?:码|碼|卡号|密码)|門禁(?:碼|卡號|密碼)|取件[码碼]|提货[码碼]|提貨碼|开锁[码碼]|開鎖[碼码]"
    r"|六位数(?:密码|是|为|：|:)|六位數(?:密碼|是|為|：|:)"
    rf"|(?:锁|鎖|柜|櫃|箱|支付|取件|验证|驗證|密)[^，。；,.;]{{0,6}}(?:是|为|為|：|:)\s*{_DIGITS}"
    # a code said by what it opens: "用4821开", "输入4821才能打开", "4821开的"
    rf"|(?:用|输入|輸入|按)?\s*(?<![\dA-Za-z零〇一二三四五六七八九]){_DIGITS}\s*(?:才能|就)?(?:打开|打開|开门|開門|开|開|解锁|解鎖)"
    rf"|\b{_CODE_NOT_SECRET}code{_WHOSE}\s+(?:is|was)\s+{_DIGITS}(?!\d)"
    r"|(?:卡背面|背面三位|背面的三位|有效期)|遥控[码碼]|遙控[碼码]"
    rf"|(?:门禁|門禁)(?:是|为|為|：|:)\s*{_DIGITS}|(?:取款|取钱|支付|付款)[^，。]{{0,6}}(?:输入?|輸入?|按)\s*{_DIGITS}",
    _I,
)

# --- identity and account numbers, in Chinese -------------------------------------------------------

# A name given a value: "是/为/：" and anything, or a value of letters or digits right
# after it ("卡號6222"); the name alone is a topic ("密码管理器", "身份证办理窗口").
_ZH_GIVEN = r"(?:号码|號碼|号|號)?(?:\s*(?:是|为|為|：|:)\s*\S|\s*[A-Za-z0-9]{3,})"
_ZH_PAPERS = re.compile(
    r"(?:身份[证證]|證件|证件|驾照|駕照|驾驶证|駕駛證|社会安全|社會安全|护照|護照|[卡帳帐账]"
    r"|[密私秘金]钥|[密私秘金]鑰|令牌|[凭憑][证證]|社保|恢复短语|恢復短語|安全问题(?:答案)?|安全問題(?:答案)?"
    r"|娘家姓)(?:号码?|號碼?)?的?(?:尾号|尾號|后四位|後四位|后4位|末四位|末尾)?"
    + _ZH_GIVEN
    + r"|助记词是|助記詞是|[密私秘金]钥|[密私秘金]鑰"
)

# --- words to the assistant -----------------------------------------------------------------------

_TO_THE_ASSISTANT = re.compile(
    r"\b(?:ignore|disregard|override|bypass|forget|drop|skip|discard)[\s-]+(?:\w+[\s-]+){0,3}?"
    r"(?:instructions?|rules|prompts?|guidelines|guidance|directions|directives|programming|restrictions"
    r"|messages? above|everything above|the above|system message)\b"
    r"(?!\s+(?:of|for|in|on)\b)"  # "forget the previous rules of chess" is the user's own
    r"|\b(?:make|get|have) you (?:forget|ignore|disregard|break|leak|send|reveal|say|tell|obey)\b"
    r"|\bfor you to (?:always|never|only)\b|\bnew instructions?\s*:|\byou are now (?:dan|jailbroken|free|unrestricted)\b"
    r"|\bsystem prompt\b|\bdeveloper mode\b|\bjailbreak|\byou (?:must|will) obey\b|^system:|\bsystem:\s"
    r"|\bassistant to (?:always |never )?(?:send|email|forward|reply with|reveal|leak|post|upload)\b[^.]{0,40}?"
    r"\b(?:memory|memories|chat history|conversation history|passwords?|secrets|contents of (?:the |their |its )?memory)\b"
    r"|<\s*/?\s*(?:system|instructions?|assistant|user_memory|system-reminder)\b"
    r"|(?:忽略|忽视|忽視|无视|無視|忘记|忘記|不要管)(?:掉)?(?:之前|以前|先前|以上|前面|上面|所有|全部|一切)"
    r"|(?:忽略|忽视|忽視|无视|無視|不要管)(?:掉)?[^，。]{0,4}(?:指示|指令|规则|規則|限制|设定|設定)"
    r"|(?:你的|显示|顯示|输出|輸出|泄露|洩露)(?:系统|系統)提示|(?:进入|進入|开启|開啟|切换到|切換到)(?:开发者|開發者)模式"
    r"|越狱模式|越獄模式|(?:没有|沒有|不受)任何限制|(?:发送|發送|发给|發給)[^，。]{0,8}(?:记忆|記憶)"
    r"|(?:记忆|記憶)[^，。]{0,8}(?:发送|發送|发给|發給)",
    _I,
)


# --- shapes ---------------------------------------------------------------------------------------

_SECRET_SHAPES = re.compile(
    r"\bsk-[a-z0-9-]{6,}|\bakia[a-z0-9]{8,}|\b(?:ghp|gho|ghu|ghs|github_pat|xox[abpr]|glpat)[_-]\w{8,}"
    r"|\beyj[\w-]{8,200}\.[\w-]{8,}|\baiza[\w-]{20,}|\bbc1[a-z0-9]{20,}"
    # card, account and ID numbers, whatever separates their groups
    # (digits not beside digits: "x4111…", "住在6222…" have no word boundary)
    r"|(?<!\d)\d{9,}(?!\d)|(?<!\d)\d{4}(?:[^\w\s]?\s?\d{4}){3}(?!\d)"
    r"|(?<!\d)\d{4}[^\w\s]?\s?\d{6}[^\w\s]?\s?\d{5}(?!\d)"
    r"|(?<!\d)\d{3}[ -]\d{2}[ -]\d{4}(?!\d)|(?<!\d)\d{3}[ .-]\d{3}[ .-]\d{3,4}(?!\d)"
    r"|\bpan\b[^.]{0,16}?\b[a-z]{5}\d{4}[a-z]\b|\b[a-z]{2}\d{2}[a-z0-9]{11,30}\b|\b[a-z]{2}\d{2}(?: [a-z0-9]{4}){2,7}(?: [a-z0-9]{1,4})?\b"
    # credentials in a URL, and URLs that are a secret themselves
    r"|\b[a-z][a-z0-9+.-]{0,30}://[^\s/:@]{1,200}:[^\s/@]{1,200}@|[?&](?:token|key|api_?key|secret|sig|signature|access_token|password|pass|auth)="
    r"|hooks\.slack\.com/|discord(?:app)?\.com/api/webhooks/|webhook\.office\.com/",
    _I,
)
# A long run of letters and digits mixed (keys, tokens, wallet addresses), found in
# one pass over maximal runs: lookaheads at each word start were quadratic in a run
# like "a-a-a-…". A token: some piece between its "_" and "-" mixes letters and digits
# ("Kq7mZ2vX_pQ81nB3", a UUID, "JBSWY3DP-EHPK3PXP"), not words and numbers joined
# ("acme_corp_production_2026_eu", "memory_export_2026_03_01").
_RUN = re.compile(r"[\w-]{24,}")
_PIECE = re.compile(r"[^\W_]{4,}")  # ("v2", "4o": a version, no piece of a token)
_DIGIT = re.compile(r"\d")
_LATIN = re.compile(r"[a-z]", _I)

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


# Categories of what shows nothing, or nothing a reader would read: marks, format
# characters, controls, unassigned, private-use and surrogate code points.
_SHOW_NOTHING = frozenset({"Mn", "Me", "Cf", "Cc", "Cn", "Co", "Cs"})
# Letters and symbols that print as a blank (the braille blank, Hangul fillers): dropped too,
# so "pass\u2800word" is "password".
_BLANKS = frozenset("\u2800\u3164\u115f\u1160\uffa0")
_WHITESPACE = re.compile(r"\s{2,}")
# One word in quotes or brackets is the word: "User's bank "PIN" is 4821".
_QUOTED_WORD = re.compile(r"[\"'“”‘’\[(]([^\W\d_]{2,12})[\"'“”‘’\])]")
# Three letters with dots between them, as an abbreviation is written: "P.I.N.", "S.S.N.".
_DOTTED_WORD = re.compile(r"\b[a-z]\.[a-z]\.[a-z]\b\.?", re.IGNORECASE)
# A space between two Chinese characters splits no word a reader sees apart: "密 码".
_CJK_GAP = re.compile(r"(?<=[\u3400-\u9fff])\s(?=[\u3400-\u9fff])")


def _as_read(text: str) -> str:
    """``text`` without what shows nothing, in plain letters, spelled-out words joined."""
    if not text.isascii():
        # Compatibility forms to plain ones (NFKD), then what shows nothing dropped.
        decomposed = unicodedata.normalize("NFKD", text)
        text = "".join(
            char if char.isascii() or not char.isdecimal() else str(unicodedata.decimal(char))
            for char in decomposed
            if char.isascii()
            or (unicodedata.category(char) not in _SHOW_NOTHING and char not in _BLANKS)
        ).translate(_LOOKALIKES)
    # One space for any run of whitespace: no pattern counts spaces, and a run of
    # thousands ("´" decomposes to a space and a mark) made the code patterns quadratic.
    text = _QUOTED_WORD.sub(r"\1", _WHITESPACE.sub(" ", text))  # 'PIN', "code", [PIN]
    text = _DOTTED_WORD.sub(lambda m: m.group().replace(".", ""), text)  # "P.I.N." is "PIN"
    if not text.isascii():
        text = _CJK_GAP.sub("", text)
    return _SPELLED.sub(_unspelled, text)


# A password only mentioned, the whole text saying nothing else: forgotten, reset, changed or
# leaked ("User forgot their password and reset it", "User's wifi password was changed by
# their landlord", "用户经常忘记密码"). Matched whole, so a value anywhere in the text ("…,
# marigold", "Marigold: …", "…，向日葵") leaves it a secret.
_OF_WHAT = r"(?:(?:wi-?fi|email|bank|work|laptop|phone|account|router|old|online banking)\s+)?"
_MENTION_TAIL = (
    r"(?:\s+(?:and\s+(?:reset|changed|updated|rotated)\s+(?:it|them)|again|often|regularly|frequently"
    r"|once|twice|a lot|recently|last (?:week|month|year)|every (?:few )?(?:weeks?|months?|years?)"
    # who changed it and after what, from closed lists: a free word there could be the value
    r"|by (?:their|the|a|an)\s+(?:(?:it|office|bank's)\s+)?(?:landlord|bank|admin|administrator|employer"
    r"|company|provider|school|university|it desk|it department|it team|help ?desk|it|office|manager)"
    r"|in an? (?:data )?breach|after (?:an?|the)\s+(?:data\s+)?(?:breach|incident|audit|leak|hack|outage)"
    r"|and (?:changed|reset)))*"
)
_ONLY_MENTIONED = re.compile(
    r"(?:the )?user(?:'s)?\s+(?:(?:often|always|sometimes|regularly|keeps|frequently|recently|just)\s+)*"
    r"(?:forg[eo]t(?:s|ten)?|reset(?:s)?|chang(?:e|es|ed)|rotat(?:e|es|ed)|lost|updat(?:e|es|ed))"
    rf"\s+(?:their|his|her|the|a)\s+{_OF_WHAT}(?:pass ?words?|passcodes?|api keys?|pins?){_MENTION_TAIL}"
    rf"|(?:the )?user's\s+{_OF_WHAT}(?:pass ?words?|passcodes?|api keys?|pins?|recovery codes?)"
    r"\s+(?:was|were|got|has been|have been|had been)\s+(?:recently\s+)?"
    rf"(?:changed|reset|rotated|compromised|leaked|stolen|hacked|expired|updated){_MENTION_TAIL}"
    r"|(?:该)?用户(?:经常|总是|老是|又|常常|有时)?(?:忘记|忘了|老是忘|重置|修改|更换)了?"
    r"(?:(?:邮箱|银行卡|银行|电脑|手机|微信|支付宝|路由器|工作|公司|网银)的?)?密码了?"
    r"|(?:该)?用户在(?:公司|银行|学校|医院|单位|部门|团队|客服部|信息部|技术部)负责密码重置(?:流程|工作)?",
    re.IGNORECASE,
)


def unsafe_to_store(text: str) -> bool:
    """Whether ``text`` holds a secret or words to the assistant's instructions.

    Args:
        text: a proposed fact, ``sourceError``, removal reason or summary sentence.

    Returns:
        True when no update may store it (the kinds: module docstring),
        read as a model would read it: invisible characters as absent,
        lookalike and compatibility letters as plain ones, spelled-out
        letters as a word. Linear in the length of ``text``.

    Raises:
        InvalidArgumentError: ``text`` is not a ``str``.
    """
    expect_text(text, "text")
    return _holds_secret(_as_read(text))


def _holds_secret(read: str) -> bool:
    """:func:`unsafe_to_store` of text already read (:func:`_as_read`)."""
    if _ONLY_MENTIONED.fullmatch(read.strip().rstrip(".。!！")):
        # nothing but a password forgotten, reset or leaked: no name of a secret to refuse,
        # but shapes and words to the assistant are still looked for
        return _SECRET_SHAPES.search(read) is not None or _TO_THE_ASSISTANT.search(read) is not None
    return (
        _SECRET_NAMES.search(read) is not None
        or _SECRET_NAMES.search(read.translate(_LEET)) is not None
        or _CREDENTIALS.search(read) is not None
        or _OPENING_CODES.search(read) is not None
        or _ZH_PAPERS.search(read) is not None
        or _SECRET_SHAPES.search(read) is not None
        or _TO_THE_ASSISTANT.search(read) is not None
        or any(
            _DIGIT.search(piece) and _LATIN.search(piece)
            for run in map(re.Match.group, _RUN.finditer(read))
            for piece in map(re.Match.group, _PIECE.finditer(run))
        )
    )


# What repr writes for a character it escapes: "\\u200b", "\\x1b", "\\U0001f600".
_ESCAPED = re.compile(r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})")


def unsafe_even_escaped(text: str) -> bool:
    """:func:`unsafe_to_store` of ``text``, and of it with ``repr``'s escapes read back
    (``'pass\\u200bword Heron'`` quoted in a message holds "password Heron").

    Raises:
        InvalidArgumentError: ``text`` is not a ``str``.
    """
    if unsafe_to_store(text):
        return True
    unescaped = _unescaped(text)
    return unescaped != text and unsafe_to_store(unescaped)


def _unescaped(text: str) -> str:
    return _ESCAPED.sub(lambda m: chr(int(m.group()[2:], 16)), text)


# A value quoted in a message: '…' or "…", at most 400 characters (no secret check is
# needed past what an error shows).
_QUOTED = re.compile(r"'(?:[^'\\\n]|\\.){1,400}'|\"(?:[^\"\\\n]|\\.){1,400}\"")
NOT_SHOWN = "(not shown: it looks like a secret)"


def secrets_hidden(message: str, *, paths: bool = True, said: Collection[str] = ()) -> str:
    """``message`` with each quoted value that looks like a secret replaced by a note.

    For error messages that quote what they were given (``no current fact with id
    'my PIN is 1234'``, ``user_id 'door code 5512' is not allowed``): the command
    line and the HTTP routes pass every error through it before showing it.
    With ``paths`` (the default), a value shaped like a file's path is shown as it
    is: error messages name real paths (``--root``, ``--from``, temporary folders)
    whose parts look like secrets to these rules ("pin-3.28", a timestamp); pass
    ``paths=False`` where no quoted value is a path (the keys of an import).
    ``said`` are values the caller was given as text, never as a path (a fact id,
    an agent name): a quoted value that is one of them is checked even when it is
    shaped like a path ("/sk_live_…" typed as an agent name).

    Raises:
        InvalidArgumentError: ``message`` is not a ``str``, or ``said`` neither a ``str``
            (one value) nor a collection of them.
    """
    expect_text(message, "message")
    if isinstance(said, str):
        said = (said,)
    elif not isinstance(said, Collection) or not all(isinstance(t, str) for t in said):
        wrong_type("said", "a str or a collection of str", said)
    # as typed, and as ``repr`` quotes it in a message (an error may cut it: "…"[:80])
    texts = {form for text in said for form in (text, repr(text)[1:-1])}

    def typed(quoted: str) -> bool:
        return quoted in texts or (len(quoted) >= 8 and any(t.startswith(quoted) for t in texts))

    def shown(m: re.Match[str]) -> str:
        quoted = m.group()[1:-1]
        if paths and _FILE_PATH.match(quoted) and not typed(quoted):
            return m.group()
        return NOT_SHOWN if unsafe_even_escaped(quoted) else m.group()

    return _QUOTED.sub(shown, message)


# A file system path ("/tmp/…/memory.json", "C:\\…", "./x"), not a URL or a DSN (those
# may hold credentials: "postgres://bob:s3cr3t@…").
_FILE_PATH = re.compile(r"^(?:/|~/|\.{1,2}/|[A-Za-z]:[\\/])(?!.*://)[^@\s]*$")
