//! Tiles and their MPSZ notation (spec §1.2).
//!
//! A tile *kind* is 0–33: `1m`–`9m` = 0–8, `1p`–`9p` = 9–17, `1s`–`9s` = 18–26, then
//! East South West North White Green Red = 27–33 (`1z`–`7z`). A red five is an ordinary five for
//! every purpose but dora counting, so it is carried as a flag next to the kind, never as a kind.

/// A tile kind, 0–33.
pub type Kind = u8;

/// Number of tile kinds.
pub const KINDS: usize = 34;

/// Tile counts per kind.
pub type Counts = [u8; KINDS];

pub const EAST: Kind = 27;
pub const HAKU: Kind = 31;
pub const HATSU: Kind = 32;

/// The 13 terminal and honor kinds (幺九牌), in kind order.
pub const YAOCHU: [Kind; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

pub const fn is_honor(k: Kind) -> bool {
    k >= 27
}

pub const fn is_terminal(k: Kind) -> bool {
    k < 27 && (k.is_multiple_of(9) || k % 9 == 8)
}

/// Terminal or honor.
pub const fn is_yaochu(k: Kind) -> bool {
    is_honor(k) || k.is_multiple_of(9) || k % 9 == 8
}

pub fn is_dragon(k: Kind) -> bool {
    k >= HAKU
}

pub fn is_wind(k: Kind) -> bool {
    (EAST..HAKU).contains(&k)
}

/// 0 = m, 1 = p, 2 = s, 3 = honors.
pub fn suit(k: Kind) -> u8 {
    k / 9
}

/// Green tiles of ryuuiisou: 2s 3s 4s 6s 8s and 發.
pub const fn is_green(k: Kind) -> bool {
    matches!(k, 19..=21 | 23 | 25 | HATSU)
}

/// The dora that an indicator of kind `k` points at (spec §3.4: 9→1, N→E, 中→白).
pub fn dora_of(k: Kind) -> Kind {
    if k < 27 {
        (k / 9) * 9 + (k % 9 + 1) % 9
    } else if k < 31 {
        27 + (k - 27 + 1) % 4
    } else {
        31 + (k - 31 + 1) % 3
    }
}

/// The dora of an indicator of kind `k` with `players` at the table: as [`dora_of`], except that
/// with three players (no 2m–8m) the 1m indicator points at 9m (§14 C).
pub fn dora_successor(k: Kind, players: u8) -> Kind {
    if players == 3 && k == 0 {
        8
    } else {
        dora_of(k)
    }
}

/// A tile as written: its kind and whether it is the red five.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tile {
    pub kind: Kind,
    pub red: bool,
}

impl Tile {
    /// The tile with physical id 0–135 (`kind * 4 + copy`; ids 16, 52 and 88 are the red fives).
    pub fn from_id(id: u16) -> Option<Tile> {
        (id < 136).then_some(Tile { kind: (id / 4) as Kind, red: matches!(id, 16 | 52 | 88) })
    }

    pub fn name(self) -> String {
        let (n, s) =
            if self.kind >= 27 { (self.kind - 27 + 1, 'z') } else { (self.kind % 9 + 1, b"mps"[usize::from(self.kind / 9)] as char) };
        format!("{}{s}", if self.red { 0 } else { n })
    }
}

/// Parses MPSZ notation (`123m0p55z`: digits then their suit letter; `0` = red five).
/// The error says what was wrong at which position.
pub fn parse_tiles(text: &str) -> Result<Vec<Tile>, String> {
    let mut out = Vec::new();
    let mut pending: Vec<(usize, u8)> = Vec::new();
    for (pos, c) in text.char_indices() {
        match c {
            '0'..='9' => pending.push((pos, c as u8 - b'0')),
            'm' | 'p' | 's' | 'z' => {
                if pending.is_empty() {
                    return Err(format!("suit letter '{c}' at position {pos} has no digits before it in \"{text}\""));
                }
                for &(p, d) in &pending {
                    let tile = match c {
                        'z' if (1..=7).contains(&d) => Tile { kind: 27 + d - 1, red: false },
                        'z' => return Err(format!("honor '{d}z' at position {p} does not exist (1z-7z) in \"{text}\"")),
                        _ => {
                            let base = match c {
                                'm' => 0,
                                'p' => 9,
                                _ => 18,
                            };
                            if d == 0 {
                                Tile { kind: base + 4, red: true }
                            } else {
                                Tile { kind: base + d - 1, red: false }
                            }
                        }
                    };
                    out.push(tile);
                }
                pending.clear();
            }
            ' ' | '_' => {}
            _ => return Err(format!("unexpected '{c}' at position {pos} in \"{text}\"; expected digits followed by m, p, s or z")),
        }
    }
    if let Some(&(p, _)) = pending.first() {
        return Err(format!("digits at position {p} have no suit letter after them in \"{text}\""));
    }
    Ok(out)
}

