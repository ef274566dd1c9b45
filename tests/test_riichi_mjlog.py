"""Every win of 33 real Tenhou games, rescored from the hand alone, must match Tenhou's han, fu and
points (Tenhou rules: red fives, kuitan, stacked but never double single-hand yakuman).

Taken from the record because the hand cannot show them (the game loop decides them): ippatsu,
chankan, rinshan, haitei, houtei, double riichi, tenhou and chiihou (Tenhou yaku ids 2, 3, 4, 5, 6,
21, 37, 38). Riichi comes from the log's accepted REACH (step 2) events, never from the yaku list.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from simharness.games import riichi
from simharness.games.riichi import mjlog

DATA = Path(__file__).resolve().parent / "data" / "riichi" / "tenhou-mjlog"

SITUATIONAL = {2: "ippatsu", 3: "chankan", 4: "rinshan", 5: "haitei", 6: "houtei", 21: "double_riichi",
               37: "tenhou", 38: "chiihou"}  # fmt: skip


def wins() -> list[tuple[str, mjlog.Init, mjlog.Agari, bool]]:
    out = []
    for path in sorted(DATA.glob("*.mjlog")):
        for hand in mjlog.parse(path).hands:
            riichi_seats: set[int] = set()
            for e in hand.events:
                if isinstance(e, mjlog.Reach) and e.step == 2:
                    riichi_seats.add(e.who)
                elif isinstance(e, mjlog.Agari):
                    out.append((path.name, hand.init, e, e.who in riichi_seats))
    return out


def request(init: mjlog.Init, a: mjlog.Agari, in_riichi: bool) -> dict[str, object]:
    flags = {name: True for i, _ in a.yaku if (name := SITUATIONAL.get(i))}
    flags |= {name: True for i in a.yakuman if (name := SITUATIONAL.get(i))}
    return {
        "hand": mjlog.tiles_text(a.hand),
        "win": mjlog.tile_name(a.machi),
        "melds": [m.notation() for m in a.melds],
        "tsumo": a.tsumo,
        "riichi": in_riichi and "double_riichi" not in flags,
        "dora": mjlog.tiles_text(a.dora),
        "ura": mjlog.tiles_text(a.ura),
        "round_wind": init.round_wind,
        "seat_wind": init.seat_wind(a.who),
        "honba": a.honba,
        "deposits": a.sticks,
        **flags,
    }


ALL = wins()


def test_the_corpus_is_complete() -> None:
    assert len(ALL) == 274
    assert sum(a.tsumo for _, _, a, _ in ALL) > 50
    assert sum(bool(a.melds) for _, _, a, _ in ALL) > 100


def test_riichi_state_from_reach_events_agrees_with_the_record() -> None:
    for name, _, a, in_riichi in ALL:
        recorded = any(i in (1, 21) for i, _ in a.yaku)
        assert recorded == in_riichi, f"{name}: seat {a.who}"


def test_every_win_scores_as_tenhou_did() -> None:
    batch = riichi.score_batch([request(i, a, r) for _, i, a, r in ALL], rules="tenhou")
    assert batch.errors == {}
    mismatches = []
    for row, (name, init, a, in_riichi) in enumerate(ALL):
        han = 13 * len(a.yakuman) if a.yakuman else sum(h for _, h in a.yaku)
        got = (int(batch.han[row]), int(batch.points[row]))
        want = (han, a.points)
        if not a.yakuman:
            got += (int(batch.fu[row]),)
            want += (a.fu,)
        if got != want:
            mismatches.append(f"{name} round {init.round} seat {a.who}: {request(init, a, in_riichi)} "
                              f"got {got}, Tenhou {want} ({a.yaku_names()})")  # fmt: skip
    assert not mismatches, "\n".join(mismatches)


def test_array_batch_form_agrees() -> None:
    """The fast array form, fed Tenhou's own meld codes, gives the same points."""
    bits = riichi.flag_bits()
    n = len(ALL)
    tiles = np.full((n, 14), -1, dtype=np.int16)
    melds = np.full((n, 4), -1, dtype=np.int32)
    dora = np.full((n, 5), -1, dtype=np.int16)
    ura = np.full((n, 5), -1, dtype=np.int16)
    flags = np.zeros(n, dtype=np.uint16)
    for row, (_, init, a, in_riichi) in enumerate(ALL):
        tiles[row, : len(a.hand)] = a.hand
        melds[row, : len(a.melds)] = [m.code for m in a.melds]
        dora[row, : len(a.dora)] = a.dora
        ura[row, : len(a.ura)] = a.ura
        req = request(init, a, in_riichi)
        flags[row] = sum(bit for name, bit in bits.items() if req.get(name))
    batch = riichi.score_arrays(
        tiles, np.array([a.machi for _, _, a, _ in ALL]), melds=melds, flags=flags, dora=dora, ura=ura,
        round_wind=np.array(["ESWN".index(i.round_wind) for _, i, _, _ in ALL]),
        seat_wind=np.array(["ESWN".index(i.seat_wind(a.who)) for _, i, a, _ in ALL]),
    )  # fmt: skip
    assert batch.errors == {}
    np.testing.assert_array_equal(batch.points, [a.points for _, _, a, _ in ALL])


