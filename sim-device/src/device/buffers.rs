//! Device buffers on the host side: `CreateBuffer` (interleaved or sharded, L1 or DRAM), `DeallocateBuffer`,
//! `EnqueueWriteBuffer`/`EnqueueReadBuffer` in host page order (pages go where `layout`'s placement puts
//! them), regions of them (`EnqueueWriteSubBuffer`/`EnqueueReadSubBuffer`), buffers at a given address.

use super::Device;
use crate::buffer::{
    Buffer, BufferSharding, BufferType, HostData, InterleavedBufferConfig, ShardParameters, ShardedBufferConfig,
    from_bytes, to_bytes, write_bytes,
};
use crate::error::DeviceError;
use allocator::BufferKind;
use layout::core_ranges::CoreCoord;
use layout::placement::TensorMemoryLayout;
use soc_descriptors::NocId;
use std::sync::Arc;

/// Where a page is, as kernels address it over the NoC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageNocLocation {
    /// NoC x (translated, as kernels pass it).
    pub x: u32,
    /// NoC y.
    pub y: u32,
    /// Address at that endpoint (L1 address, or byte address inside the DRAM channel).
    pub addr: u64,
    /// The logical core, for L1.
    pub core: Option<CoreCoord>,
    /// The DRAM bank, for DRAM.
    pub dram_bank: Option<u32>,
}

/// Where one page of a buffer is: the memory, the L1 (core index) or DRAM channel, and the address in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PageAddr {
    pub kind: BufferKind,
    pub index: usize,
    pub addr: u64,
}

fn kind_of(t: BufferType) -> BufferKind {
    match t {
        BufferType::Dram => BufferKind::Dram,
        BufferType::L1 => BufferKind::L1,
    }
}

/// Where a new buffer's memory comes from: the allocator (from the bottom or the top of the banks, `None`
/// as the memory does by default: DRAM from the bottom, L1 from the top), or a given address whose memory
/// the program manages itself (`CreateBuffer(config, address)`: nothing is allocated or freed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufferPlacement {
    /// Allocated; `Some(true)` is `bottom_up = true`.
    Allocate { bottom_up: Option<bool> },
    /// At this address in every bank, not allocated.
    At(u64),
}

/// The allocation direction `bottom_up` asks for.
fn direction(bottom_up: Option<bool>) -> Option<allocator::Direction> {
    bottom_up.map(|b| if b { allocator::Direction::BottomUp } else { allocator::Direction::TopDown })
}

impl BufferPlacement {
    /// The placement a `bottom_up` option asks for.
    pub fn allocate(bottom_up: Option<bool>) -> BufferPlacement {
        BufferPlacement::Allocate { bottom_up }
    }
}

impl Device {
    fn check_sizes(api: &str, size: u64, page_size: u64) -> Result<(), DeviceError> {
        if page_size == 0 || size == 0 {
            return Err(DeviceError::api(format!("{api}: size {size} and page size {page_size} must be positive")));
        }
        if !size.is_multiple_of(page_size) {
            return Err(DeviceError::api(format!(
                "{api}: size {size} is not a whole number of {page_size}-byte pages"
            )));
        }
        Ok(())
    }

    fn register(&mut self, mut b: Buffer) -> Buffer {
        b.id = self.next_buffer;
        self.next_buffer += 1;
        self.buffers.insert(b.id, b.clone());
        b
    }

    /// `CreateBuffer(InterleavedBufferConfig{…})`.
    pub fn create_buffer(&mut self, cfg: InterleavedBufferConfig) -> Result<Buffer, DeviceError> {
        self.create_buffer_from(cfg, None)
    }

    /// `CreateBuffer` with `bottom_up` (a buffer config's or `DeviceLocalBufferConfig`'s): `Some(true)`
    /// allocates from the bottom of the banks, `Some(false)` from the top, `None` as the memory does by
    /// default (DRAM from the bottom, L1 from the top).
    pub fn create_buffer_from(
        &mut self,
        cfg: InterleavedBufferConfig,
        bottom_up: Option<bool>,
    ) -> Result<Buffer, DeviceError> {
        self.create_buffer_placed(cfg, BufferPlacement::allocate(bottom_up))
    }

    /// `CreateBuffer(InterleavedBufferConfig{…}, address)`: the buffer at `address` in every bank, its memory
    /// not allocated (the program manages it, as tt-metal's buffers at a given address); the range must lie
    /// inside the banks' buffer space and the address on their alignment.
    pub fn create_buffer_at(&mut self, cfg: InterleavedBufferConfig, address: u64) -> Result<Buffer, DeviceError> {
        self.create_buffer_placed(cfg, BufferPlacement::At(address))
    }

