//! One Tensix core's shared state during a run: L1, circular buffers, the NoC transaction counters of each
//! RISC, and the kernels waiting on any of it. A waiter is woken when its condition becomes true.

use crate::hw::cb::CircularBuffer;
use crate::hw::l1::L1;
use crate::hw::risc::Risc;
use sim_core::{Cycle, Cycles, FiberId, OrderKey};
use soc_descriptors::NocId;
use std::fmt;

/// NoC transaction counters of one RISC on one NoC (what the NIU status registers count).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NocCounters {
    /// Read packets issued.
    pub reads_issued: u32,
    /// Read packets whose data has landed in L1.
    pub reads_done: u32,
    /// Non-posted write packets issued.
    pub nonposted_issued: u32,
    /// Acks received for non-posted writes (one per destination).
    pub nonposted_acked: u32,
    /// Non-posted write packets every acknowledgement of which has arrived (a multicast packet counts
    /// once, when its last destination's ack is back).
    pub nonposted_done: u32,
    /// Non-posted write packets that have left the core (source may be reused).
    pub nonposted_departed: u32,
    /// Posted write packets issued.
    pub posted_issued: u32,
    /// Posted write packets that have left the core.
    pub posted_departed: u32,
    /// Atomic operations issued.
    pub atomics_issued: u32,
    /// Atomic operations acknowledged.
    pub atomics_acked: u32,
    /// Acks expected for non-posted writes (multicast counts each destination).
    pub nonposted_acks_expected: u32,
    /// Per transaction id: read packets not yet landed, write acks not yet received, and write packets
    /// (posted or not) not yet sent (what the NIU's per-id counters count).
    pub trid_reads: [u32; 16],
    /// See [`NocCounters::trid_reads`].
    pub trid_acks: [u32; 16],
    /// See [`NocCounters::trid_reads`].
    pub trid_unsent: [u32; 16],
    /// Per command buffer (read, write, atomic): commands handed to the NIU whose first flit has not left
    /// yet (only a NoC model that times packets as they move leaves any; see
    /// [`crate::kernel_host::CMD_PENDING`]).
    pub cmd_pending: [u32; 3],
}

/// Which NoC barrier a kernel waits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Barrier {
    /// `noc_async_read_barrier`.
    Reads,
    /// `noc_async_write_barrier`.
    Writes,
    /// `noc_async_writes_flushed`.
    WritesFlushed,
    /// `noc_async_posted_writes_flushed`.
    PostedWritesFlushed,
    /// `noc_async_atomic_barrier`.
    Atomics,
    /// `noc_async_full_barrier`.
    Full,
    /// `noc_async_read_barrier_with_trid`.
    ReadsWithTrid(u8),
    /// `noc_async_write_barrier_with_trid`.
    WritesWithTrid(u8),
    /// `noc_async_write_flushed_with_trid`.
    WritesFlushedWithTrid(u8),
}

impl Barrier {
    /// The API call's name.
    pub fn api_name(self) -> &'static str {
        match self {
            Barrier::Reads => "noc_async_read_barrier",
            Barrier::Writes => "noc_async_write_barrier",
            Barrier::WritesFlushed => "noc_async_writes_flushed",
            Barrier::PostedWritesFlushed => "noc_async_posted_writes_flushed",
            Barrier::Atomics => "noc_async_atomic_barrier",
            Barrier::Full => "noc_async_full_barrier",
            Barrier::ReadsWithTrid(_) => "noc_async_read_barrier_with_trid",
            Barrier::WritesWithTrid(_) => "noc_async_write_barrier_with_trid",
            Barrier::WritesFlushedWithTrid(_) => "noc_async_write_flushed_with_trid",
        }
    }
}

impl NocCounters {
    /// Whether `b` would return now.
    pub fn satisfied(&self, b: Barrier) -> bool {
        let reads = self.reads_done == self.reads_issued;
        let writes = self.nonposted_acked == self.nonposted_acks_expected;
        let flushed = self.nonposted_departed == self.nonposted_issued;
        let posted = self.posted_departed == self.posted_issued;
        let atomics = self.atomics_acked == self.atomics_issued;
        match b {
            Barrier::Reads => reads,
            Barrier::Writes => writes,
            Barrier::WritesFlushed => flushed,
            Barrier::PostedWritesFlushed => posted,
            Barrier::Atomics => atomics,
            Barrier::Full => reads && writes && flushed && posted && atomics,
            Barrier::ReadsWithTrid(t) => self.trid_reads[t as usize] == 0,
            Barrier::WritesWithTrid(t) => self.trid_acks[t as usize] == 0,
            Barrier::WritesFlushedWithTrid(t) => self.trid_unsent[t as usize] == 0,
        }
    }

