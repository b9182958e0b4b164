//! A small host tensor: logical data plus a TTNN tensor spec, written to a device buffer of its layout
//! (host-side tilize and page shuffling follow `layout`'s derivation) and read back. Padding is written as
//! zeros.

use crate::buffer::{Buffer, BufferType, InterleavedBufferConfig, ShardParameters, ShardedBufferConfig};
use crate::device::Device;
use crate::error::DeviceError;
use layout::format::{DataFormat, bfloat16, decode_tile, encode_tile};
use layout::placement::{BufferDistributionSpec, ShardSpecBuffer};
use layout::ttnn::{BufferKind, DataType, Derived, MemoryConfig, PageConfig, TensorSpec};

/// Logical data (row-major over the logical shape, as f32) and its spec.
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor {
    /// The spec.
    pub spec: TensorSpec,
    /// One value per logical element, row-major.
    pub data: Vec<f32>,
}

/// A tensor on a device: its buffer and what the spec derives.
#[derive(Debug, Clone)]
pub struct DeviceTensor {
    /// The spec.
    pub spec: TensorSpec,
    /// What it derives.
    pub derived: Derived,
    /// The buffer.
    pub buffer: Buffer,
}

/// `value` as the data type stores it (rounded or saturated), back as f32.
pub fn quantize(dtype: DataType, value: f32) -> f32 {
    match dtype {
        DataType::Bf16 => bfloat16::from_f32(value).to_f32(),
        DataType::F32 => value,
        DataType::U8 => value.round_ties_even().clamp(0.0, 255.0),
        DataType::U16 => value.round_ties_even().clamp(0.0, 65535.0),
        DataType::U32 => value.round_ties_even().max(0.0).min(u32::MAX as f32),
        DataType::I32 => value.round_ties_even().clamp(i32::MIN as f32, i32::MAX as f32),
        // Block floats share exponents within a tile row: quantised when the page is encoded.
        DataType::Bfp8 | DataType::Bfp4 => value,
    }
}

fn put_element(dtype: DataType, v: f32, out: &mut Vec<u8>) {
    match dtype {
        DataType::Bf16 => out.extend_from_slice(&bfloat16::from_f32(v).0.to_le_bytes()),
        DataType::F32 => out.extend_from_slice(&v.to_le_bytes()),
        DataType::U8 => out.push(quantize(dtype, v) as u8),
        DataType::U16 => out.extend_from_slice(&(quantize(dtype, v) as u16).to_le_bytes()),
        DataType::U32 => out.extend_from_slice(&(quantize(dtype, v) as u32).to_le_bytes()),
        DataType::I32 => out.extend_from_slice(&(quantize(dtype, v) as i32).to_le_bytes()),
        DataType::Bfp8 | DataType::Bfp4 => unreachable!("block floats are tiled"),
    }
}

fn get_element(dtype: DataType, b: &[u8]) -> f32 {
    match dtype {
        DataType::Bf16 => bfloat16(u16::from_le_bytes([b[0], b[1]])).to_f32(),
        DataType::F32 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        DataType::U8 => b[0] as f32,
        DataType::U16 => u16::from_le_bytes([b[0], b[1]]) as f32,
        DataType::U32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32,
        DataType::I32 => i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32,
        DataType::Bfp8 | DataType::Bfp4 => unreachable!("block floats are tiled"),
    }
}

impl Tensor {
    /// A tensor from row-major logical data (one value per element of the spec's shape).
    pub fn from_vec(data: Vec<f32>, spec: TensorSpec) -> Result<Tensor, DeviceError> {
        let n = spec.shape.volume();
        if data.len() as u64 != n {
            return Err(DeviceError::api(format!(
                "Tensor: {} values for a tensor of shape {} ({n} elements)",
                data.len(),
                spec.shape
            )));
        }
        Ok(Tensor { spec, data })
    }

    /// The host pages of the tensor in its layout, encoded (padding zero).
    fn host_pages(&self, d: &Derived) -> Vec<Vec<f32>> {
        let elems = (d.page_shape[0] * d.page_shape[1]) as usize;
        let mut pages = vec![vec![0f32; elems]; d.num_pages as usize];
        let shape = &self.spec.shape;
        let mut idx = vec![0u64; shape.rank()];
        for (i, &v) in self.data.iter().enumerate() {
            shape.unravel(i as u64, &mut idx);
            let (p, off) = d.element_page(&idx);
            pages[p as usize][off as usize] = v;
        }
        pages
    }

    /// Allocate a buffer of the spec's layout on `dev` and write the tensor to it.
    pub fn to_device(&self, dev: &mut Device) -> Result<DeviceTensor, DeviceError> {
        if let PageConfig::Tile(t) = self.spec.page
            && t.elements() != 1024
            && matches!(self.spec.dtype, DataType::Bfp8 | DataType::Bfp4)
        {
            return Err(DeviceError::api(format!(
                "not modelled: {} in {t} tiles (block floats are modelled in 32x32 tiles only)",
                self.spec.dtype
            )));
        }
        let mut spec = self.spec.clone();
        spec.bank_alignment = dev.alignment(buffer_type(spec.memory.buffer())) as u64;
        let d = spec.derive()?;
        let buffer = allocate(dev, &spec, &d)?;
        let mut bytes = Vec::with_capacity((d.num_pages * d.page_size) as usize);
        for page in self.host_pages(&d) {
            encode_page(&spec, &d, &page, &mut bytes);
        }
        dev.enqueue_write_buffer(&buffer, &bytes)?;
        Ok(DeviceTensor { spec, derived: d, buffer })
    }
}

fn buffer_type(b: BufferKind) -> BufferType {
    match b {
        BufferKind::Dram => BufferType::Dram,
        BufferKind::L1 => BufferType::L1,
    }
}