    /// [`Device::create_buffer`] placed as `placement` says.
    pub fn create_buffer_placed(
        &mut self,
        cfg: InterleavedBufferConfig,
        placement: BufferPlacement,
    ) -> Result<Buffer, DeviceError> {
        let api = "CreateBuffer";
        Device::check_sizes(api, cfg.size, cfg.page_size)?;
        let kind = kind_of(cfg.buffer_type);
        let pages = cfg.size / cfg.page_size;
        let per_bank = self.allocator.banks(kind).size_per_bank(pages, cfg.page_size);
        let address = match placement {
            BufferPlacement::Allocate { bottom_up } => self
                .allocator
                .allocate_from(kind, cfg.size, cfg.page_size, direction(bottom_up))
                .map_err(|e| DeviceError::api(format!("{api}: {e}")))?,
            BufferPlacement::At(addr) => self.check_placed_range(api, kind, addr, per_bank)?,
        };
        let banks = self.allocator.banks(kind);
        let b = Buffer {
            id: 0,
            address,
            size: cfg.size,
            page_size: cfg.page_size,
            aligned_page_size: banks.aligned_page_size(cfg.page_size),
            buffer_type: cfg.buffer_type,
            num_banks: banks.num_banks(),
            sharding: None,
            owns_memory: matches!(placement, BufferPlacement::Allocate { .. }),
        };
        Ok(self.register(b))
    }

    /// `CreateBuffer(ShardedBufferConfig{…})`: shards on the cores of an L1 grid or on DRAM banks, allocated
    /// lock-step (every bank of the memory reserves what the fullest shard bank needs).
    pub fn create_sharded_buffer(&mut self, cfg: &ShardedBufferConfig) -> Result<Buffer, DeviceError> {
        self.create_sharded_buffer_from(cfg, None)
    }

    /// [`Device::create_sharded_buffer`] with `bottom_up` (see [`Device::create_buffer_from`]).
    pub fn create_sharded_buffer_from(
        &mut self,
        cfg: &ShardedBufferConfig,
        bottom_up: Option<bool>,
    ) -> Result<Buffer, DeviceError> {
        self.create_sharded_buffer_placed(cfg, BufferPlacement::allocate(bottom_up))
    }

    /// [`Device::create_sharded_buffer`] placed as `placement` says (see [`Device::create_buffer_at`]).
    pub fn create_sharded_buffer_placed(
        &mut self,
        cfg: &ShardedBufferConfig,
        placement: BufferPlacement,
    ) -> Result<Buffer, DeviceError> {
        let api = "CreateBuffer(sharded)";
        Device::check_sizes(api, cfg.size, cfg.page_size)?;
        let (layout, spec, dist, cores) = match &cfg.shards {
            ShardParameters::Legacy { layout, spec } => {
                let d = spec.distribution(*layout)?;
                (*layout, Some(spec.clone()), d, spec.cores())
            }
            ShardParameters::Nd(nd) => {
                (TensorMemoryLayout::BlockSharded, None, nd.distribution().clone(), nd.cores.clone())
            }
        };
        let pages = cfg.size / cfg.page_size;
        if dist.num_pages() != pages {
            return Err(DeviceError::api(format!(
                "{api}: the shard spec covers a tensor of {} pages ({}) but the buffer has {pages} pages of {} bytes",
                dist.num_pages(),
                dist.tensor_pages(),
                cfg.page_size
            )));
        }
        let bank_xy = self.shard_banks(api, cfg.buffer_type, &cores)?;
        let kind = kind_of(cfg.buffer_type);
        let aligned = self.allocator.banks(kind).aligned_page_size(cfg.page_size);
        let per_bank = dist.slots_per_core() * aligned;
        let address = match placement {
            BufferPlacement::Allocate { bottom_up } => {
                self.allocator.allocate_per_bank_from(kind, per_bank, direction(bottom_up)).map_err(|e| {
                    DeviceError::api(format!(
                        "{api}: {e} ({} shard(s) of {} pages per {} of {})",
                        dist.max_shards_per_core(),
                        dist.shard_pages(),
                        if cfg.buffer_type == BufferType::L1 { "core" } else { "DRAM bank" },
                        cores.len()
                    ))
                })?
            }
            BufferPlacement::At(addr) => self.check_placed_range(api, kind, addr, per_bank)?,
        };
        let b = Buffer {
            id: 0,
            address,
            size: cfg.size,
            page_size: cfg.page_size,
            aligned_page_size: aligned,
            buffer_type: cfg.buffer_type,
            num_banks: cores.len() as u32,
            sharding: Some(Arc::new(BufferSharding { layout, spec, dist, cores, bank_xy })),
            owns_memory: matches!(placement, BufferPlacement::Allocate { .. }),
        };
        Ok(self.register(b))
    }

