"""A Handful of Stars (2-4 players): victory points and their sources, systems controlled, the shared
shuffle track with its end trigger, hand size, and the tug-of-war combat with its casualties.

Numbers come from the rulebook in shared/seeds/004; where it is silent or ambiguous the choice is ours
and is listed under "Our readings" in docs/rules/handful_of_stars.md.
"""
from __future__ import annotations

import copy

from typing import Literal

from pydantic import Field

from ...generator.look.loader import our_game
from .base import (EventType, Fields, GameRules, RuleError, Seat, StaleError, State, Whole, final, own_turn,
                   still_at, scoreboard)

GAME = our_game("handful_of_stars")  # these numbers are in components/handful_of_stars/game.yaml, printed
SYSTEM_VP = dict(GAME.number("system_vp"))
SYSTEMS_DEALT = {2: 5, 3: 4, 4: 3}  # habitable cards per player; the same number of uninhabitable ones
SHUFFLE_TRIGGER = {int(players): space for players, space in GAME.number("shuffle_trigger").items()}
HAND_SIZE = GAME.number("hand_size")
PIECES = GAME.number("pieces_per_colour")
COLONIES_MAX = PIECES["colony_discs"] - PIECES["discs_marking_vp"]  # discs left for systems
OUTPOSTS_MAX = PIECES["outposts"]
RESERVE_CARDS = ("culture", "festival_of_culture", "artificial_intelligence", "dreadnoughts",
                 "super_dreadnoughts", "space_mines", "minefield_network", "mass_armies")
FLEET, STAR_BASE = GAME.number("combat_strength.fleet"), GAME.number("combat_strength.star_base")
CARD_STRENGTH = GAME.number("card_strength")
DREADNOUGHT, SUPER_DREADNOUGHT = CARD_STRENGTH["dreadnoughts"], CARD_STRENGTH["super_dreadnoughts"]
SPACE_MINES, RAPID_REACTION = CARD_STRENGTH["space_mines"], CARD_STRENGTH["rapid_reaction_force"]
MISSILE_MATTER = CARD_STRENGTH["missile_matter"]
OUR_CARD_STRENGTH = GAME.number("our_card_strength")  # our edition's race cards, as they print
WAR_FERVOUR, MINEFIELD_NETWORK = OUR_CARD_STRENGTH["war_fervour"], OUR_CARD_STRENGTH["minefield_network"]
PRINTED_STRENGTHS = {"fleet": FLEET, "star_base": STAR_BASE, "rapid_reaction_force": RAPID_REACTION,
                     "missile_matter": MISSILE_MATTER, "war_fervour": WAR_FERVOUR}  # for the buttons' labels
SIDES = ("attacker", "defender")
DEFENDED_SYSTEMS = ("home_world", "colony", "outpost", "units_only")
COUNT_LIMIT = 99
VP_LIMIT = 999


# ---- pure arithmetic -------------------------------------------------------------------------------

def starting_systems(player_count: int) -> dict[str, int]:
    """Home world and one colony chosen from the dealt cards; every other dealt card is an outpost."""
    return {"home_world": 1, "colonies": 1, "outposts": 2 * SYSTEMS_DEALT[player_count] - 2}


def systems_vp(home_world: int, colonies: int, outposts: int) -> int:
    return (SYSTEM_VP["home_world"] * home_world + SYSTEM_VP["colony"] * colonies
            + SYSTEM_VP["outpost"] * outposts)


