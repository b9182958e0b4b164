//! The event queue: a min-heap of `(cycle, order)` keys. Hardware events get increasing sequence numbers as
//! their order (so equal-cycle events run in the order they were scheduled); packets from other chips use
//! `ARRIVAL_ORDER | channel | link sequence`, after the hardware events of their cycle whenever they were
//! delivered (so the mesh runner's window lengths cannot change a result). Kernel resumptions are kept
//! apart (see [`crate::agenda`]) under keys `FIBER_ORDER | fiber id`, which sort after every event of the
//! same cycle and between kernels by their fixed id.

use crate::time::Cycle;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Order bit marking kernel (fiber) resumptions.
pub const FIBER_ORDER: u64 = 1 << 63;

/// Order bit marking packets from other chips.
pub const ARRIVAL_ORDER: u64 = 1 << 62;

/// The position of an event in global simulated order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EventKey {
    /// When.
    pub at: Cycle,
    /// Tie-break among events at the same cycle.
    pub order: u64,
}

impl EventKey {
    /// The key of fiber `id` resuming at `at`.
    pub fn fiber(at: Cycle, id: u32) -> EventKey {
        EventKey { at, order: FIBER_ORDER | id as u64 }
    }
}

#[derive(Debug, Clone)]
struct Entry<E> {
    /// `(at << 64) | order`: one integer comparison orders entries.
    key: u128,
    payload: E,
}

impl<E> Entry<E> {
    /// The entry's cycle.
    fn cycle(&self) -> u64 {
        (self.key >> 64) as u64
    }
}

impl EventKey {
    /// The key as one number that orders like the key (cycle in the high 64 bits, order in the low).
    pub fn packed(self) -> u128 {
        ((self.at.0 as u128) << 64) | self.order as u128
    }

