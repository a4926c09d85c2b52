"""Our editions' cost-benefit tables: every card, module, power or tile value we designed, what it costs, what
its effect is worth in the game's own currency, and the ratio against the median of its group.

    .venv/bin/python bench/edition_tables.py           # rewrite the tables in docs/editions/<game>.md
    .venv/bin/python bench/edition_tables.py --check   # exit 1 if a table is stale or a row is out of band

Costs and printed numbers are read from the game's data (components/<game>/), so the tables follow every
change there; what an effect is worth is the model below, one line of reasoning per row, printed in the table.
A row more than BAND from its group's median needs a one-line reason in REASONS (it is fixed or justified).
"""
from __future__ import annotations

import re
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "editions"
GAMES = ("stratastar", "stars_inc", "starship_catan", "handful_of_stars")
BAND = 0.25
BEGIN, END = "<!-- cost-benefit table: bench/edition_tables.py writes it -->", "<!-- end of cost-benefit table -->"


@dataclass(frozen=True)
class Row:
    group: str
    item: str
    cost: float | None  # in the game's currency; None: nothing is paid (the row's value is compared as it is)
    cost_text: str
    value: float
    how: str

    @property
    def ratio(self) -> float:
        return self.value / self.cost if self.cost else self.value


def load(game_id: str):
    from starpnp.generator.look.loader import find_game, load_game

    return load_game(find_game(game_id))


def pieces(game, component: str) -> list:
    return [p for c in game.components if c.spec.id == component for p in c.pieces]


# ---- Stratastar: Galaxy cards ------------------------------------------------------------------------------
# An ability costs the Galaxy cards it discards (the rulebook's list); its effect is valued as the cards the
# same result costs through the basic rules (1 Build card a fleet or colony, 1 Move card a step).

STRATASTAR_VALUES = {
    "Scout": (3, "3 steps in one go = 3 Move cards"),
    "Hyper Jump": (7, "any square: about 7 steps across the map and round its hazards"),
    "Defend the Homeworld!": (5, "about 3 fleets brought home from 1-2 squares away"),
    "Expansion": (3, "a fleet (1 Build) where it is needed, about 2 Move cards nearer the front"),
    "Piracy": (1.5, "one random card gone from a hand, played in an opponent's turn before they use it"),
    "Planning": (1.5, "the card just discarded, played the moment it is worth taking (often a wild Research)"),
    "Treason": (5, "an enemy unit gone (about 2 cards) and one of yours in its place (about 3)"),
    "Allied Minor Race": (4, "a colony (1 Build) without the fleet's trip there (about 3 Move cards)"),
    "Treaty": (5, "2 turns safe from one empire: about the Attack cards a defence would take"),
    "Nebulous Navigation": (2, "a short cut through a nebula: about 2 Move cards"),
    "Border Raids": (1, "one enemy colony off their next draw or support: about 1 card"),
    "Sabotage": (3, "an opponent's last action undone: about 3 cards' worth on average"),
    "Planet Buster": (5, "a colony with the Build card and trip it took: about 5 cards"),
    "Nova Mine": (4, "a fleet with its Build card and trip: about 4 cards"),
}


def stratastar_rows(game) -> list[Row]:
    rows = []
    warfleet = game.info.number("force.warfleets") / game.info.number("force.fleets")
    for piece in pieces(game, "abilities"):
        p = piece.front.params
        if p.cost is None:
            rows.append(Row("standing abilities", p.title, None, "no discard", 1, "a rule change, not an action"))
            continue
        value, how = STRATASTAR_VALUES.get(p.title, (warfleet, f"a fleet of force {warfleet:g}: {warfleet:g} fleets' "
                                                               "worth of Build cards (one support place)"))
        rows.append(Row("abilities", p.title, p.cost, p.type, value, how))
    return rows


# ---- Stars, Inc.: hydrogen a round ---------------------------------------------------------------------------
# An environment costs nothing: it is the round everyone plays. Its worth is counted in H a player gains in
# its round: its hydrogen, 2 H an action (a MAKE of a sunlike star is 3 H; most actions cost 1-2 H or He),
# He 2 H, C and Fe 3 H each (scarce), and what its effect saves or gives on a usual round.

ELEMENT_H = {"H": 1, "He": 2, "C": 3, "Fe": 3}
ACTION_H = 2
RESERVE_PAWNS = 3  # pawns in reserve at a harvest, on average over a game (all four at the start)
MERGES_A_ROUND = 0.5  # merges (or blue giants made) per player a round


