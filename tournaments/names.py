"""People's names as they are typed, made one spelling for what looks the same (no Django).

A name pasted from a chat or a spreadsheet can carry characters nobody sees: zero-width spaces
and joiners, direction marks and overrides, a byte order mark, a soft hyphen; or letters that
only look like the ones meant: a Latin "i" or "o" typed in a Cyrillic word on the wrong keyboard
layout, fullwidth or compatibility forms, three kinds of apostrophe in "Мар'яна". Two such names
look the same on every page, so they must be the same name: `person_name` is the spelling the
app stores and shows, `name_key` what it compares (case and apostrophes left aside).
"""

from __future__ import annotations

import functools
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


# ----------------------------------------------------------------------------- close names
# "Did you mean": a director typing a new name close to a club player's is asked whether it is
# that player. Names are compared by a skeleton that leaves out what people misspell most: the
# soft sign and apostrophes ("Бондарь", "Мар'яна"), doubled letters ("Анна", "Ana"), the
# Ukrainian and Russian spellings of one sound (і, и, ы; е, є, э; г, ґ) and the script (a name
# typed in Latin letters, "Iryna Bondar"); then by edits (Levenshtein) in any word order.
# Latin spellings of one sound leveled first, while the Latin letters are still the typed ones
# (so that Cyrillic "кг" never reads as "kh"); then Cyrillic letters become the same Latin ones.
_LATIN_SOUNDS = (
    ("shch", "šč"), ("kh", "h"), ("ch", "č"), ("sh", "š"), ("zh", "ž"), ("ts", "c"),
    ("y", "i"), ("j", "i"), ("w", "v"), ("x", "ks"), ("q", "k"),
)  # fmt: skip
_CYRILLIC_SOUNDS = str.maketrans(
    {
        "а": "a", "б": "b", "в": "v", "г": "h", "ґ": "g", "д": "d", "е": "e", "є": "e",
        "ё": "e", "э": "e", "ж": "ž", "з": "z", "и": "i", "і": "i", "ї": "i", "ы": "i",
        "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r",
        "с": "s", "т": "t", "у": "u", "ф": "f", "х": "h", "ц": "c", "ч": "č", "ш": "š",
        "щ": "šč", "ь": "", "ъ": "", "ю": "iu", "я": "ia", "’": "", "-": " ",
    }
)  # fmt: skip
# How many edits still make two skeletons one name, by the shorter skeleton's length: none
# below 4 letters ("Ян", "Іра" are too short to guess about), then one, two from 12 letters on.
_CLOSE_EDITS = ((12, 2), (4, 1))


@functools.lru_cache(maxsize=4096)
def name_skeleton(text: str) -> str:
    """What is left of a name once the usual misspellings are leveled (see above): lower-case
    Latin letters, digits and single spaces."""
    key = name_key(text)
    for spelling, sound in _LATIN_SOUNDS:
        key = key.replace(spelling, sound)
    plain = unicodedata.normalize("NFKD", key.translate(_CYRILLIC_SOUNDS))
    kept = "".join(c if c.isalnum() else " " for c in plain if not unicodedata.combining(c))
    single: list[str] = []
    for character in kept:
        if not single or character != single[-1] or not character.isalpha():
            single.append(character)
    return " ".join("".join(single).split())


def _edit_distance(first: str, second: str) -> int:
    """Levenshtein's distance: the fewest insertions, deletions and substitutions."""
    if len(first) < len(second):
        first, second = second, first
    previous = list(range(len(second) + 1))
    for row, a in enumerate(first, start=1):
        current = [row]
        for column, b in enumerate(second, start=1):
            current.append(
                min(previous[column] + 1, current[column - 1] + 1, previous[column - 1] + (a != b))
            )
        previous = current
    return previous[-1]


def _skeleton_distance(first: str, second: str) -> int:
    """Edits between two skeletons, the words in either order ("Бондар Ірина")."""
    direct = _edit_distance(first, second)
    if direct == 0:
        return 0
    return min(
        direct, _edit_distance(" ".join(sorted(first.split())), " ".join(sorted(second.split())))
    )


def name_similarity(first: str, second: str) -> float:
    """How alike two names are, from 0 (nothing alike) to 1 (one name, `name_key`); symmetric.

    Two spellings of one skeleton score just below 1, so that an exact name still ranks first.
    """
    if name_key(first) == name_key(second):
        return 1.0
    a, b = name_skeleton(first), name_skeleton(second)
    longest = max(len(a), len(b))
    if longest == 0:
        return 0.0
    return 0.99 * (1 - _skeleton_distance(a, b) / longest)


def names_close(first: str, second: str) -> bool:
    """Whether two names that are not one name (`name_key`) may be one person misspelled."""
    a, b = name_skeleton(first), name_skeleton(second)
    shorter = min(len(a), len(b))
    allowed = next((edits for length, edits in _CLOSE_EDITS if shorter >= length), 0)
    if abs(len(a) - len(b)) > allowed:
        return False
    within = _edits_within(a, b, allowed) or _edits_within(
        _sorted_words(a), _sorted_words(b), allowed
    )
    return within and _cached_key(first) != _cached_key(second)


def _sorted_words(skeleton: str) -> str:
    return " ".join(sorted(skeleton.split()))


def _edits_within(first: str, second: str, limit: int) -> bool:
    """Whether Levenshtein's distance is at most `limit`: only the band of `limit` cells either
    side of the diagonal is computed, and it stops once a whole row is over the limit (the club's
    list is compared with every name typed, so this is the hot loop)."""
    if abs(len(first) - len(second)) > limit:
        return False
    over = limit + 1
    previous = [column if column <= limit else over for column in range(len(second) + 1)]
    for row in range(1, len(first) + 1):
        low, high = max(1, row - limit), min(len(second), row + limit)
        current = [over] * (len(second) + 1)
        current[0] = row if row <= limit else over
        a = first[row - 1]
        for column in range(low, high + 1):
            current[column] = min(
                previous[column] + 1,
                current[column - 1] + 1,
                previous[column - 1] + (a != second[column - 1]),
                over,
            )
        if min(current[low - 1 : high + 1]) > limit:
            return False
        previous = current
    return previous[-1] <= limit


@functools.lru_cache(maxsize=4096)
def _cached_key(text: str) -> str:
    return name_key(text)


def close_names(name: str, candidates: list[str], *, limit: int = 5) -> list[int]:
    """The indexes of the candidates close to `name` (`names_close`), most alike first."""
    close = [index for index, other in enumerate(candidates) if names_close(name, other)]
    close.sort(key=lambda index: (-name_similarity(name, candidates[index]), index))
    return close[:limit]
