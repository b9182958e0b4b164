//! The one place tensim runs foreign code: loading a compiled kernel library, calling its entry point,
//! and the pointer to the running kernel's context through which the ABI calls (`abi.rs`) reach the
//! Rust kernel API.
//!
//! Kernels are fibers interleaved on one host thread; they switch only inside API calls. A kernel's
//! entry sets `CURRENT` to its own context, and every ABI call reads `CURRENT` on the way in and sets it
//! back on the way out — after the Rust call, during which other kernels may have run and set it to
//! theirs. So whenever C++ code runs, `CURRENT` is its own kernel's context.
#![allow(unsafe_code)]

mod memory;
mod signals;
mod supervise;

pub(crate) use memory::{Arena, map_low, reserve_low};
pub(crate) use signals::{FaultAction, install_fault_handler};
pub use supervise::check_timeout_setting;
pub(crate) use supervise::{BackToHost, Who, enter_tensim, set_program};

use crate::abi::{TABLE, TensimApi};
use sim_core::fiber::abort;
use sim_tensix::{Compute, Dataflow};
use std::cell::Cell;
use std::path::Path;

/// The running kernel's context, its core's L1 window (looked up once, at entry: a core's L1 does not
/// move during a run) and its record for reports (`supervise.rs`).
#[derive(Clone, Copy)]
enum Current {
    None,
    Dataflow(*mut Dataflow<'static>, Option<usize>, *const Who),
    Compute(*mut Compute<'static>, Option<usize>, *const Who),
}

impl Current {
    fn who(self) -> *const Who {
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

type Entry = unsafe extern "C-unwind" fn(*const TensimApi);

/// A loaded kernel library and its entry point.
pub(crate) struct KernelLib {
    entry: Entry,
    // Kept alive for as long as `entry` may be called.
    _lib: libloading::Library,
}

impl std::fmt::Debug for KernelLib {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KernelLib")
    }
}

impl KernelLib {
    /// Load a library built by `compile.rs`.
    pub fn load(path: &Path) -> Result<KernelLib, String> {
        // SAFETY: the library is one tensim compiled from the user's kernel and tensim's headers; its
        // initialisers are the C++ runtime's and the kernel's own globals, which run no tensim code.
        let lib = unsafe { libloading::Library::new(path) }
            .map_err(|e| format!("cannot load the compiled kernel {}: {e}", path.display()))?;
        check_version(&lib, path, b"tensim_abi_version\0", crate::abi::ABI_VERSION, "tensim/abi.h")?;
        // SAFETY: `tensim_kernel_entry` is defined by the wrapper `compile.rs` generates, with exactly this
        // signature (`extern "C" void(const tensim_api*)`).
        let entry: Entry = unsafe {
            *lib.get::<Entry>(b"tensim_kernel_entry\0")
                .map_err(|e| format!("{} has no tensim_kernel_entry: {e}", path.display()))?
        };
        Ok(KernelLib { entry, _lib: lib })
    }

    fn call(&self, me: Current) {
        let window = match me {
            Current::Dataflow(_, w, _) | Current::Compute(_, w, _) => w,
            Current::None => None,
        };
        /// Puts back the caller's kernel and L1 range owner, also when an API error unwinds the kernel.
        struct Restore(Current, Option<usize>);
        impl Drop for Restore {
            fn drop(&mut self) {
                supervise::leave_kernel();
                crate::l1_window::enter_kernel(self.1);
                CURRENT.with(|c| c.set(self.0));
            }
        }
        let before = CURRENT.with(|c| c.replace(me));
        let _restore = Restore(before, crate::l1_window::enter_kernel(window));
        supervise::enter_user(me.who());
        // SAFETY: `entry` takes the table of `extern "C-unwind"` functions that `abi.rs` defines with the
        // layout `tensim/abi.h` declares (the version field guards it). An API error unwinds through the
        // C++ frames (built with exceptions, the default), which is what `C-unwind` allows.
        unsafe { (self.entry)(&TABLE) };
        supervise::enter_tensim("");
        if let Some(payload) = STOPPED.with(|s| s.borrow_mut().take()) {
            std::panic::resume_unwind(payload);
        }
        flush_stores(me);
    }

    /// Run a data-movement kernel on its context.
    pub fn run_dataflow(&self, d: &mut Dataflow<'_>) {
        let w = d.l1_window_base();
        let who = Who::kernel(format!("kernel {}", d.who()));
        self.call(Current::Dataflow((d as *mut Dataflow<'_>).cast(), w, &who));
    }

    /// Run one TRISC's build of a compute kernel on its context.
    pub fn run_compute(&self, c: &mut Compute<'_>) {
        let w = c.l1_window_base();
        let who = Who::kernel(format!("kernel {}", c.who()));
        self.call(Current::Compute((c as *mut Compute<'_>).cast(), w, &who));
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
    crate::l1_window::enter_kernel(None);
    let r = f(d);
    crate::l1_window::enter_kernel(window);
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
    crate::l1_window::enter_kernel(None);
    let r = f(c);
    crate::l1_window::enter_kernel(window);
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

/// The text of a C string the kernel passed (`len` bytes).
pub(crate) fn text(ptr: *const u8, len: u32) -> String {
    if ptr.is_null() {
        return String::new();
    }
    // SAFETY: the headers pass a pointer to `len` bytes of a live std::string.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len as usize) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// The text of a NUL-terminated C string the kernel passed (a zone name: a string literal).
pub(crate) fn c_str(ptr: *const std::ffi::c_char) -> String {
    if ptr.is_null() {
        return String::new();
    }
    // SAFETY: `DeviceZoneScopedN` passes a string literal, NUL-terminated and static.
    unsafe { std::ffi::CStr::from_ptr(ptr) }.to_string_lossy().into_owned()
}

// ---- Pointers the host ABI receives from C++ host programs ----

/// The `n` elements at `ptr` (empty for a null pointer or `n == 0`).
pub(crate) fn read_slice<'a, T>(ptr: *const T, n: usize) -> &'a [T] {
    if ptr.is_null() || n == 0 {
        return &[];
    }
    // SAFETY: the host headers pass a pointer to `n` live elements (a vector's data, an array), which
    // stay alive and unchanged for the duration of the call that reads them; the SFPI header passes
    // its vectors' lane arrays (`MAX_LANES` elements) the same way.
    unsafe { std::slice::from_raw_parts(ptr, n) }
}

/// Copy `data` to `ptr` (which has room for `data.len()` elements; nothing for a null pointer).
pub(crate) fn write_slice<T: Copy>(ptr: *mut T, data: &[T]) {
    if ptr.is_null() || data.is_empty() {
        return;
    }
    // SAFETY: the host headers pass a destination sized for the bytes requested, and `data` is no longer
    // than that request (callers take the minimum).
    unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), ptr, data.len()) }
}

/// Store `v` in the out-parameter `ptr` (ignored when null).
pub(crate) fn set_out<T>(ptr: *mut T, v: T) {
    if !ptr.is_null() {
        // SAFETY: out-parameters point to a local of the calling header function.
        unsafe { ptr.write(v) }
    }
}

/// A NUL-terminated string from a host program (`None` for a null pointer).
pub(crate) fn c_string(ptr: *const std::ffi::c_char) -> Option<String> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: the headers pass `std::string::c_str()` of a live string.
    Some(unsafe { std::ffi::CStr::from_ptr(ptr) }.to_string_lossy().into_owned())
}

// ---- Host programs ----

type HostEntry = unsafe extern "C-unwind" fn(
    *const crate::host::abi::HostApi,
    i32,
    *const *const std::ffi::c_char,
    *mut std::ffi::c_char,
    u32,
) -> i32;

/// The ABI version an object was built against (the `extern "C" unsigned name()` the wrappers export) is
/// the one this tensim speaks.
fn check_version(lib: &libloading::Library, path: &Path, name: &[u8], want: u32, header: &str) -> Result<(), String> {
    // SAFETY: the wrappers tensim generates define this symbol as `extern "C" unsigned f(void)`.
    let f = unsafe { lib.get::<extern "C" fn() -> u32>(name) }.map_err(|_| {
        format!("{} was not built by this tensim (it has no ABI version); delete it and build again", path.display())
    })?;
    let got = f();
    if got != want {
        return Err(format!(
            "{} was built against {header} version {got}, and this tensim speaks version {want}; build it again",
            path.display()
        ));
    }
    Ok(())
}

/// A loaded host program.
pub(crate) struct HostLib {
    entry: HostEntry,
    _lib: libloading::Library,
}

/// What `tensim_host_entry` returns when `main` ended with an exception.
const HOST_THREW: i32 = i32::MIN;
/// What `tensim_host_entry` returns when the program called `exit` (the code is in the message buffer).
const HOST_EXITED: i32 = i32::MIN + 1;

/// How `main` ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MainEnd {
    /// It returned this value.
    Returned(i32),
    /// It called `exit` (or `_exit`, `_Exit`, `quick_exit`) with this code.
    Exited(i32),
}

impl HostLib {
    /// Load a host program built by `host/build.rs` (its static initialisers run as the host program's
    /// code: a fault in them is reported as the program's).
    pub fn load(path: &Path, who: &Who) -> Result<HostLib, String> {
        supervise::set_base(Some(who));
        supervise::enter_user(who);
        // SAFETY: a library tensim compiled from the user's host sources and tensim's host headers; its
        // initialisers are the C++ runtime's and the program's own globals.
        let lib = unsafe { libloading::Library::new(path) };
        supervise::set_base(None);
        let lib = lib.map_err(|e| format!("cannot load the compiled host program {}: {e}", path.display()))?;
        check_version(
            &lib,
            path,
            b"tensim_host_abi_version\0",
            crate::host::abi::HOST_ABI_VERSION,
            "tensim/host_abi.h",
        )?;
        // SAFETY: `tensim_host_entry` is defined by the entry file `host/build.rs` adds, with this signature.
        let entry: HostEntry = unsafe {
            *lib.get::<HostEntry>(b"tensim_host_entry\0")
                .map_err(|e| format!("{} has no tensim_host_entry: {e}", path.display()))?
        };
        Ok(HostLib { entry, _lib: lib })
    }

    /// Run `main(argc, argv)` as `who`: how it ended, or the text of the exception it ended with.
    pub fn run_main(&self, args: &[String], who: &Who) -> Result<MainEnd, String> {
        let cargs: Vec<std::ffi::CString> =
            args.iter().map(|a| std::ffi::CString::new(a.replace('\0', " ")).unwrap_or_default()).collect();
        let mut argv: Vec<*const std::ffi::c_char> = cargs.iter().map(|c| c.as_ptr()).collect();
        argv.push(std::ptr::null());
        let mut err = vec![0 as std::ffi::c_char; 4096];
        // SAFETY: the table has the layout `tensim/host_abi.h` declares; argv is NUL-terminated and lives
        // across the call; `err` has the length passed. Errors inside tensim come back as return codes
        // (host ABI calls catch panics), so nothing unwinds through the C++ frames.
        supervise::set_base(Some(who));
        supervise::enter_user(who);
        let r = unsafe {
            (self.entry)(
                &crate::host::abi::HOST_TABLE,
                args.len() as i32,
                argv.as_ptr(),
                err.as_mut_ptr(),
                err.len() as u32,
            )
        };
        supervise::set_base(None);
        if r == HOST_THREW || r == HOST_EXITED {
            // SAFETY: the entry wrote a NUL-terminated message into `err` (snprintf).
            let m = unsafe { std::ffi::CStr::from_ptr(err.as_ptr()) }.to_string_lossy().into_owned();
            if r == HOST_EXITED {
                return Ok(MainEnd::Exited(m.trim().parse().unwrap_or(1)));
            }
            return Err(m);
        }
        Ok(MainEnd::Returned(r))
    }
}
