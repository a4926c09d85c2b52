"""Playable from the printout alone: every step, number and action of the rulebook's set-up list (deal,
shuffle, choose the first player, draw six) is printed on a piece (a set-up card, a player aid, a board), and
page 1 never claims the rulebook's authority for our edition's values.

Each game's list quotes the rulebook line (/work/shared/seeds/*.txt) and the words the set prints for it; the
text searched is the text of the game's built PDF (A4 in full ink and Letter in low ink, every page), extracted
by PDFium (pypdf takes 5 s on one set), each page's lines also in reverse order (a board tile turned a quarter
reads bottom to top), with every run of whitespace (a wrapped passage's line breaks, gaps between text runs)
read as one space, so a wrapped sentence or a number drawn as a run of its own still reads whole.
"""
from __future__ import annotations

import re

import pytest

from starpnp.generator.build import BuildOptions, edition_marks, player_texts
from starpnp.generator.look.loader import find_game, load_game
from starpnp.generator.sheets.imposition import Settings
from starpnp_test_support import pdf_page_texts

SETUP = {
    "handful_of_stars": [  # 004, "Starting the game" (pages 12-14) and its summary
        ("Two players - five cards per player / Three players - four / Four players - three",
         r"Habitable system cards: 5 each with 2 players, 4 each with 3, 3 each with 4"),
        ("deal out the same number as Habitable cards", r"as many Uninhabitable system cards"),
        ("Shuffle the Technology cards and deal out two to each player.", r"2 Technology cards to each player"),
        ("deal out one to each player ... take the corresponding three Race Ability cards",
         r"1 Race Identity card: reveal it and take its 3 Race Ability cards"),
        ("Place your Home World marker in the first space on your Colony track. Place one Colony disc on every "
         "other space", r"Home world marker on the Colony track's first space, a Colony disc on every other space"),
        ("Your Home World starts with one Star Base and two Fleets on it.", r"Home World: 1 Star Base and 2 Fleets"),
        ("Your Colonised system starts with one Star Base and one Fleet on it.", r"Colony: 1 Star Base and 1 Fleet"),
        ("Each of your remaining Outpost systems starts with one Fleet on them.", r"Each Outpost: 1 Fleet"),
        ("Draw six of these tiles and place them face-up on display", r"6 face up on display"),
        ("Home World - 7VPs. Colony - 5VPs. Outpost - 3 VPs.", r"Home world 7 VP, colony 5, outpost 3"),
        ("With two players you will start the game with thirty-six VPs, with three players you will have thirty "
         "VPs, and with four players you will have twenty-four VPs.", r"36 VP with 2 players, 30 with 3, 24 with 4"),
        ("Draw and place eight Technology cards on display", r"8 Technology cards face up on display"),
        ("place two of their unused discs on the Victory Point tracks ... one on the '10s' track and one on the "
         "'1s' track", r"on the VP tracks with two spare discs \(tens, ones\)"),
        ("Place one Game marker on the zero space of the Shuffle Track. Place one Game marker on the zero space of "
         "the Combat Track.", r"Game markers on 0 of the Shuffle and Combat tracks"),
        ("Shuffle your four Starting cards, three Race Ability cards, two Technology cards and Habitable and "
         "Uninhabitable System cards together ... to form your draw deck.",
         r"shuffles their 4 Starting, 3 Race Ability and 2 Technology cards with their system cards into a draw deck"),
        ("Draw six cards to form your hand.", r"draws a hand of 6"),
        ("Each player selects a colour and takes the corresponding set of counters, wooden pieces, cards and a Player "
         "Display", r"Each player: a colour's display, pieces and cards"),
        ("You place your remaining Colony discs, Outpost cubes, Fleet and Star Base counters next to your display, to "
         "form an available stock.", r"the rest of your pieces beside it are your stock"),
        ("Place the game board in the centre of the table.", r"Board in the middle of the table"),
        ("Shuffle all of the System tiles together, face-down. Draw and place one on each system space ... turned "
         "face-up.", r"System tiles: shuffled face down, one on each system space, then all face up"),
        ("Place one Black Hole disc on each system with the Black Hole symbol on. Now move each Black Hole disc to the "
         "connection indicated by the letter", r"put a black hole disc on each tile that shows a black-hole letter"),
        ("All players now place one of their Outpost cubes on each System tile for which they have a System card.",
         r"Put an Outpost cube on each system you hold a card for"),
        ("The remaining System cards should be placed close to the side of the board, face-up",
         r"the other system cards wait face up by the board"),
        ("Each player now selects one Habitable System card ... to be their Home World. This should be done "
         "simultaneously ... In the same manner each player chooses one of their Habitable Systems to colonise.",
         r"In secret, each player picks a Habitable system as Home World, then another as Colony"),
        ("Randomly determine who will become the first player.", r"Choose a first player"),
        ("Going clockwise from the first player each player selects one Development counter ... Repeat this process a "
         "second time", r"Clockwise, each player takes one for the Home World's space, then a second round"),
        ("Shuffle the Alien counters face-down. Draw and place one on each neutral habitable system.",
         r"Alien counters face down, one on each neutral habitable system"),
    ],
    "stars_inc": [  # 002, "Setup"
        ("Hydrogen - set to 6", r"Hydrogen tank start 6 "),
        ("Helium - set to 2", r"Helium tank start 2 "),
        ("Carbon - set to 0", r"Carbon tank start 0 "),
        ("Iron - set to 0", r"Iron tank start 0 "),
        ("In the ADVANCED setup, shuffle together all 18 environment cards.", r"Advanced: all 18 cards"),
        ("put one of their five player pawns on the starting zero space of the score area and put the other four "
         "pawns next to their player boards", r"1 pawn on the score's 0, the other 4 beside your board"),
        ("In the STANDARD setup, shuffle one of each environment together to form the deck.",
         r"Environment deck, shuffled: Standard: one of each of the 9 environments; Advanced: all 18"),
        ("When the deck runs out, you will just reshuffle the deck and continue the game.", r"reshuffled as needed"),
        ("Each player should collect their five matching pawns, and take one cube for each of the four resources",
         r"each player takes a colour's 5 pawns and 4 resource markers"),
        ("determine start player using your standard method ... Give the First Player Token to the start player.",
         r"Choose a start player and give them the First player token"),
    ],
    "starship_catan": [  # 003, "SETUP"
        ("1 Colony [C] and Trade [T] Ship", r"one colony ship \(C\) and one trade ship \(T\)"),
        ("2 Trade Goods", r"2 Trade Goods"),
        ("1 Science point", r"1 Science"),
        ("25 Astro", r"25 Astro"),
        ("Each player takes: Starship", r"each player: a starship"),
        ("Colony card and 6 corresponding Modules", r"a colony card and its 6 modules"),
        ("6 Resource Arrows (1 pink) turned down", r"6 resource arrows \(1 pink\) at 0"),
        ("2 Booster and 3 Cannon tiles", r"2 booster and 3 cannon tiles"),
        ("Shuffle all Sector cards without border", r"Sector cards without a border, shuffled"),
        ("Colony card and 6 corresponding Modules / Select 1 Module to be face up",
         r"pick 1 of your 6 modules to start face up"),
        ("create 4 Sector stacks of 10", r"4 stacks of 10"),
        ("create a Reserved deck in order (#1 on top)", r"in number order \(#1 on top\), are the reserve deck"),
        ("Sort the Galactic Council Meeting cards by number ... (#1 on top). Turn over the top 3.",
         r"stacked #1 on top; turn over the top 3"),
        ("Place the 6 Advanced level II Modules ... to the side", r"The 6 level II modules"),
    ],
    "stratastar": [  # 001, "MAP SETUP", "EMPIRE CHITS", "EMPIRE SETUP", "THE GALAXY DECK", "TURN SEQUENCE", "VICTORY"
        ("Each player receives a 'Homeworld' chit.", r"each player takes a colour's empire chits and a Homeworld chit"),
        ("Each player gets a set of chits in a different color.", r"a colour's empire chits"),
        ("Place the other map chits face down randomly on the board, one per space. Leave the corners empty.",
         r"the other 96 map chits go face down at random, one per square, corners left empty"),
        ("Flip the chits over. Remove the blanks.", r"Turn them up and take the blanks away"),
        ("Each players homeworld is placed in a different corner of the board. Players randomly determine who places "
         "their homeworld first.", r"In random order each player puts their homeworld in a free corner"),
        ("If a Homeworld is closed in by Supernovas, Black Holes, and Nebulas then remove one of these hazards.",
         r"A homeworld walled in by hazards loses one of them"),
        ("The last player to place a Homeworld goes first", r"the last to do so plays first"),
        ("The deck contains 85 cards ... Each player gets dealt 5 cards from the Galaxy Deck.",
         r"shuffle the Galaxy deck and deal 5 cards each"),
        ("Each player starts the game with 4 Fleets and one stargate located on their Homeworld.",
         r"4 fleets and 1 stargate on your homeworld"),
        ("Leave the corners empty. ... Each players homeworld is placed in a different corner of the board.",
         r"corner"),
        ("Victory goes to the first empire to have colonies on 12 worlds", r"colonies on 12 worlds"),
    ],
}


