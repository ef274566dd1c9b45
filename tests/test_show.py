"""`simharness show`: a game of a run played again from the manifest, checked against the run's
rows, and drawn as one self-contained page that steps with the keyboard."""

from __future__ import annotations

import html
import importlib
import json
import re
import shutil
import subprocess
import tracemalloc
from collections import Counter
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest
from browser import CHROMIUM, NO_CHROMIUM, fit
from harness_helpers import play
from typer.testing import CliRunner

from simharness import engine, store
from simharness.cli import app
from simharness.show import page_path, replay, write_page
from simharness.show.page import packed

RUNS = {
    "sugoroku": (
        'game = "sugoroku"\ngames = 12\nshard_size = 6\nduplicate = true\n'
        'players = ["naive", "greedy", "random"]\n[rules]\npreset = "default"\n'
    ),
    "suzume": (
        'game = "suzume"\ngames = 12\nshard_size = 4\nduplicate = true\n'
        'players = ["fastest", "max-points", "defensive", "tsumo-only"]\n[rules]\npreset = "default"\n'
    ),
    "hongkong": (
        'game = "hongkong"\ngames = 12\nshard_size = 4\nduplicate = true\n'
        'players = ["chicken-fast", "pung-hunter", "concealed", "defensive"]\n[rules]\npreset = "default"\n'
    ),
    "riichi": (
        'game = "riichi"\ngames = 12\nshard_size = 4\nduplicate = true\n'
        'players = ["call-happy", "yakuhai-caller", "efficiency", "kan-happy"]\n'
        '[rules]\npreset = "tenhou"\ngame_length = "tonpuu"\n'
    ),
    "trump": (
        'game = "trump"\ngames = 12\nshard_size = 6\nduplicate = true\n'
        'players = ["always-riichi", "kokushi-hunter", "max-han"]\n[rules]\npreset = "default"\n'
        "mistake_rate = 0.01\n"  # chombos and their replays on the pages too
    ),
}


