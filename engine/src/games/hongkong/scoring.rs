//! Payments (spec §8.2 and the settlement options), 包 liability, the false-win penalty, and the
//! parsing of a hand given in MPSZ notation for the `score hongkong` command.

use super::hand::{evaluate, Hand, HkMeld, Limit, Value, WinContext};
use super::rules::{Bao, EarthlyHand, FalseWinPenalty, Responsibility, Rules};
use crate::games::riichi::tiles::{parse_tiles, Counts, Kind, Meld, Tile, KINDS};

/// A wrong input: the field it came from and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub field: &'static str,
    pub message: String,
}

fn bad(field: &'static str, message: impl Into<String>) -> InputError {
    InputError { field, message: message.into() }
}

/// The accepted tile forms, for the messages about a tile that is not one.
const TILE_FORMS: &str = "a digit and a suit letter: 1m-9m (characters), 1p-9p (dots), 1s-9s (bamboo) or 1z-7z (E S W N 白 發 中)";

/// Parses the concealed tiles (with or without the winning tile), the winning tile and the melds
/// (Riichi's notation: `pon:555z`, `chi:324m`, `kan:9999m`, `ankan:1111z`, `kakan:7777s`).
pub fn parse_hand(hand: &str, win: &str, melds: &[String]) -> Result<Hand, InputError> {
    // Riichi's notation reads 0 as a red five; Hong Kong mahjong has none (§1).
    let no_red = |field: &'static str, text: &str, tiles: &[Tile]| {
        if tiles.iter().any(|t| t.red) {
            Err(bad(field, format!("\"{text}\": Hong Kong mahjong has no red fives (0); write 5")))
        } else {
            Ok(())
        }
    };
    let tiles = parse_tiles(hand).map_err(|e| bad("hand", e))?;
    no_red("hand", hand, &tiles)?;
    let win_tile = match parse_tiles(win).as_deref() {
        Ok([t]) => *t,
        _ => return Err(bad("win", format!("\"{win}\" is not a tile; expected one tile, {TILE_FORMS}"))),
    };
    no_red("win", win, &[win_tile])?;
    let win = win_tile.kind;
    let melds = melds
        .iter()
        .map(|m| {
            let meld = Meld::parse(m).map_err(|e| bad("melds", e))?;
            no_red("melds", m, &meld.tiles)?;
            Ok(meld)
        })
        .collect::<Result<Vec<_>, _>>()?;
    if melds.len() > 4 {
        return Err(bad("melds", format!("a hand has at most 4 melds, got {}", melds.len())));
    }
    let mut concealed: Counts = [0; KINDS];
    for t in &tiles {
        concealed[usize::from(t.kind)] += 1;
    }
    let want = 14 - 3 * melds.len();
    match tiles.len() {
        n if n + 1 == want => concealed[usize::from(win)] += 1,
        n if n == want => {
            if concealed[usize::from(win)] == 0 {
                return Err(bad("win", format!("the hand holds {want} tiles, so it must contain the winning tile, which it does not")));
            }
        }
        n => {
            return Err(bad(
                "hand",
                format!(
                    "{n} concealed tiles with {} melds; expected {} (without the winning tile) or {want} (with it)",
                    melds.len(),
                    want - 1
                ),
            ))
        }
    }
    let melds: Vec<HkMeld> = melds.iter().map(HkMeld::of).collect();
    let mut all = concealed;
    for m in &melds {
        for k in m.tiles() {
            all[usize::from(k)] += 1;
        }
    }
    if let Some(k) = (0..KINDS).find(|&k| all[k] > 4) {
        return Err(bad(
            "hand",
            format!("{} copies of {} (hand and melds together); there are 4 of each tile", all[k], kind_name(k as Kind)),
        ));
    }
    Ok(Hand { concealed, melds, win })
}

pub fn kind_name(k: Kind) -> String {
    crate::games::riichi::tiles::Tile { kind: k, red: false }.name()
}

