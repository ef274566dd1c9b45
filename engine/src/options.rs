//! Named, typed, documented options: house rules and strategy knobs.
//!
//! A game declares its rule options (and its strategy knobs) once with [`options!`]; that one
//! declaration gives the Rust struct with its defaults, the catalogue that `simharness rules` and
//! `simharness strategies` print, and strict parsing from JSON in which an unknown key, a value of
//! the wrong type or out of range is an [`OptionError`] naming the field and what was expected.

use serde_json::{Map, Value};
use std::fmt;

/// A user-facing error about one named field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionError {
    /// The offending field (e.g. `payout_cap`), or several joined by `+` for a contradiction.
    pub field: String,
    /// What was wrong and what was expected.
    pub message: String,
}

impl OptionError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        OptionError { field: field.into(), message: message.into() }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for OptionError {}

/// The type of an option as the catalogue shows it.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Bool,
    Int,
    Float,
    /// An integer, or the string `"none"` for no limit.
    IntOrNone,
    /// One of a closed set of names.
    Choice(&'static [&'static str]),
    /// Any subset of a closed set of names (a list in a config).
    Set(&'static [&'static str]),
}

impl Kind {
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Bool => "bool",
            Kind::Int => "int",
            Kind::Float => "float",
            Kind::IntOrNone => "int|none",
            Kind::Choice(_) => "choice",
            Kind::Set(_) => "set",
        }
    }
}

/// One entry of a catalogue.
#[derive(Debug, Clone)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: Kind,
    pub default: Value,
    /// Inclusive bounds for numeric options.
    pub range: Option<(f64, f64)>,
    pub doc: &'static str,
    /// The option chooses which luck is dealt (e.g. a keyed-chance recipe), not how the game is
    /// played: a sweep of every rule leaves it out, else it would report luck as a rule's effect.
    pub chance: bool,
}

impl OptionSpec {
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("name".into(), self.name.into());
        m.insert("type".into(), self.kind.name().into());
        m.insert("default".into(), self.default.clone());
        if let Kind::Choice(c) | Kind::Set(c) = &self.kind {
            m.insert("choices".into(), c.iter().map(|s| Value::from(*s)).collect());
        }
        if let Some((lo, hi)) = self.range {
            m.insert("min".into(), number(lo));
            m.insert("max".into(), number(hi));
        }
        m.insert("doc".into(), self.doc.into());
        m.insert("chance".into(), self.chance.into());
        Value::Object(m)
    }
}

fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Value::from(x as i64)
    } else {
        Value::from(x)
    }
}

/// A value type an option can have.
pub trait OptionValue: Sized + Clone {
    fn kind() -> Kind;
    /// Parses a JSON value; the error says what was expected.
    fn parse(v: &Value) -> Result<Self, String>;
    fn to_json(&self) -> Value;
    /// The numeric value for range checks, if any.
    fn numeric(&self) -> Option<f64> {
        None
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::String(s) => format!("\"{s}\""),
        other => other.to_string(),
    }
}

impl OptionValue for bool {
    fn kind() -> Kind {
        Kind::Bool
    }
    fn parse(v: &Value) -> Result<Self, String> {
        v.as_bool().ok_or_else(|| format!("expected true or false, got {}", describe(v)))
    }
    fn to_json(&self) -> Value {
        Value::from(*self)
    }
}

macro_rules! int_option {
    ($($t:ty),*) => {$(
        impl OptionValue for $t {
            fn kind() -> Kind {
                Kind::Int
            }
            fn parse(v: &Value) -> Result<Self, String> {
                v.as_i64()
                    .and_then(|i| <$t>::try_from(i).ok())
                    .or_else(|| v.as_u64().and_then(|i| <$t>::try_from(i).ok()))
                    .ok_or_else(|| format!("expected an integer, got {}", describe(v)))
            }
            fn to_json(&self) -> Value {
                Value::from(*self)
            }
            fn numeric(&self) -> Option<f64> {
                Some(*self as f64)
            }
        }
    )*};
}
int_option!(u8, u16, u32, u64, i8, i16, i32, i64);

impl OptionValue for f64 {
    fn kind() -> Kind {
        Kind::Float
    }
    fn parse(v: &Value) -> Result<Self, String> {
        v.as_f64().ok_or_else(|| format!("expected a number, got {}", describe(v)))
    }
    fn to_json(&self) -> Value {
        Value::from(*self)
    }
    fn numeric(&self) -> Option<f64> {
        Some(*self)
    }
}

