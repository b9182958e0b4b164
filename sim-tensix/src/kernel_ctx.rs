//! The machinery every kernel context shares ([`KernelCtx`]): host access, the local clock and its
//! synchronisation with global time, blocking until a condition holds, statistics and profiler zones, CB
//! waits and updates, runtime and compile-time arguments, and issuing NoC commands through the RISC's
//! command buffers.

use crate::args::{ArgValue, KernelInstance, RUNTIME_ARGS_SLOT_WORDS};
pub(crate) use crate::cmd_buf::{CmdBuf, CmdState, InlineState};
use crate::hw::core::{TensixCore, Touched, Wait, Waiter, WordCond};
use crate::kernel_host::{KernelHost, NocError};
use crate::params::ApiCosts;
use sim_core::{Cycle, Cycles, FiberClock, OrderKey, TraceArg, Yielder, abort};
use soc_descriptors::NocId;
use std::cell::RefCell;
use std::rc::Rc;

/// Shared machinery of every kernel context: host access, local clock, blocking, statistics.
pub struct KernelCtx<'y> {
    pub(crate) host: Rc<RefCell<dyn KernelHost>>,
    pub(crate) clock: FiberClock<'y>,
    pub(crate) k: Rc<KernelInstance>,
    pub(crate) costs: Rc<ApiCosts>,
    start: Cycle,
    blocked: Cycles,
    tracing: bool,
    zones: Vec<(&'static str, Cycle)>,
    calls: std::cell::Cell<u64>,
    /// When each NoC command buffer (per NoC: read, write, atomic) takes its next command.
    cmd_ready: [[Cycle; 3]; 2],
    /// Pages of each CB of this core (0: not configured); CBs do not change during a run.
    cb_pages: Vec<u32>,
    /// The runtime args have been written to this kernel's L1 slot.
    args_placed: bool,
    /// Packet headers this kernel took from its RISC's pool.
    pub(crate) headers_allocated: u32,
    /// The transaction id the read and the write command buffers tag transactions with.
    pub(crate) trid: [u8; 2],
    /// What `*_set_state` calls stored in each command buffer (per NoC: read, write).
    pub(crate) cmd_state: [[Option<CmdState>; 2]; 2],
    /// Per NoC and command buffer (0..=3), what `noc_inline_dw_write_set_state` stored.
    pub(crate) inline_state: [[Option<InlineState>; 4]; 2],
    /// The issue cost of the next NoC commands when not a full command's (`*_with_state`).
    pub(crate) cmd_cost_override: Option<Cycles>,
    /// The DPRINT stream's sticky format state (C++ kernels; 0 until first stored).
    dprint_state: u32,
    /// Loads through L1 pointers of one address in a row, with no other call between (a poll loop).
    poll: Poll,
}

/// A run of pointer loads of one L1 address with nothing else between.
#[derive(Debug, Clone, Copy, Default)]
struct Poll {
    addr: u32,
    /// `calls` after the last load of the run.
    calls: u64,
    loads: u32,
}

/// Loads of one L1 word in a row, with no other call between, after which a kernel is taken to be polling
/// the word: when nothing else in the chip is pending, it waits for a write to the word instead of
/// spinning through simulated time forever (and a deadlock is reported if none can come). High enough that
/// a loop that only reads one word many times is not mistaken for a poll.
const POLL_LOADS: u32 = 1 << 16;

impl<'y> KernelCtx<'y> {
    /// The host address of this core's L1 byte 0, when its L1 lives in a host window (C++ kernels).
    pub(crate) fn l1_window_base(&self) -> Option<usize> {
        self.host.borrow().core(self.k.core).l1.window_base()
    }

    pub(crate) fn l1_size_bytes(&self) -> u32 {
        self.host.borrow().core(self.k.core).l1.size()
    }