/// Parses bonus tile numbers `1,3` into a bit set (bit i = tile i+1).
pub fn parse_bonus(field: &'static str, text: &str) -> Result<u8, InputError> {
    let mut bits = 0u8;
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let n: u8 =
            part.parse().ok().filter(|n| (1..=4).contains(n)).ok_or_else(|| bad(field, format!("\"{part}\": expected numbers 1-4")))?;
        if bits & 1 << (n - 1) != 0 {
            return Err(bad(field, format!("{n} is given twice; there is one tile of each number")));
        }
        bits |= 1 << (n - 1);
    }
    Ok(bits)
}

/// Parses a wind letter E S W N into 0-3.
pub fn parse_wind(field: &'static str, text: &str) -> Result<u8, InputError> {
    match text.trim() {
        "E" | "e" => Ok(0),
        "S" | "s" => Ok(1),
        "W" | "w" => Ok(2),
        "N" | "n" => Ok(3),
        other => Err(bad(field, format!("\"{other}\": expected E, S, W or N"))),
    }
}

/// One portion of a win of multiplier `base` (a self-draw costs each other player a portion).
pub fn portion(rules: &Rules, base: f64) -> f64 {
    rules.base_points * base
}

/// Who pays a win, by seat (0-3, turn order): the point change of each seat, summing to zero.
/// `discarder` is the player who dealt in (the kong-maker for a robbed kong); `liable` a 包
/// guarantor, who pays everything alone.
pub fn payments(rules: &Rules, dealer: u8, winner: u8, discarder: Option<u8>, liable: Option<u8>, base: f64) -> [f64; 4] {
    let p = portion(rules, base);
    let mut owe = [0f64; 4];
    for s in (0..4u8).filter(|&s| s != winner) {
        owe[usize::from(s)] = match discarder {
            None => p,
            Some(d) if d == s => match rules.responsibility {
                Responsibility::Half => p,
                Responsibility::Full => 2.0 * p,
            },
            Some(_) => match rules.responsibility {
                Responsibility::Half => p / 2.0,
                Responsibility::Full => 0.0,
            },
        };
        if rules.dealer_double && (s == dealer || winner == dealer) {
            owe[usize::from(s)] *= 2.0;
        }
    }
    let total: f64 = owe.iter().sum();
    let sole = liable.or(discarder.filter(|_| rules.discarder_pays_all));
    if let Some(x) = sole {
        owe = [0.0; 4];
        owe[usize::from(x)] = total;
    }
    // 0.0 - o, not -o: a player who pays nothing shows 0, not -0.
    let mut delta = owe.map(|o| 0.0 - o);
    delta[usize::from(winner)] = total;
    delta
}

/// The false-win penalty (詐糊): the offender pays every other player a self-drawn win at the
/// maximum fan (`limit_each`), or nothing (the hand is void).
pub fn false_win(rules: &Rules, offender: u8) -> [f64; 4] {
    let mut delta = [0f64; 4];
    if rules.false_win_penalty == FalseWinPenalty::LimitEach {
        let each = 3.0 * portion(rules, super::hand::multiplier(rules, rules.max_fan));
        for (s, d) in delta.iter_mut().enumerate() {
            *d = if s == usize::from(offender) { -3.0 * each } else { each };
        }
    }
    delta
}

/// A claimed set of the winner, in claim order: its kind and who discarded the claimed tile.
#[derive(Debug, Clone, Copy)]
pub struct Claimed {
    pub base: Kind,
    pub chow: bool,
    pub from: u8,
}

/// The 包 guarantor of a win (the `bao` option): the discarder of the claim that made the
/// winner's third exposed dragon set, third exposed wind set, or fourth exposed set of one
/// suit, provided the hand won is the one that claim made possible.
pub fn bao_payer(rules: &Rules, claims: &[Claimed], won: &Value) -> Option<u8> {
    if rules.bao == Bao::Off {
        return None;
    }
    let has = |item| won.items.iter().any(|&(i, _)| i == item);
    let target: fn(&Claimed) -> bool;
    let needed;
    if matches!(won.limit, Some(Limit::BigDragons)) {
        (target, needed) = (|c: &Claimed| !c.chow && c.base >= 31, 3);
    } else if matches!(won.limit, Some(Limit::BigWinds | Limit::SmallWinds)) {
        (target, needed) = (|c: &Claimed| !c.chow && (27..31).contains(&c.base), 3);
    } else if has(super::hand::FanItem::FullFlush) && claims.len() == 4 {
        return Some(claims[3].from);
    } else {
        return None;
    }
    claims.iter().filter(|c| target(c)).nth(needed - 1).map(|c| c.from)
}