    /// Read packets (`reads`) or non-posted write packets still in flight: the requests the NIU's
    /// outstanding counters count (dm-tests.md §15: incremented per packet on issue), a multicast once
    /// however many destinations acknowledge it.
    pub fn in_flight(&self, reads: bool) -> u32 {
        if reads { self.reads_issued - self.reads_done } else { self.nonposted_issued - self.nonposted_done }
    }

    /// What is still outstanding for `b`, for diagnostics.
    pub fn outstanding(&self, b: Barrier) -> String {
        let r = self.reads_issued - self.reads_done;
        let w = self.nonposted_acks_expected - self.nonposted_acked;
        let f = self.nonposted_issued - self.nonposted_departed;
        let p = self.posted_issued - self.posted_departed;
        let a = self.atomics_issued - self.atomics_acked;
        match b {
            Barrier::Reads => format!("{r} of {} read packets outstanding", self.reads_issued),
            Barrier::Writes => format!("{w} of {} write acks outstanding", self.nonposted_acks_expected),
            Barrier::WritesFlushed => format!("{f} of {} write packets not yet sent", self.nonposted_issued),
            Barrier::PostedWritesFlushed => format!("{p} of {} posted write packets not yet sent", self.posted_issued),
            Barrier::Atomics => format!("{a} of {} atomics outstanding", self.atomics_issued),
            Barrier::Full => format!(
                "{r} reads, {w} write acks, {f} unsent writes, {p} unsent posted writes, {a} atomics outstanding"
            ),
            Barrier::ReadsWithTrid(t) => {
                format!("{} read packets with id {t} outstanding", self.trid_reads[t as usize])
            }
            Barrier::WritesWithTrid(t) => format!("{} write acks with id {t} outstanding", self.trid_acks[t as usize]),
            Barrier::WritesFlushedWithTrid(t) => {
                format!("{} write packets with id {t} not yet sent", self.trid_unsent[t as usize])
            }
        }
    }
}

/// A condition on an L1 word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordCond {
    /// `== v` (`noc_semaphore_wait`).
    Eq(u32),
    /// `>= v` (`noc_semaphore_wait_min`).
    Ge(u32),
    /// `!= v`.
    Ne(u32),
    /// `!= v`, for a kernel polling the word through a pointer (its deadlock report says so).
    Polled(u32),
}

impl WordCond {
    /// Whether `v` satisfies the condition.
    pub fn holds(self, v: u32) -> bool {
        match self {
            WordCond::Eq(x) => v == x,
            WordCond::Ge(x) => v >= x,
            WordCond::Ne(x) | WordCond::Polled(x) => v != x,
        }
    }
}

impl fmt::Display for WordCond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WordCond::Eq(v) => write!(f, "== {v}"),
            WordCond::Ge(v) => write!(f, ">= {v}"),
            WordCond::Ne(v) => write!(f, "!= {v}"),
            WordCond::Polled(v) => write!(f, "to change from {v}"),
        }
    }
}

/// What a blocked kernel waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    /// `cb_wait_front(cb, pages)`.
    CbFront {
        /// CB index.
        cb: u8,
        /// Pages needed.
        pages: u32,
    },
    /// `cb_reserve_back(cb, pages)`.
    CbBack {
        /// CB index.
        cb: u8,
        /// Pages needed.
        pages: u32,
    },
    /// An L1 word condition (semaphore waits, polling).
    L1Word {
        /// Word address.
        addr: u32,
        /// Condition.
        cond: WordCond,
    },
    /// A NoC barrier of one RISC on one NoC.
    Noc {
        /// The RISC whose transactions count.
        risc: Risc,
        /// The NoC.
        noc: NocId,
        /// Which barrier.
        barrier: Barrier,
    },
    /// Room for another read (`reads`) or non-posted write packet of one RISC on one NoC.
    NocSlot {
        /// The RISC.
        risc: Risc,
        /// The NoC.
        noc: NocId,
        /// Reads (true) or non-posted writes.
        reads: bool,
        /// Largest number in flight.
        max: u32,
    },
    /// A command buffer of one RISC on one NoC taking its next command.
    CmdBuf {
        /// The RISC.
        risc: Risc,
        /// The NoC.
        noc: NocId,
        /// Read (0), write (1) or atomic (2) command buffer.
        buf: u8,
    },
    /// A compute-pipeline hand-off (DST section, source registers): `slot` indexes the core's sync slots.
    Sync {
        /// Index into [`TensixCore::sync`].
        slot: u8,
        /// Value needed (at least).
        at_least: u32,
    },
}

