//! The running kernel's context: the pointer through which the ABI calls reach the Rust kernel API.
//!
//! Kernels are fibers interleaved on one host thread; they switch only inside API calls. A kernel's
//! entry sets `CURRENT` to its own context, and every ABI call reads `CURRENT` on the way in and sets it
//! back on the way out — after the Rust call, during which other kernels may have run and set it to
//! theirs. So whenever C++ code runs, `CURRENT` is its own kernel's context.
#![allow(unsafe_code)]

use super::l1_window;
use super::supervise::{self, Who};
use sim_core::fiber::abort;
use sim_tensix::{Compute, Dataflow};
use std::cell::Cell;

/// The running kernel's context, its core's L1 window (looked up once, at entry: a core's L1 does not
/// move during a run) and its record for reports (`supervise.rs`).
#[derive(Clone, Copy)]
pub(crate) enum Current {
    None,
    Dataflow(*mut Dataflow<'static>, Option<usize>, *const Who),
    Compute(*mut Compute<'static>, Option<usize>, *const Who),
}

impl Current {
    pub(crate) fn who(self) -> *const Who {
        match self {
            Current::Dataflow(_, _, w) | Current::Compute(_, _, w) => w,
            Current::None => std::ptr::null(),
        }
    }
}

thread_local! {
    static CURRENT: Cell<Current> = const { Cell::new(Current::None) };
    /// The running C++ code stored to L1 through a pointer since its last API call: kernels waiting on L1
    /// words must look again, once the store has happened (at the next call, or when the kernel returns).
    static STORED: Cell<bool> = const { Cell::new(false) };
    /// An unwinding caught in a sanitizer hook's call, to go on once the hook has jumped back to the
    /// kernel's entry.
    static STOPPED: std::cell::RefCell<Option<Box<dyn std::any::Any + Send>>> = const { std::cell::RefCell::new(None) };
}

/// The running kernel stops inside a hook: keep `payload` (what unwound) until the hook has jumped back to
/// the kernel's entry, where it unwinds on through tensim's own frames only.
pub(crate) fn stop_from_hook(payload: Box<dyn std::any::Any + Send>) {
    STOPPED.with(|s| *s.borrow_mut() = Some(payload));
}

/// Note a store through an L1 pointer (it happens right after the ABI call that reports it).
pub(crate) fn mark_store() {
    STORED.with(|s| s.set(true));
}

/// Wake waiters on L1 words after the running kernel's pointer stores.
fn flush_stores(me: Current) {
    if !STORED.with(|s| s.replace(false)) {
        return;
    }
    match me {
        // SAFETY: as in `dataflow`: `me` is the running kernel's context, alive for its entry call.
        Current::Dataflow(p, ..) => unsafe { &mut *p }.l1_pointer_stored(),
        // SAFETY: as above.
        Current::Compute(p, ..) => unsafe { &mut *p }.l1_pointer_stored(),
        Current::None => {}
    }
}

/// Run `f` on the running data-movement kernel's context (an API error if a compute kernel called).
pub(crate) fn dataflow<R>(api: &'static str, f: impl FnOnce(&mut Dataflow<'_>) -> R) -> R {
    supervise::enter_tensim(api);
    let me = CURRENT.with(|c| c.get());
    let Current::Dataflow(p, window, who) = me else {
        abort(format!("{api} is a data-movement call; a compute kernel cannot make it"))
    };
    flush_stores(me);
    // SAFETY: `p` came from the `&mut Dataflow` that `run_dataflow` holds for the whole entry call, and
    // only this kernel (this fiber) uses it: see the module comment for why `CURRENT` is this kernel's.
    let d = unsafe { &mut *p };
    l1_window::enter_kernel(None);
    let r = f(d);
    l1_window::enter_kernel(window);
    CURRENT.with(|c| c.set(me));
    supervise::enter_user(who);
    r
}

/// Run `f` on the running compute kernel's context (an API error if a data-movement kernel called).
pub(crate) fn compute<R>(api: &'static str, f: impl FnOnce(&mut Compute<'_>) -> R) -> R {
    supervise::enter_tensim(api);
    let me = CURRENT.with(|c| c.get());
    let Current::Compute(p, window, who) = me else {
        abort(format!("{api} is a compute call; a data-movement kernel cannot make it"))
    };
    flush_stores(me);
    // SAFETY: as in `dataflow`.
    let c = unsafe { &mut *p };
    l1_window::enter_kernel(None);
    let r = f(c);
    l1_window::enter_kernel(window);
    CURRENT.with(|cur| cur.set(me));
    supervise::enter_user(who);
    r
}

/// Store (`set` not null) and return the running kernel's exit jump (null: none).
pub(crate) fn exit_jump(set: *mut std::ffi::c_void) -> *mut std::ffi::c_void {
    let who = CURRENT.with(|c| c.get()).who();
    if who.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: the running kernel's record, alive for its entry call (see `Current`).
    let who = unsafe { &*who };
    if !set.is_null() {
        who.exit_jump.set(set as usize);
    }
    who.exit_jump.get() as *mut std::ffi::c_void
}

/// Which kind of kernel is running (for calls both kinds make).
pub(crate) fn is_compute() -> bool {
    CURRENT.with(|c| matches!(c.get(), Current::Compute(..)))
}

/// Make `me` the running kernel and run `entry` (its C++ entry point), restoring the caller's kernel and
/// L1 window afterwards, also when an API error unwinds the kernel.
pub(crate) fn run_kernel(me: Current, entry: impl FnOnce()) {
    let window = match me {
        Current::Dataflow(_, w, _) | Current::Compute(_, w, _) => w,
        Current::None => None,
    };
    /// Puts back the caller's kernel and L1 range owner, also when an API error unwinds the kernel.
    struct Restore(Current, Option<usize>);
    impl Drop for Restore {
        fn drop(&mut self) {
            supervise::leave_kernel();
            l1_window::enter_kernel(self.1);
            CURRENT.with(|c| c.set(self.0));
        }
    }
    let before = CURRENT.with(|c| c.replace(me));
    let _restore = Restore(before, l1_window::enter_kernel(window));
    supervise::enter_user(me.who());
    entry();
    supervise::enter_tensim("");
    if let Some(payload) = STOPPED.with(|s| s.borrow_mut().take()) {
        std::panic::resume_unwind(payload);
    }
    flush_stores(me);
}
