"""Starship Catan (two players): victory points and their sources, resources within storage, Astro,
fame and friendship with the two special cards, ship strength, the dice arithmetic of a flight, and what the
yellow die produces.

Numbers come from the rulebook summary in shared/seeds/003; where it is silent the choice is ours and is
listed under "Our readings" in docs/rules/starship_catan.md. The names and values of our printed edition
(resources, modules, their production, every build cost) are read from the set's own data, so the phone
says what the pieces print.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field

from ...generator.look.loader import load_game, our_game
from ...resources import components_dir
from .base import EventType, Fields, GameRules, RuleError, StaleError, State, Whole, final, scoreboard, still_at

GAME = our_game("starship_catan")  # these numbers are in components/starship_catan/game.yaml, printed
VICTORY_POINTS = GAME.number("victory_points")
START_ASTRO = GAME.number("start_astro")
BASE_STORAGE = GAME.number("storage_limit")
SCIENCE_STORAGE = GAME.number("science_limit")  # whatever Logistics says
SPECIAL_CARDS = {"friend_of_the_people": "friendship", "hero_of_the_people": "fame"}
CLAIM_AT = GAME.number("people_card_at")
POINT_LIMIT = 99
ASTRO_LIMIT = 9999
VP_LIMIT = 99

# ---- our edition, as the set prints it (components/starship_catan/*.yaml) ------------------------------------
# Our set's own data, from where our_game reads game.yaml (never a same-named folder in the working directory).
_PRINTED = {c.spec.id: c for c in load_game(components_dir() / GAME.id).components}


def _faces(component: str) -> dict:
    """One component's designs by name (per-player components print one copy per colour)."""
    return {piece.name: piece for piece in _PRINTED[component].pieces}


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


_STORAGE_ROWS = _faces("starship")["Starship"].front.params.storage
# A resource's key is the last word of its printed name: goods, science, ore, fuel, food, crystal.
RESOURCE_LABELS = {row.name.split()[-1].lower(): row.name for row in _STORAGE_ROWS}
SCIENCE = "science"  # the one with the Science Lab's own limit
_BY_ICON = {row.icon: key for key, row in zip(RESOURCE_LABELS, _STORAGE_ROWS)}
_BY_NAME = {name: key for key, name in RESOURCE_LABELS.items()}
START_RESOURCES = {**dict.fromkeys(RESOURCE_LABELS, 0),
                   "goods": GAME.number("start_goods"), SCIENCE: GAME.number("start_science")}
# Before the edition the four resources the rulebook does not name were resource_a-d, in the board's order.
OLD_RESOURCE_KEYS = dict(zip(("resource_a", "resource_b", "resource_c", "resource_d"),
                             (key for key in RESOURCE_LABELS if key not in ("goods", SCIENCE))))


def _amount(text: str) -> tuple[str, int]:
    """What a piece says it produces ("1 Science") as (resource key, amount)."""
    amount, name = text.split(" ", 1)
    return _BY_NAME[name], int(amount)


def _cost(params) -> dict[str, int]:
    """A printed cost (amounts beside resource icons) as {resource key: amount}."""
    cost: dict[str, int] = {}
    for amount, icon in zip(params.cost, params.cost_resources):
        cost[_BY_ICON[icon]] = cost.get(_BY_ICON[icon], 0) + amount
    return cost


@dataclass(frozen=True)
class Producer:
    """A module or a colony: on its yellow-die number it makes `amount` of `resource`."""

    name: str
    die: int
    resource: str
    amount: int


def _producer(name: str, params) -> Producer:
    return Producer(name, params.die, *_amount(params.fields["Produces"]))


_MODULE_FACES = _faces("modules")
# A module's key is the first word of its title: command, logistics, trade, research, cloak, dock.
MODULES = {piece.front.params.title.split()[0].lower(): _producer(piece.front.params.title, piece.front.params)
           for piece in _MODULE_FACES.values()}
MODULE_LABELS = {key: module.name for key, module in MODULES.items()}
# Before the edition the three modules the rulebook does not name were module_4-6, as their tiles are called.
OLD_MODULE_KEYS = {_slug(name): key for name, key in zip(_MODULE_FACES, MODULES)
                   if name != MODULES[key].name}
_ADVANCED_FACES = {piece.front.params.title.split()[0].lower(): piece.front.params
                   for piece in _PRINTED["advanced_modules"].pieces}
