//! Circular buffers with tt-metal's semantics (tt-metal-api.md §2.2): two shared 16-bit counters per
//! (core, CB) — pages received (bumped by push) and pages acknowledged (bumped by pop) — compared modulo
//! 2^16; read and write pointers private to each RISC, wrapping only when they reach the limit exactly.

use crate::hw::risc::Risc;
use layout::format::DataFormat;
use sim_core::{AsOfLog, OrderKey};

/// The shared counters of one circular buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CbCounters {
    /// `tiles_received`: pages pushed so far, modulo 2^16.
    pub received: u16,
    /// `tiles_acked`: pages popped so far, modulo 2^16.
    pub acked: u16,
}

impl CbCounters {
    /// Pages pushed and not yet popped.
    pub fn pages_available(&self) -> u16 {
        self.received.wrapping_sub(self.acked)
    }

    /// Pages a producer may still reserve, for a CB of `num_pages` pages (negative when over-pushed).
    pub fn pages_free(&self, num_pages: u32) -> i64 {
        num_pages as i64 - self.pages_available() as i64
    }

    /// `cb_push_back(n)`.
    pub fn push(&mut self, n: u16) {
        self.received = self.received.wrapping_add(n);
    }

    /// `cb_pop_front(n)`.
    pub fn pop(&mut self, n: u16) {
        self.acked = self.acked.wrapping_add(n);
    }
}

/// One circular buffer index on one core.
#[derive(Debug, Clone)]
pub struct CircularBuffer {
    /// CB index (0..NUM_CIRCULAR_BUFFERS).
    pub index: u8,
    /// First byte in L1.
    pub base: u32,
    /// Size in bytes.
    pub size: u32,
    /// Page size in bytes.
    pub page_size: u32,
    /// Data format of its pages.
    pub format: DataFormat,
    /// The shared counters.
    pub counters: CbCounters,
    rd_ptr: [u32; Risc::COUNT],
    wr_ptr: [u32; Risc::COUNT],
    /// The packer's sequential output pointer (pages into the reserved region), per RISC.
    tile_wr: [u32; Risc::COUNT],
    /// The latest scheduler key (packed `(cycle, order)`) at which a `cb_wait_front` that held returned
    /// without waiting for the core's other kernels (0: none); see [`CircularBuffer::update_behind`].
    pub(crate) front_ahead_key: OrderKey,
    /// The same for `cb_reserve_back`.
    pub(crate) back_ahead_key: OrderKey,
    /// Pushes (`[0]`) and pops (`[1]`) made ahead of exact order, readable as of their keys.
    ahead: [AsOfLog; 2],
}

impl CircularBuffer {
    /// A CB at `[base, base + size)` of `page_size`-byte pages.
    pub fn new(index: u8, base: u32, size: u32, page_size: u32, format: DataFormat) -> CircularBuffer {
        CircularBuffer {
            index,
            base,
            size,
            page_size,
            format,
            counters: CbCounters::default(),
            rd_ptr: [base; Risc::COUNT],
            wr_ptr: [base; Risc::COUNT],
            tile_wr: [0; Risc::COUNT],
            front_ahead_key: OrderKey::FIRST,
            back_ahead_key: OrderKey::FIRST,
            ahead: Default::default(),
        }
    }

    /// Number of pages.
    pub fn num_pages(&self) -> u32 {
        self.size / self.page_size
    }

    /// One past the last byte.
    pub fn limit(&self) -> u32 {
        self.base + self.size
    }

    /// Pages available to a consumer.
    pub fn pages_available(&self) -> u32 {
        self.counters.pages_available() as u32
    }

    /// Pages free for a producer.
    pub fn pages_free(&self) -> i64 {
        self.counters.pages_free(self.num_pages())
    }

    /// `get_read_ptr` of `risc`.
    pub fn read_ptr(&self, risc: Risc) -> u32 {
        self.rd_ptr[risc.index()]
    }

