"""The starpnp command as a user meets it: exact one-line errors, exit codes, reports, same bytes twice."""
from __future__ import annotations

import json

import pytest

from cli_runner import replace, run
from starpnp_test_support import MINI

BAD_DATA = [
    ("cards.yaml", "{count: 3, title: Attack", "{count: -3, title: Attack",
     "cards.yaml:9: components[0].items[0].count: must be ≥ 0, got -3"),
    ("cards.yaml", "{count: 3, title: Attack", "{count: lots, title: Attack",
     "cards.yaml:9: components[0].items[0].count: expected a whole number, got 'lots'"),
    ("cards.yaml", "    kind: card", "    kind: card\n    colour: red",
     "cards.yaml:5: components[0].colour: unknown field; did you mean 'colors'?"),
    ("cards.yaml", "    size: poker\n", "",
     "cards.yaml:2: components[0].size: required field is missing"),
    ("cards.yaml", "icon: attack", "icon: lightning",
     "cards.yaml:9: components[0].items[0].icon: unknown icon 'lightning'"),
    ("chits.yaml", "layout: chit, label: Fleet, icon: fleet}", "layout: wheel}",
     "chits.yaml:8: components[0].front.layout: unknown layout 'wheel'"),
    ("game.yaml", "colors: [red, blue]", "colors: [red, teal]",
     "game.yaml:4: colors: unknown colour 'teal'"),
    ("cards.yaml", "title: Attack, icon", "title: [Attack, icon",
     "cards.yaml:9: YAML syntax error"),
    ("cards.yaml", "{count: 3, title: Attack, icon", "{count: 3, icon",
     "cards.yaml:9: components[0].items[0].title: required field is missing"),
    ("cards.yaml", "front: {layout: starred_card, color: blue}", "front: {color: blue}",
     "cards.yaml:6: components[0].front.layout: required field is missing"),
]


@pytest.mark.parametrize("filename, old, new, expected", BAD_DATA, ids=[case[3].split(": ", 1)[1] for case in BAD_DATA])
def test_bad_data_gives_one_clear_line_and_status_2(game, filename, old, new, expected):
    replace(game / filename, old, new)
    result = run("check", game)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(str(game / expected.split(":")[0]))
    assert lines[0][len(str(game)) + 1:].startswith(expected), lines[0]


def test_build_refuses_bad_data_without_writing(game, tmp_path):
    replace(game / "cards.yaml", "{count: 3,", "{count: -1,")
    result = run("build", game, "--out", tmp_path / "out")
    assert result.returncode == 2 and "count" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_unknown_game_and_option_are_named(game, tmp_path):
    result = run("build", "no-such-game", "--out", tmp_path)
    assert result.returncode == 2 and result.stderr.startswith("no-such-game: no such game or folder")
    result = run("build", game, "--option", "turbo", "--out", tmp_path)
    assert result.returncode == 2 and "unknown option 'turbo'" in result.stderr