# Both papers and both inks, each once: a step must not drop out of a paper's layout or the low-ink look.
PRINTS = [("a4", "full"), ("letter", "low")]


@pytest.fixture(scope="module", params=[(game, paper, ink) for game in sorted(SETUP) for paper, ink in PRINTS],
                ids=lambda p: "-".join(p))
def printed(request, shared_builds) -> tuple[str, str]:
    """The game's id and the text of its built PDF, every page, whitespace runs as single spaces."""
    game_id, paper, ink = request.param
    result = shared_builds.build(find_game(game_id), BuildOptions(settings=Settings(paper=paper, ink=ink),
                                                                  formats=("pdf",)))
    (pdf,) = [f for f in result.files if f.suffix == ".pdf"]
    pages = pdf_page_texts(pdf)
    # A board tile turned a quarter on its sheet reads its lines bottom to top in PDFium: each page is read
    # both ways, so a passage wrapped over lines reads whole on any tile.
    text = " ".join(page + " " + "\n".join(reversed(page.splitlines())) for page in pages)
    return game_id, re.sub(r"\s+", " ", text)


def test_every_setup_number_of_the_rulebook_is_printed(printed):
    game_id, text = printed
    missing = [f"{line!r}: {words!r}" for line, words in SETUP[game_id]
               if not re.search(words, text, re.IGNORECASE)]
    assert not missing, "not in the PDF's text:\n" + "\n".join(missing)


CLAIMS = re.compile(r"\b(every|all)\b[^.;]{0,40}\b(comes?|are|is)\b[^.;]{0,20}\bfrom (it|the rulebook)\b",
                    re.IGNORECASE)


@pytest.mark.parametrize("game_id", sorted(SETUP))
def test_page_one_claims_no_value_of_ours_for_the_rulebook(game_id):
    """A game with any value marked ours (in a field or a component's `ours` list) never says on page 1 that
    all its values are the rulebook's, and every component holding such a value is marked in the contents."""
    game = load_game(find_game(game_id))
    ours = {entry.split(": ", 1)[0] for entry in [*game.ours, *game.edition, *game.unspecified]}
    about, notes, _ = player_texts(game, edition_marks(game))
    if ours:
        claim = CLAIMS.search(" ".join([about, *notes]))
        assert claim is None, f"page 1 says {claim[0]!r}"
    assert set(edition_marks(game)) == ours


def test_stars_inc_page_one_marks_the_player_boards_and_claims_no_tank_size():
    game = load_game(find_game("stars_inc"))
    about, notes, _ = player_texts(game, edition_marks(game))
    assert edition_marks(game)["player_boards"] == " (our edition)"
    assert "how much each tank holds" in about and not CLAIMS.search(about)
