"""Starship Catan (two players): victory points and their sources, resources within storage, Astro,
fame and friendship with the two special cards, ship strength, and the dice arithmetic of a flight.

Numbers come from the rulebook summary in shared/seeds/003; where it is silent the choice is ours and is
listed under "Our readings" in docs/rules/starship_catan.md.
"""
from __future__ import annotations

import copy

from typing import Literal

from pydantic import Field

from ...generator.loader import our_game
from .base import EventType, Fields, GameRules, RuleError, Seat, State, Whole, scoreboard

GAME = our_game("starship_catan")  # these numbers are in components/starship_catan/game.yaml, printed
VICTORY_POINTS = GAME.number("victory_points")
START_ASTRO = GAME.number("start_astro")
START_RESOURCES = {"resource_a": 0, "resource_b": 0, "resource_c": 0, "resource_d": 0, "goods": 2, "science": 1}
RESOURCE_LABELS = {"resource_a": "Resource A", "resource_b": "Resource B", "resource_c": "Resource C", "resource_d": "Resource D",
                   "goods": "Trade goods", "science": "Science"}
BASE_STORAGE = GAME.number("storage_limit")
SCIENCE_STORAGE = GAME.number("science_limit")  # whatever Logistics says
LOGISTICS_BONUS_PER_LEVEL = 1  # ours: the rulebook says only that Logistics raises storage
MODULES = {"command": "Command", "logistics": "Logistics", "trade": "Trade",
           "module_4": "Module 4", "module_5": "Module 5", "module_6": "Module 6"}
MAX_STRENGTH = {"boosters": 4, "cannons": 6}  # 2 booster and 3 cannon tiles, each 1 dot then 2
SPECIAL_CARDS = {"friend_of_the_people": "friendship", "hero_of_the_people": "fame"}
CLAIM_AT = GAME.number("people_card_at")
POINT_LIMIT = 99
ASTRO_LIMIT = 9999
VP_LIMIT = 99


def flight_speed(yellow_die: int, boosters: int) -> int:
    """How many sector cards a flight can reach: the yellow die plus booster strength."""
    return yellow_die + boosters


def pirate_fight(blue_die: int, cannons: int, pirate_strength: int) -> dict:
    """A pirate fight: the blue die plus cannon strength wins when it reaches the pirate's strength."""
    total = blue_die + cannons
    return {"blue": blue_die, "cannons": cannons, "total": total, "pirate": pirate_strength,
            "won": total >= pirate_strength}


def storage_limit(player: dict, resource: str) -> int:
    if resource == "science":
        return SCIENCE_STORAGE
    return BASE_STORAGE + LOGISTICS_BONUS_PER_LEVEL * player["modules"]["logistics"]


def card_holder(state: State, card: str) -> str | None:
    """Who holds Friend/Hero of the People: nobody until someone first reaches 3 points; afterwards
    whoever leads, and back to the side while the two are level."""
    if not state["claimed"][card]:
        return None
    kind = SPECIAL_CARDS[card]
    points = sorted(((p[kind], pid) for pid, p in state["ships"].items()), reverse=True)
    if points[0][0] == points[1][0]:
        return None
    return points[0][1]


def vp_sources(state: State, pid: str) -> dict[str, int]:
    ship = state["ships"][pid]
    return {"level_ii_modules": sum(1 for level in ship["modules"].values() if level == 2),
            "friend_of_the_people": int(card_holder(state, "friend_of_the_people") == pid),
            "hero_of_the_people": int(card_holder(state, "hero_of_the_people") == pid),
            "by_hand": ship["vp_by_hand"]}


def initial_state(players: list[dict], options: dict) -> State:
    if len(players) != 2:
        raise RuleError("players", "Starship Catan is a game for exactly 2 players")
    ship = {"resources": dict(START_RESOURCES), "astro": START_ASTRO, "fame": 0, "friendship": 0,
            "boosters": 0, "cannons": 0, "modules": {name: 0 for name in MODULES}, "vp_by_hand": 0}
    return {"players": players, "ships": {p["id"]: copy.deepcopy(ship) for p in players},
            "claimed": {card: False for card in SPECIAL_CARDS}, "flight": None, "last_fight": None}