    /// The key [`EventKey::packed`] made `k` from.
    #[inline]
    pub fn unpacked(k: u128) -> EventKey {
        EventKey { at: Cycle((k >> 64) as u64), order: k as u64 }
    }
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, o: &Self) -> bool {
        self.key == o.key
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<E> Ord for Entry<E> {
    fn cmp(&self, o: &Self) -> Ordering {
        o.key.cmp(&self.key) // reversed: BinaryHeap is a max-heap
    }
}

/// Pending events past the current block of cycles (see [`EventQueue`]).
#[derive(Debug, Clone)]
struct Far<E> {
    /// The earliest cycle of the current block when the far events were last sorted into buckets.
    last: u64,
    /// `buckets[i]`: entries whose cycle, in a later block than `last`, differs from `last` first in bit
    /// `i` (`i >= NOW_BITS`).
    buckets: Vec<Vec<Entry<E>>>,
    /// Bit `i` set: `buckets[i]` is not empty.
    full: u64,
    /// Entries in the buckets.
    count: usize,
}

/// A block of `2^NOW_BITS` cycles is kept cycle by cycle while later events wait in buckets.
const NOW_BITS: u32 = 8;
const SLOTS: usize = 1 << NOW_BITS;

fn block(at: u64) -> u64 {
    at >> NOW_BITS
}

impl<E> Far<E> {
    fn put(&mut self, e: Entry<E>) {
        let i = 63 - (e.cycle() ^ self.last).leading_zeros();
        self.buckets[i as usize].push(e);
        self.full |= 1 << i;
        self.count += 1;
    }

    /// Move the lowest bucket's earliest block into `near` (which is empty), the rest to lower buckets.
    #[inline(never)]
    fn refill(&mut self, near: &mut Wheel<E>) {
        if self.full == 0 {
            return;
        }
        let i = self.full.trailing_zeros() as usize;
        self.full &= !(1 << i);
        let mut bucket = std::mem::take(&mut self.buckets[i]);
        self.count -= bucket.len();
        self.last = bucket.iter().map(Entry::cycle).min().expect("a full bucket");
        near.base = block(self.last) << NOW_BITS;
        for e in bucket.drain(..) {
            if block(e.cycle()) == block(self.last) {
                near.push(e);
            } else {
                self.put(e);
            }
        }
        self.buckets[i] = bucket; // keep the allocation
    }
}

/// The current block of cycles, one FIFO per cycle kept in key order (events are almost always scheduled
/// in key order within a cycle, so a push is an append), and a bit per non-empty cycle.
#[derive(Debug, Clone)]
struct Wheel<E> {
    /// The block's first cycle.
    base: u64,
    slots: Box<[std::collections::VecDeque<Entry<E>>]>,
    /// Bit `s` of word `s / 64`: `slots[s]` is not empty.
    bits: [u64; SLOTS / 64],
    /// The lowest non-empty slot (meaningless when `count == 0`).
    cur: usize,
    count: usize,
}

impl<E> Wheel<E> {
    fn new() -> Wheel<E> {
        Wheel {
            base: 0,
            slots: (0..SLOTS).map(|_| std::collections::VecDeque::new()).collect(),
            bits: [0; SLOTS / 64],
            cur: 0,
            count: 0,
        }
    }

    /// Add `e`, whose cycle is in the block.
    #[inline]
    fn push(&mut self, e: Entry<E>) {
        let s = (e.cycle() - self.base) as usize;
        debug_assert!(s < SLOTS);
        let q = &mut self.slots[s];
        match q.back() {
            Some(b) if b.key > e.key => {
                let i = q.partition_point(|x| x.key < e.key);
                q.insert(i, e);
            }
            _ => q.push_back(e),
        }
        self.bits[s / 64] |= 1 << (s % 64);
        if self.count == 0 || s < self.cur {
            self.cur = s;
        }
        self.count += 1;
    }

    /// The earliest entry's key.
    #[inline]
    fn head(&self) -> u128 {
        if self.count == 0 { u128::MAX } else { self.slots[self.cur].front().expect("the lowest slot").key }
    }

    #[inline]
    fn pop(&mut self) -> Option<Entry<E>> {
        if self.count == 0 {
            return None;
        }
        let c = self.cur;
        let e = self.slots[c].pop_front().expect("the lowest slot");
        self.count -= 1;
        if self.slots[c].is_empty() {
            self.bits[c / 64] &= !(1 << (c % 64));
            if self.count > 0 {
                self.cur = self.next_from(c);
            }
        }
        Some(e)
    }

    /// The first non-empty slot at or after `s` (one exists).
    #[inline]
    fn next_from(&self, s: usize) -> usize {
        let mut w = s / 64;
        let mut m = self.bits[w] & (!0u64 << (s % 64));
        while m == 0 {
            w += 1;
            m = self.bits[w];
        }
        w * 64 + m.trailing_zeros() as usize
    }
}

/// A deterministic priority queue of events.
///
/// A busy chip keeps tens of thousands of events pending, most of them far ahead (packets landing,
/// acknowledgements coming back). The queue keeps the current block of `2^NOW_BITS` cycles in a wheel of
/// per-cycle FIFOs (push and pop in constant time) and the rest in buckets by the highest bit in which their
/// cycle differs from the block's (a radix queue), appended to and moved down a few times each, until their
/// block comes. An event scheduled before the current block (after the queue jumped ahead to the next
/// pending block) waits in a small heap of its own. Every pop is the smallest key pending.
#[derive(Debug, Clone)]
pub struct EventQueue<E> {
    near: Wheel<E>,
    far: Far<E>,
    /// Events before the current block.
    early: BinaryHeap<Entry<E>>,
    seq: u64,
    /// The earliest event's packed key as published to kernels (`u128::MAX`: none), kept after every
    /// change; see `horizon`.
    published: u128,
    /// The published head never reads later than this (packed key; `u128::MAX` when unset): a run in
    /// time windows makes every kernel that reaches the window's end suspend there, since events from
    /// other chips may still arrive for later times.
    horizon: u128,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            near: Wheel::new(),
            far: Far { last: 0, buckets: (0..64).map(|_| Vec::new()).collect(), full: 0, count: 0 },
            early: BinaryHeap::new(),
            seq: 0,
            published: u128::MAX,
            horizon: u128::MAX,
        }
    }
}

