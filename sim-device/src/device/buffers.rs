//! Device buffers on the host side: `CreateBuffer` (interleaved or sharded, L1 or DRAM), `DeallocateBuffer`,
//! `EnqueueWriteBuffer`/`EnqueueReadBuffer` in host page order (pages go where `layout`'s placement puts
//! them), and raw L1 access (`WriteToDeviceL1`/`ReadFromDeviceL1`).

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

/// The allocation direction `bottom_up` asks for.
fn direction(bottom_up: Option<bool>) -> Option<allocator::Direction> {
    bottom_up.map(|b| if b { allocator::Direction::BottomUp } else { allocator::Direction::TopDown })
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
        Device::check_sizes("CreateBuffer", cfg.size, cfg.page_size)?;
        let kind = kind_of(cfg.buffer_type);
        let address = self
            .allocator
            .allocate_from(kind, cfg.size, cfg.page_size, direction(bottom_up))
            .map_err(|e| DeviceError::api(format!("CreateBuffer: {e}")))?;
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
        let address = self.allocator.allocate_per_bank_from(kind, per_bank, direction(bottom_up)).map_err(|e| {
            DeviceError::api(format!(
                "{api}: {e} ({} shard(s) of {} pages per {} of {})",
                dist.max_shards_per_core(),
                dist.shard_pages(),
                if cfg.buffer_type == BufferType::L1 { "core" } else { "DRAM bank" },
                cores.len()
            ))
        })?;
        let b = Buffer {
            id: 0,
            address,
            size: cfg.size,
            page_size: cfg.page_size,
            aligned_page_size: aligned,
            buffer_type: cfg.buffer_type,
            num_banks: cores.len() as u32,
            sharding: Some(Arc::new(BufferSharding { layout, spec, dist, cores, bank_xy })),
        };
        Ok(self.register(b))
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
        self.allocator.deallocate(kind_of(b.buffer_type), b.address);
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

    pub(crate) fn core_index(&self, c: CoreCoord, what: &str) -> Result<usize, DeviceError> {
        let g = self.chip.logical_grid();
        if c.x >= g.x || c.y >= g.y {
            return Err(DeviceError::api(format!("{what}: core ({},{}) is outside the {g} logical grid", c.x, c.y)));
        }
        Ok((c.y * g.x + c.x) as usize)
    }

    /// `WriteToDeviceL1(device, core, addr, data)`.
    pub fn write_to_device_l1<T: HostData>(
        &mut self,
        core: CoreCoord,
        addr: u32,
        data: &[T],
    ) -> Result<(), DeviceError> {
        let i = self.core_index(core, "WriteToDeviceL1")?;
        self.l1[i].write(addr as u64, &to_bytes(data)).map_err(|e| DeviceError::api(format!("WriteToDeviceL1: {e}")))
    }

    /// `ReadFromDeviceL1(device, core, addr, size)`.
    pub fn read_from_device_l1<T: HostData>(
        &self,
        core: CoreCoord,
        addr: u32,
        count: usize,
    ) -> Result<Vec<T>, DeviceError> {
        let i = self.core_index(core, "ReadFromDeviceL1")?;
        let bytes = self.l1[i]
            .read(addr as u64, (count * T::SIZE) as u64)
            .map_err(|e| DeviceError::api(format!("ReadFromDeviceL1: {e}")))?;
        Ok(from_bytes(&bytes))
    }

    /// The DRAM channel `channel`, checked to hold `len` bytes at `addr`.
    fn dram_channel_range(&self, channel: u32, addr: u32, len: u64, what: &str) -> Result<usize, DeviceError> {
        let n = self.dram.num_channels();
        if channel as usize >= n {
            return Err(DeviceError::api(format!(
                "{what}: DRAM channel {channel} does not exist: this chip has channels 0..{n}"
            )));
        }
        let c = self.dram.channel(channel as usize);
        if !c.contains(addr as u64, len) {
            return Err(DeviceError::api(format!(
                "{what}: {len} bytes at {addr:#x} run past the end of DRAM channel {channel} ({:#x} bytes)",
                c.size()
            )));
        }
        Ok(channel as usize)
    }

    /// `WriteToDeviceDRAMChannel(device, channel, addr, data)`: raw bytes into a DRAM channel's address space.
    pub fn write_to_device_dram_channel<T: HostData>(
        &mut self,
        channel: u32,
        addr: u32,
        data: &[T],
    ) -> Result<(), DeviceError> {
        let bytes = to_bytes(data);
        let c = self.dram_channel_range(channel, addr, bytes.len() as u64, "WriteToDeviceDRAMChannel")?;
        self.dram.channel_mut(c).write(addr as u64, &bytes);
        Ok(())
    }

    /// `ReadFromDeviceDRAMChannel(device, channel, addr, size)`.
    pub fn read_from_device_dram_channel<T: HostData>(
        &self,
        channel: u32,
        addr: u32,
        count: usize,
    ) -> Result<Vec<T>, DeviceError> {
        let len = (count * T::SIZE) as u64;
        let c = self.dram_channel_range(channel, addr, len, "ReadFromDeviceDRAMChannel")?;
        let mut bytes = vec![0u8; len as usize];
        self.dram.channel(c).read(addr as u64, &mut bytes);
        Ok(from_bytes(&bytes))
    }

    fn eth_index(&self, channel: u32, what: &str) -> Result<usize, DeviceError> {
        if channel as usize >= self.eth_l1.len() {
            return Err(DeviceError::api(format!(
                "{what}: Ethernet channel {channel} does not exist: this chip has channels 0..{}",
                self.eth_l1.len()
            )));
        }
        Ok(channel as usize)
    }

    /// `WriteToDeviceL1(device, eth_core, addr, data, CoreType::ETH)`: the L1 of Ethernet channel `channel`.
    pub fn write_to_eth_l1<T: HostData>(&mut self, channel: u32, addr: u32, data: &[T]) -> Result<(), DeviceError> {
        let i = self.eth_index(channel, "WriteToDeviceL1 (Ethernet)")?;
        self.eth_l1[i]
            .write(addr as u64, &to_bytes(data))
            .map_err(|e| DeviceError::api(format!("WriteToDeviceL1 (Ethernet channel {channel}): {e}")))
    }

    /// `ReadFromDeviceL1(device, eth_core, addr, size, CoreType::ETH)`.
    pub fn read_from_eth_l1<T: HostData>(&self, channel: u32, addr: u32, count: usize) -> Result<Vec<T>, DeviceError> {
        let i = self.eth_index(channel, "ReadFromDeviceL1 (Ethernet)")?;
        let bytes = self.eth_l1[i]
            .read(addr as u64, (count * T::SIZE) as u64)
            .map_err(|e| DeviceError::api(format!("ReadFromDeviceL1 (Ethernet channel {channel}): {e}")))?;
        Ok(from_bytes(&bytes))
    }
}
