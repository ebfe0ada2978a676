"""Names that look the same are the same name: invisible characters, direction overrides, look-alike
letters and apostrophes never make two players of one person."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.names import INVISIBLE, name_key, person_name

HIDDEN = ["\u200b", "\u2060", "\ufeff", "\u00ad", "\u200e", "\u200f"]
OVERRIDES = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068"]


@pytest.mark.parametrize("hidden", HIDDEN)
def test_characters_that_show_nothing_are_dropped(hidden):
    assert person_name(f"Ірина{hidden} Бонд{hidden}ар") == "Ірина Бондар"


@pytest.mark.parametrize("control", OVERRIDES)
def test_direction_controls_stay_for_the_caller_to_refuse_but_never_tell_names_apart(control):
    # They change what shows (the caller refuses the name), and no key depends on them.
    assert control in person_name(f"Ірина {control}Бондар")
    assert name_key(f"Ірина {control}Бондар") == name_key("Ірина Бондар")


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("  Ірина \t\n Бондар  ", "Ірина Бондар"),
        ("Мар'яна Кос", "Мар'яна Кос"),  # apostrophes are stored as typed
        ("Zoë O'Brien", "Zoë O'Brien"),
        ("می\u200cخواهم", "می\u200cخواهم"),  # a joiner that shapes Persian stays
        ("Iрина Бондар", "Ірина Бондар"),  # a Latin I typed in a Cyrillic word
        ("Олена Kоваль", "Олена Коваль"),  # a Latin K
        ("Ｏｌｅｎａ", "Olena"),  # fullwidth letters
        ("Olena Ivanenko", "Olena Ivanenko"),  # Latin words stay Latin
        ("Olena Іваненко", "Olena Іваненко"),
        ("Анна-Марія", "Анна-Марія"),
    ],
)
def test_a_name_is_stored_in_one_spelling(typed, stored):
    assert person_name(typed) == stored


def test_names_differing_in_case_or_apostrophe_only_share_a_key():
    assert name_key("ІРИНА бондар") == name_key("Ірина Бондар")
    assert name_key("Мар'яна Кос") == name_key("Марʼяна Кос") == name_key("Мар’яна Кос")
    assert name_key("Ірина Бондар") != name_key("Ірина Бондарь")


@given(st.text(max_size=40))
def test_the_stored_spelling_is_stable_and_shows_nothing_invisible(text):
    stored = person_name(text)

    assert person_name(stored) == stored
    assert stored == stored.strip()
    assert "  " not in stored
    assert not any(c in INVISIBLE for c in stored)


@given(
    st.text(max_size=30),
    st.sampled_from(HIDDEN + OVERRIDES + ["\u200c", "\u200d"]),
    st.integers(0, 30),
)
def test_an_invisible_character_anywhere_changes_no_key(text, hidden, where):
    where = min(where, len(text))
    assert name_key(text[:where] + hidden + text[where:]) == name_key(text)
