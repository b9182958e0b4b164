//! The pending kernel resumptions: a set of fiber keys `(cycle, FIBER_ORDER | id)`, each fiber pending at
//! most once, that always knows its smallest key. Kernels resume mostly a few cycles after the current
//! one, so the keys of the [`WINDOW`] cycles from the last one taken sit in a wheel (a ring indexed by the
//! cycle modulo the window): one bit per fiber per cycle, and one bit per cycle saying whether any fiber is
//! pending then. Taking the smallest key is a scan for the next set bit, and adding one sets two bits: no
//! comparisons of keys and no data-dependent branches, where a binary heap of 128-bit keys sifts through
//! its levels (the scheduler bench spent a sixth of its instructions and most of its branch
//! mispredictions there). Keys outside the window, later or (never in practice) earlier, wait in a binary
//! heap and move into the wheel as the window reaches them. The set behaves exactly like a sorted set of
//! its keys (a randomized test compares).

use crate::queue::FIBER_ORDER;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Cycles the wheel covers (a power of two).
pub const WINDOW: u64 = 256;
const SLOT_WORDS: usize = (WINDOW / 64) as usize;

/// Pending resumption keys of fibers `0..fibers`.
#[derive(Debug)]
pub struct Resumptions {
    /// The wheel holds the keys of cycles `base..base + WINDOW` (none earlier is in it).
    base: u64,
    /// Words of fiber bits per cycle.
    words: usize,
    /// `bits[slot * words + id / 64]` bit `id % 64`: fiber `id` is pending at the cycle of `slot`
    /// (`cycle % WINDOW`).
    bits: Box<[u64]>,
    /// Bit `slot % 64` of word `slot / 64`: some fiber is pending at the cycle of `slot`.
    busy: [u64; SLOT_WORDS],
    /// Keys outside the window.
    far: BinaryHeap<Reverse<u128>>,
    /// The smallest key in the wheel (`u128::MAX`: none).
    wheel_min: u128,
}

fn key_of(cycle: u64, id: u32) -> u128 {
    ((cycle as u128) << 64) | (FIBER_ORDER | id as u64) as u128
}

fn cycle_of(key: u128) -> u64 {
    (key >> 64) as u64
}

fn id_of(key: u128) -> u32 {
    (key as u64 & !FIBER_ORDER) as u32
}

impl Resumptions {
    /// An empty set for fibers `0..fibers`.
    pub fn new(fibers: usize) -> Resumptions {
        let words = fibers.div_ceil(64).max(1);
        Resumptions {
            base: 0,
            words,
            bits: vec![0; words * WINDOW as usize].into_boxed_slice(),
            busy: [0; SLOT_WORDS],
            far: BinaryHeap::new(),
            wheel_min: u128::MAX,
        }
    }

    /// The smallest key (`u128::MAX`: none).
    #[inline]
    pub fn min(&self) -> u128 {
        self.wheel_min.min(self.far_min())
    }

    #[inline]
    fn far_min(&self) -> u128 {
        self.far.peek().map_or(u128::MAX, |k| k.0)
    }

    /// Add the key of fiber `id` resuming at `cycle` (the fiber is not pending).
    #[inline]
    pub fn push(&mut self, cycle: u64, id: u32) {
        if self.wheel_min == u128::MAX {
            // The wheel is empty: its window may start anywhere.
            self.base = cycle;
        }
        if cycle.wrapping_sub(self.base) >= WINDOW {
            self.far.push(Reverse(key_of(cycle, id)));
            return;
        }
        self.set(cycle, id);
    }

    #[inline]
    fn set(&mut self, cycle: u64, id: u32) {
        let slot = (cycle % WINDOW) as usize;
        self.bits[slot * self.words + id as usize / 64] |= 1 << (id % 64);
        self.busy[slot / 64] |= 1 << (slot % 64);
        self.wheel_min = self.wheel_min.min(key_of(cycle, id));
    }

