//! The scheduler loop: pop `(cycle, order)`-keyed entries, resume kernel threads or let hardware events
//! change the chip, until every kernel has finished — or report a deadlock (everyone blocked, nothing in
//! flight, with who waits on what), a failed kernel, or a run past the watchdog.

use super::run_error::{BlockedKernel, RunError};
use super::{Engine, Ev};
use sim_core::{Cycle, EventKey, Fiber, Next, Step, Suspend};
use std::cell::RefCell;
use std::rc::Rc;

/// A finished run: its engine (the chip's state, whatever happened) and how it ended. The launch builds
/// the report from it and hands the memories back to the device.
pub(crate) struct Finished {
    pub engine: Engine,
    pub result: Result<(), RunError>,
}

/// Where a run in windows stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pause {
    /// Every kernel has finished and nothing is pending.
    Done,
    /// The window's end was reached with work left at or after it.
    Window,
    /// Nothing is pending but kernels are still blocked: a deadlock, unless something arrives from
    /// another chip.
    Idle,
}

/// A run that can stop at a time limit and continue later (a chip of a mesh runs in windows).
pub(crate) struct Runner {
    engine: Rc<RefCell<Engine>>,
    fibers: Vec<Fiber>,
    alive: usize,
    steps: u32,
    /// The next entry when the last step already took it from the queue.
    taken: Option<(EventKey, Next<Ev>)>,
    /// Kernel resumptions so far.
    resumes: u64,
    max_cycles: Cycle,
}

impl Runner {
    /// Start every kernel thread at its start cycle; `max_cycles` is the watchdog.
    pub fn new(engine: Rc<RefCell<Engine>>, fibers: Vec<Fiber>, starts: &[Cycle], max_cycles: Cycle) -> Runner {
        {
            let mut e = engine.borrow_mut();
            for i in 0..fibers.len() as u32 {
                e.sched.queue.push_fiber(starts[i as usize], i);
            }
        }
        let alive = fibers.len();
        Runner { engine, fibers, alive, steps: 0, taken: None, resumes: 0, max_cycles }
    }

    /// The engine (between steps).
    pub fn engine(&self) -> &Rc<RefCell<Engine>> {
        &self.engine
    }

