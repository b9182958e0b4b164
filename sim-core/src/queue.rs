//! The event queue: entries keyed by `(cycle, order)`. Hardware events get increasing sequence numbers as
//! their order (so equal-cycle events run in the order they were scheduled); kernel resumptions use
//! `FIBER_ORDER | fiber id`, which sorts after every hardware event of the same cycle and between kernels by
//! their fixed id.
//!
//! Simulated time never goes backwards, so the queue is a radix heap over the packed 128-bit key: an entry
//! sits in the bucket of the highest bit in which its key differs from the last key popped, pushes cost
//! O(1), and a pop redistributes one bucket (each entry moves a few times at most over its life). A key
//! below the last popped one — an event scheduled at the current cycle by the kernel that is running —
//! is taken as equal to it: it runs next, in the order such entries were pushed, exactly where a plain
//! priority queue would run it.

use crate::time::Cycle;
use std::cell::Cell;
use std::collections::VecDeque;

/// Order bit marking kernel (fiber) resumptions.
pub const FIBER_ORDER: u64 = 1 << 63;

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

    fn packed(self) -> u128 {
        ((self.at.0 as u128) << 64) | self.order as u128
    }

    fn unpacked(k: u128) -> EventKey {
        EventKey { at: Cycle((k >> 64) as u64), order: k as u64 }
    }
}

/// Buckets: 0 holds keys equal to the last popped key; bucket `b` > 0 keys whose highest bit differing
/// from it is bit `b - 1`.
const BUCKETS: usize = 129;

/// A deterministic priority queue of events.
pub struct EventQueue<E> {
    /// Entries equal to `last`, in push order.
    equal: VecDeque<(u128, E)>,
    buckets: Vec<Vec<(u128, E)>>,
    /// Bit `b` set when bucket `b` (1..=128) is not empty; bucket 0 is never used (see `equal`).
    occupied: [u64; 3],
    /// The last key popped (the radix base).
    last: u128,
    /// Smallest key in `buckets`, when known (a cache `head` fills).
    min: Cell<Option<u128>>,
    len: usize,
    seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            equal: VecDeque::new(),
            buckets: (0..BUCKETS).map(|_| Vec::new()).collect(),
            occupied: [0; 3],
            last: 0,
            min: Cell::new(None),
            len: 0,
            seq: 0,
        }
    }
}

fn bucket(key: u128, last: u128) -> usize {
    (128 - (key ^ last).leading_zeros()) as usize
}