@pytest.mark.parametrize(("name", "init", "agari", "in_riichi"), ALL[:40])
def test_single_hand_api_agrees_with_batch(
    name: str, init: mjlog.Init, agari: mjlog.Agari, in_riichi: bool
) -> None:
    req = request(init, agari, in_riichi)
    hand, win = str(req.pop("hand")), str(req.pop("win"))
    s = riichi.score_hand(hand, win, **req)  # type: ignore[arg-type]
    assert s.points == agari.points
    # The winner receives the points, honba and sticks: Tenhou's score change for the winner
    # (pao aside).
    if agari.pao is None:
        assert s.payments.received == agari.deltas[agari.who], name


def test_meld_decoding() -> None:
    # Decoded from Tenhou's encoding: every meld in the corpus has 3 or 4 tiles of consistent kinds.
    for path in sorted(DATA.glob("*.mjlog")):
        for hand in mjlog.parse(path).hands:
            for e in hand.events:
                if isinstance(e, mjlog.Call):
                    m = e.meld
                    kinds = sorted(t // 4 for t in m.tiles)
                    if m.kind == "chi":
                        assert kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2] and m.from_rel == 3
                    else:
                        assert len(set(kinds)) == 1 and len(kinds) == (3 if m.kind == "pon" else 4)
                    if m.called is not None:
                        assert m.called in m.tiles


def test_replaying_every_event_reproduces_the_recorded_hands() -> None:
    """Parser completeness: following draws, discards and calls from the deal gives exactly the
    concealed hands that each AGARI and RYUUKYOKU shows, and every discard was in hand."""
    checked = 0
    for path in sorted(DATA.glob("*.mjlog")):
        game = mjlog.parse(path)
        assert len(game.players) == 4
        for hand in game.hands:
            held = [sorted(h) for h in hand.init.hands]
            assert all(len(h) == 13 for h in held)
            last_discard: int | None = None
            for e in hand.events:
                if isinstance(e, mjlog.Draw):
                    held[e.who].append(e.tile)
                elif isinstance(e, mjlog.Discard):
                    held[e.who].remove(e.tile)
                    last_discard = e.tile
                elif isinstance(e, mjlog.Call):
                    m = e.meld
                    own = (
                        [t for t in m.tiles if t != m.called] if m.kind in ("chi", "pon", "kan") else m.tiles
                    )
                    if m.kind == "kakan":
                        own = (m.called,)
                    for t in own:
                        held[e.who].remove(t)
                elif isinstance(e, mjlog.Agari):
                    concealed = held[e.who] + ([] if e.tsumo else [e.machi])
                    assert sorted(concealed) == sorted(e.hand), (path.name, e.who)
                    assert (
                        e.tsumo
                        or e.machi == last_discard
                        or any(isinstance(x, mjlog.Call) and x.meld.kind == "kakan" for x in hand.events)
                    )
                    checked += 1
                elif isinstance(e, mjlog.Ryuukyoku):
                    for seat, shown in e.shown.items():
                        assert sorted(shown) == sorted(held[seat]), (path.name, seat)
    assert checked == 274
