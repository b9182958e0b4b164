//! The allocator's memory reports as CSV (reference/formats.md, seed 001): `memory_usage_summary.csv`
//! (per memory kind: allocatable, allocated, free, largest free block per bank), `detailed_memory_usage.csv`
//! (every block of every memory kind) and `l1_usage_summary.csv` (per program: what its circular buffers
//! leave for L1 buffers).

use crate::allocator::{Allocator, BufferKind};
use std::fmt::Write;

/// L1 use of one program, recorded when it is launched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramL1Usage {
    /// Program id (launch order on the device).
    pub program_id: u32,
    /// One past the highest byte of the program's circular buffers on any core.
    pub cb_top: u64,
    /// Lowest address of an L1 buffer at launch (L1 size if none).
    pub lowest_buffer: u64,
    /// Largest free contiguous L1 block per bank between the CBs and the buffers, bytes.
    pub largest_free_block: u64,
    /// Largest interleaved L1 buffer that would still fit (largest free block × banks), bytes.
    pub largest_interleavable: u64,
}

impl ProgramL1Usage {
    /// Usage of a program whose CBs end at `cb_top`, given the allocator state at launch.
    pub fn measure(program_id: u32, cb_top: u64, a: &Allocator) -> ProgramL1Usage {
        let l1 = a.banks(BufferKind::L1);
        let lowest = a.lowest_l1_buffer().unwrap_or(a.config().l1_size);
        let largest = l1
            .free_list()
            .blocks()
            .iter()
            .filter(|b| !b.allocated)
            .map(|b| {
                let start = b.addr.max(cb_top);
                (b.addr + b.size).saturating_sub(start)
            })
            .max()
            .unwrap_or(0);
        ProgramL1Usage {
            program_id,
            cb_top,
            lowest_buffer: lowest,
            largest_free_block: largest,
            largest_interleavable: largest * l1.num_banks() as u64,
        }
    }
}

/// `memory_usage_summary.csv`.
pub fn memory_usage_summary(a: &Allocator) -> String {
    let mut s = String::from(
        "Buffer Type,Num Banks,Total Allocatable Size per Bank (B),Total Allocated per Bank (B),Total Free per Bank (B),Largest Free Block per Bank (B)\n",
    );
    for kind in [BufferKind::Dram, BufferKind::L1] {
        let m = a.banks(kind);
        let f = m.free_list();
        let _ = writeln!(
            s,
            "{kind},{},{},{},{},{}",
            m.num_banks(),
            f.size(),
            f.allocated_bytes(),
            f.free_bytes(),
            f.largest_free_block()
        );
    }
    s
}

/// `detailed_memory_usage.csv`.
pub fn detailed_memory_usage(a: &Allocator) -> String {
    let mut s = String::from("Buffer Type,Block,Address (B),Size (B),Allocated\n");
    for kind in [BufferKind::Dram, BufferKind::L1] {
        for (i, b) in a.banks(kind).free_list().blocks().iter().enumerate() {
            let _ = writeln!(s, "{kind},{i},{},{},{}", b.addr, b.size, if b.allocated { "yes" } else { "no" });
        }
    }
    s
}

/// `l1_usage_summary.csv`.
pub fn l1_usage_summary(programs: &[ProgramL1Usage]) -> String {
    let mut s = String::from(
        "Program ID,Circular Buffers End (B),Lowest L1 Buffer (B),Largest Free L1 Block per Bank (B),Largest Interleavable L1 Buffer (B)\n",
    );
    for p in programs {
        let _ = writeln!(
            s,
            "{},{},{},{},{}",
            p.program_id, p.cb_top, p.lowest_buffer, p.largest_free_block, p.largest_interleavable
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::allocator::AllocatorConfig;

    #[test]
    fn reports_list_every_block() {
        let mut a = Allocator::new(AllocatorConfig {
            dram_banks: 2,
            dram_bank_size: 4096,
            dram_unreserved_base: 0,
            dram_alignment: 32,
            l1_banks: 4,
            l1_size: 8192,
            l1_unreserved_base: 1024,
            l1_bank_size: 8192 - 1024,
            l1_alignment: 32,
        });
        a.allocate(BufferKind::Dram, 1024, 256).unwrap();
        let l1 = a.allocate(BufferKind::L1, 4 * 1024, 1024).unwrap();
        let summary = memory_usage_summary(&a);
        assert!(summary.contains("DRAM,2,4096,512,3584,3584"), "{summary}");
        let detail = detailed_memory_usage(&a);
        assert!(detail.contains(&format!("L1,1,{l1},1024,yes")), "{detail}");
        let u = ProgramL1Usage::measure(0, 2048, &a);
        assert_eq!(u.largest_free_block, l1 - 2048);
        assert_eq!(u.largest_interleavable, (l1 - 2048) * 4);
        assert!(l1_usage_summary(&[u]).lines().count() == 2);
    }
}