# What each Logistics level stores, as its tiles print it (ours: the rulebook says only that it raises storage).
LOGISTICS_STORAGE = {1: int(_faces("modules")["Logistics Module"].front.params.fields["Storage limit"]),
                     2: int(_ADVANCED_FACES["logistics"].fields["Storage limit"])}
# The most dots a ship can show: every booster or cannon tile a player takes, turned to its level II side.
MAX_STRENGTH = {part: sum(piece.count * piece.back.params.dots for piece in _PRINTED[part].pieces
                          if piece.color == _PRINTED[part].pieces[0].color) for part in ("boosters", "cannons")}


def _effect(text: str) -> str:
    """What a module tile says it does, without a level II tile's note on where it goes."""
    return text.split(". ", 1)[1] if text.startswith("Goes on ") else text


MODULE_EFFECTS = {key: {1: _effect(piece.front.params.text), 2: _effect(_ADVANCED_FACES[key].text)}
                  for key, piece in zip(MODULES, _MODULE_FACES.values())}  # by level, as printed
_MODULE_PIECE = next(iter(_MODULE_FACES.values()))
MODULE_COSTS = {1: _cost(_MODULE_PIECE.back.params), 2: _cost(_MODULE_PIECE.front.params)}  # by level reached
_COLONY = _PRINTED["colony_card"].pieces[0].front.params
START_COLONY = Producer(f"{_COLONY.fields['Name']} colony", _COLONY.die, *_amount(_COLONY.fields["Produces"]))
_SECTOR_CARDS = [piece.front.params for deck in ("sector_cards", "reserve_sector_cards")
                 for piece in _PRINTED[deck].pieces]  # the flights' cards, the reserve deck's too
_PIRATE_CARDS = sorted((card for card in _SECTOR_CARDS if card.kind == "Pirate"),
                       key=lambda card: int(card.fields["Strength"]))
PIRATES = {_slug(card.title): {"name": card.title, "strength": int(card.fields["Strength"]),
                               "ransom": card.fields["Ransom"], "if_won": card.fields["If you win"],
                               "if_lost": card.fields["If you lose"]}
           for card in _PIRATE_CARDS}  # the printed pirates, weakest first
LIBRARY, OUTPOST = "Galactic Library", "Diplomat Outpost"
DIPLOMAT_BUYS = GAME.number("diplomat_buys")
SELL_DISCOUNT = GAME.number("sell_discount")  # ours: a sale pays this much less than the printed price


def _market(card) -> dict:
    """Where a flight may buy or sell: one resource at the card's price, sold for SELL_DISCOUNT less (Science at
    the Library's one price, the rulebook's)."""
    if card.kind == LIBRARY:
        resource, price, sell = SCIENCE, GAME.number("library_price"), GAME.number("library_price")
    else:
        resource, price = _BY_NAME[card.fields["Resource"]], int(card.fields["Price"].split()[0])
        sell = max(price - SELL_DISCOUNT, 0)
    return {"name": card.title, "kind": card.kind, "resource": resource, "price": price, "sell": sell,
            "buy_only": DIPLOMAT_BUYS if card.kind == OUTPOST else None}


MARKETS = {_slug(card.title): _market(card)  # trade planets, trading posts, outposts and the Library, A to Z
           for card in sorted(_SECTOR_CARDS, key=lambda card: card.title)
           if card.kind == LIBRARY or "Price" in card.fields}


@dataclass(frozen=True)
class Build:
    """Something bought in Trading and Building for its printed cost; a tile adds one red dot to `part`: a
    new tile at level I, or one turned to level II."""

    label: str
    cost: dict[str, int]
    part: str | None = None
    level: int = 0  # of a tile: 1 or 2


BUILDS = {
    **{_slug(name): Build(name, _cost(piece.front.params)) for name, piece in _faces("ships").items()},
    **{_slug(f"{face.params.title} {face.params.level}"): Build(f"{face.params.title} {face.params.level}",
                                                                 _cost(face.params), part, level)
       for part in MAX_STRENGTH
       for level, face in enumerate((_PRINTED[part].pieces[0].front, _PRINTED[part].pieces[0].back), 1)},
}


def cost_text(cost: dict[str, int]) -> str:
    """A cost in words: "1 Food, 1 Ore, 1 Fuel"."""
    return ", ".join(f"{n} {RESOURCE_LABELS[r]}" for r, n in cost.items())


