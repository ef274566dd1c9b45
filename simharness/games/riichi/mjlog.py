"""Tenhou game logs (mjlog XML) as typed records.

A log is a sequence of hands (局); each hand starts with an :class:`Init` and holds its events in
order: :class:`Draw`, :class:`Discard`, :class:`Call`, :class:`Reach`, :class:`NewDora`, and ends with
one or more :class:`Agari` (several for a multiple ron) or a :class:`Ryuukyoku`. Tiles are Tenhou's
ids 0–135 (kind = id // 4; ids 16, 52 and 88 are the red fives). Seats are absolute (0 = the first
dealer). Meld bit-decoding follows Tenhou's published client code (tehai.js).
"""

from __future__ import annotations

import gzip
import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

RED_FIVES = frozenset({16, 52, 88})

# Tenhou's yaku ids, in its numbering (AGARI `yaku` and `yakuman` attributes).
YAKU_NAMES: tuple[str, ...] = (
    "menzen_tsumo", "riichi", "ippatsu", "chankan", "rinshan", "haitei", "houtei", "pinfu", "tanyao",
    "iipeikou", "seat_wind_east", "seat_wind_south", "seat_wind_west", "seat_wind_north",
    "round_wind_east", "round_wind_south", "round_wind_west", "round_wind_north", "yakuhai_haku",
    "yakuhai_hatsu", "yakuhai_chun", "double_riichi", "chiitoitsu", "chanta", "ittsu",
    "sanshoku_doujun", "sanshoku_doukou", "sankantsu", "toitoi", "sanankou", "shousangen",
    "honroutou", "ryanpeikou", "junchan", "honitsu", "chinitsu", "renhou", "tenhou", "chiihou",
    "daisangen", "suuankou", "suuankou_tanki", "tsuuiisou", "ryuuiisou", "chinroutou", "chuuren",
    "junsei_chuuren", "kokushi", "kokushi_13_sided", "daisuushii", "shousuushii", "suukantsu", "dora",
    "ura", "aka",
)  # fmt: skip


def tile_name(tile: int) -> str:
    """MPSZ name of a Tenhou tile id (``0m``/``0p``/``0s`` for the red fives)."""
    kind = tile // 4
    if kind >= 27:
        return f"{kind - 26}z"
    digit = 0 if tile in RED_FIVES else kind % 9 + 1
    return f"{digit}{'mps'[kind // 9]}"


def tiles_text(tiles: tuple[int, ...] | list[int]) -> str:
    """MPSZ text of Tenhou tile ids (one suit letter per tile)."""
    return "".join(tile_name(t) for t in tiles)


