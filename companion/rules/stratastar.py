"""Stratastar: empire counts, support limits, draw sizes, turn phases and a battle calculator.

Players track what they own (fleets, colonies, stargates, homeworld); the module does the arithmetic the
rulebook buries: how many fleets an empire can support, how many cards a hand refills to, who wins a battle
and what it destroys. Every number comes from the Stratastar rulebook; our readings are in
docs/rules/stratastar.md.
"""
from __future__ import annotations

from typing import Callable, Literal

from pydantic import Field

from ...generator.look.loader import our_game
from .base import (SEALED, EventType, Fields, GameRules, RuleError, Seat, State, Whole, final, own_turn,
                   still_at, scoreboard)

GAME = our_game("stratastar")  # every number below is in components/stratastar/game.yaml, printed on the set
PHASES = tuple(GAME.number("phases"))
WORLDS_TO_WIN = GAME.number("worlds_to_win")
FLEET_CHITS, STARGATE_CHITS = GAME.number("fleet_chits"), GAME.number("stargate_chits")
COLONY_CHITS, MAP_WORLDS = GAME.number("colony_chits"), GAME.number("world_chits")
WARFLEET_CHITS = GAME.number("warfleet_chits")
START_FLEETS, START_STARGATES = GAME.number("start_fleets"), GAME.number("start_stargates")
HOMEWORLD_SUPPORT, COLONIES_PER_SUPPORT = GAME.number("homeworld_support"), GAME.number("colonies_per_support")
BASE_DRAW, COLONIES_PER_DRAW = GAME.number("base_draw"), GAME.number("colonies_per_draw")
FORCE = dict(GAME.number("force"))
SIDE_FIELDS = ("fleets", "warfleets", "colonies", "stargates", "homeworld", "attack", "power_attack")


class NextPhase(Fields):
    step: Whole = Field(None, ge=0, description="the step the button showed (derived step); refused once past")


class PowerCards(Fields):
    use: Literal["yes", "no"] = Field(description="yes or no")


class Logistics(Fields):
    cards: Whole = Field(1, ge=1, le=20, description="how many Build cards")


class RemoveUnsupported(Fields):
    warfleets: Whole = Field(0, ge=0, le=FLEET_CHITS, description="how many of the removed are warfleets")


class Lose(Fields):
    what: Literal["fleet", "warfleet", "stargate", "world", "colony"] = Field(
        description="fleet, warfleet, stargate, colony (one colony off a terraformed world) or world")
    count: Whole = Field(1, ge=1, le=COLONY_CHITS, description="how many")
    colonies: Whole = Field(1, ge=1, le=COLONY_CHITS, description="for a world: colonies it had")


class BattleStart(Fields):
    defender: Seat = Field(description="the opponent's player id")


class BattleSide(Fields):
    fleets: Whole = Field(0, ge=0, le=99, description="fleets in the space")
    warfleets: Whole = Field(0, ge=0, le=99, description="warfleets in the space (3 force each)")
    colonies: Whole = Field(0, ge=0, le=99, description="your colonies in the space")
    stargates: Whole = Field(0, ge=0, le=99, description="your stargates in the space (no force)")
    homeworld: Whole = Field(0, ge=0, le=1, description="1 if this is your homeworld (4 force)")
    attack: Whole = Field(0, ge=0, le=99, description="plain Attack cards revealed")
    power_attack: Whole = Field(0, ge=0, le=99, description="starred Power Attack cards revealed (2 force each)")


def initial_state(players: list[dict], options: dict) -> State:
    empire = {"fleets": START_FLEETS, "warfleets": 0, "stargates": START_STARGATES, "colonies": 0, "worlds": 0,
              "homeworld": "held", "captured": [], "logistics": 0}
    return {"players": players, "power_cards": bool(options.get("power_cards", False)),
            "empires": {p["id"]: dict(empire) for p in players},
            "turn": {"round": 1, "active": 0, "phase": 0}, "battle": None, "last_battle": None}


# ---- pure arithmetic -------------------------------------------------------------------------------------

def support_limit(empire: dict) -> int:
    """Fleets an empire may keep: 2 for a held homeworld, +1 per 2 colonies (Logistics cards count as colonies)."""
    base = HOMEWORLD_SUPPORT if empire["homeworld"] == "held" else 0
    return base + (empire["colonies"] + empire["logistics"]) // COLONIES_PER_SUPPORT