/// Parses exactly one tile (`5m`, `0p`, `7z`).
pub fn parse_tile(text: &str) -> Result<Tile, String> {
    match parse_tiles(text)?.as_slice() {
        [t] => Ok(*t),
        v => Err(format!("expected one tile, got {} in \"{text}\"", v.len())),
    }
}

/// MPSZ text of tile counts (red fives are not tracked in counts).
pub fn counts_to_string(c: &Counts) -> String {
    let mut out = String::new();
    for (s, letter) in ["m", "p", "s", "z"].iter().enumerate() {
        let n = if s == 3 { 7 } else { 9 };
        let mut digits = String::new();
        for i in 0..n {
            for _ in 0..c[s * 9 + i] {
                digits.push(char::from(b'1' + i as u8));
            }
        }
        if !digits.is_empty() {
            out.push_str(&digits);
            out.push_str(letter);
        }
    }
    out
}

pub fn counts_of(tiles: &[Tile]) -> Counts {
    let mut c = [0u8; KINDS];
    for t in tiles {
        c[usize::from(t.kind)] += 1;
    }
    c
}

/// How a meld was made (spec §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MeldKind {
    Chi,
    Pon,
    /// 大明槓: open kan on a discard.
    Daiminkan,
    /// 暗槓: concealed kan; keeps the hand closed.
    Ankan,
    /// 加槓: a tile added to an own pon.
    Kakan,
}

impl MeldKind {
    pub const NAMES: [&'static str; 5] = ["chi", "pon", "kan", "ankan", "kakan"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn is_kan(self) -> bool {
        matches!(self, MeldKind::Daiminkan | MeldKind::Ankan | MeldKind::Kakan)
    }

    /// Whether the meld opens the hand (everything but ankan).
    pub fn is_open(self) -> bool {
        self != MeldKind::Ankan
    }
}

/// An exposed meld: its type, its tiles (the called tile first), and whom it was called from
/// (relative seat: 1 = 下家 shimocha, 2 = 対面 toimen, 3 = 上家 kamicha; 0 for ankan).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meld {
    pub kind: MeldKind,
    pub tiles: Vec<Tile>,
    pub from: u8,
}

impl Meld {
    /// The lowest kind of the meld (the first tile of a sequence).
    pub fn base(&self) -> Kind {
        self.tiles.iter().map(|t| t.kind).min().unwrap_or(0)
    }

    /// The called tile (none for ankan).
    pub fn called(&self) -> Option<Tile> {
        (self.kind != MeldKind::Ankan).then(|| self.tiles[0])
    }

    pub fn reds(&self) -> u8 {
        self.tiles.iter().filter(|t| t.red).count() as u8
    }