    /// A RISC-V load or store of `bytes` at L1 address `addr` through a pointer (foreign kernel code): its
    /// time, as the L1 API's word accesses cost, then the other kernels catch up to now (a kernel polling
    /// L1 through a pointer lets them run). A poll — [`POLL_LOADS`] loads of one address in a row with no
    /// other call — finding nothing else pending in the chip waits for the word to change: only a write
    /// from elsewhere (another chip) could change it, and with none a deadlock names the word.
    pub(crate) fn pointer_access(&mut self, addr: u32, bytes: u32, store: bool) {
        let again = !store && addr == self.poll.addr && self.calls.get() == self.poll.calls && self.poll.loads > 0;
        let per_word = if store { self.costs.l1_store } else { self.costs.l1_load };
        self.spend(Cycles(per_word.0 * bytes.div_ceil(4).max(1) as u64));
        self.sync_local();
        if !again {
            self.poll = Poll { addr, calls: self.calls.get(), loads: u32::from(!store) };
            return;
        }
        self.poll.loads = self.poll.loads.saturating_add(1);
        if self.poll.loads >= POLL_LOADS && self.host.borrow().nothing_pending() {
            let word = addr & !3;
            let seen = self.host.borrow().core(self.k.core).l1.read_u32(word as u64).unwrap_or(0);
            self.wait_for(Wait::L1Word { addr: word, cond: WordCond::Polled(seen) }, self.costs.l1_load);
            self.poll.loads = 0;
        }
        self.poll.calls = self.calls.get();
    }

    pub(crate) fn new(
        host: Rc<RefCell<dyn KernelHost>>,
        yielder: &'y Yielder,
        k: Rc<KernelInstance>,
        start: Cycle,
    ) -> Self {
        let (tracing, cb_pages) = {
            let h = host.borrow();
            let core = h.core(k.core);
            let pages = (0..k.num_cbs).map(|i| core.cb(i as u8).map_or(0, |c| c.num_pages())).collect();
            (h.tracing(), pages)
        };
        let costs = k.costs.clone();
        let clock = FiberClock::new(yielder, k.fiber, start);
        clock.advance(costs.kernel_start);
        KernelCtx {
            host,
            clock,
            k,
            costs,
            start,
            blocked: Cycles::ZERO,
            tracing,
            zones: Vec::new(),
            calls: std::cell::Cell::new(0),
            cmd_ready: [[Cycle::ZERO; 3]; 2],
            cb_pages,
            args_placed: false,
            headers_allocated: 0,
            trid: [0; 2],
            cmd_state: [[None; 2]; 2],
            inline_state: [[None; 4]; 2],
            cmd_cost_override: None,
            dprint_state: 0,
            poll: Poll::default(),
        }
    }

    /// Debug-print text (lines end at `\n`): DPRINT stores the message into the core's print buffer, one
    /// word at a time.
    pub(crate) fn dprint(&mut self, text: String) {
        self.spend(Cycles(self.costs.l1_store.0 * (text.len() as u64 / 4 + 1)));
        let now = self.now();
        self.host.borrow_mut().dprint(self.k.fiber, now, text);
    }

    /// The DPRINT format state word of this RISC; stores `value` first when `set`.
    pub(crate) fn dprint_state(&mut self, set: bool, value: u32) -> u32 {
        if set {
            self.dprint_state = value;
        }
        self.dprint_state
    }

    /// "`name` on core (x,y) RISC".
    pub(crate) fn who(&self) -> String {
        let k = &self.k;
        format!("`{}` on core ({},{}) {}", k.name, k.logical.0, k.logical.1, k.risc.name())
    }

    pub(crate) fn finish(self) {
        let end = self.now();
        self.host.borrow_mut().finished(self.k.fiber, self.start, end, self.blocked, self.calls.get());
    }

    /// Charge one API call costing `c` cycles.
    #[inline]
    pub(crate) fn spend(&self, c: Cycles) {
        self.calls.set(self.calls.get() + 1);
        self.clock.advance(c);
    }

    #[inline]
    pub(crate) fn now(&self) -> Cycle {
        self.clock.now()
    }

    /// Before a call that touches shared state beyond this core (the NoC, DRAM, other cores, the run's
    /// records): wait until every earlier event has happened.
    #[inline]
    pub(crate) fn sync(&self) {
        let now = self.now();
        if now.0 > self.k.max_cycles || !self.k.sync.exact_ok(now, self.k.fiber.0) {
            self.clock.yield_now();
        }
    }

    /// Before a call that touches only this core's state (its CBs, L1, semaphores and NoC counters, the
    /// compute pipeline): wait until every earlier event that could touch this core has happened — which
    /// lets the kernel go on past kernels of other cores that are less than the lookahead behind
    /// (`sim_core::agenda`).
    #[inline]
    pub(crate) fn sync_local(&self) {
        let now = self.now();
        if now.0 > self.k.max_cycles || !self.k.sync.local_ok(now, self.k.fiber.0) {
            self.clock.yield_now();
        }
    }

