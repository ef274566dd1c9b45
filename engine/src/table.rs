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
    fn put(self, out: &mut Vec<u8>);
}

macro_rules! cell {
    ($($t:ty => $d:literal),*) => {$(
        impl Cell for $t {
            const DTYPE: &'static str = $d;
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
cell!(u8 => "uint8", u16 => "uint16", u32 => "uint32", u64 => "uint64",
      i8 => "int8", i16 => "int16", i32 => "int32", i64 => "int64",
      f32 => "float32", f64 => "float64");

impl Cell for bool {
    const DTYPE: &'static str = "bool";
    fn put(self, out: &mut Vec<u8>) {
        out.push(u8::from(self));
    }
}

/// Builds a column from the values of one field across rows.
pub fn column<T: Cell>(name: &'static str, values: impl ExactSizeIterator<Item = T>) -> Column {
    let mut data = Vec::with_capacity(values.len() * std::mem::size_of::<T>());
    for v in values {
        v.put(&mut data);
    }
    Column { name, dtype: T::DTYPE, data }
}

/// Documentation of one column.
#[derive(Debug, Clone)]
pub struct ColumnSpec {
    pub name: &'static str,
    pub dtype: &'static str,
    pub doc: &'static str,
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
            "columns": self.columns.iter()
                .map(|c| json!({"name": c.name, "dtype": c.dtype, "doc": c.doc}))
                .collect::<Vec<_>>(),
        })
    }
}

/// A row struct that becomes a table. Implemented by [`rows!`].
pub trait Rows: Sized {
    fn schema() -> TableSchema;
    fn table(rows: &[Self]) -> Table;
}

/// Declares a row struct of primitive fields and its table.
///
/// ```ignore
/// rows! {
///     /// One row per game.
///     pub struct GameRow => "games" {
///         /// The game's index in the experiment.
///         game: u64,
///     }
/// }
/// ```
#[macro_export]
macro_rules! rows {
    (
        $(#[doc = $sdoc:literal])+
        pub struct $name:ident => $table:literal {
            $( $(#[doc = $doc:literal])+ $field:ident : $ty:ty, )*
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
        }
    }

    #[test]
    fn rows_become_little_endian_columns() {
        let t = R::table(&[R { a: 1, b: -2, c: true }, R { a: 258, b: 3, c: false }]);
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
    }
}