# ---- event payloads ----------------------------------------------------------------------------------------

class _ShipChange(Fields):
    target: Seat = Field(None, description="player id whose ship changes (default: the acting player)")


class Resource(_ShipChange):
    resource: Literal[*START_RESOURCES] = Field(description=", ".join(START_RESOURCES))
    delta: Whole = Field(ge=-99, le=99, description="whole number, negative to spend")


class Astro(_ShipChange):
    delta: Whole = Field(ge=-ASTRO_LIMIT, le=ASTRO_LIMIT, description="whole number, negative to pay")


class Points(_ShipChange):
    kind: Literal["fame", "friendship"] = Field(description="fame or friendship")
    delta: Whole = Field(ge=-POINT_LIMIT, le=POINT_LIMIT, description="whole number")


class Strength(_ShipChange):
    part: Literal[*MAX_STRENGTH] = Field(description="boosters (0-4) or cannons (0-6)")
    delta: Whole = Field(ge=-max(MAX_STRENGTH.values()), le=max(MAX_STRENGTH.values()), description="whole number")


class BuildModule(_ShipChange):
    module: Literal[*MODULES] = Field(description=", ".join(MODULES))


class Vp(_ShipChange):
    delta: Whole = Field(ge=-VP_LIMIT, le=VP_LIMIT, description="whole number")


class YellowDie(Fields):
    value: Whole = Field(ge=1, le=6, description="1 to 6")


class PirateFight(Fields):
    strength: Whole = Field(ge=0, le=99, description="the pirate's strength")
    blue: Whole = Field(ge=1, le=6, description="the blue die, 1 to 6")


def _bounded(name: str, value: int, low: int, high: int, what: str) -> int:
    if value < low:
        raise RuleError(name, f"{what} would fall to {value}, below {low}")
    if value > high:
        raise RuleError(name, f"{what} would rise to {value}, above the limit of {high}")
    return value


def _resource(state: State, ship: dict, fields: Resource) -> None:
    resource, delta = fields.resource, fields.delta
    limit = storage_limit(ship, resource)
    ship["resources"][resource] = _bounded("delta", ship["resources"][resource] + delta, 0, limit,
                                           RESOURCE_LABELS[resource])


def _astro(state: State, ship: dict, fields: Astro) -> None:
    ship["astro"] = _bounded("delta", ship["astro"] + fields.delta, 0, ASTRO_LIMIT, "Astro")


def _points(state: State, ship: dict, fields: Points) -> None:
    kind, delta = fields.kind, fields.delta
    ship[kind] = _bounded("delta", ship[kind] + delta, 0, POINT_LIMIT, f"{kind} points")
    card = next(c for c, k in SPECIAL_CARDS.items() if k == kind)
    if ship[kind] >= CLAIM_AT:
        state["claimed"][card] = True


def _strength(state: State, ship: dict, fields: Strength) -> None:
    part, delta = fields.part, fields.delta
    if delta > MAX_STRENGTH[part]:
        raise RuleError("delta", f"must be at most {MAX_STRENGTH[part]}, got {delta}")
    if delta < -MAX_STRENGTH[part]:
        raise RuleError("delta", f"must be at least {-MAX_STRENGTH[part]}, got {delta}")
    ship[part] = _bounded("delta", ship[part] + delta, 0, MAX_STRENGTH[part], part)


def _build_module(state: State, ship: dict, fields: BuildModule) -> None:
    module = fields.module
    if ship["modules"][module] == 2:
        raise RuleError("module", f"the {MODULES[module]} module is already at level II")
    ship["modules"][module] += 1


def _vp(state: State, ship: dict, fields: Vp) -> None:
    ship["vp_by_hand"] = _bounded("delta", ship["vp_by_hand"] + fields.delta, 0, VP_LIMIT, "victory points by hand")


def _on_ship(change):
    """A handler that changes one ship on a copy of the state: the target's, else the acting player's."""
    def handler(state: State, player: str, fields: Fields) -> State:
        new = copy.deepcopy(state)
        change(new, new["ships"][getattr(fields, "target", None) or player], fields)
        return new
    return handler


