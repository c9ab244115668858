//! [`Dialect`]: whose forms a session's lines take (docs/dialects.md).

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorCode};
use crate::sys;

/// The agent a session writes for. Both dialects are always read; a session writes in one, so
/// that the agent whose file it is reads it back.
///
/// The dialect of a session is, in order: the one forced by
/// [`SessionOptions::dialect`](crate::SessionOptions::dialect); for an existing file, the one its
/// lines show; the store's default ([`StoreOptions::default_dialect`](crate::StoreOptions::default_dialect),
/// omp unless set). Forks and branched sessions take the dialect of the session they copy.
/// [`Session::dialect`](crate::Session::dialect) says which one a session writes.
///
/// ```
/// use xsession::Dialect;
/// assert_eq!("pi".parse::<Dialect>().unwrap(), Dialect::Pi);
/// assert_eq!(Dialect::Omp.to_string(), "omp");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    /// oh-my-pi 13 (`XS_DIALECT_OMP`): `model` strings with a role, the title in the header,
    /// `attribution`, blobs and truncation of huge strings.
    Omp,
    /// pi 0.73.1 (`XS_DIALECT_PI`): `model_change` as `{provider, modelId}`, titles as
    /// `session_info` entries, everything inline, UUIDv7 session ids; the omp-only entries and
    /// fields are refused with [`ErrorCode::Dialect`].
    Pi,
}

impl Dialect {
    /// The `XS_DIALECT_*` value.
    pub fn raw(self) -> u32 {
        match self {
            Dialect::Omp => sys::XS_DIALECT_OMP,
            Dialect::Pi => sys::XS_DIALECT_PI,
        }
    }

    /// The dialect of an `XS_DIALECT_*` value; `None` for `XS_DIALECT_AUTO` and unknown values.
    pub fn from_raw(raw: u32) -> Option<Dialect> {
        match raw {
            sys::XS_DIALECT_OMP => Some(Dialect::Omp),
            sys::XS_DIALECT_PI => Some(Dialect::Pi),
            _ => None,
        }
    }

    /// The name the library uses (`"dialect"` of `xs_session_info`): `"omp"` or `"pi"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Omp => "omp",
            Dialect::Pi => "pi",
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Dialect {
    type Err = Error;

    /// `"omp"` or `"pi"`, exactly; anything else is [`ErrorCode::Invalid`].
    fn from_str(s: &str) -> Result<Dialect, Error> {
        match s {
            "omp" => Ok(Dialect::Omp),
            "pi" => Ok(Dialect::Pi),
            other => Err(Error::new(ErrorCode::Invalid, format!("unknown dialect {other:?} (omp or pi)"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_raw_values_round_trip() {
        for d in [Dialect::Omp, Dialect::Pi] {
            assert_eq!(d.to_string().parse::<Dialect>().unwrap(), d);
            assert_eq!(Dialect::from_raw(d.raw()), Some(d));
        }
        assert_eq!((Dialect::Omp.raw(), Dialect::Pi.raw()), (1, 2));
        assert_eq!(Dialect::from_raw(sys::XS_DIALECT_AUTO), None);
        assert_eq!(Dialect::from_raw(7), None);
        let err = "Pi".parse::<Dialect>().unwrap_err();
        assert_eq!((err.code(), err.message()), (ErrorCode::Invalid, "unknown dialect \"Pi\" (omp or pi)"));
    }
}