/// Scores a hand: its best value, or why it does not win.
pub fn score(rules: &Rules, hand: &Hand, ctx: &WinContext) -> Result<Value, String> {
    if ctx.robbing_kong && ctx.self_draw {
        return Err("a robbed kong is won on another player's tile, not a self-draw".into());
    }
    let v = evaluate(rules, hand, ctx).ok_or("the hand is not complete: it is neither 4 sets and a pair nor a special hand")?;
    if !v.legal(rules) {
        return Err(format!("{} fan (bonus tiles not counted: {}) is under the minimum of {}", v.fan, v.counted_fan, rules.min_fan));
    }
    Ok(v)
}

/// What `score hongkong` is told about one win besides the tiles.
pub struct ScoreRequest<'a> {
    pub hand: &'a str,
    pub win: &'a str,
    pub melds: &'a [String],
    pub self_draw: bool,
    pub seat_wind: &'a str,
    pub round_wind: &'a str,
    pub flowers: &'a str,
    pub seasons: &'a str,
    pub last_tile: bool,
    pub replacement: bool,
    pub robbing_kong: bool,
    pub heavenly: bool,
    pub earthly: bool,
    pub kong_on_kong: bool,
}

const WINDS: [&str; 4] = ["E", "S", "W", "N"];

/// One circumstance of a win, as `score hongkong` names it.
struct Circumstance {
    flag: &'static str,
    field: &'static str,
    on: bool,
}