    /// A buffer placed at `addr` with `per_bank` bytes in each bank: the address must be on the banks'
    /// alignment and the range inside their buffer space (below it L1 holds firmware and the program's
    /// circular buffers, DRAM its reserved area).
    fn check_placed_range(&self, api: &str, kind: BufferKind, addr: u64, per_bank: u64) -> Result<u64, DeviceError> {
        let banks = self.allocator.banks(kind);
        let (base, size, align) = (banks.free_list().base(), banks.free_list().size(), banks.alignment());
        let memory = match kind {
            BufferKind::Dram => "DRAM bank",
            BufferKind::L1 => "L1 bank",
        };
        if !addr.is_multiple_of(align) {
            return Err(DeviceError::api(format!(
                "{api}: address {addr:#x} is not a multiple of the {memory} alignment ({align} bytes)"
            )));
        }
        let end = base + size;
        if addr < base || addr.checked_add(per_bank).is_none_or(|e| e > end) {
            return Err(DeviceError::api(format!(
                "{api}: {per_bank} bytes per bank at {addr:#x} do not lie inside the {memory}s' buffer space \
                 {base:#x}..{end:#x}"
            )));
        }
        Ok(addr)
    }

    /// The kernel-visible coordinate of each shard bank, checking that each exists: a worker core for L1,
    /// a DRAM bank (`x`, with `y` = 0) for DRAM.
    fn shard_banks(&self, api: &str, t: BufferType, cores: &[CoreCoord]) -> Result<Vec<(u32, u32)>, DeviceError> {
        let mut seen = std::collections::HashSet::new();
        cores
            .iter()
            .map(|&c| {
                if !seen.insert(c) {
                    return Err(DeviceError::api(format!("{api}: core ({},{}) appears twice in the shard grid", c.x, c.y)));
                }
                match t {
                    BufferType::L1 => {
                        if !self.l1_banks.iter().any(|(b, off)| *b == c && *off == 0) {
                            let g = self.chip.logical_grid();
                            return Err(DeviceError::api(format!(
                                "{api}: core ({},{}) of the shard grid is not a worker core of this {} (logical grid {g})",
                                c.x,
                                c.y,
                                self.arch()
                            )));
                        }
                        let t = self.worker_core_from_logical_core(c)?;
                        Ok((t.x, t.y))
                    }
                    BufferType::Dram => {
                        let n = self.num_dram_channels() as u32;
                        if c.y != 0 || c.x >= n {
                            return Err(DeviceError::api(format!(
                                "{api}: DRAM shards go to banks (x, 0) with x < {n}, not ({},{})",
                                c.x, c.y
                            )));
                        }
                        Ok((c.x, 0))
                    }
                }
            })
            .collect()
    }

    /// `DeallocateBuffer(buffer)`.
    pub fn deallocate_buffer(&mut self, b: &Buffer) -> Result<(), DeviceError> {
        if self.buffers.remove(&b.id).is_none() {
            return Err(DeviceError::api(format!("DeallocateBuffer: buffer at {:#x} is not allocated", b.address)));
        }
        if b.owns_memory {
            self.allocator.deallocate(kind_of(b.buffer_type), b.address);
        }
        Ok(())
    }

    pub(crate) fn check_live(&self, b: &Buffer, api: &str) -> Result<(), DeviceError> {
        if self.buffers.get(&b.id) != Some(b) {
            return Err(DeviceError::api(format!("{api}: the buffer at {:#x} has been deallocated", b.address)));
        }
        Ok(())
    }

    /// Where host page `page` of `b` lives.
    pub(crate) fn page_addr(&self, b: &Buffer, page: u64) -> PageAddr {
        let loc = b.distribution().locate(page).expect("page inside the buffer");
        let addr = b.address + loc.slot * b.aligned_page_size;
        let kind = kind_of(b.buffer_type);
        match (&b.sharding, kind) {
            (None, BufferKind::Dram) | (Some(_), BufferKind::Dram) => {
                let bank = match &b.sharding {
                    Some(s) => s.cores[loc.bank as usize].x as usize,
                    None => loc.bank as usize,
                };
                let db = &self.chip.soc().dram_banks[bank];
                PageAddr { kind, index: db.channel as usize, addr: db.address_offset + addr }
            }
            (None, BufferKind::L1) => {
                let (core, off) = self.l1_banks[loc.bank as usize];
                let g = self.chip.logical_grid();
                PageAddr { kind, index: (core.y * g.x + core.x) as usize, addr: (addr as i64 + off) as u64 }
            }
            (Some(s), BufferKind::L1) => {
                let core = s.cores[loc.bank as usize];
                let g = self.chip.logical_grid();
                PageAddr { kind, index: (core.y * g.x + core.x) as usize, addr }
            }
        }
    }

