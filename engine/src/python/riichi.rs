//! Riichi hand tools for Python: shanten, ukeire and hand scoring, one hand or many per call.
//!
//! Not-winning hands raise `ValueError(("agari", why))`; malformed input names its field.

use super::option_error;
use crate::games::riichi::hand::{self, Score, ScoreError};
use crate::games::riichi::tiles::{counts_of, parse_tiles, Counts, Tile, KINDS};
use crate::games::riichi::yaku::Situation;
use crate::games::riichi::{agari, rules, shanten};
use crate::options::{OptionError, Options};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use serde_json::{json, Value};

fn score_error(e: ScoreError) -> PyErr {
    match e {
        ScoreError::Input(o) => option_error(o),
        ScoreError::NoWin(m) => PyValueError::new_err(("agari".to_owned(), m)),
    }
}

fn counts(field: &str, text: &str) -> PyResult<Counts> {
    let tiles = parse_tiles(text).map_err(|e| option_error(OptionError::new(field, e)))?;
    let c = counts_of(&tiles);
    if let Some(k) = (0..KINDS).find(|&k| c[k] > 4) {
        let name = Tile { kind: k as u8, red: false }.name();
        return Err(option_error(OptionError::new(field, format!("{} copies of {name}; there are only 4", c[k]))));
    }
    Ok(c)
}

fn check_size(c: &Counts) -> PyResult<usize> {
    let n: usize = c.iter().map(|&x| usize::from(x)).sum();
    shanten::melds_needed(n).map_err(|e| option_error(OptionError::new("hand", e)))
}

/// Shanten of a concealed hand in MPSZ (the best of standard form, seven pairs, thirteen orphans).
#[pyfunction]
fn riichi_shanten(hand: &str) -> PyResult<i8> {
    let c = counts("hand", hand)?;
    check_size(&c)?;
    Ok(shanten::shanten(&c))
}

/// Shanten of each form: (standard, chiitoitsu, kokushi); the last two are None below 13 tiles.
#[pyfunction]
fn riichi_shanten_forms(hand: &str) -> PyResult<(i8, Option<i8>, Option<i8>)> {
    let c = counts("hand", hand)?;
    let melds = check_size(&c)?;
    let full = melds == 4;
    Ok((shanten::standard(&c, melds), full.then(|| shanten::chiitoitsu(&c)), full.then(|| shanten::kokushi(&c))))
}

/// Shanten of many hands given as the bytes of a C-contiguous `(n, 34)` `uint8` array of counts
/// (bytes, not the buffer protocol: the stable ABI of Python 3.10 has none); returns `n` `int8`
/// values. A row whose tile count no hand has, or with more than 4 of a kind, gets −2.
#[pyfunction]
fn riichi_shanten_counts<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    if !data.len().is_multiple_of(KINDS) {
        return Err(option_error(OptionError::new("hands", "expected the bytes of an (n, 34) array of uint8 counts")));
    }
    let out: Vec<u8> = data
        .chunks_exact(KINDS)
        .map(|row| {
            let c: Counts = row.try_into().expect("chunk of 34");
            let n: usize = c.iter().map(|&x| usize::from(x)).sum();
            let valid = c.iter().all(|&x| x <= 4) && shanten::melds_needed(n).is_ok();
            (if valid { shanten::shanten(&c) } else { -2 }) as u8
        })
        .collect();
    Ok(PyBytes::new(py, &out))
}

/// Shanten of many MPSZ hands (`int8` bytes); the first bad hand is an error naming its index.
#[pyfunction]
fn riichi_shanten_hands<'py>(py: Python<'py>, hands: Vec<String>) -> PyResult<Bound<'py, PyBytes>> {
    let mut out = Vec::with_capacity(hands.len());
    for (i, h) in hands.iter().enumerate() {
        let field = format!("hands[{i}]");
        let c = counts(&field, h)?;
        let n: usize = c.iter().map(|&x| usize::from(x)).sum();
        shanten::melds_needed(n).map_err(|e| option_error(OptionError::new(&field, e)))?;
        out.push(shanten::shanten(&c) as u8);
    }
    Ok(PyBytes::new(py, &out))
}

