//! TTNN tensor specs (seed 004): a logical shape, a data type, a page config (row-major pages of one row —
//! one shard row when sharded — or tiles) and a memory config (interleaved, height/width/block sharded with
//! a 2-D shard spec, or N-D sharded; L1 or DRAM). [`TensorSpec::derive`] works out what TTNN derives: the
//! padded and physical (2-D) shapes, alignment, strides, page size and count, logical and physical shard
//! shapes, shards, and which core holds which host page ([`derive()`]).
//!
//! tensim's reading of TTNN's rules (documented in docs/architecture-notes.md, "Layouts"): the outer dimensions collapse into
//! the physical height; tiles pad the last two dimensions to the tile; a physical-mode shard spec pads the
//! tensor to whole shards along the sharded dimensions; a logical-mode spec cuts the *logical* 2-D shape
//! into shards and pads each shard on its own to the page (the physical shape is then shards × physical
//! shard shape).

pub mod alignment;
pub mod derive;

pub use derive::{Derived, cores_from_count, derive, legacy_to_nd, nd_to_legacy, virtual_grid_spec};

use crate::core_ranges::CoreRangeSet;
use crate::error::LayoutError;
use crate::placement::{DistributionStrategy, ShardOrientation, TensorMemoryLayout};
use crate::shape::Shape;
use crate::tile::TileShape;
use std::fmt;
use std::str::FromStr;

/// TTNN's `DataType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataType {
    /// `BFLOAT16`.
    Bf16,
    /// `FLOAT32`.
    F32,
    /// `UINT8`.
    U8,
    /// `UINT16`.
    U16,
    /// `UINT32`.
    U32,
    /// `INT32`.
    I32,
    /// `BFLOAT8_B` (tiles only).
    Bfp8,
    /// `BFLOAT4_B` (tiles only).
    Bfp4,
}

impl DataType {
    /// Bytes per element (block floats: none; they exist only in tiles).
    pub fn element_size(&self) -> Option<u64> {
        match self {
            DataType::Bf16 | DataType::U16 => Some(2),
            DataType::F32 | DataType::U32 | DataType::I32 => Some(4),
            DataType::U8 => Some(1),
            DataType::Bfp8 | DataType::Bfp4 => None,
        }
    }

    /// The format its tiles are stored in.
    pub fn data_format(&self) -> crate::format::DataFormat {
        use crate::format::DataFormat as F;
        match self {
            DataType::Bf16 => F::Float16_b,
            DataType::F32 => F::Float32,
            DataType::U8 => F::UInt8,
            DataType::U16 => F::UInt16,
            DataType::U32 => F::UInt32,
            DataType::I32 => F::Int32,
            DataType::Bfp8 => F::Bfp8_b,
            DataType::Bfp4 => F::Bfp4_b,
        }
    }
}

impl FromStr for DataType {
    type Err = LayoutError;
    fn from_str(s: &str) -> Result<Self, LayoutError> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "bf16" | "bfloat16" => DataType::Bf16,
            "f32" | "float32" => DataType::F32,
            "u8" | "uint8" => DataType::U8,
            "u16" | "uint16" => DataType::U16,
            "u32" | "uint32" => DataType::U32,
            "i32" | "int32" => DataType::I32,
            "bfp8" | "bfloat8_b" | "bfp8_b" => DataType::Bfp8,
            "bfp4" | "bfloat4_b" | "bfp4_b" => DataType::Bfp4,
            _ => return Err(LayoutError::value("dtype", s, "one of bf16, f32, u8, u16, u32, i32, bfp8, bfp4")),
        })
    }
}

impl fmt::Display for DataType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DataType::Bf16 => "BFLOAT16",
            DataType::F32 => "FLOAT32",
            DataType::U8 => "UINT8",
            DataType::U16 => "UINT16",
            DataType::U32 => "UINT32",
            DataType::I32 => "INT32",
            DataType::Bfp8 => "BFLOAT8_B",
            DataType::Bfp4 => "BFLOAT4_B",
        })
    }
}