fn encode_page(spec: &TensorSpec, d: &Derived, page: &[f32], out: &mut Vec<u8>) {
    match spec.page {
        PageConfig::Tile(t) => {
            let f = spec.dtype.data_format();
            let start = out.len();
            out.resize(start + d.page_size as usize, 0);
            if t.elements() == 1024 {
                encode_tile(f, page, &mut out[start..]);
            } else {
                // Smaller tiles: the codec works on 1024 values; encode a padded tile and keep the prefix the
                // small tile's faces occupy (exact for IEEE and integer formats).
                let mut full = [0f32; 1024];
                full[..page.len()].copy_from_slice(page);
                let mut tmp = vec![0u8; f.tile_size() as usize];
                encode_tile(f, &full, &mut tmp);
                let n = out.len() - start;
                out[start..].copy_from_slice(&tmp[..n]);
            }
        }
        PageConfig::RowMajor => {
            for &v in page {
                put_element(spec.dtype, v, out);
            }
        }
    }
}

fn allocate(dev: &mut Device, spec: &TensorSpec, d: &Derived) -> Result<Buffer, DeviceError> {
    let size = d.num_pages * d.page_size;
    let buffer_type = buffer_type(spec.memory.buffer());
    match &spec.memory {
        MemoryConfig::Interleaved(_) => {
            dev.create_buffer(InterleavedBufferConfig { size, page_size: d.page_size, buffer_type })
        }
        MemoryConfig::Sharded { layout, spec: s, .. } => {
            let ps = d.physical_shard_shape.clone().expect("sharded");
            let shard = ShardSpecBuffer {
                grid: s.grid.clone(),
                shard_shape: [ps[0] as u32, ps[1] as u32],
                orientation: s.orientation,
                page_shape: [d.page_shape[0] as u32, d.page_shape[1] as u32],
                tensor2d_shape_in_pages: [
                    (d.physical_shape[0] / d.page_shape[0]) as u32,
                    d.physical_shape[1].div_ceil(d.page_shape[1]) as u32,
                ],
            };
            dev.create_sharded_buffer(&ShardedBufferConfig {
                size,
                page_size: d.page_size,
                buffer_type,
                shards: ShardParameters::Legacy { layout: *layout, spec: shard },
            })
        }
        MemoryConfig::NdSharded { spec: nd, .. } => {
            let shard = layout::Shape::new(d.physical_shard_shape.clone().expect("sharded"));
            let b = BufferDistributionSpec::from_shard_spec(
                &d.padded_shape,
                &shard,
                d.page_shape,
                &nd.grid,
                nd.orientation,
                nd.strategy,
            )?;
            dev.create_sharded_buffer(&ShardedBufferConfig {
                size,
                page_size: d.page_size,
                buffer_type,
                shards: ShardParameters::Nd(b),
            })
        }
    }
}

impl DeviceTensor {
    /// Allocate a buffer of `spec`'s layout on `dev` without writing any data (its bytes are whatever the
    /// memory held): for timing-only runs whose values nobody reads.
    pub fn allocate(dev: &mut Device, spec: &TensorSpec) -> Result<DeviceTensor, DeviceError> {
        let mut spec = spec.clone();
        spec.bank_alignment = dev.alignment(buffer_type(spec.memory.buffer())) as u64;
        let d = spec.derive()?;
        let buffer = allocate(dev, &spec, &d)?;
        Ok(DeviceTensor { spec, derived: d, buffer })
    }

    /// Read the tensor back (logical elements, row-major).
    pub fn to_host(&self, dev: &mut Device) -> Result<Tensor, DeviceError> {
        let bytes: Vec<u8> = dev.enqueue_read_buffer(&self.buffer)?;
        let d = &self.derived;
        let ps = d.page_size as usize;
        let elems = (d.page_shape[0] * d.page_shape[1]) as usize;
        let mut pages: Vec<Vec<f32>> = Vec::with_capacity(d.num_pages as usize);
        for chunk in bytes.chunks(ps) {
            let mut page = vec![0f32; elems.max(1024)];
            match self.spec.page {
                PageConfig::Tile(t) => {
                    let f: DataFormat = self.spec.dtype.data_format();
                    if t.elements() == 1024 {
                        decode_tile(f, chunk, &mut page);
                    } else {
                        let mut tmp = vec![0u8; f.tile_size() as usize];
                        tmp[..chunk.len()].copy_from_slice(chunk);
                        decode_tile(f, &tmp, &mut page);
                    }
                }
                PageConfig::RowMajor => {
                    let w = self.spec.dtype.element_size().expect("row-major") as usize;
                    for (i, e) in chunk.chunks(w).enumerate() {
                        page[i] = get_element(self.spec.dtype, e);
                    }
                }
            }
            page.truncate(elems);
            pages.push(page);
        }
        let shape = &self.spec.shape;
        let mut idx = vec![0u64; shape.rank()];
        let data = (0..shape.volume())
            .map(|i| {
                shape.unravel(i, &mut idx);
                let (p, off) = d.element_page(&idx);
                pages[p as usize][off as usize]
            })
            .collect();
        Ok(Tensor { spec: self.spec.clone(), data })
    }
}

/// Raw host bytes of values for a buffer of `dtype` (row-major element encoding).
pub fn encode_values(dtype: DataType, values: &[f32]) -> Vec<u8> {
    let mut out = Vec::new();
    for &v in values {
        put_element(dtype, v, &mut out);
    }
    out
}

/// Decoded values of raw bytes of `dtype`.
pub fn decode_values(dtype: DataType, bytes: &[u8]) -> Vec<f32> {
    let w = dtype.element_size().unwrap_or(1) as usize;
    bytes.chunks_exact(w).map(|e| get_element(dtype, e)).collect()
}