def h_worth(text: str) -> float:
    return sum(int(n) * ELEMENT_H[e] for n, e in re.findall(r"(\d+) (He|H|C|Fe)\b", text))


def stars_inc_rows(game) -> list[Row]:
    n = game.info.number
    effects = {
        "giant_molecular_cloud": (h_worth(n("reserve_bonus.giant_molecular_cloud")) * RESERVE_PAWNS,
                                  f"+{n('reserve_bonus.giant_molecular_cloud')} a reserve pawn, {RESERVE_PAWNS} pawns"),
        "superluminous_supernova": (h_worth(n("environment_gifts.superluminous_supernova")),
                                    f"+{n('environment_gifts.superluminous_supernova')}"),
        "overdensity": (h_worth(n("environment_discounts.overdensity")) * MERGES_A_ROUND,
                        f"{n('environment_discounts.overdensity')} off {MERGES_A_ROUND:g} merges"),
        "stroemgren_sphere": (h_worth(n("environment_discounts.stroemgren_sphere")) * MERGES_A_ROUND,
                              f"{n('environment_discounts.stroemgren_sphere')} off {MERGES_A_ROUND:g} blue giants"),
        "time_stasis": (0, "no MOVE: neither gain nor cost"),
        "time_vortex": (ACTION_H / 2, "a MOVE goes twice as far: half an action"),
        "overcrowding": (0, "fuller spaces: a limit, no gain"),
        "protoplanetary_disk": (h_worth(n("environment_gifts.protoplanetary_disk")),
                                f"+{n('environment_gifts.protoplanetary_disk')}"),
        "tidal_stream": (h_worth(n("move_other_star")), f"{n('move_other_star')} saved on a rival's star"),
    }
    titles = {re.sub(r"[^a-z]+", "_", p.front.params.title.lower()).strip("_"): p.front.params.title
              for p in pieces(game, "environments")}
    rows = []
    for card, harvest in n("environment_harvest").items():
        actions = n(f"environment_actions.{card}")
        effect, how = effects[card]
        rows.append(Row("environments", titles[card], None, "—", h_worth(harvest) + ACTION_H * actions + effect,
                        f"{harvest} + {actions} actions × {ACTION_H} H + effect {effect:g} H ({how})"))
    return rows


# ---- Starship Catan: Astro ---------------------------------------------------------------------------------
# A resource is worth the median price the set's markets ask for it (Science the Library's); 1 victory point
# is worth 8 Astro (a level II module's resources); a Fame or Friendship point a third of a people card's VP.
# Modules and tiles are weighed per turn of use, foundings, pirates and missions once.

VP_ASTRO = 8.0
POINT_ASTRO = VP_ASTRO / 3
TURNS_LEFT = 15  # turns a colony, trading post or module works for, on average
CONDITION_ASTRO = 5  # a mission's "N or more" need: tiles or posts built for it (and kept)
MODULE_SPECIALS = {  # Astro a turn, besides producing
    "Command": (1.0, "one more card explored a flight: about 1 Astro of trade or a founding"),
    "Logistics": (1.0, "one more of each resource bought cheap or kept: about 1 Astro a turn"),
    "Trade": (1.0, "one even trade the opponent must accept: the resource you lack, about 1 Astro"),
    "Research": (0.9, "a swap between Science (3 Astro) and a resource when one is short"),
    "Cloak": (0.9, "a pirate fight on the better of two blue dice: about 1 fight in 3 turned into a win"),
    "Dock": (0.8, "2 Astro a founding, about one founding every 3 turns, and a fourth ship"),
}
TILE_VALUES = {  # Astro a turn for one level of a tile
    "Booster": (0.35, "one more card within reach of a flight"),
    "Cannon": (0.35, "a pirate fight about 1 in 6 likelier to be won"),
}


