//! The device allocator: DRAM banks (one per DRAM view, bottom-up) and L1 banks (one per compute core, N per
//! storage-only core, top-down above the reserved region and the circular buffers).

use crate::bank::BankManager;
use crate::free_list::Direction;
use std::fmt;

/// Which memory a buffer lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BufferKind {
    /// DRAM.
    Dram,
    /// Tensix L1.
    L1,
}

impl fmt::Display for BufferKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BufferKind::Dram => "DRAM",
            BufferKind::L1 => "L1",
        })
    }
}

/// Sizes and alignments the allocator works with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllocatorConfig {
    /// Number of DRAM banks.
    pub dram_banks: u32,
    /// Size of each DRAM bank, bytes.
    pub dram_bank_size: u64,
    /// First allocatable DRAM address (above the barrier region), bytes.
    pub dram_unreserved_base: u64,
    /// `DRAM_ALIGNMENT`, bytes.
    pub dram_alignment: u64,
    /// Number of L1 banks.
    pub l1_banks: u32,
    /// L1 size per core, bytes.
    pub l1_size: u64,
    /// First address above the firmware/kernel reserved region, bytes.
    pub l1_unreserved_base: u64,
    /// Size of each L1 bank (storage-core bank size, or L1 size minus the reserved region), bytes.
    pub l1_bank_size: u64,
    /// Alignment of L1 buffers (tt-metal allocates every buffer at `DRAM_ALIGNMENT`), bytes.
    pub l1_alignment: u64,
}

/// A failed allocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllocError {
    /// Memory kind.
    pub kind: BufferKind,
    /// Bytes requested per bank.
    pub per_bank: u64,
    /// Largest free block per bank.
    pub largest_free: u64,
    /// Free bytes per bank.
    pub free: u64,
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "out of {} memory: the buffer needs {} bytes in every bank but the largest free block is {} bytes ({} bytes free per bank)",
            self.kind, self.per_bank, self.largest_free, self.free
        )
    }
}

/// DRAM and L1 bank managers of one device.
#[derive(Debug, Clone)]
pub struct Allocator {
    config: AllocatorConfig,
    dram: BankManager,
    l1: BankManager,
}

impl Allocator {
    /// An empty allocator.
    pub fn new(config: AllocatorConfig) -> Allocator {
        let dram = BankManager::new(
            config.dram_banks,
            config.dram_unreserved_base,
            config.dram_bank_size - config.dram_unreserved_base,
            config.dram_alignment,
            Direction::BottomUp,
        );
        let l1_base = config.l1_size - config.l1_bank_size;
        let l1 =
            BankManager::new(config.l1_banks, l1_base, config.l1_bank_size, config.l1_alignment, Direction::TopDown);
        Allocator { config, dram, l1 }
    }

    /// The configuration.
    pub fn config(&self) -> &AllocatorConfig {
        &self.config
    }

    /// The bank manager of `kind`.
    pub fn banks(&self, kind: BufferKind) -> &BankManager {
        match kind {
            BufferKind::Dram => &self.dram,
            BufferKind::L1 => &self.l1,
        }
    }

    fn banks_mut(&mut self, kind: BufferKind) -> &mut BankManager {
        match kind {
            BufferKind::Dram => &mut self.dram,
            BufferKind::L1 => &mut self.l1,
        }
    }

    /// Allocate an interleaved buffer of `size` bytes in pages of `page_size` bytes.
    pub fn allocate(&mut self, kind: BufferKind, size: u64, page_size: u64) -> Result<u64, AllocError> {
        self.allocate_from(kind, size, page_size, None)
    }

    /// [`Allocator::allocate`] from the bottom or the top of the bank (`None`: DRAM bottom-up, L1 top-down,
    /// tt-metal's defaults; `bottom_up` of a buffer config).
    pub fn allocate_from(
        &mut self,
        kind: BufferKind,
        size: u64,
        page_size: u64,
        direction: Option<Direction>,
    ) -> Result<u64, AllocError> {
        let num_pages = size.div_ceil(page_size.max(1)).max(1);
        let m = self.banks_mut(kind);
        let per_bank = m.size_per_bank(num_pages, page_size);
        m.allocate_bytes_from(per_bank, direction).ok_or_else(|| AllocError {
            kind,
            per_bank,
            largest_free: m.free_list().largest_free_block(),
            free: m.free_list().free_bytes(),
        })
    }

    /// Allocate `per_bank` bytes at the same address in every bank of `kind` (lock-step), as a sharded
    /// buffer does: each bank reserves what its fullest bank needs.
    pub fn allocate_per_bank(&mut self, kind: BufferKind, per_bank: u64) -> Result<u64, AllocError> {
        self.allocate_per_bank_from(kind, per_bank, None)
    }

    /// [`Allocator::allocate_per_bank`] from the bottom or the top (`None`: the memory's default).
    pub fn allocate_per_bank_from(
        &mut self,
        kind: BufferKind,
        per_bank: u64,
        direction: Option<Direction>,
    ) -> Result<u64, AllocError> {
        let m = self.banks_mut(kind);
        let per_bank = per_bank.div_ceil(m.alignment()) * m.alignment();
        m.allocate_bytes_from(per_bank, direction).ok_or_else(|| AllocError {
            kind,
            per_bank,
            largest_free: m.free_list().largest_free_block(),
            free: m.free_list().free_bytes(),
        })
    }

    /// Free the buffer at `addr`.
    pub fn deallocate(&mut self, kind: BufferKind, addr: u64) -> Option<u64> {
        self.banks_mut(kind).deallocate(addr)
    }

    /// Lowest address of any L1 buffer (circular buffers must end at or below it).
    pub fn lowest_l1_buffer(&self) -> Option<u64> {
        self.l1.free_list().lowest_allocated()
    }

    /// The region a program's circular buffers may take: from the unreserved L1 base up to the lowest L1
    /// buffer (or the end of L1), aligned to `align`.
    pub fn cb_region(&self, align: u64) -> crate::cb_region::CbRegion {
        let limit = self.lowest_l1_buffer().unwrap_or(self.config.l1_size);
        crate::cb_region::CbRegion::new(self.config.l1_unreserved_base, limit, align)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wh() -> AllocatorConfig {
        AllocatorConfig {
            dram_banks: 12,
            dram_bank_size: 1 << 30,
            dram_unreserved_base: 64,
            dram_alignment: 32,
            l1_banks: 64,
            l1_size: 1_499_136,
            l1_unreserved_base: 0x19000,
            l1_bank_size: 1_499_136 - 0x19000,
            l1_alignment: 32,
        }
    }

    #[test]
    fn dram_is_bottom_up_and_l1_top_down() {
        let mut a = Allocator::new(wh());
        assert_eq!(a.allocate(BufferKind::Dram, 50 * 2048, 2048).unwrap(), 64);
        assert_eq!(a.allocate(BufferKind::Dram, 2048, 2048).unwrap(), 64 + 5 * 2048);
        let l1 = a.allocate(BufferKind::L1, 64 * 2048, 2048).unwrap();
        assert_eq!(l1, 1_499_136 - 2048);
        assert_eq!(a.lowest_l1_buffer(), Some(l1));
        let e = a.allocate(BufferKind::L1, 64 * 1_499_136, 1_499_136).unwrap_err();
        assert!(e.to_string().contains("out of L1 memory"), "{e}");
    }
}