/// Tiles that lower the shanten of a 3n+1-tile hand: `[(tile, unseen copies)]`, given the
/// tiles already visible elsewhere (MPSZ).
#[pyfunction]
#[pyo3(signature = (hand, visible=""))]
fn riichi_ukeire(hand: &str, visible: &str) -> PyResult<Vec<(String, u8)>> {
    let c = counts("hand", hand)?;
    let n = check_size(&c).map(|_| c.iter().map(|&x| usize::from(x)).sum::<usize>())?;
    if n % 3 != 1 {
        return Err(option_error(OptionError::new("hand", format!("ukeire needs 3n+1 tiles (13, 10, …), got {n}"))));
    }
    let v = counts("visible", visible)?;
    // The hand's own tiles are seen too: together they may not exceed the four copies of a tile.
    if let Some(k) = (0..KINDS).find(|&k| c[k] + v[k] > 4) {
        let name = Tile { kind: k as u8, red: false }.name();
        let msg = format!("{} copies of {name} with the hand's {}; there are only 4", v[k], c[k]);
        return Err(option_error(OptionError::new("visible", msg)));
    }
    Ok(shanten::ukeire(&c, &v).into_iter().map(|(k, left)| (Tile { kind: k, red: false }.name(), left)).collect())
}

/// The tiles of an MPSZ string, one name each (`0m` for a red five).
#[pyfunction]
fn riichi_tiles(hand: &str) -> PyResult<Vec<String>> {
    let tiles = parse_tiles(hand).map_err(|e| option_error(OptionError::new("hand", e)))?;
    Ok(tiles.into_iter().map(Tile::name).collect())
}

/// Kinds that complete a 3n+1-tile hand (MPSZ names).
#[pyfunction]
fn riichi_waits(hand: &str) -> PyResult<Vec<String>> {
    let c = counts("hand", hand)?;
    check_size(&c)?;
    Ok(agari::waits(&c).into_iter().map(|k| Tile { kind: k, red: false }.name()).collect())
}

fn score_json(s: &Score, rules: &rules::Rules) -> Value {
    json!({
        "han": s.han, "fu": s.fu, "points": s.points, "basic": s.basic,
        "yaku": s.yaku(rules).iter().map(|(y, h)| json!([y.name(), h])).collect::<Vec<_>>(),
        "yakuman": s.yakuman, "dora": s.dora, "aka": s.aka, "ura": s.ura, "nuki": s.nuki, "limit": s.limit.name(),
        "form": format!("{:?}", s.form).to_lowercase(),
        "wait": s.wait.map(|w| format!("{w:?}").to_lowercase()),
        "closed": s.closed, "dealer": s.dealer, "tsumo": s.tsumo,
        "payments": {"ron": s.payments.ron, "tsumo_dealer": s.payments.tsumo_dealer,
                     "tsumo_non_dealer": s.payments.tsumo_non_dealer, "received": s.payments.received},
    })
}

fn base_rules(preset: &str, overrides: &str) -> PyResult<rules::Rules> {
    let overrides: Value =
        serde_json::from_str(overrides).map_err(|e| option_error(OptionError::new("rules", format!("invalid JSON: {e}"))))?;
    rules::resolve(preset, &overrides).map_err(option_error)
}

fn parse_requests(text: &str) -> PyResult<Value> {
    serde_json::from_str(text).map_err(|e| option_error(OptionError::new("request", format!("invalid JSON: {e}"))))
}

/// Scores one hand: `request` is a JSON object (see `hand::request`); returns JSON.
#[pyfunction]
fn riichi_score(request: &str, preset: &str, overrides: &str) -> PyResult<String> {
    let rules = base_rules(preset, overrides)?;
    let (w, r) = hand::request(&parse_requests(request)?, &rules).map_err(score_error)?;
    Ok(score_json(&hand::score(&w, &r).map_err(score_error)?, &r).to_string())
}

/// A failed row of a batch: (row, field, message).
type RowError = (usize, String, String);

/// Columns `(name, numpy dtype, bytes)` and the failed rows of a batch.
type Columns = (Vec<(&'static str, &'static str, Vec<u8>)>, Vec<RowError>);

