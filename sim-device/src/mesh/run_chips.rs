//! Running the chips of a mesh together. The chips are dealt out to `workers` host threads (runs of
//! neighbouring chips to each worker, worker 0 being the calling thread, which also coordinates); each
//! worker owns its chips' simulations for the whole run (see `worker.rs`). The coordinator moves the
//! chips forward in conservative time windows: each chip runs up to the earliest time anything another
//! chip sends can land on it — at least one Ethernet link latency after the earliest pending event of
//! the run. After each window the packets the chips sent each other are handed to their receivers before
//! the next window starts. A packet's place among the events of its landing cycle does not depend on
//! when it was handed over (see `sim_core::queue`), and which worker runs a chip, and in what host order,
//! does not matter: results are bit-identical for any number of workers and any window lengths.
//!
//! A run without Ethernet traffic is one window of unbounded length: the chips run independently.

use super::worker::{ChipJob, ChipWindow, Chips, FromWorker, Mailbox, ToWorker, WindowEnd, serve};
use crate::device::Device;
use crate::error::DeviceError;
use report::RunReport;
use sim_chip::{EthPacket, Pause};
use sim_core::Cycle;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};

/// Raises `stop` when the coordinator leaves, however it leaves: waiting workers then end.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The coordinator's view of the workers: worker 0's chips in hand, the others through mailboxes.
struct Crew<'a, 's> {
    local: Chips<'a>,
    mailboxes: &'s [Mailbox],
    stop: &'s AtomicBool,
}

impl Crew<'_, '_> {
    /// Send each worker its message (worker 0 handles its own at once) and collect the answers in worker
    /// order. An error names the chips of a worker whose thread stopped.
    fn round(&mut self, msgs: Vec<Option<ToWorker>>) -> Result<Vec<FromWorker>, usize> {
        let mut msgs = msgs.into_iter();
        let own = msgs.next().flatten();
        let asked: Vec<bool> = msgs.zip(self.mailboxes).map(|(m, mb)| m.map(|m| mb.post(m)).is_some()).collect();
        let mut out = Vec::new();
        if let Some(m) = own {
            let local = &mut self.local;
            match catch_unwind(AssertUnwindSafe(|| local.handle(m))) {
                Ok(r) => out.push(r),
                Err(_) => {
                    self.stop.store(true, Ordering::Relaxed);
                    return Err(0);
                }
            }
        }
        for (w, mb) in self.mailboxes.iter().enumerate() {
            if asked[w] {
                out.push(mb.reply(self.stop).ok_or(w + 1)?);
            }
        }
        Ok(out)
    }
}

