//! Who runs user C++ on each thread, for the reports of code that faults or never returns to tensim.
//!
//! User C++ (a kernel between two API calls, or a host `main` between two host calls) runs in tensim's own
//! process: a fault in it, a stack overflow, an abort or a loop that never calls tensim again would
//! otherwise kill the process without a word or hang it. tensim keeps, per thread, a pointer to a [`Who`]
//! (the program, the kernel file, core and RISC or "host program", and the last tensim call made) and
//! whether user code is running now. The fault handler (`signals.rs`) reads it to name the culprit, and a
//! watchdog thread notices a thread stuck in user code (no tensim call for `TENSIM_KERNEL_TIMEOUT` seconds
//! of wall time) and reports it the same way.
//!
//! Why in-process and not a supervised child process: L1 pointers already rely on mapping the running
//! core's L1 into this process, meshes share the host's threads, and tests drive C++ programs through the
//! library; a signal handler on an alternate stack sees every fault of the thread that made it (with the
//! thread's own record), and the records are written before user code runs, so the handler needs no lock
//! and no allocation. Kernels are built with stack-clash protection so a large local array probes its
//! stack page by page and hits the guard page instead of jumping over it.
#![allow(unsafe_code)]

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering};
use std::sync::{Mutex, Once};
use std::time::Duration;

/// Who runs user C++ (kept alive by the caller for as long as the code may run).
pub(crate) struct Who {
    /// "kernel `k.cpp` on core (0,0) BRISC" or "host program".
    pub what: String,
    /// The last tensim call it made (a function name of the ABI).
    pub last_api: Cell<&'static str>,
    /// A kernel's exit jump (the `jmp_buf` its entry set up; `tensim/kernel_entry.h`).
    pub exit_jump: Cell<usize>,
    /// The watchdog looks at it (kernels: they must keep calling tensim; a host `main` may compute for
    /// as long as it likes).
    pub watched: bool,
}

impl Who {
    pub fn kernel(what: String) -> Who {
        Who { what, last_api: Cell::new(""), exit_jump: Cell::new(0), watched: true }
    }

    pub fn host() -> Who {
        Who { what: "the host program".into(), last_api: Cell::new(""), exit_jump: Cell::new(0), watched: false }
    }
}

/// One thread's record, shared with the watchdog. Only its own thread writes it (plain relaxed loads and
/// stores, no locked instructions: the transitions are on the path of every API call); the watchdog only
/// reads it.
struct Slot {
    /// The thread runs user code now.
    in_user: AtomicBool,
    /// Grows at every passage between user code and tensim.
    ticks: AtomicU64,
    who: AtomicPtr<Who>,
}

thread_local! {
    /// This thread's slot (registered with the watchdog on first use, then kept for the process).
    static SLOT: Cell<Option<&'static Slot>> = const { Cell::new(None) };
    /// The record that stays current on this thread when no kernel runs: the host program's while its
    /// `main` runs, else none.
    static BASE: Cell<*const Who> = const { Cell::new(std::ptr::null()) };
}

/// Every thread's slot.
static SLOTS: Mutex<Vec<&'static Slot>> = Mutex::new(Vec::new());

/// The program being run (a folder), for reports; set by `host::run`.
static PROGRAM: AtomicPtr<String> = AtomicPtr::new(std::ptr::null_mut());

/// Name the program whose C++ runs from now on (reports say "in program …").
pub(crate) fn set_program(name: &str) {
    let p = Box::into_raw(Box::new(name.to_string()));
    let old = PROGRAM.swap(p, Ordering::AcqRel);
    // The old name is leaked, not freed: a report on another thread may be reading it. One small string
    // per program run.
    let _ = old;
}

#[inline]
fn slot() -> &'static Slot {
    match SLOT.with(|s| s.get()) {
        Some(slot) => slot,
        None => new_slot(),
    }
}

#[cold]
fn new_slot() -> &'static Slot {
    SLOT.with(|s| match s.get() {
        Some(slot) => slot,
        None => {
            let slot: &'static Slot = Box::leak(Box::new(Slot {
                in_user: AtomicBool::new(false),
                ticks: AtomicU64::new(0),
                who: AtomicPtr::new(std::ptr::null_mut()),
            }));
            SLOTS.lock().unwrap_or_else(|e| e.into_inner()).push(slot);
            s.set(Some(slot));
            start_watchdog();
            slot
        }
    })
}

/// User code of `who` runs from now on, on this thread.
#[inline]
pub(crate) fn enter_user(who: *const Who) {
    let s = slot();
    s.who.store(who as *mut Who, Ordering::Relaxed);
    tick(s);
    s.in_user.store(true, Ordering::Relaxed);
}

#[inline]
fn tick(s: &Slot) {
    s.ticks.store(s.ticks.load(Ordering::Relaxed).wrapping_add(1), Ordering::Relaxed);
}

/// User code called tensim (`api`, a function of the ABI), or returned: tensim's code runs from now on.
#[inline]
pub(crate) fn enter_tensim(api: &'static str) {
    let s = slot();
    s.in_user.store(false, Ordering::Relaxed);
    tick(s);
    let who = s.who.load(Ordering::Relaxed);
    if !who.is_null() && !api.is_empty() {
        // SAFETY: `who` was stored by `enter_user` from a `Who` its owner keeps alive while its code may
        // run and call tensim; this thread is that code's thread.
        unsafe { &*who }.last_api.set(api);
    }
}