    /// [`KernelCtx::sync_local`] for an update that the core's other kernels read as of their own keys (a
    /// CB push or pop): when `may_go_ahead`, it goes on instead of waiting for them. Returns whether it
    /// went on ahead of exact order for its core.
    #[inline]
    pub(crate) fn sync_local_or_ahead(&self, may_go_ahead: bool) -> bool {
        let now = self.now();
        let within = now.0 <= self.k.max_cycles;
        if within && self.k.sync.local_ok(now, self.k.fiber.0) {
            return false;
        }
        if within && may_go_ahead {
            return true;
        }
        self.clock.yield_now();
        false
    }

    pub(crate) fn fail(&self, msg: String) -> ! {
        abort(msg)
    }

    /// Block until `wait` holds; the kernel notices `latency` cycles after it becomes true.
    #[inline]
    pub(crate) fn wait_for(&mut self, wait: Wait, latency: Cycles) {
        match self.wait_holds_ahead(&wait) {
            Some(true) => return,
            // Checked and not holding: the blocking loop synchronises and checks again itself.
            Some(false) => {}
            None => {
                // Most waits already hold: a small frame for them, the blocking loop out of line.
                self.sync_local();
                if self.host.borrow().core(self.k.core).satisfied_at(&wait, self.key()) {
                    return;
                }
            }
        }
        self.wait_blocked(wait, latency);
    }

    /// A wait on a counter of this core that only grows (CB pages, compute hand-offs) and holds now
    /// returns without waiting for the core's other kernels: what they do before this cycle can only add
    /// to the counter (`SyncView::counter_ahead_ok`). A CB that two kernels of the core push (or pop) breaks
    /// that, and the push (pop) says so (`cb_update`).
    /// Returns whether the wait holds, or `None` when it may not be checked ahead.
    #[inline]
    fn wait_holds_ahead(&mut self, wait: &Wait) -> Option<bool> {
        if !self.counter_wait_ahead(wait) {
            return None;
        }
        let key = self.key();
        let mut h = self.host.borrow_mut();
        let core = h.core_mut(self.k.core);
        if !core.satisfied_at(wait, key) {
            return Some(false);
        }
        core.note_wait_ahead(wait, key);
        Some(true)
    }

    /// Whether `wait`, on a counter of this core that only grows (CB pages, compute hand-offs), may be
    /// checked, and blocked on, without waiting for the core's other kernels (`SyncView::counter_ahead_ok`).
    #[inline]
    fn counter_wait_ahead(&self, wait: &Wait) -> bool {
        matches!(wait, Wait::CbFront { .. } | Wait::CbBack { .. } | Wait::Sync { .. })
            && self.now().0 <= self.k.max_cycles
            && self.k.sync.counter_ahead_ok(self.k.fiber.0)
    }

    /// The blocking loop of [`KernelCtx::wait_for`]. A counter wait blocks without first waiting for the
    /// core's kernels behind it: only they can still change the counter before this cycle, and an update
    /// of theirs that makes the wait hold lets it go on at the cycle it blocked at, where exact order
    /// would have found it holding ([`TensixCore::take_ready`]). Otherwise a kernel resumed to synchronise
    /// usually found the wait still not holding and blocked anyway.
    #[inline(never)]
    fn wait_blocked(&mut self, wait: Wait, latency: Cycles) {
        loop {
            let may_block_ahead = self.counter_wait_ahead(&wait);
            if !may_block_ahead {
                self.sync_local();
            }
            let since = self.now();
            let ahead_wake = {
                let mut h = self.host.borrow_mut();
                let key = self.key();
                let core = h.core(self.k.core);
                if core.satisfied_at(&wait, key) {
                    return;
                }
                // Another kernel of the core already made, ahead of this one, the update that wakes it.
                let wake = core.ahead_wake(&wait, key);
                if wake.is_none() {
                    let ahead = may_block_ahead.then_some(key);
                    h.block(self.k.core, Waiter { fiber: self.k.fiber, wait, latency, ahead }, since);
                }
                wake
            };
            match ahead_wake {
                Some(at) => {
                    // Updates go ahead only with a wake-up latency above zero (`cb_update`), so the wake-up
                    // comes after the update and the next check sees it: the loop always moves on.
                    debug_assert!(latency.0 > 0, "an update went ahead with a zero wake-up latency");
                    self.clock.catch_up(Cycle(at) + latency);
                    self.clock.yield_now();
                }
                None => {
                    self.clock.block();
                }
            }
            let woke = self.now();
            self.blocked += woke - since;
            if self.tracing && woke > since {
                let name = wait_label(&wait);
                self.host.borrow_mut().trace_slice(self.k.fiber, &name, "wait", since, woke, Vec::new());
            }
        }
    }