impl Wait {
    /// Trace category and short name of the wait.
    pub fn short_name(&self) -> &'static str {
        match self {
            Wait::CbFront { .. } => "cb_wait_front",
            Wait::CbBack { .. } => "cb_reserve_back",
            Wait::L1Word { .. } => "semaphore/L1 wait",
            Wait::Noc { barrier, .. } => barrier.api_name(),
            Wait::NocSlot { .. } => "NoC transaction slot",
            Wait::CmdBuf { .. } => "NoC command buffer",
            Wait::Sync { .. } => "compute hand-off",
        }
    }
}

/// The key a hardware event passes to [`TensixCore::take_ready`]: after every kernel's check in key order
/// (hardware events never change the counters a kernel may block on ahead of exact order).
pub const BY_HARDWARE: OrderKey = OrderKey::HARDWARE;

/// What a kernel's update of its core changed, for [`TensixCore::take_ready_after`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Touched {
    /// Anything (L1, semaphores, several counters).
    Anything,
    /// Only the compute hand-off counter `slot`.
    Sync(u8),
    /// Only the counters of CB `cb`.
    Cb(u8),
    /// Only L1's contents (a kernel's store, a packed tile): the waiters on L1 words.
    L1,
}

/// A kernel blocked on this core.
#[derive(Debug, Clone, Copy)]
pub struct Waiter {
    /// The blocked fiber.
    pub fiber: FiberId,
    /// What it waits for.
    pub wait: Wait,
    /// Cycles between the condition becoming true and the kernel noticing it.
    pub latency: Cycles,
    /// For a kernel that blocked on a counter only its core's kernels change, without first letting the
    /// kernels behind it run: the scheduler key of the check that found the wait not holding (see
    /// [`TensixCore::take_ready`]). `None` when it blocked in exact order.
    pub ahead: Option<OrderKey>,
}

/// Names of the compute-pipeline sync slots (see [`Wait::Sync`]).
pub const SYNC_SLOTS: usize = 4;

/// One Tensix core during a run.
#[derive(Debug)]
pub struct TensixCore {
    /// L1.
    pub l1: L1,
    /// Circular buffers by index.
    pub cbs: Vec<Option<CircularBuffer>>,
    /// NoC counters per RISC (index) and NoC.
    pub noc: [[NocCounters; 2]; Risc::COUNT],
    /// Monotonic counters of the compute pipeline hand-offs (unpack→math, math→pack, pack→math …).
    pub sync: [u32; SYNC_SLOTS],
    /// DST, source registers and configuration, when a compute kernel runs here.
    pub compute: Option<Box<crate::hw::compute::state::ComputeState>>,
    waiters: Vec<Waiter>,
}

impl TensixCore {
    /// A core with `l1` and room for `num_cbs` circular buffers.
    pub fn new(l1: L1, num_cbs: usize) -> TensixCore {
        TensixCore {
            l1,
            cbs: vec![None; num_cbs],
            noc: [[NocCounters::default(); 2]; Risc::COUNT],
            sync: [0; SYNC_SLOTS],
            compute: None,
            waiters: Vec::new(),
        }
    }

    /// Give the L1 back (end of a run).
    pub fn into_l1(self) -> L1 {
        self.l1
    }

    /// The CB at `index`, if configured.
    pub fn cb(&self, index: u8) -> Option<&CircularBuffer> {
        self.cbs.get(index as usize).and_then(|c| c.as_ref())
    }

    /// The CB at `index`, mutably.
    pub fn cb_mut(&mut self, index: u8) -> Option<&mut CircularBuffer> {
        self.cbs.get_mut(index as usize).and_then(|c| c.as_mut())
    }