    /// When the next pending entry is due.
    pub fn next_at(&self) -> Option<Cycle> {
        let q = self.engine.borrow().sched.queue.head().map(|k| k.at);
        match (self.taken.as_ref().map(|(k, _)| k.at), q) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Process every entry due before `limit` (`None`: until nothing is left).
    pub fn run_until(
        &mut self,
        limit: Option<Cycle>,
        mut progress: Option<&mut super::Progress>,
    ) -> Result<Pause, RunError> {
        self.engine.borrow_mut().sched.queue.set_horizon(limit);
        loop {
            self.steps = self.steps.wrapping_add(1);
            let next = match self.taken.take() {
                Some(t) => Some(t),
                None => self.engine.borrow_mut().sched.queue.pop(),
            };
            if self.steps.is_multiple_of(1 << 16)
                && let (Some(p), Some((k, _))) = (progress.as_mut(), next.as_ref())
            {
                p(k.at);
            }
            let Some((key, ev)) = next else {
                return Ok(if self.alive == 0 { Pause::Done } else { Pause::Idle });
            };
            if limit.is_some_and(|l| key.at >= l) {
                // Back into the queue, not held: packets delivered before the next window may land earlier.
                self.engine.borrow_mut().sched.queue.restore(key, ev);
                return Ok(Pause::Window);
            }
            if key.at > self.max_cycles {
                return Err(livelock(&self.engine.borrow(), self.max_cycles));
            }
            match ev {
                Next::Resume(f) => {
                    // A fiber stops being blocked when woken (`Engine::notify_core`), not here.
                    self.resumes += 1;
                    match self.fibers[f.0 as usize].resume(key.at) {
                        Step::Suspended(Suspend::Until(t)) => {
                            self.taken = Some(self.engine.borrow_mut().sched.queue.resume_pop(t, f.0))
                        }
                        Step::Suspended(Suspend::Blocked) => {}
                        Step::Finished => self.alive -= 1,
                        Step::Failed(fail) => {
                            let e = self.engine.borrow();
                            let m = &e.sched.fibers[f.0 as usize];
                            let message = match fail.location {
                                Some(loc) if !fail.aborted => format!("{} (at {loc})", fail.message),
                                _ => fail.message,
                            };
                            return Err(RunError::Kernel {
                                kernel: m.kernel.to_string(),
                                core: e.chip.logical(m.core),
                                risc: m.risc.name().to_string(),
                                message,
                                panicked: !fail.aborted,
                                at: key.at,
                            });
                        }
                    }
                }
                Next::Event(ev) => {
                    let mut e = self.engine.borrow_mut();
                    e.sched.last_event = e.sched.last_event.max(key.at);
                    e.handle(key.at, ev);
                    if e.chip.steps.stuck.is_some() {
                        return Err(noc_deadlock(&e));
                    }
                }
            }
        }
    }

    /// The deadlock report for a run that went idle with kernels blocked.
    pub fn deadlock(&self) -> RunError {
        deadlock(&self.engine.borrow())
    }

    /// End the run: check the watchdog once more and unwind the threads still suspended.
    pub fn finish(self, result: Result<(), RunError>) -> Finished {
        let max_cycles = self.max_cycles;
        // A kernel that ran past the watchdog without ever waiting (a huge `delay`) ends past it too.
        let result = result.and_then(|()| {
            let e = self.engine.borrow();
            match e.sched.fibers.iter().find(|f| f.run.is_some_and(|(_, end, _)| end > max_cycles)) {
                Some(f) => {
                    let l = e.chip.logical(f.core);
                    Err(RunError::Livelock {
                        at: max_cycles,
                        running: vec![format!("`{}` on ({},{}) {}", f.kernel, l.0, l.1, f.risc)],
                    })
                }
                None => Ok(()),
            }
        });
        self.engine.borrow_mut().sched.resumes += self.resumes;
        // Unwind every thread still suspended before the engine state goes away.
        drop(self.fibers);
        let engine = match Rc::try_unwrap(self.engine) {
            Ok(cell) => cell.into_inner(),
            Err(_) => unreachable!("kernel threads hold the engine only while they run"),
        };
        Finished { engine, result }
    }
}

fn livelock(e: &Engine, max_cycles: Cycle) -> RunError {
    let running = e
        .sched
        .fibers
        .iter()
        .filter(|f| f.run.is_none())
        .map(|f| {
            let l = e.chip.logical(f.core);
            format!("`{}` on ({},{}) {}", f.kernel, l.0, l.1, f.risc)
        })
        .collect();
    RunError::Livelock { at: max_cycles, running }
}

/// The report of routers that deadlocked (a stepped NoC model), with the kernels blocked then.
fn noc_deadlock(e: &Engine) -> RunError {
    let (at, detail) = e.chip.steps.stuck.clone().expect("stuck");
    let RunError::Deadlock { blocked, .. } = deadlock(e) else { unreachable!("deadlock() builds a Deadlock") };
    RunError::NocDeadlock { at, detail, blocked }
}

fn deadlock(e: &Engine) -> RunError {
    let mut blocked = Vec::new();
    let mut at = Cycle::ZERO;
    for m in &e.sched.fibers {
        if let Some((w, since)) = m.blocked {
            at = at.max(since);
            let core = &e.chip.cores[m.core.0 as usize];
            let t = e.chip.core_tile[m.core.0 as usize];
            blocked.push(BlockedKernel {
                kernel: m.kernel.to_string(),
                core: e.chip.logical(m.core),
                noc0: (t.x, t.y),
                risc: m.risc.name().to_string(),
                waiting_for: core.describe(&w),
                since,
            });
        }
    }
    RunError::Deadlock { at, blocked }
}
