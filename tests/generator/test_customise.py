"""A user's own set: `starpnp init` copies, and overrides.yaml that changes only what it names."""
from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from starpnp_test_support import MINI
from cli_runner import run


def svgs(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.svg"))}


def build_svg(game: Path, out: Path) -> Path:
    result = run("build", game, "--out", out, "--format", "svg")
    assert result.returncode == 0, result.stderr
    (folder,) = [p for p in out.iterdir() if p.is_dir()]
    return folder


def write_overrides(folder: Path, text: str) -> Path:
    folder.mkdir()
    (folder / "overrides.yaml").write_text(f"extends: {MINI}\n" + text)
    return folder


def test_an_override_changes_only_what_it_names(tmp_path):
    user = write_overrides(tmp_path / "ours", "components:\n  deck:\n    items:\n"
                                              "      Attack: {count: 5, text: Strike twice.}\n")
    base = build_svg(MINI, tmp_path / "base-out")
    changed = build_svg(user, tmp_path / "user-out")
    before, after = svgs(base), svgs(changed)
    assert before.keys() == after.keys()
    differing = sorted(name for name in before if before[name] != after[name])
    assert differing == ["svg/deck/attack-front.svg"]
    manifest = json.loads((changed / "manifest.json").read_text())
    deck = next(c for c in manifest["components"] if c["id"] == "deck")
    assert deck["quantity"] == 6 + 2
    assert manifest["overrides"] == ["components.deck.items.Attack.count: 3 -> 5",
                                     "components.deck.items.Attack.text: 'Fight a neighbour.' -> 'Strike twice.'"]
    assert manifest["game"] == "ours"  # builds into output/ours, never over our own set


def test_the_build_report_lists_the_overrides(tmp_path):
    user = write_overrides(tmp_path / "ours", "game: {name: Our Mini}\n")
    result = run("build", user, "--out", tmp_path / "out", "--format", "svg")
    assert "1 changes from overrides.yaml:" in result.stdout
    assert "game.name: 'Mini Test Game' -> 'Our Mini'" in result.stdout


def test_the_build_report_lists_a_box_the_overrides_folder_moved(tmp_path):
    user = write_overrides(tmp_path / "ours", "game: {name: Our Mini}\n")
    (user / "layouts").mkdir()
    (user / "layouts" / "chit.yaml").write_text("extends: chit\nboxes:\n  label: {y: 4.5, h: 6}\n")
    result = run("build", user, "--out", tmp_path / "out", "--format", "svg")
    assert result.returncode == 0, result.stderr
    assert "2 changes from overrides.yaml and layouts/:" in result.stdout
    assert "    - layouts/chit.yaml: boxes.label: y 4.5, h 6\n" in result.stdout


def test_overrides_naming_what_does_not_exist_are_refused(tmp_path):
    user = write_overrides(tmp_path / "ours", "components:\n  deck:\n    items:\n      Retreat: {count: 2}\n"
                                              "  dice: {name: Dice}\n")
    result = run("check", user)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines[0] == f"{user}/overrides.yaml:5: components.deck.items.Retreat: no item named 'Retreat'; " \
                       "items: Attack, Move, Mystery"
    assert lines[1] == f"{user}/overrides.yaml:6: components.dice: no component 'dice' in mini; " \
                       "components: board, deck, fleets, mat"


def test_init_copies_a_game_that_builds_the_same_faces(tmp_path):
    result = run("init", MINI, tmp_path / "copy")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "copy" / "README.md").is_file()
    assert svgs(build_svg(MINI, tmp_path / "a")) == svgs(build_svg(tmp_path / "copy", tmp_path / "b"))
    again = run("init", MINI, tmp_path / "copy")
    assert again.returncode == 2 and "not empty" in again.stderr


def test_init_overrides_writes_a_file_that_builds(tmp_path):
    result = run("init", MINI, tmp_path / "mine", "--overrides")
    assert result.returncode == 0
    assert result.stdout == f"{tmp_path / 'mine'}: 1 file written; edit it, then run: starpnp build {tmp_path / 'mine'}\n"
    text = (tmp_path / "mine" / "overrides.yaml").read_text()
    assert text.count("\nextends: ") == 1
    assert run("check", tmp_path / "mine").returncode == 0


