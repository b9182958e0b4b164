//! The address generators kernels use (`InterleavedAddrGen`, `InterleavedAddrGenFast`,
//! `InterleavedPow2AddrGenFast`, `TensorAccessor` over interleaved and sharded buffers) over the device's
//! bank tables. Which bank and slot hold a page is `layout`'s placement (`interleaved_location`,
//! `ShardDistribution`); the address is base + slot × aligned page + the bank's offset.

use crate::format::DataFormat;
use layout::Shape;
use layout::placement::{DistributionStrategy, ShardDistribution};
use sim_noc::NocAddrMap;
use soc_descriptors::NocId;
use std::rc::Rc;

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
        let loc = layout::interleaved_location(id as u64, n);
        self.bank_noc_addr(dram, loc.bank, base as u64 + loc.slot * stride + offset as u64, noc)
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
    /// tensim's extension: shards dealt block-cyclically over a core grid (`GRID_2D`); two more words
    /// (grid columns, rows) follow the bank coordinates.
    pub const GRID_2D: u32 = 1 << 8;
}

/// The shard description a sharded buffer's accessor args carry: the distribution (tensor and shard in
/// pages, round-robin over the banks) and each bank's coordinate (a core's NoC coordinate for L1, a DRAM
/// bank id in `x` for DRAM).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardedArgs {
    /// Where each page lives.
    pub dist: ShardDistribution,
    /// Per bank, in distribution order.
    pub banks: Vec<(u32, u32)>,
}

/// `TensorAccessorArgs<CTA_OFFSET>()`: the accessor description a host appended to the compile-time args.
/// Interleaved buffers take one word (the `ArgsConfig` bitmask); sharded ones add the rank, the number of
/// banks, the tensor and shard shapes in pages and one word per bank (`x << 16 | y`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorAccessorArgs {
    /// Where the description starts in the compile-time args.
    pub cta_offset: u32,
    /// The `ArgsConfig` bitmask.
    pub config: u32,
    /// The shard description of a sharded buffer.
    pub sharded: Option<Rc<ShardedArgs>>,
}

impl TensorAccessorArgs {
    /// Read a description at `cta_offset` of `args` (the kernel's compile-time args).
    pub fn parse(args: &[u32], cta_offset: u32) -> Result<TensorAccessorArgs, String> {
        let at = |i: u32| {
            args.get(i as usize).copied().ok_or_else(|| {
                format!(
                    "TensorAccessorArgs<{cta_offset}>: compile-time arg {i} is missing (only {} given); append the buffer's TensorAccessorArgs on the host",
                    args.len()
                )
            })
        };
        let config = at(cta_offset)?;
        if config & args_config::SHARDED == 0 {
            return Ok(TensorAccessorArgs { cta_offset, config, sharded: None });
        }
        let rank = at(cta_offset + 1)?;
        let banks = at(cta_offset + 2)?;
        if rank == 0 || rank > 8 || banks == 0 {
            return Err(format!(
                "TensorAccessorArgs<{cta_offset}>: a sharded description needs rank 1..=8 and at least one bank (rank {rank}, {banks} banks)"
            ));
        }
        let dims = |first: u32| -> Result<Shape, String> {
            (0..rank).map(|i| at(first + i).map(u64::from)).collect::<Result<Vec<_>, _>>().map(Shape::new)
        };
        let tensor = dims(cta_offset + 3)?;
        let shard = dims(cta_offset + 3 + rank)?;
        let first_bank = cta_offset + 3 + 2 * rank;
        let n = banks;
        let banks = (0..n).map(|i| at(first_bank + i).map(|w| (w >> 16, w & 0xffff))).collect::<Result<Vec<_>, _>>()?;
        let strategy = if config & args_config::GRID_2D != 0 {
            DistributionStrategy::Grid2D { cols: at(first_bank + n)?, rows: at(first_bank + n + 1)? }
        } else {
            DistributionStrategy::RoundRobin1D
        };
        let dist = ShardDistribution::new(tensor, shard, banks.len() as u32, strategy)
            .map_err(|e| format!("TensorAccessorArgs<{cta_offset}>: {e}"))?;
        Ok(TensorAccessorArgs { cta_offset, config, sharded: Some(Rc::new(ShardedArgs { dist, banks })) })
    }

    /// Whether the buffer is in DRAM.
    pub fn is_dram(&self) -> bool {
        self.config & args_config::IS_DRAM != 0
    }

    /// Whether the buffer is sharded.
    pub fn is_sharded(&self) -> bool {
        self.config & args_config::SHARDED != 0
    }

    /// Compile-time args the description takes.
    pub fn num_compile_time_args(&self) -> u32 {
        match &self.sharded {
            None => 1,
            Some(s) => {
                let grid = if self.config & args_config::GRID_2D != 0 { 2 } else { 0 };
                3 + 2 * s.dist.tensor_pages().rank() as u32 + s.banks.len() as u32 + grid
            }
        }
    }

    /// Offset of the next compile-time arg after this description.
    pub fn next_compile_time_args_offset(&self) -> u32 {
        self.cta_offset + self.num_compile_time_args()
    }
}

/// `TensorAccessor(args, base_addr, page_size)` over an interleaved or a sharded buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorAccessor {
    /// The description.
    pub args: TensorAccessorArgs,
    /// Buffer address.
    pub bank_base_address: u32,
    /// Page size in bytes.
    pub page_size: u32,
}

impl TensorAccessor {
    /// The page size rounded up to the bank alignment (the stride between a bank's pages).
    pub fn aligned_page_size(&self, t: &BankTables) -> u64 {
        align_up(self.page_size as u64, t.alignment(self.args.is_dram()))
    }

    /// NoC address of byte `offset` of slot `slot` of bank `bank` of a sharded buffer.
    fn bank_slot_addr(
        &self,
        t: &BankTables,
        s: &ShardedArgs,
        bank: u32,
        slot: u64,
        offset: u32,
        noc: NocId,
    ) -> Option<u64> {
        let (x, y) = *s.banks.get(bank as usize)?;
        let local = self.bank_base_address as u64 + slot * self.aligned_page_size(t) + offset as u64;
        if self.args.is_dram() { t.bank_noc_addr(true, x, local, noc) } else { Some(t.addr_map.xy(x, y, local)) }
    }

    /// `get_shard_noc_addr(shard_id, offset)`: the first byte of shard `shard_id` (plus `offset`); `None` for
    /// an interleaved buffer or a shard that does not exist.
    pub fn shard_noc_addr(&self, t: &BankTables, shard_id: u32, offset: u32, noc: NocId) -> Option<u64> {
        let s = self.args.sharded.as_ref()?;
        let loc = s.dist.shard_location(shard_id as u64)?;
        self.bank_slot_addr(t, s, loc.bank, loc.slot, offset, noc)
    }

    /// Bytes of one shard (pages × aligned page size).
    pub fn shard_bytes(&self, t: &BankTables) -> Option<u64> {
        let s = self.args.sharded.as_ref()?;
        Some(s.dist.shard_pages().volume() * self.aligned_page_size(t))
    }
}

impl AddrGen for TensorAccessor {
    fn page_noc_addr(&self, t: &BankTables, id: u32, offset: u32, noc: NocId) -> Option<u64> {
        match &self.args.sharded {
            None => {
                let dram = self.args.is_dram();
                t.interleaved_page(dram, self.bank_base_address, self.aligned_page_size(t), id, offset, noc)
            }
            Some(s) => {
                let loc = s.dist.locate(id as u64)?;
                self.bank_slot_addr(t, s, loc.bank, loc.slot, offset, noc)
            }
        }
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
