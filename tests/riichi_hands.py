"""Seeded random winning Riichi hands, as requests for simharness and as arguments for the
``mahjong`` package (shared by the differential test and ``benchmarks/riichi_eval.py``)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simharness.games.riichi.mjlog import Meld, tile_name, tiles_text


@dataclass
class RandomWin:
    concealed: list[int]  # Tenhou tile ids, winning tile included
    win: int
    melds: list[tuple[str, list[int], int | None]]  # (kind, ids with the called one first, called id)
    flags: dict[str, bool]
    round_wind: int  # 0-3
    seat_wind: int
    dora: list[int] = field(default_factory=list)
    ura: list[int] = field(default_factory=list)

    def request(self) -> dict[str, Any]:
        melds = []
        for kind, ids, _ in self.melds:
            source = "" if kind == "ankan" else "@3" if kind == "chi" else "@2"
            melds.append(f"{kind}:{tiles_text(ids)}{source}")
        return {
            "hand": tiles_text(self.concealed), "win": tile_name(self.win), "melds": melds,
            "dora": tiles_text(self.dora), "ura": tiles_text(self.ura), "round_wind": "ESWN"[self.round_wind],
            "seat_wind": "ESWN"[self.seat_wind], **self.flags,
        }  # fmt: skip

    def mahjong_args(self, options: Any) -> dict[str, Any]:
        from mahjong.constants import EAST
        from mahjong.hand_calculating.hand_config import HandConfig
        from mahjong.meld import Meld

        kinds = {"chi": Meld.CHI, "pon": Meld.PON, "kan": Meld.KAN, "ankan": Meld.KAN,
                 "kakan": Meld.SHOUMINKAN}  # fmt: skip
        melds = [
            Meld(meld_type=kinds[k], tiles=sorted(ids), opened=k != "ankan", called_tile=called)
            for k, ids, called in self.melds
        ]
        names = {"tsumo": "is_tsumo", "riichi": "is_riichi", "ippatsu": "is_ippatsu", "rinshan": "is_rinshan",
                 "chankan": "is_chankan", "haitei": "is_haitei", "houtei": "is_houtei",
                 "double_riichi": "is_daburu_riichi"}  # fmt: skip
        config = HandConfig(
            **{names[k]: v for k, v in self.flags.items()},
            player_wind=EAST + self.seat_wind,
            round_wind=EAST + self.round_wind,
            options=options,
        )
        tiles = sorted(self.concealed + [t for _, ids, _ in self.melds for t in ids])
        return {"tiles": tiles, "win_tile": self.win, "melds": melds, "dora_indicators": self.dora,
                "ura_dora_indicators": self.ura or None, "config": config}  # fmt: skip


def random_win(rng: random.Random) -> RandomWin:
    """A complete hand (standard form, seven pairs or thirteen orphans), random calls, winning tile
    and situational flags consistent with each other."""
    pool = {k: [k * 4 + i for i in range(4)] for k in range(34)}
    for ids in pool.values():
        rng.shuffle(ids)

    def take(kind: int) -> int:
        return pool[kind].pop()

    honor_bias = rng.random() < 0.3
    sequence_bias = 0.9 if rng.random() < 0.3 else 0.55
    one_suit = rng.random() < 0.15
    suit = rng.randrange(3)

    def random_kind() -> int:
        if honor_bias and rng.random() < 0.5:
            return 27 + rng.randrange(7)
        return (suit if one_suit else rng.randrange(3)) * 9 + rng.randrange(9)

    form = rng.choices(["standard", "chiitoitsu", "kokushi"], weights=[92, 6, 2])[0]
    melds: list[tuple[str, list[int], int | None]] = []
    concealed: list[int] = []
    if form == "kokushi":
        orphans = [0, 8, 9, 17, 18, 26, *range(27, 34)]
        concealed = [take(k) for k in orphans] + [take(rng.choice(orphans))]
    elif form == "chiitoitsu":
        kinds = rng.sample([k for k in range(34) if (not one_suit or k // 9 in (suit, 3))], 7)
        concealed = [take(k) for k in kinds for _ in range(2)]
    else:
        open_hand = rng.random() < 0.45
        groups: list[list[int]] = []
        while len(groups) < 4:
            k = random_kind()
            sequence = k < 27 and k % 9 <= 6 and rng.random() < sequence_bias
            need = [k, k + 1, k + 2] if sequence else [k, k, k]
            if all(len(pool[x]) >= need.count(x) for x in set(need)):
                groups.append([take(x) for x in need])
        pair_kind = next(k for k in iter(random_kind, None) if len(pool[k]) >= 2)
        concealed = [take(pair_kind), take(pair_kind)]
        for g in groups:
            kinds = sorted(t // 4 for t in g)
            is_set = kinds[0] == kinds[2]
            r = rng.random()
            if is_set and pool[kinds[0]] and r < 0.12:
                g.append(take(kinds[0]))
                kind = rng.choice(["kan", "kakan"]) if open_hand else "ankan"
                melds.append((kind, g, None if kind == "ankan" else g[0]))
            elif open_hand and r < 0.6:
                melds.append(("pon" if is_set else "chi", g, g[0]))
            else:
                concealed.extend(g)
        if len(melds) == 4 and rng.random() < 0.5:
            concealed.extend(melds.pop()[1][:3])
    win = rng.choice(concealed)
    closed = all(k == "ankan" for k, _, _ in melds)
    has_kan = any(k in ("kan", "ankan", "kakan") for k, _, _ in melds)
    tsumo = rng.random() < 0.5
    flags = {"tsumo": tsumo}
    if closed and rng.random() < 0.5:
        flags["double_riichi" if rng.random() < 0.05 else "riichi"] = True
        flags["ippatsu"] = rng.random() < 0.2
    last = rng.random() < 0.06
    if tsumo and has_kan and rng.random() < 0.3:
        flags["rinshan"] = True
    elif tsumo and last:
        flags["haitei"] = True
    elif not tsumo and last:
        flags["houtei"] = True
    elif not tsumo and rng.random() < 0.04:
        flags["chankan"] = True
    rest = [t for ids in pool.values() for t in ids]
    rng.shuffle(rest)
    n = 1 + sum(k in ("kan", "ankan", "kakan") for k, _, _ in melds)
    dora = rest[:n]
    ura = rest[n : 2 * n] if flags.get("riichi") or flags.get("double_riichi") else []
    return RandomWin(concealed, win, melds, flags, rng.randrange(2), rng.randrange(4), dora, ura)


def arrays(wins: list[RandomWin], flag_bits: dict[str, int]) -> dict[str, np.ndarray]:
    """The columns of :func:`simharness.games.riichi.score_arrays` for ``wins``."""
    n = len(wins)
    out = {
        "tiles": np.full((n, 14), -1, dtype=np.int16),
        "win": np.array([w.win for w in wins], dtype=np.int16),
        "melds": np.full((n, 4), -1, dtype=np.int32),
        "flags": np.array(
            [sum(flag_bits[k] for k, v in w.flags.items() if v) for w in wins], dtype=np.uint16
        ),
        "round_wind": np.array([w.round_wind for w in wins], dtype=np.uint8),
        "seat_wind": np.array([w.seat_wind for w in wins], dtype=np.uint8),
        "dora": np.full((n, 5), -1, dtype=np.int16),
        "ura": np.full((n, 5), -1, dtype=np.int16),
    }
    for i, w in enumerate(wins):
        out["tiles"][i, : len(w.concealed)] = w.concealed
        codes = [
            Meld.make(k, ids, called, 0 if k == "ankan" else 3 if k == "chi" else 2).code
            for k, ids, called in w.melds
        ]
        out["melds"][i, : len(codes)] = codes
        out["dora"][i, : len(w.dora)] = w.dora
        out["ura"][i, : len(w.ura)] = w.ura
    return out