def test_the_readme_overrides_example_builds_and_reports_its_changes(tmp_path):
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    block = re.search(r"\n( *)```yaml\n(\1extends: stratastar\n.*?)\1```", readme, re.S)
    example = textwrap.dedent(block[2])
    folder = tmp_path / "my-stratastar"
    assert run("init", "stratastar", folder, "--overrides").returncode == 0
    (folder / "overrides.yaml").write_text(example)
    result = run("build", folder, "--out", tmp_path / "out", "--format", "svg")
    assert result.returncode == 0, result.stderr
    assert "3 changes from overrides.yaml:" in result.stdout
    assert "components.galaxy_deck.items.Attack.count: 20 -> 24" in result.stdout


def test_init_overrides_lists_our_edition_ready_for_an_owners_values(tmp_path):
    """`init --overrides` writes every value of our edition as a commented overrides block: uncommented as it
    is, it checks clean; with an owner's value written over ours, the build prints theirs and no longer
    counts that field as ours."""
    for game in ("stars_inc", "starship_catan", "handful_of_stars"):
        folder = tmp_path / game
        assert run("init", game, folder, "--overrides").returncode == 0
        text = (folder / "overrides.yaml").read_text()
        head, block = text.split("# Our edition:")
        edition = [line[1:] for line in block.splitlines() if line.startswith("#  ")]
        (folder / "overrides.yaml").write_text(head + "\n".join(edition) + "\n")
        checked = run("check", folder)
        assert checked.returncode == 0 and "0 unspecified" in checked.stdout, (game, checked.stderr[:500])
    folder = tmp_path / "stars_inc"
    text = (folder / "overrides.yaml").read_text()
    assert "Giant Molecular Cloud: {harvest: 2 H" in text
    (folder / "overrides.yaml").write_text(text.replace("Giant Molecular Cloud: {harvest: 2 H",
                                                        "Giant Molecular Cloud: {harvest: 3 H"))
    built = run("build", folder, "--out", tmp_path / "out", "--format", "svg")
    assert built.returncode == 0, built.stderr
    manifest = json.loads(next((tmp_path / "out").glob("*/manifest.json")).read_text())
    assert "environments: Giant Molecular Cloud: front.harvest" not in manifest["edition"]
    assert "environments: Superluminous Supernova: front.harvest" not in manifest["edition"]  # all replaced
    assert any("Giant Molecular Cloud.harvest" in change and "3 H" in change for change in manifest["overrides"])


@pytest.mark.parametrize("game", ["stratastar", "stars_inc"])
def test_init_overrides_stays_valid_as_each_line_is_uncommented(tmp_path, game):
    """Each commented line of the written file, uncommented with the lines it sits under, still loads."""
    from starpnp.generator.look.loader import load_game

    folder = tmp_path / game
    assert run("init", game, folder, "--overrides").returncode == 0
    lines = (folder / "overrides.yaml").read_text().splitlines()
    yaml_lines = [n for n, line in enumerate(lines) if re.match(r"#( {2,}\S|game:)", line)]
    assert len(yaml_lines) >= 4
    for n in yaml_lines:
        chosen, depth = {n}, len(lines[n]) - len(lines[n][1:].lstrip())
        for above in range(n - 1, -1, -1):  # the lines it sits under: less indented, above it
            text = lines[above][1:] if lines[above].startswith("#  ") else None
            if text is not None and len(text) - len(text.lstrip()) < depth - 1:
                chosen.add(above)
                depth = len(text) - len(text.lstrip()) + 1
        edited = [line[1:] if i in chosen else line for i, line in enumerate(lines)]
        (folder / "overrides.yaml").write_text("\n".join(edited) + "\n")
        load_game(folder)  # raises DataErrors naming the line if the uncommented file does not load
