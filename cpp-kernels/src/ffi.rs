//! The one place tensim runs foreign code: loading a compiled kernel library, calling its entry point,
//! and the pointer to the running kernel's context through which the ABI calls (`abi.rs`) reach the
//! Rust kernel API.
//!
//! Kernels are fibers interleaved on one host thread; they switch only inside API calls. A kernel's
//! entry sets `CURRENT` to its own context, and every ABI call reads `CURRENT` on the way in and sets it
//! back on the way out — after the Rust call, during which other kernels may have run and set it to
//! theirs. So whenever C++ code runs, `CURRENT` is its own kernel's context.
#![allow(unsafe_code)]

use crate::abi::{TABLE, TensimApi};
use sim_core::fiber::abort;
use sim_tensix::{Compute, Dataflow};
use std::cell::Cell;
use std::path::Path;

#[derive(Clone, Copy)]
enum Current {
    None,
    Dataflow(*mut Dataflow<'static>),
    Compute(*mut Compute<'static>),
}

thread_local! {
    static CURRENT: Cell<Current> = const { Cell::new(Current::None) };
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
        // SAFETY: `tensim_kernel_entry` is defined by the wrapper `compile.rs` generates, with exactly this
        // signature (`extern "C" void(const tensim_api*)`).
        let entry: Entry = unsafe {
            *lib.get::<Entry>(b"tensim_kernel_entry\0")
                .map_err(|e| format!("{} has no tensim_kernel_entry: {e}", path.display()))?
        };
        Ok(KernelLib { entry, _lib: lib })
    }

    fn call(&self, me: Current) {
        let before = CURRENT.with(|c| c.replace(me));
        // SAFETY: `entry` takes the table of `extern "C-unwind"` functions that `abi.rs` defines with the
        // layout `tensim/abi.h` declares (the version field guards it). An API error unwinds through the
        // C++ frames (built with exceptions, the default), which is what `C-unwind` allows.
        unsafe { (self.entry)(&TABLE) };
        CURRENT.with(|c| c.set(before));
    }

    /// Run a data-movement kernel on its context.
    pub fn run_dataflow(&self, d: &mut Dataflow<'_>) {
        self.call(Current::Dataflow((d as *mut Dataflow<'_>).cast()));
    }

    /// Run one TRISC's build of a compute kernel on its context.
    pub fn run_compute(&self, c: &mut Compute<'_>) {
        self.call(Current::Compute((c as *mut Compute<'_>).cast()));
    }
}

/// Run `f` on the running data-movement kernel's context (an API error if a compute kernel called).
pub(crate) fn dataflow<R>(api: &str, f: impl FnOnce(&mut Dataflow<'_>) -> R) -> R {
    let me = CURRENT.with(|c| c.get());
    let Current::Dataflow(p) = me else {
        abort(format!("{api} is a data-movement call; a compute kernel cannot make it"))
    };
    // SAFETY: `p` came from the `&mut Dataflow` that `run_dataflow` holds for the whole entry call, and
    // only this kernel (this fiber) uses it: see the module comment for why `CURRENT` is this kernel's.
    let r = f(unsafe { &mut *p });
    CURRENT.with(|c| c.set(me));
    r
}

/// Run `f` on the running compute kernel's context (an API error if a data-movement kernel called).
pub(crate) fn compute<R>(api: &str, f: impl FnOnce(&mut Compute<'_>) -> R) -> R {
    let me = CURRENT.with(|c| c.get());
    let Current::Compute(p) = me else {
        abort(format!("{api} is a compute call; a data-movement kernel cannot make it"))
    };
    // SAFETY: as in `dataflow`.
    let r = f(unsafe { &mut *p });
    CURRENT.with(|c| c.set(me));
    r
}

/// Which kind of kernel is running (for calls both kinds make).
pub(crate) fn is_compute() -> bool {
    CURRENT.with(|c| matches!(c.get(), Current::Compute(_)))
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