def unsupported(empire: dict) -> int:
    return max(0, empire["fleets"] + empire["warfleets"] - support_limit(empire))


def max_draw(empire: dict) -> int:
    return BASE_DRAW + empire["colonies"] // COLONIES_PER_DRAW


def force(side: dict) -> int:
    return sum(FORCE[name] * side.get(name, 0) for name in FORCE)


def battle_outcome(attacker: dict, defender: dict) -> dict:
    """Resolve one battle: the higher force wins untouched; the loser loses every unit (and stargate) in the
    space; equal forces destroy both sides. A losing side that held its homeworld there has it captured."""
    totals = {"attacker": force(attacker), "defender": force(defender)}
    if totals["attacker"] == totals["defender"]:
        result, losers = "mutual", ("attacker", "defender")
    else:
        result = "attacker" if totals["attacker"] > totals["defender"] else "defender"
        losers = ("defender" if result == "attacker" else "attacker",)
    sides = {"attacker": attacker, "defender": defender}
    destroyed = {role: {name: (sides[role].get(name, 0) if role in losers else 0)
                        for name in ("fleets", "warfleets", "colonies", "stargates")}
                 for role in sides}
    captured = result in ("attacker", "defender") and bool(sides[losers[0]].get("homeworld"))
    return {"force": totals, "result": result, "destroyed": destroyed, "homeworld_captured": captured}


# ---- events ----------------------------------------------------------------------------------------------

def _copy(state: State) -> State:
    return {**state, "empires": {pid: {**e, "captured": list(e["captured"])} for pid, e in state["empires"].items()},
            "turn": dict(state["turn"])}


def _active_id(state: State) -> str:
    return state["players"][state["turn"]["active"]]["id"]


def _require_active(state: State, player: str) -> None:
    if player != _active_id(state):
        raise RuleError("player", "only the active player may do this (it is their turn)")


def _require_home(empire: dict) -> None:
    if empire["homeworld"] != "held":
        raise RuleError("player", "needs a homeworld you still hold")


def _next_phase(state: State) -> State:
    turn = state["turn"]
    if turn["phase"] + 1 < len(PHASES):
        return {**state, "turn": {**turn, "phase": turn["phase"] + 1}}
    active = (turn["active"] + 1) % len(state["players"])
    empires = {pid: {**e, "logistics": 0} for pid, e in state["empires"].items()}
    return {**state, "empires": empires,
            "turn": {"round": turn["round"] + (active == 0), "active": active, "phase": 0}}


def _grow(empire: dict, kind: str, worlds_taken: int) -> None:
    if kind in ("build_fleet", "build_warfleet"):
        _require_home(empire)
        if kind == "build_fleet" and empire["fleets"] >= FLEET_CHITS:
            raise RuleError("type", f"all {FLEET_CHITS} fleet chits are on the map")
        if kind == "build_warfleet" and empire["warfleets"] >= WARFLEET_CHITS:
            raise RuleError("type", f"all {WARFLEET_CHITS} warfleet chits are on the map")
        empire["fleets" if kind == "build_fleet" else "warfleets"] += 1
    elif kind == "colonise":
        if empire["colonies"] >= COLONY_CHITS or worlds_taken >= MAP_WORLDS:
            raise RuleError("type", f"no colony chit or world left ({COLONY_CHITS} chits each, {MAP_WORLDS} worlds "
                                    f"on the map, {worlds_taken} colonised)")
        empire["colonies"] += 1
        empire["worlds"] += 1
    elif kind == "terraform":
        if not empire["worlds"]:
            raise RuleError("type", "terraforming needs a world you have colonised")
        if empire["colonies"] >= COLONY_CHITS:
            raise RuleError("type", f"all {COLONY_CHITS} colony chits are on the map")
        empire["colonies"] += 1
    elif kind == "build_stargate":
        if not empire["worlds"]:
            raise RuleError("type", "a stargate is built at one of your colonies; you have none")
        if empire["stargates"] >= STARGATE_CHITS:
            raise RuleError("type", f"all {STARGATE_CHITS} stargate chits are on the map")
        empire["stargates"] += 1