    /// Where host page `page` of `b` is, as a kernel on `noc` addresses it: the NoC coordinate of its L1
    /// core or DRAM endpoint (what `get_noc_addr(x, y, addr)` takes) and the local address there; plus, for
    /// L1, the logical core.
    pub fn page_noc_location(&self, b: &Buffer, page: u64, noc: NocId) -> Result<PageNocLocation, DeviceError> {
        if page >= b.num_pages() {
            return Err(DeviceError::api(format!(
                "page {page} of the buffer at {:#x}: it has {} pages",
                b.address,
                b.num_pages()
            )));
        }
        let loc = b.distribution().locate(page).expect("page inside the buffer");
        let local = b.address + loc.slot * b.aligned_page_size;
        Ok(match (b.buffer_type, &b.sharding) {
            (BufferType::L1, s) => {
                let (core, off) = match s {
                    Some(s) => (s.cores[loc.bank as usize], 0),
                    None => self.l1_banks[loc.bank as usize],
                };
                let t = self.worker_core_from_logical_core(core)?;
                PageNocLocation { x: t.x, y: t.y, addr: (local as i64 + off) as u64, core: Some(core), dram_bank: None }
            }
            (BufferType::Dram, s) => {
                let bank = match s {
                    Some(s) => s.cores[loc.bank as usize].x as usize,
                    None => loc.bank as usize,
                };
                let t = self.chip.dram_bank_noc_xy(noc, bank);
                let db = &self.chip.soc().dram_banks[bank];
                PageNocLocation {
                    x: t.x,
                    y: t.y,
                    addr: db.address_offset + local,
                    core: None,
                    dram_bank: Some(bank as u32),
                }
            }
        })
    }

    pub(crate) fn write_page(&mut self, b: &Buffer, page: u64, data: &[u8]) {
        let a = self.page_addr(b, page);
        match a.kind {
            BufferKind::Dram => self.dram.channel_mut(a.index).write(a.addr, data),
            BufferKind::L1 => self.l1[a.index].write(a.addr, data).expect("buffer inside L1"),
        }
    }

    pub(crate) fn read_page(&self, b: &Buffer, page: u64, out: &mut [u8]) {
        let a = self.page_addr(b, page);
        match a.kind {
            BufferKind::Dram => self.dram.channel(a.index).read(a.addr, out),
            BufferKind::L1 => self.l1[a.index].read_into(a.addr, out).expect("buffer inside L1"),
        }
    }

    /// `EnqueueWriteBuffer(cq, buffer, data, blocking)`: `data` in host page order (page after page, as
    /// tt-metal takes it for interleaved and sharded buffers alike). Data shorter than the buffer is
    /// zero-padded (with a warning), as tt-metal programs rely on; longer data is an error.
    pub fn enqueue_write_buffer<T: HostData>(&mut self, b: &Buffer, data: &[T]) -> Result<(), DeviceError> {
        self.enqueue_write_buffer_bytes(b, &to_bytes(data))
    }

    /// [`Device::enqueue_write_buffer`] of bytes as they are (tt-metal's `void*` data): no copy is made of
    /// data that fills the buffer.
    pub fn enqueue_write_buffer_bytes(&mut self, b: &Buffer, bytes: &[u8]) -> Result<(), DeviceError> {
        self.check_live(b, "EnqueueWriteBuffer")?;
        if bytes.len() as u64 > b.size {
            return Err(DeviceError::api(format!(
                "EnqueueWriteBuffer: {} bytes of data do not fit the {}-byte buffer at {:#x}",
                bytes.len(),
                b.size,
                b.address
            )));
        }
        let padded;
        let bytes = if (bytes.len() as u64) < b.size {
            tracing::warn!(
                "EnqueueWriteBuffer: {} bytes written to the {}-byte buffer at {:#x}; the rest is zero",
                bytes.len(),
                b.size,
                b.address
            );
            let mut v = bytes.to_vec();
            v.resize(b.size as usize, 0);
            padded = v;
            &padded[..]
        } else {
            bytes
        };
        let ps = b.page_size as usize;
        for (i, page) in bytes.chunks(ps).enumerate() {
            self.write_page(b, i as u64, page);
        }
        Ok(())
    }