@dataclass(frozen=True)
class Meld:
    """A call. ``kind`` is ``chi``, ``pon``, ``kan`` (daiminkan), ``ankan``, ``kakan`` or ``nuki``;
    ``tiles`` holds every tile of the meld; ``called`` the tile taken from another player (the added
    tile for kakan, None for ankan); ``from_rel`` whom it came from relative to the caller
    (1 = 下家, 2 = 対面, 3 = 上家; 0 for ankan and nuki)."""

    kind: str
    tiles: tuple[int, ...]
    called: int | None
    from_rel: int
    code: int

    @staticmethod
    def decode(code: int) -> Meld:
        """Decodes Tenhou's 16-bit meld code."""
        rel = code & 3
        if code & 0x4:
            t, r = divmod(code >> 10, 3)
            base = (t // 7) * 9 + t % 7
            tiles = tuple((base + i) * 4 + ((code >> (3 + 2 * i)) & 3) for i in range(3))
            return Meld("chi", tiles, tiles[r], rel, code)
        if code & 0x18:
            kind, r = divmod(code >> 9, 3)
            unused = (code >> 5) & 3
            if code & 0x10:
                tiles = tuple(kind * 4 + i for i in range(4))
                return Meld("kakan", tiles, kind * 4 + unused, rel, code)
            tiles = tuple(kind * 4 + i for i in range(4) if i != unused)
            return Meld("pon", tiles, tiles[r], rel, code)
        if code & 0x20:
            return Meld("nuki", (code >> 8,), None, 0, code)
        called = code >> 8
        tiles = tuple((called // 4) * 4 + i for i in range(4))
        if rel == 0:
            return Meld("ankan", tiles, None, 0, code)
        return Meld("kan", tiles, called, rel, code)

    @staticmethod
    def make(kind: str, tiles: tuple[int, ...] | list[int], called: int | None, from_rel: int) -> Meld:
        """The meld with Tenhou's code computed (the inverse of :meth:`decode`). For ``kakan``,
        ``called`` is the added tile; ``ankan`` and ``nuki`` take ``from_rel = 0``."""
        ids = sorted(tiles)
        kind_of = ids[0] // 4
        if kind == "chi":
            assert called is not None
            t = (kind_of // 9) * 7 + kind_of % 9
            code = ((t * 3 + ids.index(called)) << 10) | 0x4 | from_rel
            for i, tile in enumerate(ids):
                code |= (tile % 4) << (3 + 2 * i)
        elif kind in ("pon", "kakan"):
            assert called is not None
            if kind == "pon":
                unused = next(i for i in range(4) if kind_of * 4 + i not in ids)
                r = ids.index(called)
            else:
                unused = called % 4
                r = 0
            code = ((kind_of * 3 + r) << 9) | (0x8 if kind == "pon" else 0x10) | (unused << 5) | from_rel
        elif kind == "nuki":
            code = (ids[0] << 8) | 0x20
        else:
            code = ((called if kind == "kan" and called is not None else ids[0]) << 8) | (
                from_rel if kind == "kan" else 0
            )
        return Meld(kind, tuple(tiles), called, from_rel if kind not in ("ankan", "nuki") else 0, code)

    def notation(self) -> str:
        """The meld in the scorer's notation (called tile first, ``@`` source)."""
        if self.kind == "ankan":
            return f"ankan:{tiles_text(self.tiles)}"
        if self.called is None:
            raise ValueError(f"a {self.kind} meld has no scorer notation")
        rest = [t for t in self.tiles if t != self.called]
        return f"{self.kind}:{tiles_text([self.called, *rest])}@{self.from_rel}"


@dataclass(frozen=True)
class Init:
    """Start of a hand: ``round`` counts hands from East 1 (0–3 East, 4–7 South, ...)."""

    round: int
    honba: int
    sticks: int
    dice: tuple[int, int]
    dora_indicator: int
    scores: tuple[int, ...]
    dealer: int
    hands: tuple[tuple[int, ...], ...]

    @property
    def round_wind(self) -> str:
        # Tenhou counts four hands per wind, three-player games too.
        return "ESWN"[self.round // 4 % 4]

    @property
    def players(self) -> int:
        """3 in a three-player record (its fourth hand is empty), else 4."""
        return sum(1 for h in self.hands if h)

    def seat_wind(self, seat: int) -> str:
        return "ESWN"[(seat - self.dealer) % self.players]


@dataclass(frozen=True)
class Draw:
    who: int
    tile: int


@dataclass(frozen=True)
class Discard:
    who: int
    tile: int
    tsumogiri: bool


@dataclass(frozen=True)
class Call:
    who: int
    meld: Meld

    @property
    def from_who(self) -> int:
        """Absolute seat of the player the tile came from (the caller for ankan and nuki)."""
        return (self.who + self.meld.from_rel) % 4


@dataclass(frozen=True)
class Reach:
    """Riichi: step 1 = declaration, step 2 = accepted (the stick is placed)."""

    who: int
    step: int
    scores: tuple[int, ...] | None


@dataclass(frozen=True)
class NewDora:
    indicator: int


@dataclass(frozen=True)
class Agari:
    """A win as Tenhou scored it. ``hand`` = concealed tiles including the winning tile;
    ``yaku`` = (tenhou yaku id, han) pairs; ``yakuman`` = tenhou yaku ids."""

    who: int
    from_who: int
    hand: tuple[int, ...]
    melds: tuple[Meld, ...]
    machi: int
    fu: int
    points: int
    limit: int
    yaku: tuple[tuple[int, int], ...]
    yakuman: tuple[int, ...]
    dora: tuple[int, ...]
    ura: tuple[int, ...]
    honba: int
    sticks: int
    scores: tuple[int, ...]
    deltas: tuple[int, ...]
    pao: int | None
    final: tuple[float, ...] | None

    @property
    def tsumo(self) -> bool:
        return self.who == self.from_who

    def yaku_names(self) -> list[str]:
        return [YAKU_NAMES[i] for i, _ in self.yaku] + [YAKU_NAMES[i] for i in self.yakuman]


@dataclass(frozen=True)
class Ryuukyoku:
    """A drawn hand: ``kind`` is empty for an exhaustive draw, else Tenhou's abort name (``yao9``,
    ``reach4``, ``ron3``, ``kan4``, ``kaze4``, ``nm`` for nagashi mangan); ``shown`` maps the seats
    that showed their hand (tenpai) to it."""

    kind: str
    honba: int
    sticks: int
    scores: tuple[int, ...]
    deltas: tuple[int, ...]
    shown: dict[int, tuple[int, ...]]
    final: tuple[float, ...] | None


Event = Draw | Discard | Call | Reach | NewDora | Agari | Ryuukyoku


@dataclass
class Hand:
    """One hand (局): its start and its events in order."""

    init: Init
    events: list[Event] = field(default_factory=list)

    @property
    def results(self) -> list[Agari | Ryuukyoku]:
        return [e for e in self.events if isinstance(e, Agari | Ryuukyoku)]


@dataclass
class Game:
    """A whole log: players, game type flags, first dealer and hands."""

    players: tuple[str, ...]
    game_type: int
    first_dealer: int
    hands: list[Hand]


def _ints(text: str | None) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(",")) if text else ()


def _floats(text: str | None) -> tuple[float, ...] | None:
    return tuple(float(x) for x in text.split(",")) if text else None


def _scores(text: str | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    v = _ints(text)
    return tuple(x * 100 for x in v[0::2]), tuple(x * 100 for x in v[1::2])


_DRAW = "TUVW"
_DISCARD = "DEFG"


class LogError(ValueError):
    """The input is not a readable Tenhou log: not gzip or not XML, an element without an attribute
    it needs or with a malformed one, or a record cut short (a hand without its result, a game
    without its final scores)."""


def parse(source: str | bytes | Path) -> Game:
    """Parses an mjlog from a path (plain or gzip) or from its XML text. A file that cannot be read
    raises ``OSError``; one that is not a whole Tenhou log, :class:`LogError` saying why."""
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("<")):
        data = Path(source).read_bytes()
        try:
            text = gzip.decompress(data).decode() if data[:2] == b"\x1f\x8b" else data.decode()
        except (EOFError, OSError, zlib.error, UnicodeDecodeError) as e:
            raise LogError(f"not a readable log: {e}") from None
    else:
        text = source.decode() if isinstance(source, bytes) else source
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        raise LogError(f"not a readable log: not XML ({e})") from None
    game = Game((), 0, 0, [])
    last_draw: dict[int, int] = {}
    for el in root:
        try:
            _element(game, el, last_draw)
        except KeyError as e:
            raise LogError(f"not a readable log: <{el.tag}> has no {e.args[0]} attribute") from None
        except (ValueError, IndexError) as e:
            raise LogError(f"not a readable log: <{el.tag}> has a malformed attribute ({e})") from None
    for i, hand in enumerate(game.hands):
        if not hand.events or not isinstance(hand.events[-1], Agari | Ryuukyoku):
            raise LogError(
                f"not a readable log: its hand {i + 1} ends without a result (AGARI or RYUUKYOKU): "
                "the record is cut short"
            )
    if game.hands and game.hands[-1].results[-1].final is None:
        raise LogError(
            "not a readable log: its last hand has no final scores (owari): the record is cut short"
        )
    return game


def _element(game: Game, el: ET.Element, last_draw: dict[int, int]) -> None:
    """Adds one element of a log to ``game``; ``last_draw`` holds each seat's last drawn tile in
    the current hand (to tell tsumogiri)."""
    tag, a = el.tag, el.attrib
    hands = game.hands
    if tag == "GO":
        game.game_type = int(a.get("type", "0"))
    elif tag == "UN" and "n0" in a and not game.players:
        game.players = tuple(unquote(a.get(f"n{i}", "")) for i in range(4))
    elif tag == "TAIKYOKU":
        game.first_dealer = int(a.get("oya", "0"))
    elif tag == "INIT":
        seed = _ints(a["seed"])
        hands.append(
            Hand(
                Init(
                    round=seed[0], honba=seed[1], sticks=seed[2], dice=(seed[3] + 1, seed[4] + 1),
                    dora_indicator=seed[5], scores=tuple(x * 100 for x in _ints(a["ten"])),
                    dealer=int(a["oya"]), hands=tuple(_ints(a.get(f"hai{i}")) for i in range(4)),
                )
            )
        )  # fmt: skip
        last_draw.clear()
    elif not hands:
        return
    elif tag[0] in _DRAW and tag[1:].isdigit():
        who = _DRAW.index(tag[0])
        last_draw[who] = int(tag[1:])
        hands[-1].events.append(Draw(who, int(tag[1:])))
    elif tag[0] in _DISCARD and tag[1:].isdigit():
        who, tile = _DISCARD.index(tag[0]), int(tag[1:])
        hands[-1].events.append(Discard(who, tile, last_draw.pop(who, None) == tile))
    elif tag == "N":
        who = int(a["who"])
        last_draw.pop(who, None)
        hands[-1].events.append(Call(who, Meld.decode(int(a["m"]))))
    elif tag == "REACH":
        ten = a.get("ten")
        hands[-1].events.append(
            Reach(int(a["who"]), int(a["step"]), tuple(x * 100 for x in _ints(ten)) if ten else None)
        )
    elif tag == "DORA":
        hands[-1].events.append(NewDora(int(a["hai"])))
    elif tag == "AGARI":
        scores, deltas = _scores(a.get("sc"))
        scored = _ints(a["ten"])  # fu, points, limit
        yaku = _ints(a.get("yaku"))
        ba = _ints(a.get("ba", "0,0"))
        hands[-1].events.append(
            Agari(
                who=int(a["who"]), from_who=int(a["fromWho"]), hand=_ints(a["hai"]),
                melds=tuple(Meld.decode(m) for m in _ints(a.get("m"))), machi=int(a["machi"]),
                fu=scored[0], points=scored[1], limit=scored[2],
                yaku=tuple(zip(yaku[0::2], yaku[1::2], strict=True)), yakuman=_ints(a.get("yakuman")),
                dora=_ints(a.get("doraHai")), ura=_ints(a.get("doraHaiUra")),
                honba=ba[0], sticks=ba[1], scores=scores, deltas=deltas,
                pao=int(a["paoWho"]) if "paoWho" in a else None, final=_floats(a.get("owari")),
            )
        )  # fmt: skip
    elif tag == "RYUUKYOKU":
        scores, deltas = _scores(a.get("sc"))
        ba = _ints(a.get("ba", "0,0"))
        shown = {i: _ints(a[f"hai{i}"]) for i in range(4) if f"hai{i}" in a}
        hands[-1].events.append(
            Ryuukyoku(a.get("type", ""), ba[0], ba[1], scores, deltas, shown,
                      _floats(a.get("owari")))
        )  # fmt: skip