/// Refuses a win that cannot happen in play (spec §3-§5, §8.1, §8.3): the flags of `score
/// hongkong` taken together, against the tiles, the seat and the rules. Input from outside (the
/// CLI, the Python API) goes through it; played games build only what it accepts (the engine's
/// invariant test checks every played win against it).
pub fn check_situation(rules: &Rules, hand: &Hand, ctx: &WinContext) -> Result<(), InputError> {
    use super::hand::Replacement;
    let riichi_earthly = rules.earthly_hand_def == EarthlyHand::Riichi;
    let (heavenly, earthly, last, replacement, robbing, kong_on_kong) = (0, 1, 2, 3, 4, 5);
    let flags = [
        Circumstance { flag: "--heavenly", field: "heavenly", on: ctx.heavenly },
        Circumstance { flag: "--earthly", field: "earthly", on: ctx.earthly },
        Circumstance { flag: "--last-tile", field: "last_tile", on: ctx.last_tile },
        Circumstance { flag: "--replacement", field: "replacement", on: ctx.replacement != Replacement::None && !ctx.kong_on_kong },
        Circumstance { flag: "--robbing-kong", field: "robbing_kong", on: ctx.robbing_kong },
        Circumstance { flag: "--kong-on-kong", field: "kong_on_kong", on: ctx.kong_on_kong },
    ];
    let first_turn = "the first turn comes before any kong, replacement or claim, with the live wall full";
    let from_dead_wall = "a replacement is drawn from the dead wall, not the live wall (§3, §8.1 F6)";
    let own_draw = "robbing a kong wins on another player's tile, a replacement on one's own draw";
    let exclusive: [(usize, usize, &str); 13] = [
        (heavenly, earthly, "the dealer's dealt hand (heavenly) and a non-dealer's win on the dealer's first turn (earthly) are two different wins (§8.3 #15, #16)"),
        (heavenly, last, first_turn),
        (heavenly, replacement, "a heavenly hand is complete as dealt, before any replacement in play (§8.3 #15)"),
        (heavenly, robbing, first_turn),
        (heavenly, kong_on_kong, first_turn),
        (earthly, last, first_turn),
        (earthly, robbing, first_turn),
        (earthly, kong_on_kong, first_turn),
        (last, replacement, from_dead_wall),
        (last, kong_on_kong, from_dead_wall),
        (last, robbing, "a kong is declared only while the live wall holds a tile to replace it (§4), so a robbed kong is never the last tile"),
        (robbing, replacement, own_draw),
        (robbing, kong_on_kong, own_draw),
    ];
    for (a, b, why) in exclusive {
        if flags[a].on && flags[b].on {
            return Err(bad(flags[a].field, format!("{} with {}: {why}", flags[a].flag, flags[b].flag)));
        }
    }
    // Under the riichi-style definition (A16) earthly is a first self-draw, which may be a bonus
    // tile's replacement; the spec's is a win on the dealer's discard.
    if ctx.earthly && !riichi_earthly && flags[replacement].on {
        return Err(bad(
            "earthly",
            "--earthly with --replacement: an earthly hand wins on the dealer's first discard, not on a drawn tile (§8.3 #16)",
        ));
    }
    for (i, why) in [
        (heavenly, "a heavenly hand is the dealer's dealt hand, a self-draw (§8.3 #15)"),
        (replacement, "a replacement tile is one's own draw (§8.1 F7)"),
        (kong_on_kong, "槓上槓 is one's own draw of a kong's replacement"),
    ] {
        if flags[i].on && !ctx.self_draw {
            return Err(bad(flags[i].field, format!("{} with --ron: {why}; use --tsumo", flags[i].flag)));
        }
    }
    if ctx.robbing_kong && ctx.self_draw {
        return Err(bad(
            "robbing_kong",
            "--robbing-kong with --tsumo: robbing a kong wins on the tile another player adds to its pung (§5.3); use --ron",
        ));
    }
    if ctx.earthly && ctx.self_draw != riichi_earthly {
        let message = if riichi_earthly {
            "--earthly with --ron: under earthly_hand_def = riichi an earthly hand is a non-dealer's self-draw on its first draw; use --tsumo"
        } else {
            "--earthly with --tsumo: an earthly hand wins on the dealer's first discard (§8.3 #16); use --ron"
        };
        return Err(bad("earthly", message));
    }
    let seat = WINDS[usize::from(ctx.seat_wind)];
    if ctx.heavenly && ctx.seat_wind != 0 {
        return Err(bad("heavenly", format!("--heavenly with --seat-wind {seat}: only the dealer (East) has a heavenly hand (§8.3 #15)")));
    }
    if ctx.earthly && ctx.seat_wind == 0 {
        return Err(bad("earthly", "--earthly with --seat-wind E: an earthly hand is a non-dealer's (§8.3 #16); East deals"));
    }
    for (on, flag, field) in [(ctx.heavenly, "--heavenly", "heavenly"), (ctx.earthly, "--earthly", "earthly")] {
        if on && !hand.melds.is_empty() {
            return Err(bad(field, format!("{flag} with --melds: {first_turn}, so the hand has no meld")));
        }
    }
    let kongs = hand.melds.iter().filter(|m| m.kind.is_kan()).count();
    if ctx.kong_on_kong && kongs < 2 {
        return Err(bad(
            "kong_on_kong",
            format!("--kong-on-kong with {kongs} kong(s) among --melds: 槓上槓 follows two kongs in a row, so the hand shows at least two"),
        ));
    }
    match ctx.replacement {
        Replacement::Kong if kongs == 0 => {
            return Err(bad("replacement", "--replacement after a kong, but --melds has no kong (kan, ankan or kakan)"));
        }
        Replacement::Bonus if ctx.flowers | ctx.seasons == 0 => {
            return Err(bad(
                "replacement",
                "--replacement with no kong among --melds and no --flowers or --seasons: a replacement is drawn for a kong or a bonus tile (§4), so the hand shows one",
            ));
        }
        _ => {}
    }
    if ctx.robbing_kong {
        let mut held = hand.concealed[usize::from(hand.win)];
        for m in &hand.melds {
            held += m.tiles().filter(|&k| k == hand.win).count() as u8;
        }
        if held != 1 {
            return Err(bad(
                "robbing_kong",
                format!(
                    "--robbing-kong of {}: the kong-maker holds the other three (its exposed pung), so the winning hand holds only the robbed tile, but it holds {held}",
                    kind_name(hand.win)
                ),
            ));
        }
    }
    Ok(())
}