    /// `EnqueueReadBuffer(cq, buffer, data, blocking)`: the whole buffer, in host page order.
    pub fn enqueue_read_buffer<T: HostData>(&mut self, b: &Buffer) -> Result<Vec<T>, DeviceError> {
        Ok(from_bytes(&self.enqueue_read_buffer_bytes(b)?))
    }

    /// [`Device::enqueue_read_buffer`] as bytes.
    pub fn enqueue_read_buffer_bytes(&mut self, b: &Buffer) -> Result<Vec<u8>, DeviceError> {
        self.check_live(b, "EnqueueReadBuffer")?;
        let ps = b.page_size as usize;
        let mut bytes = vec![0u8; b.size as usize];
        for (i, page) in bytes.chunks_mut(ps).enumerate() {
            self.read_page(b, i as u64, page);
        }
        Ok(bytes)
    }

    /// The region `offset_bytes..offset_bytes + size_bytes` of `b` in host page order, checked as tt-metal
    /// checks a buffer region (`EnqueueWriteSubBuffer`/`EnqueueReadSubBuffer`, a shard transfer's region):
    /// inside the buffer, and both offset and size whole pages unless the region is the whole buffer.
    fn check_region(&self, b: &Buffer, api: &str, offset_bytes: u64, size_bytes: u64) -> Result<(), DeviceError> {
        self.check_live(b, api)?;
        let ps = b.page_size;
        if offset_bytes.checked_add(size_bytes).is_none_or(|e| e > b.size) {
            return Err(DeviceError::api(format!(
                "{api}: the region of {size_bytes} bytes at offset {offset_bytes} does not lie inside the {}-byte \
                 buffer at {:#x}",
                b.size, b.address
            )));
        }
        if !offset_bytes.is_multiple_of(ps) || !size_bytes.is_multiple_of(ps) {
            return Err(DeviceError::api(format!(
                "{api}: a region's offset ({offset_bytes}) and size ({size_bytes}) must be whole {ps}-byte pages of \
                 the buffer at {:#x}",
                b.address
            )));
        }
        Ok(())
    }

    /// `EnqueueWriteSubBuffer(cq, buffer, data, BufferRegion(offset, size), blocking)`: `data` (exactly the
    /// region's bytes) into pages `offset / page_size` on, in host page order.
    pub fn enqueue_write_buffer_region(
        &mut self,
        b: &Buffer,
        offset_bytes: u64,
        bytes: &[u8],
    ) -> Result<(), DeviceError> {
        let api = "EnqueueWriteSubBuffer";
        self.check_region(b, api, offset_bytes, bytes.len() as u64)?;
        let ps = b.page_size as usize;
        let first = offset_bytes / b.page_size;
        for (i, page) in bytes.chunks(ps).enumerate() {
            self.write_page(b, first + i as u64, page);
        }
        Ok(())
    }

    /// `EnqueueReadSubBuffer(cq, buffer, data, BufferRegion(offset, size), blocking)`: the region's bytes.
    pub fn enqueue_read_buffer_region(
        &mut self,
        b: &Buffer,
        offset_bytes: u64,
        size_bytes: u64,
    ) -> Result<Vec<u8>, DeviceError> {
        self.check_region(b, "EnqueueReadSubBuffer", offset_bytes, size_bytes)?;
        let ps = b.page_size as usize;
        let first = offset_bytes / b.page_size;
        let mut bytes = vec![0u8; size_bytes as usize];
        for (i, page) in bytes.chunks_mut(ps).enumerate() {
            self.read_page(b, first + i as u64, page);
        }
        Ok(bytes)
    }

    /// Whether `b` holds exactly `expected` (little-endian elements in host page order), compared page by
    /// page through one page of scratch: no copy of the buffer is made, so checking a large output costs
    /// reading it once.
    pub fn buffer_matches<T: HostData>(&mut self, b: &Buffer, expected: &[T]) -> Result<bool, DeviceError> {
        self.check_live(b, "buffer_matches")?;
        let ps = b.page_size as usize;
        if (expected.len() * T::SIZE) as u64 != b.size {
            return Ok(false);
        }
        if !ps.is_multiple_of(T::SIZE) {
            return Ok(self.enqueue_read_buffer_bytes(b)? == to_bytes(expected));
        }
        let (mut page, mut want) = (vec![0u8; ps], vec![0u8; ps]);
        for (i, exp) in expected.chunks(ps / T::SIZE).enumerate() {
            let n = exp.len() * T::SIZE;
            self.read_page(b, i as u64, &mut page[..n]);
            write_bytes(exp, &mut want[..n]);
            if page[..n] != want[..n] {
                return Ok(false);
            }
        }
        Ok(true)
    }
}
