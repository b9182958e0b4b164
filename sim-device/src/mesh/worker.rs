//! One mesh worker: the chips a host thread owns for a whole run (their kernel threads are coroutines
//! that never change host thread), and the mailbox through which the coordinator hands it work. A
//! window's hand-over is two atomic counters and a spin that falls back to yielding: blocking on a
//! futex costs a wake-up per window, which on a virtual machine is tens of microseconds — as much as a
//! window's simulation.

use crate::device::Device;
use crate::enqueue::{Launch, LaunchTail, Links};
use crate::error::DeviceError;
use crate::program::Program;
use parking_lot::{Mutex, MutexGuard};
use report::RunReport;
use sim_chip::{ChipRun, EthPacket, Pause, RunError};
use sim_core::Cycle;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// One chip's part of a window: its job index, how far it may run (`None`: to the end), and the packets
/// handed to it first.
pub(crate) type ChipWindow = (usize, Option<Cycle>, Vec<EthPacket>);

/// Work for a worker.
pub(crate) enum ToWorker {
    /// Run these chips up to their limits, after handing each its deliveries.
    Window { chips: Vec<ChipWindow> },
    /// End the run (`ok`: no chip failed or went idle with kernels blocked).
    Finish { ok: bool },
}

/// How one chip's window ended.
pub(crate) enum WindowEnd {
    /// `horizons`: per linked channel, the receiving chip and the earliest landing of a later send.
    Paused {
        pause: Pause,
        next: Option<Cycle>,
        outbox: Vec<EthPacket>,
        horizons: Vec<(u32, Cycle)>,
    },
    Failed(RunError),
}

/// A worker's answer.
pub(crate) enum FromWorker {
    Built(Vec<(usize, Result<(), DeviceError>)>),
    Ran(Vec<(usize, WindowEnd)>),
    Reports(Vec<(usize, Result<RunReport, DeviceError>)>),
}

/// One chip's part of a run.
pub(crate) struct ChipJob<'a> {
    pub device: &'a Mutex<Device>,
    pub program: &'a Program,
    /// Its Ethernet links (the other ends as (job index, channel)) and fabric routers.
    pub links: Links,
    pub chip_id: u32,
    /// Run as a what-if (`Launch::what_if`): these parameters, as this program id, not counted.
    pub what_if: Option<(std::sync::Arc<sim_params::Params>, u32)>,
}

/// A chip whose launch was built.
struct LiveChip {
    index: usize,
    runner: ChipRun,
    tail: LaunchTail,
    failed: Option<RunError>,
}

/// The chips one worker owns. The device guards live as long as the worker: the chips' memories are the
/// run's.
pub(crate) struct Chips<'a> {
    mine: Vec<usize>,
    devices: Vec<MutexGuard<'a, Device>>,
    live: Vec<Option<LiveChip>>,
}

impl<'a> Chips<'a> {
    /// Build the launches of jobs `mine`; the answer says which were rejected.
    pub fn build(jobs: &'a [ChipJob<'a>], mine: &[usize]) -> (Chips<'a>, FromWorker) {
        let mut devices: Vec<_> = mine.iter().map(|&i| jobs[i].device.lock()).collect();
        let mut live = Vec::with_capacity(mine.len());
        let mut built = Vec::with_capacity(mine.len());
        for (k, &i) in mine.iter().enumerate() {
            let dev = &mut devices[k];
            let launch = Launch::build_linked(dev, jobs[i].program, &jobs[i].links).map(|l| match &jobs[i].what_if {
                Some((params, id)) => l.what_if(params.clone(), *id),
                None => l,
            });
            match launch {
                Ok(launch) => match launch.start(dev) {
                    Ok((runner, tail)) => {
                        live.push(Some(LiveChip { index: i, runner, tail, failed: None }));
                        built.push((i, Ok(())));
                    }
                    Err(e) => {
                        live.push(None);
                        built.push((i, Err(e)));
                    }
                },
                Err(e) => {
                    live.push(None);
                    built.push((i, Err(e)));
                }
            }
        }
        (Chips { mine: mine.to_vec(), devices, live }, FromWorker::Built(built))
    }

    /// Do one piece of work.
    pub fn handle(&mut self, msg: ToWorker) -> FromWorker {
        match msg {
            ToWorker::Window { chips } => FromWorker::Ran(chips.into_iter().map(|c| self.window(c)).collect()),
            ToWorker::Finish { ok } => FromWorker::Reports(self.finish(ok)),
        }
    }

    fn window(&mut self, (i, limit, deliveries): ChipWindow) -> (usize, WindowEnd) {
        let k = self.mine.iter().position(|&m| m == i).expect("the coordinator sends a worker its own chips");
        let chip = self.live[k].as_mut().expect("only built chips run");
        let runner = &mut chip.runner;
        for p in deliveries {
            runner.deliver(p);
        }
        let r = runner.run_until(limit);
        let outbox = runner.take_outbox();
        let next = runner.next_at();
        let horizons = runner.link_horizons(Cycle::ZERO);
        let end = match r {
            Ok(pause) => WindowEnd::Paused { pause, next, outbox, horizons },
            Err(e) => {
                chip.failed = Some(e.clone());
                WindowEnd::Failed(e)
            }
        };
        (i, end)
    }

    fn finish(&mut self, ok: bool) -> Vec<(usize, Result<RunReport, DeviceError>)> {
        let mut reports = Vec::new();
        for (k, chip) in self.live.iter_mut().enumerate() {
            let Some(LiveChip { index, runner, tail, failed }) = chip.take() else { continue };
            let result = match failed {
                Some(e) => Err(e),
                None if ok => Ok(()),
                None => Err(runner.deadlock()),
            };
            reports.push((index, tail.complete(&mut self.devices[k], runner.finish(result))));
        }
        reports
    }
}

