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
    /// The coroutine; `None` only while the fiber is dropped (its stack goes back to [`STACK_POOL`]).
    co: Option<Coroutine<Cycle, Suspend, (), DefaultStack>>,
    /// The stack size asked for.
    stack_bytes: usize,
}

/// Stacks of finished fibers, with the size asked for, kept for the next fibers of this process (at most
/// [`POOLED_STACKS`]). Making a stack maps memory and protects a guard page, and unmapping it at the end of
/// a run makes the kernel interrupt every processor the process ran on to flush its address
/// translations: together about a tenth of a small run (a 256³ matmul: 320 fibers). Pooled stacks are
/// reused by the next run (sweeps, benches, tests) and released all at once when the process exits; a
/// stack's contents never matter to the next fiber.
static STACK_POOL: std::sync::Mutex<Vec<(usize, DefaultStack)>> = std::sync::Mutex::new(Vec::new());

/// The most stacks [`STACK_POOL`] keeps: 1024 fibers' stacks (about 200 cores' kernels), whose touched
/// pages stay resident (a kernel touches a few KiB of its stack).
const POOLED_STACKS: usize = 1024;

impl Fiber {
    /// A fiber that will run `body` on a stack of `stack_bytes` bytes when first resumed.
    pub fn new(stack_bytes: usize, body: impl FnOnce(&Yielder, Cycle) + 'static) -> Result<Fiber, String> {
        install_panic_hook();
        let pooled = {
            let mut pool = STACK_POOL.lock().unwrap_or_else(|e| e.into_inner());
            let at = pool.iter().rposition(|(size, _)| *size == stack_bytes);
            at.map(|i| pool.swap_remove(i).1)
        };
        let stack = match pooled {
            Some(s) => s,
            None => DefaultStack::new(stack_bytes)
                .map_err(|e| format!("cannot allocate a {stack_bytes}-byte kernel stack: {e}"))?,
        };
        Ok(Fiber { co: Some(Coroutine::with_stack(stack, body)), stack_bytes })
    }

    fn co(&mut self) -> &mut Coroutine<Cycle, Suspend, (), DefaultStack> {
        self.co.as_mut().expect("a fiber's coroutine lives until the fiber is dropped")
    }

    /// Run the fiber until it suspends, returns or fails; `now` is the current cycle.
    pub fn resume(&mut self, now: Cycle) -> Step {
        let prev = IN_FIBER.with(|f| f.replace(true));
        let co = self.co();
        let r = catch_unwind(AssertUnwindSafe(|| co.resume(now)));
        IN_FIBER.with(|f| f.set(prev));
        match r {
            Ok(CoroutineResult::Yield(s)) => Step::Suspended(s),
            Ok(CoroutineResult::Return(())) => Step::Finished,
            Err(payload) => Step::Failed(Box::new(failure(payload))),
        }
    }

    /// Whether the body has returned or failed.
    pub fn is_done(&self) -> bool {
        self.co.as_ref().is_none_or(|c| c.done())
    }
}

impl Drop for Fiber {
    /// A finished fiber's stack goes to [`STACK_POOL`] (while it has room); an unfinished one is unwound
    /// and its stack unmapped, as dropping a coroutine does.
    fn drop(&mut self) {
        let Some(co) = self.co.take() else { return };
        if !co.done() {
            return;
        }
        let stack = co.into_stack();
        let mut pool = STACK_POOL.lock().unwrap_or_else(|e| e.into_inner());
        if pool.len() < POOLED_STACKS {
            pool.push((self.stack_bytes, stack));
        }
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
    /// a kernel does when its [`crate::agenda::SyncView`] says something earlier is pending; also lets the
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

    fn pooled(size: usize) -> usize {
        STACK_POOL.lock().unwrap().iter().filter(|(s, _)| *s == size).count()
    }

    #[test]
    fn finished_fibers_hand_their_stacks_to_the_next_ones_and_unfinished_ones_do_not() {
        // A size no other test asks for, so that the counts below are this test's own.
        const SIZE: usize = 64 * 1024 + 7 * 4096;
        let run = |body: fn(&Yielder, Cycle)| {
            let mut f = Fiber::new(SIZE, body).unwrap();
            let step = f.resume(Cycle(0));
            (f, step)
        };
        let (f, step) = run(|_, _| {});
        assert!(matches!(step, Step::Finished));
        drop(f);
        assert_eq!(pooled(SIZE), 1);
        // The next fiber takes it and runs as on a fresh stack (deep enough to touch several pages).
        let (f, step) = run(|_, _| {
            let deep = [7u8; 40 * 1024];
            assert_eq!(std::hint::black_box(&deep).iter().map(|&b| b as u32).sum::<u32>(), 7 * 40 * 1024);
        });
        assert!(matches!(step, Step::Finished));
        assert_eq!(pooled(SIZE), 0);
        drop(f);
        assert_eq!(pooled(SIZE), 1);
        // A failed fiber is done too; a suspended one is unwound and its stack unmapped, not pooled.
        let (f, step) = run(|_, _| panic!("a kernel bug"));
        assert!(matches!(step, Step::Failed(_)));
        assert_eq!(pooled(SIZE), 0);
        drop(f);
        assert_eq!(pooled(SIZE), 1);
        let (f, step) = run(|y, _| {
            y.suspend(Suspend::Blocked);
        });
        assert!(matches!(step, Step::Suspended(Suspend::Blocked)));
        drop(f);
        assert_eq!(pooled(SIZE), 0);
    }

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