    /// `get_write_ptr` of `risc`.
    pub fn write_ptr(&self, risc: Risc) -> u32 {
        self.wr_ptr[risc.index()]
    }

    /// The packer's next page index inside the reserved region of `risc`.
    pub fn tile_write_index(&self, risc: Risc) -> u32 {
        self.tile_wr[risc.index()]
    }

    /// Advance the packer's sequential pointer of `risc` by one page.
    pub fn advance_tile_write(&mut self, risc: Risc) {
        self.tile_wr[risc.index()] += 1;
    }

    /// Whether a push (`push`) or pop at scheduler key `key` comes before a wait on this CB that already
    /// returned ahead of it: a push before a `cb_reserve_back`, a pop before a `cb_wait_front`. Such an
    /// update could have made that wait block in exact order; it happens only when two kernels of the core
    /// push (or pop) the same CB.
    pub fn update_behind(&self, push: bool, key: OrderKey) -> bool {
        key < if push { self.back_ahead_key } else { self.front_ahead_key }
    }

    /// The shared counters as a kernel at scheduler key `key` reads them: without the updates made ahead
    /// of it.
    #[inline]
    pub fn counters_at(&self, key: OrderKey) -> CbCounters {
        let [pushes, pops] = &self.ahead;
        if pushes.live().is_empty() && pops.live().is_empty() {
            return self.counters;
        }
        CbCounters {
            received: self.counters.received.wrapping_sub(pushes.after(key)),
            acked: self.counters.acked.wrapping_sub(pops.after(key)),
        }
    }

    /// Pages available to a consumer at scheduler key `key`.
    pub fn pages_available_at(&self, key: OrderKey) -> u32 {
        self.counters_at(key).pages_available() as u32
    }

    /// Pages free for a producer at scheduler key `key`.
    pub fn pages_free_at(&self, key: OrderKey) -> i64 {
        self.counters_at(key).pages_free(self.num_pages())
    }

    /// The cycle of the earliest update made ahead of `key` after which `holds` is true of the counters
    /// (`None`: no such update yet). A kernel at `key` that finds its wait false would, in exact order,
    /// have blocked and been woken by exactly that update.
    pub fn first_ahead_where(&self, key: OrderKey, holds: impl Fn(&CbCounters) -> bool) -> Option<u64> {
        let mut c = self.counters_at(key);
        let [pushes, pops] = &self.ahead;
        let (mut i, mut j) =
            (pushes.live().partition_point(|e| e.0 <= key), pops.live().partition_point(|e| e.0 <= key));
        loop {
            let (p, q) = (pushes.live().get(i), pops.live().get(j));
            let (k, push, n) = match (p, q) {
                (Some(&(a, n)), Some(&(b, _))) if a < b => (a, true, n),
                (_, Some(&(b, n))) => (b, false, n),
                (Some(&(a, n)), None) => (a, true, n),
                (None, None) => return None,
            };
            if push {
                c.push(n);
                i += 1;
            } else {
                c.pop(n);
                j += 1;
            }
            if holds(&c) {
                return Some(k.at().0);
            }
        }
    }

    /// Note a push (`push`) or pop of `n` pages at scheduler key `key`, made ahead of exact order
    /// (`ahead`: kept readable as of `key`) or not, forgetting this side's updates of cycles before
    /// `settled`. Returns false when the key comes before this side's previous update: two kernels of the
    /// core update the side, which the lookahead does not model.
    #[inline]
    pub fn note_update(&mut self, push: bool, key: OrderKey, n: u32, ahead: bool, settled: u64) -> bool {
        self.ahead[if push { 0 } else { 1 }].note(key, n as u16, ahead, settled)
    }

    /// `cb_push_back(n)` by `risc`: publish `n` pages and move its write pointer.
    pub fn push(&mut self, risc: Risc, n: u32) {
        self.counters.push(n as u16);
        let p = &mut self.wr_ptr[risc.index()];
        *p = p.wrapping_add(n * self.page_size);
        if *p == self.base + self.size {
            *p = self.base;
        }
        self.tile_wr[risc.index()] = 0;
    }

