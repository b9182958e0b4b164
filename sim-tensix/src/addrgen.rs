//! The address generators kernels use (`InterleavedAddrGen`, `InterleavedAddrGenFast`,
//! `InterleavedPow2AddrGenFast`, `TensorAccessor` over interleaved and sharded buffers) over the device's
//! bank tables. Which bank and slot hold a page is `layout`'s placement (`interleaved_location`,
//! `ShardDistribution`); the address is base + slot × aligned page + the bank's offset.

use layout::Shape;
use layout::format::DataFormat;
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
    /// The rank is in the common runtime args, not the compile-time args.
    pub const RUNTIME_RANK: u32 = 4;
    /// The number of banks is in the common runtime args.
    pub const RUNTIME_NUM_BANKS: u32 = 8;
    /// The tensor shape is in the common runtime args.
    pub const RUNTIME_TENSOR_SHAPE: u32 = 16;
    /// The shard shape is in the common runtime args.
    pub const RUNTIME_SHARD_SHAPE: u32 = 32;
    /// The bank coordinates are in the common runtime args.
    pub const RUNTIME_BANK_COORDS: u32 = 64;
    /// Every runtime bit.
    pub const RUNTIME: u32 =
        RUNTIME_RANK | RUNTIME_NUM_BANKS | RUNTIME_TENSOR_SHAPE | RUNTIME_SHARD_SHAPE | RUNTIME_BANK_COORDS;
    /// Metal 2.0's binding marker: never set by `append_to`, ignored.
    pub const BOUND: u32 = 128;
    /// tensim's extension: shards dealt block-cyclically over a core grid (`GRID_2D`); two more
    /// compile-time words (grid columns, rows) follow the bank coordinates.
    pub const GRID_2D: u32 = 1 << 8;
}

/// Which generation of the compile-time layout a kernel reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ArgsLayout {
    /// Today's layout: the config word, then the aligned page size (two words for an interleaved buffer).
    #[default]
    Current,
    /// The layout before the page-size word (2025): the config word alone for an interleaved buffer.
    OneWord,
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

/// Pack bank coordinates as the args carry them: two per word, bank `2k` in the low half; each half
/// `(x & 0xff) << 8 | (y & 0xff)`.
pub fn pack_bank_coords(banks: &[(u32, u32)]) -> Vec<u32> {
    banks
        .chunks(2)
        .map(|pair| {
            let half = |&(x, y): &(u32, u32)| ((x & 0xff) << 8) | (y & 0xff);
            half(&pair[0]) | pair.get(1).map_or(0, |b| half(b) << 16)
        })
        .collect()
}

/// `TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>()`: the accessor description a host appended to the
/// compile-time args (and, for the fields it marked runtime, to the common runtime args). Current layout:
/// the `ArgsConfig` word, the aligned page size, then for a sharded buffer the rank, the number of banks,
/// the tensor and shard shapes in pages (outermost first) and the bank coordinates two per word; every
/// field whose `Runtime*` bit is set is read, in the same order, from the common runtime args at
/// `crta_offset` instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorAccessorArgs {
    /// Where the description starts in the compile-time args.
    pub cta_offset: u32,
    /// Where its runtime fields start in the common runtime args.
    pub crta_offset: u32,
    /// The layout it was read in.
    pub layout: ArgsLayout,
    /// The `ArgsConfig` bitmask.
    pub config: u32,
    /// The aligned page size the host recorded (0 in the one-word layout and for a placeholder).
    pub aligned_page_size: u32,
    /// Compile-time words the description takes.
    pub num_ct: u32,
    /// Common runtime words it takes.
    pub num_crta: u32,
    /// The shard description of a sharded buffer.
    pub sharded: Option<Rc<ShardedArgs>>,
}

impl TensorAccessorArgs {
    /// Read a description at `cta_offset` of `args` (the kernel's compile-time args) in the current layout,
    /// with no runtime fields.
    pub fn parse(args: &[u32], cta_offset: u32) -> Result<TensorAccessorArgs, String> {
        Self::parse_with(args, cta_offset, &[], 0, ArgsLayout::Current)
    }

