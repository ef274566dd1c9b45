"""Riichi commands: ``simharness score riichi`` (hand value), ``simharness shanten`` and
``simharness replay riichi`` (real Tenhou games through the engine, hand by hand)."""

from __future__ import annotations

import json
from dataclasses import asdict
from enum import Enum
from pathlib import Path
from typing import Annotated, Any
from xml.etree import ElementTree

import typer
from rich.console import Console
from rich.markup import escape

from simharness.engine import OptionError
from simharness.games import riichi
from simharness.games.riichi import replay as riichi_replay
from simharness.games.suzume.cli import MAX_JSON_DEPTH, check_win_type, int_between, json_value_problem


def _rule_overrides(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise OptionError("--rule", f'expected KEY=VALUE (e.g. kuitan=false), got "{item}"')
        name = key.strip()
        try:
            out[name] = json.loads(value)
        except (ValueError, RecursionError):  # not JSON (or more than Python reads): a string
            out[name] = value.strip()
        if problem := json_value_problem(out[name]):
            raise OptionError("--rule", f"{item}: {problem}")
    return out


def _split_melds(values: list[str]) -> list[str]:
    """Melds from repeated options, each possibly holding several separated by spaces or commas."""
    return [m for v in values for m in v.replace(",", " ").split()]


def _fail(message: str, code: int) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(code)


def _strict_json_problem(row: Any) -> tuple[str, str] | None:
    """(field, why) for a row that Python's JSON reader takes but the engine's strict one would not,
    refusing the whole batch. The field is the row's key that holds it, else ``line``."""
    fields = row.items() if isinstance(row, dict) else [("line", row)]
    for key, value in fields:
        if problem := json_value_problem(key):
            return "line", problem
        if problem := json_value_problem(value):
            return key, problem
    return None


class _Batch:
    """The rows of a ``--batch`` JSONL file and the one convention of batch commands: every output
    line is a JSON object with the file's ``line`` number; a row that fails prints
    ``{"line", "error", "field"}`` (and the message on stderr) and the others still run; the exit
    status is the worst a single row would have given (2 wrong input, 1 a hand that does not win)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.status = 0
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise OptionError("--batch", f"cannot read {path}: {e.strerror}") from None
        except UnicodeDecodeError as e:
            raise OptionError(
                "--batch", f"{path}: not UTF-8 text (byte {e.start}); expected JSON lines"
            ) from None
        self.rows: list[tuple[int, Any]] = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                self.fail(n, "line", f"not JSON ({e.msg})")
            except ValueError as e:  # Python reads no integer of over 4,300 digits
                self.fail(n, "line", f"a number too long to read ({str(e).split(';')[0]})")
            except RecursionError:
                self.fail(n, "line", f"nested more than {MAX_JSON_DEPTH} levels deep")
            else:
                refused = _strict_json_problem(row)
                if refused is None:
                    self.rows.append((n, row))
                else:
                    self.fail(n, *refused)

    def fail(self, line: int, field: str, message: str, status: int = 2) -> None:
        self.status = max(self.status, status)
        typer.echo(f"error: {self.path}:{line}: {field}: {message}", err=True)
        typer.echo(json.dumps({"line": line, "error": message, "field": field}))

    def finish(self) -> None:
        if self.status:
            raise typer.Exit(self.status)


def score_riichi(
    hand: Annotated[
        str | None, typer.Argument(help="Concealed tiles in MPSZ, with or without the winning tile.")
    ] = None,
    win: Annotated[str | None, typer.Option("--win", help="The winning tile (e.g. 2z, 0p).")] = None,
    tsumo: Annotated[bool, typer.Option("--tsumo", help="Won by self-draw.")] = False,
    ron: Annotated[bool, typer.Option("--ron", help="Won on a discard (the default).")] = False,
    riichi_: Annotated[bool, typer.Option("--riichi", help="Riichi declared.")] = False,
    double_riichi: Annotated[bool, typer.Option("--double-riichi", help="Riichi on the first turn.")] = False,
    ippatsu: Annotated[bool, typer.Option("--ippatsu")] = False,
    haitei: Annotated[bool, typer.Option("--haitei", help="Tsumo on the last wall tile.")] = False,
    houtei: Annotated[bool, typer.Option("--houtei", help="Ron on the last discard.")] = False,
    rinshan: Annotated[bool, typer.Option("--rinshan", help="Tsumo on a kan replacement tile.")] = False,
    chankan: Annotated[bool, typer.Option("--chankan", help="Ron on a tile added to a kan.")] = False,
    tenhou: Annotated[bool, typer.Option("--tenhou", help="Dealer's win on the initial deal.")] = False,
    chiihou: Annotated[bool, typer.Option("--chiihou", help="Non-dealer's tsumo on the first draw.")] = False,
    renhou: Annotated[bool, typer.Option("--renhou", help="Non-dealer's ron before the first draw.")] = False,
    open_riichi: Annotated[
        bool, typer.Option("--open-riichi", help="The riichi is open (local yaku open_riichi).")
    ] = False,
    melds: Annotated[
        list[str] | None,
        typer.Option(
            "--melds", help="A called meld, repeatable: chi:324m, pon:555z@2, kan:5505p@1, ankan:1111z."
        ),
    ] = None,
    dora: Annotated[str, typer.Option("--dora", help="Dora indicator tiles (MPSZ).")] = "",
    ura: Annotated[str, typer.Option("--ura", help="Ura indicator tiles (MPSZ).")] = "",
    round_wind: Annotated[str, typer.Option("--round", help="Round wind: E, S, W, N.")] = "E",
    seat_wind: Annotated[str, typer.Option("--seat", help="Seat wind: E (dealer), S, W, N.")] = "E",
    honba: Annotated[int, typer.Option("--honba", parser=int_between(0, 65535))] = 0,
    deposits: Annotated[
        int,
        typer.Option("--deposits", parser=int_between(0, 65535), help="Riichi sticks the winner collects."),
    ] = 0,
    nukidora: Annotated[
        int,
        typer.Option(
            "--nukidora", parser=int_between(0, 8), help="Extracted flowers or sanma Norths (each a dora)."
        ),
    ] = 0,
    rules: Annotated[str, typer.Option("--rules", help="Rule preset.")] = "tenhou",
    rule: Annotated[
        list[str] | None, typer.Option("--rule", help="A rule override KEY=VALUE, repeatable.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    batch: Annotated[
        Path | None,
        typer.Option("--batch", help="JSONL file: one request object per line (keys as score_hand)."),
    ] = None,
) -> None:
    """Score a winning Riichi hand: han, fu, yaku, dora, limit and payments."""
    try:
        check_win_type(ron, tsumo)
        overrides = _rule_overrides(rule or [])
        if batch is not None:
            _score_batch(_Batch(batch), rules, overrides)
            return
        if hand is None or win is None:
            raise OptionError(
                "hand" if hand is None else "--win", "a hand and --win are required (or --batch FILE)"
            )
        s = riichi.score_hand(
            hand, win, tsumo=tsumo, riichi=riichi_, ippatsu=ippatsu, melds=_split_melds(melds or []),
            dora=dora, ura=ura,
            round_wind=round_wind, seat_wind=seat_wind, honba=honba, deposits=deposits, nukidora=nukidora,
            double_riichi=double_riichi, haitei=haitei, houtei=houtei, rinshan=rinshan, chankan=chankan,
            tenhou=tenhou, chiihou=chiihou, renhou=renhou, open_riichi=open_riichi, rules=rules,
            **overrides,
        )  # fmt: skip
    except riichi.HandNotWinning as e:
        raise _fail(f"cannot win: {e}", 1) from None
    except OptionError as e:
        raise _fail(f"error: {e}", 2) from None
    if as_json:
        typer.echo(json.dumps(asdict(s)))
    else:
        typer.echo(riichi.format_score(s))


def _score_batch(b: _Batch, rules: str, overrides: dict[str, Any]) -> None:
    rows = []
    for n, r in b.rows:
        if isinstance(r, dict):
            rows.append((n, r))
        else:
            b.fail(n, "line", "expected a JSON object")
    result = riichi.score_batch([r for _, r in rows], rules=rules, **overrides)
    names = riichi.yaku_names()
    for i, (line, _) in enumerate(rows):
        if i in result.errors:
            field, message = result.errors[i]
            b.fail(line, field, message, 1 if field == "agari" else 2)
            continue
        mask = int(result.yaku_mask[i])
        typer.echo(json.dumps({
            "line": line, "han": int(result.han[i]), "fu": int(result.fu[i]),
            "points": int(result.points[i]), "yakuman": int(result.yakuman[i]),
            "yaku": [n for k, n in enumerate(names) if mask >> k & 1],
            "ron": int(result.ron[i]), "tsumo_dealer": int(result.tsumo_dealer[i]),
            "tsumo_non_dealer": int(result.tsumo_non_dealer[i]),
        }))  # fmt: skip
    b.finish()


def _shanten_batch(b: _Batch) -> None:
    hands: list[tuple[int, str]] = []
    for line, r in b.rows:
        h = r.get("hand") if isinstance(r, dict) else r
        if isinstance(h, str):
            hands.append((line, h))
        else:
            b.fail(line, "hand", 'expected "MPSZ" or {"hand": "MPSZ"}')
    try:
        values: list[int | None] = [int(n) for n in riichi.shanten_batch([h for _, h in hands])]
    except OptionError:
        # Only when some hand is wrong: find which, hand by hand.
        values = [_one_shanten(b, line, h) for line, h in hands]
    for (line, h), n in zip(hands, values, strict=True):
        if n is not None:
            typer.echo(json.dumps({"line": line, "hand": h, "shanten": n}))
    b.finish()


def _one_shanten(b: _Batch, line: int, hand: str) -> int | None:
    try:
        return riichi.shanten(hand)
    except OptionError as e:
        b.fail(line, e.field, e.message)
        return None


def shanten_cmd(
    hand: Annotated[
        str | None, typer.Argument(help="Concealed tiles in MPSZ (13/14 tiles, fewer after calls).")
    ] = None,
    visible: Annotated[
        str, typer.Option("--visible", help="Tiles seen elsewhere (discards, melds, dora).")
    ] = "",
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    batch: Annotated[
        Path | None, typer.Option("--batch", help='JSONL file: a hand per line, as "MPSZ" or {"hand": ...}.')
    ] = None,
) -> None:
    """Shanten of a hand and the tiles that improve it (with how many are left)."""
    try:
        if batch is not None:
            _shanten_batch(_Batch(batch))
            return
        if hand is None:
            raise OptionError("hand", "a hand is required (or --batch FILE)")
        out = _shanten_report(hand, visible)
    except OptionError as e:
        raise _fail(f"error: {e}", 2) from None
    if as_json:
        typer.echo(json.dumps(out))
        return
    forms = ", ".join(f"{k} {v}" for k, v in out["forms"].items() if v is not None)
    typer.echo(f"shanten {out['shanten']}  ({forms})")
    if "ukeire" in out:
        total = sum(out["ukeire"].values())
        typer.echo(
            f"improving tiles ({total} left): " + " ".join(f"{t}:{n}" for t, n in out["ukeire"].items())
        )
    for discard, tiles in out.get("discards", {}).items():
        total = sum(tiles.values())
        typer.echo(f"discard {discard}: {total} left  " + " ".join(f"{t}:{n}" for t, n in tiles.items()))


def _shanten_report(hand: str, visible: str) -> dict[str, Any]:
    std, chiitoi, kokushi = riichi.shanten_forms(hand)
    out: dict[str, Any] = {
        "hand": hand,
        "shanten": riichi.shanten(hand),
        "forms": {"standard": std, "chiitoitsu": chiitoi, "kokushi": kokushi},
    }
    tiles = riichi.split_tiles(hand)
    if len(tiles) % 3 == 1:
        out["ukeire"] = riichi.ukeire(hand, visible)
    elif out["shanten"] >= 0:
        # 3n+2 tiles: the discards that keep the lowest shanten, each with its improving tiles.
        best: dict[str, dict[str, int]] = {}
        for i, t in enumerate(tiles):
            rest = "".join(tiles[:i] + tiles[i + 1 :])
            if t not in best and riichi.shanten(rest) == out["shanten"]:
                best[t] = riichi.ukeire(rest, visible)
        out["discards"] = dict(sorted(best.items(), key=lambda kv: -sum(kv[1].values())))
    return out


out = Console(highlight=False, soft_wrap=True)


def replay_riichi(
    files: Annotated[list[Path], typer.Argument(help="Tenhou mjlog files (plain or gzip XML).")],
    preset: Annotated[
        str | None,
        typer.Option(
            help="Base rule preset (default: tenhou, or tenhou_sanma for a three-player record); the "
            "log's game type sets players, red fives, kuitan and length."
        ),
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print only differing hands and the total.")
    ] = False,
) -> None:
    """Replay each hand of four- or three-player (sanma) records with the recorded tiles and
    actions; compare winners, han, fu, points, every seat's points after the hand and the next
    hand's state with the record. Exit status 1 if any hand differs or a recorded action is illegal
    for the engine, 2 for an unreadable file or a wrong preset."""
    hands = differing = 0
    for path in files:
        try:
            checks = riichi_replay.replay_file(path, preset)
        except OptionError as e:
            typer.echo(f"error: --preset: {e.message}", err=True)
            raise typer.Exit(2) from None
        except (OSError, EOFError, ValueError, KeyError, ElementTree.ParseError) as e:
            # not a file, not gzip, truncated, not XML or not a Tenhou log: unreadable input
            typer.echo(f"error: {path}: {e}", err=True)
            raise typer.Exit(2) from None
        for c in checks:
            hands += 1
            differing += not c.ok
            if c.ok and not quiet:
                wins = ", ".join(
                    f"seat {w['seat']} {w['han']}han {w['fu']}fu {w['points']}" for w in c.engine["wins"]
                )
                out.print(f"{escape(path.name)} {c.name:7} ok   {c.outcome:13} {wins}")
            elif not c.ok:
                out.print(
                    f"{escape(path.name)} {c.name:7} [red]DIFF[/red] {c.outcome:13} "
                    + escape("; ".join(c.problems))
                )
    out.print(
        f"{hands} hands in {len(files)} games: {hands - differing} equal to the record, {differing} differ"
    )
    if differing:
        raise typer.Exit(1)


class ExportFormat(str, Enum):
    tenhou6 = "tenhou6"
    mjai = "mjai"


def export_riichi(
    run_dir: Annotated[Path, typer.Argument(help="A run directory of a Riichi experiment.")],
    game: Annotated[int, typer.Option("--game", "-g", help="The game's index within its variant.")],
    fmt: Annotated[
        ExportFormat, typer.Option("--format", "-f", help="tenhou6 (tenhou.net/6 JSON) or mjai (JSON lines).")
    ],
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="The variant (default: the first).")
    ] = None,
    out_file: Annotated[
        Path | None, typer.Option("--out", "-o", help="The file (default: standard output).")
    ] = None,
) -> None:
    """Play game N of a run again (as `show` does, checked against the run's rows) and write it as
    tenhou.net/6 JSON or mjai JSON lines."""
    from simharness.errors import UserError
    from simharness.games.riichi import export
    from simharness.show import replay

    try:
        shown = replay(run_dir, game, variant)
        if shown.manifest.game != "riichi":
            raise UserError(f"a {shown.manifest.game} run; export riichi takes a Riichi run", file=run_dir)
        if int(shown.rules["players"]) != 4:
            raise UserError(
                "three-player games are not exported yet (tenhou6 and mjai here assume 4 seats)", file=run_dir
            )
        log = export.from_shown(shown)
        text = (
            json.dumps(export.to_tenhou6(log), ensure_ascii=False) + "\n"
            if fmt is ExportFormat.tenhou6
            else export.mjai_lines(log)
        )
        if out_file is None:
            typer.echo(text, nl=False)
        else:
            out_file.write_text(text, encoding="utf-8")
    except (UserError, OptionError) as e:
        typer.echo(f"error: {e.describe() if isinstance(e, UserError) else e}", err=True)
        raise typer.Exit(2) from None
    except OSError as e:
        typer.echo(f"error: {e.filename or out_file}: {e.strerror or e}", err=True)
        raise typer.Exit(2) from None


def register(app: typer.Typer, score_app: typer.Typer) -> None:
    score_app.command("riichi")(score_riichi)
    app.command("shanten")(shanten_cmd)
    replay_app = typer.Typer(help="Replay recorded real games through the engine.", no_args_is_help=True)
    replay_app.command("riichi")(replay_riichi)
    app.add_typer(replay_app, name="replay")
    export_app = typer.Typer(
        help="Write one game of a run in a format other tools read.", no_args_is_help=True
    )
    export_app.command("riichi")(export_riichi)
    app.add_typer(export_app, name="export")