/// `Option<u32>`: an integer limit, or `"none"` for no limit.
impl OptionValue for Option<u32> {
    fn kind() -> Kind {
        Kind::IntOrNone
    }
    fn parse(v: &Value) -> Result<Self, String> {
        match v {
            Value::String(s) if s == "none" => Ok(None),
            Value::Null => Ok(None),
            _ => u32::parse(v).map(Some).map_err(|_| format!("expected an integer or \"none\", got {}", describe(v))),
        }
    }
    fn to_json(&self) -> Value {
        match self {
            Some(x) => Value::from(*x),
            None => Value::from("none"),
        }
    }
    fn numeric(&self) -> Option<f64> {
        self.map(f64::from)
    }
}

/// A closed set of names declared with [`option_enum!`]: what a [`Set`] of it needs.
pub trait Labels: Copy + 'static {
    const LABELS: &'static [&'static str];
    /// Position in `LABELS`.
    fn index(self) -> usize;
}

/// A subset of an [`option_enum!`]'s choices: a list of names in a config, bits in Rust.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Set<E> {
    bits: u64,
    _of: std::marker::PhantomData<E>,
}

impl<E: Labels> Set<E> {
    pub const EMPTY: Self = Set { bits: 0, _of: std::marker::PhantomData };

    #[must_use]
    pub fn with(mut self, e: E) -> Self {
        self.bits |= 1 << e.index();
        self
    }

    pub fn contains(self, e: E) -> bool {
        self.bits >> e.index() & 1 == 1
    }

    pub fn is_empty(self) -> bool {
        self.bits == 0
    }
}

impl<E: Labels> Default for Set<E> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<E: Labels + fmt::Debug> OptionValue for Set<E> {
    fn kind() -> Kind {
        Kind::Set(E::LABELS)
    }
    fn parse(v: &Value) -> Result<Self, String> {
        let expected = || format!("any of {}", E::LABELS.join(" / "));
        let items = v.as_array().ok_or_else(|| format!("expected a list of names ({}), got {}", expected(), describe(v)))?;
        let mut bits = 0u64;
        for item in items {
            let i = item
                .as_str()
                .and_then(|s| E::LABELS.iter().position(|l| *l == s))
                .ok_or_else(|| format!("unknown member {}; expected {}", describe(item), expected()))?;
            bits |= 1 << i;
        }
        Ok(Set { bits, _of: std::marker::PhantomData })
    }
    fn to_json(&self) -> Value {
        E::LABELS.iter().enumerate().filter(|(i, _)| self.bits >> i & 1 == 1).map(|(_, l)| Value::from(*l)).collect()
    }
}

/// Parses one field and checks its range.
pub fn parse_field<T: OptionValue>(name: &str, v: &Value, range: Option<(f64, f64)>) -> Result<T, OptionError> {
    let outside = |(lo, hi): (f64, f64)| {
        let none = if T::kind() == Kind::IntOrNone { " or \"none\"" } else { "" };
        OptionError::new(name, format!("expected a value from {} to {}{none}, got {}", number(lo), number(hi), describe(v)))
    };
    let x = T::parse(v).map_err(|m| match range {
        // An integer the type cannot hold (a negative count) is outside the option's range: say the range,
        // not "expected an integer".
        Some(r) if v.is_i64() || v.is_u64() => outside(r),
        _ => OptionError::new(name, m),
    })?;
    if let (Some((lo, hi)), Some(n)) = (range, x.numeric()) {
        if n < lo || n > hi {
            return Err(outside((lo, hi)));
        }
    }
    Ok(x)
}