    /// Remove and return the smallest key, if any.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<u128> {
        let far = self.far_min();
        if far < self.wheel_min {
            self.far.pop();
            return Some(far);
        }
        if self.wheel_min == u128::MAX {
            return None;
        }
        let key = self.wheel_min;
        let (cycle, id) = (cycle_of(key), id_of(key) as usize);
        // Every key left is at or after this one: the window moves up to it.
        self.base = cycle;
        let slot = (cycle % WINDOW) as usize;
        let row = slot * self.words;
        self.bits[row + id / 64] &= !(1 << (id % 64));
        // The next fiber of the same cycle, if any (those before `id` are not pending: it was the first).
        self.wheel_min = match (id / 64..self.words).find(|&w| self.bits[row + w] != 0) {
            Some(w) => key_of(cycle, (w * 64) as u32 + self.bits[row + w].trailing_zeros()),
            None => {
                self.busy[slot / 64] &= !(1 << (slot % 64));
                self.next_in_wheel(slot)
            }
        };
        if far != u128::MAX && cycle_of(far) - cycle < WINDOW {
            self.pull_in();
        }
        Some(key)
    }

    /// The smallest key in the wheel, whose keys all lie in `base..base + WINDOW`, `slot` being the
    /// slot of `base`: the first busy slot in ring order from `slot`. (Out of line: most pops find the
    /// next key in the same cycle.)
    #[inline(never)]
    fn next_in_wheel(&self, slot: usize) -> u128 {
        let w0 = slot / 64;
        let mut word = self.busy[w0] & (!0u64 << (slot % 64));
        let mut w = w0;
        for step in 0..=SLOT_WORDS {
            if word != 0 {
                let s = w * 64 + word.trailing_zeros() as usize;
                let row = s * self.words;
                let i = (0..self.words).find(|&i| self.bits[row + i] != 0).expect("a busy slot has a fiber");
                let cycle = self.base + ((s + WINDOW as usize - slot) % WINDOW as usize) as u64;
                return key_of(cycle, (i * 64) as u32 + self.bits[row + i].trailing_zeros());
            }
            if step == SLOT_WORDS {
                break;
            }
            w = (w + 1) % SLOT_WORDS;
            // Back at the first word: only the slots before `slot` (the window's last cycles) are left.
            word = if w == w0 { self.busy[w] & !(!0u64 << (slot % 64)) } else { self.busy[w] };
        }
        u128::MAX
    }

    /// Move the heap's keys that the window now reaches into the wheel.
    #[cold]
    fn pull_in(&mut self) {
        while let Some(&Reverse(k)) = self.far.peek() {
            if cycle_of(k).wrapping_sub(self.base) >= WINDOW {
                break;
            }
            self.far.pop();
            self.set(cycle_of(k), id_of(k));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn behaves_as_a_sorted_set_of_keys() {
        // Fibers resume near now, far ahead (the heap), and now and then before the window (as a late
        // push would); every pop and every minimum must be the sorted set's.
        for fibers in [1usize, 5, 64, 65, 200] {
            let mut r = Resumptions::new(fibers);
            let mut want = BTreeSet::new();
            let mut pending = vec![false; fibers];
            let mut x = 0x2545F4914F6CDD1Du64 ^ fibers as u64;
            let mut now = 0u64;
            for _ in 0..40_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let id = (x >> 20) as usize % fibers;
                if !pending[id] && x & 3 != 0 {
                    let cycle = match (x >> 8) % 16 {
                        0 => now + 200 + (x >> 30) % 5000,
                        1 => now.saturating_sub((x >> 30) % 300),
                        _ => now + (x >> 30) % 40,
                    };
                    r.push(cycle, id as u32);
                    want.insert(key_of(cycle, id as u32));
                    pending[id] = true;
                } else {
                    let got = r.pop();
                    assert_eq!(got, want.pop_first());
                    if let Some(k) = got {
                        pending[(k as u64 & !FIBER_ORDER) as usize] = false;
                        now = now.max((k >> 64) as u64);
                    }
                }
                assert_eq!(r.min(), want.first().copied().unwrap_or(u128::MAX));
            }
            while let Some(k) = r.pop() {
                assert_eq!(Some(k), want.pop_first());
            }
            assert!(want.is_empty());
        }
    }

    #[test]
    fn keys_order_by_cycle_then_fiber() {
        let mut r = Resumptions::new(130);
        r.push(7, 129);
        r.push(7, 3);
        r.push(6, 100);
        r.push(7 + 3 * WINDOW, 0);
        let order: Vec<(u64, u32)> =
            std::iter::from_fn(|| r.pop()).map(|k| ((k >> 64) as u64, (k as u64 & !FIBER_ORDER) as u32)).collect();
        assert_eq!(order, vec![(6, 100), (7, 3), (7, 129), (7 + 3 * WINDOW, 0)]);
    }
}
