//! Faults in C++ code: the handler that asks the registered resolver (`l1_window` maps a core's L1 on first
//! touch) what a faulting address means, and that reports every other
//! fault of user code — a bad pointer, a stack overflow, a trap, an arithmetic fault, an abort — naming the
//! kernel (file, core, RISC) or the host program and its last tensim call (`supervise.rs`), then ends the
//! process with exit code 1. Faults with no user code on the thread go to the handler installed before
//! (Rust's stack-overflow report, or the default action).
#![allow(unsafe_code)]

use super::supervise;
use std::fmt::Write as _;

/// What the fault handler does with a faulting address.
pub(crate) enum FaultAction {
    /// Not an L1 access: the handler looks at who was running.
    Pass,
    /// Mapped now: run the instruction again.
    Retry,
    /// An L1 pointer out of bounds: this description of the fault, then the process ends.
    Report(String),
}

/// The resolver of faulting addresses, once one is registered (read in the handler: an atomic load).
static RESOLVER: std::sync::OnceLock<fn(usize) -> FaultAction> = std::sync::OnceLock::new();

/// Let `resolve` say what a fault at an address means (the L1 windows register theirs when a device's L1
/// first moves into them; later registrations of the same resolver change nothing).
pub(crate) fn resolve_addresses_with(resolve: fn(usize) -> FaultAction) {
    let _ = RESOLVER.set(resolve);
}

/// What the registered resolver says of `addr` (`Pass` when there is none).
fn resolve(addr: usize) -> FaultAction {
    RESOLVER.get().map_or(FaultAction::Pass, |r| r(addr))
}

/// The signals whose faults are reported.
const SIGNALS: [libc::c_int; 6] =
    [libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE, libc::SIGABRT, libc::SIGTRAP];

/// A message built in a fixed buffer (the handler must not allocate: the fault may be inside the
/// allocator). Text past the end is cut.
struct Buf {
    bytes: [u8; 2048],
    len: usize,
}