/// TTNN's `PageConfig`: row-major pages or tiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PageConfig {
    /// A page is one row (one shard row when sharded).
    RowMajor,
    /// A page is one tile.
    Tile(TileShape),
}

impl fmt::Display for PageConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PageConfig::RowMajor => f.write_str("ROW_MAJOR"),
            PageConfig::Tile(t) => write!(f, "TILE {t}"),
        }
    }
}

impl fmt::Display for BufferKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BufferKind::Dram => "DRAM",
            BufferKind::L1 => "L1",
        })
    }
}

/// TTNN's `ShardMode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ShardMode {
    /// The shard shape is physical: the tensor is padded to whole shards.
    #[default]
    Physical,
    /// The shard shape cuts the logical shape; each shard is padded on its own.
    Logical,
}

impl FromStr for ShardMode {
    type Err = LayoutError;
    fn from_str(s: &str) -> Result<Self, LayoutError> {
        match s.to_ascii_lowercase().as_str() {
            "physical" => Ok(ShardMode::Physical),
            "logical" => Ok(ShardMode::Logical),
            _ => Err(LayoutError::value("shard mode", s, "physical or logical")),
        }
    }
}

/// A 2-D shard spec (`ShardSpec`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardSpec {
    /// Cores.
    pub grid: CoreRangeSet,
    /// Shard `[height, width]`, elements.
    pub shape: [u64; 2],
    /// Order of cores.
    pub orientation: ShardOrientation,
    /// Physical or logical.
    pub mode: ShardMode,
    /// The physical shard shape of a logical spec (default: the logical shard padded to the page).
    pub physical_shape: Option<[u64; 2]>,
}

/// An N-D shard spec (`NdShardSpec`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NdShardSpec {
    /// Shard shape, elements, the tensor's rank.
    pub shape: Shape,
    /// Cores.
    pub grid: CoreRangeSet,
    /// Order of cores.
    pub orientation: ShardOrientation,
    /// How shards go to cores.
    pub strategy: DistributionStrategy,
}

/// Where the buffer lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BufferKind {
    /// DRAM.
    #[default]
    Dram,
    /// L1.
    L1,
}

impl FromStr for BufferKind {
    type Err = LayoutError;
    fn from_str(s: &str) -> Result<Self, LayoutError> {
        match s.to_ascii_lowercase().as_str() {
            "dram" => Ok(BufferKind::Dram),
            "l1" => Ok(BufferKind::L1),
            _ => Err(LayoutError::value("buffer", s, "l1 or dram")),
        }
    }
}

/// TTNN's `MemoryConfig`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemoryConfig {
    /// Pages round-robin over the banks.
    Interleaved(BufferKind),
    /// 2-D sharding.
    Sharded {
        /// HEIGHT, WIDTH or BLOCK.
        layout: TensorMemoryLayout,
        /// L1 or DRAM.
        buffer: BufferKind,
        /// The shard spec.
        spec: ShardSpec,
    },
    /// N-D sharding.
    NdSharded {
        /// L1 or DRAM.
        buffer: BufferKind,
        /// The shard spec.
        spec: NdShardSpec,
    },
}

impl MemoryConfig {
    /// The buffer type.
    pub fn buffer(&self) -> BufferKind {
        match self {
            MemoryConfig::Interleaved(b) => *b,
            MemoryConfig::Sharded { buffer, .. } | MemoryConfig::NdSharded { buffer, .. } => *buffer,
        }
    }
}

/// A TTNN tensor spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorSpec {
    /// Logical shape.
    pub shape: Shape,
    /// Data type.
    pub dtype: DataType,
    /// Pages.
    pub page: PageConfig,
    /// Memory.
    pub memory: MemoryConfig,
    /// An explicit padded shape (must cover the logical shape and meet the alignment).
    pub padded_shape: Option<Shape>,
    /// Bank alignment of pages, bytes (L1 16; DRAM 32 on Wormhole, 64 on Blackhole).
    pub bank_alignment: u64,
}

impl TensorSpec {
    /// What TTNN derives from the spec.
    pub fn derive(&self) -> Result<Derived, LayoutError> {
        derive(self)
    }
}

#[cfg(test)]
mod tests;