    /// This kernel's scheduler key now.
    #[inline]
    pub(crate) fn key(&self) -> OrderKey {
        OrderKey::fiber(self.now(), self.k.fiber.0)
    }

    pub(crate) fn with_core<R>(&mut self, f: impl FnOnce(&mut TensixCore) -> R) -> R {
        let mut h = self.host.borrow_mut();
        f(h.core_mut(self.k.core))
    }

    /// Change this core's state with `f`, then wake the kernels whose waits now hold: one borrow of the
    /// host for both.
    pub(crate) fn update_core<R>(&mut self, f: impl FnOnce(&mut TensixCore) -> R) -> R {
        self.update_core_touching(Touched::Anything, f)
    }

    /// [`KernelCtx::update_core`] for an update that changes only what `touched` names (only the waiters on
    /// it are checked).
    pub(crate) fn update_core_touching<R>(&mut self, touched: Touched, f: impl FnOnce(&mut TensixCore) -> R) -> R {
        let (core, now) = (self.k.core, self.now());
        let mut h = self.host.borrow_mut();
        let r = f(h.core_mut(core));
        h.notify_touched(core, now, self.key(), touched);
        r
    }

    /// Wake the kernels of this core waiting on L1 words, after this kernel stored into its L1.
    pub(crate) fn notify_l1(&mut self) {
        let (now, key) = (self.now(), self.key());
        self.host.borrow_mut().notify_touched(self.k.core, now, key, Touched::L1);
    }

    pub(crate) fn trace_noc(&mut self, name: &'static str, bytes: u32, addr: u64) {
        if self.tracing {
            let args = vec![
                ("bytes".to_string(), TraceArg::U(bytes as u64)),
                ("addr".to_string(), TraceArg::S(format!("{addr:#x}"))),
            ];
            let now = self.now();
            self.host.borrow_mut().trace_instant(self.k.fiber, name, "noc", now, args);
        }
    }

    pub(crate) fn cb_index(&self, api: &str, cb: u32) -> u8 {
        if cb >= self.k.num_cbs {
            self.fail(format!("{api}: CB index {cb} is out of range (this chip has {} CBs per core)", self.k.num_cbs));
        }
        cb as u8
    }

    /// Check CB `cb` is configured and `n` pages can ever fit; returns its page count.
    #[inline]
    /// Look at a field of a CB of this core as this RISC sees it (a local lookup's time).
    pub(crate) fn cb_field<R>(
        &self,
        api: &str,
        cb: u32,
        f: impl FnOnce(&crate::hw::cb::CircularBuffer, crate::hw::risc::Risc) -> R,
    ) -> R {
        let cb = self.cb_index(api, cb);
        self.spend(self.costs.local_lookup);
        let risc = self.k.risc;
        let h = self.host.borrow();
        match h.core(self.k.core).cb(cb) {
            Some(c) => f(c, risc),
            None => {
                drop(h);
                self.fail(format!("{api}(c_{cb}): CB {cb} is not configured on this core"))
            }
        }
    }

    pub(crate) fn cb_checked(&mut self, api: &str, cb: u8, n: u32) -> u32 {
        match self.cb_pages[cb as usize] {
            p if p != 0 && n <= p => p,
            p => self.cb_unusable(api, cb, n, p),
        }
    }

    #[cold]
    #[inline(never)]
    fn cb_shared_side(&self, api: &str, cb: u8, push: bool) -> ! {
        let (side, wait) = if push { ("push", "cb_reserve_back") } else { ("pop", "cb_wait_front") };
        self.fail(format!(
            "{api}(c_{cb}): not modelled with the scheduler's lookahead: two kernels of this core {side} c_{cb}, \
             and another kernel's {wait} or {side} on it already went on ahead of this call; set the \
             parameter sim.lookahead=0 (exact order)"
        ))
    }