def test_build_reports_files_pieces_pages_and_unspecified_fields(game, tmp_path):
    result = run("build", game, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert "Mini Test Game: 15 pieces on 14 pages" in result.stdout
    assert "deck: Mystery: front.text" in result.stdout
    manifest = json.loads((tmp_path / "out" / "mini" / "manifest.json").read_text())
    assert manifest["unspecified"] == ["deck: Mystery: front.text"]


def test_the_report_names_write_in_pieces_by_place_and_lists_their_fields_on_one_line(game, tmp_path):
    replace(game / "cards.yaml", "{count: 1, title: Mystery, text: unspecified}",
            "{count: 1, title: unspecified, text: unspecified}")
    result = run("build", game, "--out", tmp_path / "out", "--format", "svg")
    assert result.returncode == 0, result.stderr
    assert "  2 fields the rulebook leaves unspecified" in result.stdout
    assert "    - deck: #3: front.title, front.text\n" in result.stdout  # the 3rd item: its title is a write-in
    manifest = json.loads((tmp_path / "out" / "mini" / "manifest.json").read_text())
    assert manifest["unspecified"] == ["deck: #3: front.title", "deck: #3: front.text"]
    assert (tmp_path / "out" / "mini" / "svg" / "deck" / "3-front.svg").is_file()


def test_an_option_changes_the_cards(game, tmp_path):
    plain = run("build", game, "--out", tmp_path / "plain", "--format", "svg")
    power = run("build", game, "--out", tmp_path / "power", "--format", "svg", "--option", "power")
    assert plain.returncode == power.returncode == 0
    move, attack = "deck/move-front.svg", "deck/attack-front.svg"
    assert not (tmp_path / "power/mini/svg").exists()  # the option names the folder
    plain_svg, power_svg = tmp_path / "plain/mini/svg", tmp_path / "power/mini/svg-power"
    assert (plain_svg / move).read_bytes() != (power_svg / move).read_bytes()
    assert (plain_svg / attack).read_bytes() == (power_svg / attack).read_bytes()


def test_text_that_cannot_fit_warns_and_fails_under_strict(game, tmp_path):
    replace(game / "cards.yaml", "text: Fight a neighbour.", 'text: "' + 'Fight a neighbour, then another. ' * 30 + '"')
    loose = run("build", game, "--out", tmp_path / "a", "--format", "svg")
    assert loose.returncode == 0 and "warning:" in loose.stdout and "does not fit" in loose.stdout
    strict = run("build", game, "--out", tmp_path / "b", "--format", "svg", "--strict")
    assert strict.returncode == 2 and "does not fit" in strict.stderr and "Traceback" not in strict.stderr


def test_same_input_gives_the_same_bytes(tmp_path):
    for name in ("one", "two"):
        assert run("build", MINI, "--out", tmp_path / name, "--quiet").returncode == 0
    first = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*") if p.is_file())
    second = sorted(p.relative_to(tmp_path / "two") for p in (tmp_path / "two").rglob("*") if p.is_file())
    assert first == second and len(first) > 10
    for rel in first:
        assert (tmp_path / "one" / rel).read_bytes() == (tmp_path / "two" / rel).read_bytes(), rel


def test_schema_describes_component_files():
    result = run("schema", "components")
    schema = json.loads(result.stdout)
    assert "components" in schema["properties"]
    layouts = json.loads(run("schema", "layouts").stdout)
    assert {"card", "chit", "board"} <= {s["properties"]["layout"]["const"] for s in layouts["oneOf"]}


def test_list_names_our_games_with_their_players_and_options():
    result = run("list")
    assert result.returncode == 0 and result.stderr == ""
    games = {line.split()[0]: line for line in result.stdout.splitlines() if not line.startswith(" ")}
    assert sorted(games) == ["handful_of_stars", "stars_inc", "starship_catan", "stratastar"]
    assert "Starship Catan" in games["starship_catan"] and "  2 players" in games["starship_catan"]
    assert "2-4 players  8 components, 377 pieces" in games["stratastar"]
    assert "   option power_cards: " in result.stdout


def test_missing_art_warns_with_its_piece_and_still_builds(game, tmp_path):
    replace(game / "cards.yaml", "{count: 3, title: Attack,", "{count: 3, title: Attack, art: art/nope.png,")
    result = run("build", game, "--out", tmp_path / "a", "--format", "pdf")
    assert result.returncode == 0
    assert "  warning: cards.yaml:9: deck: Attack: front: art: art/nope.png: image file not found" in result.stdout
    assert (tmp_path / "a/mini/mini-a4.pdf").is_file()
    strict = run("build", game, "--out", tmp_path / "b", "--strict")
    assert strict.returncode == 2 and "image file not found" in strict.stderr


def test_overflowing_text_names_the_piece_and_field(game, tmp_path):
    replace(game / "cards.yaml", "text: Fight a neighbour.", 'text: "' + "Fight a neighbour. " * 40 + '"')
    result = run("build", game, "--out", tmp_path / "a", "--format", "svg")
    assert "  warning: cards.yaml:9: deck: Attack: front: text: text does not fit its box even at 6 pt" in result.stdout


def test_an_unreadable_image_is_a_warning_not_a_crash(game, tmp_path):
    (game / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n not really a picture")
    replace(game / "cards.yaml", "{count: 3, title: Attack,", "{count: 3, title: Attack, art: broken.png,")
    result = run("build", game, "--out", tmp_path / "a")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "cards.yaml:9: deck: Attack: front: art: broken.png: image file is unreadable" in result.stdout


def test_small_components_of_one_kind_share_sheets(game, tmp_path):
    cards = (game / "cards.yaml").read_text()
    second_deck = cards.split("components:\n", 1)[1].replace("id: deck", "id: deck2").replace("name: Deck", "name: Deck 2")
    chits = (game / "chits.yaml").read_text()
    more_chits = chits.split("components:\n", 1)[1].split("  - id: board")[0].replace("id: fleets", "id: fleets2")
    (game / "cards.yaml").write_text(cards + second_deck)
    (game / "chits.yaml").write_text(chits.replace("  - id: board", more_chits + "  - id: board"))
    assert run("build", game, "--out", tmp_path, "--format", "pdf").returncode == 0
    pages = {c["id"]: set(c["pages"]) for c in json.loads((tmp_path / "mini/manifest.json").read_text())["components"]}
    assert pages["deck"] & pages["deck2"]  # 6 + 6 cards, 9 to a sheet: the second deck fills the first's sheet
    assert pages["fleets"] == pages["fleets2"]  # 12 counters of one size share one punchboard sheet


def printed_words(pdf) -> str:
    return " ".join(word["text"] for page in pdf.pages for word in page.extract_words())


def test_our_edition_prints_by_default_and_write_ins_print_blanks(game, tmp_path):
    """A value the rulebook leaves out is written `{ours: VALUE}`: printed as our edition, listed in the report
    and manifest, and a write-in area with --write-ins (a file of its own, so neither clobbers the other)."""
    import pdfplumber

    replace(game / "cards.yaml", "{count: 1, title: Mystery, text: unspecified}",
            "{count: 1, title: Mystery, text: {ours: Swap two chits.}}")
    out = tmp_path / "out"
    ours = run("build", game, "--out", out, "--format", "pdf")
    assert ours.returncode == 0, ours.stderr
    assert "1 values are our edition's" in ours.stdout and "deck: Mystery: front.text" in ours.stdout
    manifest = json.loads((out / "mini" / "manifest.json").read_text())
    assert manifest["edition"] == ["deck: Mystery: front.text"] and manifest["unspecified"] == []
    with pdfplumber.open(out / "mini" / "mini-a4.pdf") as pdf:
        assert "Swap two chits." in printed_words(pdf)

    blank = run("build", game, "--out", out, "--format", "pdf", "--write-ins")
    assert blank.returncode == 0, blank.stderr
    manifest = json.loads((out / "mini" / "manifest.json").read_text())
    assert manifest["unspecified"] == ["deck: Mystery: front.text"] and manifest["write_ins"] is True
    with pdfplumber.open(out / "mini" / "mini-a4-write-ins.pdf") as pdf:
        assert "Swap" not in printed_words(pdf)
    assert (out / "mini" / "mini-a4.pdf").exists()


def test_builds_of_one_game_never_overwrite_each_other(tmp_path):
    """Every option that changes the pages (paper, margin, duplex, crop marks, game options, --write-ins, bleed,
    --ink low) names its own PDF, the defaults keep the short name, and manifest.json keeps a true entry for
    every PDF in the folder, the one-face-per-page file included."""
    from pypdf import PdfReader

    out = tmp_path / "out"
    builds = {(): "mini-a4", ("--paper", "letter"): "mini-letter", ("--option", "power"): "mini-a4-power",
              ("--write-ins",): "mini-a4-write-ins", ("--ink", "low"): "mini-a4-ink-low",
              ("--bleed", "0"): "mini-a4-bleed-0mm", ("--margin", "10"): "mini-a4-margin-10mm",
              ("--duplex", "short"): "mini-a4-duplex-short", ("--duplex", "off"): "mini-a4-duplex-off",
              ("--no-crop-marks",): "mini-a4-no-crop-marks",
              ("--paper", "letter", "--bleed", "2", "--margin", "8", "--duplex", "short", "--no-crop-marks",
               "--ink", "low"): "mini-letter-margin-8mm-duplex-short-no-crop-marks-bleed-2mm-ink-low"}
    for extra, name in builds.items():
        result = run("build", MINI, "--out", out, "--format", "pdf", *extra)
        assert result.returncode == 0, result.stderr
        assert f"{name}.pdf" in [p.name for p in (out / "mini").glob("*.pdf")], extra
    assert run("build", MINI, "--out", out, "--format", "pdf-single").returncode == 0
    names = {f"{name}.pdf" for name in builds.values()} | {"mini-faces.pdf"}
    assert {p.name for p in (out / "mini").glob("*.pdf")} == names  # one file per option set
    manifest = json.loads((out / "mini" / "manifest.json").read_text())
    assert manifest["file"] == "mini-faces.pdf"  # the newest build
    variants = manifest["variants"]
    assert {entry["file"] for entry in variants.values()} == names
    assert variants["mini-faces"]["layout"] == "one face per page" and variants["mini-a4"]["layout"] == "sheets"
    assert variants["mini-letter"]["paper"] == "letter" and variants["mini-a4"]["paper"] == "a4"
    assert variants["mini-a4-power"]["options"] == ["power"] and variants["mini-a4"]["options"] == []
    assert variants["mini-a4-duplex-off"]["duplex"] == "off" and variants["mini-a4-bleed-0mm"]["bleed_mm"] == 0
    for name, entry in variants.items():  # each entry tells the truth about its own file
        assert len(PdfReader(out / "mini" / entry["file"]).pages) == entry["pages"], name


def test_check_draws_every_face_and_warns_with_file_and_line(game):
    """Missing art, text that cannot fit and an unknown {placeholder}: warnings a build would give, found by
    check without building; --strict makes them errors."""
    replace(game / "cards.yaml", "{count: 3, title: Attack, icon: attack, text: Fight a neighbour.}",
            "{count: 3, title: Attack, icon: attack, art: art/nope.png, text: 'Fight for 2 {enrgy} now.'}")
    replace(game / "cards.yaml", "text: Move one fleet.", "text: " + "Move one fleet. " * 60)
    result = run("check", game)
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[:2] + lines[3:] == [
        f"{game}: ok (4 components, 15 pieces, 1 unspecified, 5 warnings)",
        "  warning: cards.yaml:9: deck: Attack: front: art: art/nope.png: image file not found",
        "  warning: cards.yaml:13: deck: Move: front: text: text does not fit its box even at 6 pt",
        # the text that does not fit spills over the art window and its frame
        '  warning: Deck: Move, front: "one fleet. Move one fleet. Move one flee…" runs into a box at (5.0, 15.6) mm '
        "(full and low ink)",
        '  warning: Deck: Move, front: "one fleet. Move one fleet. Move one flee…" runs into a box at (3.0, 13.6) mm '
        "(full and low ink)",
    ]
    assert lines[2].startswith("  warning: cards.yaml:9: deck: Attack: front: text: {enrgy} is neither an icon nor "
                               "a rule number, printed as written")  # and the nearest icons' names
    strict = run("check", "--strict", game)
    assert strict.returncode == 2 and len(strict.stderr.strip().splitlines()) == 5


def test_check_says_which_icon_file_is_not_svg(game):
    (game / "icons").mkdir()
    (game / "icons" / "torn.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg">\n<g>\n')
    (game / "icons" / "page.svg").write_text("<html><body/></html>")
    (game / "icons" / "fine.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle r="4"/></svg>')
    result = run("check", game)  # an icon file that cannot be drawn is an error naming it (see test_icons)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "icons/page.svg" in result.stderr and "icons/torn.svg" in result.stderr
    assert "fine.svg" not in result.stderr


def test_paper_names_are_case_insensitive(tmp_path):
    result = run("build", MINI, "--out", tmp_path, "--format", "pdf", "--paper", "A4")
    assert result.returncode == 0, result.stderr
    result = run("build", MINI, "--out", tmp_path, "--format", "pdf", "--paper", "Letter")
    assert result.returncode == 0, result.stderr
    assert {p.name for p in (tmp_path / "mini").glob("*.pdf")} == {"mini-a4.pdf", "mini-letter.pdf"}
    refused = run("build", MINI, "--out", tmp_path, "--paper", "B5")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr and "--paper" in refused.stderr
