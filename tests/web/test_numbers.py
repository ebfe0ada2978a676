"""The one formatter of figures: rounded half-up as people round, "—" or an empty cell for none."""

from decimal import Decimal

from django.template import Context, Template
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from web.presenters.numbers import decimals, number_text, plain_number, rounded

FIGURES = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False) | st.integers(-(10**6), 10**6)


def test_halves_round_up_as_written_not_to_even_nor_cut_off():
    assert [plain_number(value) for value in (5 / 3, 0.125, 2.675, 1.005, 2.5, 7)] == [
        "1.67",
        "0.13",
        "2.68",
        "1.01",
        "2.5",
        "7",
    ]
    assert plain_number(-0.125) == "-0.13"
    assert plain_number(-0.001) == "0"  # never "-0"
    assert plain_number(5 / 3, decimal_mark=",") == "1,67"


def test_a_figure_that_does_not_exist_is_a_dash_on_a_page_and_empty_in_a_file():
    assert number_text(None) == "—"
    assert plain_number(None) == ""


def test_page_numbers_follow_the_language():
    with translation.override("uk"):
        assert number_text(5 / 3) == "1,67"
        assert number_text(1.5, pad=True) == "1,50"
    with translation.override("en"):
        assert number_text(5 / 3, pad=True) == "1.67"
        assert number_text(3.0) == "3"


@given(FIGURES)
def test_a_rounded_figure_is_within_half_a_hundredth_with_at_most_two_decimals(value):
    text = plain_number(value)

    assert abs(Decimal(text) - Decimal(repr(value) if isinstance(value, float) else value)) <= (
        Decimal("0.005")
    )
    assert len(text.partition(".")[2]) <= 2
    assert not text.endswith(".") and not (("." in text) and text.endswith("0"))


@given(st.lists(FIGURES | st.none(), max_size=8))
def test_a_column_has_the_decimals_its_figures_need_and_no_more_than_two(values):
    places = decimals(values, 2)

    assert 0 <= places <= 2
    for value in values:
        if value is not None:
            assert rounded(value, places) == rounded(value, 2)


def test_the_pages_that_print_a_tables_points_use_the_same_rounding():
    # A tie on a scheme with quarters gives eighths: 1.125 points each.
    template = Template(
        "{% load figures %}{{ shared|figure }} {{ whole|figure }} {{ none|figure }}"
    )

    with translation.override("en"):
        assert template.render(Context({"shared": 1.125, "whole": 3, "none": None})) == "1.13 3 —"