    #[cold]
    #[inline(never)]
    fn cb_unusable(&self, api: &str, cb: u8, n: u32, pages: u32) -> ! {
        if pages == 0 {
            self.fail(format!("{api}(c_{cb}, {n}): CB {cb} is not configured on this core"))
        }
        self.fail(format!("{api}(c_{cb}, {n}): the CB holds only {pages} pages, so this can never succeed"))
    }

    pub(crate) fn arg(&self, api: &str, common: bool, i: usize) -> u32 {
        let v = if common { &self.k.args.common } else { &self.k.args.runtime };
        match v.get(i) {
            Some(x) => *x,
            None => self.fail(format!(
                "{api}({i}): only {} {} runtime args were set for this core",
                v.len(),
                if common { "common" } else { "unique" }
            )),
        }
    }

    /// `cb_reserve_back` (`back`) or `cb_wait_front`: block until `n` pages are free or available.
    pub(crate) fn cb_wait(&mut self, back: bool, cb: u32, n: u32) {
        let api = if back { "cb_reserve_back" } else { "cb_wait_front" };
        let cb = self.cb_index(api, cb);
        self.spend(self.costs.cb_poll);
        self.cb_checked(api, cb, n);
        let wait = if back { Wait::CbBack { cb, pages: n } } else { Wait::CbFront { cb, pages: n } };
        self.wait_for(wait, self.costs.cb_wake);
    }

    /// `cb_push_back` (`push`: publish `n` pages) or `cb_pop_front` (free them).
    pub(crate) fn cb_update(&mut self, push: bool, cb: u32, n: u32) {
        let api = if push { "cb_push_back" } else { "cb_pop_front" };
        let cb = self.cb_index(api, cb);
        self.spend(self.costs.cb_update);
        self.cb_checked(api, cb, n);
        // Only the core's kernels read CB counters, each as of its own key; so, with a wake-up latency that
        // keeps every wake-up after the update that causes it, the update may go on ahead of them.
        let ahead = self.sync_local_or_ahead(self.costs.cb_wake.0 > 0 && self.k.sync.counter_ahead_ok(self.k.fiber.0));
        let (risc, key) = (self.k.risc, self.key());
        let settled = self.k.sync.settled(self.now()).0;
        let behind = self.update_core_touching(Touched::Cb(cb), |c| {
            let b = c.cb_mut(cb).expect("checked");
            if b.update_behind(push, key) || !b.note_update(push, key, n, ahead, settled) {
                return true;
            }
            if push {
                b.push(risc, n)
            } else {
                b.pop(risc, n)
            }
            false
        });
        if behind {
            self.cb_shared_side(api, cb, push);
        }
    }

    /// `get_arg_val` / `get_common_arg_val`.
    pub(crate) fn runtime_arg<T: ArgValue>(&self, common: bool, i: usize) -> T {
        self.spend(self.costs.arg_read);
        let api = if common { "get_common_arg_val" } else { "get_arg_val" };
        T::from_arg_bits(self.arg(api, common, i))
    }

    /// `get_arg_addr(i)` / `get_common_arg_addr(i)`: the L1 address of runtime arg `i`. The args are
    /// placed in the core's L1 (its kernel's slot, see [`KernelInstance::args_l1`]) the first time the kernel
    /// asks, as dispatch would have placed them before launch, so reads through the pointer see them (and
    /// are timed as L1 loads).
    pub(crate) fn runtime_arg_addr(&mut self, common: bool, i: usize) -> u32 {
        self.spend(self.costs.arg_read);
        let api = if common { "get_common_arg_addr" } else { "get_arg_addr" };
        let Some(base) = self.k.args_l1 else {
            self.fail(format!("{api}({i}): not modelled: runtime args in the L1 of an Ethernet core (use get_arg_val)"))
        };
        if i >= RUNTIME_ARGS_SLOT_WORDS as usize {
            self.fail(format!("{api}({i}): a kernel has at most {RUNTIME_ARGS_SLOT_WORDS} runtime args"));
        }
        if !self.args_placed {
            self.args_placed = true;
            let words = |v: &[u32]| v.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
            let (unique, common_args) = (words(&self.k.args.runtime), words(&self.k.args.common));
            let common_at = base + RUNTIME_ARGS_SLOT_WORDS * 4;
            let placed = self.with_core(|c| {
                c.l1.write(base as u64, &unique).and_then(|_| c.l1.write(common_at as u64, &common_args))
            });
            if let Err(e) = placed {
                self.fail(format!("{api}({i}): placing the runtime args at L1 {base:#x}: {e}"));
            }
        }
        base + if common { RUNTIME_ARGS_SLOT_WORDS * 4 } else { 0 } + i as u32 * 4
    }

