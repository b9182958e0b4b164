//! Kernel threads as stackful coroutines (corosensei), driven by one deterministic scheduler.
//!
//! A [`Fiber`] runs a kernel body on its own stack. The body suspends itself in two ways:
//! [`Suspend::Until`] (resume me at this cycle, after everything ordered before it) and [`Suspend::Blocked`]
//! (resume me when someone wakes me). The scheduler passes the cycle of resumption back in.
//!
//! A panic in a body becomes [`Step::Failed`] with the message and location instead of unwinding through
//! the scheduler; API errors raised with [`abort`] are reported the same way, without a panic message
//! on stderr.

use crate::time::{Cycle, Cycles};
use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult};
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Once;

/// Dense id of a fiber within one run; also its tie-break among kernels resuming at the same cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FiberId(pub u32);

/// Why a fiber gave control back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suspend {
    /// Resume at this cycle, once every event ordered before it has happened.
    Until(Cycle),
    /// Resume when woken.
    Blocked,
}

/// The handle a fiber body uses to suspend; resumption hands back the current cycle.
pub type Yielder = corosensei::Yielder<Cycle, Suspend>;

/// A fiber that stopped by panicking or by [`abort`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FiberFailure {
    /// The panic or abort message.
    pub message: String,
    /// `file:line:col` of a panic, when known.
    pub location: Option<String>,
    /// True for API errors raised with [`abort`], false for panics in kernel code.
    pub aborted: bool,
}

/// The outcome of resuming a fiber.
#[derive(Debug)]
pub enum Step {
    /// The body suspended.
    Suspended(Suspend),
    /// The body returned.
    Finished,
    /// The body panicked or aborted; the fiber is finished. (Boxed: every resumption moves a `Step`, and
    /// the rare failure should not make it five times larger.)
    Failed(Box<FiberFailure>),
}

/// Payload of [`abort`].
struct Abort(String);

/// Stop the current kernel with an API error `message` (no panic message is printed).
pub fn abort(message: String) -> ! {
    resume_unwind(Box::new(Abort(message)))
}

thread_local! {
    static IN_FIBER: Cell<bool> = const { Cell::new(false) };
    static CAPTURED: RefCell<Option<(String, Option<String>)>> = const { RefCell::new(None) };
}

fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_FIBER.with(|f| f.get()) {
                let msg = if let Some(s) = info.payload().downcast_ref::<&str>() {
                    s.to_string()
                } else if let Some(s) = info.payload().downcast_ref::<String>() {
                    s.clone()
                } else {
                    "panic with a non-string payload".to_string()
                };
                let loc = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                CAPTURED.with(|c| *c.borrow_mut() = Some((msg, loc)));
            } else {
                prev(info);
            }
        }));
    });
}

/// One kernel thread.
pub struct Fiber {
    co: Coroutine<Cycle, Suspend, (), DefaultStack>,
}

impl Fiber {
    /// A fiber that will run `body` on a stack of `stack_bytes` bytes when first resumed.
    pub fn new(stack_bytes: usize, body: impl FnOnce(&Yielder, Cycle) + 'static) -> Result<Fiber, String> {
        install_panic_hook();
        let stack = DefaultStack::new(stack_bytes)
            .map_err(|e| format!("cannot allocate a {stack_bytes}-byte kernel stack: {e}"))?;
        Ok(Fiber { co: Coroutine::with_stack(stack, body) })
    }

    /// Run the fiber until it suspends, returns or fails; `now` is the current cycle.
    pub fn resume(&mut self, now: Cycle) -> Step {
        let prev = IN_FIBER.with(|f| f.replace(true));
        let r = catch_unwind(AssertUnwindSafe(|| self.co.resume(now)));
        IN_FIBER.with(|f| f.set(prev));
        match r {
            Ok(CoroutineResult::Yield(s)) => Step::Suspended(s),
            Ok(CoroutineResult::Return(())) => Step::Finished,
            Err(payload) => Step::Failed(Box::new(failure(payload))),
        }
    }

    /// Whether the body has returned or failed.
    pub fn is_done(&self) -> bool {
        self.co.done()
    }
}

