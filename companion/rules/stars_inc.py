"""Stars, Inc.: element tanks, fusion conversions, action costs with blocks, harvests, rounds and the end.

Each player's H/He/C/Fe tanks, points, stars by life stage and planets are tracked from events; the module
prices every action, refuses what a player cannot pay, previews each harvest and runs the round structure of
the standard (nine environments) and advanced (target score) games. Our edition's environment cards are known
by name: their hydrogen, actions and the effects a phone can compute. Numbers come from the Stars, Inc.
rulebook v4.2; our readings are in docs/rules/stars_inc.md.
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...generator.look.loader import our_game
from .base import (SEALED, EventType, Fields, GameRules, RuleError, Seat, State, Whole, final, printable, scoreboard,
                   still_at)

def amounts(text: str) -> dict[str, int]:
    """A cost or yield as the boards print it ("2 H + 2 C + 2 Fe", "1 pt", "free") as {tank or "points": n}."""
    if text == "free":
        return {}
    parts = (part.split() for part in text.split("+"))
    return {("points" if unit == "pt" else unit): int(n) for n, unit in parts}


GAME = our_game("stars_inc")  # the numbers below are in components/stars_inc/game.yaml, printed on the boards
TANKS = ("H", "He", "C", "Fe")
START_TANKS = dict(GAME.number("start_tanks"))
PRINTED_MAXIMA = dict(GAME.number("tank_maxima"))  # ours (see game.yaml); a table can enter others
PAWNS_TO_PLAY = GAME.number("pawns_to_play")  # five pawns: one marks the score, four become stars
PLANET_RINGS = GAME.number("planet_rings")  # rings of each colour in the box: one colour per kind of planet
PAWN_HYDROGEN = amounts(GAME.number("pawn_hydrogen"))["H"]
STANDARD_ROUNDS = GAME.number("standard_rounds")
ENV_HYDROGEN = tuple(GAME.number("environment_hydrogen"))
_PRODUCTS = {"h_to_he": "He", "he_to_c": "C", "c_to_point": "points"}
CONVERSIONS = {name: (*next(iter(amounts(give).items())), _PRODUCTS[name])
               for name, give in GAME.number("conversions").items()}  # name -> (tank, units, product)
STAGES = ("blue_giant", "hypergiant", "sunlike", "red_giant", "white_dwarf", "red_dwarf")
NEW_STARS = {star: amounts(cost)["H"] for star, cost in GAME.number("star_costs").items()}  # a new star starts its track
EVOLVES_TO = {"blue_giant": "hypergiant", "hypergiant": "supernova", "sunlike": "red_giant",
              "red_giant": "white_dwarf"}
MAIN_SEQUENCE = ("blue_giant", "sunlike")
HARVEST = {stage: amounts(text) for stage, text in GAME.number("yields").items()}
PLANETS = {planet: amounts(cost) for planet, cost in GAME.number("planet_costs").items()}
ROCKY_CHOICES = GAME.number("rocky_choices")
MOVE_OTHER_COST = amounts(GAME.number("move_other_star"))
MERGES = {merge: amounts(cost) for merge, cost in GAME.number("merge_costs").items()}
SUPERNOVA_IRON = amounts(GAME.number("supernova"))["Fe"]
BLOCK_IRON = amounts(GAME.number("block"))["Fe"]
WHITE_DWARF_POINTS = GAME.number("white_dwarf_arrival")
TYPE_1A_IRON = amounts(GAME.number("type_1a"))["Fe"]
POINT_SOURCES = ("harvest", "diamonds", "white_dwarfs", "by_hand")
ACTIONS = {**{f"make_{s}": {"H": h} for s, h in NEW_STARS.items()},
           **{f"make_{p}_planet": cost for p, cost in PLANETS.items()},
           "move_own_star": {}, "move_other_star": MOVE_OTHER_COST,
           **{f"merge_{m}": cost for m, cost in MERGES.items()}}


# ---- our edition's environment cards (components/stars_inc/environments.yaml prints the same numbers) -----

EDITIONS = ("ours", "own")  # our printed environment cards, or a table's own (the publisher's, --write-ins)
ENVIRONMENTS = {card: {"name": card.replace("_", " ").title(), "hydrogen": amounts(harvest)["H"],
                       "actions": GAME.number(f"environment_actions.{card}")}
                for card, harvest in GAME.number("environment_harvest").items()}  # our cards, as printed
ENVIRONMENT_COPIES = GAME.number("environment_copies")  # the advanced deck: every card this many times
HARVEST_GIFTS = {card: amounts(gift) for card, gift in GAME.number("environment_gifts").items()}
RESERVE_BONUS = {card: amounts(bonus)["H"] for card, bonus in GAME.number("reserve_bonus").items()}
_DISCOUNTS = {card: amounts(off) for card, off in GAME.number("environment_discounts").items()}


def _less(cost: dict, discount: dict) -> dict:
    """A price with a discount taken off, never below nothing (a part that drops to 0 is no longer paid)."""
    return {t: n - discount.get(t, 0) for t, n in cost.items() if n > discount.get(t, 0)}


ROUND_PRICES = {  # what our environment cards change in ACTIONS' prices for their round
    "overdensity": {f"merge_{m}": _less(cost, _DISCOUNTS["overdensity"]) for m, cost in MERGES.items()},
    "stroemgren_sphere": {"make_blue_giant": _less(ACTIONS["make_blue_giant"], _DISCOUNTS["stroemgren_sphere"])},
    "tidal_stream": {"move_other_star": {}},  # "A MOVE of another player's star costs no He"
}
NO_MOVES = "time_stasis"  # "No one may take a MOVE action"
TWO_SPACE_MOVES = "time_vortex"  # "Each MOVE takes the star two spaces on": it may pass two stages


def _cost_text(cost: dict) -> str:
    return " + ".join(f"{n} {t}" for t, n in cost.items()) or "nothing"


EFFECTS = {  # each card's effect in a few words for the phone (the card prints it in full)
    "giant_molecular_cloud": f"each pawn in reserve gives {RESERVE_BONUS['giant_molecular_cloud']} H more at harvest",
    **{card: f"everyone gains {_cost_text(gift)} more at harvest" for card, gift in HARVEST_GIFTS.items()},
    "overdensity": f"every MERGE costs {_cost_text(_DISCOUNTS['overdensity'])} less",
    "stroemgren_sphere": f"a blue giant costs {_cost_text(_DISCOUNTS['stroemgren_sphere'])} less",
    NO_MOVES: "no MOVE actions",
    TWO_SPACE_MOVES: "each MOVE goes two spaces (just one if the second is full or off the track)",
    "overcrowding": "a space is full at N − 1 stars (red dwarfs unlimited); stars already there stay",
    "tidal_stream": "moving another player's star costs no He",
}


# ---- event payloads ----------------------------------------------------------------------------------------

class Setup(Fields):
    mode: Literal["standard", "advanced"] = Field(None, description="standard or advanced (default: as now)")
    target_score: Whole = Field(None, ge=1, le=999, description="advanced game: points that end it")
    max_h: Whole = Field(None, ge=0, le=99, description="the H tank's printed maximum")
    max_he: Whole = Field(None, ge=0, le=99, description="the He tank's printed maximum")
    max_c: Whole = Field(None, ge=0, le=99, description="the C tank's printed maximum")
    max_fe: Whole = Field(None, ge=0, le=99, description="the Fe tank's printed maximum")
    edition: Literal[*EDITIONS] = Field(None, description="ours: our printed environment cards; own: other cards, "
                                                          "typed (default: as now)")


class NewRound(Fields):
    round: Whole = Field(None, ge=0, description="rounds begun when the button was shown; refused once past")
    environment: str = Field("", max_length=200, description="the card's name; one of ours (edition ours) fills "
                                                             "in hydrogen and actions and applies its effect")
    hydrogen: Whole = Field(None, ge=ENV_HYDROGEN[0], le=ENV_HYDROGEN[1],
                            description="hydrogen every player gathers (required unless one of our cards is named)")
    actions: Whole = Field(None, ge=1, le=9, description="actions per player (required unless one of our cards is named)")


class EndRound(Fields):
    round: Whole = Field(None, ge=0, description="the round the button was shown in; refused once past")
    unharvested: Literal["ask", "skip"] = Field(
        "ask", description="skip: end the round although someone has not harvested (their harvest is lost)")


class Harvest(Fields):
    round: Whole = Field(None, ge=0, description="the harvest the button was shown for (derived harvest_round: the "
                                                 "round, one more for the final harvest); refused once past")
    rocky_h: Whole = Field(0, ge=0, le=99, description="H chosen from your rocky planets")
    rocky_he: Whole = Field(0, ge=0, le=99, description="He chosen from your rocky planets")
    rocky_c: Whole = Field(0, ge=0, le=99, description="C chosen from your rocky planets")
    rocky_fe: Whole = Field(0, ge=0, le=99, description="Fe chosen from your rocky planets")


class Convert(Fields):
    conversion: Literal[*CONVERSIONS] = Field(description="h_to_he, he_to_c or c_to_point")
    times: Whole = Field(1, ge=1, le=50, description="how many")


class MakeStar(Fields):
    star: Literal[*NEW_STARS] = Field(description="blue_giant, sunlike or red_dwarf")


class MakePlanet(Fields):
    planet: Literal[*PLANETS] = Field(description="rocky or gas")


class MoveStar(Fields):
    star: Literal[*STAGES] = Field(description="its stage now")
    evolves: Literal["no", "yes", "twice"] = Field(
        "no", description="yes if the move reaches the next stage; twice if it passes two (Time Vortex)")
    owner: Seat = Field(None, description="whose star (default you)")
    rocky_lost: Whole = Field(None, ge=0, le=99, description="rocky planets around this star, when it leaves the "
                                                             "main sequence and its owner has other stars")
    gas_lost: Whole = Field(None, ge=0, le=99, description="gas planets around this star, when it leaves the "
                                                           "main sequence and its owner has other stars")


class Merge(Fields):
    merge: Literal[*MERGES] = Field(description="own, opponent or white_dwarfs")
    target: Seat = Field(None, description="the opponent (merge opponent)")
    first: Seat = Field(None, description="owner of one white dwarf (merge white_dwarfs)")
    second: Seat = Field(None, description="owner of the other (merge white_dwarfs)")


class BlockVote(Fields):
    spend: Literal["yes", "no"] = Field(description="yes: I spend 1 Fe to block; no: I do not (sealed until both "
                                                    "owners have voted)")


class Board(Fields):
    piece: Literal[*STAGES, "rocky", "gas"] = Field(description="a star stage, rocky or gas")
    delta: Whole = Field(ge=-PAWNS_TO_PLAY, le=PAWNS_TO_PLAY, description="pieces to add (negative: take away)")
    owner: Seat = Field(None, description="whose piece (default you)")


class Adjust(Fields):
    what: Literal[*TANKS, "points"] = Field(description="H, He, C, Fe or points")
    delta: Whole = Field(ge=-99, le=99, description="amount to add (negative: take away)")


def _cap_option(options: dict, tank: str) -> int | None:
    name = f"max_{tank.lower()}"
    value = options.get(name, PRINTED_MAXIMA[tank])
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 99:
        raise RuleError(f"options.{name}", "expected the printed tank maximum, 1 to 99 (0 = not entered)")
    if value and value < START_TANKS[tank]:
        raise RuleError(f"options.{name}", f"the tank starts at {START_TANKS[tank]}, so its maximum cannot be lower")
    return value or None


def initial_state(players: list[dict], options: dict) -> State:
    mode = options.get("mode", "standard")
    if mode not in ("standard", "advanced"):
        raise RuleError("options.mode", "expected standard or advanced")
    target = options.get("target_score", 30)
    if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 999:
        raise RuleError("options.target_score", "expected a whole number of points, 1 to 999")
    edition = options.get("edition", "ours")
    if edition not in EDITIONS:
        raise RuleError("options.edition", "expected ours (our printed environment cards) or own (other cards, "
                                           "their values typed)")
    ids = [p["id"] for p in players]
    return {"players": players, "mode": mode, "target_score": target, "edition": edition, "played": [],
            "caps": {t: _cap_option(options, t) for t in TANKS},
            "tanks": {pid: dict(START_TANKS) for pid in ids}, "points": dict.fromkeys(ids, 0),
            "point_sources": {pid: dict.fromkeys(POINT_SOURCES, 0) for pid in ids},
            "stars": {pid: dict.fromkeys(STAGES, 0) for pid in ids},
            "planets": {pid: {"rocky": 0, "gas": 0} for pid in ids},
            "round": 0, "in_round": False, "environment": None, "status": "playing",
            "harvested": [], "finished": [], "pending": None, "shared": False, "blocked": []}


# ---- pure arithmetic -------------------------------------------------------------------------------------

def stars_on_board(stars: dict) -> int:
    return sum(stars.values())


def harvest_preview(state: State, pid: str) -> dict:
    """What one player's harvest brings: environment hydrogen, 1 H per unplayed pawn, each star by its stage,
    each gas planet 1 point, and two elements of the player's choice per rocky planet; our environment card
    may add to it (the final harvest is under the last card, as its hydrogen is)."""
    stars, planets, env = state["stars"][pid], state["planets"][pid], state["environment"] or {}
    card = env.get("card")
    reserve = PAWNS_TO_PLAY - stars_on_board(stars)
    gain = {"H": env.get("hydrogen", 0) + (PAWN_HYDROGEN + RESERVE_BONUS.get(card, 0)) * reserve,
            "He": 0, "C": 0, "Fe": 0, "points": planets["gas"]}
    for what, amount in HARVEST_GIFTS.get(card, {}).items():
        gain[what] += amount
    for stage, count in stars.items():
        for what, amount in HARVEST[stage].items():
            gain[what] += amount * count
    return {**gain, "rocky_choices": ROCKY_CHOICES * planets["rocky"]}


def card_in_play(state: State) -> str | None:
    """Our environment card whose action effects hold now: the one flipped for the round in play."""
    return (state["environment"] or {}).get("card") if state["in_round"] else None


def round_prices(state: State) -> dict:
    """Every action's price now: as the boards print it, or as the environment card in play changes it."""
    return {**ACTIONS, **ROUND_PRICES.get(card_in_play(state), {})}


