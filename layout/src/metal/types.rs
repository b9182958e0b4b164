//! The small vocabularies of tt.metal_layout: element types (scalar and tile), the out-of-bounds value that
//! fills padding, and memory spaces — each with the spelling tt-mlir prints and the CLI accepts.

use crate::error::LayoutError;
use crate::format::DataFormat;
use crate::tile::TileShape;
use std::fmt;
use std::str::FromStr;

/// An element type: a scalar (`f32`, `bf16`, …) or a block float (only inside tiles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ElementType {
    /// `f32`.
    F32,
    /// `f16`.
    F16,
    /// `bf16`.
    Bf16,
    /// `bfp_bf8` (block float, 8-bit mantissas).
    BfpBf8,
    /// `bfp_bf4`.
    BfpBf4,
    /// `bfp_bf2`.
    BfpBf2,
    /// `i32`.
    I32,
    /// `u32`.
    U32,
    /// `u16`.
    U16,
    /// `u8`.
    U8,
}

impl ElementType {
    /// The name in MLIR types (`xf32`, `!tt.tile<32 x 32, bfp_bf8>`).
    pub fn mlir(&self) -> &'static str {
        match self {
            ElementType::F32 => "f32",
            ElementType::F16 => "f16",
            ElementType::Bf16 => "bf16",
            ElementType::BfpBf8 => "bfp_bf8",
            ElementType::BfpBf4 => "bfp_bf4",
            ElementType::BfpBf2 => "bfp_bf2",
            ElementType::I32 => "si32",
            ElementType::U32 => "ui32",
            ElementType::U16 => "ui16",
            ElementType::U8 => "ui8",
        }
    }

    /// Whether it is a block float (exists only in tiles).
    pub fn is_block_float(&self) -> bool {
        matches!(self, ElementType::BfpBf8 | ElementType::BfpBf4 | ElementType::BfpBf2)
    }

    /// The data format a tile of this type is stored in.
    pub fn data_format(&self) -> DataFormat {
        match self {
            ElementType::F32 => DataFormat::Float32,
            ElementType::F16 => DataFormat::Float16,
            ElementType::Bf16 => DataFormat::Float16_b,
            ElementType::BfpBf8 => DataFormat::Bfp8_b,
            ElementType::BfpBf4 => DataFormat::Bfp4_b,
            ElementType::BfpBf2 => DataFormat::Bfp2_b,
            ElementType::I32 => DataFormat::Int32,
            ElementType::U32 => DataFormat::UInt32,
            ElementType::U16 => DataFormat::UInt16,
            ElementType::U8 => DataFormat::UInt8,
        }
    }
}

impl FromStr for ElementType {
    type Err = LayoutError;
    fn from_str(s: &str) -> Result<Self, LayoutError> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "f32" | "float32" => ElementType::F32,
            "f16" | "float16" => ElementType::F16,
            "bf16" | "bfloat16" => ElementType::Bf16,
            "bfp8" | "bfp_bf8" | "bfp8_b" | "bfloat8_b" => ElementType::BfpBf8,
            "bfp4" | "bfp_bf4" | "bfp4_b" | "bfloat4_b" => ElementType::BfpBf4,
            "bfp2" | "bfp_bf2" | "bfp2_b" => ElementType::BfpBf2,
            "i32" | "si32" | "int32" => ElementType::I32,
            "u32" | "ui32" | "uint32" => ElementType::U32,
            "u16" | "ui16" | "uint16" => ElementType::U16,
            "u8" | "ui8" | "uint8" => ElementType::U8,
            _ => {
                return Err(LayoutError::value(
                    "dtype",
                    s,
                    "one of f32, f16, bf16, bfp8, bfp4, bfp2, i32, u32, u16, u8",
                ));
            }
        })
    }
}

impl fmt::Display for ElementType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mlir())
    }
}

/// A tile element type: `!tt.tile<32 x 32, bfp_bf8>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileType {
    /// The shape.
    pub shape: TileShape,
    /// The element type of the tile's data.
    pub dtype: ElementType,
}

impl fmt::Display for TileType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "!tt.tile<{} x {}, {}>", self.shape.height, self.shape.width, self.dtype)
    }
}

/// What padding holds (tt.metal_layout's `oob_val`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OobVal {
    /// Whatever was there.
    #[default]
    Undef,
    /// 0.
    Zero,
    /// +∞.
    Inf,
    /// −∞.
    NegInf,
    /// NaN.
    NaN,
}

impl OobVal {
    /// The value written into padding (`None`: left as it is).
    pub fn value(&self) -> Option<f32> {
        match self {
            OobVal::Undef => None,
            OobVal::Zero => Some(0.0),
            OobVal::Inf => Some(f32::INFINITY),
            OobVal::NegInf => Some(f32::NEG_INFINITY),
            OobVal::NaN => Some(f32::NAN),
        }
    }
}

impl FromStr for OobVal {
    type Err = LayoutError;
    fn from_str(s: &str) -> Result<Self, LayoutError> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "undef" => OobVal::Undef,
            "zero" | "0" => OobVal::Zero,
            "inf" | "+inf" => OobVal::Inf,
            "neginf" | "-inf" => OobVal::NegInf,
            "nan" => OobVal::NaN,
            _ => return Err(LayoutError::value("oob", s, "one of undef, zero, inf, neginf, nan")),
        })
    }
}

impl fmt::Display for OobVal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OobVal::Undef => "undef",
            OobVal::Zero => "zero",
            OobVal::Inf => "inf",
            OobVal::NegInf => "neginf",
            OobVal::NaN => "nan",
        })
    }
}

/// Where a tensor lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MemorySpace {
    /// Host memory the device cannot see.
    System,
    /// Host memory the device can see.
    SystemMmio,
    /// Device DRAM.
    DeviceDram,
    /// Core L1 (SRAM).
    #[default]
    DeviceL1,
}

impl MemorySpace {
    /// tt-mlir's spelling (`#tt.memory_space<l1>`).
    pub fn mlir(&self) -> &'static str {
        match self {
            MemorySpace::System => "system",
            MemorySpace::SystemMmio => "mmio",
            MemorySpace::DeviceDram => "dram",
            MemorySpace::DeviceL1 => "l1",
        }
    }
}

impl FromStr for MemorySpace {
    type Err = LayoutError;
    fn from_str(s: &str) -> Result<Self, LayoutError> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "system" => MemorySpace::System,
            "system_mmio" | "mmio" => MemorySpace::SystemMmio,
            "dram" | "device_dram" => MemorySpace::DeviceDram,
            "l1" | "device_l1" => MemorySpace::DeviceL1,
            _ => return Err(LayoutError::value("memspace", s, "one of system, system_mmio, dram, l1")),
        })
    }
}
