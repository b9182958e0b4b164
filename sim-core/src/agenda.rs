//! The scheduler's agenda: hardware events ([`EventQueue`]) and kernel resumptions ([`Resumptions`], each
//! kernel's key also kept where kernels can read it) handed out together in `(cycle, order)` key
//! order, and the [`SyncView`] a kernel reads to decide whether it may go on without handing control back.
//!
//! A kernel synchronises before it touches shared state. Exactly ([`SyncView::exact_ok`]): nothing is
//! pending before its key. With lookahead ([`SyncView::local_ok`]), for calls that touch only the
//! kernel's own core (CBs, its L1 and semaphores, its NoC counters, compute): no hardware event and no
//! kernel of the same core is pending before its key, and every other kernel is less than `lookahead`
//! cycles behind it. `lookahead` is a proven lower bound on the time from anything a kernel does to its
//! first effect on another core (a NoC packet's landing or capture), so nothing that has not happened yet
//! can reach this core before the call's cycle: the call sees and leaves the same state as in exact
//! order, and the run's results are identical; it only resumes kernels less often.
//!
//! A guard makes a broken bound loud instead of wrong: every core remembers the latest cycle at which one
//! of its kernels went ahead of exact order ([`SyncView::went_ahead`]), and the engine checks every
//! hardware event touching a core against it ([`SyncView::check_ahead`]).

use crate::fiber::FiberId;
use crate::queue::{EventKey, EventQueue, FIBER_ORDER};
use crate::resumptions::Resumptions;
use crate::time::{Cycle, Cycles};
use std::cell::Cell;
use std::rc::Rc;

/// What a kernel reads to decide whether it may go on: the earliest hardware event, the pending kernel
/// resumptions, and the lookahead allowed to calls that touch only their own core.
pub struct SyncView {
    /// The earliest hardware event's packed key, never later than the horizon (`u128::MAX`: none), and
    /// the earliest pending resumption's: published by the [`Agenda`] after every change.
    hw: Cell<u128>,
    min: Cell<u128>,
    /// Every fiber's pending key (`u128::MAX`: not pending).
    keys: Box<[Cell<u128>]>,
    /// The lookahead of every fiber (0: it synchronises exactly, e.g. a kernel whose core's own calls start
    /// hardware activity).
    lookahead: Box<[u64]>,
    /// Core (group) of every fiber, and the other fibers of each fiber's core.
    group: Box<[u32]>,
    siblings: Box<[Box<[u32]>]>,
    /// Per core: the latest cycle at which one of its kernels went on ahead of exact order.
    ahead: Box<[Cell<u64>]>,
}

impl std::fmt::Debug for SyncView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SyncView").field("fibers", &self.group.len()).field("cores", &self.ahead.len()).finish()
    }
}

impl SyncView {
    /// Whether fiber `id` at cycle `at` may go on in exact order: nothing is pending before it.
    #[inline]
    pub fn exact_ok(&self, at: Cycle, id: u32) -> bool {
        let key = EventKey::fiber(at, id).packed();
        self.hw.get() > key && self.min.get() > key
    }

    /// Whether fiber `id` at cycle `at` may make a call that touches only its own core: no hardware event
    /// and no kernel of its core is pending before it, and every other kernel is within the lookahead (see
    /// the module documentation).
    #[inline]
    pub fn local_ok(&self, at: Cycle, id: u32) -> bool {
        let key = EventKey::fiber(at, id).packed();
        if self.hw.get() <= key {
            return false;
        }
        let first = self.min.get();
        if first > key {
            return true;
        }
        self.local_ok_ahead(at, id, key, first)
    }

    /// Whether fiber `id` may let a wait on a counter of its own core that only grows (CB pages, compute
    /// hand-offs) and already holds return without synchronising, or update a CB counter without waiting
    /// for the kernels behind it (the caller keeps the update readable as of its key until
    /// [`SyncView::settled`] passes it): the lookahead is on for it. Only the core's kernels change or
    /// read these counters, never a hardware event, so neither the kernels behind nor the hardware events
    /// pending before it can change what it sees (see docs/architecture-notes.md, "Time and ordering contract").
    #[inline]
    pub fn counter_ahead_ok(&self, id: u32) -> bool {
        self.lookahead[id as usize] != 0
    }