/// The columns and failures of a batch of scoring results.
fn columns(results: impl ExactSizeIterator<Item = Result<Score, ScoreError>>) -> Columns {
    let n = results.len();
    let mut han = Vec::with_capacity(n * 2);
    let mut fu = Vec::with_capacity(n * 2);
    let mut points = Vec::with_capacity(n * 4);
    let mut yakuman = Vec::with_capacity(n);
    let mut mask = Vec::with_capacity(n * 8);
    let mut dora = Vec::with_capacity(n);
    let mut limit = Vec::with_capacity(n);
    let mut ron = Vec::with_capacity(n * 4);
    let mut tsumo_dealer = Vec::with_capacity(n * 4);
    let mut tsumo_non_dealer = Vec::with_capacity(n * 4);
    let mut errors = Vec::new();
    for (row, result) in results.enumerate() {
        let (h, f, p, y, m, d, l, r, td, tn) = match result {
            Ok(s) => (
                s.han as u16,
                s.fu as u16,
                s.points,
                s.yakuman,
                s.yaku_mask,
                s.dora + s.aka + s.ura + s.nuki,
                s.limit as u8,
                s.payments.ron,
                s.payments.tsumo_dealer,
                s.payments.tsumo_non_dealer,
            ),
            Err(e) => {
                errors.push(match e {
                    ScoreError::Input(o) => (row, o.field, o.message),
                    ScoreError::NoWin(m) => (row, "agari".to_owned(), m),
                });
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            }
        };
        han.extend(h.to_le_bytes());
        fu.extend(f.to_le_bytes());
        points.extend(p.to_le_bytes());
        yakuman.push(y);
        mask.extend(m.to_le_bytes());
        dora.push(d);
        limit.push(l);
        ron.extend(r.to_le_bytes());
        tsumo_dealer.extend(td.to_le_bytes());
        tsumo_non_dealer.extend(tn.to_le_bytes());
    }
    let cols = vec![
        ("han", "uint16", han),
        ("fu", "uint16", fu),
        ("points", "uint32", points),
        ("yakuman", "uint8", yakuman),
        ("yaku_mask", "uint64", mask),
        ("dora", "uint8", dora),
        ("limit", "uint8", limit),
        ("ron", "uint32", ron),
        ("tsumo_dealer", "uint32", tsumo_dealer),
        ("tsumo_non_dealer", "uint32", tsumo_non_dealer),
    ];
    (cols, errors)
}

type BatchResult<'py> = PyResult<(Bound<'py, PyList>, Vec<RowError>)>;

fn to_python<'py>(py: Python<'py>, (cols, errors): Columns) -> BatchResult<'py> {
    let out = PyList::empty(py);
    for (name, dtype, data) in cols {
        out.append((name, dtype, PyBytes::new(py, &data)))?;
    }
    Ok((out, errors))
}

/// Scores a JSON list of requests in one call, releasing the GIL. Returns `(columns, errors)`:
/// columns as `(name, numpy dtype, bytes)` with one row per request (zeros where it failed), and
/// `errors` as `(row, field, message)` (field `agari` when the hand does not win).
#[pyfunction]
fn riichi_score_batch<'py>(py: Python<'py>, requests: &str, preset: &str, overrides: &str) -> BatchResult<'py> {
    let rules = base_rules(preset, overrides)?;
    let list = match parse_requests(requests)? {
        Value::Array(v) => v,
        _ => return Err(option_error(OptionError::new("requests", "expected a JSON list of requests"))),
    };
    let out = py.detach(|| columns(list.iter().map(|v| hand::request(v, &rules).and_then(|(w, r)| hand::score(&w, &r)))));
    to_python(py, out)
}

/// Bits of the `flags` column of [`riichi_score_arrays`], in order.
const FLAG_NAMES: [&str; 11] =
    ["tsumo", "riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou"];

fn le<const N: usize>(field: &str, data: &[u8], rows: usize, per_row: usize) -> PyResult<Vec<[u8; N]>> {
    if data.len() != rows * per_row * N {
        return Err(option_error(OptionError::new(
            field,
            format!("expected {rows} rows of {per_row} value(s) of {N} byte(s), got {} bytes", data.len()),
        )));
    }
    Ok(data.chunks_exact(N).map(|c| c.try_into().expect("chunk of N")).collect())
}

/// One hand from the columns of [`riichi_score_arrays`], into `w` (reused so that a batch does
/// not allocate per hand).
#[allow(clippy::too_many_arguments)]
fn array_input(
    w: &mut hand::WinInput,
    tiles: &[[u8; 2]],
    win: [u8; 2],
    melds: &[[u8; 4]],
    flags: u16,
    round: u8,
    seat: u8,
    dora: &[[u8; 2]],
    ura: &[[u8; 2]],
    honba: u16,
    deposits: u16,
) -> Result<(), ScoreError> {
    let bad = |field: &str, m: String| ScoreError::Input(OptionError::new(field, m));
    let ids = |field: &'static str, v: &[[u8; 2]], out: &mut Vec<Tile>| {
        out.clear();
        for id in v.iter().map(|b| i16::from_le_bytes(*b)).filter(|&id| id >= 0) {
            out.push(Tile::from_id(id as u16).ok_or_else(|| bad(field, format!("tile id {id} is not 0-135")))?);
        }
        Ok::<(), ScoreError>(())
    };
    ids("tiles", tiles, &mut w.hand)?;
    ids("dora", dora, &mut w.dora)?;
    ids("ura", ura, &mut w.ura)?;
    let win_id = i16::from_le_bytes(win);
    w.win = Some(u16::try_from(win_id).ok().and_then(Tile::from_id).ok_or_else(|| bad("win", format!("tile id {win_id} is not 0-135")))?);
    w.honba = u32::from(honba);
    w.deposits = u32::from(deposits);
    w.melds.clear();
    for m in melds {
        let code = i32::from_le_bytes(*m);
        if code >= 0 {
            w.melds.push(crate::games::riichi::tiles::Meld::from_tenhou(code as u32).map_err(|e| bad("melds", e))?);
        }
    }
    let f = |i: usize| flags >> i & 1 == 1;
    if round > 3 || seat > 3 {
        return Err(bad(if round > 3 { "round_wind" } else { "seat_wind" }, "expected 0-3 (E S W N)".to_owned()));
    }
    w.situation = Situation {
        tsumo: f(0),
        riichi: f(1),
        double_riichi: f(2),
        ippatsu: f(3),
        haitei: f(4),
        houtei: f(5),
        rinshan: f(6),
        chankan: f(7),
        tenhou: f(8),
        chiihou: f(9),
        renhou: f(10),
        round_wind: 27 + round,
        seat_wind: 27 + seat,
        ..Situation::default()
    };
    Ok(())
}