    /// Counters of `risc` on `noc`.
    pub fn counters(&mut self, risc: Risc, noc: NocId) -> &mut NocCounters {
        &mut self.noc[risc.index()][noc.index()]
    }

    /// Whether `w` holds now.
    pub fn satisfied(&self, w: &Wait) -> bool {
        match *w {
            Wait::CbFront { cb, pages } => self.cb(cb).is_some_and(|c| c.pages_available() >= pages),
            Wait::CbBack { cb, pages } => self.cb(cb).is_some_and(|c| c.pages_free() >= pages as i64),
            Wait::L1Word { addr, cond } => self.l1.read_u32(addr as u64).is_ok_and(|v| cond.holds(v)),
            Wait::Noc { risc, noc, barrier } => self.noc[risc.index()][noc.index()].satisfied(barrier),
            Wait::NocSlot { risc, noc, reads, max } => self.noc[risc.index()][noc.index()].in_flight(reads) < max,
            Wait::CmdBuf { risc, noc, buf } => self.noc[risc.index()][noc.index()].cmd_pending[buf as usize] == 0,
            Wait::Sync { slot, at_least } => self.sync[slot as usize] >= at_least,
        }
    }

    /// Whether `w` holds for a kernel at scheduler key `key`: CB counters are read without the updates
    /// other kernels of the core made ahead of it (see [`CircularBuffer::counters_at`]); everything else
    /// is only ever changed in exact order.
    #[inline]
    pub fn satisfied_at(&self, w: &Wait, key: OrderKey) -> bool {
        match *w {
            Wait::CbFront { cb, pages } => self.cb(cb).is_some_and(|c| c.pages_available_at(key) >= pages),
            Wait::CbBack { cb, pages } => self.cb(cb).is_some_and(|c| c.pages_free_at(key) >= pages as i64),
            _ => self.satisfied(w),
        }
    }

    /// For a kernel at scheduler key `key` whose wait `w` does not hold: the cycle of the update, made
    /// ahead of it by another kernel of the core, that makes it hold (`None`: none yet, so it blocks).
    pub fn ahead_wake(&self, w: &Wait, key: OrderKey) -> Option<u64> {
        match *w {
            Wait::CbFront { cb, pages } => self.cb(cb)?.first_ahead_where(key, |c| c.pages_available() as u32 >= pages),
            Wait::CbBack { cb, pages } => {
                let c = self.cb(cb)?;
                let n = c.num_pages();
                c.first_ahead_where(key, |k| k.pages_free(n) >= pages as i64)
            }
            _ => None,
        }
    }

    /// Remember that `w`, which holds, returned at scheduler key `key` without waiting for the core's
    /// other kernels (see [`crate::hw::cb::CircularBuffer::update_behind`]).
    pub fn note_wait_ahead(&mut self, w: &Wait, key: OrderKey) {
        match *w {
            Wait::CbFront { cb, .. } => {
                if let Some(c) = self.cb_mut(cb) {
                    c.front_ahead_key = c.front_ahead_key.max(key);
                }
            }
            Wait::CbBack { cb, .. } => {
                if let Some(c) = self.cb_mut(cb) {
                    c.back_ahead_key = c.back_ahead_key.max(key);
                }
            }
            _ => {}
        }
    }

    /// Register a blocked kernel.
    pub fn add_waiter(&mut self, w: Waiter) {
        self.waiters.push(w);
    }

    /// Remove every waiter whose condition now holds after an update at `now` with scheduler key `by`,
    /// appending `(fiber, cycle it resumes at)` to `out`. A waiter normally notices the update `latency`
    /// cycles after it. A waiter that blocked ahead of exact order (on a counter of its core, before the
    /// kernels behind it ran: `KernelCtx::wait_blocked`), at a check that comes after the update in key
    /// order, would in exact order have found the wait holding there: it goes on at that check's cycle.
    ///
    /// `by` is [`BY_HARDWARE`] for a hardware event (a NoC packet landing, an acknowledgement): those never
    /// change a CB's or the compute hand-off's counters, which only the core's kernels update (each update
    /// wakes whoever it satisfies), so waiters on them are not checked — a check would miss cold cache lines
    /// for nothing on every packet that lands.
    pub fn take_ready(&mut self, now: Cycle, by: OrderKey, out: &mut Vec<(FiberId, Cycle)>) {
        self.take_ready_after(Touched::Anything, now, by, out)
    }

