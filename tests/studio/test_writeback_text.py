"""Setting one value in a person's CSV or YAML text (generator/studio/csvcell.py, yamltext.py): any text a
person may type reads back as typed, and nothing outside the value's own characters changes."""
from __future__ import annotations

import yaml
from hypothesis import given, settings, strategies as st

from starpnp.generator.data.spreadsheet import cell_value, read_table
from starpnp.generator.studio.csvcell import set_cell
from starpnp.generator.studio.yamltext import set_value

TYPED = st.text(st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from(list(",;\"'#:{}[]-\t\n")),
                max_size=30).map(str.strip).filter(lambda text: "\t" not in text and "\r" not in text)
FAST = settings(max_examples=150, derandomize=True, deadline=None)

CSV = '\ufeffcount;title;text\r\n3;"Trade";Swap a coin.\r\n2;Build;"Pay 3; place a marker."\r\n1;Calm\r\n'


@FAST
@given(TYPED, st.sampled_from([(2, 1), (3, 2), (4, 2)]))
def test_any_typed_text_reads_back_from_its_cell_and_the_other_rows_keep_their_bytes(tmp_path_factory, value, cell):
    line, column = cell
    changed = set_cell(CSV, line, column, value, ";", "cards.csv")
    path = tmp_path_factory.mktemp("csv") / "cards.csv"
    path.write_bytes(changed.encode())
    rows = read_table(path)
    row = rows[line - 2]
    field = ("count", "title", "text")[column]
    assert (row[field] == cell_value(value)) if value else field not in row  # as the loader reads a cell
    before, after = CSV.split("\r\n"), changed.split("\r\n")
    assert [r for i, r in enumerate(before) if i != line - 1 and "\n" not in value] == \
        [r for i, r in enumerate(after) if i != line - 1 and "\n" not in value]
    assert changed.startswith("\ufeffcount;title;text\r\n") and changed.endswith("\r\n")


YAML = """# A hand-written file.
components:
  - id: deck          # the deck
    front: {layout: card, color: "#37474F"}
    items:
      - name: Storm
        title: 'Storm at sea'

        text: "Lose a turn."
      - {name: Calm, title: Calm}
"""


@FAST
@given(TYPED, st.sampled_from([("components", 0, "items", 0, "title"), ("components", 0, "items", 0, "text"),
                               ("components", 0, "items", 1, "title"), ("components", 0, "items", 1, "cost"),
                               ("components", 0, "items", 0, "cost"), ("components", 0, "front", "color")]))
def test_any_typed_text_reads_back_from_its_yaml_value_and_the_rest_keeps_its_bytes(value, path):
    changed = set_value(YAML, path, value, "cards.yaml")
    data = yaml.safe_load(changed)
    node = data
    for key in path:
        node = node[key]
    assert node == value
    expected = yaml.safe_load(YAML)
    parent = expected
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    assert data == expected
    kept = [line for line in YAML.splitlines() if not any(f"{key}:" in line for key in ("title", "text", "color"))
            and "Calm" not in line]
    assert all(line in changed.splitlines() for line in kept)  # comments and the blank line included


def test_a_key_added_after_a_block_text_or_to_a_windows_file_stays_in_its_own_item():
    literal = "items:\n  - name: A\n    text: |\n      line one\n      line two\n  - name: B\n"
    assert set_value(literal, ("items", 0, "cost"), 2, "cards.yaml") == literal.replace(
        "line two\n", "line two\n    cost: 2\n")
    windows = "items:\r\n  - name: A\r\n    title: X\r\n"
    assert set_value(windows, ("items", 0, "cost"), 2, "cards.yaml") == windows + "    cost: 2\r\n"
    assert set_value("extends: card", ("boxes", "title", "x"), 4, "card.yaml") == \
        "extends: card\nboxes:\n  title: {x: 4}\n"
