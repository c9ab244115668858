//! Reset policies (docs/reset-policies.md): when a key's current session has expired, and
//! [`Store::session_for_key`], which continues it or starts the next one.

use std::ffi::{CStr, CString};
use std::fmt;

use crate::buffer::{c_string, opt_c_string, opt_ptr};
use crate::error::{Error, ErrorCode, Result};
use crate::options::{init, SessionOptions};
use crate::session::Session;
use crate::store::Store;
use crate::sys;

/// When a key's session expires (`xs_reset_policy`): a daily reset at an hour of a time zone's
/// local time, an idle expiry after some minutes without activity, both (whichever comes first),
/// or neither ([`ResetPolicy::new`]: never expires).
///
/// ```
/// let policy = xsession::ResetPolicy::new().daily_hour(4).time_zone("Asia/Shanghai").idle_minutes(120);
/// # let _ = policy;
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResetPolicy {
    daily_hour: Option<i32>,
    idle_minutes: i64,
    time_zone: Option<String>,
}

/// The raw struct plus the time zone its pointer points into (kept alive together).
pub(crate) struct RawResetPolicy {
    pub(crate) raw: sys::xs_reset_policy,
    _time_zone: Option<CString>,
}

impl ResetPolicy {
    /// A policy under which sessions never expire.
    pub fn new() -> ResetPolicy {
        ResetPolicy::default()
    }

    /// Reset daily at this hour (0-23) of [`time_zone`](Self::time_zone)'s local time: a session
    /// expires once the wall clock passed `hour:00` since its last activity. The library refuses
    /// another hour ([`ErrorCode::Invalid`]) when the policy is used.
    pub fn daily_hour(mut self, hour: i32) -> ResetPolicy {
        self.daily_hour = Some(hour);
        self
    }

    /// Expire a session after this many minutes without activity (0: never; negative:
    /// [`ErrorCode::Invalid`] when the policy is used).
    pub fn idle_minutes(mut self, minutes: i64) -> ResetPolicy {
        self.idle_minutes = minutes;
        self
    }

    /// The daily hour's time zone: an IANA name (`"America/New_York"`), `"UTC"`, or a fixed
    /// offset (`"+08:00"`); default: the host's (`$TZ`, else `/etc/localtime`, else UTC).
    pub fn time_zone(mut self, zone: &str) -> ResetPolicy {
        self.time_zone = Some(zone.to_owned());
        self
    }

    pub(crate) fn to_raw(&self) -> Result<RawResetPolicy> {
        let mut raw = init(sys::xs_reset_policy_init, sys::XS_RESET_POLICY_VERSION)?;
        let time_zone = opt_c_string(self.time_zone.as_deref(), "time zone")?;
        if let Some(hour) = self.daily_hour {
            raw.daily_hour = hour;
        }
        raw.idle_minutes = self.idle_minutes;
        raw.time_zone = opt_ptr(&time_zone);
        Ok(RawResetPolicy { raw, _time_zone: time_zone })
    }
}

/// Why [`Store::session_for_key`] returned the session it did (`XS_RESET_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ResetReason {
    /// The record's session, not expired.
    Continued,
    /// The key had no record: a new session.
    New,
    /// Expired by the daily reset: a new session.
    Daily,
    /// Expired by the idle expiry: a new session.
    Idle,
    /// Forced ([`Store::session_for_key`]'s `force`): a new session.
    Forced,
    /// A reason this crate does not know (a newer library).
    Unknown(u32),
}

impl ResetReason {
    /// The reason for the library's `XS_RESET_*` value.
    pub fn from_raw(raw: u32) -> ResetReason {
        match raw {
            sys::XS_RESET_CONTINUED => ResetReason::Continued,
            sys::XS_RESET_NEW => ResetReason::New,
            sys::XS_RESET_DAILY => ResetReason::Daily,
            sys::XS_RESET_IDLE => ResetReason::Idle,
            sys::XS_RESET_FORCED => ResetReason::Forced,
            other => ResetReason::Unknown(other),
        }
    }

