//! Device buffers: interleaved and sharded buffers in DRAM or L1 (their placement is `layout`'s), host data
//! conversion, and the compile-time args describing a buffer to a kernel's `TensorAccessor`.

use layout::Distribution;
use layout::core_ranges::CoreCoord;
use layout::placement::{
    BufferDistributionSpec, DistributionStrategy, ShardDistribution, ShardSpecBuffer, TensorMemoryLayout,
};
use sim_tensix::bfloat16;
use std::sync::Arc;

/// Where a buffer lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BufferType {
    /// DRAM banks.
    Dram,
    /// L1 banks (one per compute core).
    L1,
}

/// tt-metal's `InterleavedBufferConfig{device, size, page_size, buffer_type}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InterleavedBufferConfig {
    /// Total size, bytes.
    pub size: u64,
    /// Page size, bytes.
    pub page_size: u64,
    /// DRAM or L1.
    pub buffer_type: BufferType,
}

/// How a sharded buffer's shards are described.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShardParameters {
    /// tt-metal's legacy 2-D `ShardSpecBuffer` with HEIGHT/WIDTH/BLOCK sharding.
    Legacy {
        /// HEIGHT_SHARDED, WIDTH_SHARDED or BLOCK_SHARDED.
        layout: TensorMemoryLayout,
        /// The shard spec.
        spec: ShardSpecBuffer,
    },
    /// tt-metal's N-D `BufferDistributionSpec`.
    Nd(BufferDistributionSpec),
}

/// tt-metal's `ShardedBufferConfig{device, size, page_size, buffer_type, buffer_layout, shard_parameters}`
/// (or, for N-D sharding, a `BufferDistributionSpec`). For L1 the shard grid names logical cores; for DRAM
/// its x coordinates name DRAM banks (`(0,0)-(5,0)`: banks 0 to 5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardedBufferConfig {
    /// Total size, bytes (a whole number of pages).
    pub size: u64,
    /// Page size, bytes.
    pub page_size: u64,
    /// DRAM or L1.
    pub buffer_type: BufferType,
    /// The shards.
    pub shards: ShardParameters,
}

/// A sharded buffer's placement and the banks its shards live in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BufferSharding {
    /// The layout (N-D specs report BLOCK_SHARDED).
    pub layout: TensorMemoryLayout,
    /// The legacy shard spec, when the buffer was made from one.
    pub spec: Option<ShardSpecBuffer>,
    /// Where each host page lives.
    pub dist: ShardDistribution,
    /// Per shard bank (in distribution order): the logical core (L1) or `(bank, 0)` (DRAM).
    pub cores: Vec<CoreCoord>,
    /// Per shard bank: the coordinate kernels reach it by — the core's translated NoC coordinate (L1) or
    /// the DRAM bank id in `x` (DRAM).
    pub bank_xy: Vec<(u32, u32)>,
}

/// An allocated device buffer (a handle; the bytes live in the device).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buffer {
    pub(crate) id: u32,
    pub(crate) address: u64,
    pub(crate) size: u64,
    pub(crate) page_size: u64,
    pub(crate) aligned_page_size: u64,
    pub(crate) buffer_type: BufferType,
    pub(crate) num_banks: u32,
    pub(crate) sharding: Option<Arc<BufferSharding>>,
    /// Whether the allocator holds the buffer's memory: false for a buffer created at a given address
    /// (`CreateBuffer(config, address)`), which names memory the program manages itself.
    pub(crate) owns_memory: bool,
}

impl Buffer {
    /// `address()`: the buffer's address, the same in every bank.
    pub fn address(&self) -> u32 {
        self.address as u32
    }

    /// `size()`, bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// `page_size()`, bytes.
    pub fn page_size(&self) -> u64 {
        self.page_size
    }

    /// Page size rounded up to the bank alignment.
    pub fn aligned_page_size(&self) -> u64 {
        self.aligned_page_size
    }

    /// `num_pages()`.
    pub fn num_pages(&self) -> u64 {
        self.size.div_ceil(self.page_size)
    }

    /// `buffer_type()`.
    pub fn buffer_type(&self) -> BufferType {
        self.buffer_type
    }

