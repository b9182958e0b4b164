//! Parameter values as written, before they are checked against their keys: a number in any of the forms
//! YAML or the command line allow ([`RawValue`]), one entry of a data file ([`Entry`]) and one entry of an
//! overrides file ([`Override`]), with deserializers whose messages say what shape was expected.

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use std::fmt;

/// A number as written in YAML or on the command line, before it is checked against its key.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum RawValue {
    /// A non-negative integer.
    Whole(u64),
    /// A negative integer.
    Negative(i64),
    /// A number with a fraction or exponent.
    Fraction(f64),
    /// Anything else, as text.
    Text(String),
}

impl RawValue {
    pub(super) fn parse(text: &str) -> RawValue {
        let t = text.trim().replace('_', "");
        if let Ok(v) = t.parse::<u64>() {
            return RawValue::Whole(v);
        }
        if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X"))
            && let Ok(v) = u64::from_str_radix(h, 16)
        {
            return RawValue::Whole(v);
        }
        if let Ok(v) = t.parse::<i64>() {
            return RawValue::Negative(v);
        }
        // A whole number too wide for u64 stays text: it is out of every range.
        if !t.is_empty() && t.trim_start_matches(['-', '+']).bytes().all(|b| b.is_ascii_digit()) {
            return RawValue::Text(t);
        }
        match t.parse::<f64>() {
            Ok(v) if v.is_finite() => RawValue::Fraction(v),
            _ => RawValue::Text(text.to_string()),
        }
    }
}

impl<'de> Deserialize<'de> for RawValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RawValue, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = RawValue;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number")
            }
            fn visit_u64<E>(self, v: u64) -> Result<RawValue, E> {
                Ok(RawValue::Whole(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<RawValue, E> {
                Ok(if v < 0 { RawValue::Negative(v) } else { RawValue::Whole(v as u64) })
            }
            fn visit_f64<E>(self, v: f64) -> Result<RawValue, E> {
                Ok(RawValue::Fraction(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<RawValue, E> {
                Ok(RawValue::parse(v))
            }
            fn visit_bool<E>(self, v: bool) -> Result<RawValue, E> {
                Ok(RawValue::Text(v.to_string()))
            }
            fn visit_unit<E>(self) -> Result<RawValue, E> {
                Ok(RawValue::Text("(empty)".into()))
            }
        }
        d.deserialize_any(V)
    }
}

impl fmt::Display for RawValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RawValue::Whole(v) => write!(f, "{v}"),
            RawValue::Negative(v) => write!(f, "{v}"),
            RawValue::Fraction(v) => write!(f, "{v}"),
            RawValue::Text(t) => f.write_str(t),
        }
    }
}

/// One entry of a data file: `key: { value: V, source: "…" }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Entry {
    pub value: RawValue,
    pub source: String,
}

/// One entry of an overrides file: `key: V` or `key: { value: V, source: "…" }`.
#[derive(Debug)]
pub(super) struct Override {
    pub value: RawValue,
    pub source: Option<String>,
}

impl<'de> Deserialize<'de> for Override {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Override, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Override;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number, or a mapping with `value` and optionally `source`")
            }
            fn visit_u64<E>(self, v: u64) -> Result<Override, E> {
                Ok(Override { value: RawValue::Whole(v), source: None })
            }
            fn visit_i64<E>(self, v: i64) -> Result<Override, E> {
                Ok(Override {
                    value: if v < 0 { RawValue::Negative(v) } else { RawValue::Whole(v as u64) },
                    source: None,
                })
            }
            fn visit_f64<E>(self, v: f64) -> Result<Override, E> {
                Ok(Override { value: RawValue::Fraction(v), source: None })
            }
            fn visit_str<E>(self, v: &str) -> Result<Override, E> {
                Ok(Override { value: RawValue::parse(v), source: None })
            }
            fn visit_bool<E>(self, v: bool) -> Result<Override, E> {
                Ok(Override { value: RawValue::Text(v.to_string()), source: None })
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Override, A::Error> {
                let (mut value, mut source) = (None, None);
                while let Some(k) = m.next_key::<String>()? {
                    match k.as_str() {
                        "value" => value = Some(m.next_value::<RawValue>()?),
                        "source" => source = Some(m.next_value::<String>()?),
                        other => {
                            return Err(de::Error::custom(format!(
                                "unknown field `{other}`; an override has `value` and optionally `source`"
                            )));
                        }
                    }
                }
                let value = value.ok_or_else(|| de::Error::custom("missing field `value`"))?;
                Ok(Override { value, source })
            }
        }
        d.deserialize_any(V)
    }
}