@pytest.fixture(scope="module", params=sorted(RUNS))
def run_dir(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play(tmp_path_factory.mktemp(request.param), request.param, RUNS[request.param])


def _show(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["show", *args])
    return result.exit_code, result.output


def test_page_holds_every_hand_and_the_runs_final_points(run_dir: Path) -> None:
    run = store.open_run(run_dir)
    for game in (0, 7, 11):
        code, out = _show(str(run_dir), "--game", str(game))
        assert code == 0, out
        path = page_path(run_dir, "base", game)
        assert out.strip() == str(path)
        text = path.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text  # nothing to fetch
        # Every hand (or sugoroku turn) is listed, as many as the run's `games` row counts.
        rows = re.findall(r'<tr class="part [a-z]+" data-part="([^"]+)"', text)
        logged_game = run.table("games").filter(pl.col("game") == game).row(0, named=True)
        assert len(rows) == logged_game["turns" if run.manifest.game == "sugoroku" else "hands"]
        overview = text.split('<div id="bar">')[0]
        finals = [int(x) for x in re.findall(r'<td class="points">(-?\d+)</td>', overview)]
        logged = run.table("players").filter(pl.col("game") == game).sort("seat")
        assert finals == logged["final_points"].to_list()
        for strategy in logged["strategy"].to_list():
            assert strategy in text


def test_a_game_outside_the_run_or_an_unknown_variant_is_refused(run_dir: Path) -> None:
    code, out = _show(str(run_dir), "--game", "12")
    assert code == 2 and "no game 12: the run has games 0 to 11" in out
    code, out = _show(str(run_dir), "--game", "0", "--variant", "nope")
    assert code == 2 and 'no variant "nope"; expected one of: base' in out
    code, out = _show(str(run_dir / "players"), "--game", "0")
    assert code == 2 and "not a run directory" in out


@pytest.mark.parametrize(
    ("game", "body"),
    [
        ("riichi", 'players = ["python-greedy", "call-happy", "efficiency", "kan-happy"]\n'
                   '[rules]\npreset = "tenhou"\ngame_length = "tonpuu"\n'),
        ("sugoroku", 'players = ["python-leader", "naive", "greedy"]\n'),
        ("suzume", 'players = ["python-fastest", "max-points", "defensive"]\n'),
        ("hongkong", 'players = ["python-chicken-fast", "pung-hunter", "concealed", "defensive"]\n'),
        ("trump", 'players = ["python-always-riichi", "kokushi-hunter", "dama"]\n'),
    ],
)  # fmt: skip
def test_python_strategies_decide_again_in_the_replay(game: str, body: str, tmp_path: Path) -> None:
    """A Python seat's `decide` is called again (`_engine.show_python`), so the game ends as logged."""
    run = play(tmp_path, f"{game}-py", f'game = "{game}"\ngames = 2\n{body}')
    code, out = _show(str(run), "--game", "1")
    assert code == 0, out
    assert body.split('"')[1] in Path(out.strip()).read_text(encoding="utf-8")


def test_a_run_the_engine_now_plays_differently_is_refused(run_dir: Path, tmp_path: Path) -> None:
    """A run made by an engine that played game 3 otherwise: its logged final points differ from
    the replay (the shard is rewritten with its provenance, as that engine would have left it)."""
    copy = tmp_path / "run"
    shutil.copytree(run_dir, copy)
    shard = store.shard_path(copy, "players", "base", 0)
    table = pq.read_table(shard)
    points = table.column("final_points").to_pylist()
    games = table.column("game").to_pylist()
    changed = [p + 100 if g == 3 else p for g, p in zip(games, points, strict=True)]
    table = table.set_column(table.schema.get_field_index("final_points"), "final_points", [changed])
    store.write_shard(shard, store.shard_bytes(table.replace_schema_metadata(), store.shard_meta(shard)))
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["provenance"]["engine_version"] = "0.0.1"
    (copy / "manifest.json").write_text(json.dumps(manifest))
    code, out = _show(str(copy), "--game", "3")
    assert code == 2
    assert "plays differently now: players row 0 column final_points" in out and "engine 0.0.1" in out
    assert _show(str(copy), "--game", "2")[0] == 0  # the other games of the shard still agree


def _chromium(uri: str) -> tuple[dict[str, str], str]:
    """The attributes of <body> and the DOM of a page after its script ran, 1280 px wide."""
    dom = subprocess.run(
        [CHROMIUM or "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
         "--virtual-time-budget=20000", "--dump-dom", uri],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip
    body = re.search(r"<body([^>]*)>", dom)
    assert body is not None
    attrs = {k: html.unescape(v) for k, v in re.findall(r'(data-[\w-]+)="([^"]*)"', body.group(1))}
    assert "data-js-errors" not in attrs
    return attrs, dom


@pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)
def test_page_renders_in_headless_chromium_and_steps_with_the_keys(run_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    assert _show(str(run_dir), "--game", "1", "--out", str(out))[0] == 0
    # `#selftest` makes the page press → → ← End itself and record the frame shown after each.
    attrs, _ = _chromium(out.as_uri() + "#selftest")
    steps = json.loads(attrs["data-steps"])
    index = [int(s.split(":", 1)[0]) for s in steps]
    total = int(attrs["data-frames"])
    assert index == [0, 1, 2, 1, total - 1]
    assert len(set(steps)) == 4 and steps[1] == steps[3]  # each step showed another frame
    assert attrs["data-overflow"] == "0"  # nothing wider than a 1280 px window
    # `#all` draws every frame at once: as many as the stepper counts, none wider than the window.
    attrs, dom = _chromium(out.as_uri() + "#all")
    frames = _frames(dom)
    assert len(frames) == total and attrs["data-overflow"] == "0"
    got = fit(out, tmp_path, "#all")  # and no element past the window's right edge either
    assert got.overflowing == [] and got.page <= got.window, got
    # Every hand (or turn) of the overview has frames, in the listed order (sugoroku's setup frame
    # is not listed).
    rows = re.findall(r'<tr class="part [a-z]+" data-part="([^"]+)"', dom)
    framed = list(dict.fromkeys(part for part, _, _ in frames))
    assert [f for f in framed if f in set(rows)] == rows


def test_the_report_and_the_page_number_a_hand_alike(run_dir: Path, tmp_path: Path) -> None:
    """The report's biggest single loss, "seat S (...) lost L points in hand K", is the row the
    page numbers K (its anchor `#hand-K` and first cell), where seat S's change is −L; hands count
    from 1 in both (the report counted from 0, the pages from 1)."""
    from simharness.report.extremes import extreme_games

    run = store.open_run(run_dir)
    picks = [g for g in extreme_games(run) if g["kind"] == "biggest_loss" and "hand" in g]
    if run.manifest.game == "sugoroku":  # no hands: the lowest final score instead
        assert picks == []
        return
    (g,) = picks
    seat, loss, hand = map(
        int, re.search(r"seat (\d+) .* lost (\d+) points in hand (\d+)$", g["why"]).groups()
    )
    assert hand == g["hand"] >= 1
    out = tmp_path / "page.html"
    assert _show(str(run_dir), "--game", str(g["game"]), "--out", str(out))[0] == 0
    row = re.search(rf'<tr class="part hand" data-part="hand-{hand}">(.*?)</tr>', out.read_text())
    assert row is not None
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", row.group(1))
    seats = len(run.manifest.lineup)
    assert cells[0] == str(hand) and cells[-2 * seats + seat] == f"{-loss:+d}"


def _frames(dom: str) -> list[tuple[str, str, str]]:
    """Each frame (part, caption, board) of a page drawn with `#all`."""
    dom = dom.split("<script")[0]  # the script's own text holds the markup it writes
    found = re.findall(
        r'<section class="frame on" data-part="([^"]*)"><div class="caption">(.*?)</div>'
        r'<div class="view">(.*?)</div></section>',
        dom,
        re.S,
    )
    return [(part, html.unescape(caption), board) for part, caption, board in found]


# The kinds of event (`events.kind` labels, as the engine names them) that are discards.
DISCARDS = {
    "hongkong": ("discard",), "riichi": ("discard", "riichi_discard"), "suzume": ("discard",),
    "trump": ("discard", "riichi"),
}  # fmt: skip


@pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)
@pytest.mark.parametrize("game", sorted(DISCARDS))
def test_the_frames_replay_every_discard_of_the_game(
    game: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The page rebuilds its boards from the events in the browser: its captions tell every
    discard the engine logged, in order and by name, and at the end of each hand each seat's
    discards on the board are as many as the seat made in that hand."""
    run = play(tmp_path_factory.mktemp(game), game, RUNS[game])
    out = run / "page.html"
    assert _show(str(run), "--game", "2", "--out", str(out))[0] == 0
    module = importlib.import_module(f"simharness.games.{game}.show")
    shown = replay(run, 2)
    name = module.card_name if game == "trump" else module.tile_name
    reds = (bool(shown.rules["red_tiles"]),) if game == "suzume" else ()  # Suzume-jong names red tiles
    events = shown.tables["events"].sort("hand", "seq")
    tile = "card" if game == "trump" else "tile"
    kinds = engine.codes(game, "events", "kind")
    logged = events.filter(pl.col("kind").is_in([kinds[k] for k in DISCARDS[game]]))
    expected = [(s, name(t, *reds)) for s, t in logged.select("seat", tile).iter_rows()]
    frames = _frames(_chromium(out.as_uri() + "#all")[1])
    told = [
        (int(m.group(1)), m.group(2))
        for _, caption, _ in frames
        if (m := re.search(r"seat (\d) (?:discards|declares riichi, discarding) (.+)$", caption))
    ]
    assert told == expected and len(told) > 20
    last = {part: board for part, _, board in frames}  # each hand's last frame: its end
    for (hand,), made in logged.group_by("hand"):
        table = last[f"hand-{hand + 1}"].split("</table>")[0]  # the board (hands named from 1)
        rows = [r for r in re.findall(r"<tr[^>]*>(.*?)</tr>", table) if "<th" not in r]
        assert len(rows) == shown.seats
        for seat, row in enumerate(rows):
            river = re.findall(r"<td[^>]*>(.*?)</td>", row)[-1]
            assert river.count('<span class="t') == made.filter(pl.col("seat") == seat).height, (hand, seat)


def test_a_trump_chombo_is_drawn_with_its_offender_penalty_and_replay(tmp_path: Path) -> None:
    """The Trump run plays with mistakes: a game with a chombo lists it with its offender, says
    what the offender paid, and labels the hand after it as the replay."""
    run = play(tmp_path, "trump", RUNS["trump"])
    voided = (
        store.open_run(run)
        .table("hands")
        .filter(pl.col("outcome") == engine.codes("trump", "hands", "outcome")["chombo"])
    )
    assert voided.height > 0, "no chombo in the Trump run"
    h = voided.row(0, named=True)
    code, out = _show(str(run), "--game", str(h["game"]))
    assert code == 0, out
    text = Path(out.strip()).read_text(encoding="utf-8")
    assert f"chombo by seat {h['offender']}</td>" in text
    assert f"seat {h['offender']} (" in text and "declared a false tsumo and pays 4 to each opponent" in text
    assert f"replay {h['repeat'] + 1}" in text
    if CHROMIUM is not None:  # the frames are drawn by the page's script
        frames = _frames(_chromium(Path(out.strip()).as_uri() + "#all")[1])
        said = f"seat {h['offender']} declares tsumo on "
        told = [c for part, c, _ in frames if part == f"hand-{h['hand'] + 1}" and said in c]
        assert len(told) == 1 and told[0].endswith(", but the hand is not complete: chombo")


def test_riichi_show_is_the_batch_game_with_its_whole_event_log() -> None:
    """The shown game is the same game as in a batch (same rows, and the batch's sampled event
    log is the same log), and the log rebuilds every hand: every tile dealt or drawn once, every
    discard and meld tile held when it leaves the hand, 13 tiles (a kan counting 3) after each
    discard."""
    rules = engine.resolve_rules("riichi", "tenhou", {"game_length": "tonpuu"})
    caller = engine.resolve_knobs("riichi", {"calls": "any"})
    lineup = [caller, engine.resolve_knobs("riichi", {}), caller, caller]
    logged = {**rules, "event_log_every": 1}
    batch = engine.play_batch("riichi", logged, lineup, seed=4, first_game=0, count=6)
    melds = 0
    for game in range(6):
        shown = engine.show_game("riichi", rules, lineup, seed=4, index=game)
        for t in ("games", "players", "hands", "events"):
            assert shown[t].equals(batch[t].filter(pl.col("game") == game)), t
        wins = shown["wins"]
        hands = shown["hands"]
        assert wins.height == sum(bin(w).count("1") for w in hands["winners"].to_list())
        first = wins.group_by("hand", maintain_order=True).first().sort("hand")
        firsts = hands.filter(pl.col("winners") > 0).sort("hand")
        assert first["points"].to_list() == firsts["points"].to_list()
        for _, ev in shown["events"].group_by("hand"):
            melds += _check_hand(ev.sort("seq"))
    assert melds > 0  # the calls were exercised


def _check_hand(ev: pl.DataFrame) -> int:
    held: dict[int, Counter[int]] = {s: Counter() for s in range(4)}
    melds = dict.fromkeys(range(4), 0)
    seen: set[int] = set()
    last = None
    for seat, kind, tile in ev.select("seat", "kind", "tile").iter_rows():
        if kind in (17, 0, 1):  # dealt, drawn, replacement
            assert tile not in seen
            seen.add(tile)
            held[seat][tile] += 1
        elif kind in (2, 3, 8, 16, 18):  # discards, kakan, nuki, a tile into a meld
            assert held[seat][tile] > 0, (seat, kind, tile)
            held[seat][tile] -= 1
            if kind == 18 and last != (seat, 18):
                melds[seat] += 1
            if kind in (2, 3):  # a meld (a kan too) stands for 3 of the 13 tiles
                assert sum(held[seat].values()) + 3 * melds[seat] == 13, (seat, ev)
        last = (seat, kind)
    return sum(melds.values())


def test_hongkong_show_rebuilds_every_hand_and_its_payments() -> None:
    """The Hong Kong event log rebuilds every hand: no tile kind held more than 4 times, each bonus
    tile once, 13 tiles (a kong counting 3) after each discard, every claim from the discard just
    made; each win's payments (包 included) add up to the hand's point changes. The games are those
    of the numeric chance recipe, under which they were chosen (a limit hand among them)."""
    rules = engine.resolve_rules("hongkong", "default", {"multi_win": "all", "chance_recipe": "numeric"})
    fast = engine.resolve_knobs("hongkong", {})
    pungs = engine.resolve_knobs("hongkong", {"claims": "pung_only", "discard": "pungs"})
    claims, multi, limits = 0, 0, 0
    for lineup, game in [([fast, pungs] * 2, g) for g in range(2)] + [([pungs] * 4, g) for g in range(3)]:
        shown = engine.show_game("hongkong", rules, lineup, seed=9, index=game)
        batch = engine.play_batch("hongkong", rules, lineup, seed=9, first_game=game, count=1)
        for t in ("games", "players", "hands"):
            assert shown[t].equals(batch[t]), t
        for (hand,), ev in shown["events"].group_by("hand"):
            claims += _check_hk_hand(ev.sort("seq"))
            h = shown["hands"].filter(pl.col("hand") == hand)
            wins = shown["wins"].filter(pl.col("hand") == hand)
            multi += wins.height > 1
            limits += (wins["limit"] >= 0).sum()
            assert (
                wins.height
                == h.filter(
                    pl.col("winner") >= 0,
                    pl.col("outcome") != engine.codes("hongkong", "hands", "outcome")["false_win"],
                ).height
            )
            for s in range(4):
                assert wins[f"pay_{s}"].sum() == h[f"delta_{s}"].sum()
            for w in wins.iter_rows(named=True):
                items = shown["win_items"].filter(pl.col("hand") == hand, pl.col("claim") == w["claim"])
                mask = h.filter(pl.col("claim") == w["claim"])["items"][0]
                assert sum(1 << i for i in items["item"]) == mask
                if w["limit"] < 0:
                    assert items["fan"].sum() == w["fan"]
    assert claims > 0 and multi > 0 and limits > 0  # claims, a double win and a limit hand were seen


def _check_hk_hand(ev: pl.DataFrame) -> int:
    held: dict[int, Counter[int]] = {s: Counter() for s in range(4)}
    melds = dict.fromkeys(range(4), 0)
    bonus: set[int] = set()
    last_discard = None
    for seat, kind, tile, frm, base in ev.select("seat", "kind", "tile", "from", "base").iter_rows():
        if kind in (0, 1, 2):  # dealt, drawn, replacement
            if tile >= 34:
                assert tile not in bonus
                bonus.add(tile)
            else:
                held[seat][tile] += 1
                assert sum(h[tile] for h in held.values()) <= 4
        elif kind == 3:
            assert held[seat][tile] > 0
            held[seat][tile] -= 1
            assert sum(held[seat].values()) + 3 * melds[seat] == 13, (seat, ev)
            last_discard = (seat, tile)
        elif kind in (4, 5, 6):  # chow, pung, exposed kong from the discard just made
            assert last_discard == (frm, tile)
            meld = [base, base + 1, base + 2] if kind == 4 else [tile] * (3 if kind == 5 else 4)
            meld.remove(tile)
            for t in meld:
                assert held[seat][t] > 0
                held[seat][t] -= 1
            melds[seat] += 1
        elif kind == 7:  # concealed kong
            assert held[seat][tile] == 4
            held[seat][tile] = 0
            melds[seat] += 1
        elif kind == 8:  # added kong
            assert held[seat][tile] == 1
            held[seat][tile] = 0
    return sum(melds.values())


def test_events_are_packed_a_character_per_value_in_seq_order() -> None:
    """Worked example: the alphabet starts at '#' (value 0), so 5, 4, 3 are '(', "'", '&'; the
    optional second value is written only where it is not null (8: '+'), each hand's events in
    `seq` order; a value the alphabet cannot hold is refused, not wrapped."""
    events = pl.DataFrame(
        {"hand": [1, 0, 0], "seq": [2, 1, 0], "kind": [3, 4, 5]},
        schema={"hand": pl.UInt16, "seq": pl.UInt32, "kind": pl.UInt8},
    )
    extra = pl.when(pl.col("kind") == 4).then(pl.col("kind") * 2)
    assert packed(events, "hand", [pl.col("kind"), extra]) == {0: "('+", 1: "&"}
    with pytest.raises(ValueError, match="runs from -1 to 1"):
        packed(events, "hand", [pl.col("kind") - 4])
    with pytest.raises(ValueError, match="runs from 90 to 150"):
        packed(events, "hand", [pl.col("kind") * 30])
    assert packed(events.clear(), "hand", [pl.col("kind")]) == {}


# Four random players under the old-style table (3-fan minimum) rarely win: the dealer keeps the
# deal on every draw, so game 0 runs past 4,000 hands unless `max_hands` cuts it, and a game of
# as many hands as the longest the review found (2,412) takes seconds to play and show.
LONG_HK = (
    'game = "hongkong"\ngames = 1\nplayers = ["random", "random", "random", "random"]\n'
    '[rules]\npreset = "old_style"\nmax_hands = {hands}\n'
)


@pytest.fixture(scope="module")
def long_pages(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, int]]:
    """Game 0 cut at 150, 300 and 2,412 hands: its page and the number of events it shows."""
    pages = {}
    for hands in (150, 300, 2412):
        run = play(tmp_path_factory.mktemp(f"long{hands}"), "long", LONG_HK.format(hands=hands))
        logged = store.open_run(run).table("games").row(0, named=True)
        assert logged["hands"] == hands and logged["truncated"]
        code, out = _show(str(run), "--game", "0")
        assert code == 0, out
        pages[hands] = (Path(out.strip()), replay(run, 0).tables["events"].height)
    return pages


def test_a_long_hong_kong_game_makes_a_small_page(long_pages: dict[int, tuple[Path, int]]) -> None:
    """A page holds each event in a few bytes (every frame used to repeat the whole board: about
    1,200 bytes per event, 906 MB for a game of 2,412 hands), so that game's page is under 3 MB."""
    for page, events in long_pages.values():
        assert page.stat().st_size < 8 * events
    assert long_pages[2412][0].stat().st_size < 3_000_000


def test_a_page_grows_linearly_with_the_game(long_pages: dict[int, tuple[Path, int]]) -> None:
    """The same game cut at twice the hands makes a page of about twice the bytes."""
    assert 1.8 < long_pages[300][0].stat().st_size / long_pages[150][0].stat().st_size < 2.2


def test_building_a_page_takes_memory_linear_in_the_events(long_pages: dict[int, tuple[Path, int]]) -> None:
    """What Python holds while it writes a page is tens of bytes per event (all the frames' HTML,
    held at once, took gigabytes for a long game)."""
    page, events = long_pages[300]
    tracemalloc.start()
    try:
        write_page(page.parent.parent, 0, out=page.with_name("again.html"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * events
