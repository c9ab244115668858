//! A caller's progress closure run from C: `xs_archive_progress_fn` and `xs_import_progress_fn`
//! have the same shape, `void (*)(uint64_t done, uint64_t total, void *user)`.

use std::ffi::c_void;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

/// The C function [`with_progress`] hands out; its `user` must be the pointer handed out with it.
pub(crate) type ProgressFn = unsafe extern "C" fn(done: u64, total: u64, user: *mut c_void);

/// What the C function shares with the closure.
struct ProgressCall<F> {
    progress: F,
    /// The closure's panic, resumed once the library has returned.
    panic: Option<Box<dyn std::any::Any + Send>>,
}

/// Runs the closure. Nothing may unwind out of here (that would cross C frames), so a panic is
/// caught and kept, and the closure is not called again.
unsafe extern "C" fn progress_trampoline<F: FnMut(u64, u64)>(done: u64, total: u64, user: *mut c_void) {
    // SAFETY: `user` is the `ProgressCall<F>` that `with_progress` handed out with this function,
    // alive (the C call runs inside `with_progress`) and not otherwise borrowed during the call.
    let call = unsafe { &mut *user.cast::<ProgressCall<F>>() };
    if call.panic.is_some() {
        return;
    }
    if let Err(payload) = catch_unwind(AssertUnwindSafe(|| (call.progress)(done, total))) {
        call.panic = Some(payload);
    }
}

/// Runs `call` with a C progress function and its `user` pointer that run `progress`. `call` puts
/// them in the options of one C call that invokes them only while it runs (on this thread, so
/// `progress` needs no `Send`); they are dangling once `call` returns. A panic in `progress` lets
/// the C call finish (a run cannot be stopped half way) and then resumes here.
pub(crate) fn with_progress<F, R>(progress: F, call: impl FnOnce(ProgressFn, *mut c_void) -> R) -> R
where
    F: FnMut(u64, u64),
{
    let mut state = ProgressCall { progress, panic: None };
    let result = call(progress_trampoline::<F>, (&mut state as *mut ProgressCall<F>).cast::<c_void>());
    if let Some(payload) = state.panic {
        resume_unwind(payload);
    }
    result
}
