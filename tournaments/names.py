"""People's names as they are typed, made one spelling for what looks the same (no Django).

A name pasted from a chat or a spreadsheet can carry characters nobody sees: zero-width spaces
and joiners, direction marks and overrides, a byte order mark, a soft hyphen; or letters that
only look like the ones meant: a Latin "i" or "o" typed in a Cyrillic word on the wrong keyboard
layout, fullwidth or compatibility forms, three kinds of apostrophe in "Мар'яна". Two such names
look the same on every page, so they must be the same name: `person_name` is the spelling the
app stores and shows, `name_key` what it compares (case and apostrophes left aside).
"""

from __future__ import annotations

import re
import unicodedata

# The controls that turn the direction of the text around them: a name holding one shows as
# another, so `person_name` keeps them for the caller to refuse (unlike the marks with no effect
# on what shows, which it drops).
DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Format characters that show nothing and shape nothing: zero-width space, word joiner,
# invisible operators, byte order mark, soft hyphen, the direction marks, Mongolian vowel
# separator. (Zero-width joiners and non-joiners do shape Persian words and emoji: kept.)
INVISIBLE = frozenset("\u200b\u2060\u2061\u2062\u2063\u2064\ufeff\u00ad\u200e\u200f\u061c\u180e")
# Apostrophes and the marks typed for them; Ukrainian names carry one (Мар’яна, Валер’ян),
# typed in any of these ways. Compared as one; stored as typed.
_APOSTROPHES = dict.fromkeys(map(ord, "'`´ʹʻʼʽ‘’′"), "’")
# Latin letters that look like Cyrillic ones, replaced inside a word that has Cyrillic letters
# (a wrong keyboard layout); a word wholly in Latin letters is left as it is (Olena, Ivanenko).
_LATIN_LOOK_ALIKES = str.maketrans(
    "AaBCcEeHIiKMOoPpTXxYy",
    "АаВСсЕеНІіКМОоРрТХхУу",
)
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_WORD = re.compile(r"[^\s\-’]+")


def person_name(text: str) -> str:
    """The name as stored: NFKC, the characters that show nothing and mean nothing gone
    (`INVISIBLE`), runs of white space one space, Latin look-alikes in Cyrillic words made
    Cyrillic; stripped. Joiners that shape a script (Persian, emoji) stay; direction controls
    and other control characters stay too, for the caller to refuse."""
    normal = unicodedata.normalize("NFKC", text)
    kept = "".join(character for character in normal if character not in INVISIBLE)
    return _WORD.sub(_cyrillic_word, " ".join(kept.split()))


def name_key(text: str) -> str:
    """What two names are compared by: the stored spelling without case, format characters or
    the difference between apostrophes."""
    plain = "".join(c for c in person_name(text) if unicodedata.category(c) != "Cf")
    return " ".join(plain.split()).translate(_APOSTROPHES).casefold()


def _cyrillic_word(match: re.Match[str]) -> str:
    word = match.group()
    return word.translate(_LATIN_LOOK_ALIKES) if _CYRILLIC.search(word) else word
