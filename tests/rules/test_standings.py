"""Final standings, per game, through the app: each game played to its end over the JSON API, then the
ranked list read off the seat's page, the spectator's page and the TV page, with the numbers that decided it
and the tie-break its rulebook (shared/seeds/) uses. And the scoreboard strip while a game is running."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest

from companion_test_helpers import sit
from table_helpers import ev, local, new_table


class Rows(HTMLParser):
    """The rows of the standings (data-player-row) or of the strip (data-score-player): seat, rank and the
    row's text, in page order; and the verdict sentence."""

    def __init__(self, marker: str):
        super().__init__()
        self.marker, self.rows, self.verdict = marker, [], None
        self._depth = 0  # open elements inside the current row
        self._in_verdict = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self._depth:
            self._depth += 1
        elif self.marker in attrs:
            self.rows.append({"player": attrs[self.marker], "rank": attrs.get("data-rank"),
                              "classes": attrs.get("class", "").split(), "text": ""})
            self._depth = 1
        self._in_verdict = "data-verdict" in attrs or self._in_verdict

    def handle_endtag(self, tag):
        if self._depth:
            self._depth -= 1
        if tag == "p":
            self._in_verdict = False

    def handle_data(self, data):
        if self._depth:
            self.rows[-1]["text"] += data
        if self._in_verdict:
            self.verdict = (self.verdict or "") + data

    @classmethod
    def of(cls, html: str, marker: str = "data-player-row") -> "Rows":
        parser = cls(marker)
        parser.feed(html)
        for row in parser.rows:
            row["text"] = " ".join(row["text"].split())
        parser.verdict = " ".join((parser.verdict or "").split())
        return parser


def standings(client, table: dict) -> Rows:
    """The standings as the seat p1, a spectator and the TV page show them: the same on all three."""
    pages = [sit(client, table["code"], "p1"), local(table["watch_url"]), local(table["watch_url"]) + "/tv"]
    seen = []
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        seen.append(Rows.of(response.get_data(as_text=True)))
    assert [s.rows for s in seen[1:]] == [seen[0].rows] * 2 and {s.verdict for s in seen} == {seen[0].verdict}
    assert client.get(local(table["watch_url"]) + "?tv=1").headers["Location"] == pages[2]
    exported = client.get(f"/t/{table['code']}/export.json").get_json()["standings"]  # the export agrees
    assert [(row["player"], str(row["rank"])) for row in exported] == [(r["player"], r["rank"]) for r in seen[0].rows]
    return seen[0]


# the shuffle marker to the two-player trigger (14), then the last round's four turns
HANDFUL_TO_THE_END = [*[ev("shuffle")] * 14, *[ev("end_turn", "p1" if i % 2 == 0 else "p2") for i in range(4)]]


def test_handful_of_stars_level_on_vp_goes_to_more_systems(client):
    """Rulebook (004): "In the case of a tie the tied player who controls the most systems is the winner."
    Both keep their 36 starting VP; Bo also holds a system with military units only (11 systems to 10)."""
    table = new_table(client, "handful_of_stars", [ev("occupy", "p2", delta=1), *HANDFUL_TO_THE_END])
    board = standings(client, table)
    assert [(r["player"], r["rank"]) for r in board.rows] == [("p2", "1"), ("p1", "2")]
    assert board.rows[0]["text"] == "1st Bo wins 36 VP Systems 11"
    assert board.rows[1]["text"] == "2nd Ann 36 VP Systems 10"
    assert board.verdict == "Bo wins: level on 36 VP, ahead on systems (11)."


def test_handful_of_stars_still_level_stays_a_tie(client):
    """Rulebook (004): "If there is still a tie then it remains a tie." Both share first place."""
    table = new_table(client, "handful_of_stars", HANDFUL_TO_THE_END)
    board = standings(client, table)
    assert [r["rank"] for r in board.rows] == ["1", "1"] and all("wins" in r["text"] for r in board.rows)
    assert board.verdict == "Ann and Bo share the victory."


def stars_inc_to_the_end(p1_planets: dict, p2_planets: dict) -> list[dict]:
    """Nine rounds, then the final harvest and Done: Ann enters 6 points by hand and Bo 4; each gas planet
    pays one more point in the final harvest, each rocky planet two elements."""
    rounds = [event for _ in range(8) for event in (ev("new_round", hydrogen=2, actions=3),
                                                     ev("end_round", unharvested="skip"))]
    boards = [ev("board", pid, piece=piece, delta=n) for pid, planets in (("p1", p1_planets), ("p2", p2_planets))
              for piece, n in planets.items()]
    return [*rounds, ev("new_round", hydrogen=2, actions=3), ev("adjust", what="points", delta=6),
            ev("adjust", "p2", what="points", delta=4), *boards, ev("end_round", unharvested="skip"),
            ev("harvest", rocky_h=2 * p1_planets.get("rocky", 0)), ev("harvest", "p2", rocky_h=2 * p2_planets.get("rocky", 0)),
            ev("done"), ev("done", "p2")]