def flight_speed(yellow_die: int, boosters: int) -> int:
    """How many sector cards a flight can reach: the yellow die plus booster strength."""
    return yellow_die + boosters


def pirate_fight(blue_die: int, cannons: int, pirate_strength: int) -> dict:
    """A pirate fight: the blue die plus cannon strength wins when it reaches the pirate's strength."""
    total = blue_die + cannons
    return {"blue": blue_die, "cannons": cannons, "total": total, "pirate": pirate_strength,
            "won": total >= pirate_strength}


def storage_limit(player: dict, resource: str) -> int:
    if resource == SCIENCE:
        return SCIENCE_STORAGE
    return LOGISTICS_STORAGE.get(player["modules"]["logistics"], BASE_STORAGE)


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
            "claimed": {card: False for card in SPECIAL_CARDS}, "flight": None, "last_fight": None, "rolls": 0}


# ---- event payloads ----------------------------------------------------------------------------------------

def _renamed(old_names: dict[str, str]):
    """A validator that reads a key the log may hold from before our edition (resource_a, module_4) as its
    name now, so old tables replay as they were played."""
    return BeforeValidator(lambda value: old_names.get(value, value) if isinstance(value, str) else value)


def _listed(names: dict[str, str], old_names: dict[str, str]) -> str:
    renamed = ", ".join(f"{old} = {new}" for old, new in old_names.items())
    return ", ".join(f"{key} ({name})" for key, name in names.items()) + f"; older logs' names still apply: {renamed}"


class _ShipChange(Fields):
    """A change to the ship of the event's player (the phone's own seat, or another where allowed)."""


class Resource(_ShipChange):
    resource: Annotated[Literal[*RESOURCE_LABELS], _renamed(OLD_RESOURCE_KEYS)] = Field(
        description=_listed(RESOURCE_LABELS, OLD_RESOURCE_KEYS))
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
    module: Annotated[Literal[*MODULES], _renamed(OLD_MODULE_KEYS)] = Field(
        description=_listed(MODULE_LABELS, OLD_MODULE_KEYS))
    level: Whole = Field(None, ge=1, le=2, description="the level it reaches, 1 or 2 (optional); refused once "
                                                       "the module is past it, so a second tap builds nothing")
    pay: Literal["no", "yes"] = Field("no", description="yes: spend that level's printed cost from storage; no: "
                                                        "the free module of the set-up, or paid by hand")


class BuildPiece(_ShipChange):
    piece: Literal[*BUILDS] = Field(description=", ".join(f"{key} ({b.label}: {cost_text(b.cost)})"
                                                          for key, b in BUILDS.items()))


class Vp(_ShipChange):
    delta: Whole = Field(ge=-VP_LIMIT, le=VP_LIMIT, description="whole number")


class YellowDie(Fields):
    value: Whole = Field(ge=1, le=6, description="1 to 6")
    turn: Whole = Field(None, ge=0, description="the rolls the panel showed (derived rolls); refused once another "
                                                "roll is in")


class Collect(Fields):
    die: Whole = Field(ge=1, le=6, description="the yellow die the panel showed; refused once another is entered")


class Trade(Fields):
    market: Literal[*MARKETS] = Field(description="where: one of our printed trade planets, trading posts, "
                                                  "Diplomat Outposts or the Galactic Library, by name")
    deal: Literal["buy", "sell"] = Field(description="buy or sell")
    count: Whole = Field(1, ge=1, le=9, description="how many of its resource")


class PirateFight(Fields):
    strength: Whole = Field(ge=0, le=99, description="the pirate's strength")
    blue: Whole = Field(ge=1, le=6, description="the blue die, 1 to 6")


class FightPirate(Fields):
    pirate: Literal[*PIRATES] = Field(description="one of our printed pirates: its strength and what winning or "
                                                  "losing brings come from the card")
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


def _pay(ship: dict, cost: dict[str, int], what: str, field: str) -> None:
    """Spend a printed cost from storage, all of it or nothing."""
    missing = {r: n - ship["resources"][r] for r, n in cost.items() if ship["resources"][r] < n}
    if missing:
        raise RuleError(field, f"{what} costs {cost_text(cost)}: short of {cost_text(missing)}")
    for resource, amount in cost.items():
        ship["resources"][resource] -= amount


LEVELS = ("—", "I", "II")