/// The error for a key that is not an option, with the closest known name as a hint.
pub fn unknown_key(key: &str, known: &[&str]) -> OptionError {
    let best = known.iter().map(|k| (edit_distance(key, k), *k)).min().filter(|(d, k)| *d <= 2.max(k.len() / 3));
    let hint = match best {
        Some((_, k)) => format!(" (did you mean `{k}`?)"),
        None => String::new(),
    };
    OptionError::new(key, format!("unknown option{hint}; expected one of: {}", known.join(", ")))
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// A set of options: rules of a game or knobs of a strategy. Implemented by [`options!`].
pub trait Options: Sized + Clone + Default {
    fn specs() -> Vec<OptionSpec>;
    /// Parses a JSON object of overrides on top of the defaults (strict: unknown keys are errors).
    fn from_json(v: &Value) -> Result<Self, OptionError>;
    /// Every field with its value.
    fn to_json(&self) -> Value;
    /// Applies overrides to a copy of `self`.
    fn with_overrides(&self, v: &Value) -> Result<Self, OptionError>;
}

/// Checks that hold between options (contradictory combinations). Every options set implements it,
/// most with the empty default.
pub trait Validate {
    fn validate(&self) -> Result<(), OptionError> {
        Ok(())
    }
}

/// Declares an options struct: fields with doc comments, a type, a default and an optional
/// inclusive range; `#[chance = true]` after a field's docs marks an option that chooses the luck
/// dealt rather than the play ([`OptionSpec::chance`]).
///
/// ```ignore
/// options! {
///     pub struct Rules {
///         /// Number of dora tiles flipped at setup.
///         dora_count: u32 = 20, range(0, 40);
///     }
/// }
/// ```
#[macro_export]
macro_rules! options {
    (
        $(#[doc = $sdoc:literal])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:literal])+
                $(#[chance = $chance:literal])?
                $field:ident : $ty:ty = $default:expr $(, range($lo:expr, $hi:expr))? ;
            )*
        }
    ) => {
        $(#[doc = $sdoc])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name {
            $( $(#[doc = $doc])+ pub $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                Self { $( $field: $default, )* }
            }
        }

        impl $crate::options::Options for $name {
            fn specs() -> Vec<$crate::options::OptionSpec> {
                let d = Self::default();
                vec![$(
                    $crate::options::OptionSpec {
                        name: stringify!($field),
                        kind: <$ty as $crate::options::OptionValue>::kind(),
                        default: $crate::options::OptionValue::to_json(&d.$field),
                        range: $crate::options!(@range $($lo, $hi)?),
                        doc: concat!($($doc, "\n"),+).trim(),
                        chance: $crate::options!(@chance $($chance)?),
                    },
                )*]
            }

            fn from_json(v: &serde_json::Value) -> Result<Self, $crate::options::OptionError> {
                Self::default().with_overrides(v)
            }

            fn with_overrides(&self, v: &serde_json::Value) -> Result<Self, $crate::options::OptionError> {
                let obj = v.as_object().ok_or_else(|| {
                    $crate::options::OptionError::new(stringify!($name), "expected a table of options")
                })?;
                let mut out = self.clone();
                for (key, value) in obj {
                    match key.as_str() {
                        $(
                            stringify!($field) => {
                                out.$field = $crate::options::parse_field::<$ty>(
                                    key, value, $crate::options!(@range $($lo, $hi)?))?;
                            }
                        )*
                        other => {
                            return Err($crate::options::unknown_key(other, &[$(stringify!($field)),*]));
                        }
                    }
                }
                Ok(out)
            }

            fn to_json(&self) -> serde_json::Value {
                let mut m = serde_json::Map::new();
                $( m.insert(stringify!($field).into(), $crate::options::OptionValue::to_json(&self.$field)); )*
                serde_json::Value::Object(m)
            }
        }
    };
    (@range $lo:expr, $hi:expr) => { Some(($lo as f64, $hi as f64)) };
    (@range) => { None };
    (@chance $chance:literal) => { $chance };
    (@chance) => { false };
}

/// Declares a closed set of named choices usable as an option type.
///
/// ```ignore
/// option_enum! {
///     pub enum DoraMode { SelfKind = "self", Next = "next" }
/// }
/// ```
#[macro_export]
macro_rules! option_enum {
    (
        $(#[doc = $sdoc:literal])*
        pub enum $name:ident { $( $(#[doc = $vdoc:literal])* $variant:ident = $label:literal ),+ $(,)? }
    ) => {
        $(#[doc = $sdoc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name { $( $(#[doc = $vdoc])* $variant ),+ }

        impl $name {
            pub const LABELS: &'static [&'static str] = &[$($label),+];

            pub fn label(self) -> &'static str {
                match self { $( $name::$variant => $label ),+ }
            }
        }

        impl $crate::options::Labels for $name {
            const LABELS: &'static [&'static str] = &[$($label),+];
            fn index(self) -> usize {
                self as usize
            }
        }

        impl $crate::options::OptionValue for $name {
            fn kind() -> $crate::options::Kind {
                $crate::options::Kind::Choice(Self::LABELS)
            }
            fn parse(v: &serde_json::Value) -> Result<Self, String> {
                match v.as_str() {
                    $( Some($label) => Ok($name::$variant), )+
                    _ => Err(format!("expected one of {}, got {}", Self::LABELS.join(" / "), v)),
                }
            }
            fn to_json(&self) -> serde_json::Value {
                serde_json::Value::from(self.label())
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    option_enum! {
        /// How a thing is done.
        pub enum Mode { Fast = "fast", Slow = "slow" }
    }

    options! {
        /// Example options.
        pub struct Example {
            /// A count.
            count: u32 = 20, range(0, 40);
            /// A mode.
            mode: Mode = Mode::Fast;
            /// A limit.
            cap: Option<u32> = Some(500), range(1, 1000);
            /// A flag.
            flag: bool = false;
            /// Some modes.
            modes: Set<Mode> = Set::EMPTY;
            /// Which luck is dealt.
            #[chance = true]
            luck: Mode = Mode::Fast;
        }
    }

    #[test]
    fn defaults_and_overrides() {
        let e = Example::from_json(&json!({"count": 5, "mode": "slow", "cap": "none"})).unwrap();
        assert_eq!(e.count, 5);
        assert_eq!(e.mode, Mode::Slow);
        assert_eq!(e.cap, None);
        assert!(!e.flag);
        assert_eq!(Example::from_json(&e.to_json()).unwrap(), e);
    }

    #[test]
    fn errors_name_the_field_and_the_expectation() {
        let err = Example::from_json(&json!({"count": 41})).unwrap_err();
        assert_eq!(err.field, "count");
        assert_eq!(err.message, "expected a value from 0 to 40, got 41");
        let err = Example::from_json(&json!({"mode": "medium"})).unwrap_err();
        assert_eq!(err.message, "expected one of fast / slow, got \"medium\"");
        let err = Example::from_json(&json!({"cout": 1})).unwrap_err();
        assert_eq!(err.field, "cout");
        assert!(err.message.starts_with("unknown option (did you mean `count`?)"), "{}", err.message);
        // a negative count is outside the range, not "not an integer"; a fraction is not an integer
        let err = Example::from_json(&json!({"count": -1})).unwrap_err();
        assert_eq!(err.message, "expected a value from 0 to 40, got -1");
        let err = Example::from_json(&json!({"count": 2.5})).unwrap_err();
        assert_eq!(err.message, "expected an integer, got 2.5");
        let err = Example::from_json(&json!({"cap": -1})).unwrap_err();
        assert_eq!(err.message, "expected a value from 1 to 1000 or \"none\", got -1");
        let err = Example::from_json(&json!({"cap": 0})).unwrap_err();
        assert_eq!(err.message, "expected a value from 1 to 1000 or \"none\", got 0");
        let err = Example::from_json(&json!({"flag": 1})).unwrap_err();
        assert_eq!(err.message, "expected true or false, got 1");
    }

    #[test]
    fn a_set_is_a_list_of_known_names() {
        let e = Example::from_json(&json!({"modes": ["slow"]})).unwrap();
        assert!(e.modes.contains(Mode::Slow) && !e.modes.contains(Mode::Fast));
        assert_eq!(e.to_json()["modes"], json!(["slow"]));
        assert!(Example::default().modes.is_empty());
        assert_eq!(
            Example::from_json(&json!({"modes": ["slow", "fast", "slow"]})).unwrap().modes,
            Set::EMPTY.with(Mode::Fast).with(Mode::Slow)
        );
        let err = Example::from_json(&json!({"modes": ["slow", "medium"]})).unwrap_err();
        assert_eq!((err.field.as_str(), err.message.as_str()), ("modes", "unknown member \"medium\"; expected any of fast / slow"));
        let err = Example::from_json(&json!({"modes": "slow"})).unwrap_err();
        assert_eq!(err.message, "expected a list of names (any of fast / slow), got \"slow\"");
        assert_eq!(Example::specs()[4].to_json()["choices"], json!(["fast", "slow"]));
        assert_eq!(Example::specs()[4].to_json()["type"], json!("set"));
    }

    #[test]
    fn catalogue_lists_every_field() {
        let specs = Example::specs();
        let names: Vec<_> = specs.iter().map(|s| s.name).collect();
        assert_eq!(names, ["count", "mode", "cap", "flag", "modes", "luck"]);
        assert_eq!(specs[0].range, Some((0.0, 40.0)));
        let chance: Vec<_> = specs.iter().map(|s| s.to_json()["chance"].clone()).collect();
        assert_eq!(chance, [false, false, false, false, false, true].map(Value::from));
        assert_eq!(specs[2].default, json!(500));
        assert_eq!(specs[1].to_json()["choices"], json!(["fast", "slow"]));
    }
}