    /// `get_compile_time_arg_val(i)`.
    pub(crate) fn compile_time_arg(&self, i: usize) -> u32 {
        match self.k.args.compile.get(i) {
            Some(v) => *v,
            None => self.fail(format!(
                "get_compile_time_arg_val({i}): only {} compile-time args were given",
                self.k.args.compile.len()
            )),
        }
    }

    /// `get_named_compile_time_arg_val("name")`.
    pub(crate) fn named_compile_time_arg(&self, name: &str) -> u32 {
        match self.k.args.named.iter().find(|(n, _)| n == name) {
            Some((_, v)) => *v,
            None => self.fail(format!("get_named_compile_time_arg_val(\"{name}\"): no such named compile-time arg")),
        }
    }

    /// The value of define `name`, if the host set it.
    pub(crate) fn define(&self, name: &str) -> Option<&str> {
        self.k.args.defines.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Issue one NoC command: wait (spinning) for the command buffer, program it, synchronise, hand it to
    /// the host; the host says when the buffer takes the next command.
    pub(crate) fn noc_command(
        &mut self,
        noc: NocId,
        buf: CmdBuf,
        issue: impl FnOnce(&mut dyn KernelHost, Cycle) -> Result<Cycle, NocError>,
    ) -> Result<(), NocError> {
        let pending = self.cmd_ready[noc.index()][buf as usize] == crate::kernel_host::CMD_PENDING;
        if pending {
            // The NoC model has not said yet when the NIU took the last command: wait for it to.
            let wait = crate::hw::core::Wait::CmdBuf { risc: self.k.risc, noc, buf: buf as u8 };
            self.wait_for(wait, Cycles::ZERO);
        } else {
            self.clock.catch_up(self.cmd_ready[noc.index()][buf as usize]);
        }
        let full = if buf == CmdBuf::Read { self.costs.noc_read_cmd } else { self.costs.noc_cmd };
        self.spend(self.cmd_cost_override.unwrap_or(full));
        self.sync();
        let now = self.now();
        let ready = issue(&mut *self.host.borrow_mut(), now)?;
        self.cmd_ready[noc.index()][buf as usize] = ready;
        Ok(())
    }

    pub(crate) fn zone_begin(&mut self, name: &'static str) {
        self.spend(self.costs.zone);
        self.zones.push((name, self.now()));
    }

    /// `DeviceTimestampedData(name, data)`: log `data` under `name` at the current cycle.
    pub(crate) fn timestamped_data(&mut self, name: &str, data: u64) {
        self.spend(self.costs.zone);
        let now = self.now();
        self.host.borrow_mut().timestamped_data(self.k.fiber, name, data, now);
    }

    pub(crate) fn zone_end(&mut self) {
        self.spend(self.costs.zone);
        match self.zones.pop() {
            Some((name, start)) => {
                let now = self.now();
                self.host.borrow_mut().zone(self.k.fiber, name, start, now);
            }
            None => self.fail("zone_end: no zone is open".into()),
        }
    }
}

fn wait_label(w: &Wait) -> String {
    match *w {
        Wait::CbFront { cb, pages } => format!("cb_wait_front(c_{cb}, {pages})"),
        Wait::CbBack { cb, pages } => format!("cb_reserve_back(c_{cb}, {pages})"),
        Wait::L1Word { addr, cond } => format!("wait L1[{addr:#x}] {cond}"),
        Wait::Noc { noc, barrier, .. } => format!("{} ({noc})", barrier.api_name()),
        Wait::NocSlot { noc, reads, .. } => format!("NoC {} slot ({noc})", if reads { "read" } else { "write" }),
        Wait::CmdBuf { noc, buf, .. } => {
            format!("NoC {} command buffer ({noc})", ["read", "write", "atomic"][buf as usize])
        }
        Wait::Sync { slot, .. } => format!("compute hand-off {slot}"),
    }
}
