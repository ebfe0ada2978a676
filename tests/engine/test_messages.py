"""Messages of the pure modules: English text that carries what a page needs to translate it."""

import copy
import pickle

import pytest

from rules.messages import Message, _, message_of, ngettext, pgettext


def test_a_message_is_the_english_text():
    message = Message(_("the bid must be at least %(lowest)s, not %(bid)s"), lowest=40, bid=35)
    assert message == "the bid must be at least 40, not 35"
    assert isinstance(message, str)
    assert message.startswith("the bid") and "40" in message
    assert f"row 1: {message}" == "row 1: the bid must be at least 40, not 35"
    assert message.template == "the bid must be at least %(lowest)s, not %(bid)s"
    assert dict(message.params) == {"lowest": 40, "bid": 35}
    assert message.plural is None and message.count is None and message.context is None


def test_a_message_is_immutable():
    message = Message("seat %(seat)s", seat=1)
    with pytest.raises(AttributeError):
        message.template = "other"
    with pytest.raises(AttributeError):
        del message.params
    with pytest.raises(TypeError):
        message.params["seat"] = 2


def test_a_message_survives_pickling_and_copying():
    inner = pgettext("score sheet field", "bid")
    message = Message("'%(field)s' is missing", field=inner)
    for copied in (pickle.loads(pickle.dumps(message)), copy.deepcopy(message)):
        assert copied == message
        assert copied.template == message.template
        assert copied.params["field"].context == "score sheet field"
    counted = ngettext("%(count)s deal", "%(count)s deals", 3)
    restored = pickle.loads(pickle.dumps(counted))
    assert (restored, restored.plural, restored.count) == ("3 deals", "%(count)s deals", 3)


def test_a_count_chooses_the_english_form_and_is_a_parameter():
    assert ngettext("%(count)s deal", "%(count)s deals", 1) == "1 deal"
    assert ngettext("%(count)s deal", "%(count)s deals", 4) == "4 deals"
    assert ngettext("%(count)s deal", "%(count)s deals", 0).params["count"] == 0


def test_the_message_of_an_error_is_its_first_argument():
    message = Message("a player is listed twice")
    assert message_of(ValueError(message)) is message
    assert message_of(ValueError("plain text")) is None
    assert message_of(ValueError()) is None
