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

/// The running kernel's context and its core's L1 window (looked up once, at entry: a core's L1 does not
/// move during a run).
#[derive(Clone, Copy)]
enum Current {
    None,
    Dataflow(*mut Dataflow<'static>, Option<usize>),
    Compute(*mut Compute<'static>, Option<usize>),
}

thread_local! {
    static CURRENT: Cell<Current> = const { Cell::new(Current::None) };
    /// The running C++ code stored to L1 through a pointer since its last API call: kernels waiting on L1
    /// words must look again, once the store has happened (at the next call, or when the kernel returns).
    static STORED: Cell<bool> = const { Cell::new(false) };
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
        Current::Dataflow(p, _) => unsafe { &mut *p }.l1_pointer_stored(),
        // SAFETY: as above.
        Current::Compute(p, _) => unsafe { &mut *p }.l1_pointer_stored(),
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
            Current::Dataflow(_, w) | Current::Compute(_, w) => w,
            Current::None => None,
        };
        /// Puts back the caller's kernel and L1 range owner, also when an API error unwinds the kernel.
        struct Restore(Current, Option<usize>);
        impl Drop for Restore {
            fn drop(&mut self) {
                crate::l1_window::enter_kernel(self.1);
                CURRENT.with(|c| c.set(self.0));
            }
        }
        let before = CURRENT.with(|c| c.replace(me));
        let _restore = Restore(before, crate::l1_window::enter_kernel(window));
        // SAFETY: `entry` takes the table of `extern "C-unwind"` functions that `abi.rs` defines with the
        // layout `tensim/abi.h` declares (the version field guards it). An API error unwinds through the
        // C++ frames (built with exceptions, the default), which is what `C-unwind` allows.
        unsafe { (self.entry)(&TABLE) };
        flush_stores(me);
    }