    /// Parses `TYPE:TILES[@FROM]`, e.g. `chi:324m` (3m called from 上家), `pon:555z@2`,
    /// `kan:5055p@1`, `ankan:1111z`, `kakan:7777s@3`. The first tile is the called one; `FROM` is the
    /// relative seat it came from (1 下家, 2 対面, 3 上家; default 3, and chi always 3).
    pub fn parse(text: &str) -> Result<Meld, String> {
        let (kind_name, rest) = text
            .split_once(':')
            .ok_or_else(|| format!("\"{text}\": expected TYPE:TILES with TYPE one of {}", MeldKind::NAMES.join(", ")))?;
        let kind = match kind_name.trim() {
            "chi" => MeldKind::Chi,
            "pon" => MeldKind::Pon,
            "kan" | "daiminkan" | "minkan" => MeldKind::Daiminkan,
            "ankan" => MeldKind::Ankan,
            "kakan" | "shouminkan" => MeldKind::Kakan,
            other => return Err(format!("\"{text}\": unknown meld type \"{other}\"; expected one of {}", MeldKind::NAMES.join(", "))),
        };
        let (tiles_text, from) = match rest.split_once('@') {
            Some((t, f)) => {
                let f: u8 = f
                    .trim()
                    .parse()
                    .ok()
                    .filter(|f| (1..=3).contains(f))
                    .ok_or_else(|| format!("\"{text}\": the seat after @ must be 1 (下家), 2 (対面) or 3 (上家)"))?;
                (t, f)
            }
            None => (rest, 3),
        };
        let tiles = parse_tiles(tiles_text).map_err(|e| format!("\"{text}\": {e}"))?;
        let from = match kind {
            MeldKind::Ankan => 0,
            MeldKind::Chi if from != 3 => return Err(format!("\"{text}\": chi can only be called from 上家 (@3)")),
            _ => from,
        };
        let meld = Meld { kind, tiles, from };
        meld.check().map_err(|e| format!("\"{text}\": {e}"))?;
        Ok(meld)
    }

    /// Decodes Tenhou's 16-bit meld code (the `m` attribute of mjlog `N` and `AGARI` elements).
    pub fn from_tenhou(code: u32) -> Result<Meld, String> {
        let tile = |id: u32| Tile::from_id(id as u16).ok_or_else(|| format!("meld code {code} names tile id {id}"));
        let from = (code & 3) as u8;
        let (kind, ids, called): (MeldKind, Vec<u32>, usize) = if code & 0x4 != 0 {
            let (t, r) = ((code >> 10) / 3, (code >> 10) % 3);
            let base = (t / 7) * 9 + t % 7;
            let ids = (0..3).map(|i| (base + i) * 4 + ((code >> (3 + 2 * i)) & 3)).collect();
            (MeldKind::Chi, ids, r as usize)
        } else if code & 0x18 != 0 {
            let (kind, r) = ((code >> 9) / 3, (code >> 9) % 3);
            let unused = (code >> 5) & 3;
            if code & 0x10 != 0 {
                let mut ids: Vec<u32> = (0..4).map(|i| kind * 4 + i).collect();
                ids.swap(0, unused as usize);
                (MeldKind::Kakan, ids, 0)
            } else {
                let ids = (0..4).filter(|&i| i != unused).map(|i| kind * 4 + i).collect();
                (MeldKind::Pon, ids, r as usize)
            }
        } else if code & 0x20 != 0 {
            return Err(format!("meld code {code} is a nuki (extracted North), not a meld"));
        } else {
            let id = code >> 8;
            let ids = (0..4).map(|i| (id / 4) * 4 + i).collect();
            let kind = if from == 0 { MeldKind::Ankan } else { MeldKind::Daiminkan };
            (kind, ids, (id % 4) as usize)
        };
        let mut tiles = ids.into_iter().map(tile).collect::<Result<Vec<_>, _>>()?;
        tiles.swap(0, called);
        let meld = Meld { kind, tiles, from };
        meld.check().map_err(|e| format!("meld code {code}: {e}"))?;
        Ok(meld)
    }

    fn check(&self) -> Result<(), String> {
        let mut kinds: Vec<Kind> = self.tiles.iter().map(|t| t.kind).collect();
        kinds.sort_unstable();
        let want = if self.kind.is_kan() { 4 } else { 3 };
        if kinds.len() != want {
            return Err(format!("a {} has {want} tiles, got {}", self.kind.name(), kinds.len()));
        }
        let ok = if self.kind == MeldKind::Chi {
            !is_honor(kinds[0]) && suit(kinds[0]) == suit(kinds[2]) && kinds[1] == kinds[0] + 1 && kinds[2] == kinds[0] + 2
        } else {
            kinds.iter().all(|&k| k == kinds[0])
        };
        if !ok {
            let what = if self.kind == MeldKind::Chi { "three consecutive tiles of one suit" } else { "identical tiles" };
            return Err(format!("a {} needs {what}", self.kind.name()));
        }
        Ok(())
    }

