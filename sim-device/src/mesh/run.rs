//! Running the chips of a mesh together. Each chip's simulation lives on a thread of its own for the whole
//! run (its kernel threads are coroutines that never change host thread); a coordinator moves the chips
//! forward in conservative time windows. A window starts at the earliest pending event of any chip and
//! lasts one Ethernet link latency: nothing a chip does inside it can reach another chip before it ends.
//! After each window the packets the chips sent each other are handed to their receivers, in chip order
//! and sending order, before the next window starts. At most `workers` chips simulate at once; which ones
//! and in what host order does not matter — every chip sees the same inputs at the same window
//! boundaries, so results are bit-identical for any number of workers.
//!
//! A run without Ethernet traffic is one window of unbounded length: the chips run independently.

use crate::device::Device;
use crate::engine::{EthPacket, EthTiming, Pause};
use crate::error::DeviceError;
use crate::launch::{Launch, Links};
use crate::program::Program;
use crate::report::RunReport;
use parking_lot::{Condvar, Mutex};
use sim_core::Cycle;
use std::sync::mpsc;

/// One chip's part of a run.
pub(crate) struct ChipJob<'a> {
    pub device: &'a Mutex<Device>,
    pub program: &'a Program,
    /// Its Ethernet links (the other ends as (job index, channel)) and fabric routers.
    pub links: Links,
    pub chip_id: u32,
}

enum ToChip {
    Window { limit: Option<Cycle>, deliveries: Vec<EthPacket> },
    Finish { ok: bool },
}

enum FromChip {
    Built(Result<(), DeviceError>),
    Paused { pause: Pause, next: Option<Cycle>, outbox: Vec<EthPacket> },
    Failed(DeviceError),
    Report(Box<Result<RunReport, DeviceError>>),
}

/// A counting semaphore: how many chips may simulate at once.
struct Tokens {
    free: Mutex<usize>,
    cv: Condvar,
}

impl Tokens {
    /// Wait for a token; it goes back when the guard drops (also when the chip's thread unwinds).
    fn take(&self) -> TokenGuard<'_> {
        let mut n = self.free.lock();
        while *n == 0 {
            self.cv.wait(&mut n);
        }
        *n -= 1;
        TokenGuard(self)
    }
}

struct TokenGuard<'a>(&'a Tokens);

impl Drop for TokenGuard<'_> {
    fn drop(&mut self) {
        *self.0.free.lock() += 1;
        self.0.cv.notify_one();
    }
}

fn chip_thread(job: &ChipJob<'_>, tokens: &Tokens, rx: mpsc::Receiver<ToChip>, tx: mpsc::Sender<FromChip>) {
    let mut dev = job.device.lock();
    let launch = match Launch::build_linked(&mut dev, job.program, &job.links) {
        Ok(l) => l,
        Err(e) => {
            let _ = tx.send(FromChip::Built(Err(e)));
            return;
        }
    };
    let clock = dev.params.clock_mhz;
    let (mut runner, tail) = launch.into_runner(&dev);
    let _ = tx.send(FromChip::Built(Ok(())));
    let mut failed = None;
    while let Ok(msg) = rx.recv() {
        match msg {
            ToChip::Window { limit, deliveries } => {
                let token = tokens.take();
                {
                    let mut e = runner.engine().borrow_mut();
                    for p in deliveries {
                        e.deliver(p);
                    }
                }
                let r = runner.run_until(limit, None);
                let outbox = runner.engine().borrow_mut().take_outbox();
                let next = runner.next_at();
                drop(token);
                let reply = match r {
                    Ok(pause) => FromChip::Paused { pause, next, outbox },
                    Err(e) => {
                        failed = Some(e.clone());
                        FromChip::Failed(e)
                    }
                };
                if tx.send(reply).is_err() {
                    break;
                }
            }
            ToChip::Finish { ok } => {
                let result = match failed.take() {
                    Some(e) => Err(e),
                    None if ok => Ok(()),
                    None => Err(runner.deadlock()),
                };
                let outcome = runner.finish(result, tail.program_id, clock);
                let report = tail.complete(&mut dev, outcome);
                let _ = tx.send(FromChip::Report(Box::new(report)));
                return;
            }
        }
    }
}