/// A kernel's code is done on this thread (its `Who` is about to go away): the base record (the host
/// program's, or none) is current again, tensim's code running.
pub(crate) fn leave_kernel() {
    let s = slot();
    s.in_user.store(false, Ordering::Relaxed);
    tick(s);
    s.who.store(BASE.with(|b| b.get()) as *mut Who, Ordering::Relaxed);
}

/// The host program's record is this thread's base from now on (`None`: no host program any more).
pub(crate) fn set_base(who: Option<&Who>) {
    let p = who.map_or(std::ptr::null(), |w| w as *const Who);
    BASE.with(|b| b.set(p));
    let s = slot();
    s.in_user.store(false, Ordering::Release);
    s.who.store(p as *mut Who, Ordering::Relaxed);
}

/// Back to the host program's code when dropped (at the end of a host call, also when it unwinds).
pub(crate) struct BackToHost;

impl Drop for BackToHost {
    #[inline]
    fn drop(&mut self) {
        enter_user(BASE.with(|b| b.get()));
    }
}

/// The name of an ABI call from what was recorded: a kernel call's own name, or the host call whose
/// closure's type name was taken (`cpp::host::abi::create_kernel::{{closure}}` → `create_kernel`).
pub(crate) fn api_name(recorded: &str) -> &str {
    let base = recorded.split("::{{closure}}").next().unwrap_or(recorded);
    base.rsplit("::").next().unwrap_or(base)
}

/// The current record of this thread: who, and whether user code (not tensim) was running. For the fault
/// handler: no allocation, no lock.
pub(crate) fn current() -> Option<(&'static Who, bool)> {
    let s = SLOT.with(|s| s.get())?;
    let who = s.who.load(Ordering::Relaxed);
    if who.is_null() {
        return None;
    }
    // SAFETY: as in `enter_tensim`: the record is alive while its code is on this thread's stack.
    Some((unsafe { &*who }, s.in_user.load(Ordering::Acquire)))
}

/// The program name for reports ("" before any).
pub(crate) fn program() -> &'static str {
    let p = PROGRAM.load(Ordering::Acquire);
    if p.is_null() {
        return "";
    }
    // SAFETY: names set by `set_program` are never freed.
    unsafe { &*p }.as_str()
}

/// Seconds of wall time user code may run without calling tensim (`TENSIM_KERNEL_TIMEOUT`, default 10).
fn timeout() -> Result<Duration, String> {
    match std::env::var("TENSIM_KERNEL_TIMEOUT") {
        Err(_) => Ok(Duration::from_secs(10)),
        Ok(v) => match v.trim().parse::<f64>() {
            Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => Ok(Duration::from_secs_f64(s)),
            _ => Err(format!("TENSIM_KERNEL_TIMEOUT={v}: give the seconds as a number in (0, 86400]")),
        },
    }
}

/// Check `TENSIM_KERNEL_TIMEOUT` (the CLI calls it before running anything).
pub fn check_timeout_setting() -> Result<(), String> {
    timeout().map(|_| ())
}

fn start_watchdog() {
    static STARTED: Once = Once::new();
    STARTED.call_once(|| {
        let limit = timeout().unwrap_or(Duration::from_secs(10));
        let _ = std::thread::Builder::new().name("tensim watchdog".into()).spawn(move || watchdog(limit));
    });
}

/// Every quarter of a second, look for a thread that has been in user code, without a call to tensim,
/// for `limit`; report it and end the process (its thread cannot be stopped any other way).
fn watchdog(limit: Duration) {
    let step = Duration::from_millis(250).min(limit);
    // Per slot: the ticks last seen and for how long they have not moved while in user code.
    let mut seen: Vec<(u64, Duration)> = Vec::new();
    loop {
        std::thread::sleep(step);
        let slots: Vec<&'static Slot> = SLOTS.lock().unwrap_or_else(|e| e.into_inner()).clone();
        seen.resize(slots.len(), (u64::MAX, Duration::ZERO));
        for (i, s) in slots.iter().enumerate() {
            let ticks = s.ticks.load(Ordering::Relaxed);
            let in_user = s.in_user.load(Ordering::Acquire);
            if !in_user || ticks != seen[i].0 {
                seen[i] = (ticks, Duration::ZERO);
                continue;
            }
            seen[i].1 += step;
            if seen[i].1 < limit {
                continue;
            }
            let who = s.who.load(Ordering::Relaxed);
            if who.is_null() {
                continue;
            }
            // SAFETY: the thread has been inside this record's user code for `limit` without returning to
            // tensim, so the record (owned by a frame below that code) is alive.
            let who = unsafe { &*who };
            if who.watched {
                report_stuck(who, limit);
            }
        }
    }
}

fn report_stuck(who: &Who, limit: Duration) -> ! {
    let last = api_name(who.last_api.get());
    let last = if last.is_empty() { "none yet".to_string() } else { format!("`{last}`") };
    let program = program();
    let inp = if program.is_empty() { String::new() } else { format!(" (program {program})") };
    let m = format!(
        "error: {}{inp} made no tensim call for {:.0} s of wall time (its last call: {last}): it spins without advancing simulated time — a loop on a local variable, or a wait that makes no tensim call, never ends in a simulator. Wait on a semaphore or a CB (or poll an L1 word through a pointer) instead; TENSIM_KERNEL_TIMEOUT=SECONDS sets this limit\n",
        who.what,
        limit.as_secs_f64()
    );
    eprint!("{m}");
    // SAFETY: flushing the C library's streams (the user's printf output) and ending the process; the stuck
    // thread holds no lock of tensim's (it is in user code).
    unsafe {
        libc::fflush(std::ptr::null_mut());
        libc::_exit(1)
    }
}
