"""A key added to a flow mapping (`- {count: 20}`, `title: {size: 14}`: how the scaffold writes items and
layout boxes) goes inside its braces, every other character kept; a plain value stays plain."""
from __future__ import annotations

from starpnp.generator.studio.yamltext import set_value


def test_a_key_added_to_a_flow_mapping_goes_inside_its_braces():
    text = "items:\n  - {count: 20}   # coins\nboxes:\n  title: {size: 14, font: {name: Lato}}\n"
    added = set_value(text, ("items", 0, "label"), "Gold", "counters.yaml")
    assert added == "items:\n  - {count: 20, label: Gold}   # coins\nboxes:\n  title: {size: 14, font: {name: Lato}}\n"
    moved = set_value(added, ("boxes", "title", "x"), 4.5, "layouts/card.yaml")
    assert moved == ("items:\n  - {count: 20, label: Gold}   # coins\nboxes:\n"
                     "  title: {size: 14, font: {name: Lato}, x: 4.5}\n")


def test_a_plain_value_changed_stays_plain():
    text = "items:\n  - {count: 1, title: Harbour Master General}\n"
    assert set_value(text, ("items", 0, "title"), "Harbour Master", "promo.yaml") == \
        "items:\n  - {count: 1, title: Harbour Master}\n"
