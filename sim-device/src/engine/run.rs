//! The scheduler loop: pop `(cycle, order)`-keyed entries, resume kernel threads or let hardware events
//! change the chip, until every kernel has finished — or report a deadlock (everyone blocked, nothing in
//! flight, with who waits on what), a failed kernel, or a run past the watchdog.

use super::{Engine, Ev};
use crate::error::{BlockedKernel, DeviceError};
use crate::report::RunReport;
use sim_core::{Cycle, Fiber, FiberId, Step, Suspend};
use sim_noc::Dram;
use sim_tensix::TensixCore;
use std::cell::RefCell;
use std::rc::Rc;

/// Everything a finished run hands back: the memories (whatever happened) and the report or the error.
pub(crate) struct RunOutcome {
    pub cores: Vec<TensixCore>,
    pub dram: Dram,
    pub result: Result<RunReport, DeviceError>,
}

/// Run every kernel thread to completion; `max_cycles` is the watchdog.
pub(crate) fn run(
    engine: Rc<RefCell<Engine>>,
    mut fibers: Vec<Fiber>,
    starts: &[Cycle],
    max_cycles: Cycle,
    program_id: u32,
    clock_mhz: u32,
    mut progress: Option<&mut super::Progress>,
) -> RunOutcome {
    {
        let mut e = engine.borrow_mut();
        for i in 0..fibers.len() as u32 {
            e.sched.queue.push_fiber(starts[i as usize], i, Ev::Resume(FiberId(i)));
        }
    }
    let mut alive = fibers.len();
    let mut steps = 0u32;
    // The next entry when the last step already took it from the queue.
    let mut taken = None;
    let result = loop {
        steps = steps.wrapping_add(1);
        let next = match taken.take() {
            Some(t) => Some(t),
            None => engine.borrow_mut().sched.queue.pop(),
        };
        if steps.is_multiple_of(1 << 16)
            && let (Some(p), Some((k, _))) = (progress.as_mut(), next.as_ref())
        {
            p(k.at);
        }
        let Some((key, ev)) = next else {
            if alive == 0 {
                break Ok(());
            }
            break Err(deadlock(&engine.borrow()));
        };
        if key.at > max_cycles {
            break Err(livelock(&engine.borrow(), max_cycles));
        }
        match ev {
            Ev::Resume(f) => {
                {
                    let mut e = engine.borrow_mut();
                    e.sched.resumes += 1;
                    e.sched.fibers[f.0 as usize].blocked = None;
                }
                match fibers[f.0 as usize].resume(key.at) {
                    Step::Suspended(Suspend::Until(t)) => {
                        taken = Some(engine.borrow_mut().sched.queue.push_fiber_pop(t, f.0, Ev::Resume(f)))
                    }
                    Step::Suspended(Suspend::Blocked) => {}
                    Step::Finished => alive -= 1,
                    Step::Failed(fail) => {
                        let e = engine.borrow();
                        let m = &e.sched.fibers[f.0 as usize];
                        let message = match fail.location {
                            Some(loc) if !fail.aborted => format!("{} (at {loc})", fail.message),
                            _ => fail.message,
                        };
                        break Err(DeviceError::Kernel {
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
            ev => {
                let mut e = engine.borrow_mut();
                e.sched.last_event = e.sched.last_event.max(key.at);
                e.handle(key.at, ev);
            }
        }
    };
    // A kernel that ran past the watchdog without ever waiting (a huge `delay`) ends past it too.
    let result = result.and_then(|()| {
        let e = engine.borrow();
        match e.sched.fibers.iter().find(|f| f.run.is_some_and(|(_, end, _)| end > max_cycles)) {
            Some(f) => {
                let l = e.chip.logical(f.core);
                Err(DeviceError::Livelock {
                    at: max_cycles,
                    running: vec![format!("`{}` on ({},{}) {}", f.kernel, l.0, l.1, f.risc)],
                })
            }
            None => Ok(()),
        }
    });
    // Unwind every thread still suspended before the engine state goes away.
    drop(fibers);
    let engine = match Rc::try_unwrap(engine) {
        Ok(cell) => cell.into_inner(),
        Err(_) => unreachable!("kernel threads hold the engine only while they run"),
    };
    let result = result.map(|()| crate::report::build::report(&engine, program_id, clock_mhz));
    RunOutcome { cores: engine.chip.cores, dram: engine.chip.dram, result }
}

fn livelock(e: &Engine, max_cycles: Cycle) -> DeviceError {
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
    DeviceError::Livelock { at: max_cycles, running }
}

fn deadlock(e: &Engine) -> DeviceError {
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
    DeviceError::Deadlock { at, blocked }
}