impl<E> EventQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    fn insert(&mut self, key: u128, payload: E) {
        self.len += 1;
        if key <= self.last {
            self.equal.push_back((self.last, payload));
            return;
        }
        let b = bucket(key, self.last);
        self.buckets[b].push((key, payload));
        self.occupied[b / 64] |= 1 << (b % 64);
        if self.min.get().is_some_and(|m| key < m) {
            self.min.set(Some(key));
        }
    }

    /// Schedule a hardware event at `at` (after every event already scheduled at the same cycle).
    pub fn push(&mut self, at: Cycle, payload: E) {
        let key = EventKey { at, order: self.seq };
        self.seq += 1;
        debug_assert!(self.seq < FIBER_ORDER);
        self.insert(key.packed(), payload);
    }

    /// Schedule the resumption of fiber `id` at `at`.
    pub fn push_fiber(&mut self, at: Cycle, id: u32, payload: E) {
        self.insert(EventKey::fiber(at, id).packed(), payload);
    }

    /// The first non-empty bucket.
    fn first_bucket(&self) -> Option<usize> {
        (0..3).find(|&w| self.occupied[w] != 0).map(|w| w * 64 + self.occupied[w].trailing_zeros() as usize)
    }

    /// The smallest key outside `equal` (computed and cached).
    fn bucket_min(&self) -> Option<u128> {
        if self.min.get().is_none() {
            let b = self.first_bucket()?;
            self.min.set(self.buckets[b].iter().map(|e| e.0).min());
        }
        self.min.get()
    }

    /// Take the earliest event.
    pub fn pop(&mut self) -> Option<(EventKey, E)> {
        if let Some((k, p)) = self.equal.pop_front() {
            self.len -= 1;
            return Some((EventKey::unpacked(k), p));
        }
        let b = self.first_bucket()?;
        self.occupied[b / 64] &= !(1 << (b % 64));
        // The new base is the smallest key of the first non-empty bucket; its entries all land in lower
        // buckets relative to it (or in `equal`).
        let entries = std::mem::take(&mut self.buckets[b]);
        let new_last = entries.iter().map(|e| e.0).min().expect("non-empty bucket");
        self.last = new_last;
        self.min.set(None);
        let mut spare = entries;
        for (k, p) in spare.drain(..) {
            if k == new_last {
                self.equal.push_back((k, p));
            } else {
                let nb = bucket(k, new_last);
                self.buckets[nb].push((k, p));
                self.occupied[nb / 64] |= 1 << (nb % 64);
            }
        }
        // Give the emptied allocation back to its bucket.
        if self.buckets[b].is_empty() {
            self.buckets[b] = spare;
        }
        let (k, p) = self.equal.pop_front().expect("the minimum moved to `equal`");
        self.len -= 1;
        Some((EventKey::unpacked(k), p))
    }

    /// The key of the earliest event.
    pub fn head(&self) -> Option<EventKey> {
        if let Some((k, _)) = self.equal.front() {
            return Some(EventKey::unpacked(*k));
        }
        self.bucket_min().map(EventKey::unpacked)
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_cycle_then_hardware_then_fiber_id() {
        let mut q = EventQueue::new();
        q.push_fiber(Cycle(5), 3, "fiber3@5");
        q.push(Cycle(5), "hw-a@5");
        q.push_fiber(Cycle(5), 1, "fiber1@5");
        q.push(Cycle(4), "hw@4");
        q.push(Cycle(5), "hw-b@5");
        let order: Vec<&str> = std::iter::from_fn(|| q.pop().map(|(_, p)| p)).collect();
        assert_eq!(order, vec!["hw@4", "hw-a@5", "hw-b@5", "fiber1@5", "fiber3@5"]);
    }

    #[test]
    fn an_event_scheduled_now_by_the_running_kernel_runs_next_in_push_order() {
        let mut q = EventQueue::new();
        q.push_fiber(Cycle(10), 0, "k0");
        q.push_fiber(Cycle(10), 1, "k1");
        q.push(Cycle(11), "later");
        assert_eq!(q.pop().unwrap().1, "k0");
        // Kernel 0, running at cycle 10, schedules two events at cycle 10.
        q.push(Cycle(10), "now-a");
        q.push(Cycle(10), "now-b");
        assert_eq!(q.head(), Some(EventKey::fiber(Cycle(10), 0)), "reported at the running kernel's key");
        let order: Vec<&str> = std::iter::from_fn(|| q.pop().map(|(_, p)| p)).collect();
        assert_eq!(order, vec!["now-a", "now-b", "k1", "later"]);
    }

    #[test]
    fn matches_a_sorted_reference_on_random_monotone_schedules() {
        // A simple deterministic generator: keys pushed are never below the last popped key's cycle.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let mut q = EventQueue::new();
        let mut reference: Vec<(EventKey, u32)> = Vec::new();
        let mut now = 0u64;
        let mut id = 0u32;
        for _ in 0..20_000 {
            if rnd(3) > 0 || reference.is_empty() {
                let at = Cycle(now + 1 + rnd(1000));
                if rnd(2) == 0 {
                    q.push(at, id);
                } else {
                    q.push_fiber(at, id, id);
                }
                reference.push((EventKey { at, order: 0 }, id));
                id += 1;
            } else {
                assert_eq!(q.head().map(|k| k.at), reference.iter().map(|r| r.0.at).min());
                let (k, p) = q.pop().unwrap();
                let i = reference.iter().position(|r| r.1 == p).unwrap();
                let (rk, _) = reference.swap_remove(i);
                assert_eq!(k.at, rk.at);
                assert!(reference.iter().all(|r| r.0.at >= k.at), "popped the earliest cycle");
                now = k.at.0;
            }
        }
        assert_eq!(q.len(), reference.len());
    }
}