    /// `cb_pop_front(n)` by `risc`: free `n` pages and move its read pointer.
    pub fn pop(&mut self, risc: Risc, n: u32) {
        self.counters.pop(n as u16);
        let p = &mut self.rd_ptr[risc.index()];
        *p = p.wrapping_add(n * self.page_size);
        if *p == self.base + self.size {
            *p = self.base;
        }
    }
}

/// A circular-buffer index: a plain number or a [`CBIndex`].
pub trait CbId: Copy {
    /// The index.
    fn cb_index(self) -> u32;
}

impl CbId for u32 {
    fn cb_index(self) -> u32 {
        self
    }
}

impl CbId for CBIndex {
    fn cb_index(self) -> u32 {
        self as u32
    }
}

/// tt-metal's `tt::CBIndex::c_0 … c_63`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types, missing_docs)]
#[repr(u32)]
pub enum CBIndex {
    c_0,
    c_1,
    c_2,
    c_3,
    c_4,
    c_5,
    c_6,
    c_7,
    c_8,
    c_9,
    c_10,
    c_11,
    c_12,
    c_13,
    c_14,
    c_15,
    c_16,
    c_17,
    c_18,
    c_19,
    c_20,
    c_21,
    c_22,
    c_23,
    c_24,
    c_25,
    c_26,
    c_27,
    c_28,
    c_29,
    c_30,
    c_31,
    c_32,
    c_33,
    c_34,
    c_35,
    c_36,
    c_37,
    c_38,
    c_39,
    c_40,
    c_41,
    c_42,
    c_43,
    c_44,
    c_45,
    c_46,
    c_47,
    c_48,
    c_49,
    c_50,
    c_51,
    c_52,
    c_53,
    c_54,
    c_55,
    c_56,
    c_57,
    c_58,
    c_59,
    c_60,
    c_61,
    c_62,
    c_63,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_wrap_modulo_2_16() {
        let mut c = CbCounters { received: 65534, acked: 65533 };
        assert_eq!(c.pages_available(), 1);
        c.push(3);
        assert_eq!(c.received, 1);
        assert_eq!(c.pages_available(), 4);
        assert_eq!(c.pages_free(8), 4);
        c.pop(4);
        assert_eq!(c.pages_available(), 0);
        assert_eq!(c.pages_free(8), 8);
    }

    #[test]
    fn pointers_are_private_and_wrap_at_the_limit_exactly() {
        let mut cb = CircularBuffer::new(0, 0x1000, 4 * 2048, 2048, DataFormat::Float16_b);
        cb.push(Risc::Ncrisc, 3);
        assert_eq!(cb.write_ptr(Risc::Ncrisc), 0x1000 + 3 * 2048);
        assert_eq!(cb.write_ptr(Risc::Brisc), 0x1000, "pointers are per RISC");
        cb.push(Risc::Ncrisc, 1);
        assert_eq!(cb.write_ptr(Risc::Ncrisc), 0x1000, "wrapped at the limit");
        assert_eq!(cb.pages_available(), 4);
        assert_eq!(cb.pages_free(), 0);
        cb.pop(Risc::Brisc, 2);
        assert_eq!(cb.read_ptr(Risc::Brisc), 0x1000 + 2 * 2048);
        // Pushing 3 pages from offset 2 of 4 overshoots the limit and does not wrap (tt-metal behaviour).
        let mut cb2 = CircularBuffer::new(1, 0, 4 * 16, 16, DataFormat::UInt32);
        cb2.push(Risc::Brisc, 2);
        cb2.push(Risc::Brisc, 3);
        assert_eq!(cb2.write_ptr(Risc::Brisc), 80);
    }

    fn key(cycle: u64, fiber: u32) -> OrderKey {
        OrderKey::fiber(sim_core::Cycle(cycle), fiber)
    }

