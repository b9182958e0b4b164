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
    pub(crate) fn packed(self) -> u128 {
        ((self.at.0 as u128) << 64) | self.order as u128
    }

    pub(crate) fn unpacked(k: u128) -> EventKey {
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

/// Pending events past the current block of cycles, once the queue is large (see [`EventQueue`]).
struct Far<E> {
    /// The earliest cycle of the heap's block when the far events were last sorted into buckets.
    last: u64,
    /// `buckets[i]`: entries whose cycle, in a later block than `last`, differs from `last` first in bit
    /// `i` (`i >= NOW_BITS`).
    buckets: Vec<Vec<Entry<E>>>,
    /// Bit `i` set: `buckets[i]` is not empty.
    full: u64,
    /// Entries in the buckets.
    count: usize,
}

/// The queue keeps far events in buckets from this many pending events on...
const FAR_FROM: usize = 4096;
/// ...and goes back to one heap below this many.
const FAR_UNTIL: usize = 1024;
/// A block of `2^NOW_BITS` cycles stays in the heap while far events wait in buckets.
const NOW_BITS: u32 = 8;

impl<E> Far<E> {
    fn block(at: u64) -> u64 {
        at >> NOW_BITS
    }

    /// Whether an entry at `at` belongs in the heap: in the current block or before it.
    fn near(&self, at: u64) -> bool {
        Self::block(at) <= Self::block(self.last)
    }

    fn put(&mut self, e: Entry<E>) {
        let i = 63 - (e.cycle() ^ self.last).leading_zeros();
        self.buckets[i as usize].push(e);
        self.full |= 1 << i;
        self.count += 1;
    }

    /// Move the lowest bucket's earliest block into `heap` (which is empty), the rest to lower buckets.
    #[inline(never)]
    fn refill(&mut self, heap: &mut BinaryHeap<Entry<E>>) {
        if self.full == 0 {
            return;
        }
        let i = self.full.trailing_zeros() as usize;
        self.full &= !(1 << i);
        let mut bucket = std::mem::take(&mut self.buckets[i]);
        self.count -= bucket.len();
        self.last = bucket.iter().map(Entry::cycle).min().expect("a full bucket");
        for e in bucket.drain(..) {
            if self.near(e.cycle()) {
                heap.push(e);
            } else {
                self.put(e);
            }
        }
        self.buckets[i] = bucket; // keep the allocation
    }
}

/// A deterministic priority queue of events.
///
/// A binary heap on the whole key. A busy chip keeps tens of thousands of events pending, most of them far
/// ahead (packets landing, acknowledgements coming back); from [`FAR_FROM`] pending events on, the heap keeps
/// only the current block of cycles and the rest wait in buckets by the highest bit in which their cycle
/// differs from the block's (a radix queue), appended to and moved down a few times each, until their
/// block comes. The heap's top is always the earliest entry, so the order is the heap's alone.
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    far: Option<Box<Far<E>>>,
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
        EventQueue { heap: BinaryHeap::new(), far: None, seq: 0, published: u128::MAX, horizon: u128::MAX }
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
        if let Some(far) = &mut self.far {
            Self::insert_far(far, &mut self.heap, e);
        } else {
            self.heap.push(e);
            if self.heap.len() >= FAR_FROM {
                self.start_far();
            }
        }
        if key < self.published {
            self.published = key;
        }
    }

    #[inline(never)]
    fn insert_far(far: &mut Far<E>, heap: &mut BinaryHeap<Entry<E>>, e: Entry<E>) {
        if far.near(e.cycle()) {
            heap.push(e);
        } else {
            far.put(e);
            if heap.is_empty() {
                far.refill(heap);
            }
        }
    }

    /// Sort the events past the heap's first block into buckets.
    #[cold]
    #[inline(never)]
    fn start_far(&mut self) {
        let last = self.heap.peek().expect("a full heap").cycle();
        let mut far = Far { last, buckets: (0..64).map(|_| Vec::new()).collect(), full: 0, count: 0 };
        let mut near = Vec::new();
        for e in std::mem::take(&mut self.heap).into_vec() {
            if far.near(e.cycle()) {
                near.push(e);
            } else {
                far.put(e);
            }
        }
        self.heap = BinaryHeap::from(near);
        self.far = Some(Box::new(far));
    }

    /// Take the earliest entry, keeping the heap's top the earliest of all.
    #[inline]
    fn take(&mut self) -> Option<Entry<E>> {
        let e = self.heap.pop()?;
        if self.far.is_some() {
            self.after_take_far();
        }
        Some(e)
    }

    /// After an entry was taken in far mode: refill an empty heap, and go back to one heap when small.
    #[inline(never)]
    fn after_take_far(&mut self) {
        let far = self.far.as_mut().expect("far mode");
        if self.heap.is_empty() {
            far.refill(&mut self.heap);
        }
        if self.heap.len() + far.count < FAR_UNTIL {
            for b in &mut far.buckets {
                self.heap.extend(b.drain(..));
            }
            self.far = None;
        }
    }

    /// Take the earliest event.
    pub fn pop(&mut self) -> Option<(EventKey, E)> {
        let e = self.take()?;
        self.publish();
        Some((EventKey::unpacked(e.key), e.payload))
    }

    fn publish(&mut self) {
        self.published = self.heap.peek().map_or(u128::MAX, |n| n.key).min(self.horizon);
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
        self.heap.peek().map_or(u128::MAX, |e| e.key)
    }

    /// The key of the earliest event.
    pub fn head(&self) -> Option<EventKey> {
        self.heap.peek().map(|e| EventKey::unpacked(e.key))
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.heap.len() + self.far.as_ref().map_or(0, |f| f.count)
    }

    /// Whether nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
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
            far |= q.far.is_some();
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
        assert!(far, "the queue grew past FAR_FROM and kept far events in buckets");
        assert!(q.far.is_none(), "and went back to one heap as it emptied");
    }
}
