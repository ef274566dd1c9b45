//! Columnar results.
//!
//! A game loop pushes plain row structs declared with [`rows!`]; a batch turns them into columns of
//! little-endian bytes with a NumPy dtype name, which the Python side wraps without a Python object
//! per row. The same declaration documents the table (`simharness schema GAME`).

use serde_json::{json, Value};

/// One column: its name, NumPy dtype name and raw little-endian data.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub name: &'static str,
    pub dtype: &'static str,
    pub data: Vec<u8>,
}

/// A named set of equally long columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub name: &'static str,
    pub rows: usize,
    pub columns: Vec<Column>,
}

impl Table {
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.name == name)
    }
}

/// A primitive that can be stored in a column.
pub trait Cell: Copy {
    const DTYPE: &'static str;
    /// What the stored values mean, unless the field says otherwise (`#[codes = ...]`): a
    /// [`code_enum!`] knows its labels, so a field of its type documents itself.
    const CODES: Codes = Codes::Plain;
    /// Writes the value's little-endian bytes into `out`, which is exactly its width.
    fn put(self, out: &mut [u8]);
}

macro_rules! cell {
    ($($t:ty => $d:literal),*) => {$(
        impl Cell for $t {
            const DTYPE: &'static str = $d;
            fn put(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
cell!(u8 => "uint8", u16 => "uint16", u32 => "uint32", u64 => "uint64",
      i8 => "int8", i16 => "int16", i32 => "int32", i64 => "int64",
      f32 => "float32", f64 => "float64");

impl Cell for bool {
    const DTYPE: &'static str = "bool";
    fn put(self, out: &mut [u8]) {
        out[0] = u8::from(self);
    }
}

/// Declares the codes of a coded column as an enum: the code is the variant's position, its label
/// the name readers decode it to. A [`rows!`] field of this type is stored as `uint8` and carries
/// the labels in the schema; the first variant is the row's default.
///
/// ```ignore
/// code_enum! {
///     /// How a game ended.
///     pub enum End { Goal = "goal", MaxTurns = "max_turns" }
/// }
/// ```
#[macro_export]
macro_rules! code_enum {
    (
        $(#[doc = $sdoc:literal])*
        pub enum $name:ident {
            $(#[doc = $fdoc:literal])* $first:ident = $flabel:literal
            $(, $(#[doc = $vdoc:literal])* $variant:ident = $label:literal)* $(,)?
        }
    ) => {
        $(#[doc = $sdoc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        #[repr(u8)]
        pub enum $name {
            $(#[doc = $fdoc])*
            #[default]
            $first,
            $( $(#[doc = $vdoc])* $variant, )*
        }

        impl $name {
            /// Each code's label, in code order.
            pub const LABELS: &'static [&'static str] = &[$flabel, $($label),*];

            pub fn label(self) -> &'static str {
                Self::LABELS[self as usize]
            }
        }

        impl $crate::table::Cell for $name {
            const DTYPE: &'static str = "uint8";
            const CODES: $crate::table::Codes = $crate::table::Codes::Labels(Self::LABELS);
            fn put(self, out: &mut [u8]) {
                out[0] = self as u8;
            }
        }
    };
}

/// Builds a column from the values of one field across rows. The buffer is sized once and each
/// value written into its own slot: appending cell by cell (a capacity check per value) cost a
/// fast game's batch about 1% of its instructions.
pub fn column<T: Cell>(name: &'static str, values: impl ExactSizeIterator<Item = T>) -> Column {
    let width = std::mem::size_of::<T>();
    let rows = values.len();
    let mut data = vec![0u8; rows * width];
    let mut written = 0;
    for (out, v) in data.chunks_exact_mut(width).zip(values) {
        v.put(out);
        written += 1;
    }
    debug_assert_eq!(written, rows, "column {name}: the iterator's length was wrong");
    Column { name, dtype: T::DTYPE, data }
}

/// What the values of a coded column mean, so that readers decode them from the schema rather than
/// from a copy of the engine's names: `#[codes = ...]` on a [`rows!`] field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codes {
    /// A number.
    Plain,
    /// Value `i` is `labels[i]`.
    Labels(&'static [&'static str]),
    /// Bit `i` set means `labels[i]` is in.
    Bits(&'static [&'static str]),
    /// A seat (a negative value, or 255 in an unsigned column, is no seat).
    Seat,
    /// Bit `s` set means seat `s` is in.
    Seats,
}

/// Documentation of one column.
#[derive(Debug, Clone)]
pub struct ColumnSpec {
    pub name: &'static str,
    pub dtype: &'static str,
    pub doc: &'static str,
    pub codes: Codes,
}

impl ColumnSpec {
    fn to_json(&self) -> Value {
        let mut c = json!({"name": self.name, "dtype": self.dtype, "doc": self.doc});
        match self.codes {
            Codes::Plain => {}
            Codes::Labels(l) => c["labels"] = json!(l),
            Codes::Bits(l) => c["bits"] = json!(l),
            Codes::Seat => c["seat"] = json!(true),
            Codes::Seats => c["seats"] = json!(true),
        }
        c
    }
}

/// Documentation of one table.
#[derive(Debug, Clone)]
pub struct TableSchema {
    pub name: &'static str,
    pub doc: &'static str,
    pub columns: Vec<ColumnSpec>,
}

impl TableSchema {
    pub fn to_json(&self) -> Value {
        json!({
            "name": self.name,
            "doc": self.doc,
            "columns": self.columns.iter().map(ColumnSpec::to_json).collect::<Vec<_>>(),
        })
    }
}

/// A row struct that becomes a table. Implemented by [`rows!`].
pub trait Rows: Sized {
    fn schema() -> TableSchema;
    fn table(rows: &[Self]) -> Table;
}

/// Declares a row struct of primitive fields and its table. A coded column says what its values
/// mean with `#[codes = ...]` (a [`Codes`]), which the schema carries, or is of a [`code_enum!`]
/// type, whose labels it carries by itself.
///
/// ```ignore
/// rows! {
///     /// One row per game.
///     pub struct GameRow => "games" {
///         /// The game's index in the experiment.
///         game: u64,
///         /// How the game ended.
///         #[codes = Codes::Labels(&["goal", "max_turns"])]
///         end: u8,
///     }
/// }
/// ```
#[macro_export]
macro_rules! rows {
    (
        $(#[doc = $sdoc:literal])+
        pub struct $name:ident => $table:literal {
            $( $(#[doc = $doc:literal])+ $(#[codes = $codes:expr])? $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[doc = $sdoc])+
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        pub struct $name { $( $(#[doc = $doc])+ pub $field: $ty, )* }

        impl $crate::table::Rows for $name {
            fn schema() -> $crate::table::TableSchema {
                $crate::table::TableSchema {
                    name: $table,
                    doc: concat!($($sdoc, "\n"),+).trim(),
                    columns: vec![$(
                        $crate::table::ColumnSpec {
                            name: stringify!($field),
                            dtype: <$ty as $crate::table::Cell>::DTYPE,
                            doc: concat!($($doc, "\n"),+).trim(),
                            codes: $crate::rows!(@codes $ty; $($codes)?),
                        },
                    )*],
                }
            }

            fn table(rows: &[Self]) -> $crate::table::Table {
                $crate::table::Table {
                    name: $table,
                    rows: rows.len(),
                    columns: vec![$(
                        $crate::table::column(stringify!($field), rows.iter().map(|r| r.$field)),
                    )*],
                }
            }
        }
    };
    (@codes $ty:ty;) => { <$ty as $crate::table::Cell>::CODES };
    (@codes $ty:ty; $codes:expr) => { $codes };
}

/// Declares a game's `players` table: the columns every game shares (`game, deal, seat, player,
/// final_points, rank`, which the statistics rely on) followed by the game's own. The table's doc
/// says what seat 0 is and what final points include in this game.
///
/// ```ignore
/// player_rows! {
///     /// One row per player per game. Seat 0 moves first.
///     pub struct PlayerRow {
///         /// Rests served.
///         rests: u32,
///     }
/// }
/// ```
#[macro_export]
macro_rules! player_rows {
    (
        $(#[doc = $sdoc:literal])+
        pub struct $name:ident {
            $( $(#[doc = $doc:literal])+ $(#[codes = $codes:expr])? $field:ident : $ty:ty, )*
        }
    ) => {
        $crate::rows! {
            $(#[doc = $sdoc])+
            pub struct $name => "players" {
                /// The game's index in the experiment.
                game: u64,
                /// The deal the game was played on (shared by rule variants and duplicate tables).
                deal: u64,
                /// Seat in turn order (what seat 0 is: see the table's description).
                seat: $crate::game::Seat,
                /// Lineup slot (strategy) playing this seat.
                player: u8,
                /// Points at the end of the game (what they include: see the table's description).
                final_points: i64,
                /// 1 = most final points; ties broken by seat order.
                rank: u8,
                $( $(#[doc = $doc])+ $(#[codes = $codes])? $field: $ty, )*
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    rows! {
        /// Test rows.
        pub struct R => "r" {
            /// An index.
            a: u64,
            /// A signed value.
            b: i32,
            /// A flag.
            c: bool,
            /// Who won.
            #[codes = Codes::Seats]
            winners: u8,
            /// How.
            #[codes = Codes::Labels(&["tsumo", "ron"])]
            how: u8,
            /// Which way.
            way: Way,
        }
    }

    code_enum! {
        /// A test code.
        pub enum Way {
            Up = "up",
            /// Not up.
            Down = "down",
        }
    }

    player_rows! {
        /// Test players.
        pub struct P {
            /// A game-specific count.
            extra: u32,
        }
    }

    #[test]
    fn player_rows_lead_with_the_common_columns() {
        let names: Vec<_> = P::schema().columns.iter().map(|c| c.name).collect();
        assert_eq!(names, ["game", "deal", "seat", "player", "final_points", "rank", "extra"]);
        assert_eq!(P::schema().name, "players");
    }

    #[test]
    fn rows_become_little_endian_columns() {
        let t = R::table(&[R { a: 1, b: -2, c: true, ..R::default() }, R { a: 258, b: 3, c: false, way: Way::Down, ..R::default() }]);
        assert_eq!(t.rows, 2);
        let a = t.column("a").unwrap();
        assert_eq!(a.dtype, "uint64");
        assert_eq!(&a.data[..2], &[1, 0]);
        assert_eq!(&a.data[8..10], &[2, 1]);
        assert_eq!(t.column("b").unwrap().data[..4], (-2i32).to_le_bytes());
        assert_eq!(t.column("c").unwrap().data, vec![1, 0]);
        let s = R::schema();
        assert_eq!(s.columns[1].doc, "A signed value.");
        assert_eq!(s.to_json()["columns"][2]["dtype"], "bool");
        assert_eq!(s.to_json()["columns"][3]["seats"], true);
        assert_eq!(s.to_json()["columns"][4]["labels"], json!(["tsumo", "ron"]));
        assert!(s.to_json()["columns"][0].get("labels").is_none());
        // A code_enum field: one byte, its position; its labels in the schema without an attribute.
        assert_eq!(t.column("way").unwrap().data, vec![0, 1]);
        assert_eq!(s.to_json()["columns"][5]["dtype"], "uint8");
        assert_eq!(s.to_json()["columns"][5]["labels"], json!(["up", "down"]));
        assert_eq!(Way::Down.label(), "down");
    }
}