def _build_module(state: State, ship: dict, fields: BuildModule) -> None:
    module, name = fields.module, MODULE_LABELS[fields.module]
    level = ship["modules"][module] + 1
    if fields.level is not None and fields.level != level:
        raise StaleError("level", f"the {name} is at level {LEVELS[level - 1]} now; nothing was built")
    if level > 2:
        raise RuleError("module", f"the {name} is already at level II")
    if fields.pay == "yes":
        _pay(ship, MODULE_COSTS[level], f"the {name} {LEVELS[level]}", "pay")
    ship["modules"][module] = level


def _build_piece(state: State, ship: dict, fields: BuildPiece) -> None:
    build = BUILDS[fields.piece]
    if build.part:  # dots alone do not say which tile is at which level: refuse only what no layout allows
        tile = build.part[:-1]
        if build.level == 2 and not ship[build.part]:
            raise RuleError("piece", f"a {build.label} turns a level I {tile} over; you have none yet")
        if build.level == 1 and ship[build.part] == MAX_STRENGTH[build.part] - 1:
            raise RuleError("piece", f"every {tile} tile is built; a {build.label} has no tile left")
        ship[build.part] = _bounded("piece", ship[build.part] + 1, 0, MAX_STRENGTH[build.part],
                                    f"{build.part} dots")
    _pay(ship, build.cost, f"a {build.label}", "piece")


def _trade(state: State, ship: dict, fields: Trade) -> None:
    market, count = MARKETS[fields.market], fields.count
    if market["buy_only"] and fields.deal == "sell":
        raise RuleError("deal", f"{market['name']} buys nothing")
    if market["buy_only"] and count > market["buy_only"]:
        raise RuleError("count", f"{market['name']} sells only {market['buy_only']}")
    resource, sign = market["resource"], 1 if fields.deal == "buy" else -1
    ship["resources"][resource] = _bounded("count", ship["resources"][resource] + sign * count, 0,
                                           storage_limit(ship, resource), RESOURCE_LABELS[resource])
    each = market["price"] if fields.deal == "buy" else market["sell"]
    ship["astro"] = _bounded("count", ship["astro"] - sign * count * each, 0, ASTRO_LIMIT, "Astro")


def _vp(state: State, ship: dict, fields: Vp) -> None:
    ship["vp_by_hand"] = _bounded("delta", ship["vp_by_hand"] + fields.delta, 0, VP_LIMIT, "victory points by hand")


def _on_ship(change):
    """A handler that changes the event's player's ship on a copy of the state."""
    def handler(state: State, player: str, fields: Fields) -> State:
        new = copy.deepcopy(state)
        change(new, new["ships"][player], fields)
        return new
    return handler


def _yellow_die(state: State, player: str, fields: YellowDie) -> State:
    """Rulebook, Phases: a turn is Production ("Roll the Yellow Die. Both players receive production"), then
    Flight, then Trade and Build; the two captains take turns. So a roll opens its player's turn and is made
    once in it: a second tap (the same stamp, or the same captain again) is refused, and production is
    never collected twice."""
    rolls = state.get("rolls", 0)
    still_at("turn", fields.turn, rolls, f"roll {rolls} is in")
    flight = state["flight"]
    if flight and flight["player"] == player:
        raise RuleError("turn", f"you rolled the yellow die for this turn already ({flight['yellow']}); the next "
                                f"roll opens the other captain's turn (Undo takes a wrong number back)")
    return {**state, "rolls": rolls + 1, "flight": {"player": player, "yellow": fields.value, "collected": []}}


def production(state: State, pid: str) -> list[dict]:
    """What this turn's yellow die makes for one player (both players produce): each built module with that
    number, and the starting colony card's. `takes` is what storage still holds room for; the rest is lost."""
    flight, ship = state["flight"], state["ships"][pid]
    if flight is None:
        return []
    die = flight["yellow"]
    sources = [m for key, m in MODULES.items() if ship["modules"][key] and m.die == die]
    sources += [START_COLONY] if START_COLONY.die == die else []
    room = {r: storage_limit(ship, r) - n for r, n in ship["resources"].items()}
    rows = []
    for source in sources:
        takes = max(0, min(source.amount, room[source.resource]))
        room[source.resource] -= takes
        rows.append({"source": source.name, "resource": source.resource, "label": RESOURCE_LABELS[source.resource],
                     "amount": source.amount, "takes": takes})
    return rows


