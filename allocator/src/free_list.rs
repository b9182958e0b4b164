//! A first-fit free list over one address range, allocating bottom-up or top-down at an alignment, and
//! coalescing neighbours on free (tt-metal `FreeListOpt` semantics, seed 001).

/// Which end of the range an allocation is taken from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Lowest fitting address (DRAM buffers).
    BottomUp,
    /// Highest fitting address (L1 buffers).
    TopDown,
}

/// One block of the range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// First byte address.
    pub addr: u64,
    /// Size in bytes.
    pub size: u64,
    /// Whether it is allocated.
    pub allocated: bool,
}

/// A free list over `[base, base + size)`.
#[derive(Debug, Clone)]
pub struct FreeList {
    base: u64,
    size: u64,
    alignment: u64,
    /// Blocks sorted by address, covering the whole range, no two adjacent free blocks.
    blocks: Vec<Block>,
}

/// `v` rounded up to a multiple of `a`, saturating: a size near 2^64 stays too large to fit anywhere.
fn align_up(v: u64, a: u64) -> u64 {
    v.div_ceil(a).saturating_mul(a)
}

fn align_down(v: u64, a: u64) -> u64 {
    v / a * a
}

impl FreeList {
    /// A free list over `[base, base + size)` handing out `alignment`-aligned addresses and sizes.
    pub fn new(base: u64, size: u64, alignment: u64) -> FreeList {
        assert!(alignment.is_power_of_two(), "alignment {alignment} is not a power of two");
        FreeList { base, size, alignment, blocks: vec![Block { addr: base, size, allocated: false }] }
    }

    /// Start of the range.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// Size of the range, bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The alignment of addresses and sizes.
    pub fn alignment(&self) -> u64 {
        self.alignment
    }

    /// All blocks, by address.
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// Bytes allocated.
    pub fn allocated_bytes(&self) -> u64 {
        self.blocks.iter().filter(|b| b.allocated).map(|b| b.size).sum()
    }

    /// Bytes free.
    pub fn free_bytes(&self) -> u64 {
        self.size - self.allocated_bytes()
    }

    /// Size of the largest free block.
    pub fn largest_free_block(&self) -> u64 {
        self.blocks.iter().filter(|b| !b.allocated).map(|b| b.size).max().unwrap_or(0)
    }

    /// Allocate `size` bytes (rounded up to the alignment); `None` when no free block fits.
    pub fn allocate(&mut self, size: u64, dir: Direction) -> Option<u64> {
        let size = align_up(size.max(1), self.alignment);
        let fits = |b: &Block| -> Option<u64> {
            if b.allocated {
                return None;
            }
            let end = b.addr + b.size;
            match dir {
                Direction::BottomUp => {
                    let a = align_up(b.addr, self.alignment);
                    (a.checked_add(size)? <= end).then_some(a)
                }
                Direction::TopDown => {
                    let a = align_down(end.checked_sub(size)?, self.alignment);
                    (a >= b.addr).then_some(a)
                }
            }
        };
        let found = match dir {
            Direction::BottomUp => self.blocks.iter().enumerate().find_map(|(i, b)| fits(b).map(|a| (i, a))),
            Direction::TopDown => self.blocks.iter().enumerate().rev().find_map(|(i, b)| fits(b).map(|a| (i, a))),
        }?;
        self.carve(found.0, found.1, size);
        Some(found.1)
    }

    /// Allocate exactly `[addr, addr + size)`; `None` if any of it is taken or outside the range.
    pub fn allocate_at(&mut self, addr: u64, size: u64) -> Option<u64> {
        let size = align_up(size.max(1), self.alignment);
        if !addr.is_multiple_of(self.alignment) {
            return None;
        }
        let end = addr.checked_add(size)?;
        let i = self.blocks.iter().position(|b| !b.allocated && b.addr <= addr && end <= b.addr + b.size)?;
        self.carve(i, addr, size);
        Some(addr)
    }

    fn carve(&mut self, i: usize, addr: u64, size: u64) {
        let b = self.blocks[i];
        let mut repl = Vec::with_capacity(3);
        if addr > b.addr {
            repl.push(Block { addr: b.addr, size: addr - b.addr, allocated: false });
        }
        repl.push(Block { addr, size, allocated: true });
        let end = addr + size;
        if end < b.addr + b.size {
            repl.push(Block { addr: end, size: b.addr + b.size - end, allocated: false });
        }
        self.blocks.splice(i..=i, repl);
    }

    /// Free the allocation starting at `addr`; returns its size, or `None` if nothing starts there.
    pub fn deallocate(&mut self, addr: u64) -> Option<u64> {
        let i = self.blocks.iter().position(|b| b.allocated && b.addr == addr)?;
        let size = self.blocks[i].size;
        self.blocks[i].allocated = false;
        // Coalesce with the next, then the previous free block.
        if i + 1 < self.blocks.len() && !self.blocks[i + 1].allocated {
            self.blocks[i].size += self.blocks[i + 1].size;
            self.blocks.remove(i + 1);
        }
        if i > 0 && !self.blocks[i - 1].allocated {
            self.blocks[i - 1].size += self.blocks[i].size;
            self.blocks.remove(i);
        }
        Some(size)
    }

    /// The allocation starting at `addr`, if any.
    pub fn allocation_at(&self, addr: u64) -> Option<Block> {
        self.blocks.iter().find(|b| b.allocated && b.addr == addr).copied()
    }

    /// Lowest allocated address, if anything is allocated.
    pub fn lowest_allocated(&self) -> Option<u64> {
        self.blocks.iter().find(|b| b.allocated).map(|b| b.addr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bottom_up_first_fit_and_alignment() {
        let mut f = FreeList::new(64, 1024, 32);
        assert_eq!(f.allocate(10, Direction::BottomUp), Some(64));
        assert_eq!(f.allocate(33, Direction::BottomUp), Some(96));
        assert_eq!(f.allocated_bytes(), 32 + 64);
        assert_eq!(f.allocate(2048, Direction::BottomUp), None);
    }

    #[test]
    fn top_down_takes_the_highest_fit() {
        let mut f = FreeList::new(0, 1000, 16);
        assert_eq!(f.allocate(100, Direction::TopDown), Some(880)); // 112 bytes ending at or below 1000
        assert_eq!(f.allocate(16, Direction::TopDown), Some(864));
    }

    #[test]
    fn free_coalesces_and_first_fit_reuses_holes() {
        let mut f = FreeList::new(0, 4096, 32);
        let a = f.allocate(1024, Direction::BottomUp).unwrap();
        let b = f.allocate(1024, Direction::BottomUp).unwrap();
        let c = f.allocate(1024, Direction::BottomUp).unwrap();
        assert_eq!(f.deallocate(b), Some(1024));
        assert_eq!(f.largest_free_block(), 1024);
        // A smaller allocation lands in the first hole.
        assert_eq!(f.allocate(512, Direction::BottomUp), Some(1024));
        f.deallocate(1024).unwrap();
        f.deallocate(a).unwrap();
        f.deallocate(c).unwrap();
        assert_eq!(f.blocks(), &[Block { addr: 0, size: 4096, allocated: false }]);
        assert_eq!(f.deallocate(0), None);
    }

    #[test]
    fn allocate_at_exact_address() {
        let mut f = FreeList::new(0, 4096, 32);
        assert_eq!(f.allocate_at(1024, 100), Some(1024));
        assert_eq!(f.allocate_at(1056, 32), None);
        assert_eq!(f.allocate(2000, Direction::BottomUp), Some(1152));
    }
}