    /// [`TensixCore::take_ready`] after an update by a kernel that changed only what `touched` names: the
    /// waiters on anything else are not checked (nothing of theirs changed, and every update wakes whoever
    /// it satisfies, so none of them holds).
    pub fn take_ready_after(&mut self, touched: Touched, now: Cycle, by: OrderKey, out: &mut Vec<(FiberId, Cycle)>) {
        if self.waiters.is_empty() {
            return;
        }
        let hardware = by == BY_HARDWARE;
        let mut i = 0;
        while i < self.waiters.len() {
            let w = &self.waiters[i].wait;
            let skip = match touched {
                _ if hardware => matches!(w, Wait::CbFront { .. } | Wait::CbBack { .. } | Wait::Sync { .. }),
                Touched::Anything => false,
                Touched::Sync(slot) => !matches!(*w, Wait::Sync { slot: s, .. } if s == slot),
                Touched::Cb(cb) => !matches!(*w, Wait::CbFront { cb: c, .. } | Wait::CbBack { cb: c, .. } if c == cb),
                Touched::L1 => !matches!(w, Wait::L1Word { .. }),
            };
            if skip {
                i += 1;
                continue;
            }
            if self.satisfied(w) {
                let w = self.waiters.swap_remove(i);
                let at = match w.ahead {
                    Some(check) if by < check => check.at(),
                    _ => now + w.latency,
                };
                out.push((w.fiber, at));
            } else {
                i += 1;
            }
        }
        // Keep wake-up order independent of removal order.
        if out.len() > 1 {
            out.sort_by_key(|(f, _)| *f);
        }
    }

    /// The kernels blocked here.
    pub fn waiters(&self) -> &[Waiter] {
        &self.waiters
    }