def _collect(state: State, player: str, fields: Collect) -> State:
    flight = state["flight"]
    if flight is None:
        raise RuleError("die", "no yellow die has been entered yet")
    if fields.die != flight["yellow"]:
        raise StaleError("die", f"the yellow die is now {flight['yellow']}; nothing was collected")
    if player in flight["collected"]:
        raise RuleError("die", f"the production of this {fields.die} is already collected")
    rows = production(state, player)
    if not any(row["takes"] for row in rows):
        raise RuleError("die", f"nothing to collect on a {fields.die}" + (": storage is full" if rows else ""))
    new = copy.deepcopy(state)
    for row in rows:
        new["ships"][player]["resources"][row["resource"]] += row["takes"]
    new["flight"]["collected"].append(player)
    return new


def _fought(state: State, player: str, blue: int, card: dict) -> State:
    fight = pirate_fight(blue, state["ships"][player]["cannons"], card["strength"])
    return {**state, "last_fight": {"player": player, **fight, "name": card.get("name"),
                                    "if_won": card.get("if_won"), "if_lost": card.get("if_lost")}}


def _pirate_fight(state: State, player: str, fields: PirateFight) -> State:
    return _fought(state, player, fields.blue, {"strength": fields.strength})


def _fight_pirate(state: State, player: str, fields: FightPirate) -> State:
    return _fought(state, player, fields.blue, PIRATES[fields.pirate])


EDITION = {  # our printed edition for the panel and API clients: names, module numbers, costs
    "resources": RESOURCE_LABELS,
    "modules": {key: {"name": m.name, "die": m.die, "resource": m.resource, "amount": m.amount,
                      "does": {str(level): text for level, text in MODULE_EFFECTS[key].items()}}
                for key, m in MODULES.items()},
    "module_costs": {str(level): cost for level, cost in MODULE_COSTS.items()},
    "builds": {key: {"label": b.label, "cost": b.cost, "part": b.part} for key, b in BUILDS.items()},
    "pirates": PIRATES,
    "markets": MARKETS,
    "start_colony": {"name": START_COLONY.name, "die": START_COLONY.die, "resource": START_COLONY.resource,
                     "amount": START_COLONY.amount},
}


def winners(state: State) -> list[str]:
    """Rulebook, Game End: the game ends as soon as a player has 10 VP. Every later event is refused (see
    `final`), so nothing after that moment (a tie on friendship sending Friend of the People back to the side,
    say) can take the win away."""
    return [p["id"] for p in state["players"] if sum(vp_sources(state, p["id"]).values()) >= VICTORY_POINTS]


def _ended(state: State) -> str | None:
    names = {p["id"]: p["name"] for p in state["players"]}
    won = winners(state)
    return f"{' and '.join(names[pid] for pid in won)} reached {VICTORY_POINTS} VP" if won else None


def derive(state: State) -> dict:
    players = {}
    flight = state["flight"]
    for pid, ship in state["ships"].items():
        sources = vp_sources(state, pid)
        vp = sum(sources.values())
        players[pid] = {
            "vp": vp, "vp_sources": sources, "to_win": max(0, VICTORY_POINTS - vp),
            "storage_limit": storage_limit(ship, "goods"),
            "resources": {r: {"amount": n, "limit": storage_limit(ship, r), "label": RESOURCE_LABELS[r]}
                          for r, n in ship["resources"].items()},
            "astro": ship["astro"], "fame": ship["fame"], "friendship": ship["friendship"],
            "boosters": ship["boosters"], "cannons": ship["cannons"],
            "modules": dict(ship["modules"]),
            "trade_cannot_be_refused": ship["modules"]["trade"] >= 1,
            "production": production(state, pid),
            "collected": flight is not None and pid in flight["collected"],
        }
    if flight is not None:
        boosters = state["ships"][flight["player"]]["boosters"]
        flight = {"player": flight["player"], "yellow": flight["yellow"], "boosters": boosters,
                  "speed": flight_speed(flight["yellow"], boosters)}
    won = winners(state)
    return {"target": VICTORY_POINTS, "players": players,
            "edition": EDITION,
            "friend_of_the_people": card_holder(state, "friend_of_the_people"),
            "hero_of_the_people": card_holder(state, "hero_of_the_people"),
            "flight": flight, "last_fight": state["last_fight"], "rolls": state.get("rolls", 0),
            "winner": won[0] if len(won) == 1 else None, "over": bool(won),
            "scores": {pid: p["vp"] for pid, p in players.items()},
            "scoreboard": scoreboard(state["players"], {pid: p["vp"] for pid, p in players.items()}, "VP",
                                     tie_rule=f"The first to {VICTORY_POINTS} VP wins; the game ends there.",
                                     over=bool(won), winners=won)}