    /// Push (`push`) or pop one page at `k`, ahead of exact order.
    fn ahead(cb: &mut CircularBuffer, push: bool, k: OrderKey, settled: u64) {
        assert!(cb.note_update(push, k, 1, true, settled));
        if push { cb.push(Risc::Brisc, 1) } else { cb.pop(Risc::Ncrisc, 1) }
    }

    #[test]
    fn kernels_behind_read_the_counters_as_of_their_key() {
        let mut cb = CircularBuffer::new(0, 0, 4 * 16, 16, DataFormat::UInt32);
        // The producer (fiber 0) pushes at cycles 10, 20 and 30 while the consumer (fiber 1) is behind.
        for t in [10, 20, 30] {
            ahead(&mut cb, true, key(t, 0), 0);
        }
        assert_eq!(cb.pages_available(), 3, "the counters hold every update");
        assert_eq!(cb.pages_available_at(key(5, 1)), 0);
        assert_eq!(cb.pages_available_at(key(10, 1)), 1, "a push at the same cycle by a lower fiber id is seen");
        assert_eq!(cb.pages_available_at(key(25, 1)), 2);
        assert_eq!(cb.pages_available_at(key(99, 1)), 3);
        assert_eq!(cb.pages_free_at(key(25, 1)), 2);
        // The consumer pops ahead at cycle 40; the producer, behind at 35, does not see it yet.
        ahead(&mut cb, false, key(40, 1), 0);
        assert_eq!(cb.pages_free_at(key(35, 0)), 1);
        assert_eq!(cb.pages_free_at(key(41, 0)), 2);
    }

    #[test]
    fn a_wait_that_fails_finds_the_update_ahead_that_wakes_it() {
        let mut cb = CircularBuffer::new(0, 0, 4 * 16, 16, DataFormat::UInt32);
        for t in [10, 20, 30] {
            ahead(&mut cb, true, key(t, 0), 0);
        }
        let available = |n: u16| move |c: &CbCounters| c.pages_available() >= n;
        assert_eq!(cb.first_ahead_where(key(5, 1), available(1)), Some(10));
        assert_eq!(cb.first_ahead_where(key(5, 1), available(2)), Some(20), "the update that makes it hold");
        assert_eq!(cb.first_ahead_where(key(15, 1), available(3)), Some(30));
        assert_eq!(cb.first_ahead_where(key(5, 1), available(4)), None, "no update makes it hold yet");
        // Pops and pushes interleave in key order: a pop at 25 takes back the page pushed at 20.
        ahead(&mut cb, false, key(25, 1), 0);
        assert_eq!(cb.first_ahead_where(key(5, 2), available(2)), Some(20));
        assert_eq!(cb.first_ahead_where(key(21, 2), available(2)), Some(30));
        let free = |n: i64| move |c: &CbCounters| c.pages_free(4) >= n;
        assert_eq!(cb.first_ahead_where(key(22, 0), free(3)), Some(25));
    }

    #[test]
    fn updates_are_forgotten_once_settled_and_a_side_updated_out_of_order_is_refused() {
        let mut cb = CircularBuffer::new(0, 0, 4 * 16, 16, DataFormat::UInt32);
        ahead(&mut cb, true, key(10, 0), 0);
        ahead(&mut cb, true, key(20, 0), 0);
        assert_eq!(cb.ahead[0].live().len(), 2);
        // Another kernel pushes at cycle 18, before this side's update at 20: refused.
        assert!(!cb.note_update(true, key(18, 2), 1, true, 15));
        // Nothing can read before cycle 15 any more: the side's next update forgets the push at 10. That
        // update, made in exact order, is not kept.
        assert!(cb.note_update(true, key(21, 2), 1, false, 15));
        assert_eq!(cb.ahead[0].live().len(), 1);
        assert_eq!(cb.pages_available_at(key(12, 1)), 1, "the forgotten push is still seen");
        assert_eq!(cb.pages_available_at(key(19, 1)), 1);
        assert_eq!(cb.pages_available_at(key(20, 1)), 2);
    }
}