def starship_catan_rows(game) -> list[Row]:
    from starpnp.companion.rules import starship_catan as sc  # the phone's reading of the same cards

    prices: dict[str, list[int]] = {}
    for market in sc.MARKETS.values():
        prices.setdefault(market["resource"], []).append(market["price"])
    price = {resource: statistics.median(found) for resource, found in prices.items()}

    def astro(text: str) -> float:
        """What a printed reward or need is worth: '1 Fame + 2 Astro', 'hand over 2 Food', '1 VP'."""
        total = 0.0
        for amount, what in re.findall(r"(\d+) ([A-Z][a-z]+(?: Goods)?)", text):
            key = what.lower()
            total += int(amount) * ({"astro": 1, "vp": VP_ASTRO, "fame": POINT_ASTRO, "friendship": POINT_ASTRO}
                                    .get(key) or price.get(sc._BY_NAME.get(what, key), 0))
        total += sum(int(amount) * VP_ASTRO for amount in re.findall(r"(\d+) VP", text))
        total += sum(int(amount) * statistics.median(price.values()) for amount in re.findall(r"(\d+) resources?", text))
        return total

    def cost(parts: dict[str, int]) -> float:
        return sum(amount * price[resource] for resource, amount in parts.items())

    rows = []
    level_i = cost(sc.MODULE_COSTS[1])
    for key, module in sc.MODULES.items():
        title = module.name.split()[0]
        special, how = MODULE_SPECIALS[title]
        made = module.amount * price[module.resource] / 6
        rows.append(Row("modules (Astro a turn)", module.name, level_i, sc.cost_text(sc.MODULE_COSTS[1]),
                        made + special, f"{made:.2f} produced on a {module.die} + {how}"))
    for build in sc.BUILDS.values():
        if build.part:
            name = build.label.split()[0]
            each, how = TILE_VALUES[name]
            rows.append(Row("tiles (Astro a turn)", build.label, cost(build.cost), sc.cost_text(build.cost), each,
                            f"+1 dot: {how}"))
    ships = {b.label.split()[0].lower(): cost(b.cost) for b in sc.BUILDS.values() if not b.part}
    for deck in ("sector_cards", "reserve_sector_cards"):
        for piece in pieces(game, deck):
            p = piece.front.params
            fields = p.fields
            if p.kind == "Colony planet":
                resource, amount = sc._amount(fields["Produces"])[0], sc._amount(fields["Produces"])[1]
                made = amount * price[resource] / 6 * TURNS_LEFT
                rows.append(Row("foundings", p.title, ships["colony"], "a colony ship", (p.vp or 0) * VP_ASTRO + made,
                                f"{p.vp} VP + {made:.1f} produced on a {p.die} over {TURNS_LEFT} turns"))
            elif p.kind == "Trading post planet":
                friendship = astro(fields.get("Founded", ""))
                rows.append(Row("foundings", p.title, ships["trade"], "a trade ship",
                                (p.vp or 0) * VP_ASTRO + friendship + 0.3 * TURNS_LEFT,
                                f"{p.vp} VP + {fields.get('Founded', '')} + trading from home, 0.3 Astro a turn"))
            elif p.kind == "Pirate":
                strength = int(fields["Strength"])
                rows.append(Row("pirates (reward per point of strength)", p.title, strength, f"strength {strength}",
                                astro(fields["If you win"]), f"if you win: {fields['If you win']}"))
    for piece in pieces(game, "council_cards"):
        p = piece.front.params
        need = p.fields["Need"]
        conditions = len(re.findall(r"or more", need))
        rows.append(Row("council missions", p.title, astro(need) + CONDITION_ASTRO * conditions, need,
                        astro(p.fields["Reward"]), f"reward {p.fields['Reward']}"
                        + (f" (a condition met: about {CONDITION_ASTRO:g} Astro of tiles or posts built for it)"
                                                          if conditions else "")))
    return rows


# ---- A Handful of Stars: resource points -------------------------------------------------------------------
# One resource point is worth one point of anything else (docs/editions/handful_of_stars.md): a combat strength
# point, a Fleet move, a victory point. A Technology card costs its Research; its worth is what one play of it
# brings. Race and Starting cards cost nothing to hold: their worth per play is compared as it is.

