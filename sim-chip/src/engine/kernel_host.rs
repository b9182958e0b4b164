//! The engine as the kernels' [`KernelHost`]: synchronisation, core state, wake-ups, NoC issue, reporting.

use super::Engine;
use report::{DataRecord, ZoneRecord};
use sim_core::{Cycle, Cycles, FiberId, TraceArg, Track};
use sim_tensix::{AtomicReq, CoreIdx, KernelHost, NocError, ReadReq, TensixCore, Waiter, WriteReq};

impl Engine {
    /// Issue a NoC command of (`core`, `risc`) on `noc` through command buffer `buf` (read 0, write 1,
    /// atomic 2) at `now`, the NoC model brought up to `now` first. A command whose first flit has not left
    /// yet (a stepped NoC model) keeps the buffer busy until it does.
    fn noc_command(
        &mut self,
        now: Cycle,
        (core, risc, noc, buf): (CoreIdx, sim_tensix::Risc, soc_descriptors::NocId, u8),
        issue: impl FnOnce(&mut Self) -> Result<Cycle, NocError>,
    ) -> Result<Cycle, NocError> {
        self.chip.noc.set_now(now);
        if self.chip.steps.on {
            self.noc_catch_up(now);
        }
        let started = issue(self)?;
        if started == sim_tensix::CMD_PENDING {
            self.chip.cores[core.0 as usize].counters(risc, noc).cmd_pending[buf as usize] += 1;
            self.chip.steps.hold_last(buf);
        }
        Ok(started)
    }
}

impl KernelHost for Engine {
    fn moves_data(&self) -> bool {
        self.chip.move_data
    }

    fn core(&self, c: CoreIdx) -> &TensixCore {
        &self.chip.cores[c.0 as usize]
    }

    fn core_mut(&mut self, c: CoreIdx) -> &mut TensixCore {
        &mut self.chip.cores[c.0 as usize]
    }

    fn notify(&mut self, c: CoreIdx, now: Cycle, by: sim_core::OrderKey) {
        self.notify_core_by(c, now, by);
    }

    fn notify_touched(&mut self, c: CoreIdx, now: Cycle, by: sim_core::OrderKey, touched: sim_tensix::Touched) {
        self.notify_core_after(c, now, by, touched);
    }

    fn nothing_pending(&self) -> bool {
        self.sched.queue.head().is_none()
    }

    fn block(&mut self, c: CoreIdx, w: Waiter, now: Cycle) {
        self.sched.fibers[w.fiber.0 as usize].blocked = Some((w.wait, now));
        self.chip.cores[c.0 as usize].add_waiter(w);
    }

    fn noc_read(&mut self, r: ReadReq, now: Cycle) -> Result<Cycle, NocError> {
        self.noc_command(now, (r.core, r.risc, r.noc, 0), |e| e.issue_read(r, now))
    }

    fn noc_write(&mut self, w: WriteReq, now: Cycle) -> Result<Cycle, NocError> {
        self.noc_command(now, (w.core, w.risc, w.noc, 1), |e| e.issue_write(w, now))
    }

    fn noc_atomic(&mut self, a: AtomicReq, now: Cycle) -> Result<Cycle, NocError> {
        self.noc_command(now, (a.core, a.risc, a.noc, 2), |e| e.issue_atomic(a, now))
    }

    fn eth_send(&mut self, s: sim_tensix::EthSend, now: Cycle) -> Result<Cycle, sim_tensix::EthError> {
        Engine::eth_send(self, s, now)
    }

    fn eth_txq_free(&self, channel: u32) -> Cycle {
        self.chip.eth.get(channel as usize).map_or(Cycle::ZERO, |p| p.tx_free)
    }

    fn tracing(&self) -> bool {
        self.rec.trace.is_some()
    }

    fn trace_slice(
        &mut self,
        fiber: FiberId,
        name: &str,
        cat: &'static str,
        start: Cycle,
        end: Cycle,
        args: Vec<(String, TraceArg)>,
    ) {
        let m = &self.sched.fibers[fiber.0 as usize];
        let track = Track { pid: m.core.0 + 1, tid: m.risc.index() as u32 };
        if let Some(t) = &mut self.rec.trace {
            t.slice(track, name, cat, start, end, args);
        }
    }

    fn trace_instant(
        &mut self,
        fiber: FiberId,
        name: &str,
        cat: &'static str,
        at: Cycle,
        args: Vec<(String, TraceArg)>,
    ) {
        let m = &self.sched.fibers[fiber.0 as usize];
        let track = Track { pid: m.core.0 + 1, tid: m.risc.index() as u32 };
        if let Some(t) = &mut self.rec.trace {
            t.instant(track, name, cat, at, args);
        }
    }

    fn dprint(&mut self, fiber: FiberId, at: Cycle, text: String) {
        self.rec.dprints.push((at, fiber, text));
    }

    fn finished(&mut self, fiber: FiberId, start: Cycle, end: Cycle, blocked: Cycles, api_calls: u64) {
        self.sched.fibers[fiber.0 as usize].run = Some((start, end, blocked));
        self.sched.api_calls += api_calls;
    }

    fn warn(&mut self, fiber: FiberId, text: String) {
        self.warn_once(fiber, text);
    }

    fn zone(&mut self, fiber: FiberId, name: &str, start: Cycle, end: Cycle) {
        let m = &self.sched.fibers[fiber.0 as usize];
        let core = self.chip.logical(m.core);
        self.rec.zones.push(ZoneRecord {
            kernel: m.kernel.to_string(),
            core,
            risc: m.risc,
            name: name.to_string(),
            start,
            end,
        });
        if let Some(t) = &mut self.rec.trace {
            t.slice(Track { pid: m.core.0 + 1, tid: m.risc.index() as u32 }, name, "zone", start, end, Vec::new());
        }
    }

    fn timestamped_data(&mut self, fiber: FiberId, name: &str, data: u64, at: Cycle) {
        let m = &self.sched.fibers[fiber.0 as usize];
        let core = self.chip.logical(m.core);
        self.rec.timestamped_data.push(DataRecord {
            kernel: m.kernel.to_string(),
            core,
            risc: m.risc,
            name: name.to_string(),
            data,
            at,
        });
        if let Some(t) = &mut self.rec.trace {
            let track = Track { pid: m.core.0 + 1, tid: m.risc.index() as u32 };
            t.instant(track, name, "data", at, vec![("data".to_string(), TraceArg::U(data))]);
        }
    }
}