    /// A cycle before which nothing can still read a core's state: the earliest pending hardware event,
    /// the earliest pending kernel, and `now` of the running one. A blocked kernel is woken only by one of
    /// them, at or after its cycle; so every read still to come is at this cycle or later.
    #[inline]
    pub fn settled(&self, now: Cycle) -> Cycle {
        let first = self.hw.get().min(self.min.get());
        EventKey::unpacked(first).at.min(now)
    }

    #[inline(never)]
    fn local_ok_ahead(&self, at: Cycle, id: u32, key: u128, first: u128) -> bool {
        let first_at = (first >> 64) as u64;
        if first_at.saturating_add(self.lookahead[id as usize]) <= at.0 {
            return false;
        }
        if self.siblings[id as usize].iter().any(|&s| self.keys[s as usize].get() < key) {
            return false;
        }
        let a = &self.ahead[self.group[id as usize] as usize];
        a.set(a.get().max(at.0));
        true
    }

    /// The latest cycle at which a kernel of core `group` went on ahead of exact order (0: never).
    #[inline]
    pub fn went_ahead(&self, group: u32) -> Cycle {
        Cycle(self.ahead[group as usize].get())
    }

    /// Check that a hardware event at `at` touching core `group` does not come after a kernel of that core
    /// went on past it. A failure is a bug in the lookahead bound: it panics (an internal error) rather
    /// than let a result differ from exact order.
    #[inline]
    pub fn check_ahead(&self, group: u32, at: Cycle) {
        let ahead = self.ahead[group as usize].get();
        assert!(
            at.0 >= ahead,
            "lookahead bound broken: a hardware event at cycle {} touches core {group}, whose kernels already \
             ran to cycle {ahead} (set the parameter sim.lookahead=0 meanwhile)",
            at.0
        );
    }
}

/// What the agenda hands out next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next<E> {
    /// A hardware event.
    Event(E),
    /// A kernel resumption.
    Resume(FiberId),
}

/// Hardware events and kernel resumptions, handed out together in key order.
pub struct Agenda<E> {
    events: EventQueue<E>,
    /// Pending resumptions (a fiber is pending at most once).
    fibers: Resumptions,
    view: Rc<SyncView>,
}

fn fiber_of(key: u128) -> FiberId {
    FiberId((EventKey::unpacked(key).order & !FIBER_ORDER) as u32)
}

