//! `MeshBuffer`: one buffer on every device of a mesh at the same address (lock-step allocation),
//! replicated (every device holds the whole buffer) or sharded (a 2-D global buffer cut into shards, one per
//! device in the shard orientation's order; a shard dimension of 0 replicates that dimension). Whole-buffer
//! and per-shard writes and reads, as tt-metal's `EnqueueWriteMeshBuffer`, `WriteShard`, `ReadShard`.

use super::{MeshCoordinate, MeshDevice};
use crate::buffer::{Buffer, BufferType, HostData, InterleavedBufferConfig, from_bytes, to_bytes};
use crate::error::DeviceError;
use layout::placement::ShardOrientation;

/// How a mesh buffer spreads over the mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshBufferConfig {
    /// Every device holds `size` bytes, the same data.
    Replicated {
        /// Bytes per device.
        size: u64,
    },
    /// A `global_shape` (rows × columns of elements) buffer of `global_size` bytes cut into `shard_shape`
    /// blocks (0 in a dimension: the whole extent, replicated).
    Sharded {
        /// Bytes of the whole buffer.
        global_size: u64,
        /// Rows × columns of elements.
        global_shape: (u64, u64),
        /// Rows × columns of one shard.
        shard_shape: (u64, u64),
        /// Shards go to devices (row-major) in row-major or column-major order of the shard grid.
        orientation: ShardOrientation,
    },
}

/// The buffer each device holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceLocalBufferConfig {
    /// Page size, bytes.
    pub page_size: u64,
    /// DRAM or L1.
    pub buffer_type: BufferType,
}

/// A buffer on every device of a mesh, at one address.
#[derive(Debug, Clone)]
pub struct MeshBuffer {
    config: MeshBufferConfig,
    buffers: Vec<Buffer>,
    device_size: u64,
    /// Bytes per element (sharded).
    elem: u64,
    /// Shard grid (rows, cols) (sharded).
    grid: (u64, u64),
    shard: (u64, u64),
}

impl MeshBuffer {
    /// Allocate on every device of `mesh`.
    pub fn create(
        mesh: &MeshDevice,
        config: MeshBufferConfig,
        local: DeviceLocalBufferConfig,
    ) -> Result<MeshBuffer, DeviceError> {
        let (device_size, elem, grid, shard) = match config {
            MeshBufferConfig::Replicated { size } => (size, 1, (1, 1), (0, 0)),
            MeshBufferConfig::Sharded { global_size, global_shape: (gr, gc), shard_shape: (sr, sc), .. } => {
                let cells = gr.checked_mul(gc).filter(|&c| c > 0).ok_or_else(|| {
                    DeviceError::Api(format!("mesh buffer global shape {gr}x{gc}: both extents must be at least 1"))
                })?;
                if global_size == 0 || global_size % cells != 0 {
                    return Err(DeviceError::Api(format!(
                        "mesh buffer of {global_size} bytes over {gr}x{gc} elements: the size must be a whole number of bytes per element"
                    )));
                }
                let (sr, sc) = (if sr == 0 { gr } else { sr }, if sc == 0 { gc } else { sc });
                if gr % sr != 0 || gc % sc != 0 {
                    return Err(DeviceError::Api(format!(
                        "mesh buffer shard {sr}x{sc} does not divide the global shape {gr}x{gc}"
                    )));
                }
                let grid = (gr / sr, gc / sc);
                if grid.0 * grid.1 > mesh.num_devices() as u64 {
                    return Err(DeviceError::Api(format!(
                        "mesh buffer: {} shards for {} devices; shards must not outnumber devices",
                        grid.0 * grid.1,
                        mesh.num_devices()
                    )));
                }
                let elem = global_size / cells;
                (sr * sc * elem, elem, grid, (sr, sc))
            }
        };
        let mut buffers = Vec::with_capacity(mesh.num_devices());
        for (i, d) in mesh.devices.iter().enumerate() {
            let b = d.lock().create_buffer(InterleavedBufferConfig {
                size: device_size,
                page_size: local.page_size,
                buffer_type: local.buffer_type,
            })?;
            if let Some(first) = buffers.first().map(|f: &Buffer| f.address())
                && b.address() != first
            {
                return Err(DeviceError::Api(format!(
                    "mesh buffer: chip {} allocated it at {:#x} but chip {} at {first:#x}; lock-step allocation needs the devices' memories in the same state",
                    mesh.chip_ids[i],
                    b.address(),
                    mesh.chip_ids[0]
                )));
            }
            buffers.push(b);
        }
        Ok(MeshBuffer { config, buffers, device_size, elem, grid, shard })
    }

    /// The address on every device.
    pub fn address(&self) -> u32 {
        self.buffers[0].address()
    }

    /// Bytes each device holds.
    pub fn device_size(&self) -> u64 {
        self.device_size
    }

    /// The buffer on the device at row-major index `i`.
    pub fn device_buffer(&self, i: usize) -> &Buffer {
        &self.buffers[i]
    }

    /// The configuration.
    pub fn config(&self) -> MeshBufferConfig {
        self.config
    }

