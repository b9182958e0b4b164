//! Lock-step allocation across a set of equal banks: one free list describes every bank, because a buffer
//! reserves the same address range in all of them, whether or not each bank holds one of its pages.

use crate::free_list::{Direction, FreeList};

/// The banks of one memory kind.
#[derive(Debug, Clone)]
pub struct BankManager {
    num_banks: u32,
    direction: Direction,
    list: FreeList,
}

impl BankManager {
    /// `num_banks` banks whose allocatable range is `[base, base + size)` at `alignment`.
    pub fn new(num_banks: u32, base: u64, size: u64, alignment: u64, direction: Direction) -> BankManager {
        BankManager { num_banks, direction, list: FreeList::new(base, size, alignment) }
    }

    /// Number of banks.
    pub fn num_banks(&self) -> u32 {
        self.num_banks
    }

    /// The alignment of pages and addresses.
    pub fn alignment(&self) -> u64 {
        self.list.alignment()
    }

    /// Page size rounded up to the alignment.
    pub fn aligned_page_size(&self, page_size: u64) -> u64 {
        // Saturating: a page size near 2^64 from user input becomes an allocation too large to fit.
        page_size.div_ceil(self.alignment()).saturating_mul(self.alignment())
    }

    /// Bytes each bank must reserve for `num_pages` pages of `page_size` bytes dealt round-robin (the slots
    /// `layout`'s interleaved placement gives the fullest bank).
    pub fn size_per_bank(&self, num_pages: u64, page_size: u64) -> u64 {
        layout::Distribution::interleaved(num_pages, self.num_banks)
            .slots_per_bank()
            .saturating_mul(self.aligned_page_size(page_size))
    }

    /// Allocate an interleaved buffer; returns its address (the same in every bank).
    pub fn allocate(&mut self, num_pages: u64, page_size: u64) -> Option<u64> {
        let per_bank = self.size_per_bank(num_pages, page_size);
        self.list.allocate(per_bank, self.direction)
    }

    /// Allocate `per_bank` bytes in every bank (the address is the same in all of them).
    pub fn allocate_bytes(&mut self, per_bank: u64) -> Option<u64> {
        self.list.allocate(per_bank, self.direction)
    }

    /// Allocate `per_bank` bytes in every bank from the bottom or the top of the range (`None`: this
    /// memory's usual direction).
    pub fn allocate_bytes_from(&mut self, per_bank: u64, direction: Option<Direction>) -> Option<u64> {
        self.list.allocate(per_bank, direction.unwrap_or(self.direction))
    }

    /// Allocate `per_bank` bytes in every bank at exactly `addr`.
    pub fn allocate_at(&mut self, addr: u64, per_bank: u64) -> Option<u64> {
        self.list.allocate_at(addr, per_bank)
    }

    /// Free the buffer at `addr`; returns the bytes it held per bank.
    pub fn deallocate(&mut self, addr: u64) -> Option<u64> {
        self.list.deallocate(addr)
    }

    /// The free list (shared by all banks).
    pub fn free_list(&self) -> &FreeList {
        &self.list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_step_reserves_the_same_range_in_every_bank() {
        let mut m = BankManager::new(12, 0, 1 << 30, 32, Direction::BottomUp);
        // 50 pages of 2048 B over 12 banks: 5 pages per bank.
        assert_eq!(m.size_per_bank(50, 2048), 5 * 2048);
        assert_eq!(m.allocate(50, 2048), Some(0));
        // A single page still reserves its page in every bank.
        assert_eq!(m.allocate(1, 100), Some(5 * 2048));
        assert_eq!(m.free_list().allocated_bytes(), 5 * 2048 + 128);
    }
}
