"""`--format tts`: a game as a Tabletop Simulator saved object, for playtesting online before printing.

Tabletop Simulator draws a custom deck from a face sheet: a grid of at most 10 × 7 card images, the last
slot of which it shows for a card held hidden in a hand, and one back image (or a back sheet in the same
grid when backs differ). A card's id is its deck number × 100 + its slot. A board becomes a custom board, a
fold-up die (layout die_net) a custom model of the dice type, a cube folded from its net as the paper
folds; everything else (chits, tokens, tiles) a custom tile with its front and back images, one bag per
component.

The folder travels: the saved object names its images by file name inside the folder (or `BASE/<file>` with
`--tts-url BASE`, for a folder hosted anywhere), and each image's name carries a short hash of its content,
since Tabletop Simulator caches images by address: a changed card gets a new name, never a stale picture.
"""
from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

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


@dataclass
class Images:
    """Writes the folder's files (images, a die's mesh) under content-hashed names and tells the address the
    saved object uses."""

    out: Path
    url_base: str | None = None  # None: the file's name, relative to the saved object
    written: list[Path] = field(default_factory=list)

    def save(self, image: Image.Image, stem: str) -> str:
        data = io.BytesIO()
        image.save(data, "PNG")
        return self.save_bytes(data.getvalue(), stem, ".png")

    def save_bytes(self, data: bytes, stem: str, suffix: str) -> str:
        path = self.out / f"{stem}-{hashlib.sha256(data).hexdigest()[:10]}{suffix}"
        path.write_bytes(data)
        self.written.append(path)
        return path.name if self.url_base is None else f"{self.url_base.rstrip('/')}/{quote(path.name)}"

    def forget_others(self) -> None:
        """Remove files an earlier build left in the folder, so it holds exactly what the object names."""
        keep = set(self.written)
        for old in [*self.out.glob("*.png"), *self.out.glob("*.obj")]:
            if old not in keep:
                old.unlink()


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