    /// The meld in its input notation.
    pub fn notation(&self) -> String {
        let tiles: String = self.tiles.iter().map(|t| t.name()).collect::<Vec<_>>().join("");
        let tiles = compact(&tiles);
        match self.kind {
            MeldKind::Ankan => format!("ankan:{tiles}"),
            k => format!("{}:{tiles}@{}", k.name(), self.from),
        }
    }
}

/// `3m2m4m` → `324m`: merges runs of the same suit letter.
fn compact(names: &str) -> String {
    let b = names.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        out.push(b[i] as char);
        if i + 3 < b.len() && b[i + 1] == b[i + 3] {
            i += 2;
        } else {
            out.push(b[i + 1] as char);
            i += 2;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_mpsz() {
        let t = parse_tiles("123m0p55z").unwrap();
        assert_eq!(t.len(), 6);
        assert_eq!(t[3], Tile { kind: 13, red: true });
        assert_eq!(t[4].kind, 31);
        assert_eq!(counts_to_string(&counts_of(&t)), "123m5p55z");
        assert_eq!(t.iter().map(|t| t.name()).collect::<String>(), "1m2m3m0p5z5z");
        assert!(parse_tiles("12").unwrap_err().contains("no suit letter"));
        assert!(parse_tiles("8z").unwrap_err().contains("8z"));
        assert!(parse_tiles("1x").unwrap_err().contains("unexpected 'x'"));
    }

    #[test]
    fn dora_successor_tv16() {
        let k = |s: &str| parse_tile(s).unwrap().kind;
        assert_eq!(dora_of(k("4m")), k("5m"));
        assert_eq!(dora_of(k("9m")), k("1m"));
        assert_eq!(dora_of(k("4z")), k("1z"));
        assert_eq!(dora_of(k("7z")), k("5z"));
        assert_eq!(dora_of(k("6z")), k("7z"));
        assert_eq!(dora_of(k("0p")), k("6p"));
        // Sanma: 1m → 9m, 9m → 1m; the other suits and honors as with four players.
        assert_eq!(dora_successor(k("1m"), 3), k("9m"));
        assert_eq!(dora_successor(k("9m"), 3), k("1m"));
        assert_eq!(dora_successor(k("1m"), 4), k("2m"));
        assert_eq!(dora_successor(k("1p"), 3), k("2p"));
        assert_eq!(dora_successor(k("3z"), 3), k("4z"));
    }

    #[test]
    fn tenhou_meld_codes() {
        // Codes from the mjlog corpus: chi, pon and an open kan.
        let m = Meld::from_tenhou(6367).unwrap();
        assert_eq!(m.kind, MeldKind::Chi);
        assert_eq!(m.notation(), "chi:345m@3");
        let m = Meld::from_tenhou(43051).unwrap();
        assert_eq!((m.kind, m.from), (MeldKind::Pon, 3));
        assert_eq!(m.notation(), "pon:222z@3");
        assert_eq!(Meld::from_tenhou(0x4A00).unwrap().notation(), "ankan:1111s");
        assert!(Meld::from_tenhou(0x20).is_err());
    }

    #[test]
    fn melds_parse_with_called_tile_and_source() {
        let m = Meld::parse("chi:324m").unwrap();
        assert_eq!((m.kind, m.base(), m.called().unwrap().kind, m.from), (MeldKind::Chi, 1, 2, 3));
        assert_eq!(m.notation(), "chi:324m@3");
        let m = Meld::parse("kan:0555p@1").unwrap();
        assert_eq!((m.kind, m.reds(), m.from), (MeldKind::Daiminkan, 1, 1));
        assert_eq!(Meld::parse("ankan:1111z").unwrap().notation(), "ankan:1111z");
        assert!(Meld::parse("chi:135m").unwrap_err().contains("consecutive"));
        assert!(Meld::parse("chi:123z").unwrap_err().contains("consecutive"));
        assert!(Meld::parse("pon:555z@2").is_ok());
        assert!(Meld::parse("pon:5555z").unwrap_err().contains("3 tiles"));
        assert!(Meld::parse("chi:234m@1").unwrap_err().contains("上家"));
        assert!(Meld::parse("tri:123m").unwrap_err().contains("unknown meld type"));
    }
}