def _lose(empire: dict, fields: Lose) -> None:
    what, count = fields.what, fields.count
    if what == "world":  # `count` worlds, each with `colonies` colonies
        colonies = fields.colonies
        for _ in range(count):
            if not empire["worlds"] or colonies > empire["colonies"] - (empire["worlds"] - 1):
                raise RuleError("colonies", "you do not have that many worlds with that many colonies")
            empire["worlds"] -= 1
            empire["colonies"] -= colonies
        return
    key = {"fleet": "fleets", "warfleet": "warfleets", "stargate": "stargates", "colony": "colonies"}[what]
    floor = empire["worlds"] if what == "colony" else 0  # every colonised world keeps at least one colony
    if empire[key] - count < floor:
        raise RuleError("count", f"you have only {empire[key] - floor} {key} that can go")
    empire[key] -= count


def _remove_unsupported(empire: dict, fields: RemoveUnsupported) -> None:
    excess, warfleets = unsupported(empire), fields.warfleets
    if not excess:
        raise RuleError("type", "every fleet is supported; nothing to remove")
    if warfleets > excess:
        raise RuleError("warfleets", f"must be at most {excess}, got {warfleets}")
    if warfleets > empire["warfleets"] or excess - warfleets > empire["fleets"]:
        raise RuleError("warfleets", f"choose which {excess} to remove from your fleets and warfleets")
    empire["warfleets"] -= warfleets
    empire["fleets"] -= excess - warfleets


def _battle_side(state: State, player: str, fields: BattleSide) -> dict:
    empire = state["empires"][player]
    side = fields.model_dump()
    for name in ("fleets", "warfleets", "colonies", "stargates"):
        if side[name] > empire[name]:
            raise RuleError(name, f"you have only {empire[name]} {name}")
    if side["homeworld"] > 1 or (side["homeworld"] and empire["homeworld"] != "held"):
        raise RuleError("homeworld", "1 if the battle is at your own (still held) homeworld, else 0")
    other = next(side for pid, side in state["battle"]["sides"].items() if pid != player)
    if side["homeworld"] and other["homeworld"]:
        raise RuleError("homeworld", "the other side already fights at its homeworld; a space holds one")
    if side["power_attack"] and not state["power_cards"]:
        raise RuleError("power_attack", "this table plays without starred Power cards")
    return side


def _battle_start(state: State, player: str, fields: BattleStart) -> State:
    """Rulebook, Turn sequence: Battle is the sixth phase of the active player's turn; "a battle occurs if
    opposing units occupy the same space and at least one player wants to fight". So a battle starts only in
    that phase, between the active empire (whose fleets moved) and another, by whichever of the two wants it."""
    if state["battle"]:
        raise RuleError("type", "a battle is already being set up; resolve or cancel it first")
    if fields.defender == player:
        raise RuleError("defender", "a battle needs an opponent")
    active = _active_id(state)
    name = _name(state, active)
    if PHASES[state["turn"]["phase"]] != "battle":
        raise RuleError("type", f"battles are fought in the battle phase of {name}'s turn (now the "
                                f"{PHASES[state['turn']['phase']]} phase)")
    if active not in (player, fields.defender):
        raise RuleError("defender", f"in {name}'s battle phase a battle is fought against {name}")
    empty = dict.fromkeys(SIDE_FIELDS, 0)
    return {**state, "battle": {"attacker": player, "defender": fields.defender, "committed": [],
                                "sides": {player: dict(empty), fields.defender: dict(empty)}}}


def _open_battle(state: State) -> dict:
    if not state["battle"]:
        raise RuleError("type", "no battle is being set up")
    return state["battle"]


def _one_side(battle: dict, player: str, doing: str) -> None:
    if player not in battle["sides"]:
        raise RuleError("player", f"only the two sides of the battle {doing}")