FIGHTS_A_LAP = 1.0  # combats a card in Reserve sees on each lap of the deck
HOS_VALUES = {
    "Development": (3.5, "a Development counter: 2 resources a lap for the laps left, less the action"),
    "Force Shields": (3, "about 1.5 units saved, 2 resources each"),
    "High-Energy Weapons": (2, "about 2 Energy turned into strength in one fight"),
    "Mass Armies": (2.5, "Population as strength in a fight, and no Reserve space"),
    "Missiles": (2, "twice the Matter on 2 cards drawn, about 1"),
    "Mobile Factories": (2, "units built where the front is: about 2 Energy of moves saved"),
    "Research Laboratories": (2, "2 Research"),
    "Star Bomb": (3.5, "an enemy unit gone mid-fight: its strength, about 3.5"),
    "Terra-forming": (5, "an outpost made a colony: 2 VP and a Development counter, less 2 Population"),
    "Advanced Cybernetics": (2, "2 cards drawn, about 1 point each"),
    "Artificial Intelligence": (5, "a seventh card every turn: about 1 point a turn over a lap"),
    "Black-Hole Creator": (2.5, "a lane closed for good beside your system"),
    "Fast Ships": (3, "about 3 Energy of moves saved a lap"),
    "Hyper-Search Engine": (2, "a hand of dead cards swapped: about 2 points"),
    "Retreat": (1.25, "a lost fight left without losses: about 1.25 units' worth, used now and then"),
    "Star Base Movement": (2, "star bases that move and retreat"),
    "Stealth Technology": (3, "a path through one system: about 3 Energy of detour saved"),
    "Temporary Wormhole": (3, "1-2 Fleets moved anywhere: about 3 Energy"),
    "Wormhole Technology": (2, "opens the wormholes for everyone (2 Research a counter)"),
    # race abilities (no cost to hold)
    "War Fervour": (None, "its strength, attacking only"),
    "Occupation Forces": (3, "an outpost placed without an action after a won attack"),
    "Armaments": (4, "2 units without paying: 4 resources"),
    "Production Line": (2, "a unit built as a free action: an action saved"),
    "Orbital Shipyards": (3, "a third unit in each build and 1 Matter saved: about 3 a lap"),
    "Festival of Culture": (4, "1 VP for each Culture card or VP counter held, about 4"),
    "Grand Gallery": (3, "one more card in each Reserve"),
    "Heritage Archive": (None, "its VP, held in Reserve"),
    "Scouts": (2, "a look at an Alien and a card drawn"),
    "Colony Ships": (2.5, "1 Population saved on a colony or outpost, as a free action (an action saved)"),
    "Frontier Drives": (3, "every Fleet's last step into a neutral system free: about 3 Energy a lap"),
    "Diplomacy": (4, "an attack turned away before it starts"),
    "Minefield Network": (None, "its strength in every defence of a system you hold"),
    "Envoys": (3.5, "an outpost (3 VP) and a fight (about 5) saved, less its tile's strength + 1 Population "
               "(about 3.5) and the outpost's usual 1"),
    "Warehouse": (2, "a card kept past the Reserve's limit, and a card drawn"),
    "Out of Storage": (2.5, "a Development counter swapped for a better one"),
    "Recycling Plant": (3, "1-2 Development counters used again: 2 resources each"),
    "Blue-Sky Research": (2.5, "the best of 3 Technology cards, kept in hand"),
    "Top-Secret Research": (3, "a Technology card for free: its cost, about 3"),
    "Reverse Engineering": (3, "1 Research off every draft, about 3 drafts a game"),
}


def handful_rows(game) -> list[Row]:
    strength = {**game.info.number("card_strength"), **game.info.number("our_card_strength")}
    rows = []
    for component, group in (("technology", "technology cards"), ("race_abilities", "race ability cards")):
        for piece in pieces(game, component):
            p = piece.front.params
            title = p.title
            key = re.sub(r"[^a-z]+", "_", title.lower()).strip("_")
            if title in HOS_VALUES and HOS_VALUES[title][0] is not None:
                value, how = HOS_VALUES[title]
            elif p.vp:
                value, how = p.vp, f"{p.vp} VP held in Reserve"
            elif key in strength:
                value = strength[key] * (FIGHTS_A_LAP if "Reserve" in p.tags else 1)
                how = f"+{strength[key]} strength" + (f" in {FIGHTS_A_LAP:g} fight a lap" if "Reserve" in p.tags
                                                      else ", once") + (" and a card drawn" if "draw a card" in p.text
                                                                        else "")
                value += 1 if "draw a card" in p.text else 0
            else:
                raise KeyError(f"handful_of_stars: no worth for {title}")
            cost = p.cost if component == "technology" else None
            rows.append(Row(group, title, cost, f"{cost} Research" if cost else "race card", value, how))
    for piece in pieces(game, "starting_cards"):
        p = piece.front.params
        if piece.color != pieces(game, "starting_cards")[0].color:
            continue  # every colour's set is the same
        rows.append(Row("starting cards", p.title, None, "in every deck", max(r.value for r in p.resources),
                        "1 of two resources"))
    return rows


