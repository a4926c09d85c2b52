"""`--format tts`: a game as a Tabletop Simulator saved object, for playtesting online before printing.

Tabletop Simulator draws a custom deck from a face sheet: a grid of at most 10 × 7 card images, the last
slot of which it shows for a card held hidden in a hand, and one back image (or a back sheet in the same
grid when backs differ). A card's id is its deck number × 100 + its slot. Everything else (chits, tokens,
tiles, boards) becomes a custom tile with its front and back images, one bag per component. Images point
at the files with local `file:` URLs; for a shared table, upload them and replace the URLs (README.txt).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from .face_files import render_face
from ..look.render import Face
from ..data.model import Game
from ..look.scene import Scene

COLUMNS, ROWS = 10, 7
SLOTS = COLUMNS * ROWS - 1  # the last slot is the hidden-card image
MAX_SHEET_PX = 4096  # Tabletop Simulator's largest texture on most machines
TILE_TYPES = {"rect": 0, "hex": 1, "round": 2}
INCH = 25.4  # a Tabletop Simulator unit is about an inch


@dataclass(frozen=True)
class Deck:
    component: str
    name: str
    faces: list[Face]


def trimmed(scene: Scene, px_per_mm: float, size: tuple[int, int]) -> Image.Image:
    """The face cut to its trim (Tabletop Simulator shows no bleed), `size` pixels, RGB."""
    image = render_face(scene, px_per_mm * 25.4).convert("RGB")
    b = scene.bleed * px_per_mm
    box = (round(b), round(b), round(b + scene.width * px_per_mm), round(b + scene.height * px_per_mm))
    return image.crop(box).resize(size, Image.Resampling.LANCZOS)


def cell_size(scene: Scene, dpi: int) -> tuple[float, tuple[int, int]]:
    """Pixels per mm and the pixel size of one card: `dpi`, or less so that 10 × 7 fit in 4096 px."""
    px_per_mm = min(dpi / 25.4, MAX_SHEET_PX / (COLUMNS * scene.width), MAX_SHEET_PX / (ROWS * scene.height))
    return px_per_mm, (int(scene.width * px_per_mm), int(scene.height * px_per_mm))


def sheet_image(scenes: list[Scene], hidden: Scene, dpi: int) -> Image.Image:
    px_per_mm, (w, h) = cell_size(scenes[0], dpi)
    sheet = Image.new("RGB", (w * COLUMNS, h * ROWS), "white")
    for slot, scene in enumerate(scenes):
        sheet.paste(trimmed(scene, px_per_mm, (w, h)), ((slot % COLUMNS) * w, (slot // COLUMNS) * h))
    sheet.paste(trimmed(hidden, px_per_mm, (w, h)), ((COLUMNS - 1) * w, (ROWS - 1) * h))
    return sheet


def transform(x: float, z: float, scale: float = 1.0, face_down: bool = False) -> dict:
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def drawn(scene: Scene) -> tuple:
    """What a face shows (its label, a name for people, aside)."""
    return scene.width, scene.height, scene.elements


def write_deck(deck: Deck, number: int, out: Path, dpi: int, x: float) -> tuple[dict, list[Path]]:
    """The deck's face (and back) sheets and its saved-object state; card ids number from `number`."""
    written: list[Path] = []
    backs = [face.back for face in deck.faces]
    unique_back = any(drawn(back) != drawn(backs[0]) for back in backs)
    custom, cards, ids = {}, [], []
    if not unique_back:  # one back image serves every sheet
        back_path = out / f"{deck.component}-back.png"
        px_per_mm, size = cell_size(backs[0], dpi)
        trimmed(backs[0], px_per_mm, size).save(back_path)
        written.append(back_path)
    for start in range(0, len(deck.faces), SLOTS):
        chunk = deck.faces[start:start + SLOTS]
        key = str(number + start // SLOTS)
        face_path = out / f"{deck.component}-faces-{start // SLOTS + 1}.png"
        sheet_image([f.front for f in chunk], backs[0], dpi).save(face_path)
        written.append(face_path)
        if unique_back:
            back_path = out / f"{deck.component}-backs-{start // SLOTS + 1}.png"
            sheet_image([f.back for f in chunk], backs[0], dpi).save(back_path)
            written.append(back_path)
        custom[key] = {"FaceURL": face_path.resolve().as_uri(),
                       "BackURL": back_path.resolve().as_uri(), "NumWidth": COLUMNS, "NumHeight": ROWS,
                       "BackIsHidden": True, "UniqueBack": unique_back, "Type": 0}
        for slot, face in enumerate(chunk):
            card_id = int(key) * 100 + slot
            for _ in range(face.count):
                ids.append(card_id)
                cards.append({"Name": "Card", "Nickname": face.name, "CardID": card_id,
                              "CustomDeck": {key: custom[key]}, "Transform": transform(x, 0.0, face_down=True)})
    scale = backs[0].width / 63.5
    if len(cards) == 1:
        return {**cards[0], "Name": "CardCustom", "Transform": transform(x, 0.0, scale, True)}, written
    return {"Name": "DeckCustom", "Nickname": deck.name, "Transform": transform(x, 0.0, scale, True),
            "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": cards}, written


def tile(face: Face, shape: str, out: Path, dpi: int, x: float) -> tuple[dict, list[Path]]:
    written = []
    for side, scene in (("front", face.front), ("back", face.back)):
        if scene is None:
            continue
        path = out / f"{face.component}-{face.stem}-{side}.png"
        px_per_mm = min(dpi / 25.4, MAX_SHEET_PX / max(scene.width, scene.height))
        trimmed(scene, px_per_mm, (round(scene.width * px_per_mm), round(scene.height * px_per_mm))).save(path)
        written.append(path)
    urls = [written[0].resolve().as_uri(), written[-1].resolve().as_uri()]  # one-sided: its front both ways up
    w, h = face.front.width, face.front.height
    state = {"Name": "Custom_Tile", "Nickname": face.name, "Transform": transform(x, 6.0, max(w, h) / INCH / 2),
             "CustomImage": {"ImageURL": urls[0], "ImageSecondaryURL": urls[1], "ImageScalar": 1.0,
                             "WidthScale": 0.0,
                             "CustomTile": {"Type": TILE_TYPES.get(shape, 0), "Thickness": 0.2,
                                            "Stackable": True, "Stretch": True}}}
    return state, written


def write_tts(game: Game, all_faces: list[Face], out: Path, dpi: int) -> list[Path]:
    """<out>/<component>-faces-N.png, backs, tiles, and <game>.json: Tabletop Simulator's saved object."""
    out.mkdir(parents=True, exist_ok=True)
    by_component: dict[str, list[Face]] = {}
    for face in all_faces:
        by_component.setdefault(face.component, []).append(face)
    states, written = [], []
    x = 0.0
    for number, comp in enumerate(game.components, start=1):
        faces = [f for f in by_component.get(comp.spec.id, []) if f.count > 0]
        if not faces:
            continue
        if comp.spec.kind == "card" and all(f.back is not None for f in faces):
            state, files = write_deck(Deck(comp.spec.id, comp.spec.name, faces), number * 10, out, dpi, x)
        else:
            tiles = []
            files = []
            for face in faces:
                one, made = tile(face, comp.spec.shape, out, dpi, x)
                tiles += [dict(one) for _ in range(face.count)]
                files += made
            state = tiles[0] if len(tiles) == 1 else {
                "Name": "Bag", "Nickname": comp.spec.name, "Transform": transform(x, 6.0),
                "ContainedObjects": tiles}
        states.append(state)
        written += files
        x += 4.0
    saved = out / f"{game.info.id}.json"
    saved.write_text(json.dumps({"SaveName": game.info.name, "ObjectStates": states}, indent=1,
                                ensure_ascii=False), encoding="utf-8")
    guide = out / "README.txt"
    guide.write_text(
        f"{game.info.name} for Tabletop Simulator\n\n"
        f"Copy this whole folder into Tabletop Simulator's saved objects folder (Documents/My Games/Tabletop "
        f"Simulator/Saves/Saved Objects/), then open Objects > Saved Objects in a game and pick "
        f"{game.info.name}.\nThe images are linked as local files, which only this computer can see. To play "
        f"with others, upload the PNG files (Tabletop Simulator's Cloud Manager, or any web host), then in "
        f"{saved.name} replace each file:/// address with the uploaded image's address.\n", encoding="utf-8")
    return [*written, saved, guide]