    /// The library's `XS_RESET_*` value.
    pub fn raw(self) -> u32 {
        match self {
            ResetReason::Continued => sys::XS_RESET_CONTINUED,
            ResetReason::New => sys::XS_RESET_NEW,
            ResetReason::Daily => sys::XS_RESET_DAILY,
            ResetReason::Idle => sys::XS_RESET_IDLE,
            ResetReason::Forced => sys::XS_RESET_FORCED,
            ResetReason::Unknown(raw) => raw,
        }
    }

    /// The library's name of the reason (`xs_reset_reason_str`): `"continued"`, `"new"`,
    /// `"daily"`, `"idle"`, `"forced"`, or `"unknown"`.
    pub fn as_str(self) -> &'static str {
        // SAFETY: xs_reset_reason_str returns a static, NUL-terminated string, never NULL.
        let name = unsafe { CStr::from_ptr(sys::xs_reset_reason_str(self.raw())) };
        name.to_str().unwrap_or("unknown")
    }

    /// Whether the session is a new one (every reason but [`ResetReason::Continued`]).
    pub fn is_new_session(self) -> bool {
        self != ResetReason::Continued
    }
}

impl fmt::Display for ResetReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Store {
    /// The current session of `key`, opened for writing and bound to the key
    /// ([`SessionOptions::key`]), at the time of a message, `now_ms` (ms since the epoch; 0 = the
    /// system clock): the session the key's record names, or a new one when the key has no
    /// record, when `policy` (`None`: the store's, [`StoreOptions::reset_policy`](crate::StoreOptions::reset_policy))
    /// says it expired, or with `force` (a manual `/new`). Decided and recorded under the keyed
    /// document's lock, so two processes asking at once get the same session
    /// (`xs_store_session_for_key`).
    ///
    /// `opts`' `session_id`, `title` and `parent_session` apply to a new session;
    /// [`SessionOptions::read_only`] is refused ([`ErrorCode::Invalid`]). Other errors:
    /// [`ErrorCode::Exists`] (a new session would get the key's current id),
    /// [`ErrorCode::Locked`] (another writer holds the key's session).
    ///
    /// ```
    /// use xsession::{ResetPolicy, ResetReason, SessionOptions};
    /// # fn main() -> xsession::Result<()> {
    /// # let dir = std::env::temp_dir().join(format!("xsession-for-key-doc-{}", std::process::id()));
    /// let store = xsession::Store::open(dir.to_str().unwrap())?;
    /// let idle = ResetPolicy::new().idle_minutes(60);
    /// let opts = SessionOptions::new().cwd("/home/me/project");
    /// let (session, reason) = store.session_for_key("agent:main:main", 0, Some(&idle), false, &opts)?;
    /// assert_eq!(reason, ResetReason::New);
    /// drop(session);
    /// let (_, reason) = store.session_for_key("agent:main:main", 0, Some(&idle), false, &opts)?;
    /// assert_eq!(reason, ResetReason::Continued);
    /// # drop(store);
    /// # std::fs::remove_dir_all(dir).ok();
    /// # Ok(())
    /// # }
    /// ```
    pub fn session_for_key(
        &self,
        key: &str,
        now_ms: i64,
        policy: Option<&ResetPolicy>,
        force: bool,
        opts: &SessionOptions,
    ) -> Result<(Session, ResetReason)> {
        let key = c_string(key, "key")?;
        let policy = policy.map(ResetPolicy::to_raw).transpose()?;
        let policy_ptr = policy.as_ref().map_or(std::ptr::null(), |p| &p.raw as *const sys::xs_reset_policy);
        let flags = if force { sys::XS_RESET_FORCE } else { 0 };
        let mut reason = u32::MAX;
        // SAFETY: live store; `key`, the policy (with its time zone) and the options outlive the
        // call; `reason` is a writable u32.
        let session = self.handle.construct(opts, |st, o, out| unsafe {
            sys::xs_store_session_for_key(st, key.as_ptr(), now_ms, policy_ptr, flags, o, out, &mut reason)
        })?;
        if reason == u32::MAX {
            return Err(Error::new(ErrorCode::Internal, "xs_store_session_for_key gave no reason"));
        }
        Ok((session, ResetReason::from_raw(reason)))
    }
}