def _battle_cancel(state: State, player: str, fields: Fields) -> State:
    """Rulebook, Battle phase: "a battle occurs if ... at least one player wants to fight", and the Attack
    cards are revealed "once. More Attack cards cannot be added later." So only the side that started the
    battle (the one that wanted it) calls it off, and only before it has sealed its own side: the other side
    cannot stop a fight it was drawn into, and nobody backs out once committed."""
    battle = _open_battle(state)
    _one_side(battle, player, "can call it off")
    starter = battle["attacker"]
    if len(battle.get("committed", [])) == 2:
        raise RuleError("type", "both sides are revealed, so the battle stands: settle it")
    if player != starter:
        raise RuleError("player", f"{_name(state, starter)} wants this battle, so it is fought (the rulebook: "
                                  f"one player who wants to fight is enough)")
    if starter in battle.get("committed", []):
        raise RuleError("type", "your side is sealed: you are committed to this battle; settle it once both "
                                "sides are in")
    return {**state, "battle": None}


def sealing(state: State) -> str | None:
    """Sealed battle sides: hidden while a battle waits for a side, shown once both are in."""
    battle = state["battle"]
    if not battle:
        return None
    return "revealed" if len(battle.get("committed", [])) == 2 else "open"


def conceal(state: State, viewer: str | None) -> State:
    """The state as `viewer` reads it: before the reveal, a sealed side is its own seat's alone."""
    if sealing(state) != "open":
        return state
    battle = state["battle"]
    sides = {pid: side if pid == viewer or pid not in battle["committed"] else SEALED
             for pid, side in battle["sides"].items()}
    return {**state, "battle": {**battle, "sides": sides}}


def _battle_side_entered(state: State, player: str, fields: BattleSide) -> State:
    """Rulebook, Battle: both sides choose their Attack cards in secret and reveal them at the same moment,
    once. So a side is sealed when entered, shown only when both are, and cannot be changed."""
    battle = _open_battle(state)
    _one_side(battle, player, "enter their forces")
    committed = battle.get("committed", [])
    if player in committed:
        raise RuleError("player", "your side is sealed; both are shown once the other side has entered theirs")
    sides = {**battle["sides"], player: _battle_side(state, player, fields)}
    return {**state, "battle": {**battle, "sides": sides, "committed": [*committed, player]}}


def _battle_resolve(state: State, player: str, fields: Fields) -> State:
    battle = _open_battle(state)
    _one_side(battle, player, "settle it")
    if len(battle.get("committed", [])) < 2:
        raise RuleError("type", "both sides must enter their forces before the battle is settled")
    attacker, defender = battle["attacker"], battle["defender"]
    outcome = battle_outcome(battle["sides"][attacker], battle["sides"][defender])
    new = _copy(state)
    for role, pid in (("attacker", attacker), ("defender", defender)):
        lost, empire = outcome["destroyed"][role], new["empires"][pid]
        for name, count in lost.items():
            empire[name] = max(0, empire[name] - count)
        if lost["colonies"]:
            empire["worlds"] = max(0, empire["worlds"] - 1)
        empire["worlds"] = min(empire["worlds"], empire["colonies"])
    if outcome["homeworld_captured"]:
        winner, loser = (attacker, defender) if outcome["result"] == "attacker" else (defender, attacker)
        new["empires"][loser]["homeworld"] = "captured"
        new["empires"][winner]["captured"].append(loser)
    return {**new, "battle": None, "last_battle": {"attacker": attacker, "defender": defender, **outcome}}


def step(state: State) -> int:
    """Phases played so far, counted over every turn: what a 'Next phase' button was shown at."""
    turn = state["turn"]
    return ((turn["round"] - 1) * len(state["players"]) + turn["active"]) * len(PHASES) + turn["phase"]


def _support_first(state: State, name: str) -> None:
    """Rulebook, Support phase (Military Cutbacks): the active empire's unsupported fleets come off the map
    in that phase. So the turn does not leave (or skip) it while the active empire has any."""
    excess = unsupported(state["empires"][_active_id(state)])
    if excess and state["turn"]["phase"] <= PHASES.index("support"):
        raise RuleError("type", f"{name} must first remove {excess} unsupported fleet{'s' * (excess != 1)} "
                                f"(support phase)")


def _name(state: State, pid: str) -> str:
    return next(p["name"] for p in state["players"] if p["id"] == pid)


def _next_phase_of_own_turn(state: State, player: str, fields: NextPhase) -> State:
    """Rulebook, Turn sequence: "Each turn is divided into 6 phases": the active player's, who moves it on."""
    name = _name(state, _active_id(state))
    still_at("step", fields.step, step(state), f"{name}'s {PHASES[state['turn']['phase']]} phase")
    own_turn(player, _active_id(state), name, "moves")
    if PHASES[state["turn"]["phase"]] == "support":
        _support_first(state, name)
    return _next_phase(state)