impl<E> EventQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Schedule a hardware event at `at` (after every event already scheduled at the same cycle).
    pub fn push(&mut self, at: Cycle, payload: E) {
        let key = EventKey { at, order: self.seq };
        self.seq += 1;
        debug_assert!(self.seq < ARRIVAL_ORDER);
        self.insert(key.packed(), payload);
    }

    /// Schedule the landing of a packet from another chip: the `seq`-th sent on the link into receiving
    /// `channel`. Its place among the events of cycle `at` does not depend on when it was handed over.
    pub fn push_arrival(&mut self, at: Cycle, channel: u32, seq: u64, payload: E) {
        debug_assert!(channel < 1 << 20 && seq < 1 << 40);
        let order = ARRIVAL_ORDER | (channel as u64) << 40 | seq;
        self.insert(EventKey { at, order }.packed(), payload);
    }

    /// Put back an entry taken by [`EventQueue::pop`] with its original key: a run paused at a window's
    /// end returns the entry it took, so events that arrive from other chips before it still come first.
    pub fn restore(&mut self, key: EventKey, payload: E) {
        self.insert(key.packed(), payload);
    }

    #[inline]
    fn insert(&mut self, key: u128, payload: E) {
        let e = Entry { key, payload };
        let at = e.cycle();
        if block(at) == block(self.near.base) {
            self.near.push(e);
        } else if at > self.near.base {
            self.far.put(e);
            if self.near.count == 0 && self.early.is_empty() {
                self.far.refill(&mut self.near);
            }
        } else if self.is_empty() {
            // An empty queue starts its block anywhere.
            self.far.last = at;
            self.near.base = block(at) << NOW_BITS;
            self.near.push(e);
        } else {
            self.early.push(e);
        }
        if key < self.published {
            self.published = key;
        }
    }

    /// Take the earliest entry; refill the wheel from the buckets when nothing is left before them.
    #[inline]
    fn take(&mut self) -> Option<Entry<E>> {
        let e = if self.early.peek().is_some_and(|x| x.key < self.near.head()) {
            self.early.pop()
        } else {
            self.near.pop()
        };
        if self.near.count == 0 && self.early.is_empty() {
            self.far.refill(&mut self.near);
        }
        e
    }

    /// Take the earliest event.
    pub fn pop(&mut self) -> Option<(EventKey, E)> {
        let e = self.take()?;
        self.publish();
        Some((EventKey::unpacked(e.key), e.payload))
    }

    fn publish(&mut self) {
        self.published = self.head_raw().min(self.horizon);
    }

    /// Make every kernel whose time reaches `at` suspend there (see the `horizon` field); `None` lifts it.
    pub fn set_horizon(&mut self, at: Option<Cycle>) {
        self.horizon = at.map_or(u128::MAX, |at| EventKey { at, order: 0 }.packed());
        self.publish();
    }

    /// The packed key of the earliest event as published: never later than the horizon.
    #[inline]
    pub(crate) fn published(&self) -> u128 {
        self.published
    }

    /// The packed key of the earliest event (`u128::MAX`: none), whatever the horizon.
    #[inline]
    pub(crate) fn head_raw(&self) -> u128 {
        let n = self.near.head();
        match self.early.peek() {
            Some(e) if e.key < n => e.key,
            _ => n,
        }
    }

    /// The earliest event of the current block, if any (a hint for prefetching: an event before the
    /// block may come first).
    #[inline]
    pub fn peek_near(&self) -> Option<&E> {
        if self.near.count == 0 { None } else { self.near.slots[self.near.cur].front().map(|e| &e.payload) }
    }

    /// The key of the earliest event.
    pub fn head(&self) -> Option<EventKey> {
        let k = self.head_raw();
        (k != u128::MAX).then(|| EventKey::unpacked(k))
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.near.count + self.early.len() + self.far.count
    }

    /// Whether nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_cycle_then_schedule_then_arrivals() {
        let mut q = EventQueue::new();
        q.push_arrival(Cycle(5), 1, 0, "eth@5");
        q.push(Cycle(5), "hw-a@5");
        q.push(Cycle(4), "hw@4");
        q.push(Cycle(5), "hw-b@5");
        let order: Vec<&str> = std::iter::from_fn(|| q.pop().map(|(_, p)| p)).collect();
        assert_eq!(order, vec!["hw@4", "hw-a@5", "hw-b@5", "eth@5"]);
        // The published head follows every change, and never reads later than the horizon.
        assert_eq!(q.published(), u128::MAX);
        q.push(Cycle(9), "x");
        q.push(Cycle(3), "y");
        assert_eq!(q.published(), EventKey { at: Cycle(3), order: 4 }.packed());
        q.pop();
        assert_eq!(q.published(), q.head_raw());
        q.set_horizon(Some(Cycle(7)));
        assert_eq!(q.published(), EventKey { at: Cycle(7), order: 0 }.packed());
        assert_eq!(q.head().map(|k| k.at), Some(Cycle(9)));
    }

    #[test]
    fn an_event_scheduled_before_the_current_block_comes_first() {
        // Popping the last event of a block moves the queue on to the next pending block (here 10_000);
        // the handler of the popped event then schedules events before that block, at its own time and
        // at the same cycle in order, and one inside the block.
        let mut q = EventQueue::new();
        q.push(Cycle(100), "a@100");
        q.push(Cycle(10_000), "z@10000");
        assert_eq!(q.pop().map(|(_, p)| p), Some("a@100"));
        q.push(Cycle(150), "b@150");
        q.push(Cycle(10_001), "y@10001");
        q.push(Cycle(100), "c@100");
        q.push(Cycle(150), "d@150");
        assert_eq!(q.head().map(|k| k.at), Some(Cycle(100)));
        let order: Vec<&str> = std::iter::from_fn(|| q.pop().map(|(_, p)| p)).collect();
        assert_eq!(order, vec!["c@100", "b@150", "d@150", "z@10000", "y@10001"]);
        assert!(q.is_empty());
    }

    #[test]
    fn a_restored_entry_keeps_its_place() {
        // A window pauses after taking the entry at 9; a packet from another chip then lands at 7: it must
        // come first, and the restored entry keeps its order among equal-time events.
        let mut q = EventQueue::new();
        q.push(Cycle(9), "a@9");
        q.push(Cycle(9), "b@9");
        let (k, p) = q.pop().unwrap();
        assert_eq!(p, "a@9");
        q.restore(k, p);
        q.push(Cycle(7), "eth@7");
        let order: Vec<&str> = std::iter::from_fn(|| q.pop().map(|(_, p)| p)).collect();
        assert_eq!(order, vec!["eth@7", "a@9", "b@9"]);
    }

    #[test]
    fn events_far_apart_come_out_in_key_order() {
        // A simulation's pattern: time only moves forward, events are scheduled from the current cycle to
        // a million cycles ahead, scheduled events and arrivals mixed; every pop must be the smallest key
        // pending, as a sorted map of the same keys says.
        let mut q = EventQueue::new();
        let mut want = std::collections::BTreeMap::new();
        let mut x = 0x9E3779B97F4A7C15u64;
        let mut now = 0u64;
        let mut far = false;
        for i in 0..20000u32 {
            far |= q.far.count > 0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let ahead = match x % 4 {
                0 => 0,
                1 => (x >> 8) % 64,
                2 => (x >> 8) % 4096,
                _ => (x >> 8) % (1 << 20),
            };
            let at = Cycle(now + ahead);
            if x & (1 << 40) != 0 {
                q.push_arrival(at, i % 7, i as u64, i);
                want.insert(EventKey { at, order: ARRIVAL_ORDER | ((i % 7) as u64) << 40 | i as u64 }, i);
            } else {
                q.push(at, i);
                want.insert(EventKey { at, order: q.seq - 1 }, i);
            }
            if x.is_multiple_of(3) {
                let (k, v) = q.pop().unwrap();
                assert_eq!((k, v), want.pop_first().unwrap());
                assert_eq!(q.head(), want.first_key_value().map(|(k, _)| *k));
                now = k.at.0;
            }
        }
        while let Some((k, v)) = q.pop() {
            assert_eq!((k, v), want.pop_first().unwrap());
        }
        assert!(want.is_empty() && q.is_empty());
        assert!(far, "far events waited in buckets");
    }
}