    /// `is_dram()`.
    pub fn is_dram(&self) -> bool {
        self.buffer_type == BufferType::Dram
    }

    /// `buffer_layout()`.
    pub fn buffer_layout(&self) -> TensorMemoryLayout {
        self.sharding.as_ref().map_or(TensorMemoryLayout::Interleaved, |s| s.layout)
    }

    /// Banks the pages are spread over (DRAM channels or cores; a sharded buffer's shard banks).
    pub fn num_banks(&self) -> u32 {
        self.num_banks
    }

    /// Whether the buffer is sharded.
    pub fn is_sharded(&self) -> bool {
        self.sharding.is_some()
    }

    /// The sharding, for sharded buffers.
    pub fn sharding(&self) -> Option<&BufferSharding> {
        self.sharding.as_deref()
    }

    /// `shard_spec()` of a buffer made from a legacy shard spec.
    pub fn shard_spec(&self) -> Option<&ShardSpecBuffer> {
        self.sharding.as_ref().and_then(|s| s.spec.as_ref())
    }

    /// Where its pages live.
    pub fn distribution(&self) -> Distribution {
        match &self.sharding {
            Some(s) => Distribution::Sharded(s.dist.clone()),
            None => Distribution::interleaved(self.num_pages(), self.num_banks),
        }
    }

    /// Bytes every bank reserves for the buffer (`aligned_size_per_bank`).
    pub fn aligned_size_per_bank(&self) -> u64 {
        self.distribution().slots_per_bank() * self.aligned_page_size
    }

    /// Pages on the device including shard padding (`num_dev_pages`).
    pub fn num_dev_pages(&self) -> u64 {
        match &self.sharding {
            Some(s) => s.dist.slots_per_core() * s.dist.num_cores_with_data() as u64,
            None => self.num_pages(),
        }
    }
}

/// `TensorAccessorArgs(buffer).append_to(compile_args)`: the compile-time words of the buffer's accessor
/// in today's layout (see [`tensor_accessor_args_with`]), with no runtime fields.
pub fn tensor_accessor_args(b: &Buffer) -> Vec<u32> {
    tensor_accessor_args_with(Some(b), 0).expect("no runtime fields").0
}

/// `TensorAccessorArgs(buffer, config).append_to(compile_args, common_runtime_args)`: the words of a
/// buffer's accessor. The config word (`Sharded` for a sharded buffer, plus the `Runtime*` bits of
/// `runtime` — dropped for an interleaved buffer, as tt-metal drops them — plus `IsDram`), the aligned
/// page size, then for a sharded buffer its rank, its number of banks, the tensor and the shard shape in
/// pages and the bank coordinates two per word (`(x & 0xff) << 8 | (y & 0xff)`; for DRAM the bank id in
/// x), each into the common runtime args instead where its `Runtime*` bit is set; a `GRID_2D` buffer
/// (tensim's extension bit 8) ends the compile-time words with the core grid's columns and rows. `None`
/// is a placeholder (config 0, page size 0). An invalid mix of runtime bits is an error in tt-metal's words.
pub fn tensor_accessor_args_with(b: Option<&Buffer>, runtime: u32) -> Result<(Vec<u32>, Vec<u32>), String> {
    use sim_tensix::addrgen::{args_config as cfg, pack_bank_coords};
    let Some(b) = b else { return Ok((vec![0, 0], Vec::new())) };
    let dram = if b.is_dram() { cfg::IS_DRAM } else { 0 };
    let page = b.aligned_page_size as u32;
    let Some(s) = &b.sharding else { return Ok((vec![dram, page], Vec::new())) };
    let runtime = runtime & cfg::RUNTIME;
    if runtime & cfg::RUNTIME_RANK != 0
        && runtime & (cfg::RUNTIME_TENSOR_SHAPE | cfg::RUNTIME_SHARD_SHAPE)
            != (cfg::RUNTIME_TENSOR_SHAPE | cfg::RUNTIME_SHARD_SHAPE)
    {
        return Err("TensorAccessorArgs: if rank is runtime, tensor shape and shard shape must also be runtime".into());
    }
    if runtime & cfg::RUNTIME_NUM_BANKS != 0 && runtime & cfg::RUNTIME_BANK_COORDS == 0 {
        return Err("TensorAccessorArgs: if number of banks is runtime, bank coordinates must also be runtime".into());
    }
    let grid = match s.dist.strategy() {
        DistributionStrategy::Grid2D { cols, rows } => Some((cols, rows)),
        DistributionStrategy::RoundRobin1D => None,
    };
    let config = dram | cfg::SHARDED | runtime | if grid.is_some() { cfg::GRID_2D } else { 0 };
    let (mut ct, mut crta) = (vec![config, page], Vec::new());
    let mut put = |bit: u32, words: Vec<u32>| if runtime & bit != 0 { crta.extend(words) } else { ct.extend(words) };
    let t = s.dist.tensor_pages();
    put(cfg::RUNTIME_RANK, vec![t.rank() as u32]);
    put(cfg::RUNTIME_NUM_BANKS, vec![s.bank_xy.len() as u32]);
    put(cfg::RUNTIME_TENSOR_SHAPE, t.dims().iter().map(|&d| d as u32).collect());
    put(cfg::RUNTIME_SHARD_SHAPE, s.dist.shard_pages().dims().iter().map(|&d| d as u32).collect());
    put(cfg::RUNTIME_BANK_COORDS, pack_bank_coords(&s.bank_xy));
    if let Some((c, r)) = grid {
        ct.extend([c, r]);
    }
    Ok((ct, crta))
}

