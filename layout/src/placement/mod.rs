//! The one page → location function. A buffer is a sequence of host pages; a [`Distribution`] says which
//! bank holds each page and in which slot of that bank (slot × aligned page size + the buffer's address is
//! the page's address in the bank). Interleaved buffers deal pages round-robin over every bank; sharded
//! buffers cut the tensor (in pages) into shards and deal shards to cores ([`shard`]). The kernel-side
//! address generators, the host's buffer reads and writes, and the allocator's per-bank sizes all call this
//! module, so they cannot disagree.

pub mod shard;

pub use shard::{
    BufferDistributionSpec, DistributionStrategy, ShardDistribution, ShardOrientation, ShardSpecBuffer,
    TensorMemoryLayout,
};

use crate::core_ranges::CoreCoord;
use serde::Serialize;

/// Where one page lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PageLocation {
    /// Bank index: the DRAM/L1 bank of an interleaved buffer, or the position of the core (or DRAM bank) in
    /// a sharded buffer's core list.
    pub bank: u32,
    /// Page slot inside the bank.
    pub slot: u64,
}

/// How the pages of one buffer are spread over banks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Distribution {
    /// Round-robin over `num_banks` banks: page `p` in bank `p % num_banks`, slot `p / num_banks`.
    Interleaved {
        /// Host pages.
        num_pages: u64,
        /// Banks.
        num_banks: u32,
    },
    /// Shards dealt to cores.
    Sharded(ShardDistribution),
}

impl Distribution {
    /// An interleaved distribution.
    pub fn interleaved(num_pages: u64, num_banks: u32) -> Distribution {
        Distribution::Interleaved { num_pages, num_banks: num_banks.max(1) }
    }

    /// Number of host pages (padding pages of sharded buffers are not host pages).
    pub fn num_pages(&self) -> u64 {
        match self {
            Distribution::Interleaved { num_pages, .. } => *num_pages,
            Distribution::Sharded(s) => s.num_pages(),
        }
    }

    /// Number of banks pages are spread over (the cores of a sharded buffer, with or without data).
    pub fn num_banks(&self) -> u32 {
        match self {
            Distribution::Interleaved { num_banks, .. } => *num_banks,
            Distribution::Sharded(s) => s.num_cores(),
        }
    }

    /// Page slots every bank reserves (lock-step allocation: the largest number any bank needs).
    pub fn slots_per_bank(&self) -> u64 {
        match self {
            Distribution::Interleaved { num_pages, num_banks } => num_pages.div_ceil(*num_banks as u64).max(1),
            Distribution::Sharded(s) => s.slots_per_core(),
        }
    }

    /// Page slots over all banks ([`Distribution::slots_per_bank`] each; saturating).
    pub fn total_slots(&self) -> u64 {
        self.slots_per_bank().saturating_mul(u64::from(self.num_banks()))
    }

    /// Where host page `page` lives; `None` past the last page.
    pub fn locate(&self, page: u64) -> Option<PageLocation> {
        match self {
            Distribution::Interleaved { num_pages, num_banks } => {
                (page < *num_pages).then(|| interleaved_location(page, *num_banks))
            }
            Distribution::Sharded(s) => s.locate(page),
        }
    }

    /// The host page in slot `slot` of bank `bank`; `None` for padding or an unused slot.
    pub fn host_page(&self, bank: u32, slot: u64) -> Option<u64> {
        match self {
            Distribution::Interleaved { num_pages, num_banks } => {
                let p = slot.checked_mul(*num_banks as u64)?.checked_add(bank as u64)?;
                (bank < *num_banks && p < *num_pages).then_some(p)
            }
            Distribution::Sharded(s) => s.host_page(bank, slot),
        }
    }

    /// For every bank, the host page of each of its [`Distribution::slots_per_bank`] slots (`None`: padding).
    pub fn bank_pages(&self) -> Vec<Vec<Option<u64>>> {
        let slots = self.slots_per_bank();
        (0..self.num_banks()).map(|b| (0..slots).map(|s| self.host_page(b, s)).collect()).collect()
    }
}

/// The interleaved rule: page `page` of a buffer over `num_banks` banks is in bank `page % num_banks`, slot
/// `page / num_banks`.
#[inline]
pub fn interleaved_location(page: u64, num_banks: u32) -> PageLocation {
    let n = num_banks.max(1) as u64;
    PageLocation { bank: (page % n) as u32, slot: page / n }
}

/// A buffer's page mapping as tt-metal reports it (`BufferPageMapping`) for one core list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PageMapping {
    /// Every core, in distribution order.
    pub all_cores: Vec<CoreCoord>,
    /// Cores holding at least one shard.
    pub num_cores: u32,
    /// Device pages over all cores holding data (slots per core × cores holding data).
    pub num_dev_pages: u64,
    /// Per core of `all_cores`: the host page of each slot, `None` for padding.
    pub core_host_page_indices: Vec<Vec<Option<u64>>>,
}

impl PageMapping {
    /// The mapping of `dist` over `cores` (one per bank, in order).
    pub fn new(dist: &Distribution, cores: &[CoreCoord]) -> PageMapping {
        let pages = dist.bank_pages();
        let with_data = pages.iter().filter(|p| p.iter().any(Option::is_some)).count() as u32;
        PageMapping {
            all_cores: cores.to_vec(),
            num_cores: with_data,
            num_dev_pages: dist.slots_per_bank() * with_data as u64,
            core_host_page_indices: pages,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleaved_round_robin_as_seed_004() {
        // Seed 004, Figure 3: four pages P0..P3 over three banks; P3 wraps around to bank 0.
        let d = Distribution::interleaved(4, 3);
        let banks: Vec<u32> = (0..4).map(|p| d.locate(p).unwrap().bank).collect();
        assert_eq!(banks, vec![0, 1, 2, 0]);
        assert_eq!(d.locate(3).unwrap().slot, 1);
        assert_eq!(d.slots_per_bank(), 2);
        assert_eq!(d.bank_pages(), vec![vec![Some(0), Some(3)], vec![Some(1), None], vec![Some(2), None]]);
        assert_eq!(d.locate(4), None);
    }
}