    /// Run a data-movement kernel on its context.
    pub fn run_dataflow(&self, d: &mut Dataflow<'_>) {
        let w = d.l1_window_base();
        self.call(Current::Dataflow((d as *mut Dataflow<'_>).cast(), w));
    }

    /// Run one TRISC's build of a compute kernel on its context.
    pub fn run_compute(&self, c: &mut Compute<'_>) {
        let w = c.l1_window_base();
        self.call(Current::Compute((c as *mut Compute<'_>).cast(), w));
    }
}

/// Run `f` on the running data-movement kernel's context (an API error if a compute kernel called).
pub(crate) fn dataflow<R>(api: &str, f: impl FnOnce(&mut Dataflow<'_>) -> R) -> R {
    let me = CURRENT.with(|c| c.get());
    let Current::Dataflow(p, window) = me else {
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
    r
}

/// Run `f` on the running compute kernel's context (an API error if a data-movement kernel called).
pub(crate) fn compute<R>(api: &str, f: impl FnOnce(&mut Compute<'_>) -> R) -> R {
    let me = CURRENT.with(|c| c.get());
    let Current::Compute(p, window) = me else {
        abort(format!("{api} is a compute call; a data-movement kernel cannot make it"))
    };
    flush_stores(me);
    // SAFETY: as in `dataflow`.
    let c = unsafe { &mut *p };
    crate::l1_window::enter_kernel(None);
    let r = f(c);
    crate::l1_window::enter_kernel(window);
    CURRENT.with(|cur| cur.set(me));
    r
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
pub(crate) const HOST_THREW: i32 = i32::MIN;

impl HostLib {
    /// Load a host program built by `host/build.rs`.
    pub fn load(path: &Path) -> Result<HostLib, String> {
        // SAFETY: a library tensim compiled from the user's host sources and tensim's host headers; its
        // initialisers are the C++ runtime's and the program's own globals.
        let lib = unsafe { libloading::Library::new(path) }
            .map_err(|e| format!("cannot load the compiled host program {}: {e}", path.display()))?;
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

    /// Run `main(argc, argv)`: its return value, or the text of the exception it ended with.
    pub fn run_main(&self, args: &[String]) -> Result<i32, String> {
        let cargs: Vec<std::ffi::CString> =
            args.iter().map(|a| std::ffi::CString::new(a.replace('\0', " ")).unwrap_or_default()).collect();
        let mut argv: Vec<*const std::ffi::c_char> = cargs.iter().map(|c| c.as_ptr()).collect();
        argv.push(std::ptr::null());
        let mut err = vec![0 as std::ffi::c_char; 4096];
        // SAFETY: the table has the layout `tensim/host_abi.h` declares; argv is NUL-terminated and lives
        // across the call; `err` has the length passed. Errors inside tensim come back as return codes
        // (host ABI calls catch panics), so nothing unwinds through the C++ frames.
        let r = unsafe {
            (self.entry)(
                &crate::host::abi::HOST_TABLE,
                args.len() as i32,
                argv.as_ptr(),
                err.as_mut_ptr(),
                err.len() as u32,
            )
        };
        if r == HOST_THREW {
            // SAFETY: the entry wrote a NUL-terminated message into `err` (snprintf).
            let m = unsafe { std::ffi::CStr::from_ptr(err.as_ptr()) }.to_string_lossy().into_owned();
            return Err(m);
        }
        Ok(r)
    }
}

// ---- L1 in host memory: C++ kernels dereference L1 addresses ----

/// Every core's L1 of a device in one shared memory file, mapped once for tensim (windows separated by
/// inaccessible gaps) and, while a C++ kernel runs, the running core's L1 mapped again at its own
/// addresses (L1 address A at host address A), so that a pointer made from any L1 address works.
pub(crate) struct Arena {
    fd: libc::c_int,
    base: usize,
    len: usize,
}

// SAFETY: the arena is plain memory with no thread affinity; access is coordinated by its users.
unsafe impl Send for Arena {}
// SAFETY: as above.
unsafe impl Sync for Arena {}

impl Arena {
    /// A memory file of `len` bytes (a multiple of the page size), mapped inaccessible.
    pub fn new(len: usize) -> Result<Arena, String> {
        // SAFETY: creating an anonymous memory file; the name is a NUL-terminated literal.
        let fd = unsafe { libc::memfd_create(c"tensim-l1".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(format!("cannot create memory for the cores' L1: {}", std::io::Error::last_os_error()));
        }
        // SAFETY: sizing the file just created.
        if unsafe { libc::ftruncate(fd, len as libc::off_t) } != 0 {
            let e = std::io::Error::last_os_error();
            // SAFETY: closing the file just created.
            unsafe { libc::close(fd) };
            return Err(format!("cannot size memory for the cores' L1: {e}"));
        }
        // SAFETY: a shared mapping of the whole file, with no access yet; no existing memory is touched.
        let p = unsafe { libc::mmap(std::ptr::null_mut(), len, libc::PROT_NONE, libc::MAP_SHARED, fd, 0) };
        if p == libc::MAP_FAILED {
            let e = std::io::Error::last_os_error();
            // SAFETY: closing the file just created.
            unsafe { libc::close(fd) };
            return Err(format!("cannot map memory for the cores' L1: {e}"));
        }
        Ok(Arena { fd, base: p as usize, len })
    }

    /// Base address of tensim's mapping.
    pub fn base(&self) -> usize {
        self.base
    }

    /// The memory file.
    pub fn fd(&self) -> i32 {
        self.fd
    }

    /// Make `[off, off + len)` of tensim's mapping readable and writable (page-aligned).
    pub fn open(&self, off: usize, len: usize) -> Result<(), String> {
        assert!(off + len <= self.len, "a window inside the arena");
        // SAFETY: the range lies inside this arena's mapping.
        let r =
            unsafe { libc::mprotect((self.base + off) as *mut libc::c_void, len, libc::PROT_READ | libc::PROT_WRITE) };
        if r != 0 {
            return Err(format!("cannot map L1 memory: {}", std::io::Error::last_os_error()));
        }
        Ok(())
    }

    /// The bytes `[off, off + len)` of an opened range.
    pub fn bytes(&self, off: usize, len: usize) -> &[u8] {
        // SAFETY: `open` made the range readable; it stays mapped while the arena lives (windows hold an
        // `Arc` of it). C++ kernels write the same memory only while no tensim code holds this slice (they
        // run between API calls, on the same thread).
        unsafe { std::slice::from_raw_parts((self.base + off) as *const u8, len) }
    }

    /// The bytes `[off, off + len)` of an opened range, writable.
    #[allow(clippy::mut_from_ref)]
    pub fn bytes_mut(&self, off: usize, len: usize) -> &mut [u8] {
        // SAFETY: as in `bytes`; each window (one disjoint range) is owned by one L1, which hands out this
        // slice only through `&mut self`.
        unsafe { std::slice::from_raw_parts_mut((self.base + off) as *mut u8, len) }
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        // SAFETY: unmapping exactly the mapping and closing the file; no window outlives the arena.
        unsafe {
            libc::munmap(self.base as *mut libc::c_void, self.len);
            libc::close(self.fd);
        }
    }
}

/// Reserve `[start, end)` of the address space, inaccessible (the place L1 addresses are mapped at).
/// Fails if anything is mapped there.
pub(crate) fn reserve_low(start: usize, end: usize) -> Result<(), String> {
    // SAFETY: MAP_FIXED_NOREPLACE maps only if the range is free; nothing existing is replaced.
    let p = unsafe {
        libc::mmap(
            start as *mut libc::c_void,
            end - start,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED_NOREPLACE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED || p as usize != start {
        return Err(format!(
            "cannot reserve host addresses {start:#x}..{end:#x} for L1 pointers of C++ kernels: {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}

/// Map `[start, end)` to the memory file `fd` from `offset` (a core's L1 at its own addresses), or back
/// to inaccessible when `fd` is negative. Async-signal-safe (one system call).
pub(crate) fn map_low(start: usize, end: usize, fd: i32, offset: usize) -> bool {
    // SAFETY: `[start, end)` is the range `reserve_low` took for tensim; replacing its mapping touches no
    // other memory. The file range lies inside the memory file.
    let p = unsafe {
        if fd < 0 {
            libc::mmap(
                start as *mut libc::c_void,
                end - start,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED,
                -1,
                0,
            )
        } else {
            libc::mmap(
                start as *mut libc::c_void,
                end - start,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_FIXED,
                fd,
                offset as libc::off_t,
            )
        }
    };
    p != libc::MAP_FAILED
}

/// What the fault handler does with a faulting address.
pub(crate) enum FaultAction {
    /// Not tensim's: the previous handler takes it.
    Pass,
    /// Mapped now: run the instruction again.
    Retry,
    /// An out-of-bounds L1 pointer: print this and end the process.
    Report(String),
}

/// Install (once) the fault handler: `decide` says what a fault at an address means (see [`FaultAction`]);
/// faults that are not tensim's go back to the handler installed before (Rust's stack-overflow report,
/// or the default action).
pub(crate) fn install_fault_handler(decide: fn(usize) -> FaultAction) {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    static DECIDE: std::sync::OnceLock<fn(usize) -> FaultAction> = std::sync::OnceLock::new();
    static PREVIOUS: std::sync::OnceLock<[(libc::c_int, libc::sigaction); 2]> = std::sync::OnceLock::new();
    let _ = DECIDE.set(decide);
    extern "C" fn on_fault(sig: libc::c_int, info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
        let addr = unsafe { (*info).si_addr() } as usize;
        match DECIDE.get().map_or(FaultAction::Pass, |d| d(addr)) {
            FaultAction::Retry => return,
            FaultAction::Report(m) => {
                let m = format!("error: {m}\n");
                // SAFETY: write(2) and _exit(2) are async-signal-safe. Formatting allocates, which is not in
                // general; the fault comes from kernel code dereferencing an L1 pointer (not from inside the
                // allocator) and the process ends right after.
                unsafe {
                    libc::write(2, m.as_ptr().cast(), m.len());
                    libc::_exit(1);
                }
            }
            FaultAction::Pass => {}
        }
        // SAFETY: reinstating the previous action; returning re-runs the faulting instruction, which then
        // gets that action.
        unsafe {
            match PREVIOUS.get().and_then(|p| p.iter().find(|(s, _)| *s == sig)) {
                Some((_, old)) => {
                    libc::sigaction(sig, old, std::ptr::null_mut());
                }
                None => {
                    libc::signal(sig, libc::SIG_DFL);
                }
            }
        }
    }
    INSTALLED.call_once(|| {
        let mut previous = Vec::new();
        for sig in [libc::SIGSEGV, libc::SIGBUS] {
            // SAFETY: a zeroed sigaction with our handler and SA_SIGINFO (and SA_ONSTACK, for faults on a
            // thread's alternate stack) is a valid argument; the old action is written into `old`.
            unsafe {
                let mut sa: libc::sigaction = std::mem::zeroed();
                sa.sa_sigaction = on_fault as *const () as usize;
                sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut sa.sa_mask);
                let mut old: libc::sigaction = std::mem::zeroed();
                libc::sigaction(sig, &sa, &mut old);
                previous.push((sig, old));
            }
        }
        let _ = PREVIOUS.set([previous[0], previous[1]]);
    });
}