def environments_left(state: State) -> dict[str, int]:
    """Our cards still in the deck, with how many copies: the standard deck holds one of each, the advanced
    all copies, reshuffled when it runs out. Typed rounds (other cards) take none of ours."""
    played = state["played"]
    if state["mode"] == "standard":
        copies, drawn = 1, played
    else:
        copies, deck = ENVIRONMENT_COPIES, ENVIRONMENT_COPIES * len(ENVIRONMENTS)
        drawn = played[len(played) // deck * deck:]
    return {card: copies - drawn.count(card) for card in ENVIRONMENTS if drawn.count(card) < copies}


def can_pay(tanks: dict, cost: dict) -> bool:
    return all(tanks[t] >= n for t, n in cost.items())


def standings(state: State) -> list[str]:
    """Player ids, best first: points, then (standard game) the most planets still in play."""
    def key(pid):
        planets = sum(state["planets"][pid].values()) if state["mode"] == "standard" else 0
        return (state["points"][pid], planets)
    return sorted((p["id"] for p in state["players"]), key=key, reverse=True)


def leaders(state: State) -> list[str]:
    order = standings(state)
    top = order[0]
    same = (lambda pid: state["points"][pid] == state["points"][top] and
            (state["mode"] == "advanced" or sum(state["planets"][pid].values()) == sum(state["planets"][top].values())))
    return [pid for pid in order if same(pid)]


# ---- state changes ---------------------------------------------------------------------------------------

def _copy(state: State) -> State:
    return {**state, "tanks": {k: dict(v) for k, v in state["tanks"].items()}, "points": dict(state["points"]),
            "point_sources": {k: dict(v) for k, v in state["point_sources"].items()},
            "stars": {k: dict(v) for k, v in state["stars"].items()},
            "planets": {k: dict(v) for k, v in state["planets"].items()}, "harvested": list(state["harvested"])}


def _gain(state: State, pid: str, what: str, amount: int, source: str = "") -> None:
    """Add to a tank up to its maximum (anything above the printed maximum is lost) or to points, which
    also keep where they came from."""
    if what == "points":
        state["points"][pid] += amount
        state["point_sources"][pid][source] += amount
        return
    cap = state["caps"][what]
    state["tanks"][pid][what] = min(cap, state["tanks"][pid][what] + amount) if cap else state["tanks"][pid][what] + amount


def _pay(state: State, pid: str, cost: dict, field: str) -> None:
    tanks = state["tanks"][pid]
    short = [f"{n - tanks[t]} {t}" for t, n in cost.items() if tanks[t] < n]
    if short:
        raise RuleError(field, f"short of {', '.join(short)} (costs {_cost_text(cost)})")
    for t, n in cost.items():
        tanks[t] -= n


def _convert(state: State, pid: str, fields: Convert) -> None:
    name, times = fields.conversion, fields.times
    source, rate, product = CONVERSIONS[name]
    if state["tanks"][pid][source] < rate * times:
        raise RuleError("conversion", f"needs {rate * times} {source}, you have {state['tanks'][pid][source]}")
    cap = state["caps"].get(product)
    if cap and state["tanks"][pid][product] + times > cap:
        raise RuleError("conversion", f"your {product} tank holds at most {cap}")
    state["tanks"][pid][source] -= rate * times
    _gain(state, pid, product, times, "diamonds")


def _make_star(state: State, pid: str, fields: MakeStar) -> None:
    if stars_on_board(state["stars"][pid]) >= PAWNS_TO_PLAY:
        raise RuleError("star", f"all {PAWNS_TO_PLAY} of your pawns are already stars")
    _pay(state, pid, round_prices(state)[f"make_{fields.star}"], "star")
    state["stars"][pid][fields.star] += 1


def _rings_left(state: State, planet: str, field: str, adding: int = 1) -> None:
    """Rulebook p. 2, Components List: the box holds 25 planet rings of each colour, and each kind of planet
    is one colour (ours: orange rocky, black gas). No more planets of a kind than its rings."""
    on_board = sum(planets[planet] for planets in state["planets"].values())
    if on_board + adding > PLANET_RINGS:
        raise RuleError(field, f"all {PLANET_RINGS} {planet} planet rings in the box are on the board "
                               f"({on_board} now)")


def _make_planet(state: State, pid: str, fields: MakePlanet) -> None:
    planet = fields.planet
    if not stars_on_board(state["stars"][pid]):
        raise RuleError("planet", "a planet needs one of your stars on the board to orbit")
    _rings_left(state, planet, "planet")
    _pay(state, pid, PLANETS[planet], "planet")
    state["planets"][pid][planet] += 1


def _lose_planets(state: State, owner: str, fields: MoveStar) -> None:
    """Rulebook p. 4, MOVE: a star that leaves the main sequence loses every planet around it. The phone
    counts planets per player, not per star: when the owner has no other star every planet is around this
    one and all go; otherwise the player says how many of each are around it (no guess, no default)."""
    planets = state["planets"][owner]
    if not _planets_unplaced(state, owner):
        planets.update(rocky=0, gas=0)
        return
    for kind in ("rocky", "gas"):
        lost = getattr(fields, f"{kind}_lost")
        if lost is None and not planets[kind]:
            continue
        if lost is None:
            raise RuleError(f"{kind}_lost", f"the star leaves the main sequence and loses its planets: how many "
                                            f"of the owner's {planets['rocky']} rocky and {planets['gas']} gas "
                                            f"planets are around it?")
        if lost > planets[kind]:
            raise RuleError(f"{kind}_lost", f"that player has only {planets[kind]} {kind} planets")
        planets[kind] -= lost


def _planets_unplaced(state: State, pid: str) -> bool:
    """Whether a star of this player leaving the main sequence must be told which planets are around it:
    the player has planets and more than one star they could be around."""
    return bool(sum(state["planets"][pid].values())) and stars_on_board(state["stars"][pid]) > 1


def _blocked(state: State, pid: str, attempt: list, field: str) -> None:
    """Rulebook p. 5, Blocking (and the FAQ): a blocked action cannot be tried again that turn: not the same
    star's MOVE, not the same two stars' MERGE. Each player has one turn a round, so until the next round."""
    if {"actor": pid, "attempt": attempt} in state.get("blocked", []):
        raise RuleError(field, "this action was blocked this turn; it cannot be tried again until the next round")


def _stages_passed(state: State, star: str, evolves: str) -> list[str]:
    """The stages a MOVE takes a star through: none, the next, or (Time Vortex's two spaces) the next two."""
    if star == "white_dwarf":
        raise RuleError("evolves", "a white dwarf does not evolve further")
    if evolves == "twice" and card_in_play(state) != TWO_SPACE_MOVES:
        raise RuleError("evolves", f"a MOVE passes two stages only under {ENVIRONMENTS[TWO_SPACE_MOVES]['name']}")
    path = [star]
    for _ in range({"no": 0, "yes": 1, "twice": 2}[evolves]):
        if path[-1] not in EVOLVES_TO:
            raise RuleError("evolves", f"a {path[-1].replace('_', ' ')} does not evolve further")
        path.append(EVOLVES_TO[path[-1]])
    return path[1:]


def _move(state: State, pid: str, fields: MoveStar) -> dict | None:
    if card_in_play(state) == NO_MOVES:
        raise RuleError("star", f"{ENVIRONMENTS[NO_MOVES]['name']}: no one may take a MOVE action this round")
    owner, star = fields.owner or pid, fields.star
    if not state["stars"][owner][star]:
        raise RuleError("star", f"no {star.replace('_', ' ')} of that player is on the board")
    passed = _stages_passed(state, star, fields.evolves)
    attempt = ["move", owner, star]  # the star as the phone knows it: its owner and its stage
    _blocked(state, pid, attempt, "star")
    cost = round_prices(state)["move_other_star"] if owner != pid else {}
    _pay(state, pid, cost, "owner")
    if passed:
        if star in MAIN_SEQUENCE:
            _lose_planets(state, owner, fields)
        state["stars"][owner][star] -= 1
        result = passed[-1]
        if result == "supernova":
            _gain(state, owner, "Fe", SUPERNOVA_IRON)
        else:
            state["stars"][owner][result] += 1
        if result == "white_dwarf":
            _gain(state, owner, "points", WHITE_DWARF_POINTS, "white_dwarfs")
    return {"action": "move_other_star", "targets": [owner], "paid": cost, "attempt": attempt} if owner != pid else None


def _required(value: str | None, name: str) -> str:
    if value is None:
        raise RuleError(name, "required field is missing")
    return value


def _merge(state: State, pid: str, fields: Merge) -> dict | None:
    merge = fields.merge
    cost = round_prices(state)[f"merge_{merge}"]
    if merge == "own":
        if stars_on_board(state["stars"][pid]) < 2:
            raise RuleError("merge", "you need two of your stars on the board to merge")
        _pay(state, pid, cost, "merge")
        return None
    if merge == "opponent":
        target = _required(fields.target, "target")
        if target == pid:
            raise RuleError("target", "for your own two stars choose the merge 'own'")
        if stars_on_board(state["stars"][target]) < 2:
            raise RuleError("target", "that player has fewer than two stars on the board")
        _blocked(state, pid, ["merge_opponent", target], "target")
        _pay(state, pid, cost, "merge")
        return {"action": "merge_opponent", "targets": [target], "paid": cost, "attempt": ["merge_opponent", target]}
    first, second = _required(fields.first, "first"), _required(fields.second, "second")
    for owner, field in ((first, "first"), (second, "second")):
        if state["stars"][owner]["white_dwarf"] < (first, second).count(owner):
            raise RuleError(field, "that player lacks the white dwarfs for this merger")
    attempt = ["merge_white_dwarfs", *sorted((first, second))]
    _blocked(state, pid, attempt, "first")
    _pay(state, pid, cost, "merge")
    for owner in (first, second):  # a Type 1a supernova: both dwarfs go, each pays its owner in iron
        state["stars"][owner]["white_dwarf"] -= 1
        _gain(state, owner, "Fe", TYPE_1A_IRON)
    targets = sorted({first, second} - {pid})
    return {"action": "merge_white_dwarfs", "targets": targets, "paid": cost, "attempt": attempt} if targets else None


TRACKED = ("tanks", "points", "point_sources", "stars", "planets")


def _difference(after: State, before: State) -> dict:
    """What an action changed in the players' numbers, as {part: {pid: {field: change}}} (points: {pid: n})."""
    change: dict = {}
    for part in TRACKED:
        for pid, value in after[part].items():
            if isinstance(value, dict):
                moved = {k: n - before[part][pid][k] for k, n in value.items() if n != before[part][pid][k]}
            else:
                moved = value - before[part][pid]
            if moved:
                change.setdefault(part, {})[pid] = moved
    return change


def _take_back(state: State, change: dict) -> None:
    for part, by_player in change.items():
        for pid, moved in by_player.items():
            if isinstance(moved, dict):
                for key, n in moved.items():
                    state[part][pid][key] -= n
            else:
                state[part][pid] -= moved


def _below_zero(state: State) -> bool:
    return any(n < 0 for part in TRACKED for by_player in state[part].values()
               for n in (by_player.values() if isinstance(by_player, dict) else [by_player]))


def _voting(pending: dict | None) -> bool:
    """Rulebook p. 5, Blocking: a merger of two white dwarfs of two other players is blocked by their vote,
    "simultaneously ... thumbs up they are spending an iron or thumbs down"."""
    return bool(pending) and pending["action"] == "merge_white_dwarfs" and len(pending["targets"]) == 2


def _block(state: State, pid: str, fields: Fields) -> State:
    pending = state["pending"]
    if not pending or pid not in pending["targets"] or pid in pending["blocked_by"]:
        raise RuleError("player", "nothing you are the target of can be blocked right now")
    if _voting(pending):
        raise RuleError("type", "both white dwarfs' owners vote in secret (block_vote: spend yes or no); the votes "
                                "are shown when both are in")
    if pending["blocked_by"] and pending["action"] != "merge_white_dwarfs":
        raise RuleError("player", "that action is already blocked")
    state = _copy(state)
    if not pending["blocked_by"]:  # the action is undone (what it changed, nothing else), less what the actor
        _take_back(state, pending["change"])  # keeps paid: half the cost, rounded down, comes back
        for tank, n in pending["paid"].items():
            state["tanks"][pending["actor"]][tank] -= n - n // 2
        if _below_zero(state):
            raise RuleError("player", "what that action gave has been spent since, so it can no longer be undone")
    # Rulebook p. 5, Blocking: the blocked action is wasted, so the iron it gave (a supernova's, a Type 1a's)
    # is gone before the block is paid: the target pays from what it had without that action.
    if state["tanks"][pid]["Fe"] < BLOCK_IRON:
        raise RuleError("player", f"a block costs {BLOCK_IRON} Fe; without what the blocked action gave you, "
                                  f"you have {state['tanks'][pid]['Fe']}")
    state["tanks"][pid]["Fe"] -= BLOCK_IRON
    blocked = [*state.get("blocked", []), {"actor": pending["actor"], "attempt": pending.get("attempt")}]
    return {**state, "pending": {**pending, "blocked_by": [*pending["blocked_by"], pid]}, "blocked": blocked}


def _block_vote(state: State, pid: str, fields: BlockVote) -> State:
    """One owner's sealed vote on a merger of their two white dwarfs; when both are in, the votes are shown:
    a merger anyone spends iron on is blocked (each who voted yes pays 1 Fe, 2 Fe if both did), else it stands."""
    pending = state["pending"]
    if not _voting(pending) or pid not in pending["targets"]:
        raise RuleError("player", "there is no white dwarf merger of yours to vote on")
    votes = pending.get("votes", {})
    if pid in votes:
        raise RuleError("player", "your vote is sealed; both are shown once the other owner has voted")
    if fields.spend == "yes":
        undone = _copy(state)
        _take_back(undone, pending["change"])
        if undone["tanks"][pid]["Fe"] < BLOCK_IRON:  # the Type 1a's own iron does not pay for its block
            raise RuleError("spend", f"a block costs {BLOCK_IRON} Fe; without what the merger gave you, you have "
                                     f"{undone['tanks'][pid]['Fe']}")
    votes = {**votes, pid: fields.spend}
    if len(votes) < len(pending["targets"]):
        return {**state, "pending": {**pending, "votes": votes}}
    spenders = [owner for owner in pending["targets"] if votes[owner] == "yes"]
    if not spenders:  # the merger stands; the votes stay shown until the actor's next action
        return {**state, "pending": {**pending, "votes": votes}}
    state = _copy(state)
    _take_back(state, pending["change"])
    if _below_zero(state):
        raise RuleError("spend", "what the merger gave has been spent since, so it can no longer be undone")
    for tank, n in pending["paid"].items():
        state["tanks"][pending["actor"]][tank] -= n - n // 2
    for owner in spenders:
        state["tanks"][owner]["Fe"] -= BLOCK_IRON
    blocked = [*state.get("blocked", []), {"actor": pending["actor"], "attempt": pending.get("attempt")}]
    return {**state, "pending": {**pending, "votes": votes, "blocked_by": spenders}, "blocked": blocked}


def sealing(state: State) -> str | None:
    """The white dwarf block vote: sealed while an owner has still to vote, shown once both have."""
    pending = state["pending"]
    if not _voting(pending) or not pending.get("votes"):
        return None
    return "revealed" if len(pending["votes"]) == len(pending["targets"]) else "open"


def conceal(state: State, viewer: str | None) -> State:
    """The state as `viewer` reads it: before both owners have voted, a vote is its owner's alone."""
    if sealing(state) != "open":
        return state
    pending = state["pending"]
    votes = {pid: vote if pid == viewer else SEALED for pid, vote in pending["votes"].items()}
    return {**state, "pending": {**pending, "votes": votes}}


def _board(state: State, pid: str, fields: Board) -> None:
    owner, piece, delta = fields.owner or pid, fields.piece, fields.delta
    group = state["planets"][owner] if piece in ("rocky", "gas") else state["stars"][owner]
    if piece in ("rocky", "gas") and delta > 0:
        _rings_left(state, piece, "delta", delta)
    if group[piece] + delta < 0:
        raise RuleError("delta", f"that player has only {group[piece]} {piece.replace('_', ' ')}")
    group[piece] += delta
    if stars_on_board(state["stars"][owner]) > PAWNS_TO_PLAY:
        raise RuleError("delta", f"a player has only {PAWNS_TO_PLAY} pawns to be stars")


def _adjust(state: State, pid: str, fields: Adjust) -> None:
    what, delta = fields.what, fields.delta
    have = state["points"][pid] if what == "points" else state["tanks"][pid][what]
    if have + delta < 0:
        raise RuleError("delta", f"you have only {have} {what}")
    _gain(state, pid, what, delta, "by_hand")


def harvest_round(state: State) -> int:
    """Which harvest is on: the round's, or (one more) the final harvest after the last round."""
    return state["round"] + (state["status"] == "final_harvest")


def _harvest(state: State, pid: str, fields: Harvest) -> None:
    """Rulebook p. 3, The round: "Once the round begins, the harvest phase is first. Players simultaneously
    gather elements": one harvest each, a round. The tap carries the harvest it was made for."""
    still_at("round", fields.round, harvest_round(state), f"harvest {harvest_round(state)}")
    if not (state["in_round"] or state["status"] == "final_harvest"):
        raise RuleError("type", "harvest happens once a round has begun (flip an environment first)")
    if pid in state["harvested"]:
        raise RuleError("type", "you have already harvested this round")
    preview = harvest_preview(state, pid)
    chosen = {t: getattr(fields, f"rocky_{t.lower()}") for t in TANKS}
    if sum(chosen.values()) != preview["rocky_choices"]:
        raise RuleError("rocky_h", f"your rocky planets give exactly {preview['rocky_choices']} elements of "
                                   f"your choice; you chose {sum(chosen.values())}")
    for what in (*TANKS, "points"):
        _gain(state, pid, what, preview[what] + chosen.get(what, 0), "harvest")
    state["harvested"].append(pid)


def _finish(state: State, pid: str, fields: Fields) -> State:
    """After the final harvest a player converts what they like, then taps Done; the game ends (and the
    winner is named) only when everyone is done, so nobody's last conversions are cut off."""
    if state["status"] != "final_harvest":
        raise RuleError("type", "Done is for the end of the game, after the final harvest")
    if pid not in state["harvested"]:
        raise RuleError("type", "take your final harvest (and convert) before you are done")
    finished = state.get("finished", [])
    if pid in finished:
        raise RuleError("type", "you are already done; waiting for the others")
    state = {**state, "finished": [*finished, pid], "pending": None}
    return _end_check(state) if len(state["finished"]) == len(state["players"]) else state


def _end_check(state: State) -> State:
    """After the deciding harvest or tie round: over, or (advanced game) one more round to break a tie."""
    if state["mode"] == "advanced" and len(leaders(state)) > 1:
        return {**state, "status": "tie_round", "tie_rounds": state.get("tie_rounds", 0) + 1}
    return {**state, "status": "over"}


def _new_round(state: State, fields: NewRound) -> State:
    still_at("round", fields.round, state["round"], f"round {state['round']} has begun")
    if state["in_round"] or state["status"] not in ("playing", "tie_round"):
        raise RuleError("type", "finish the current round (or the game has ended)")
    if state["mode"] == "standard" and state["round"] >= STANDARD_ROUNDS:
        raise RuleError("type", f"the standard game has only {STANDARD_ROUNDS} environment cards")
    env = _flipped(state, fields)
    played = [*state["played"], env["card"]] if env["card"] else state["played"]
    return {**state, "round": state["round"] + 1, "in_round": True, "environment": env, "played": played,
            "harvested": [], "blocked": []}


def _flipped(state: State, fields: NewRound) -> dict:
    """The round's environment: one of our cards by name (its hydrogen and actions, and its effects apply),
    or typed values for a card of another edition (or a --write-ins card), whose effects stay at the table."""
    name = printable(fields.environment)[:40]
    if not name or state["edition"] == "own":
        for field in ("hydrogen", "actions"):
            if getattr(fields, field) is None:
                raise RuleError(field, "required field is missing" + (
                    "; or name one of our environment cards" if state["edition"] == "ours" else ""))
        return {"hydrogen": fields.hydrogen, "actions": fields.actions, "name": name, "card": None}
    card = "_".join(name.lower().split())
    if card not in ENVIRONMENTS:
        raise RuleError("environment", f"{name!r} is not one of our environment cards "
                                       f"({', '.join(e['name'] for e in ENVIRONMENTS.values())}); for other "
                                       f"cards, leave the name out or set the table's edition to own")
    env = ENVIRONMENTS[card]
    left = environments_left(state)
    if card not in left:
        raise RuleError("environment", f"{env['name']} has been played already; still in the deck: "
                                       f"{', '.join(ENVIRONMENTS[c]['name'] for c in left)}")
    for field in ("hydrogen", "actions"):
        typed = getattr(fields, field)
        if typed is not None and typed != env[field]:
            raise RuleError(field, f"{env['name']} gives {env[field]} {field}, not {typed}")
    return {"hydrogen": env["hydrogen"], "actions": env["actions"], "name": env["name"], "card": card}


def _end_round(state: State, fields: EndRound) -> State:
    in_play = state["round"] if state["in_round"] else -1  # an ended round is past, whatever its number
    still_at("round", fields.round, in_play, f"round {state['round']} is {'in play' if state['in_round'] else 'over'}")
    if not state["in_round"]:
        raise RuleError("type", "no round is in play")
    waiting = [p["name"] for p in state["players"] if p["id"] not in state["harvested"]]
    if waiting and fields.unharvested == "ask":
        raise RuleError("unharvested", f"{', '.join(waiting)} {'has' if len(waiting) == 1 else 'have'} not "
                                       f"harvested this round; end it anyway only if they skip their harvest")
    state = {**state, "in_round": False, "harvested": []}
    reached = max(state["points"].values()) >= state["target_score"]
    last = (state["status"] == "tie_round" or
            (state["round"] >= STANDARD_ROUNDS if state["mode"] == "standard" else reached))
    # Rulebook p. 6, End of Game: the final round, a tie round too, is followed by a final single harvest
    # and the last conversions; only then are the points compared.
    return {**state, "status": "final_harvest", "finished": []} if last else state


def _share_victory(state: State, fields: Fields) -> State:
    if state["mode"] != "advanced" or state["status"] != "tie_round":
        raise RuleError("type", "sharing the victory is agreed only on a tie in the advanced game")
    return {**state, "status": "over", "shared": True}


def _setup(state: State, fields: Setup) -> State:
    """Table options chosen at the table (the create form may not offer them): only before round 1."""
    if state["round"]:
        raise RuleError("type", "the game is set up before the first environment is flipped")
    options = {"mode": fields.mode or state["mode"], "edition": fields.edition or state["edition"],
               "target_score": state["target_score"] if fields.target_score is None else fields.target_score}
    for tank in TANKS:
        name = f"max_{tank.lower()}"
        chosen = getattr(fields, name)
        options[name] = state["caps"][tank] or 0 if chosen is None else chosen
        fullest = max(tanks[tank] for tanks in state["tanks"].values())
        if options[name] and fullest > options[name]:
            raise RuleError(name, f"a player already holds {fullest} {tank}")
    try:
        fresh = initial_state(state["players"], options)
    except RuleError as error:
        raise RuleError(error.field.removeprefix("options."), error.message) from None
    return {**state, "mode": fresh["mode"], "target_score": fresh["target_score"], "caps": fresh["caps"],
            "edition": fresh["edition"]}


def _ended(state: State) -> str | None:
    """How the game ended, once it is over (the end is final: see `final`)."""
    if state["status"] != "over":
        return None
    names = {p["id"]: p["name"] for p in state["players"]}
    won = leaders(state)
    points = state["points"][won[0]]
    if len(won) > 1:
        return f"{' and '.join(names[pid] for pid in won)} share the victory with {points} points"
    return f"{names[won[0]]} won with {points} points"


def _for_the_table(change):
    """A handler for a change to the whole table (set-up, rounds): it closes any block window."""
    def handler(state: State, pid: str, fields: Fields) -> State:
        return {**change(state, fields), "pending": None}
    return handler


def _by_a_player(change, *, final: bool = False):
    """A handler for a player's own action, made on a copy of the state. `change` returns what a target
    may block ({action, targets, paid}) or None; that opens the block window for the next tap. Only a
    `final` action (harvest, convert, a correction) is open during the final harvest."""
    def handler(state: State, pid: str, fields: Fields) -> State:
        if state["status"] == "final_harvest" and not final:
            raise RuleError("type", "the game is ending: only the final harvest and conversions remain")
        new = _copy(state)
        pending = change(new, pid, fields)
        if pending:
            pending = {**pending, "actor": pid, "blocked_by": [], "change": _difference(new, state)}
        elif state["pending"] and state["pending"]["actor"] != pid:
            # A block window belongs to the action it answers: someone else's conversion does not close it;
            # the actor's own next action (or a new round) does. A block undoes only that action's changes.
            pending = state["pending"]
        return {**new, "pending": pending}
    return handler


# ---- what the table shows --------------------------------------------------------------------------------

def _player_view(state: State, pid: str) -> dict:
    tanks, points = state["tanks"][pid], state["points"][pid]
    return {"tanks": tanks, "points": points, "point_sources": state["point_sources"][pid], "tens": points // 10, "ones": points % 10,
            "stars": state["stars"][pid], "planets": {**state["planets"][pid],
                                                     "total": sum(state["planets"][pid].values()),
                                                     "ask_when_lost": _planets_unplaced(state, pid)},
            "pawns_in_supply": PAWNS_TO_PLAY - stars_on_board(state["stars"][pid]),
            "harvest": harvest_preview(state, pid), "harvested": pid in state["harvested"],
            "conversions": {name: tanks[src] >= rate and not (state["caps"].get(dst) and tanks[dst] >= state["caps"][dst])
                            for name, (src, rate, dst) in CONVERSIONS.items()},
            "convertible": {name: _most_times(state, pid, name) for name in CONVERSIONS},
            "affordable": {name: can_pay(tanks, cost) for name, cost in round_prices(state).items()}}


def _most_times(state: State, pid: str, conversion: str) -> int:
    """How many times a conversion can run now: what the source tank pays for, up to the room in the product's."""
    source, rate, product = CONVERSIONS[conversion]
    tanks, cap = state["tanks"][pid], state["caps"].get(product)
    times = tanks[source] // rate
    return min(times, cap - tanks[product]) if cap else times


def _environment_view(state: State) -> dict | None:
    """The round's environment, with our card's effect in a few words and whether MOVEs may be taken."""
    env = state["environment"]
    if env is None:
        return None
    card = env.get("card")
    return {**env, "effect": EFFECTS.get(card), "moves": card_in_play(state) != NO_MOVES,
            "two_space_moves": card_in_play(state) == TWO_SPACE_MOVES}


def _ending(state: State) -> str | None:
    """How the game ended, for the statistics (no names): which end the rulebook's game took."""
    if state["status"] != "over":
        return None
    if state.get("shared") or len(leaders(state)) > 1:
        return "victory shared"
    return f"after round {STANDARD_ROUNDS}" if state["mode"] == "standard" else "target score reached"


def derive(state: State) -> dict:
    players = [p["id"] for p in state["players"]]
    first = players[(state["round"] - 1) % len(players)] if state["round"] else players[0]
    standard = state["mode"] == "standard"
    reached = [pid for pid in players if state["points"][pid] >= state["target_score"]]
    final_round = state["in_round"] and (state["round"] == STANDARD_ROUNDS if standard
                                         else bool(reached) or state["status"] == "tie_round")
    pending = state["pending"]
    block = vote = None
    votes = pending.get("votes", {}) if _voting(pending) else {}
    if _voting(pending) and len(votes) == len(pending["targets"]):  # shown once both owners have voted
        vote = {"actor": pending["actor"], "votes": votes, "blocked_by": pending["blocked_by"]}
    elif pending and not pending["blocked_by"]:
        block = {"actor": pending["actor"], "action": pending["action"], "targets": pending["targets"],
                 "blocked_by": pending["blocked_by"], "vote": _voting(pending), "voted": sorted(votes),
                 "refund": {t: n // 2 for t, n in pending["paid"].items()}}
    over = state["status"] == "over"
    return {"mode": state["mode"], "round": state["round"], "harvest_round": harvest_round(state),
            "in_round": state["in_round"],
            "status": state["status"], "environment": _environment_view(state), "first_player": first,
            "edition": state["edition"], "environments_left": [
                {**ENVIRONMENTS[card], "card": card, "copies": copies, "effect": EFFECTS[card]}
                for card, copies in environments_left(state).items()] if state["edition"] == "ours" else [],
            "rounds_left": max(0, STANDARD_ROUNDS - state["round"]) if standard else None,
            "target_score": None if standard else state["target_score"], "reached_target": reached,
            "final_round": final_round, "caps": state["caps"], "costs": round_prices(state),
            "conversions": {name: {"from": s, "rate": r, "to": d} for name, (s, r, d) in CONVERSIONS.items()},
            "players": {pid: _player_view(state, pid) for pid in players},
            "standings": standings(state), "leaders": leaders(state), "block": block, "vote": vote,
            "scores": dict(state["points"]),
            "waiting_to_harvest": [pid for pid in players if pid not in state["harvested"]]
            if state["in_round"] or state["status"] == "final_harvest" else [],
            "waiting_to_finish": [pid for pid in players if pid not in state.get("finished", [])]
            if state["status"] == "final_harvest" else [],
            "winners": leaders(state) if over else [],  # a shared victory is shared by the tied leaders
            "scoreboard": _scoreboard(state, first, over)}


def _scoreboard(state: State, first: str, over: bool) -> dict:
    standard = state["mode"] == "standard"
    tie_rule = ("Most points after the final harvest wins. Level on points, more planets still in play wins; "
                "still level, the victory is shared." if standard else
                "Most points after the final harvest wins. Level on points, another full round is played, "
                "until one leads or the players agree to share.")
    planets = {pid: sum(kinds.values()) for pid, kinds in state["planets"].items()}
    return scoreboard(state["players"], dict(state["points"]), "points", ties=planets if standard else None,
                      tie_label="planets" if standard else None, tie_rule=tie_rule,
                      turn=None if over else first, turn_label="first", over=over, winners=leaders(state))


# How the history tells each event, after the player's name (GameRules.tell).
SAYS = {
    'setup': 'sets up a {mode} game',
    'new_round': 'flips the next environment {environment}',
    'harvest': 'harvests',
    'convert': 'converts {conversion}, {times}×',
    'make_star': 'makes a {star}',
    'make_planet': 'rings a star with a {planet} planet',
    'move_star': 'moves a {star} along its life',
    'merge': 'merges stars ({merge})',
    'block': 'blocks the action aimed at them',
    'block_vote': 'votes on blocking the merger: {spend}',
    'board': 'corrects the board: {delta:+} {piece}',
    'adjust': 'corrects by hand: {delta:+} {what}',
    'done': 'has made their last conversions',
    'end_round': 'ends round {round}',
    'share_victory': 'agrees to share the win',
}
WORDS = {
    'h_to_he': '4 H into 1 He',
    'he_to_c': '3 He into 1 C',
    'c_to_point': '2 C into 1 point',
    'own': 'their own',
    'opponent': "with an opponent's",
}


RULES = GameRules.of(
    GAME,
    event_types=final((
        EventType("setup", "Before the first round: choose the game and enter the tank maxima printed on "
                  "your player boards (0 = no maximum).", _for_the_table(_setup), Setup),
        EventType("new_round", "Flip the next environment: name one of our cards (its hydrogen, actions and "
                  "effect come with it; each once per deck) or type a card's hydrogen and actions. A new round "
                  "begins with its harvest.",
                  _for_the_table(_new_round), NewRound),
        EventType("harvest", "Collect your harvest for this round (or the final harvest): the previewed "
                  "elements and points, plus your rocky planets' picks. Overflow above a tank's maximum is lost.",
                  _by_a_player(_harvest, final=True), Harvest, for_others=True),
        EventType("convert", "Fuse elements at any time: 4 H → 1 He, 3 He → 1 C, or 2 C → 1 point.",
                  _by_a_player(_convert, final=True), Convert),
        EventType("make_star", "Pay hydrogen to turn a pawn into a new star: blue giant 7, sunlike 3, red dwarf 1.",
                  _by_a_player(_make_star), MakeStar),
        EventType("make_planet", "Ring one of your stars with a planet: rocky 2 H + 2 C + 2 Fe, "
                  "gas 4 H + 6 He + 2 Fe.", _by_a_player(_make_planet), MakePlanet),
        EventType("move_star", "Push a star one space along its life (two under Time Vortex, none under Time "
                  "Stasis); free for your own, 1 He for another player's (free under Tidal Stream). Leaving the main sequence wrecks its planets; a supernova pays 2 Fe and frees the "
                  "pawn; a new white dwarf pays 1 point.", _by_a_player(_move), MoveStar),
        EventType("merge", "Pay helium to merge two stars: your own 2 He, one opponent's 6 He, two white "
                  "dwarfs 8 He (both explode, 1 Fe to each owner). Record other merger results with 'board'.",
                  _by_a_player(_merge), Merge),
        EventType("block", "Spend 1 Fe to stop an action aimed at you; it is undone and its maker gets half "
                  "the cost back (rounded down). Must be the next tap after that action.", _block),
        EventType("block_vote", "A merger of two other players' white dwarfs: each owner votes in secret whether "
                  "to spend 1 Fe blocking it; shown when both are in (blocked if anyone spends).",
                  _block_vote, BlockVote, sealed=True),
        EventType("board", "Correct the board: add or take away a star stage or planet (merger results, "
                  "environment effects).", _by_a_player(_board), Board),
        EventType("adjust", "Correct a tank or your points by hand (environment effects).",
                  _by_a_player(_adjust, final=True), Adjust, for_others=True),
        EventType("done", "After the final harvest: you have made your last conversions. When everyone is done "
                  "the game ends and the most points wins.", _finish, for_others=True),
        EventType("end_round", "Everyone has acted: close the round (the first-player token moves on). Refused "
                  "while someone has not harvested, unless told to skip their harvest.",
                  _for_the_table(_end_round), EndRound),
        EventType("share_victory", "Advanced game, still tied: agree to share the win.",
                  _for_the_table(_share_victory)),
    ), _ended),
    initial_state=initial_state,
    derive=derive,
    says=SAYS,
    words=WORDS,
    sealing=sealing,
    conceal=conceal,
    revealed_stands="both votes are revealed, and the rulebook has the owners vote at once, so your vote stands",
    ending=_ending,
    length=lambda state: state["round"],
    tie_broken_by=lambda state: "a tie round" if state.get("tie_rounds") and len(leaders(state)) == 1 else None,
    options={"mode": "standard", "target_score": 30, "edition": "ours", **{f"max_{t.lower()}": n for t, n in PRINTED_MAXIMA.items()}},
)

apply = RULES.apply
