//! Runs on a NoC model that times packets as it steps (`noc.model=router`): the engine sends each packet
//! with a token naming what to do as it moves ([`Then`]), steps the model through time in order — before
//! every event and every kernel NoC call, and at wake-ups the model asks for — and turns what happened
//! into the run's usual events (a write departing, landing, its acknowledgement arriving …). A command
//! whose first flit could not leave at once keeps its command buffer busy until it does
//! ([`sim_tensix::CMD_PENDING`]).

use super::noc_tokens::Then;
use super::packets::Mem;
use super::{ChipState, Engine, Ev};
use sim_core::Cycle;
use sim_noc::{Happened, RouterEvent};

impl ChipState {
    /// The stepped model (only when `steps.on`).
    pub(super) fn routers(&mut self) -> &mut dyn sim_noc::SteppedNoc {
        self.noc.stepped().expect("a stepped NoC model")
    }
}

impl Engine {
    /// Step the NoC model through every cycle before `now` and act on what happened.
    pub(crate) fn noc_catch_up(&mut self, now: Cycle) {
        let mut evs = std::mem::take(&mut self.chip.steps.events);
        self.chip.routers().advance(now, &mut evs);
        for e in evs.drain(..) {
            self.noc_event(e, now);
        }
        self.chip.steps.events = evs;
        if self.chip.steps.stuck.is_none()
            && let Some(where_) = self.chip.routers().stuck()
        {
            self.chip.steps.stuck = Some((now, where_));
        }
        self.noc_wake_later(now);
    }

    /// A wake-up for the cycle after the model's next activity, unless one comes by then.
    fn noc_wake_later(&mut self, now: Cycle) {
        let Some(t) = self.chip.routers().next_activity() else { return };
        let w = (t + sim_core::Cycles(1)).max(now);
        let s = &mut self.chip.steps;
        if s.wake.is_some_and(|x| x <= w && x >= now) {
            return;
        }
        s.wake = Some(w);
        self.sched.queue.push(w, Ev::NocWake);
    }

    /// A wake-up was handled at `at`.
    pub(crate) fn noc_woken(&mut self, at: Cycle) {
        if self.chip.steps.wake == Some(at) {
            self.chip.steps.wake = None;
        }
        self.noc_wake_later(at);
    }

    /// After sending: make sure the model is stepped when the packet can move.
    pub(crate) fn noc_sent(&mut self, now: Cycle) {
        self.noc_wake_later(now);
    }

    fn noc_event(&mut self, e: RouterEvent, now: Cycle) {
        let i = e.token as usize;
        let mut p = self.chip.steps.pending[i];
        let at = e.at.max(now);
        match (e.what, p.then) {
            (Happened::Started, _) => {
                if let Some(buf) = p.holds {
                    let (core, risc, noc) = {
                        let id = match p.then {
                            Then::ReadRequest(x) | Then::Write(x) | Then::Atomic(x) => x,
                            _ => unreachable!("only commands hold a command buffer"),
                        };
                        let x = &self.chip.xfers[id as usize];
                        (x.core, x.risc, x.noc)
                    };
                    self.chip.cores[core.0 as usize].counters(risc, noc).cmd_pending[buf as usize] -= 1;
                    self.notify_core(core, at);
                }
            }
            (Happened::FirstByte(_), _) => p.first = p.first.min(e.at),
            (Happened::Departed, Then::Write(x)) => self.sched.queue.push(at, Ev::WriteDepart(x)),
            (Happened::Departed, _) => {}
            (Happened::Arrived(d), then) => self.noc_arrived(then, d, at.max(p.booked), p.first),
        }
        p.left -= 1;
        self.chip.steps.pending[i] = p;
        if p.left == 0 {
            self.chip.steps.free.push(i as u32);
        }
    }

    fn noc_arrived(&mut self, then: Then, dest: u16, at: Cycle, first: Cycle) {
        let c = &mut self.chip;
        match then {
            Then::ReadRequest(x) => {
                let (src, size) = (c.xfers[x as usize].dest.0, c.xfers[x as usize].size);
                // `at`: the request is in and its booked service slot has come.
                let start = at;
                let ready = match src {
                    Mem::L1 { .. } => start + c.noc_params.l1_read_latency,
                    Mem::Dram { channel, addr } => {
                        let stream = c.noc.serialisation(size);
                        c.dram_timing.read(channel as usize, addr, size, start, stream)
                    }
                };
                self.sched.queue.push(ready, Ev::ReadRespond(x));
            }
            Then::ReadResponse(x) => {
                let land = at + c.noc_params.l1_write_latency;
                let record = c.xfers[x as usize].record();
                self.rec.arrival(record, first.min(at), land);
                self.sched.queue.push(land, Ev::ReadLand(x));
            }
            Then::Write(x) => {
                let mem =
                    if dest == 0 { c.xfers[x as usize].dest.0 } else { c.xfer_more[x as usize][dest as usize - 1].0 };
                let land = if mem.is_dram() { at } else { at + c.noc_params.l1_write_latency };
                let record = c.xfers[x as usize].record();
                self.rec.arrival(record, first.min(at), land);
                self.sched.queue.push(land, Ev::WriteLand(x, dest));
            }
            Then::WriteAck(x) => self.sched.queue.push(at, Ev::WriteAck(x)),
            Then::Atomic(x) => {
                let land = at + c.noc_params.l1_write_latency;
                let record = c.xfers[x as usize].record();
                self.rec.arrival(record, first.min(at), land);
                self.sched.queue.push(land, Ev::AtomicLand(x, dest));
            }
            Then::AtomicAck(x) => self.sched.queue.push(at, Ev::AtomicAck(x)),
        }
    }
}
