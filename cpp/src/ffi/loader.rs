//! Loading compiled kernel and host libraries and calling their entry points. The ABI tables they are
//! handed are passed in by the caller (`abi::TABLE`, `host::abi::HOST_TABLE`), so this layer knows the
//! tables' types only as type parameters.
#![allow(unsafe_code)]

use super::context::{Current, run_kernel};
use super::supervise::{self, Who};
use sim_tensix::{Compute, Dataflow};
use std::path::Path;

/// An ABI table and the version of the header that declares its layout.
pub(crate) struct Abi<T: 'static> {
    /// The table handed to the library's entry point.
    pub table: &'static T,
    /// The version the library must have been built against.
    pub version: u32,
    /// The symbol that reports the library's version (NUL-terminated).
    pub version_symbol: &'static [u8],
    /// The header the version belongs to (for messages).
    pub header: &'static str,
}

type Entry<T> = unsafe extern "C-unwind" fn(*const T);

/// A loaded kernel library, its entry point and the table it is called with.
pub(crate) struct KernelLib<T: 'static> {
    entry: Entry<T>,
    table: &'static T,
    // Kept alive for as long as `entry` may be called.
    _lib: libloading::Library,
}

impl<T> std::fmt::Debug for KernelLib<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KernelLib")
    }
}

impl<T: 'static> KernelLib<T> {
    /// Load a library built by `compile.rs`, to be called with `abi`'s table.
    pub fn load(path: &Path, abi: &Abi<T>) -> Result<Self, String> {
        // SAFETY: the library is one tensim compiled from the user's kernel and tensim's headers; its
        // initialisers are the C++ runtime's and the kernel's own globals, which run no tensim code.
        let lib = unsafe { libloading::Library::new(path) }
            .map_err(|e| format!("cannot load the compiled kernel {}: {e}", path.display()))?;
        check_version(&lib, path, abi)?;
        // SAFETY: `tensim_kernel_entry` is defined by the wrapper `compile.rs` generates, with exactly this
        // signature (`extern "C" void(const tensim_api*)`), and `T` is the Rust twin of `tensim_api`.
        let entry: Entry<T> = unsafe {
            *lib.get::<Entry<T>>(b"tensim_kernel_entry\0")
                .map_err(|e| format!("{} has no tensim_kernel_entry: {e}", path.display()))?
        };
        Ok(KernelLib { entry, table: abi.table, _lib: lib })
    }

    fn call(&self, me: Current) {
        // SAFETY: `entry` takes the table of `extern "C-unwind"` functions that `abi/` defines with the
        // layout `tensim/abi.h` declares (the version check and `abi_check` guard it). An API error unwinds
        // through the C++ frames (built with exceptions, the default), which is what `C-unwind` allows.
        run_kernel(me, || unsafe { (self.entry)(self.table) });
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

type HostEntry<T> =
    unsafe extern "C-unwind" fn(*const T, i32, *const *const std::ffi::c_char, *mut std::ffi::c_char, u32) -> i32;

/// The ABI version an object was built against (the `extern "C" unsigned name()` the wrappers export) is
/// the one this tensim speaks.
fn check_version<T>(lib: &libloading::Library, path: &Path, abi: &Abi<T>) -> Result<(), String> {
    // SAFETY: the wrappers tensim generates define this symbol as `extern "C" unsigned f(void)`.
    let f = unsafe { lib.get::<extern "C" fn() -> u32>(abi.version_symbol) }.map_err(|_| {
        format!("{} was not built by this tensim (it has no ABI version); delete it and build again", path.display())
    })?;
    let got = f();
    if got != abi.version {
        return Err(format!(
            "{} was built against {} version {got}, and this tensim speaks version {}; build it again",
            path.display(),
            abi.header,
            abi.version
        ));
    }
    Ok(())
}

/// A loaded host program.
pub(crate) struct HostLib<T: 'static> {
    entry: HostEntry<T>,
    table: &'static T,
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

impl<T: 'static> HostLib<T> {
    /// Load a host program built by `host/build.rs` (its static initialisers run as the host program's
    /// code: a fault in them is reported as the program's).
    pub fn load(path: &Path, who: &Who, abi: &Abi<T>) -> Result<Self, String> {
        supervise::set_base(Some(who));
        supervise::enter_user(who);
        // SAFETY: a library tensim compiled from the user's host sources and tensim's host headers; its
        // initialisers are the C++ runtime's and the program's own globals.
        let lib = unsafe { libloading::Library::new(path) };
        supervise::set_base(None);
        let lib = lib.map_err(|e| format!("cannot load the compiled host program {}: {e}", path.display()))?;
        check_version(&lib, path, abi)?;
        // SAFETY: `tensim_host_entry` is defined by the entry file `host/build.rs` adds, with this signature.
        let entry: HostEntry<T> = unsafe {
            *lib.get::<HostEntry<T>>(b"tensim_host_entry\0")
                .map_err(|e| format!("{} has no tensim_host_entry: {e}", path.display()))?
        };
        Ok(HostLib { entry, table: abi.table, _lib: lib })
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
        let r =
            unsafe { (self.entry)(self.table, args.len() as i32, argv.as_ptr(), err.as_mut_ptr(), err.len() as u32) };
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