def write_deck(deck: Deck, number: int, images: Images, dpi: int, x: float) -> dict:
    """The deck's face (and back) sheets and its saved-object state; card ids number from `number`."""
    backs = [face.back for face in deck.faces]
    unique_back = any(drawn(back) != drawn(backs[0]) for back in backs)
    custom, cards, ids = {}, [], []
    if not unique_back:  # one back image serves every sheet
        px_per_mm, size = cell_size(backs[0], dpi)
        back_url = images.save(trimmed(backs[0], px_per_mm, size), f"{deck.component}-back")
    for start in range(0, len(deck.faces), SLOTS):
        chunk = deck.faces[start:start + SLOTS]
        key = str(number + start // SLOTS)
        sheet = start // SLOTS + 1
        face_url = images.save(sheet_image([f.front for f in chunk], backs[0], dpi), f"{deck.component}-faces-{sheet}")
        if unique_back:
            back_url = images.save(sheet_image([f.back for f in chunk], backs[0], dpi),
                                   f"{deck.component}-backs-{sheet}")
        custom[key] = {"FaceURL": face_url, "BackURL": back_url, "NumWidth": COLUMNS, "NumHeight": ROWS,
                       "BackIsHidden": True, "UniqueBack": unique_back, "Type": 0}
        for slot, face in enumerate(chunk):
            card_id = int(key) * 100 + slot
            for _ in range(face.count):
                ids.append(card_id)
                cards.append({"Name": "Card", "Nickname": face.name, "CardID": card_id,
                              "CustomDeck": {key: custom[key]}, "Transform": transform(x, 0.0, face_down=True)})
    scale = backs[0].width / 63.5
    if len(cards) == 1:
        return {**cards[0], "Name": "CardCustom", "Transform": transform(x, 0.0, scale, True)}
    return {"Name": "DeckCustom", "Nickname": deck.name, "Transform": transform(x, 0.0, scale, True),
            "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": cards}


def face_image(scene: Scene, dpi: int) -> Image.Image:
    px_per_mm = min(dpi / 25.4, MAX_SHEET_PX / max(scene.width, scene.height))
    return trimmed(scene, px_per_mm, (round(scene.width * px_per_mm), round(scene.height * px_per_mm)))


def tile(face: Face, shape: str, images: Images, dpi: int, x: float) -> dict:
    urls = [images.save(face_image(scene, dpi), f"{face.component}-{face.stem}-{side}")
            for side, scene in (("front", face.front), ("back", face.back)) if scene is not None]
    w, h = face.front.width, face.front.height
    return {"Name": "Custom_Tile", "Nickname": face.name, "Transform": transform(x, 6.0, max(w, h) / INCH / 2),
            "CustomImage": {"ImageURL": urls[0], "ImageSecondaryURL": urls[-1],  # one-sided: its front both ways
                            "ImageScalar": 1.0, "WidthScale": 0.0,
                            "CustomTile": {"Type": TILE_TYPES.get(shape, 0), "Thickness": 0.2,
                                           "Stackable": True, "Stretch": True}}}


def board(face: Face, images: Images, dpi: int, x: float) -> dict:
    """A custom board: Tabletop Simulator's flat, fixed table piece, sized to the board's longer side."""
    url = images.save(face_image(face.front, dpi), f"{face.component}-{face.stem}-front")
    w, h = face.front.width, face.front.height
    return {"Name": "Custom_Board", "Nickname": face.name, "Transform": transform(x, 12.0, max(w, h) / INCH / 2),
            "CustomImage": {"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0}}


# The built-in die_net layout's cross: a face's side is min(w / 4.3, h / 3) and its faces sit in these
# (column, row) cells, in the order of its `faces` list: top; left, front, right, back; bottom.
DIE_NET_CELLS = ((1, 0), (0, 1), (1, 1), (2, 1), (3, 1), (1, 2))
# Where a point (a, b) of each cell (a rightward, b downward, 0 to 1) lands on the cube [-1, 1]³ when the
# paper is folded, printed side out: the front stays facing +z, y is up, the back hangs off the right face.
FOLDED = (
    lambda a, b: (2 * a - 1, 1, 2 * b - 1),  # top: its lower edge is the front's upper edge
    lambda a, b: (-1, 1 - 2 * b, 2 * a - 1),  # left
    lambda a, b: (2 * a - 1, 1 - 2 * b, 1),  # front
    lambda a, b: (1, 1 - 2 * b, 1 - 2 * a),  # right
    lambda a, b: (1 - 2 * a, 1 - 2 * b, -1),  # back
    lambda a, b: (2 * a - 1, -1, 1 - 2 * b),  # bottom: its upper edge is the front's lower edge
)


def die_mesh(width: float, height: float) -> str:
    """A cube as Wavefront OBJ whose texture coordinates take each face from its cell of the die net's
    image (`width` × `height` mm at trim), so the die in the game shows what the paper die would."""
    side = min(width / 4.3, height / 3)
    lines = ["# a fold-up die from starpnp: a cube, each face textured from its cell of the net"]
    faces = []
    for index, ((column, row), fold) in enumerate(zip(DIE_NET_CELLS, FOLDED)):
        corners = ((0, 0), (0, 1), (1, 1), (1, 0))  # counter-clockwise seen from outside
        for a, b in corners:
            lines.append("v {:g} {:g} {:g}".format(*fold(a, b)))
            lines.append(f"vt {(column + a) * side / width:.6f} {1 - (row + b) * side / height:.6f}")
        first = index * 4 + 1
        faces.append("f " + " ".join(f"{first + k}/{first + k}" for k in range(4)))
    return "\n".join(lines + faces) + "\n"


def die(face: Face, images: Images, dpi: int, x: float) -> dict:
    """A fold-up die as a custom model of the dice type: a cube textured with the net, rolled like a die."""
    w, h = face.front.width, face.front.height
    texture = images.save(face_image(face.front, dpi), f"{face.component}-{face.stem}-front")
    mesh = images.save_bytes(die_mesh(w, h).encode(), f"{face.component}-{face.stem}", ".obj")
    side = min(w / 4.3, h / 3)
    return {"Name": "Custom_Model", "Nickname": face.name, "Transform": transform(x, 6.0, side / INCH / 2),
            "CustomMesh": {"MeshURL": mesh, "DiffuseURL": texture, "NormalURL": "", "ColliderURL": "",
                           "Convex": True, "MaterialIndex": 3, "TypeIndex": 2, "CastShadows": True}}


def write_tts(game: Game, all_faces: list[Face], out: Path, dpi: int, url_base: str | None = None) -> list[Path]:
    """<out>/<component>-faces-N-<hash>.png, backs, tiles, boards, <game>.json (Tabletop Simulator's saved
    object) and README.txt."""
    out.mkdir(parents=True, exist_ok=True)
    images = Images(out, url_base)
    by_component: dict[str, list[Face]] = {}
    for face in all_faces:
        by_component.setdefault(face.component, []).append(face)
    states = []
    x = 0.0
    for number, comp in enumerate(game.components, start=1):
        faces = [f for f in by_component.get(comp.spec.id, []) if f.count > 0]
        if not faces:
            continue
        if comp.spec.kind == "card" and all(f.back is not None for f in faces):
            states.append(write_deck(Deck(comp.spec.id, comp.spec.name, faces), number * 10, images, dpi, x))
        elif comp.spec.kind == "die" and comp.spec.front.get("layout") == "die_net":
            states += [die(face, images, dpi, x + 2.0 * i) for i, face in enumerate(faces) for _ in range(face.count)]
        elif comp.spec.kind == "board":
            states += [board(face, images, dpi, x + 8.0 * i) for i, face in enumerate(faces) for _ in range(face.count)]
        else:
            tiles = []
            for face in faces:
                one = tile(face, comp.spec.shape, images, dpi, x)
                tiles += [dict(one) for _ in range(face.count)]
            states.append(tiles[0] if len(tiles) == 1 else {
                "Name": "Bag", "Nickname": comp.spec.name, "Transform": transform(x, 6.0),
                "ContainedObjects": tiles})
        x += 4.0
    images.forget_others()
    saved = out / f"{game.info.id}.json"
    saved.write_text(json.dumps({"SaveName": game.info.name, "ObjectStates": states}, indent=1,
                                ensure_ascii=False), encoding="utf-8")
    guide = out / "README.txt"
    hosted = out if url_base else out.with_name(out.name + "-url")  # where a --tts-url build writes (build.py)
    guide.write_text(GUIDE.format(name=game.info.name, saved=saved.name, folder=hosted.resolve().as_uri(),
                                  game=game.info.id, source=game.folder), encoding="utf-8")
    return [*images.written, saved, guide]


GUIDE = """\
{name} for Tabletop Simulator

This folder holds {saved} (the saved object) and the PNG images it shows. Each image's name ends in a hash
of its content, so when a card changes its file name changes too, and Tabletop Simulator (which keeps
images by their address) shows the new card, never an old copy.

How the saved object finds its images
  As built without --tts-url, it names each image by its file name in this folder, so the folder can be
  moved or zipped whole. Tabletop Simulator itself needs full addresses: build once more with --tts-url
  (below) for the place the images will be; that build writes a folder of its own beside this one, its
  name ending in -url, and leaves this one as it is.

Play on this computer
  starpnp build {source} --format tts --tts-url {folder}
  then copy {saved} and the PNG files of that folder into Tabletop Simulator's saved objects folder
  (Documents/My Games/Tabletop Simulator/Saves/Saved Objects/) and, in a game, open
  Objects > Saved Objects and pick {name}.

Share the table with other players (they see only images on the web)
  - Tabletop Simulator's own cloud: load the object as above, then Modding > Cloud Manager >
    Upload All Loaded Files; Tabletop Simulator uploads the images and rewrites the addresses; save the
    object again (right-click it > Save Object) and that copy works for everyone at the table.
  - Or host the folder anywhere that serves files over https (your web site, a file host with direct
    links), then build with the address of that folder:
        starpnp build {source} --format tts --tts-url https://example.org/{game}-tts
    and upload the new PNG files there: every image address is then https://example.org/{game}-tts/<file>.
"""