fn failure(payload: Box<dyn Any + Send>) -> FiberFailure {
    let captured = CAPTURED.with(|c| c.borrow_mut().take());
    match payload.downcast::<Abort>() {
        Ok(a) => FiberFailure { message: a.0, location: None, aborted: true },
        Err(payload) => {
            let (message, location) = captured.unwrap_or_else(|| {
                let m = if let Some(s) = payload.downcast_ref::<&str>() {
                    s.to_string()
                } else if let Some(s) = payload.downcast_ref::<String>() {
                    s.clone()
                } else {
                    "panic with a non-string payload".to_string()
                };
                (m, None)
            });
            FiberFailure { message, location, aborted: false }
        }
    }
}

/// A fiber's local clock and its way to give control back. The clock is a `Cell` so that calls which only
/// spend time can take `&self`.
pub struct FiberClock<'y> {
    yielder: &'y Yielder,
    now: Cell<Cycle>,
    id: FiberId,
}

impl<'y> FiberClock<'y> {
    /// The clock of fiber `id`, starting at `start`.
    pub fn new(yielder: &'y Yielder, id: FiberId, start: Cycle) -> Self {
        FiberClock { yielder, now: Cell::new(start), id }
    }

    /// This fiber's id.
    pub fn id(&self) -> FiberId {
        self.id
    }

    /// The fiber's local time.
    #[inline]
    pub fn now(&self) -> Cycle {
        self.now.get()
    }

    /// Move the local time forward to `t` (no-op if it is already later).
    #[inline]
    pub fn catch_up(&self, t: Cycle) {
        self.now.set(self.now.get().max(t));
    }

    /// Spend `c` cycles (a time-only call: no synchronisation).
    #[inline]
    pub fn advance(&self, c: Cycles) {
        self.now.set(self.now.get() + c);
    }

    /// Hand control back and resume at the current local time, after every entry ordered before it (what
    /// a kernel does when its [`crate::SyncView`] says something earlier is pending; also lets the
    /// scheduler see a fiber that never blocks, e.g. to enforce a watchdog).
    pub fn yield_now(&self) {
        let t = self.yielder.suspend(Suspend::Until(self.now()));
        self.catch_up(t);
    }

    /// Suspend until woken; returns the cycle of the wake-up (the local clock moves to it).
    pub fn block(&self) -> Cycle {
        let t = self.yielder.suspend(Suspend::Blocked);
        self.catch_up(t);
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suspends_and_resumes_with_time() {
        let mut f = Fiber::new(64 * 1024, |y, t0| {
            let c = FiberClock::new(y, FiberId(0), t0);
            c.advance(Cycles(10));
            c.yield_now();
            assert_eq!(c.now(), Cycle(10));
            let woke = c.block();
            assert_eq!(woke, Cycle(42));
        })
        .unwrap();
        assert!(matches!(f.resume(Cycle(0)), Step::Suspended(Suspend::Until(Cycle(10)))));
        assert!(matches!(f.resume(Cycle(10)), Step::Suspended(Suspend::Blocked)));
        assert!(matches!(f.resume(Cycle(42)), Step::Finished));
        assert!(f.is_done());
    }

    #[test]
    fn panics_become_failures_with_location() {
        let mut f = Fiber::new(64 * 1024, |_, _| panic!("kernel exploded: {}", 7)).unwrap();
        match f.resume(Cycle(0)) {
            Step::Failed(e) => {
                assert_eq!(e.message, "kernel exploded: 7");
                assert!(e.location.unwrap().contains("fiber.rs"));
                assert!(!e.aborted);
            }
            other => panic!("unexpected {other:?}"),
        }
        let mut g = Fiber::new(64 * 1024, |_, _| abort("bad CB index 40".into())).unwrap();
        match g.resume(Cycle(0)) {
            Step::Failed(e) => {
                assert_eq!(e.message, "bad CB index 40");
                assert!(e.aborted);
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn dropping_a_suspended_fiber_unwinds_quietly() {
        let mut f = Fiber::new(64 * 1024, |y, t0| {
            let c = FiberClock::new(y, FiberId(0), t0);
            let _guard = String::from("owned by the suspended stack");
            c.block();
            unreachable!("never woken");
        })
        .unwrap();
        assert!(matches!(f.resume(Cycle(0)), Step::Suspended(Suspend::Blocked)));
        drop(f);
    }
}