/// Element types the host can write to and read from buffers (little-endian).
pub trait HostData: Sized + Copy {
    /// Bytes per element.
    const SIZE: usize;
    /// Append the element's bytes.
    fn put(&self, out: &mut Vec<u8>);
    /// Read one element.
    fn get(b: &[u8]) -> Self;
    /// Write the element's bytes into `out` (exactly [`HostData::SIZE`] bytes).
    fn write(&self, out: &mut [u8]) {
        let mut v = Vec::with_capacity(Self::SIZE);
        self.put(&mut v);
        out.copy_from_slice(&v);
    }
}

macro_rules! host_data {
    ($($t:ty),*) => {$(
        impl HostData for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            #[inline]
            fn put(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            #[inline]
            fn get(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b[..Self::SIZE].try_into().expect("element size"))
            }
            #[inline]
            fn write(&self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
host_data!(u8, u16, u32, u64, i8, i16, i32, i64, f32);

impl HostData for bfloat16 {
    const SIZE: usize = 2;
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0.to_le_bytes());
    }
    #[inline]
    fn get(b: &[u8]) -> Self {
        bfloat16(u16::from_le_bytes([b[0], b[1]]))
    }
    #[inline]
    fn write(&self, out: &mut [u8]) {
        out.copy_from_slice(&self.0.to_le_bytes());
    }
}

/// Elements as little-endian bytes.
pub fn to_bytes<T: HostData>(v: &[T]) -> Vec<u8> {
    let mut out = vec![0u8; v.len() * T::SIZE];
    write_bytes(v, &mut out);
    out
}

/// Elements as little-endian bytes into `out` (`v.len() * T::SIZE` bytes), element by element into fixed-size
/// chunks (which compiles to straight copies for the integer types).
#[inline]
pub fn write_bytes<T: HostData>(v: &[T], out: &mut [u8]) {
    for (x, o) in v.iter().zip(out.chunks_exact_mut(T::SIZE)) {
        x.write(o);
    }
}

/// Little-endian bytes as elements (a trailing partial element is dropped).
pub fn from_bytes<T: HostData>(b: &[u8]) -> Vec<T> {
    b.chunks_exact(T::SIZE).map(T::get).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_data_round_trips() {
        let v = vec![1.5f32, -2.0, 3.25];
        assert_eq!(from_bytes::<f32>(&to_bytes(&v)), v);
        let b = vec![bfloat16::from_f32(1.0), bfloat16::from_f32(-3.0)];
        assert_eq!(to_bytes(&b), vec![0x80, 0x3f, 0x40, 0xc0]);
        assert_eq!(from_bytes::<u16>(&[1, 0, 2, 0, 9]), vec![1, 2]);
    }
}