/// Run every job to completion; `window` is the link latency (`None`: no traffic between chips is
/// possible, so the chips run independently); `lookahead` lets a chip run past one latency when its
/// links' backlog allows. Reports come back in job order.
pub(crate) fn run_chips(
    jobs: &[ChipJob<'_>],
    window: Option<sim_core::Cycles>,
    workers: usize,
    lookahead: bool,
) -> Result<Vec<RunReport>, DeviceError> {
    // 0: the processors idle now (a busy host gets fewer workers: each runs a spin-then-yield mailbox).
    let workers = if workers == 0 { sim_core::host_threads::spare_cores() } else { workers };
    let n = jobs.len();
    let workers = workers.clamp(1, n.max(1));
    // Runs of neighbouring chips to each worker (on a line or ring most packets stay on one worker).
    let owner = |i: usize| i * workers / n;
    let owned: Vec<Vec<usize>> = (0..workers).map(|w| (0..n).filter(|&i| owner(i) == w).collect()).collect();
    let stop = AtomicBool::new(false);
    let mailboxes: Vec<Mailbox> = (1..workers).map(|_| Mailbox::new()).collect();
    std::thread::scope(|s| {
        let _stop_on_exit = StopOnDrop(&stop);
        for (w, mine) in owned.iter().enumerate().skip(1) {
            let (mb, stop) = (&mailboxes[w - 1], &stop);
            std::thread::Builder::new()
                .name(format!("tensim mesh worker {w}"))
                .stack_size(1 << 20)
                .spawn_scoped(s, move || {
                    // A panic inside a chip's simulation is printed by the panic hook; raising `stop`
                    // lets the coordinator report it instead of waiting.
                    if catch_unwind(AssertUnwindSafe(|| serve(jobs, mine, mb, stop))).is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                })
                .map_err(|e| DeviceError::Config(format!("cannot start host thread {w} for the mesh: {e}")))?;
        }
        let stopped = |w: usize| {
            let chips = owned[w].iter().map(|&i| (jobs[i].chip_id, internal_stop())).collect();
            DeviceError::OnChips(chips)
        };
        let (local, built) =
            catch_unwind(AssertUnwindSafe(|| Chips::build(jobs, &owned[0]))).map_err(|_| stopped(0))?;
        let mut crew = Crew { local, mailboxes: &mailboxes, stop: &stop };
        // Every chip builds its launch first; a rejected program stops the run before anything runs.
        let mut answers = vec![built];
        for (w, mb) in mailboxes.iter().enumerate() {
            answers.push(mb.reply(&stop).ok_or_else(|| stopped(w + 1))?);
        }
        let mut errors = Vec::new();
        for a in answers {
            if let FromWorker::Built(b) = a {
                errors.extend(b.into_iter().filter_map(|(i, r)| r.err().map(|e| (jobs[i].chip_id, e))));
            }
        }
        if !errors.is_empty() {
            // Workers finish their built chips (and give their memories back) with an error.
            let _ = crew.round((0..workers).map(|_| Some(ToWorker::Finish { ok: false })).collect());
            return Err(one_or_many(errors));
        }
        let mut next: Vec<Option<Cycle>> = vec![Some(Cycle::ZERO); n];
        let mut pending: Vec<Vec<EthPacket>> = vec![Vec::new(); n];
        let mut idle = vec![false; n];
        // Per chip, its links' horizons from its last window (`None` before its first: then it may
        // reach every chip one window after its next event).
        let mut horizons: Vec<Option<Vec<(u32, Cycle)>>> = vec![None; n];
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
            if due.iter().all(Option::is_none) {
                break;
            }
            let limits = window.map(|w| limits(&due, &horizons, w));
            let mut batches: Vec<Vec<ChipWindow>> = vec![Vec::new(); workers];
            for i in 0..n {
                let limit = limits.as_ref().and_then(|l| l[i]);
                if due[i].is_some_and(|d| limit.is_none_or(|l| d < l)) {
                    batches[owner(i)].push((i, limit, std::mem::take(&mut pending[i])));
                }
            }
            let msgs = batches.into_iter().map(|c| (!c.is_empty()).then_some(ToWorker::Window { chips: c })).collect();
            // Outboxes are handed on in chip order whatever order the workers answer in.
            let mut ends: Vec<(usize, WindowEnd)> = Vec::new();
            for a in crew.round(msgs).map_err(stopped)? {
                match a {
                    FromWorker::Ran(r) => ends.extend(r),
                    _ => unreachable!("a window is answered with Ran"),
                }
            }
            ends.sort_by_key(|e| e.0);
            for (i, end) in ends {
                match end {
                    WindowEnd::Paused { pause, next: nx, outbox, horizons: h } => {
                        next[i] = nx;
                        idle[i] = pause == Pause::Idle;
                        if lookahead {
                            horizons[i] = Some(h);
                        }
                        for p in outbox {
                            pending[p.to_dev as usize].push(p);
                        }
                    }
                    WindowEnd::Failed(e) => {
                        failures.push((jobs[i].chip_id, DeviceError::Run(e)));
                        next[i] = None;
                    }
                }
            }
            if !failures.is_empty() {
                break;
            }
        }
        let ok = failures.is_empty() && !idle.iter().any(|&b| b);
        let mut reports: Vec<Option<RunReport>> = (0..n).map(|_| None).collect();
        let mut errors = failures;
        let failed_chips: Vec<u32> = errors.iter().map(|e| e.0).collect();
        let answers = crew.round((0..workers).map(|_| Some(ToWorker::Finish { ok })).collect()).map_err(stopped)?;
        for a in answers {
            let FromWorker::Reports(rs) = a else { unreachable!("Finish is answered with reports") };
            for (i, r) in rs {
                match r {
                    Ok(r) => reports[i] = Some(r),
                    Err(e) => {
                        if !failed_chips.contains(&jobs[i].chip_id) && (ok || idle[i]) {
                            errors.push((jobs[i].chip_id, e));
                        }
                    }
                }
            }
        }
        if errors.is_empty() {
            Ok(reports.into_iter().map(|r| r.expect("every chip reports when none failed")).collect())
        } else {
            Err(one_or_many(errors))
        }
    })
}

/// Each chip's limit for the next window: the earliest time a packet from any chip can land on it.
/// A chip is next active at its next event or at the first landing on it, whichever is sooner; nothing
/// it sends on a channel lands before `max(active + window, horizon)`, where `window` is the link
/// latency and `horizon` the channel's bound from the sender's last window (it counts the transmit
/// side's backlog). Since a landing can make a chip active earlier, the bounds are taken to their
/// fixpoint (every link adds at least `window`, so this is a shortest-path relaxation). A chip no chip
/// can reach has no limit. Chips that have not reported their links yet may reach every chip.
fn limits(
    due: &[Option<Cycle>],
    horizons: &[Option<Vec<(u32, Cycle)>>],
    window: sim_core::Cycles,
) -> Vec<Option<Cycle>> {
    let n = due.len();
    let min = |a: Option<Cycle>, b: Option<Cycle>| match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let mut landing: Vec<Option<Cycle>> = vec![None; n];
    // At most n rounds: a bound that improves in round r came over a path of r links.
    for _ in 0..=n {
        let mut changed = false;
        let mut next: Vec<Option<Cycle>> = vec![None; n];
        for j in 0..n {
            let Some(active) = min(due[j], landing[j]) else { continue };
            let soonest = active + window;
            let mut lower = |i: usize, t: Cycle| next[i] = min(next[i], Some(t));
            match &horizons[j] {
                None => (0..n).for_each(|i| lower(i, soonest)),
                Some(h) => h.iter().for_each(|&(i, t)| lower(i as usize, t.max(soonest))),
            }
        }
        for i in 0..n {
            if next[i] != landing[i] {
                changed = true;
            }
        }
        landing = next;
        if !changed {
            break;
        }
    }
    landing
}

fn internal_stop() -> DeviceError {
    DeviceError::Config(
        "internal error: the simulation of this chip stopped (the message above says why); \
         please report it with the command that caused it"
            .into(),
    )
}

fn one_or_many(mut errors: Vec<(u32, DeviceError)>) -> DeviceError {
    errors.sort_by_key(|e| e.0);
    DeviceError::OnChips(errors)
}

/// The window length of a run on chips with these link parameters: one link latency.
pub(crate) fn window_of(dev: &Device) -> sim_core::Cycles {
    sim_chip::eth_latency(&dev.params)
}
