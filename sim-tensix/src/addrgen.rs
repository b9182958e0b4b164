//! The interleaved address generators kernels use (`InterleavedAddrGen`, `InterleavedAddrGenFast`,
//! `InterleavedPow2AddrGenFast`, `TensorAccessor`) over the device's bank tables, implementing tt-metal's
//! page → bank formula: bank = page % banks, address = base + (page / banks) × aligned page + bank offset.

use crate::format::DataFormat;
use sim_noc::NocAddrMap;
use soc_descriptors::NocId;

/// The on-device bank tables (`dram_bank_to_noc_xy`, `bank_to_dram_offset`, `l1_bank_to_noc_xy`,
/// `bank_to_l1_offset`) and alignments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BankTables {
    /// Per NoC, per DRAM bank: the coordinate kernels use.
    pub dram_xy: [Vec<(u32, u32)>; 2],
    /// Per DRAM bank: byte offset inside its channel.
    pub dram_offset: Vec<i64>,
    /// Per NoC, per L1 bank: the coordinate kernels use.
    pub l1_xy: [Vec<(u32, u32)>; 2],
    /// Per L1 bank: byte offset of the bank relative to the lock-step address (negative for the lower banks
    /// of storage-only cores).
    pub l1_offset: Vec<i64>,
    /// `DRAM_ALIGNMENT` (bytes).
    pub dram_alignment: u32,
    /// `L1_ALIGNMENT` (bytes).
    pub l1_alignment: u32,
    /// The chip's NoC address encoding.
    pub addr_map: NocAddrMap,
}

impl BankTables {
    /// The NoC address of bank `bank`'s byte `offset` (`get_noc_addr_from_bank_id`).
    pub fn bank_noc_addr(&self, dram: bool, bank: u32, offset: u64, noc: NocId) -> Option<u64> {
        let (xy, off) = if dram { (&self.dram_xy, &self.dram_offset) } else { (&self.l1_xy, &self.l1_offset) };
        let (x, y) = *xy[noc.index()].get(bank as usize)?;
        Some(self.addr_map.xy(x, y, (offset as i64).wrapping_add(off[bank as usize]) as u64))
    }

    /// Number of banks.
    pub fn num_banks(&self, dram: bool) -> u32 {
        if dram { self.dram_offset.len() as u32 } else { self.l1_offset.len() as u32 }
    }

    /// Alignment of pages in DRAM or L1.
    pub fn alignment(&self, dram: bool) -> u32 {
        if dram { self.dram_alignment } else { self.l1_alignment }
    }

    /// NoC address of page `id` of an interleaved buffer at `base` whose pages are `stride` bytes apart
    /// in each bank.
    pub fn interleaved_page(
        &self,
        dram: bool,
        base: u32,
        stride: u64,
        id: u32,
        offset: u32,
        noc: NocId,
    ) -> Option<u64> {
        let n = self.num_banks(dram);
        if n == 0 {
            return None;
        }
        let bank = id % n;
        let idx = (id / n) as u64;
        self.bank_noc_addr(dram, bank, base as u64 + idx * stride + offset as u64, noc)
    }
}

fn align_up(v: u64, a: u32) -> u64 {
    v.div_ceil(a as u64) * a as u64
}

/// Anything that maps page ids of a buffer to NoC addresses.
pub trait AddrGen {
    /// NoC address of page `id` (+ `offset` bytes) on `noc`; `None` if the tables have no banks.
    fn page_noc_addr(&self, t: &BankTables, id: u32, offset: u32, noc: NocId) -> Option<u64>;
    /// Page size in bytes (the default transfer size of `noc_async_{read,write}_page`).
    fn page_size(&self) -> u32;
}

/// `InterleavedAddrGen<DRAM>{.bank_base_address, .page_size}`: any page size, rounded up to the alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InterleavedAddrGen<const DRAM: bool> {
    /// Buffer address (same in every bank).
    pub bank_base_address: u32,
    /// Page size in bytes.
    pub page_size: u32,
}

impl<const DRAM: bool> AddrGen for InterleavedAddrGen<DRAM> {
    fn page_noc_addr(&self, t: &BankTables, id: u32, offset: u32, noc: NocId) -> Option<u64> {
        let stride = align_up(self.page_size as u64, t.alignment(DRAM));
        t.interleaved_page(DRAM, self.bank_base_address, stride, id, offset, noc)
    }
    fn page_size(&self) -> u32 {
        self.page_size
    }
}

