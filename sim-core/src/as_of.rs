//! The scheduler's lookahead as one type. A kernel may run ahead of the core's other kernels through
//! calls that touch only its own core's counters; the counters then already include its updates, and a
//! kernel still behind reads them "as of" its own key by taking back the updates made after that key.
//! [`OrderKey`] is a scheduler key packed to compare with one integer comparison; [`AsOfLog`] is one
//! counter side's log of updates made ahead, so that CB and core code reads like exact-order code:
//! `counter - log.after(my_key)`.

use crate::queue::EventKey;
use crate::time::Cycle;

/// A scheduler key `(cycle, order)` as one number that orders like the key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct OrderKey(u128);

impl OrderKey {
    /// Before every key: "no update yet".
    pub const FIRST: OrderKey = OrderKey(0);
    /// After every kernel's key: how hardware events (which never change the counters a kernel may run
    /// ahead on) ask who is ready.
    pub const HARDWARE: OrderKey = OrderKey(u128::MAX);

    /// The packed `key`.
    #[inline]
    pub fn of(key: EventKey) -> OrderKey {
        OrderKey(key.packed())
    }

    /// The key of fiber `fiber` at `at`.
    #[inline]
    pub fn fiber(at: Cycle, fiber: u32) -> OrderKey {
        OrderKey::of(EventKey::fiber(at, fiber))
    }

    /// The cycle of the key.
    #[inline]
    pub fn at(self) -> Cycle {
        EventKey::unpacked(self.0).at
    }
}

/// One counter side's updates made ahead of exact order, readable as of any key. Entries are
/// `(key, amount)`, oldest first; those of cycles no read can come before are forgotten.
#[derive(Debug, Clone, Default)]
pub struct AsOfLog {
    entries: Vec<(OrderKey, u16)>,
    /// The entries before it are forgotten.
    head: usize,
    /// The key of this side's latest update, ahead or not ([`OrderKey::FIRST`]: none).
    last: OrderKey,
}

impl AsOfLog {
    /// The entries still kept, oldest first.
    #[inline]
    pub fn live(&self) -> &[(OrderKey, u16)] {
        &self.entries[self.head..]
    }

    /// The sum of the updates made after `key` (to take back from the counter a reader at `key` sees).
    #[inline]
    pub fn after(&self, key: OrderKey) -> u16 {
        // Most reads come after every update of the side.
        if self.last <= key {
            return 0;
        }
        let mut n = 0u16;
        for &(k, p) in self.live().iter().rev() {
            if k <= key {
                break;
            }
            n = n.wrapping_add(p);
        }
        n
    }

    /// Note an update of `n` at `key`, made ahead of exact order (`ahead`: kept readable as of `key`) or
    /// not, forgetting the updates of cycles before `settled`. Returns false when `key` comes before the
    /// side's previous update: two kernels update the side, which the lookahead does not model.
    #[inline]
    pub fn note(&mut self, key: OrderKey, n: u16, ahead: bool, settled: u64) -> bool {
        if key < self.last {
            return false;
        }
        self.last = key;
        if self.head < self.entries.len() {
            self.settle(settled);
        }
        if ahead {
            self.entries.push((key, n));
        }
        true
    }

    /// Forget the entries of cycles before `settled`.
    #[inline]
    fn settle(&mut self, settled: u64) {
        let gone = self.live().iter().take_while(|&&(k, _)| k.at().0 < settled).count();
        if gone == 0 {
            return;
        }
        self.head += gone;
        if self.head == self.entries.len() {
            self.entries.clear();
            self.head = 0;
        } else if self.head >= 64 && self.head * 2 >= self.entries.len() {
            self.entries.drain(..self.head);
            self.head = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(at: u64, fiber: u32) -> OrderKey {
        OrderKey::fiber(Cycle(at), fiber)
    }

    #[test]
    fn keys_order_by_cycle_then_fiber_and_hardware_reads_last() {
        assert!(k(5, 9) < k(6, 0));
        assert!(k(5, 1) < k(5, 2));
        assert!(OrderKey::FIRST < k(0, 0) && k(u64::MAX >> 1, u32::MAX) < OrderKey::HARDWARE);
        assert_eq!(k(7, 3).at(), Cycle(7));
    }

    #[test]
    fn a_reader_behind_takes_back_only_the_updates_after_it() {
        let mut log = AsOfLog::default();
        assert!(log.note(k(10, 1), 2, true, 0));
        assert!(log.note(k(12, 1), 3, true, 0));
        assert_eq!(log.after(k(9, 0)), 5, "both after");
        assert_eq!(log.after(k(10, 1)), 3, "the one at its own key is seen");
        assert_eq!(log.after(k(12, 2)), 0, "none after");
        // An update behind the side's latest is refused (two kernels update the side).
        assert!(!log.note(k(11, 0), 1, true, 0));
        // Settling forgets the updates of cycles before 12; what is left is still taken back.
        assert!(log.note(k(13, 1), 1, false, 12));
        assert_eq!(log.live().len(), 1);
        assert_eq!(log.after(k(11, 0)), 3);
    }
}