MODELS = {"stratastar": (stratastar_rows, "Galaxy cards"), "stars_inc": (stars_inc_rows, "H a round"),
          "starship_catan": (starship_catan_rows, "Astro"), "handful_of_stars": (handful_rows, "resource points")}

# One line for every row outside the band: why it stays (or how it was fixed and still reads out of band).
REASONS = {
    "stratastar": {
        "Scout": "the rulebook's cost and effect; a step saved is worth little once stargates link an empire",
        "Hyper Jump": "the rulebook's cost and effect; a one-off for a surprise attack, rarely used twice",
        "Expansion": "the rulebook's cost and effect; it saves only while the front is far from home",
        "Warfleet": "the rulebook's cost and force; our edition prints only 2 Warfleet chits a colour, so it "
                    "strengthens a fleet but cannot be all of it",
        "Piracy": "the rulebook's cost and effect; our edition lets it be played in an opponent's turn, its best use",
        "Planning": "the rulebook's cost and effect; our edition lets it be played any time, so it takes a wild card",
    },
    "stars_inc": {},
    "starship_catan": {
        "Silk Harbor": "the one Trade Goods colony: dear goods, but it shares the 4 with Helion Flats and Marrow Glade, "
                       "and only one colony a roll produces",
        "Lumen Station": "the one Science colony: Science is dear, but it shares the 5 with Basalt Ridge and Rimefield, "
                         "and only one colony a roll produces",
    },
    "handful_of_stars": {card: "the rulebook's card: its effect is given (only its resource symbol is ours)" for card in (
        "Super Dreadnoughts", "Armaments", "Production Line", "Festival of Culture", "Scouts", "Diplomacy", "Warehouse")},
}


def table(game_id: str) -> tuple[list[Row], dict[str, float]]:
    model, _ = MODELS[game_id]
    rows = model(load(game_id))
    medians = {group: statistics.median(r.ratio for r in rows if r.group == group) for group in {r.group for r in rows}}
    return rows, medians


def deviation(row: Row, medians: dict[str, float]) -> float:
    return row.ratio / medians[row.group] - 1 if medians[row.group] else 0.0


def out_of_band(game_id: str) -> list[str]:
    """Rows more than BAND from their group's median with no reason given."""
    rows, medians = table(game_id)
    return [f"{game_id}: {r.group}: {r.item} ({deviation(r, medians):+.0%})" for r in rows
            if abs(deviation(r, medians)) > BAND + 1e-9 and r.item not in REASONS[game_id]]


def markdown(game_id: str) -> str:
    rows, medians = table(game_id)
    _, currency = MODELS[game_id]
    lines = [BEGIN, "", f"Worth in **{currency}**; ratio = worth ÷ cost (worth alone where nothing is paid);",
             f"± = the ratio against its group's median; a row beyond ±{BAND:.0%} carries its reason.", ""]
    lines += ["| group | item | cost | worth | how it is valued | ratio | ± | reason |", "|---|---|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: (r.group, r.item)):
        d = deviation(r, medians)
        cost = f"{r.cost:g} ({r.cost_text})" if r.cost else r.cost_text
        reason = REASONS[game_id].get(r.item, "") if abs(d) > BAND + 1e-9 else ""
        lines.append(f"| {r.group} | {r.item} | {cost} | {r.value:.1f} | {r.how} | {r.ratio:.2f} | {d:+.0%} | {reason} |")
    return "\n".join(lines + ["", END])


def rewritten(game_id: str) -> tuple[str, str]:
    """(the doc as it is, the doc with its table recomputed)."""
    path = DOCS / f"{game_id}.md"
    text = path.read_text(encoding="utf-8")
    if BEGIN not in text:
        raise SystemExit(f"{path}: no line {BEGIN!r} where the table goes")
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1] if END in rest else rest
    return text, head + markdown(game_id) + tail


def main(argv: list[str]) -> int:
    check = "--check" in argv
    problems = []
    for game_id in GAMES:
        old, new = rewritten(game_id)
        if old != new:
            if check:
                problems.append(f"docs/editions/{game_id}.md: the cost-benefit table is out of date")
            else:
                (DOCS / f"{game_id}.md").write_text(new, encoding="utf-8")
        problems += [f"{row}: outside ±{BAND:.0%} with no reason" for row in out_of_band(game_id)]
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