/// The coordinator's line to one worker thread. `posted` counts messages put in the inbox, `answered`
/// the replies put in the outbox; the build's answer is reply 1 to an implicit first message.
pub(crate) struct Mailbox {
    posted: AtomicU64,
    answered: AtomicU64,
    inbox: Mutex<Option<ToWorker>>,
    outbox: Mutex<Option<FromWorker>>,
}

impl Mailbox {
    pub fn new() -> Mailbox {
        Mailbox {
            posted: AtomicU64::new(1),
            answered: AtomicU64::new(0),
            inbox: Mutex::new(None),
            outbox: Mutex::new(None),
        }
    }

    /// Coordinator: hand over a message.
    pub fn post(&self, msg: ToWorker) {
        *self.inbox.lock() = Some(msg);
        self.posted.fetch_add(1, Ordering::Release);
    }

    /// Coordinator: wait for the answer to the last message (`None`: the run stopped, e.g. the worker's
    /// thread panicked).
    pub fn reply(&self, stop: &AtomicBool) -> Option<FromWorker> {
        let want = self.posted.load(Ordering::Relaxed);
        if !spin_until(|| self.answered.load(Ordering::Acquire) >= want, stop) {
            return None;
        }
        self.outbox.lock().take()
    }

    /// Worker: answer the current message and wait for the next one (`None`: the run stopped).
    pub fn answer_and_wait(&self, reply: FromWorker, stop: &AtomicBool) -> Option<ToWorker> {
        *self.outbox.lock() = Some(reply);
        let done = self.answered.fetch_add(1, Ordering::Release) + 1;
        if !spin_until(|| self.posted.load(Ordering::Acquire) > done, stop) {
            return None;
        }
        self.inbox.lock().take()
    }
}

/// Wait until `ready`, spinning briefly and then yielding the core; false when `stop` is raised first.
fn spin_until(ready: impl Fn() -> bool, stop: &AtomicBool) -> bool {
    let mut spins = 0u32;
    loop {
        if ready() {
            return true;
        }
        if stop.load(Ordering::Relaxed) {
            return ready();
        }
        if spins < 1 << 10 {
            std::hint::spin_loop();
            spins += 1;
        } else {
            std::thread::yield_now();
        }
    }
}

/// A worker thread's life: build its chips, then do what the mailbox says until the run ends.
pub(crate) fn serve<'a>(jobs: &'a [ChipJob<'a>], mine: &[usize], mb: &Mailbox, stop: &AtomicBool) {
    let (mut chips, mut reply) = Chips::build(jobs, mine);
    while let Some(msg) = mb.answer_and_wait(reply, stop) {
        let last = matches!(msg, ToWorker::Finish { .. });
        reply = chips.handle(msg);
        if last {
            *mb.outbox.lock() = Some(reply);
            mb.answered.fetch_add(1, Ordering::Release);
            return;
        }
    }
}