impl std::fmt::Write for Buf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let n = s.len().min(self.bytes.len() - self.len);
        self.bytes[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

/// The stack pointer at the fault.
fn stack_pointer(ctx: *mut libc::c_void) -> Option<usize> {
    if ctx.is_null() {
        return None;
    }
    // SAFETY: for an SA_SIGINFO handler the third argument is the thread's `ucontext_t` at the fault.
    let uc = unsafe { &*(ctx as *const libc::ucontext_t) };
    #[cfg(target_arch = "x86_64")]
    {
        Some(uc.uc_mcontext.gregs[libc::REG_RSP as usize] as usize)
    }
    #[cfg(target_arch = "aarch64")]
    {
        Some(uc.uc_mcontext.sp as usize)
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let _ = uc;
        None
    }
}

/// What went wrong, in words.
fn describe(out: &mut Buf, sig: libc::c_int, code: libc::c_int, addr: usize, sp: Option<usize>, kernel: bool) {
    let near_stack = sp.is_some_and(|sp| addr.abs_diff(sp) <= 64 * 1024);
    let _ = match sig {
        libc::SIGSEGV if near_stack => {
            if kernel {
                out.write_str(
                    "overflowed its stack (a local array or recursion too large for a kernel thread's stack of sim.stack_bytes bytes: make the array static or put it in L1 (a CB or an L1 buffer), or raise the parameter sim.stack_bytes)",
                )
            } else {
                out.write_str("overflowed its stack (a local array or recursion too large for the thread's stack)")
            }
        }
        libc::SIGSEGV if addr < 4096 => write!(out, "dereferenced a null pointer (address {addr:#x})"),
        libc::SIGSEGV => write!(
            out,
            "touched memory at address {addr:#x}, which is neither this core's L1 nor memory of the program's (a stray pointer)"
        ),
        libc::SIGBUS => write!(out, "got a bus error at address {addr:#x} (a misaligned or truncated mapping)"),
        libc::SIGILL => out.write_str(
            "executed an illegal instruction (`__builtin_trap()`, or undefined behaviour the compiler turned into a trap)",
        ),
        libc::SIGTRAP => out.write_str("hit a breakpoint trap (`__builtin_debugtrap()` or a debugger trap)"),
        libc::SIGFPE if code == 1 /* FPE_INTDIV */ => out.write_str("divided an integer by zero"),
        libc::SIGFPE => out.write_str("made an arithmetic fault (an integer overflow in a division?)"),
        libc::SIGABRT => out.write_str(
            "aborted (abort(), a failed assert(), or std::terminate: an exception that could not propagate, or one that is not a std::exception)",
        ),
        _ => write!(out, "got signal {sig}"),
    };
}

/// Write the report for a fault of user code and end the process.
fn report(who: &supervise::Who, in_user: bool, fault: impl FnOnce(&mut Buf)) -> ! {
    let mut m = Buf { bytes: [0; 2048], len: 0 };
    let _ = write!(m, "error: {}", who.what);
    let program = supervise::program();
    if !program.is_empty() {
        let _ = write!(m, " (program {program})");
    }
    let last = supervise::api_name(who.last_api.get());
    if in_user {
        let _ = m.write_str(": ");
        fault(&mut m);
        if last.is_empty() {
            let _ = m.write_str("; it had made no tensim call yet");
        } else {
            let _ = write!(m, "; its last tensim call was `{last}`");
        }
    } else {
        let _ = write!(m, ": tensim itself failed while serving its call `{last}`: ");
        fault(&mut m);
        let _ = m.write_str(" — an internal error of tensim; please report it");
    }
    let _ = m.write_str("\n");
    // SAFETY: fflush of the C streams keeps the program's own printed output (glibc's stream locks are
    // recursive, so a fault inside printf on this thread does not deadlock); write(2) and _exit(2) are
    // async-signal-safe.
    unsafe {
        libc::fflush(std::ptr::null_mut());
        libc::write(2, m.bytes.as_ptr().cast(), m.len);
        libc::_exit(1)
    }
}

/// Install (once) the fault handler: the registered resolver says what a fault at an address means for L1
/// (see [`FaultAction`]); a fault of user code is reported; other faults go back to the handler installed
/// before.
pub(crate) fn install_fault_handler() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    static PREVIOUS: std::sync::OnceLock<Vec<(libc::c_int, libc::sigaction)>> = std::sync::OnceLock::new();
    extern "C" fn on_fault(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
        let (addr, code) = unsafe { ((*info).si_addr() as usize, (*info).si_code) };
        let who = supervise::current();
        if sig == libc::SIGSEGV || sig == libc::SIGBUS {
            match resolve(addr) {
                FaultAction::Retry => return,
                FaultAction::Report(m) => match who {
                    Some((w, _)) => report(w, true, |b| {
                        let _ = b.write_str(&m);
                    }),
                    None => {
                        let m = format!("error: a C++ kernel {m}\n");
                        // SAFETY: as in `report`.
                        unsafe {
                            libc::write(2, m.as_ptr().cast(), m.len());
                            libc::_exit(1);
                        }
                    }
                },
                FaultAction::Pass => {}
            }
        }
        if let Some((w, in_user)) = who {
            let kernel = w.watched;
            let sp = stack_pointer(ctx);
            report(w, in_user, |b| describe(b, sig, code, addr, sp, kernel));
        }
        // SAFETY: reinstating the previous action; returning re-runs the faulting instruction (or, for an
        // abort, raises it again), which then gets that action.
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
        for sig in SIGNALS {
            // SAFETY: a zeroed sigaction with our handler and SA_SIGINFO (and SA_ONSTACK, so a stack overflow
            // is handled on the thread's alternate stack) is a valid argument; the old action is written
            // into `old`.
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
        let _ = PREVIOUS.set(previous);
    });
}