    /// Shard `k` of the shard grid in the orientation's order → its (row, col) in the grid.
    fn shard_at(&self, k: u64) -> (u64, u64) {
        match self.config {
            MeshBufferConfig::Sharded { orientation: ShardOrientation::ColMajor, .. } => {
                (k % self.grid.0, k / self.grid.0)
            }
            _ => (k / self.grid.1, k % self.grid.1),
        }
    }

    /// The bytes of shard `(i, j)` cut from the global row-major bytes, or written back into them.
    fn shard_rows(&self, (i, j): (u64, u64)) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        let MeshBufferConfig::Sharded { global_shape: (_, gc), .. } = self.config else { unreachable!("sharded only") };
        let (sr, sc) = self.shard;
        let e = self.elem;
        (0..sr).map(move |r| {
            let src = (((i * sr + r) * gc + j * sc) * e) as usize;
            let dst = (r * sc * e) as usize;
            (src, dst, (sc * e) as usize)
        })
    }

    fn number_of_shards(&self) -> u64 {
        self.grid.0 * self.grid.1
    }
}

impl MeshDevice {
    /// Write the whole mesh buffer: the same data everywhere when replicated, cut into shards when sharded
    /// (`EnqueueWriteMeshBuffer`).
    pub fn enqueue_write_mesh_buffer<T: HostData>(&mut self, buf: &MeshBuffer, data: &[T]) -> Result<(), DeviceError> {
        let bytes = to_bytes(data);
        match buf.config {
            MeshBufferConfig::Replicated { size } => {
                if bytes.len() as u64 != size {
                    return Err(DeviceError::Api(format!(
                        "EnqueueWriteMeshBuffer: {} bytes for a replicated buffer of {size} bytes",
                        bytes.len()
                    )));
                }
                for (d, b) in self.devices.iter().zip(&buf.buffers) {
                    d.lock().enqueue_write_buffer(b, &bytes)?;
                }
            }
            MeshBufferConfig::Sharded { global_size, .. } => {
                if bytes.len() as u64 != global_size {
                    return Err(DeviceError::Api(format!(
                        "EnqueueWriteMeshBuffer: {} bytes for a sharded buffer of {global_size} bytes",
                        bytes.len()
                    )));
                }
                for k in 0..buf.number_of_shards() {
                    let mut shard = vec![0u8; buf.device_size as usize];
                    for (src, dst, n) in buf.shard_rows(buf.shard_at(k)) {
                        shard[dst..dst + n].copy_from_slice(&bytes[src..src + n]);
                    }
                    self.lock_device(k as usize)?.enqueue_write_buffer(&buf.buffers[k as usize], &shard)?;
                }
            }
        }
        Ok(())
    }

    /// Read a sharded mesh buffer back into its global row-major form (`EnqueueReadMeshBuffer`; a
    /// replicated buffer has no single global form: read one device with [`Self::read_shard`]).
    pub fn enqueue_read_mesh_buffer<T: HostData>(&mut self, buf: &MeshBuffer) -> Result<Vec<T>, DeviceError> {
        let MeshBufferConfig::Sharded { global_size, .. } = buf.config else {
            if self.num_devices() == 1 {
                return self.read_shard(buf, MeshCoordinate::new(0, 0));
            }
            return Err(DeviceError::Api(
                "EnqueueReadMeshBuffer reads sharded buffers; read a replicated buffer one device at a time with ReadShard".into(),
            ));
        };
        let mut out = vec![0u8; global_size as usize];
        for k in 0..buf.number_of_shards() {
            let shard: Vec<u8> = self.lock_device(k as usize)?.enqueue_read_buffer(&buf.buffers[k as usize])?;
            for (src, dst, n) in buf.shard_rows(buf.shard_at(k)) {
                out[src..src + n].copy_from_slice(&shard[dst..dst + n]);
            }
        }
        Ok(from_bytes(&out))
    }

    /// Write the device at `c` only (`WriteShard`): `data` is that device's whole buffer.
    pub fn write_shard<T: HostData>(
        &mut self,
        buf: &MeshBuffer,
        data: &[T],
        c: MeshCoordinate,
    ) -> Result<(), DeviceError> {
        let i = self.index(c)?;
        let bytes = to_bytes(data);
        if bytes.len() as u64 != buf.device_size {
            return Err(DeviceError::Api(format!(
                "WriteShard at {c}: {} bytes for a device buffer of {} bytes",
                bytes.len(),
                buf.device_size
            )));
        }
        self.lock_device(i)?.enqueue_write_buffer(&buf.buffers[i], &bytes)
    }

    /// Read the device at `c` only (`ReadShard`).
    pub fn read_shard<T: HostData>(&mut self, buf: &MeshBuffer, c: MeshCoordinate) -> Result<Vec<T>, DeviceError> {
        let i = self.index(c)?;
        self.lock_device(i)?.enqueue_read_buffer(&buf.buffers[i])
    }

    /// Whether the shard of `buf` at `c` holds exactly `expected`, compared page by page
    /// ([`crate::Device::buffer_matches`]) without copying the shard out.
    pub fn shard_matches<T: HostData>(
        &self,
        buf: &MeshBuffer,
        expected: &[T],
        c: MeshCoordinate,
    ) -> Result<bool, DeviceError> {
        let i = self.index(c)?;
        self.lock_device(i)?.buffer_matches(&buf.buffers[i], expected)
    }
}