def _end_own_turn(state: State, player: str, fields: NextPhase) -> State:
    """The rest of the turn in one tap: phases with nothing to do need no tap each. The support phase is
    not skipped while the active empire has fleets it cannot support. Only the active player ends it."""
    active = _active_id(state)
    name = _name(state, active)
    still_at("step", fields.step, step(state), f"{name}'s {PHASES[state['turn']['phase']]} phase")
    own_turn(player, active, name)
    _support_first(state, name)
    while _active_id(state) == active:
        state = _next_phase(state)
    return state


def _power_cards(state: State, player: str, fields: PowerCards) -> State:
    return {**state, "power_cards": fields.use == "yes"}


def _own_empire(change: Callable[[dict, Fields], None], active_only: bool = True):
    """A handler that changes the acting player's own empire (only on their turn, unless active_only is off)."""
    def handler(state: State, player: str, fields: Fields) -> State:
        if active_only:
            _require_active(state, player)
        new = _copy(state)
        change(new["empires"][player], fields)
        return new
    return handler


def _grows(kind: str):
    def handler(state: State, player: str, fields: Fields) -> State:
        _require_active(state, player)
        new = _copy(state)
        _grow(new["empires"][player], kind, sum(e["worlds"] for e in state["empires"].values()))
        return new
    return handler


def _logistics(empire: dict, fields: Logistics) -> None:
    empire["logistics"] += fields.cards


# ---- what the table shows --------------------------------------------------------------------------------

def _winners(state: State) -> list[dict]:
    wins = []
    for p in state["players"]:
        empire = state["empires"][p["id"]]
        if empire["worlds"] >= WORLDS_TO_WIN:
            wins.append({"player": p["id"], "reason": f"colonies on {empire['worlds']} worlds"})
        elif empire["captured"]:
            wins.append({"player": p["id"], "reason": "captured an enemy homeworld"})
    return wins


def _ended(state: State) -> str | None:
    """How the game ended, once an empire has won."""
    won = _winners(state)
    if not won:
        return None
    winner = next(p["name"] for p in state["players"] if p["id"] == won[0]["player"])
    return f"{winner} won ({won[0]['reason']})"


def _ending(state: State) -> str | None:
    """How the game ended, for the statistics: the first winner's way of winning, without names or counts."""
    won = _winners(state)
    if not won:
        return None
    return f"colonies on {WORLDS_TO_WIN} worlds" if state["empires"][won[0]["player"]]["worlds"] >= WORLDS_TO_WIN \
        else "captured an enemy homeworld"


def derive(state: State) -> dict:
    turn = state["turn"]
    empires = {}
    for pid, e in state["empires"].items():
        empires[pid] = {"support_limit": support_limit(e), "fleets_in_play": e["fleets"] + e["warfleets"],
                        "unsupported": unsupported(e), "max_draw": max_draw(e),
                        "worlds_to_win": max(0, WORLDS_TO_WIN - e["worlds"]),
                        "colonies_to_next_draw": COLONIES_PER_DRAW - e["colonies"] % COLONIES_PER_DRAW}
    battle = state["battle"]
    preview = None
    if battle:  # nothing of either side is shown until both have entered theirs
        committed = battle.get("committed", [])
        preview = {"attacker": battle["attacker"], "defender": battle["defender"], "committed": list(committed),
                   "revealed": len(committed) == 2}
        if preview["revealed"]:
            sides = battle["sides"]
            preview.update(battle_outcome(sides[battle["attacker"]], sides[battle["defender"]]))
    active = _active_id(state)
    return {"round": turn["round"], "active_player": active, "phase": PHASES[turn["phase"]], "step": step(state),
            "phase_number": turn["phase"] + 1, "phases": list(PHASES),
            "must_remove_now": empires[active]["unsupported"] if PHASES[turn["phase"]] == "support" else 0,
            "empires": empires, "battle": preview, "winners": _winners(state),
            "scores": {pid: e["worlds"] for pid, e in state["empires"].items()},
            "scoreboard": _scoreboard(state, active)}