def _yellow_die(state: State, player: str, fields: YellowDie) -> State:
    return {**state, "flight": {"player": player, "yellow": fields.value}}


def _pirate_fight(state: State, player: str, fields: PirateFight) -> State:
    fighter = state["ships"][player]
    return {**state, "last_fight": {"player": player, **pirate_fight(fields.blue, fighter["cannons"], fields.strength)}}


def derive(state: State) -> dict:
    players = {}
    for pid, ship in state["ships"].items():
        sources = vp_sources(state, pid)
        vp = sum(sources.values())
        players[pid] = {
            "vp": vp, "vp_sources": sources, "to_win": max(0, VICTORY_POINTS - vp),
            "storage_limit": storage_limit(ship, "resource_d"),
            "resources": {r: {"amount": n, "limit": storage_limit(ship, r), "label": RESOURCE_LABELS[r]}
                          for r, n in ship["resources"].items()},
            "astro": ship["astro"], "fame": ship["fame"], "friendship": ship["friendship"],
            "boosters": ship["boosters"], "cannons": ship["cannons"],
            "modules": dict(ship["modules"]),
            "trade_cannot_be_refused": ship["modules"]["trade"] >= 1,
        }
    flight = state["flight"]
    if flight is not None:
        boosters = state["ships"][flight["player"]]["boosters"]
        flight = {**flight, "boosters": boosters, "speed": flight_speed(flight["yellow"], boosters)}
    winners = [pid for pid, p in players.items() if p["vp"] >= VICTORY_POINTS]
    return {"target": VICTORY_POINTS, "players": players,
            "friend_of_the_people": card_holder(state, "friend_of_the_people"),
            "hero_of_the_people": card_holder(state, "hero_of_the_people"),
            "flight": flight, "last_fight": state["last_fight"],
            "winner": winners[0] if len(winners) == 1 else None,
            "scores": {pid: p["vp"] for pid, p in players.items()},
            "scoreboard": scoreboard(state["players"], {pid: p["vp"] for pid, p in players.items()}, "VP",
                                     tie_rule=f"The first to {VICTORY_POINTS} VP wins.", over=bool(winners),
                                     winners=winners)}


# How the history tells each event, after the player's name (GameRules.tell).
SAYS = {
    'resource': '{delta:+} {resource}',
    'astro': '{delta:+} Astro',
    'points': '{delta:+} {kind} points',
    'strength': '{delta:+} {part} strength',
    'build_module': 'builds the next level of the {module}',
    'vp': '{delta:+} VP by hand',
    'yellow_die': 'rolls {value} on the yellow die',
    'pirate_fight': 'fights a pirate of strength {strength} (blue die {blue})',
}


RULES = GameRules.of(
    GAME,
    event_types=(
        EventType("resource", "Gain or spend one kind of resource; refused below 0 or above what the "
                  "storage holds (2, more with Logistics; science always up to 4)", _on_ship(_resource), Resource),
        EventType("astro", "Receive or pay Astro, the money (you start with 25); never below 0",
                  _on_ship(_astro), Astro),
        EventType("points", "Gain or lose fame or friendship points; Hero and Friend of the People follow the leader",
                  _on_ship(_points), Points),
        EventType("strength", "Build or lose booster or cannon strength (one red dot per step)",
                  _on_ship(_strength), Strength),
        EventType("build_module", "Build the next level of a module: level I, then level II (worth 1 VP)",
                  _on_ship(_build_module), BuildModule),
        EventType("vp", "Victory points from anything else (colonies, trading posts, missions...), entered by hand",
                  _on_ship(_vp), Vp, for_others=True),
        EventType("yellow_die", "The yellow die of this turn: production, and flight speed with your boosters",
                  _yellow_die, YellowDie),
        EventType("pirate_fight", "Fight a pirate: the blue die plus your cannons must reach its strength",
                  _pirate_fight, PirateFight),
    ),
    initial_state=initial_state,
    derive=derive,
    says=SAYS,
)

apply = RULES.apply