    /// A human description of `w` with the current state, for deadlock reports.
    pub fn describe(&self, w: &Wait) -> String {
        match *w {
            Wait::CbFront { cb, pages } => match self.cb(cb) {
                Some(c) => {
                    format!("cb_wait_front(c_{cb}, {pages}): {} of {pages} pages available", c.pages_available())
                }
                None => format!("cb_wait_front(c_{cb}, {pages}): CB {cb} is not configured on this core"),
            },
            Wait::CbBack { cb, pages } => match self.cb(cb) {
                Some(c) => format!(
                    "cb_reserve_back(c_{cb}, {pages}): {} of {pages} pages free ({} of {} used)",
                    c.pages_free().max(0),
                    c.pages_available(),
                    c.num_pages()
                ),
                None => format!("cb_reserve_back(c_{cb}, {pages}): CB {cb} is not configured on this core"),
            },
            Wait::L1Word { addr, cond: cond @ WordCond::Polled(_) } => format!(
                "L1 word {addr:#x} {cond}: the kernel polls it through a pointer, and nothing else is running or in flight to write it"
            ),
            Wait::L1Word { addr, cond } => {
                let v = self.l1.read_u32(addr as u64).map(|v| v.to_string()).unwrap_or_else(|_| "?".into());
                format!("L1 word {addr:#x} {cond} (semaphore wait): current value {v}")
            }
            Wait::Noc { risc, noc, barrier } => {
                format!("{} on {noc}: {}", barrier.api_name(), self.noc[risc.index()][noc.index()].outstanding(barrier))
            }
            Wait::NocSlot { risc, noc, reads, max } => format!(
                "a free {} slot on {noc}: {} of {max} in flight",
                if reads { "read" } else { "write" },
                self.noc[risc.index()][noc.index()].in_flight(reads)
            ),
            Wait::CmdBuf { risc, noc, buf } => format!(
                "the {} command buffer on {noc}: {} command(s) not yet started by the NIU",
                ["read", "write", "atomic"][buf as usize],
                self.noc[risc.index()][noc.index()].cmd_pending[buf as usize]
            ),
            Wait::Sync { slot, at_least } => {
                format!("compute hand-off slot {slot}: {} of {at_least}", self.sync[slot as usize])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(at: u64, fiber: u32) -> OrderKey {
        OrderKey::fiber(Cycle(at), fiber)
    }

    #[test]
    fn a_waiter_resumes_at_its_own_check_when_the_update_came_before_it_in_key_order() {
        let mut c = TensixCore::new(L1::new(1024), 0);
        let wait = Wait::Sync { slot: 0, at_least: 1 };
        let waiter = |fiber: u32, at: u64| Waiter {
            fiber: FiberId(fiber),
            wait,
            latency: Cycles(3),
            ahead: Some(key(at, fiber)),
        };
        let mut out = Vec::new();
        // Clear `out`, block `ws` on the counter at 0, then bump it (the update is passed to take_ready).
        let block_then_bump = |c: &mut TensixCore, out: &mut Vec<(FiberId, Cycle)>, ws: &[Waiter]| {
            out.clear();
            c.sync[0] = 0;
            ws.iter().for_each(|w| c.add_waiter(*w));
            c.sync[0] = 1;
        };
        // Two kernels blocked (ahead of exact order) at cycles 100 and 40; the counter is bumped at cycle 50
        // by kernel 0. The one that checked at 100 would have found it bumped: it goes on at 100. The one at
        // 40 checked before the bump: it notices it 3 cycles after.
        c.add_waiter(waiter(2, 100));
        c.add_waiter(waiter(1, 40));
        c.take_ready(Cycle(50), key(50, 0), &mut out);
        assert!(out.is_empty(), "the counter has not changed yet");
        c.sync[0] = 1;
        c.take_ready(Cycle(50), key(50, 0), &mut out);
        assert_eq!(out, vec![(FiberId(1), Cycle(53)), (FiberId(2), Cycle(100))]);
        // The same cycle: the fiber order decides which came first.
        block_then_bump(&mut c, &mut out, &[waiter(2, 50), waiter(4, 50)]);
        c.take_ready(Cycle(50), key(50, 3), &mut out);
        assert_eq!(out, vec![(FiberId(2), Cycle(53)), (FiberId(4), Cycle(50))]);
        // A hardware event never changes these counters, so it leaves their waiters alone; the update that
        // satisfies a waiter wakes it.
        block_then_bump(&mut c, &mut out, &[waiter(5, 900)]);
        c.take_ready(Cycle(60), BY_HARDWARE, &mut out);
        assert!(out.is_empty(), "{out:?}");
        c.take_ready(Cycle(60), key(60, 0), &mut out);
        assert_eq!(out, vec![(FiberId(5), Cycle(900))]);
        // A waiter that blocked in exact order always notices an update the latency after it.
        block_then_bump(&mut c, &mut out, &[Waiter { ahead: None, ..waiter(6, 900) }]);
        c.take_ready(Cycle(60), key(60, 0), &mut out);
        assert_eq!(out, vec![(FiberId(6), Cycle(63))]);
    }

    #[test]
    fn an_update_checks_only_the_waiters_on_what_it_touched() {
        let mut c = TensixCore::new(L1::new(1024), 0);
        let waiter = |fiber: u32, wait: Wait| Waiter { fiber: FiberId(fiber), wait, latency: Cycles(2), ahead: None };
        c.add_waiter(waiter(1, Wait::Sync { slot: 0, at_least: 1 }));
        c.add_waiter(waiter(2, Wait::Sync { slot: 1, at_least: 1 }));
        c.add_waiter(waiter(3, Wait::L1Word { addr: 0, cond: WordCond::Eq(0) }));
        // Both counters hold, and so does the L1 word; an update of counter 0 wakes its waiter only.
        c.sync = [1; SYNC_SLOTS];
        let mut out = Vec::new();
        c.take_ready_after(Touched::Sync(0), Cycle(10), key(10, 0), &mut out);
        assert_eq!(out, vec![(FiberId(1), Cycle(12))]);
        out.clear();
        c.take_ready_after(Touched::Cb(0), Cycle(11), key(11, 0), &mut out);
        assert!(out.is_empty(), "a CB update leaves the others: {out:?}");
        c.take_ready_after(Touched::L1, Cycle(11), key(11, 0), &mut out);
        assert_eq!(out, vec![(FiberId(3), Cycle(13))], "an L1 store wakes the waiters on L1 words only");
        out.clear();
        c.add_waiter(waiter(3, Wait::L1Word { addr: 0, cond: WordCond::Eq(0) }));
        c.take_ready_after(Touched::Anything, Cycle(12), key(12, 0), &mut out);
        assert_eq!(out, vec![(FiberId(2), Cycle(14)), (FiberId(3), Cycle(14))]);
    }
}