def test_stars_inc_standard_level_on_points_goes_to_more_planets(client):
    """Rulebook (002): "If there is a tie, whoever still has the most existing planets is the winner." Level on
    6 points after the final harvest, Bo's two planets beat Ann's one."""
    table = new_table(client, "stars_inc", stars_inc_to_the_end({"rocky": 1}, {"gas": 2}))
    board = standings(client, table)
    assert [(r["player"], r["rank"]) for r in board.rows] == [("p2", "1"), ("p1", "2")]
    assert board.rows[0]["text"] == "1st Bo wins 6 points Planets 2"
    assert board.rows[1]["text"] == "2nd Ann 6 points Planets 1"
    assert board.verdict == "Bo wins: level on 6 points, ahead on planets (2)."


def test_stars_inc_standard_still_level_shares_the_victory(client):
    """Rulebook (002): "If there is still a tie, tied players share the victory." 7 points and 3 planets each."""
    table = new_table(client, "stars_inc", stars_inc_to_the_end({"gas": 1, "rocky": 2}, {"gas": 3}))
    board = standings(client, table)
    assert [r["rank"] for r in board.rows] == ["1", "1"] and all("wins" in r["text"] for r in board.rows)
    assert board.rows[0]["text"] == "1st Ann wins 7 points Planets 3"
    assert board.verdict == "Ann and Bo share the victory."


def test_starship_catan_first_to_ten_wins(client):
    """Rulebook (003): "The game ends when either player has 10 Victory Points." """
    table = new_table(client, "starship_catan", [ev("vp", "p2", delta=4), ev("vp", delta=10)])
    board = standings(client, table)
    assert [(r["player"], r["rank"], r["text"]) for r in board.rows] == [("p1", "1", "1st Ann wins 10 VP"),
                                                                         ("p2", "2", "2nd Bo 4 VP")]
    assert board.verdict == "Ann wins with 10 VP."


def test_stratastar_captured_homeworld_wins_with_fewer_worlds(client):
    """Rulebook (001): "Victory goes to the first empire to have colonies on 12 worlds or that captures an
    enemy homeworld." Bo holds more worlds, but Ann takes his homeworld: Ann is first, and says why."""
    table = new_table(client, "stratastar", [
        ev("remove_unsupported"), ev("end_turn"), ev("colonise", "p2"), ev("colonise", "p2"),
        ev("remove_unsupported", "p2"), ev("end_turn", "p2"),
        *[ev("next_phase")] * 5, ev("battle_start", defender="p2"), ev("battle_side", fleets=2, attack=4),
        ev("battle_side", "p2", fleets=1, homeworld=1), ev("battle_resolve", "p2")])
    board = standings(client, table)
    assert [(r["player"], r["rank"], r["text"]) for r in board.rows] == [("p1", "1", "1st Ann wins 0 worlds"),
                                                                         ("p2", "2", "2nd Bo 2 worlds")]
    assert board.verdict == "Ann wins: captured an enemy homeworld."


@pytest.mark.parametrize("game, events, expected", [
    ("generic", [ev("add", "p2", delta=3)], [("p1", "2nd", False), ("p2", "1st", False)]),
    ("handful_of_stars", [ev("colony", "p2")], [("p1", "2nd", True), ("p2", "1st", False)]),
    ("stars_inc", [ev("adjust", "p2", what="points", delta=2)], [("p1", "2nd", True), ("p2", "1st", False)]),
    ("starship_catan", [], [("p1", "1st", False), ("p2", "1st", False)]),
    ("stratastar", [ev("remove_unsupported"), ev("end_turn")], [("p1", "1st", False), ("p2", "1st", True)]),
])
def test_strip_ranks_every_player_in_seat_order_and_marks_whose_turn(client, game, events, expected):
    table = new_table(client, game, events)
    for page in (sit(client, table["code"], "p1"), local(table["watch_url"])):
        strip = Rows.of(client.get(page).get_data(as_text=True), "data-score-player")
        assert [(r["player"], r["text"].split()[0], "turn" in r["classes"]) for r in strip.rows] == expected
