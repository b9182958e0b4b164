//! NoC addresses: of a core's L1 (`get_noc_addr`), of a multicast rectangle, of a bank, of a page of an
//! interleaved buffer through an address generator or a `TensorAccessor`.

use super::Dataflow;
use crate::addrgen::{AddrGen, ArgsLayout, InterleavedAddrGen, TensorAccessor, TensorAccessorArgs};

impl Dataflow<'_> {
    // ---------------------------------------------------------------------------------------------
    // NoC addresses
    // ---------------------------------------------------------------------------------------------

    /// `get_noc_addr(x, y, addr)`.
    pub fn get_noc_addr(&self, x: u32, y: u32, addr: u32) -> u64 {
        self.ctx.spend(self.ctx.costs.addr_gen);
        self.ctx.k.tables.addr_map.xy(x, y, addr as u64)
    }

    /// `get_noc_addr(addr)`: this core's own L1.
    pub fn get_noc_addr_local(&self, addr: u32) -> u64 {
        self.ctx.spend(self.ctx.costs.addr_gen);
        self.ctx.k.tables.addr_map.xy(self.ctx.k.noc_xy.0, self.ctx.k.noc_xy.1, addr as u64)
    }

    /// `get_noc_multicast_addr(x_start, y_start, x_end, y_end, addr)`.
    pub fn get_noc_multicast_addr(&self, x_start: u32, y_start: u32, x_end: u32, y_end: u32, addr: u32) -> u64 {
        self.ctx.spend(self.ctx.costs.addr_gen);
        self.ctx.k.tables.addr_map.multicast(x_start, y_start, x_end, y_end, addr as u64)
    }

    /// `get_noc_addr_from_bank_id<DRAM>(bank_id, offset)`.
    pub fn get_noc_addr_from_bank_id<const DRAM: bool>(&self, bank_id: u32, offset: u32) -> u64 {
        self.ctx.spend(self.ctx.costs.addr_gen);
        match self.ctx.k.tables.bank_noc_addr(DRAM, bank_id, offset as u64, self.ctx.k.noc) {
            Some(a) => a,
            None => self.ctx.fail(format!(
                "get_noc_addr_from_bank_id: bank {bank_id} does not exist ({} {} banks)",
                self.ctx.k.tables.num_banks(DRAM),
                if DRAM { "DRAM" } else { "L1" }
            )),
        }
    }

    /// `get_noc_addr(page_id, addr_gen, offset)`: NoC address of a page of an interleaved buffer.
    pub fn get_noc_addr_page<G: AddrGen>(&self, page_id: u32, addrgen: &G, offset: u32) -> u64 {
        self.ctx.spend(self.ctx.costs.addr_gen);
        let noc = self.ctx.k.noc;
        match addrgen.page_noc_addr(&self.ctx.k.tables, page_id, offset, noc) {
            Some(a) => a,
            None => self.ctx.fail(format!(
                "get_noc_addr: page {page_id} has no address (past the last page of a sharded buffer, or the chip has no banks of this kind)"
            )),
        }
    }

    /// `get_dram_noc_addr(id, page_size, base, offset)`.
    pub fn get_dram_noc_addr(&self, id: u32, page_size: u32, base: u32, offset: u32) -> u64 {
        self.get_noc_addr_page(id, &InterleavedAddrGen::<true> { bank_base_address: base, page_size }, offset)
    }

    /// `get_l1_noc_addr(id, page_size, base, offset)`.
    pub fn get_l1_noc_addr(&self, id: u32, page_size: u32, base: u32, offset: u32) -> u64 {
        self.get_noc_addr_page(id, &InterleavedAddrGen::<false> { bank_base_address: base, page_size }, offset)
    }

    /// The number of DRAM (`dram`) or L1 banks of the chip.
    pub fn num_banks(&self, dram: bool) -> u32 {
        self.ctx.k.tables.num_banks(dram)
    }

    /// The NoC coordinates a unicast NoC address names (no time: a few bit operations on the RISC).
    pub fn noc_addr_xy(&self, addr: u64) -> (u32, u32) {
        let (x, y, _) = self.ctx.k.tables.addr_map.decode(addr);
        (x, y)
    }

    /// `TensorAccessorArgs<cta_offset>()`: read an accessor description (interleaved or sharded) from the
    /// compile-time args.
    pub fn tensor_accessor_args(&self, cta_offset: u32) -> TensorAccessorArgs {
        self.tensor_accessor_args_at(cta_offset, 0, ArgsLayout::Current)
    }

    /// `TensorAccessorArgs<cta_offset, crta_offset>()` in a given layout: runtime fields come from the
    /// common runtime args at `crta_offset`.
    pub fn tensor_accessor_args_at(&self, cta_offset: u32, crta_offset: u32, layout: ArgsLayout) -> TensorAccessorArgs {
        let a = &self.ctx.k.args;
        match TensorAccessorArgs::parse_with(&a.compile, cta_offset, &a.common, crta_offset, layout) {
            Ok(a) => a,
            Err(e) => self.ctx.fail(e),
        }
    }

    /// `accessor.get_shard_noc_addr(shard_id, offset)`: the NoC address of a shard of a sharded buffer.
    pub fn get_shard_noc_addr(&self, accessor: &TensorAccessor, shard_id: u32, offset: u32) -> u64 {
        self.ctx.spend(self.ctx.costs.addr_gen);
        if !accessor.args.is_sharded() {
            self.ctx.fail("get_shard_noc_addr: the accessor's buffer is interleaved, not sharded".into());
        }
        match accessor.shard_noc_addr(&self.ctx.k.tables, shard_id, offset, self.ctx.k.noc) {
            Some(a) => a,
            None => self.ctx.fail(format!(
                "get_shard_noc_addr: shard {shard_id} does not exist ({} shards)",
                accessor.args.sharded.as_ref().map_or(0, |s| s.dist.num_shards())
            )),
        }
    }
}
