""" "Did you mean": names close to a club player's name, in Cyrillic and in Latin letters."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tournaments.names import close_names, name_key, name_similarity, name_skeleton, names_close

CLOSE = [
    ("Ірина Бондарь", "Ірина Бондар"),  # the soft sign typed
    ("Ирина Бондар", "Ірина Бондар"),  # Russian и for Ukrainian і
    ("Iryna Bondar", "Ірина Бондар"),  # typed in Latin letters
    ("Irina Bondar", "Ірина Бондар"),
    ("Бондар Ірина", "Ірина Бондар"),  # surname first
    ("Мар'яна Ткачук", "Марʼяна Ткачук "),  # apostrophes and spaces differ but more: see below
    ("Тарас Шевчук", "Тарас Шевчик"),  # one letter wrong
    ("Анна Мельник", "Ана Мельник"),  # a doubled letter
    ("Olena Shevchenko", "Olena Shevchenco"),
    ("Andrii Melnyk", "Andriy Melnik"),
    ("Богдан Кравець", "Богдан Кравец"),
]
NOT_CLOSE = [
    ("Іван Петренко", "Олена Коваль"),
    ("Олег Ткач", "Олег Ткаченко"),
    ("Іван Петренко", "Іван Петрович"),
    ("Ян", "Юн"),  # too short to guess
    ("Olena Koval", "Oleh Koval"),
]


@pytest.mark.parametrize(
    ("typed", "known"), [pair for pair in CLOSE if name_key(pair[0]) != name_key(pair[1])]
)
def test_a_misspelled_name_is_close_to_the_club_players(typed, known):
    assert names_close(typed, known)
    assert names_close(known, typed)
    assert 0.8 <= name_similarity(typed, known) < 1


@pytest.mark.parametrize(("first", "second"), NOT_CLOSE)
def test_different_people_are_not_close(first, second):
    assert not names_close(first, second)


def test_one_name_is_not_close_but_the_same():
    # Names with one key are one name (the registration finds the player): nothing to ask.
    assert not names_close("Мар'яна Ткачук", "марʼяна  ткачук")
    assert name_similarity("Мар'яна Ткачук", "марʼяна  ткачук") == 1.0


def test_close_names_ranks_the_most_alike_first_and_leaves_out_the_rest():
    club = ["Олена Коваль", "Ірина Бондаренко", "Ірина Бондар", "Ірина Бонда"]
    assert [club[i] for i in close_names("Ірина Бондарь", club)] == ["Ірина Бондар", "Ірина Бонда"]
    assert close_names("Ірина Бондарь", club, limit=1) == [2]
    assert close_names("Зоряна Лис", club) == []


names = st.text(
    alphabet=st.sampled_from(
        "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя'ABCDEFGHIJKLMNOPRSTUVYZ -abcdeiknorsty"
    ),
    max_size=30,
)


@given(names, names)
def test_similarity_is_symmetric_and_between_0_and_1(first, second):
    similarity = name_similarity(first, second)
    assert 0 <= similarity <= 1
    assert similarity == name_similarity(second, first)
    assert names_close(first, second) == names_close(second, first)


@given(
    st.one_of(
        st.text(alphabet="абвгґдеєжзиіїйклмнопрстуфхцчшщьюя' -"),
        st.text(alphabet="abcdeiknorsty -"),
    )
)
def test_a_name_is_wholly_like_itself_in_any_case(name):
    assert name_similarity(name, name.upper()) == 1.0
    assert not names_close(name, name.upper())


@given(st.text(alphabet="абвгдеклмнопрсту", min_size=8, max_size=20), st.data())
def test_one_letter_more_in_a_long_name_stays_close(name, data):
    where = data.draw(st.integers(min_value=0, max_value=len(name)))
    letter = data.draw(st.sampled_from("бвгдклмнпрст"))
    longer = name[:where] + letter + name[where:]
    # Doubled letters count once ("Анна", "Ана"): the property is about names without them.
    assume(all(a != b for a, b in zip(name, name[1:], strict=False)))
    assume(len(name_skeleton(name)) >= 8)
    assert name_key(longer) == name_key(name) or names_close(longer, name)


@given(
    st.text(alphabet="abc ", max_size=10),
    st.text(alphabet="abc ", max_size=10),
    st.integers(min_value=0, max_value=3),
)
def test_the_quick_bounded_comparison_agrees_with_the_full_edit_distance(first, second, limit):
    from tournaments.names import _edit_distance, _edits_within

    assert _edits_within(first, second, limit) == (_edit_distance(first, second) <= limit)
