"""Card lists kept in a spreadsheet: `items: FILE.csv` builds what the same items in YAML build, and a bad
cell is told as `file:row: column: message`, exit 2."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from cli_runner import replace, run
from starpnp.generator.look.loader import find_game

DECK = """\
count,title,icon,text,with_option
3,Attack,attack,Fight a neighbour.,
2,Move,move,Move one fleet.,{power: {star: true}}
1,Mystery,,unspecified,
"""


def as_table(game, text: str, name: str = "deck.csv", encoding: str = "utf-8") -> None:
    (game / name).write_text(text, encoding=encoding, newline="")
    source = game / "cards.yaml"
    data = yaml.safe_load(source.read_text())
    data["components"][0]["items"] = name
    source.write_text(yaml.safe_dump(data, sort_keys=False))


def pages(folder) -> list[bytes]:
    from pypdf import PdfReader

    [pdf] = folder.glob("*/*.pdf")
    return [page.get_contents().get_data() for page in PdfReader(pdf).pages]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig"])
def test_a_csv_deck_builds_the_same_pdf_as_the_yaml_deck(game, tmp_path, encoding):
    yaml_out, csv_out = tmp_path / "yaml", tmp_path / "csv"
    assert run("build", game, "--format", "pdf", "--out", yaml_out).returncode == 0
    as_table(game, DECK, encoding=encoding)
    result = run("build", game, "--format", "pdf", "--out", tmp_path / "power", "--option", "power")
    assert result.returncode == 0, result.stderr
    assert run("build", game, "--format", "pdf", "--out", csv_out).returncode == 0
    assert pages(csv_out) == pages(yaml_out)


def test_a_tsv_and_a_semicolon_csv_read_alike(game, tmp_path):
    as_table(game, DECK.replace(",", "\t").replace("{power:\t{star:\ttrue}}", "{power: {star: true}}"), "deck.tsv")
    assert run("build", game, "--format", "pdf", "--out", tmp_path / "tsv").returncode == 0
    semicolons = DECK.replace(",", ";").replace("Fight a neighbour.", '"Fight, then rest."')
    as_table(game, semicolons)
    assert run("check", game).returncode == 0
    rows = find_game(str(game))
    from starpnp.generator.look.loader import load_game

    deck = load_game(rows).components[0]
    assert [p.count for p in deck.pieces] == [3, 2, 1]
    assert deck.pieces[0].front.params.text == "Fight, then rest."


@pytest.mark.parametrize("row, expected", [
    ("3,Attack,attack,Fight.,,extra\n", ["deck.csv:2: column 6: a value under no column name"]),
    ("three,Attack,attack,Fight.,\n", ["deck.csv:2: count:", "expected a whole number"]),
    (",,attack,Fight.,\n", ["deck.csv:2: title: required field is missing"]),
])
def test_a_bad_cell_names_file_row_and_column(game, row, expected):
    as_table(game, "count,title,icon,text,with_option\n" + row)
    result = run("check", game)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert all(text in result.stderr for text in expected), result.stderr


def test_an_unknown_column_is_one_line_about_the_header(game):
    as_table(game, "count,title,colour\n1,Attack,red\n2,Move,blue\n")
    result = run("build", game, "--format", "pdf")
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [
        f"{game / 'deck.csv'}:1: colour: unknown column; did you mean 'color'? (or keep the column's name with "
        f"`columns: {{colour: color}}` beside items:, or leave it out with `ignore: [colour]`)"]


def test_a_spreadsheet_outside_the_folder_is_refused(game):
    replace(game / "cards.yaml", "items:", "items: ../elsewhere.csv\n    old_items:")
    result = run("check", game)
    assert result.returncode == 2 and "a spreadsheet must be a file inside the game's folder" in result.stderr, result.stderr


def test_export_csv_writes_a_component_that_reads_back_the_same(game, tmp_path):
    before = tmp_path / "before"
    assert run("build", game, "--format", "pdf", "--out", before).returncode == 0
    result = run("export-csv", game, "deck", "--out", game / "deck.csv")
    assert result.returncode == 0 and "3 items written" in result.stdout, result.stderr
    as_table(game, (game / "deck.csv").read_text())
    after = tmp_path / "after"
    assert run("build", game, "--format", "pdf", "--out", after).returncode == 0
    assert pages(after) == pages(before)


def test_export_csv_of_an_unknown_component_is_one_line(game):
    result = run("export-csv", game, "nope")
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "deck" in result.stderr


def test_a_csv_round_trips_a_real_deck(tmp_path):
    """Stratastar's Galaxy deck (anchors, options, rule numbers in texts) exported and read back."""
    folder = tmp_path / "stratastar"
    shutil.copytree(find_game("stratastar"), folder)
    result = run("export-csv", folder, "galaxy_deck", "--out", folder / "galaxy.csv")
    assert result.returncode == 0, result.stderr
    as_table_in = folder / "cards.yaml"
    data = yaml.safe_load(as_table_in.read_text())
    data["components"][0]["items"] = "galaxy.csv"
    as_table_in.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    from starpnp.generator.look.loader import load_game

    def pieces(game_folder: Path) -> list[tuple]:
        """The deck's pieces as data (each folder compiles its own layouts, so those are compared by key)."""
        deck = next(c for c in load_game(game_folder, {"power_cards"}).components if c.spec.id == "galaxy_deck")
        return [(p.name, p.count, p.color, p.front.drawing.key, p.front.params.model_dump(),
                 p.back and (p.back.drawing.key, p.back.params.model_dump())) for p in deck.pieces]

    original = pieces(find_game("stratastar"))
    assert len(original) > 5 and pieces(folder) == original



SEPARATORS = ["\x85", "\u2028", "\u2029"]  # YAML's line breaks that CSV and workbooks hold as characters


@pytest.mark.parametrize("separator", SEPARATORS, ids=["NEL", "LS", "PS"])
def test_a_line_separator_in_a_csv_cell_is_kept_as_written(tmp_path, separator):
    from starpnp.generator.data.spreadsheet import read_table

    (tmp_path / "deck.csv").write_text(f"count,title,text\n1,a{separator}b,[x{separator}y]\n2,end{separator},x\n",
                                       encoding="utf-8", newline="")
    rows = read_table(tmp_path / "deck.csv")
    assert [(row["title"], row["text"]) for row in rows] == [
        (f"a{separator}b", f"[x{separator}y]"), (f"end{separator}", "x")]  # never a space, a list or cut off


@pytest.mark.parametrize("separator, name, escape", [("\x85", "U+0085 (next line)", "\\N"),
                                                     ("\u2028", "U+2028 (line separator)", "\\L"),
                                                     ("\u2029", "U+2029 (paragraph separator)", "\\P")])
def test_a_line_separator_in_a_yaml_file_is_one_line_and_its_escape_is_kept(game, separator, name, escape):
    from starpnp.generator.data.yamlio import load_yaml

    source = game / "cards.yaml"
    text = source.read_text(encoding="utf-8")
    replace(source, "name: Deck", f'name: "De{separator}ck"')  # quoted, YAML would fold it to a space
    result = run("check", game)
    assert result.returncode == 2 and result.stderr.strip() == (
        f"{source}:3: holds {name}, which YAML reads as a line break and would change; write it as {escape} "
        f"inside double quotes, or take it out"), result.stderr
    source.write_text(text.replace("name: Deck", f'name: "De{escape}ck"'), encoding="utf-8")
    assert load_yaml(source)["components"][0]["name"] == f"De{separator}ck"