/// `InterleavedAddrGenFast<DRAM>{.bank_base_address, .page_size, .data_format}`: the bank stride is the
/// data format's tile size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InterleavedAddrGenFast<const DRAM: bool> {
    /// Buffer address (same in every bank).
    pub bank_base_address: u32,
    /// Page (tile) size in bytes.
    pub page_size: u32,
    /// Data format; its tile size is the stride between a bank's pages.
    pub data_format: DataFormat,
}

impl<const DRAM: bool> AddrGen for InterleavedAddrGenFast<DRAM> {
    fn page_noc_addr(&self, t: &BankTables, id: u32, offset: u32, noc: NocId) -> Option<u64> {
        t.interleaved_page(DRAM, self.bank_base_address, self.data_format.tile_size() as u64, id, offset, noc)
    }
    fn page_size(&self) -> u32 {
        self.page_size
    }
}

/// `InterleavedPow2AddrGenFast<DRAM>{.bank_base_address, .log_base_2_of_page_size}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InterleavedPow2AddrGenFast<const DRAM: bool> {
    /// Buffer address (same in every bank).
    pub bank_base_address: u32,
    /// log2 of the page size.
    pub log_base_2_of_page_size: u32,
}

impl<const DRAM: bool> AddrGen for InterleavedPow2AddrGenFast<DRAM> {
    fn page_noc_addr(&self, t: &BankTables, id: u32, offset: u32, noc: NocId) -> Option<u64> {
        t.interleaved_page(DRAM, self.bank_base_address, 1u64 << self.log_base_2_of_page_size, id, offset, noc)
    }
    fn page_size(&self) -> u32 {
        1 << self.log_base_2_of_page_size
    }
}

/// tt-metal's `tensor_accessor::ArgsConfig` bits.
pub mod args_config {
    /// Sharded buffer.
    pub const SHARDED: u32 = 1;
    /// Buffer in DRAM.
    pub const IS_DRAM: u32 = 2;
}

/// `TensorAccessorArgs<CTA_OFFSET>()`: the accessor description a host appended to the compile-time args.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TensorAccessorArgs {
    /// Where the description starts in the compile-time args.
    pub cta_offset: u32,
    /// The `ArgsConfig` bitmask.
    pub config: u32,
}

impl TensorAccessorArgs {
    /// Whether the buffer is in DRAM.
    pub fn is_dram(&self) -> bool {
        self.config & args_config::IS_DRAM != 0
    }

    /// Whether the buffer is sharded.
    pub fn is_sharded(&self) -> bool {
        self.config & args_config::SHARDED != 0
    }

    /// Offset of the next compile-time arg after this description.
    pub fn next_compile_time_args_offset(&self) -> u32 {
        self.cta_offset + 1
    }
}

/// `TensorAccessor(args, base_addr, page_size)` for interleaved buffers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TensorAccessor {
    /// The description.
    pub args: TensorAccessorArgs,
    /// Buffer address.
    pub bank_base_address: u32,
    /// Page size in bytes.
    pub page_size: u32,
}

impl AddrGen for TensorAccessor {
    fn page_noc_addr(&self, t: &BankTables, id: u32, offset: u32, noc: NocId) -> Option<u64> {
        let dram = self.args.is_dram();
        let stride = align_up(self.page_size as u64, t.alignment(dram));
        t.interleaved_page(dram, self.bank_base_address, stride, id, offset, noc)
    }
    fn page_size(&self) -> u32 {
        self.page_size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables() -> BankTables {
        BankTables {
            dram_xy: [vec![(0, 11), (0, 1), (0, 5)], vec![(0, 11), (0, 1), (0, 5)]],
            dram_offset: vec![0, 1 << 30, 0],
            l1_xy: [vec![(18, 18)], vec![(18, 18)]],
            l1_offset: vec![0],
            dram_alignment: 32,
            l1_alignment: 16,
            addr_map: NocAddrMap::of(soc_descriptors::Arch::WormholeB0),
        }
    }

    #[test]
    fn interleaved_pages_round_robin_over_banks() {
        let t = tables();
        let g = InterleavedAddrGen::<true> { bank_base_address: 0x100, page_size: 100 };
        // Page 4: bank 1, second page in that bank (stride = 128 after alignment), plus bank 1's 1 GiB offset.
        let a = g.page_noc_addr(&t, 4, 0, NocId::Noc0).unwrap();
        assert_eq!(t.addr_map.decode(a), (0, 1, (1 << 30) + 0x100 + 128));
        let f =
            InterleavedAddrGenFast::<true> { bank_base_address: 0, page_size: 1088, data_format: DataFormat::Bfp8_b };
        assert_eq!(t.addr_map.decode(f.page_noc_addr(&t, 5, 8, NocId::Noc1).unwrap()), (0, 5, 1088 + 8));
    }
}