/// The JSON report of `score hongkong`: `legal`, `reason`, `fan` (null for a limit hand),
/// `counted_fan`, `base` (the table's multiplier), `limit`, `items` (name and fan of each),
/// and `payments`: one entry per possible discarder (one with `discarder` null for a
/// self-draw; only East for an earthly hand, won on the dealer's discard), each with every
/// seat's point change by wind (East deals). A win that cannot happen is an [`InputError`]
/// ([`check_situation`]).
pub fn score_report(rules: &Rules, req: &ScoreRequest) -> Result<serde_json::Value, InputError> {
    use serde_json::json;
    let hand = parse_hand(req.hand, req.win, req.melds)?;
    let seat = parse_wind("seat_wind", req.seat_wind)?;
    let replacement = match (req.replacement || req.kong_on_kong, hand.melds.iter().any(|m| m.kind.is_kan())) {
        (false, _) => super::hand::Replacement::None,
        (true, true) => super::hand::Replacement::Kong,
        (true, false) => super::hand::Replacement::Bonus,
    };
    let ctx = WinContext {
        self_draw: req.self_draw,
        seat_wind: seat,
        round_wind: parse_wind("round_wind", req.round_wind)?,
        flowers: parse_bonus("flowers", req.flowers)?,
        seasons: parse_bonus("seasons", req.seasons)?,
        last_tile: req.last_tile,
        replacement,
        robbing_kong: req.robbing_kong,
        heavenly: req.heavenly,
        earthly: req.earthly,
        kong_on_kong: req.kong_on_kong,
    };
    if !rules.has_bonus_tiles() && ctx.flowers | ctx.seasons != 0 {
        return Err(bad("flowers", "the 136-tile set has no flowers or seasons"));
    }
    check_situation(rules, &hand, &ctx)?;
    let mut out = json!({"seat_wind": WINDS[usize::from(seat)], "self_draw": req.self_draw});
    let v = match score(rules, &hand, &ctx) {
        Ok(v) => v,
        Err(reason) => {
            out["legal"] = json!(false);
            out["reason"] = json!(reason);
            if let Some(v) = evaluate(rules, &hand, &ctx) {
                out["fan"] = json!(v.limit.is_none().then_some(v.fan));
                out["counted_fan"] = json!(v.counted_fan);
                out["items"] = items_json(&v);
            }
            return Ok(out);
        }
    };
    let by_wind = |d: [f64; 4]| {
        let mut m = serde_json::Map::new();
        for (s, x) in d.iter().enumerate() {
            m.insert(WINDS[s].into(), json!(x));
        }
        m
    };
    let discarders: Vec<u8> = if ctx.earthly && !ctx.self_draw { vec![0] } else { (0..4u8).filter(|&d| d != seat).collect() };
    let payments: Vec<serde_json::Value> = if req.self_draw {
        vec![json!({"discarder": null, "deltas": by_wind(payments(rules, 0, seat, None, None, v.base))})]
    } else {
        discarders
            .into_iter()
            .map(|d| json!({"discarder": WINDS[usize::from(d)], "deltas": by_wind(payments(rules, 0, seat, Some(d), None, v.base))}))
            .collect()
    };
    out["legal"] = json!(true);
    out["reason"] = json!(null);
    out["fan"] = json!(v.limit.is_none().then_some(v.fan));
    out["counted_fan"] = json!(v.counted_fan);
    out["base"] = json!(v.base);
    out["limit"] = json!(v.limit.map(Limit::name));
    out["items"] = items_json(&v);
    out["portion"] = json!(portion(rules, v.base));
    out["payments"] = json!(payments);
    Ok(out)
}

fn items_json(v: &Value) -> serde_json::Value {
    let mut items: Vec<serde_json::Value> = v.items.iter().map(|&(i, f)| serde_json::json!({"name": i.name(), "fan": f})).collect();
    if let Some(l) = v.limit {
        items.push(serde_json::json!({"name": l.name(), "fan": null}));
    }
    serde_json::Value::Array(items)
}