def _scoreboard(state: State, active: str) -> dict:
    won = _winners(state)
    return scoreboard(state["players"], {pid: e["worlds"] for pid, e in state["empires"].items()}, "worlds",
                      tie_rule=f"The first empire with colonies on {WORLDS_TO_WIN} worlds, or to capture an "
                               "enemy homeworld, wins.", turn=None if won else active, over=bool(won),
                      winners=[w["player"] for w in won], reasons={w["player"]: w["reason"] for w in won})


# How the history tells each event, after the player's name (GameRules.tell).
SAYS = {
    'next_phase': 'moves the turn to its next phase',
    'end_turn': 'ends the turn',
    'power_cards': 'Power cards in play: {use}',
    'logistics': 'discards {cards} Build cards for logistics',
    'remove_unsupported': 'removes the fleets their support cannot carry',
    'build_fleet': 'builds a fleet',
    'build_warfleet': 'builds a warfleet',
    'colonise': 'colonises a world',
    'terraform': 'terraforms a world',
    'build_stargate': 'builds a stargate',
    'lose': 'loses {count} {what}',
    'battle_start': 'attacks {defender}',
    'battle_side': 'commits their side of the battle',
    'battle_resolve': 'settles the battle',
    'battle_cancel': 'calls off the battle',
}


RULES = GameRules.of(
    GAME,
    event_types=final((
        EventType("next_phase", "Move the turn on: draw → trade → support → build → movement → battle, "
                  "then the next player's draw (the support phase is left only once no fleet is unsupported). "
                  "The active player taps it; another phone may for them, after asking (confirm: yes).",
                  _next_phase_of_own_turn, NextPhase, for_others=True, asks=True),
        EventType("end_turn", "End the active player's turn at once: on to the next player's draw phase (refused "
                  "while fleets must still be removed for support). The active player taps it; another phone "
                  "may for them, after asking (confirm: yes).", _end_own_turn, NextPhase, for_others=True, asks=True),
        EventType("power_cards", "Play with or without the optional starred Power cards (2 force per Power "
                  "Attack card).", _power_cards, PowerCards),
        EventType("logistics", "Active player: discard Build cards so each counts as one more colony for "
                  "support until this turn ends.", _own_empire(_logistics), Logistics),
        EventType("remove_unsupported", "Active player: take the fleets your support limit cannot carry off "
                  "the map.", _own_empire(_remove_unsupported), RemoveUnsupported),
        EventType("build_fleet", "Active player: a new fleet appears at your homeworld (one Build card).",
                  _grows("build_fleet")),
        EventType("build_warfleet", "Active player: a new warfleet (3 force) appears at your homeworld "
                  "(two Build cards; optional ability).", _grows("build_warfleet")),
        EventType("colonise", "Active player: put a colony on a world nobody has colonised (one Build card).",
                  _grows("colonise")),
        EventType("terraform", "Active player: add a second colony to a world you hold (five Build cards).",
                  _grows("terraform")),
        EventType("build_stargate", "Active player: build a stargate at one of your colonies (three Build cards).",
                  _grows("build_stargate")),
        EventType("lose", "Take your own pieces off after a loss outside a battle (Planet Buster, Nova Mine...).",
                  _own_empire(_lose, active_only=False), Lose),
        EventType("battle_start", "In the active player's battle phase, open the battle calculator: the active "
                  "player against an opponent, or an opponent against the active player.", _battle_start, BattleStart),
        EventType("battle_side", "Enter your side of the open battle (each side enters its own; sealed: "
                  "nobody else sees it until both sides are in).", _battle_side_entered, BattleSide, sealed=True),
        EventType("battle_resolve", "Settle the battle: the loser's pieces in the space are removed; a lost "
                  "homeworld is captured.", _battle_resolve),
        EventType("battle_cancel", "Call the battle off: only the side that started it, before it has sealed "
                  "its own side.", _battle_cancel),
    ), _ended),
    initial_state=initial_state,
    derive=derive,
    says=SAYS,
    sealing=sealing,
    conceal=conceal,
    revealed_stands="both sides are revealed, and Attack cards are revealed once (the rulebook: none added "
                    "later), so your side stands: settle the battle",
    ending=_ending,
    length=lambda state: state["turn"]["round"],
    options={name: option.default for name, option in GAME.options.items()},
)

apply = RULES.apply
