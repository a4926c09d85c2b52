import pytest

from starpnp.companion import codes


def test_new_codes_are_8_crockford_characters_and_differ():
    made = {codes.new_code() for _ in range(2000)}
    assert len(made) == 2000
    assert all(len(c) == 8 and set(c) <= set(codes.ALPHABET) for c in made)
    assert not set("ILOU") & set(codes.ALPHABET)


def test_display_form_has_a_dash_in_the_middle():
    assert codes.display("7K2MQX4P") == "7K2M-QX4P"


@pytest.mark.parametrize("typed", ["7K2M-QX4P", "7k2m-qx4p", "7k2mqx4p", " 7K2M QX4P ", "7k2m_qx4p"])
def test_normalize_accepts_what_people_type(typed):
    assert codes.normalize(typed) == "7K2MQX4P"


def test_normalize_maps_lookalikes():
    assert codes.normalize("IL0O-ilo1") == "1100" + "1101"


@pytest.mark.parametrize("bad", ["", "7K2M-QX4", "7K2M-QX4PP", "7K2U-QX4P", "7K2M-QX4!", "<script>"])
def test_normalize_refuses_non_codes(bad):
    assert codes.normalize(bad) is None