impl<E> Agenda<E> {
    /// An empty agenda for fibers whose cores are `group[id]` (fiber ids `0..group.len()`, cores
    /// `0..groups`), allowing fiber `id` `lookahead[id]` cycles in calls that touch only its own core.
    pub fn new(group: &[u32], groups: u32, lookahead: &[Cycles]) -> Agenda<E> {
        assert_eq!(group.len(), lookahead.len(), "one lookahead per fiber");
        assert!(group.iter().all(|&g| g < groups), "every fiber's core is one of the groups");
        let events = EventQueue::new();
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); groups as usize];
        for (id, &g) in group.iter().enumerate() {
            members[g as usize].push(id as u32);
        }
        let siblings = group
            .iter()
            .enumerate()
            .map(|(id, &g)| members[g as usize].iter().copied().filter(|&s| s != id as u32).collect())
            .collect();
        let view = Rc::new(SyncView {
            hw: Cell::new(u128::MAX),
            min: Cell::new(u128::MAX),
            keys: (0..group.len()).map(|_| Cell::new(u128::MAX)).collect(),
            lookahead: lookahead.iter().map(|c| c.0).collect(),
            group: group.into(),
            siblings,
            ahead: (0..groups).map(|_| Cell::new(0)).collect(),
        });
        Agenda { events, fibers: Resumptions::new(group.len()), view }
    }

    /// What kernels read to synchronise.
    pub fn view(&self) -> Rc<SyncView> {
        self.view.clone()
    }

    /// The same, borrowed (for the engine's [`SyncView::check_ahead`]).
    #[inline]
    pub fn view_ref(&self) -> &SyncView {
        &self.view
    }

    /// Schedule a hardware event at `at` (after every event already scheduled at the same cycle).
    #[inline]
    pub fn push(&mut self, at: Cycle, payload: E) {
        self.events.push(at, payload);
        self.view.hw.set(self.events.published());
    }

    /// Schedule the landing of a packet from another chip (see [`EventQueue::push_arrival`]).
    pub fn push_arrival(&mut self, at: Cycle, channel: u32, seq: u64, payload: E) {
        self.events.push_arrival(at, channel, seq, payload);
        self.view.hw.set(self.events.published());
    }

    #[inline]
    fn publish(&self) {
        self.view.min.set(self.fibers.min());
    }

    /// Take the earliest hardware event.
    #[inline]
    fn pop_event(&mut self) -> Option<(EventKey, Next<E>)> {
        let e = self.events.pop();
        self.view.hw.set(self.events.published());
        e.map(|(k, e)| (k, Next::Event(e)))
    }

    /// Schedule the resumption of fiber `id` (not pending) at `at`.
    #[inline]
    pub fn push_fiber(&mut self, at: Cycle, id: u32) {
        let key = EventKey::fiber(at, id).packed();
        debug_assert_eq!(self.view.keys[id as usize].get(), u128::MAX, "fiber {id} is already pending");
        self.view.keys[id as usize].set(key);
        self.fibers.push(at.0, id);
        if key < self.view.min.get() {
            self.view.min.set(key);
        }
    }

    /// Take the earliest entry.
    #[inline]
    pub fn pop(&mut self) -> Option<(EventKey, Next<E>)> {
        let f = self.view.min.get();
        if f < self.events.head_raw() {
            self.fibers.pop();
            let id = fiber_of(f);
            self.view.keys[id.0 as usize].set(u128::MAX);
            self.publish();
            return Some((EventKey::unpacked(f), Next::Resume(id)));
        }
        self.pop_event()
    }

    /// Schedule the resumption of fiber `id` (not pending) at `at` and take the earliest entry — without
    /// touching the pending set when this kernel is next.
    #[inline(always)]
    pub fn resume_pop(&mut self, at: Cycle, id: u32) -> (EventKey, Next<E>) {
        let key = EventKey::fiber(at, id).packed();
        let hw = self.events.head_raw();
        let first = self.view.min.get();
        if key < first && key < hw {
            return (EventKey::unpacked(key), Next::Resume(FiberId(id)));
        }
        if first < hw {
            // Another kernel is next: it leaves the pending set and this one enters it.
            self.fibers.pop();
            self.fibers.push(at.0, id);
            let next = fiber_of(first);
            self.view.keys[next.0 as usize].set(u128::MAX);
            self.view.keys[id as usize].set(key);
            self.publish();
            return (EventKey::unpacked(first), Next::Resume(next));
        }
        self.push_fiber(at, id);
        self.pop_event().expect("a pending event")
    }

    /// Put back an entry taken by [`Agenda::pop`] with its original key (a run paused at a window's end).
    pub fn restore(&mut self, key: EventKey, next: Next<E>) {
        match next {
            Next::Event(e) => {
                self.events.restore(key, e);
                self.view.hw.set(self.events.published());
            }
            Next::Resume(f) => self.push_fiber(key.at, f.0),
        }
    }

    /// The key of the earliest entry.
    /// The hardware event probably due next (see [`EventQueue::peek_near`]).
    #[inline]
    pub fn peek_event(&self) -> Option<&E> {
        self.events.peek_near()
    }

    pub fn head(&self) -> Option<EventKey> {
        let k = self.view.min.get().min(self.events.head_raw());
        (k != u128::MAX).then(|| EventKey::unpacked(k))
    }

    /// Make every kernel whose time reaches `at` suspend there (see [`EventQueue::set_horizon`]).
    pub fn set_horizon(&mut self, at: Option<Cycle>) {
        self.events.set_horizon(at);
        self.view.hw.set(self.events.published());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_cycle_then_hardware_then_fiber_id() {
        let mut a = Agenda::new(&[0, 0, 1, 1], 2, &[Cycles::ZERO; 4]);
        a.push_fiber(Cycle(5), 3);
        a.push(Cycle(5), "hw-a@5");
        a.push_fiber(Cycle(5), 1);
        a.push(Cycle(4), "hw@4");
        a.push(Cycle(5), "hw-b@5");
        let order: Vec<Next<&str>> = std::iter::from_fn(|| a.pop().map(|(_, p)| p)).collect();
        assert_eq!(
            order,
            vec![
                Next::Event("hw@4"),
                Next::Event("hw-a@5"),
                Next::Event("hw-b@5"),
                Next::Resume(FiberId(1)),
                Next::Resume(FiberId(3))
            ]
        );
        assert_eq!(a.head(), None);
    }

    #[test]
    fn pops_equal_a_sorted_map_of_the_same_keys() {
        // Fibers and hardware events mixed, each fiber pending at most once; every pop must be the
        // smallest key pending, and the tree's minimum must follow every change.
        let n = 37u32;
        let mut a: Agenda<u32> =
            Agenda::new(&(0..n).map(|i| i / 5).collect::<Vec<_>>(), n / 5 + 1, &vec![Cycles(0); n as usize]);
        let mut want = std::collections::BTreeMap::new();
        let mut pending = vec![false; n as usize];
        let mut x = 0x9E3779B97F4A7C15u64;
        let mut now = 0u64;
        let mut seq = 0u64;
        for i in 0..20000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let at = Cycle(now + (x >> 8) % 300);
            let f = (x >> 32) as u32 % n;
            if x & (1 << 40) != 0 && !pending[f as usize] {
                a.push_fiber(at, f);
                pending[f as usize] = true;
                want.insert(EventKey::fiber(at, f), Next::Resume(FiberId(f)));
            } else {
                a.push(at, i);
                want.insert(EventKey { at, order: seq }, Next::Event(i));
                seq += 1;
            }
            if x.is_multiple_of(3) {
                let (k, v) = a.pop().unwrap();
                assert_eq!((k, v), want.pop_first().unwrap());
                if let Next::Resume(f) = v {
                    pending[f.0 as usize] = false;
                }
                assert_eq!(a.head(), want.first_key_value().map(|(k, _)| *k));
                now = k.at.0;
            }
        }
        while let Some(kv) = a.pop() {
            assert_eq!(kv, want.pop_first().unwrap());
        }
        assert!(want.is_empty());
    }

    #[test]
    fn resume_pop_equals_push_then_pop() {
        // The same deterministic mix on two agendas; every resume_pop must return what push_fiber + pop
        // would, and leave the same state behind.
        let n = 50u32;
        let group: Vec<u32> = (0..n).collect();
        let mut a: Agenda<u32> = Agenda::new(&group, n, &vec![Cycles::ZERO; n as usize]);
        let mut b: Agenda<u32> = Agenda::new(&group, n, &vec![Cycles::ZERO; n as usize]);
        let mut running: Option<u32> = None;
        let mut idle: Vec<u32> = (0..n).rev().collect();
        let mut x = 12345u64;
        for i in 0..5000u32 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let at = Cycle((x >> 40) % 50 + i as u64 / 10);
            if x.is_multiple_of(3) {
                a.push(at, i);
                b.push(at, i);
            } else if x % 3 == 1 && !idle.is_empty() {
                let f = idle.pop().unwrap();
                a.push_fiber(at, f);
                b.push_fiber(at, f);
            } else if let Some(f) = running.take() {
                a.push_fiber(at, f);
                let want = a.pop().unwrap();
                let got = b.resume_pop(at, f);
                assert_eq!(got, want);
                if let Next::Resume(g) = got.1 {
                    running = Some(g.0);
                }
                assert_eq!(a.head(), b.head());
                assert_eq!(a.view.min.get(), b.view.min.get());
                assert!((0..n as usize).all(|k| a.view.keys[k].get() == b.view.keys[k].get()));
            } else {
                let want = a.pop();
                assert_eq!(b.pop(), want);
                if let Some((_, Next::Resume(g))) = want {
                    running = Some(g.0);
                }
            }
        }
    }

    #[test]
    fn lookahead_lets_only_local_calls_past_other_cores() {
        // Fibers 0,1 on core 0; fibers 2,3 on core 1; lookahead 10 (fiber 1 synchronises exactly).
        let mut a: Agenda<&str> = Agenda::new(&[0, 0, 1, 1], 2, &[Cycles(10), Cycles(0), Cycles(10), Cycles(10)]);
        let v = a.view();
        a.push_fiber(Cycle(100), 2); // another core, 100
        a.push_fiber(Cycle(200), 1); // the same core, later
        // Fiber 0 at 105: exact order says wait (fiber 2 is earlier), the lookahead says go on.
        assert!(!v.exact_ok(Cycle(105), 0));
        assert!(v.local_ok(Cycle(105), 0));
        assert_eq!(v.went_ahead(0), Cycle(105));
        // At 110 fiber 2 could reach this core before then: wait.
        assert!(!v.local_ok(Cycle(110), 0));
        assert!(v.local_ok(Cycle(109), 0));
        // A kernel of the same core pending before: wait.
        a.pop(); // fiber 2 resumes
        a.push_fiber(Cycle(150), 2);
        assert!(v.local_ok(Cycle(155), 0));
        assert!(!v.local_ok(Cycle(201), 0), "fiber 1 is pending at 200 on the same core");
        // A hardware event before: wait, whatever the lookahead.
        a.push(Cycle(152), "hw");
        assert!(!v.local_ok(Cycle(153), 0));
        assert!(v.local_ok(Cycle(151), 0));
        // Exact order where nothing is earlier.
        assert!(v.exact_ok(Cycle(149), 0));
        // A fiber without lookahead waits for every earlier kernel.
        assert!(!v.local_ok(Cycle(151), 1));
        // A hardware event touching core 0 before its kernels' furthest cycle is a broken bound.
        v.check_ahead(0, Cycle(155));
        let broken = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| v.check_ahead(0, Cycle(154))));
        assert!(broken.is_err());
        v.check_ahead(1, Cycle(0));
    }

    #[test]
    fn counter_calls_pass_kernels_and_hardware_events_with_lookahead_only() {
        // Fibers 0,1 on core 0 (lookahead 10), fiber 2 on core 1 without lookahead.
        let mut a: Agenda<&str> = Agenda::new(&[0, 0, 1], 2, &[Cycles(10), Cycles(10), Cycles(0)]);
        let v = a.view();
        a.push_fiber(Cycle(5), 1);
        a.push_fiber(Cycle(6), 2);
        // Past its own core's kernel and past another core's by more than the lookahead.
        assert!(!v.local_ok(Cycle(50), 0));
        assert!(v.counter_ahead_ok(0));
        // Past a hardware event too (none touches these counters), but never without lookahead.
        a.push(Cycle(40), "hw");
        assert!(v.counter_ahead_ok(0));
        assert!(!v.local_ok(Cycle(50), 0));
        assert!(!v.counter_ahead_ok(2));
        assert_eq!(v.went_ahead(0), Cycle(0), "a wait records nothing");
    }

    #[test]
    fn no_lookahead_is_exact_order() {
        let mut a: Agenda<&str> = Agenda::new(&[0, 1], 2, &[Cycles::ZERO; 2]);
        let v = a.view();
        a.push_fiber(Cycle(100), 1);
        assert!(!v.local_ok(Cycle(101), 0));
        assert!(v.local_ok(Cycle(100), 0), "fiber 0 sorts before fiber 1 at the same cycle");
        assert_eq!(v.went_ahead(0), Cycle(0));
    }
}