    /// Read a description at `cta_offset` of `ct`, its runtime fields at `crta_offset` of `crta` (the
    /// kernel's common runtime args), in `layout`.
    pub fn parse_with(
        ct: &[u32],
        cta_offset: u32,
        crta: &[u32],
        crta_offset: u32,
        layout: ArgsLayout,
    ) -> Result<TensorAccessorArgs, String> {
        let name = format!("TensorAccessorArgs<{cta_offset}>");
        let ct_at = |i: u32| {
            ct.get(i as usize).copied().ok_or_else(|| {
                format!(
                    "{name}: compile-time arg {i} is missing (only {} given); append the buffer's TensorAccessorArgs on the host",
                    ct.len()
                )
            })
        };
        let config = ct_at(cta_offset)?;
        let mut next_ct = cta_offset + 1;
        let aligned_page_size = match layout {
            ArgsLayout::Current => {
                next_ct += 1;
                ct_at(cta_offset + 1)?
            }
            ArgsLayout::OneWord => 0,
        };
        if config & args_config::SHARDED == 0 {
            return Ok(TensorAccessorArgs {
                cta_offset,
                crta_offset,
                layout,
                config,
                aligned_page_size,
                num_ct: next_ct - cta_offset,
                num_crta: 0,
                sharded: None,
            });
        }
        if config & args_config::RUNTIME_RANK != 0
            && config & (args_config::RUNTIME_TENSOR_SHAPE | args_config::RUNTIME_SHARD_SHAPE)
                != (args_config::RUNTIME_TENSOR_SHAPE | args_config::RUNTIME_SHARD_SHAPE)
        {
            return Err(format!(
                "{name}: a runtime rank needs a runtime tensor shape and shard shape (config {config:#x})"
            ));
        }
        if config & args_config::RUNTIME_NUM_BANKS != 0 && config & args_config::RUNTIME_BANK_COORDS == 0 {
            return Err(format!(
                "{name}: a runtime number of banks needs runtime bank coordinates (config {config:#x})"
            ));
        }
        let mut next_crta = crta_offset;
        // One field: from the common runtime args when its runtime bit is set, else the compile-time args.
        let mut field = |bit: u32, words: u32| -> Result<Vec<u32>, String> {
            if config & bit != 0 {
                let v = (next_crta..next_crta + words)
                    .map(|i| {
                        crta.get(i as usize).copied().ok_or_else(|| {
                            format!(
                                "{name}: common runtime arg {i} is missing (only {} given); set the accessor's common runtime args on the host (SetCommonRuntimeArgs)",
                                crta.len()
                            )
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                next_crta += words;
                Ok(v)
            } else {
                let v = (next_ct..next_ct + words).map(ct_at).collect::<Result<Vec<_>, _>>()?;
                next_ct += words;
                Ok(v)
            }
        };
        let rank = field(args_config::RUNTIME_RANK, 1)?[0];
        let n = field(args_config::RUNTIME_NUM_BANKS, 1)?[0];
        if rank == 0 || rank > 8 || n == 0 {
            return Err(format!(
                "{name}: a sharded description needs rank 1..=8 and at least one bank (rank {rank}, {n} banks)"
            ));
        }
        let tensor =
            Shape::new(field(args_config::RUNTIME_TENSOR_SHAPE, rank)?.into_iter().map(u64::from).collect::<Vec<_>>());
        let shard =
            Shape::new(field(args_config::RUNTIME_SHARD_SHAPE, rank)?.into_iter().map(u64::from).collect::<Vec<_>>());
        let words = field(args_config::RUNTIME_BANK_COORDS, n.div_ceil(2))?;
        let banks: Vec<(u32, u32)> = (0..n as usize)
            .map(|k| {
                let half = (words[k / 2] >> (16 * (k % 2))) & 0xffff;
                (half >> 8, half & 0xff)
            })
            .collect();
        let strategy = if config & args_config::GRID_2D != 0 {
            let g = (next_ct..next_ct + 2).map(ct_at).collect::<Result<Vec<_>, _>>()?;
            next_ct += 2;
            DistributionStrategy::Grid2D { cols: g[0], rows: g[1] }
        } else {
            DistributionStrategy::RoundRobin1D
        };
        let dist =
            ShardDistribution::new(tensor, shard, banks.len() as u32, strategy).map_err(|e| format!("{name}: {e}"))?;
        Ok(TensorAccessorArgs {
            cta_offset,
            crta_offset,
            layout,
            config,
            aligned_page_size,
            num_ct: next_ct - cta_offset,
            num_crta: next_crta - crta_offset,
            sharded: Some(Rc::new(ShardedArgs { dist, banks })),
        })
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
        self.num_ct
    }

    /// Offset of the next compile-time arg after this description.
    pub fn next_compile_time_args_offset(&self) -> u32 {
        self.cta_offset + self.num_ct
    }

    /// Common runtime args the description takes.
    pub fn num_common_runtime_args(&self) -> u32 {
        self.num_crta
    }

    /// Offset of the next common runtime arg after this description.
    pub fn next_common_runtime_args_offset(&self) -> u32 {
        self.crta_offset + self.num_crta
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
    /// `TensorAccessor(args, base_addr[, page_size])`: a page size of 0 takes the aligned page size the
    /// host recorded in the args (today's default).
    pub fn new(args: TensorAccessorArgs, bank_base_address: u32, page_size: u32) -> TensorAccessor {
        let page_size = if page_size == 0 { args.aligned_page_size } else { page_size };
        TensorAccessor { args, bank_base_address, page_size }
    }

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