# How the history tells each event, after the player's name (GameRules.tell), in our edition's words.
SAYS = {
    'resource': '{delta:+} {resource}',
    'astro': '{delta:+} Astro',
    'points': '{delta:+} {kind} points',
    'strength': '{delta:+} {part} strength',
    'build_module': 'builds the next level of the {module}{pay}',
    'build': 'builds a {piece}',
    'trade': '{deal}s {count} {market}',
    'vp': '{delta:+} VP by hand',
    'yellow_die': 'rolls {value} on the yellow die',
    'collect': "collects what the yellow die's {die} produces",
    'pirate_fight': 'fights a pirate of strength {strength} (blue die {blue})',
    'fight_pirate': 'fights {pirate} (blue die {blue})',
}
WORDS = {  # a key in a logged event (old names too) -> as players say it
    **RESOURCE_LABELS, **{old: RESOURCE_LABELS[new] for old, new in OLD_RESOURCE_KEYS.items()},
    **MODULE_LABELS, **{old: MODULE_LABELS[new] for old, new in OLD_MODULE_KEYS.items()},
    "yes": ", paying its printed cost", "no": "",
    **{key: f"{b.label}, paying {cost_text(b.cost)}" for key, b in BUILDS.items()},
    **{key: f"{RESOURCE_LABELS[m['resource']]} at {m['name']} (buy {m['price']}, sell {m['sell']} Astro each)"
       for key, m in MARKETS.items()},
    **{key: p["name"] for key, p in PIRATES.items()},
}


RULES = GameRules.of(
    GAME,
    event_types=final((
        EventType("resource", "Gain or spend one kind of resource; refused below 0 or above what the "
                  "storage holds (2, more with Logistics; Science always up to 4)", _on_ship(_resource), Resource,
                  for_others=True),  # one phone may record both sides of a trade between the captains
        EventType("astro", "Receive or pay Astro, the money (you start with 25); never below 0",
                  _on_ship(_astro), Astro, for_others=True),
        EventType("points", "Gain or lose fame or friendship points; Hero and Friend of the People follow the leader",
                  _on_ship(_points), Points),
        EventType("strength", "Build or lose booster or cannon strength (one red dot per step)",
                  _on_ship(_strength), Strength),
        EventType("build_module", "Build the next level of a module: level I, then level II (worth 1 VP); "
                  "with pay=yes its printed cost is spent", _on_ship(_build_module), BuildModule),
        EventType("build", "Build a ship or a booster or cannon tile: spends its printed cost from storage; "
                  "a tile adds one red dot", _on_ship(_build_piece), BuildPiece),
        EventType("trade", "Buy or sell at a planet by name: its resource at its printed price, within storage "
                  "and Astro; a Diplomat Outpost sells just 1 and buys nothing", _on_ship(_trade), Trade),
        EventType("vp", "Victory points from anything else (colonies, trading posts, missions...), entered by hand",
                  _on_ship(_vp), Vp, for_others=True),
        EventType("yellow_die", "The yellow die of this turn: production, and flight speed with your boosters",
                  _yellow_die, YellowDie),
        EventType("collect", "Take what this roll of the yellow die produces for you (your built modules and your "
                  "starting colony with that number), as far as storage holds; once per roll",
                  _collect, Collect),
        EventType("fight_pirate", "Fight one of our printed pirates by name: the blue die plus your cannons must "
                  "reach the strength on its card", _fight_pirate, FightPirate),
        EventType("pirate_fight", "Fight a pirate by its strength: the blue die plus your cannons must reach it",
                  _pirate_fight, PirateFight),
    ), _ended),
    initial_state=initial_state,
    derive=derive,
    says=SAYS,
    words=WORDS,
    ending=lambda state: f"reached {VICTORY_POINTS} VP" if winners(state) else None,
    length=lambda state: state.get("rolls", 0),  # a turn starts with its production roll
    length_unit="turns",
)

apply = RULES.apply