def end_turn_count(player_count: int, trigger_turn: int) -> int:
    """Turns completed when the game ends, if the trigger was reached during turn `trigger_turn` (0-based):
    finish that round so everyone has had as many turns, then play one more full round."""
    return (trigger_turn // player_count + 2) * player_count


def side_strength(side: dict, reserve: dict | None, *, defending: bool = False, settled: bool = False) -> list:
    """Lines of (label, points) that make up one side's Combat Strength. `reserve` is None for a neutral
    system. Reserve cards count automatically: Dreadnoughts and Super Dreadnoughts need a fleet present,
    Space Mines need the defender to have a home world, colony or outpost in the system, Minefield Network
    only that the side defends a system it holds."""
    if reserve is None:
        return [(label, side[key]) for key, label in (("tile", "system tile"), ("alien", "alien counter"))
                if side[key]]
    fleets = side["fleets"]
    lines = [(f"{fleets} fleet{'s' * (fleets != 1)}", FLEET * fleets),
             (f"{side['star_bases']} star base{'s' * (side['star_bases'] != 1)}", STAR_BASE * side["star_bases"]),
             ("matter", side["matter"]), ("energy (High-Energy Weapons)", side["energy"]),
             ("population (Mass Armies)", side["population"]),
             (f"Rapid-Reaction Force ×{side['rapid_reaction']}", RAPID_REACTION * side["rapid_reaction"]),
             ("Missiles", MISSILE_MATTER * (side["missiles"] or 0)),
             ("War Fervour", WAR_FERVOUR * side.get("war_fervour", 0))]
    if fleets:
        lines += [(f"Dreadnoughts ×{reserve['dreadnoughts']}", DREADNOUGHT * reserve["dreadnoughts"]),
                  (f"Super Dreadnoughts ×{reserve['super_dreadnoughts']}",
                   SUPER_DREADNOUGHT * reserve["super_dreadnoughts"])]
    if defending and settled:
        lines.append((f"Space Mines ×{reserve['space_mines']}", SPACE_MINES * reserve["space_mines"]))
    if defending:
        minefields = reserve.get("minefield_network", 0)  # a table saved before the card was known has none
        lines.append((f"Minefield Network ×{minefields}", MINEFIELD_NETWORK * minefields))
    return [(label, points) for label, points in lines if points]


def leader(marker: int) -> str:
    """Who is winning at this marker (attacker minus defender): the defender holds ties."""
    return "attacker" if marker >= 1 else "defender"


def casualties(fleets: int, star_bases: int, *, outcome: str, liable: bool = True,
               star_bases_can_retreat: bool = False, force_shields: bool = False) -> dict:
    """Units a side loses when a combat ends.

    outcome: "won" (stays; loses half rounded down), "lost" (loses half rounded up, the rest retreats),
    "retreated" (no losses), "stayed" (the other side retreated; nothing lost).
    liable=False is the first-round rule: the side never had to take losses. Star bases that have to
    retreat but cannot are lost whatever happens, and Force Shields cannot save them.
    """
    units = fleets + star_bases
    by_rule = {"won": units // 2, "lost": -(-units // 2)}.get(outcome, 0)
    if not liable or force_shields:
        by_rule = 0
    must_leave = outcome in ("lost", "retreated")
    stranded = star_bases if must_leave and not star_bases_can_retreat else 0
    lost = max(by_rule, stranded)  # stranded star bases are the natural first losses
    return {"units": units, "by_rule": by_rule, "stranded_star_bases": stranded, "lost": lost,
            "retreat": units - lost if must_leave else 0, "stay": 0 if must_leave else units - lost}


# ---- state ----------------------------------------------------------------------------------------

def initial_state(players: list[dict], options: dict) -> State:
    if not 2 <= len(players) <= 4:
        raise RuleError("players", "A Handful of Stars is for 2 to 4 players")
    systems = starting_systems(len(players))
    empire = {**systems, "occupied": 0, "vp_by_hand": 0, "culture": [], "vp_counters": [],
              "reserve": {card: 0 for card in RESERVE_CARDS if card != "culture"}}
    first = options.get("first_player", 1)
    if isinstance(first, bool) or not isinstance(first, int) or not 1 <= first <= len(players):
        raise RuleError("options.first_player", f"the first player is seat 1 to {len(players)}, got {first!r}")
    return {"players": players, "empires": {p["id"]: copy.deepcopy(empire) for p in players},
            "shuffles": 0, "turns": 0, "first": first - 1, "trigger_turn": None, "combat": None}


def vp_sources(empire: dict) -> dict[str, int]:
    festival = empire["reserve"]["festival_of_culture"] > 0
    return {"systems": systems_vp(empire["home_world"], empire["colonies"], empire["outposts"]),
            "culture": sum(empire["culture"]),
            "festival_of_culture": len(empire["culture"]) + len(empire["vp_counters"]) if festival else 0,
            "development_counters": sum(empire["vp_counters"]),
            "by_hand": empire["vp_by_hand"]}


def systems_controlled(empire: dict) -> int:
    return empire["home_world"] + empire["colonies"] + empire["outposts"] + empire["occupied"]


def _turn_info(state: State) -> dict:
    n = len(state["players"])
    trigger = SHUFFLE_TRIGGER[n]
    end = None if state["trigger_turn"] is None else end_turn_count(n, state["trigger_turn"])
    over = end is not None and state["turns"] >= end
    active = None if over else state["players"][(state["first"] + state["turns"]) % n]["id"]
    return {"trigger": trigger, "shuffles_to_trigger": max(0, trigger - state["shuffles"]),
            "turns_left": None if end is None else max(0, end - state["turns"]),
            "turns": state["turns"], "round": state["turns"] // n + 1, "active": active, "game_over": over}


# ---- event payloads ---------------------------------------------------------------------------------

class _EmpireChange(Fields):
    """A change to the empire of the event's player (the phone's own seat, or another where allowed)."""


class LoseSystem(_EmpireChange):
    kind: Literal[*SYSTEM_VP] = Field(description="home_world, colony or outpost")


class Occupy(_EmpireChange):
    delta: Whole = Field(ge=-COUNT_LIMIT, le=COUNT_LIMIT, description="whole number")


class Reserve(_EmpireChange):
    card: Literal[*RESERVE_CARDS] = Field(description=", ".join(RESERVE_CARDS))
    change: Literal["add", "remove"] = Field("add", description="add or remove")
    vp: Whole = Field(None, ge=1, le=9, description="the VP printed on a Culture card")


class VpCounter(_EmpireChange):
    vp: Whole = Field(ge=1, le=9, description="the VP printed on it")
    change: Literal["add", "remove"] = Field("add", description="add or remove")


class Vp(_EmpireChange):
    delta: Whole = Field(ge=-VP_LIMIT, le=VP_LIMIT, description="whole number")


class Shuffle(Fields):
    shuffles: Whole = Field(None, ge=0, description="the shuffle count the button showed (derived shuffles); "
                                                    "refused once the marker has moved on")


class EndTurn(Fields):
    turn: Whole = Field(None, ge=0, description="turns played when the button was shown (derived turns); refused once past")


class FirstPlayer(Fields):
    target: Seat = Field(description="player id")


class CombatStart(Fields):
    defender: str = Field(max_length=40, description="player id or neutral")
    fleets: Whole = Field(ge=0, le=COUNT_LIMIT, description="your fleets there")
    star_bases: Whole = Field(0, ge=0, le=COUNT_LIMIT, description="your star bases there")
    system: Literal[*DEFENDED_SYSTEMS] = Field(None, description="for a player: home_world, colony, outpost or units_only")
    defender_fleets: Whole = Field(0, ge=0, le=COUNT_LIMIT, description="the defender's fleets there")
    defender_star_bases: Whole = Field(0, ge=0, le=COUNT_LIMIT, description="the defender's star bases there")
    defender_star_base_movement: Whole = Field(0, ge=0, le=1, description="1 if the defender's star bases can retreat")
    tile: Whole = Field(None, ge=0, le=COUNT_LIMIT, description="neutral: the system tile's strength")
    alien: Whole = Field(0, ge=0, le=COUNT_LIMIT, description="neutral: the alien counter")


class CombatAdd(Fields):
    what: Literal["fleets", "star_bases", "matter", "energy", "population", "rapid_reaction_force"] = Field(
        description="fleets, star_bases, matter, energy, population or rapid_reaction_force")
    amount: Whole = Field(ge=-COUNT_LIMIT, le=COUNT_LIMIT, description="how many (negative: fleets or star bases leave)")


COMBAT_CARDS = ("high_energy_weapons", "missiles", "war_fervour", "star_bomb", "force_shields", "diplomacy",
                "retreat")  # played from the hand during a combat, as their printed Combat tag says


class CombatCard(Fields):
    card: Literal[*COMBAT_CARDS] = Field(description=", ".join(COMBAT_CARDS))
    matter: Whole = Field(None, ge=0, le=COUNT_LIMIT, description="Missiles: matter on the two cards drawn")
    unit: Literal["fleet", "star_base"] = Field(None, description="Star Bomb: fleet or star_base")


def _required(value, name: str):
    if value is None:
        raise RuleError(name, "required field is missing")
    return value


# ---- per-player events ----------------------------------------------------------------------------

def _settle(empire: dict) -> None:
    """A new outpost or colony goes where your units already stood, so that system stops being units-only."""
    empire["occupied"] = max(0, empire["occupied"] - 1)


def _room_for(empire: dict, key: str) -> None:
    """Refuse a colony or outpost the printed set has no piece left for."""
    most, piece = {"colonies": (COLONIES_MAX, "colony disc"), "outposts": (OUTPOSTS_MAX, "outpost cube")}[key]
    if empire[key] >= most:
        raise RuleError("type", f"all your {most} {piece}s are on the board"
                        + (f" (the other {PIECES['discs_marking_vp']} discs mark your VP)" if key == "colonies" else ""))


def _outpost(state: State, player: str, fields: _EmpireChange) -> None:
    empire = state["empires"][player]
    _room_for(empire, "outposts")
    empire["outposts"] += 1
    _settle(empire)


def _colony(state: State, player: str, fields: _EmpireChange) -> None:
    empire = state["empires"][player]
    _room_for(empire, "colonies")
    empire["colonies"] += 1
    _settle(empire)


def _upgrade_outpost(state: State, player: str, fields: _EmpireChange) -> None:
    empire = state["empires"][player]
    if not empire["outposts"]:
        raise RuleError("type", "there is no outpost to upgrade")
    _room_for(empire, "colonies")
    empire["outposts"] -= 1
    empire["colonies"] += 1


def _lose(empire: dict, kind: str, field: str) -> None:
    key = {"home_world": "home_world", "colony": "colonies", "outpost": "outposts", "units_only": "occupied"}[kind]
    if not empire[key]:
        raise RuleError(field, f"there is no {kind.replace('_', ' ')} to lose")
    empire[key] -= 1


def _lose_system(state: State, player: str, fields: LoseSystem) -> None:
    _lose(state["empires"][player], fields.kind, "kind")


def _add_delta(empire: dict, key: str, delta: int, limit: int, what: str) -> None:
    value = empire[key] + delta
    if not 0 <= value <= limit:
        raise RuleError("delta", f"{what} would be {value}, outside 0-{limit}")
    empire[key] = value


def _occupy(state: State, player: str, fields: Occupy) -> None:
    _add_delta(state["empires"][player], "occupied", fields.delta, COUNT_LIMIT, "systems held by units alone")


def _add_or_remove(values: list[int], vp: int, change: str, what: str) -> None:
    if change == "add":
        values.append(vp)
    elif vp in values:
        values.remove(vp)
    else:
        raise RuleError("vp", f"no {what} worth {vp} VP to remove")


def _reserve(state: State, player: str, fields: Reserve) -> None:
    empire = state["empires"][player]
    card, change = fields.card, fields.change
    if card == "culture":
        _add_or_remove(empire["culture"], _required(fields.vp, "vp"), change, "culture card")
        return
    count = empire["reserve"].get(card, 0) + (1 if change == "add" else -1)
    if not 0 <= count <= 9:
        raise RuleError("change", f"{card.replace('_', ' ')} in reserve would be {count}")
    empire["reserve"][card] = count


def _vp_counter(state: State, player: str, fields: VpCounter) -> None:
    _add_or_remove(state["empires"][player]["vp_counters"], fields.vp, fields.change, "development counter")


def _vp(state: State, player: str, fields: Vp) -> None:
    _add_delta(state["empires"][player], "vp_by_hand", fields.delta, VP_LIMIT, "victory points by hand")


# ---- table events ---------------------------------------------------------------------------------

def _shuffle(state: State, player: str, fields: Shuffle) -> None:
    """Rulebook p. 15, Moving the Shuffle marker: each time a player shuffles their discard pile into a new
    deck, the marker moves up one space. Two phones tapping "Shuffled" for that one shuffle both showed the
    same count: the second tap is refused, so the shuffle counts once."""
    if fields.shuffles is not None and fields.shuffles != state["shuffles"]:
        raise StaleError("shuffles", f"the shuffle marker has already moved to {state['shuffles']}; that "
                                     f"shuffle is counted (if you shuffled too, tap again)")
    state["shuffles"] += 1
    if state["trigger_turn"] is None and state["shuffles"] >= SHUFFLE_TRIGGER[len(state["players"])]:
        state["trigger_turn"] = state["turns"]


def _end_turn(state: State, player: str, fields: EndTurn) -> None:
    active = _turn_info(state)["active"]
    name = next((p["name"] for p in state["players"] if p["id"] == active), "nobody")
    still_at("turn", fields.turn, state["turns"], f"{name}'s turn")
    # Rulebook, Turn structure: "When you are the active player you are allowed to perform two actions. Once
    # you have completed your two actions you refill your hand": the turn is the active player's to end.
    # A double tap that lands on "End Ben's turn" on Ann's phone only asks.
    own_turn(player, active, name)
    if state["combat"] and state["combat"]["result"] is None:
        raise RuleError("type", "finish the combat before ending the turn")
    state["turns"] += 1


def _first_player(state: State, player: str, fields: FirstPlayer) -> None:
    if state["turns"]:
        raise RuleError("target", "the first player is chosen before the first turn ends")
    state["first"] = [p["id"] for p in state["players"]].index(fields.target)


# ---- combat ---------------------------------------------------------------------------------------

def _new_side(fleets: int, star_bases: int, star_bases_can_retreat: bool) -> dict:
    return {"fleets": fleets, "star_bases": star_bases, "matter": 0, "energy": 0, "population": 0,
            "rapid_reaction": 0, "missiles": None, "war_fervour": 0, "high_energy": False, "force_shields": False,
            "added": False, "bombed": 0, "star_bases_can_retreat": star_bases_can_retreat}


def _strengths(state: State, combat: dict) -> dict[str, int]:
    att = side_strength(combat["attacker_side"], state["empires"][combat["attacker"]]["reserve"])
    if combat["defender"] == "neutral":
        dfn = side_strength(combat["defender_side"], None)
    else:
        dfn = side_strength(combat["defender_side"], state["empires"][combat["defender"]]["reserve"],
                            defending=True, settled=combat["system"] != "units_only")
    return {"attacker": sum(p for _, p in att), "defender": sum(p for _, p in dfn),
            "attacker_lines": att, "defender_lines": dfn}


def _marker(state: State, combat: dict) -> int:
    s = _strengths(state, combat)
    return s["attacker"] - s["defender"]


def _combat_start(state: State, attacker: str, fields: CombatStart) -> None:
    if state["combat"] and state["combat"]["result"] is None:
        raise RuleError("type", "a combat is already in progress; end it first")
    defenders = [p["id"] for p in state["players"] if p["id"] != attacker] + ["neutral"]
    defender = fields.defender
    if defender not in defenders:
        raise RuleError("defender", f"expected one of {', '.join(defenders)}, got {defender!r}")
    fleets, star_bases = fields.fleets, fields.star_bases
    if fleets + star_bases == 0:
        raise RuleError("fleets", "the attacker needs at least one fleet in the system")
    combat = {"attacker": attacker, "defender": defender, "phase": "opening", "crossed": False, "result": None,
              "last_added": None,
              "attacker_side": _new_side(fleets, star_bases, True)}
    if defender == "neutral":
        combat["system"] = "neutral"
        combat["defender_side"] = {"tile": _required(fields.tile, "tile"), "alien": fields.alien}
    else:
        system = _required(fields.system, "system")
        d_fleets, d_bases = fields.defender_fleets, fields.defender_star_bases
        probe = copy.deepcopy(state["empires"][defender])
        _lose(probe, system, "system")  # the defender must hold such a system
        if system == "units_only" and d_fleets + d_bases == 0:
            raise RuleError("defender_fleets", "a system held by units alone needs at least one defending unit")
        movement = bool(fields.defender_star_base_movement)
        combat["system"] = system
        combat["defender_side"] = _new_side(d_fleets, d_bases, movement)
    combat["start_leader"] = leader(_marker(state, combat))
    state["combat"] = combat


def _running_combat(state: State, player: str, *, or_just_ended: bool = False) -> tuple[dict, str]:
    """The combat in progress (or the last one, for cards played after it) and the acting player's side."""
    combat = state["combat"]
    if not combat or (combat["result"] is not None and not or_just_ended):
        raise RuleError("type", "no combat is in progress")
    side = next((s for s in SIDES if combat[s] == player), None)
    if side is None:
        raise RuleError("player", "only the attacker or the defender acts in this combat")
    return combat, side


def _other(side: str) -> str:
    return "defender" if side == "attacker" else "attacker"


def _may_add(state: State, combat: dict) -> list[str]:
    """The side behind adds strength; having started, it may go on past the marker (Blue's two fleets at
    Berylith) until the other side answers."""
    behind = _other(leader(_marker(state, combat)))
    last = combat["last_added"]
    return [s for s in SIDES if combat[s] != "neutral" and s in (behind, last)]


def _require_behind(state: State, combat: dict, side: str) -> None:
    if side not in _may_add(state, combat):
        raise RuleError("player", f"the {side} is winning; only the side behind adds strength")
    combat["last_added"] = side


def _after_change(state: State, combat: dict) -> None:
    """Note when the marker crossed to the other side (both sides are then liable for losses), and end
    the combat at once when a player's side has no pieces left in the system."""
    combat["phase"] = "fighting"
    if leader(_marker(state, combat)) != combat["start_leader"]:
        combat["crossed"] = True
    if combat["defender"] == "neutral":
        return
    for side in SIDES:
        units = combat[f"{side}_side"]["fleets"] + combat[f"{side}_side"]["star_bases"]
        has_settlement = side == "defender" and combat["system"] in ("home_world", "colony", "outpost")
        if units == 0 and not has_settlement:
            _finish(state, combat, winner=_other(side), how="no_pieces")
            return


def _finish(state: State, combat: dict, *, winner: str | None, how: str, retreated: str | None = None) -> None:
    combat["phase"] = "over"
    combat["result"] = {"winner": winner, "how": how, "retreated": retreated}
    if winner == "attacker":
        state["empires"][combat["attacker"]]["occupied"] += 1
        if combat["defender"] != "neutral":
            _lose(state["empires"][combat["defender"]], combat["system"], "system")


def _combat_add(state: State, player: str, fields: CombatAdd) -> None:
    combat, side = _running_combat(state, player)
    what, amount = fields.what, fields.amount
    if what not in ("fleets", "star_bases") and amount < 1:
        raise RuleError("amount", f"must be at least 1, got {amount}")
    if amount == 0:
        raise RuleError("amount", "must not be 0")
    own = combat[f"{side}_side"]
    if amount < 0:
        if own[what] + amount < 0:
            raise RuleError("amount", f"only {own[what]} {what.replace('_', ' ')} are in the system")
        own[what] += amount
        if leader(_marker(state, combat)) != side:
            own[what] -= amount
            raise RuleError("amount", "units may leave only while their side stays winning")
        _after_change(state, combat)
        return
    _require_behind(state, combat, side)
    if what == "energy" and not own["high_energy"]:
        raise RuleError("what", "energy counts only after playing High-Energy Weapons in this combat")
    if what == "population" and not state["empires"][player]["reserve"]["mass_armies"]:
        raise RuleError("what", "population counts only with Mass Armies in reserve")
    key = "rapid_reaction" if what == "rapid_reaction_force" else what
    own[key] += amount
    own["added"] = True
    _after_change(state, combat)


def _combat_card(state: State, player: str, fields: CombatCard) -> None:
    card = fields.card
    combat, side = _running_combat(state, player, or_just_ended=card == "force_shields")
    own, theirs = combat[f"{side}_side"], combat[f"{_other(side)}_side"]
    if card == "high_energy_weapons":
        own["high_energy"] = True
    elif card == "force_shields":
        own["force_shields"] = True
    elif card == "missiles":
        if own["missiles"] is not None:
            raise RuleError("card", "Missiles can be used once per combat")
        _require_behind(state, combat, side)
        own["missiles"] = _required(fields.matter, "matter")
        own["added"] = True
        _after_change(state, combat)
    elif card == "war_fervour":
        if side != "attacker":
            raise RuleError("card", "War Fervour is played only by the attacker")
        _require_behind(state, combat, side)
        own["war_fervour"] = own.get("war_fervour", 0) + 1
        own["added"] = True
        _after_change(state, combat)
    elif card == "star_bomb":
        if combat[_other(side)] == "neutral":
            raise RuleError("card", "a Star Bomb cannot be used against an alien counter")
        unit = _required(fields.unit, "unit")
        key = "fleets" if unit == "fleet" else "star_bases"
        if not theirs[key]:
            raise RuleError("unit", f"the other side has no {unit.replace('_', ' ')} here")
        theirs[key] -= 1
        theirs["bombed"] += 1
        _after_change(state, combat)
    elif card == "diplomacy":
        if side != "defender" or combat["defender"] == "neutral":
            raise RuleError("card", "only a player who is attacked plays Diplomacy")
        if own["added"]:
            raise RuleError("card", "Diplomacy cannot be played after adding to your Combat Strength")
        _finish(state, combat, winner=None, how="diplomacy", retreated="attacker")
    else:
        _finish(state, combat, winner=None, how="retreat_card", retreated=side)


def _combat_retreat(state: State, player: str, fields: Fields) -> None:
    combat, side = _running_combat(state, player)
    if combat["phase"] != "opening":
        raise RuleError("type", "retreating without losses is possible only before anyone adds strength; "
                                "later it takes the Retreat card")
    own = combat[f"{side}_side"]
    if side == "defender" and not own["fleets"] and not own["star_bases_can_retreat"]:
        raise RuleError("player", "the defender has no unit able to retreat")
    _finish(state, combat, winner=None, how="retreat", retreated=side)


def _combat_end(state: State, player: str, fields: Fields) -> None:
    combat, _ = _running_combat(state, player)
    winner = leader(_marker(state, combat))
    _finish(state, combat, winner=winner, how="fight" if combat["crossed"] else "first_round")


def combat_report(state: State) -> dict | None:
    """The combat tally at a glance: strengths, marker, who must act, and casualties (final, or what they
    would be if the side behind stopped now)."""
    combat = state["combat"]
    if combat is None:
        return None
    strengths = _strengths(state, combat)
    marker = strengths["attacker"] - strengths["defender"]
    result = combat["result"]
    winner = result["winner"] if result else leader(marker)
    how = result["how"] if result else ("fight" if combat["crossed"] else "first_round")
    losses = {}
    for side in SIDES:
        if combat[side] == "neutral":
            continue
        units = combat[f"{side}_side"]
        retreated = result["retreated"] if result else None
        if how in ("retreat", "retreat_card", "diplomacy"):
            outcome = "retreated" if retreated == side else "stayed"
        else:
            outcome = "won" if winner == side else "lost"
        liable = how == "fight" or (outcome == "lost" and how != "no_pieces")
        losses[side] = casualties(units["fleets"], units["star_bases"], outcome=outcome, liable=liable,
                                  star_bases_can_retreat=units["star_bases_can_retreat"],
                                  force_shields=units["force_shields"])
    behind = None if result else ("defender" if leader(marker) == "attacker" else "attacker")
    flags = ("fleets", "star_bases", "high_energy", "force_shields", "added")
    sides = {s: {**{key: combat[f"{s}_side"][key] for key in flags},
                 "missiles_used": combat[f"{s}_side"]["missiles"] is not None}
             for s in SIDES if combat[s] != "neutral"}
    return {"attacker": combat["attacker"], "defender": combat["defender"], "system": combat["system"],
            "phase": combat["phase"], "strength": {s: strengths[s] for s in SIDES},
            "lines": {s: [list(line) for line in strengths[f"{s}_lines"]] for s in SIDES},
            "marker": marker, "ahead": leader(marker), "ahead_by": abs(marker),
            "needed": None if result else (1 - marker if behind == "attacker" else marker),
            "may_add": [] if result else _may_add(state, combat),
            "behind": behind, "both_liable": combat["crossed"], "result": result,
            "winner": winner, "how": how, "casualties": losses, "sides": sides,
            "alien_removed": bool(result and combat["defender"] == "neutral" and winner == "attacker")}


# ---- the module's contract ------------------------------------------------------------------------

def _on_copy(change):
    """A handler that makes its change on a copy of the state."""
    def handler(state: State, player: str, fields: Fields) -> State:
        new = copy.deepcopy(state)
        change(new, player, fields)
        return new
    return handler


def derive(state: State) -> dict:
    players = {}
    for p in state["players"]:
        empire = state["empires"][p["id"]]
        sources = vp_sources(empire)
        players[p["id"]] = {
            "vp": sum(sources.values()), "vp_sources": sources, "systems": systems_controlled(empire),
            "home_world": empire["home_world"], "colonies": empire["colonies"], "outposts": empire["outposts"],
            "occupied": empire["occupied"], "culture": list(empire["culture"]),
            "vp_counters": list(empire["vp_counters"]), "reserve": dict(empire["reserve"]),
            "hand_size": HAND_SIZE + (1 if empire["reserve"]["artificial_intelligence"] else 0)}
    turn = _turn_info(state)
    order = sorted(players, key=lambda pid: (players[pid]["vp"], players[pid]["systems"]), reverse=True)
    best = (players[order[0]]["vp"], players[order[0]]["systems"])
    leaders = [pid for pid in order if (players[pid]["vp"], players[pid]["systems"]) == best]
    return {"players": players, "shuffles": state["shuffles"], **turn, "standings": order,
            "leaders": leaders, "winners": leaders if turn["game_over"] else [],
            "scores": {pid: p["vp"] for pid, p in players.items()},
            "scoreboard": scoreboard(
                state["players"], {pid: p["vp"] for pid, p in players.items()}, "VP",
                ties={pid: p["systems"] for pid, p in players.items()}, tie_label="systems",
                tie_rule="Most VP wins. Level on VP, the one controlling more systems wins; still level, "
                         "it stays a tie.", turn=turn["active"], over=turn["game_over"], winners=leaders),
            "combat": combat_report(state), "strengths": PRINTED_STRENGTHS}


# How the history tells each event, after the player's name (GameRules.tell).
SAYS = {
    'outpost': 'places an outpost',
    'colony': 'places a colony',
    'upgrade_outpost': 'turns an outpost into a colony',
    'lose_system': 'loses a {kind}',
    'occupy': '{delta:+} systems held by units alone',
    'reserve': '{change} the Reserve card {card}',
    'vp_counter': '{change} a {vp} VP development counter',
    'vp': '{delta:+} VP by hand',
    'shuffle': 'reshuffles: the shuffle marker moves up',
    'end_turn': 'ends the turn',
    'first_player': 'chooses {target} to play first',
    'combat_start': 'invades {defender} ({system}) with {fleets} fleets and {star_bases} star bases',
    'combat_add': 'adds {amount} {what} to the combat',
    'combat_card': 'plays {card}',
    'combat_retreat': 'retreats',
    'combat_end': 'ends the combat',
}
WORDS = {
    'add': 'takes',
    'remove': 'gives up',
    'units_only': 'units only',
    'neutral': 'the aliens',
}


def _ended(state: State) -> str | None:
    """Rulebook p. 23, Ending the game: after the round the trigger falls in and one more round, the game is
    over; the most VP wins."""
    if not _turn_info(state)["game_over"]:
        return None
    derived = derive(state)
    names = {p["id"]: p["name"] for p in state["players"]}
    return f"{' and '.join(names[pid] for pid in derived['winners'])} won, after the final round"


RULES = GameRules.of(
    GAME,
    event_types=final((
        EventType("outpost", "Place an outpost cube where your units stand: +3 VP", _on_copy(_outpost), _EmpireChange),
        EventType("colony", "Place a colony disc where your units stand: +5 VP", _on_copy(_colony), _EmpireChange),
        EventType("upgrade_outpost", "Replace one of your outposts with a colony: +2 VP",
                  _on_copy(_upgrade_outpost), _EmpireChange),
        EventType("lose_system", "Lose a system: home world −7, colony −5, outpost −3 VP",
                  _on_copy(_lose_system), LoseSystem),
        EventType("occupy", "Systems you hold with military units only (they count for the tie-breaker)",
                  _on_copy(_occupy), Occupy),
        EventType("reserve", "Put a card with a lasting effect into your Reserve, or take it out",
                  _on_copy(_reserve), Reserve),
        EventType("vp_counter", "Take or give up a Development counter that shows victory points",
                  _on_copy(_vp_counter), VpCounter),
        EventType("vp", "Victory points from anything else (Technology cards...), entered by hand", _on_copy(_vp), Vp,
                  for_others=True),
        EventType("shuffle", "You reshuffled your discard pile: the shared shuffle marker moves up one",
                  _on_copy(_shuffle), Shuffle),
        EventType("end_turn", "The active player has taken two actions and refilled the hand (their phone taps "
                  "it; another phone may for them, after asking: confirm yes)", _on_copy(_end_turn), EndTurn,
                  for_others=True, asks=True),
        EventType("first_player", "Choose who plays first (before the first turn ends)",
                  _on_copy(_first_player), FirstPlayer),
        EventType("combat_start", "You invade a system: set up the tug-of-war", _on_copy(_combat_start), CombatStart),
        EventType("combat_add", "The side behind adds strength (or the side ahead moves fleets away)",
                  _on_copy(_combat_add), CombatAdd),
        EventType("combat_card", "Play a combat card", _on_copy(_combat_card), CombatCard),
        EventType("combat_retreat", "Retreat before anyone adds strength; nobody takes losses",
                  _on_copy(_combat_retreat)),
        EventType("combat_end", "The side behind stops: the side ahead wins and casualties are counted",
                  _on_copy(_combat_end)),
    ), _ended),
    initial_state=initial_state,
    derive=derive,
    options={"first_player": 1},  # the seat (1 to 4) that plays first: the create form asks for it
    says=SAYS,
    words=WORDS,
    ending=lambda state: "the round after the shuffle trigger" if _turn_info(state)["game_over"] else None,
    length=lambda state: state["turns"] // len(state["players"]),
    play_order=lambda state: [state["players"][(state["first"] + i) % len(state["players"])]["id"]
                              for i in range(len(state["players"]))],
)

apply = RULES.apply