/// Run every job to completion; `window` is the conservative window length (`None`: no traffic between
/// chips is possible, so the chips run independently). Reports come back in job order.
pub(crate) fn run_chips(
    jobs: &[ChipJob<'_>],
    window: Option<sim_core::Cycles>,
    workers: usize,
) -> Result<Vec<RunReport>, DeviceError> {
    let workers = if workers == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { workers };
    let tokens = Tokens { free: Mutex::new(workers.max(1)), cv: Condvar::new() };
    let n = jobs.len();
    std::thread::scope(|s| {
        let mut to = Vec::with_capacity(n);
        let mut from = Vec::with_capacity(n);
        for job in jobs {
            let (tx_to, rx_to) = mpsc::channel();
            let (tx_from, rx_from) = mpsc::channel();
            let tokens = &tokens;
            std::thread::Builder::new()
                .name(format!("tensim chip {}", job.chip_id))
                .stack_size(1 << 20)
                .spawn_scoped(s, move || {
                    // A panic inside one chip's simulation is printed by the panic hook; catching it here
                    // drops this thread's sender, so the coordinator reports it instead of waiting.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        chip_thread(job, tokens, rx_to, tx_from)
                    }));
                })
                .map_err(|e| {
                    DeviceError::Config(format!("cannot start a host thread for chip {}: {e}", job.chip_id))
                })?;
            to.push(tx_to);
            from.push(rx_from);
        }
        let stopped = |i: usize| {
            DeviceError::OnChips(vec![(
                jobs[i].chip_id,
                DeviceError::Config(
                    "internal error: the simulation of this chip stopped (the message above says why); \
                     please report it with the command that caused it"
                        .into(),
                ),
            )])
        };
        let recv = |i: usize| from[i].recv().map_err(|_| stopped(i));
        // Every chip builds its launch first; a rejected program stops the run before anything runs.
        let mut errors = Vec::new();
        for (i, job) in jobs.iter().enumerate() {
            if let FromChip::Built(Err(e)) = recv(i)? {
                errors.push((job.chip_id, e));
            }
        }
        if !errors.is_empty() {
            // Threads whose launch was built finish (and give their memories back) with an error.
            for (i, t) in to.iter().enumerate() {
                if t.send(ToChip::Finish { ok: false }).is_ok() {
                    let _ = from[i].recv();
                }
            }
            return Err(one_or_many(errors));
        }
        let mut next: Vec<Option<Cycle>> = vec![Some(Cycle::ZERO); n];
        let mut pending: Vec<Vec<EthPacket>> = vec![Vec::new(); n];
        let mut idle = vec![false; n];
        let mut failures = Vec::new();
        loop {
            let due: Vec<Option<Cycle>> = (0..n)
                .map(|i| {
                    let p = pending[i].iter().map(|p| p.arrive).min();
                    match (next[i], p) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    }
                })
                .collect();
            let Some(start) = due.iter().flatten().min().copied() else { break };
            let limit = window.map(|w| start + w);
            let mut ran = Vec::new();
            for i in 0..n {
                let d = due[i];
                if d.is_some_and(|d| limit.is_none_or(|l| d < l)) {
                    let deliveries = std::mem::take(&mut pending[i]);
                    to[i].send(ToChip::Window { limit, deliveries }).map_err(|_| stopped(i))?;
                    ran.push(i);
                }
            }
            for &i in &ran {
                match recv(i)? {
                    FromChip::Paused { pause, next: nx, outbox } => {
                        next[i] = nx;
                        idle[i] = pause == Pause::Idle;
                        for p in outbox {
                            pending[p.to_dev as usize].push(p);
                        }
                    }
                    FromChip::Failed(e) => {
                        failures.push((jobs[i].chip_id, e));
                        next[i] = None;
                    }
                    _ => unreachable!("a window is answered with Paused or Failed"),
                }
            }
            if !failures.is_empty() {
                break;
            }
        }
        let ok = failures.is_empty() && !idle.iter().any(|&b| b);
        let mut reports = Vec::with_capacity(n);
        let mut errors = failures;
        let failed_chips: Vec<u32> = errors.iter().map(|e| e.0).collect();
        for (i, t) in to.iter().enumerate() {
            t.send(ToChip::Finish { ok }).map_err(|_| stopped(i))?;
            match recv(i)? {
                FromChip::Report(r) => match *r {
                    Ok(r) => reports.push(r),
                    Err(e) => {
                        if !failed_chips.contains(&jobs[i].chip_id) && (ok || idle[i]) {
                            errors.push((jobs[i].chip_id, e));
                        }
                    }
                },
                _ => unreachable!("Finish is answered with a report"),
            }
        }
        if errors.is_empty() { Ok(reports) } else { Err(one_or_many(errors)) }
    })
}

fn one_or_many(mut errors: Vec<(u32, DeviceError)>) -> DeviceError {
    errors.sort_by_key(|e| e.0);
    DeviceError::OnChips(errors)
}

/// The window length of a run on chips with these link parameters: one link latency.
pub(crate) fn window_of(dev: &Device) -> sim_core::Cycles {
    EthTiming::new(dev.params.eth.clone(), dev.params.clock_mhz).latency
}