/// Scores `n` hands given as little-endian columns (the fast batch form, no JSON):
/// `tiles` (n×14 int16 tile ids 0–135, −1 = none; concealed tiles with the winning tile), `win`
/// (n int16), `melds` (n×4 int32 Tenhou meld codes, −1 = none), `flags` (n uint16, bits in
/// [`FLAG_NAMES`] order), `round_wind`/`seat_wind` (n uint8, 0–3 = E S W N), `dora`/`ura` (n×5
/// int16 indicator ids, −1 = none), `honba`/`deposits` (n uint16). Returns as
/// [`riichi_score_batch`].
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn riichi_score_arrays<'py>(
    py: Python<'py>,
    n: usize,
    tiles: &[u8],
    win: &[u8],
    melds: &[u8],
    flags: &[u8],
    round_wind: &[u8],
    seat_wind: &[u8],
    dora: &[u8],
    ura: &[u8],
    honba: &[u8],
    deposits: &[u8],
    preset: &str,
    overrides: &str,
) -> BatchResult<'py> {
    let rules = base_rules(preset, overrides)?;
    let (tiles, win, melds) = (le::<2>("tiles", tiles, n, 14)?, le::<2>("win", win, n, 1)?, le::<4>("melds", melds, n, 4)?);
    let flags = le::<2>("flags", flags, n, 1)?;
    let (round, seat) = (le::<1>("round_wind", round_wind, n, 1)?, le::<1>("seat_wind", seat_wind, n, 1)?);
    let (dora, ura) = (le::<2>("dora", dora, n, 5)?, le::<2>("ura", ura, n, 5)?);
    let (honba, deposits) = (le::<2>("honba", honba, n, 1)?, le::<2>("deposits", deposits, n, 1)?);
    let out = py.detach(|| {
        let mut w = hand::WinInput::default();
        columns((0..n).map(|i| {
            array_input(
                &mut w,
                &tiles[i * 14..i * 14 + 14],
                win[i],
                &melds[i * 4..i * 4 + 4],
                u16::from_le_bytes(flags[i]),
                round[i][0],
                seat[i][0],
                &dora[i * 5..i * 5 + 5],
                &ura[i * 5..i * 5 + 5],
                u16::from_le_bytes(honba[i]),
                u16::from_le_bytes(deposits[i]),
            )
            .and_then(|()| hand::score(&w, &rules))
        }))
    });
    to_python(py, out)
}

/// JSON: the scoring rule catalogue, presets, yaku names (bit order) and limit names.
#[pyfunction]
fn riichi_catalogue_json() -> String {
    use crate::games::riichi::hand::Limit;
    use crate::games::riichi::yaku::Yaku;
    json!({
        "rules": rules::Rules::specs().iter().map(|s| s.to_json()).collect::<Vec<_>>(),
        "presets": rules::presets().iter().map(|p| json!({"name": p.name, "doc": p.doc, "overrides": p.overrides})).collect::<Vec<_>>(),
        "yaku": Yaku::ALL.iter().map(|y| y.name()).collect::<Vec<_>>(),
        "limits": Limit::NAMES,
        "flags": FLAG_NAMES,
    })
    .to_string()
}

/// The complete, validated scoring rules (JSON) for a preset plus overrides (JSON object).
#[pyfunction]
fn riichi_resolve_rules(preset: &str, overrides: &str) -> PyResult<String> {
    Ok(base_rules(preset, overrides)?.to_json().to_string())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(riichi_shanten, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_shanten_forms, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_shanten_counts, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_shanten_hands, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_ukeire, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_waits, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_tiles, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_score, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_score_batch, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_score_arrays, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_catalogue_json, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_resolve_rules, m)?)?;
    Ok(())
}
