//! Data formats: tt-metal's `DataFormat` with its tile sizes, bfloat16 and IEEE half conversions (round to
//! nearest even, as tt-metal's host `bfloat16` does); the tile codecs are in [`codec`].

pub mod codec;

pub use codec::{
    TILE_VALUES, bfp_mantissa_bits, decode_element, decode_tile, encode_element, encode_tile, pack_tiles, unpack_tiles,
};

use std::fmt;

/// tt-metal's `tt::DataFormat` (the formats tensim models).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types)]
pub enum DataFormat {
    /// IEEE single precision.
    Float32,
    /// IEEE half precision.
    Float16,
    /// bfloat16.
    Float16_b,
    /// Block float, 8-bit mantissas, shared 8-bit exponent per 16 values.
    Bfp8_b,
    /// Block float, 4-bit mantissas.
    Bfp4_b,
    /// Block float, 2-bit mantissas.
    Bfp2_b,
    /// 32-bit signed integer.
    Int32,
    /// 32-bit unsigned integer.
    UInt32,
    /// 16-bit unsigned integer.
    UInt16,
    /// 8-bit unsigned integer.
    UInt8,
}

impl DataFormat {
    /// Bytes of one 32×32 tile (`tt::tile_size`).
    pub fn tile_size(self) -> u32 {
        match self {
            DataFormat::Float32 | DataFormat::Int32 | DataFormat::UInt32 => 4096,
            DataFormat::Float16 | DataFormat::Float16_b | DataFormat::UInt16 => 2048,
            DataFormat::UInt8 => 1024,
            DataFormat::Bfp8_b => 1024 + 64,
            DataFormat::Bfp4_b => 512 + 64,
            DataFormat::Bfp2_b => 256 + 64,
        }
    }

    /// Bytes per element outside block floats (block floats: their mantissa byte, 1).
    pub fn element_bytes(self) -> u32 {
        match self {
            DataFormat::Float32 | DataFormat::Int32 | DataFormat::UInt32 => 4,
            DataFormat::Float16 | DataFormat::Float16_b | DataFormat::UInt16 => 2,
            DataFormat::UInt8 | DataFormat::Bfp8_b | DataFormat::Bfp4_b | DataFormat::Bfp2_b => 1,
        }
    }

    /// Whether every value of the format is exact at source-register precision (TF32: 10 mantissa bits),
    /// so unpacking needs no rounding.
    pub fn exact_in_src_registers(self) -> bool {
        !matches!(self, DataFormat::Float32 | DataFormat::Int32 | DataFormat::UInt32 | DataFormat::UInt16)
    }

    /// Int32 or UInt32: 32-bit integers, which only DST (unpacked to it straight) holds exactly.
    pub fn is_32bit_int(self) -> bool {
        matches!(self, DataFormat::Int32 | DataFormat::UInt32)
    }

    /// tt-metal's numeric code of the format.
    pub fn code(self) -> u32 {
        match self {
            DataFormat::Float32 => 0,
            DataFormat::Float16 => 1,
            DataFormat::Float16_b => 5,
            DataFormat::Bfp8_b => 6,
            DataFormat::Bfp4_b => 7,
            DataFormat::Int32 => 8,
            DataFormat::UInt16 => 9,
            DataFormat::Bfp2_b => 15,
            DataFormat::UInt32 => 24,
            DataFormat::UInt8 => 30,
        }
    }
}

impl fmt::Display for DataFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A bfloat16 value (the upper 16 bits of an f32).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[allow(non_camel_case_types)]
pub struct bfloat16(pub u16);

impl bfloat16 {
    /// Round an f32 to the nearest bfloat16, ties to even (NaN stays NaN).
    pub fn from_f32(v: f32) -> bfloat16 {
        let bits = v.to_bits();
        if v.is_nan() {
            return bfloat16(((bits >> 16) as u16) | 0x40);
        }
        let lsb = (bits >> 16) & 1;
        let rounded = bits.wrapping_add(0x7fff + lsb);
        bfloat16((rounded >> 16) as u16)
    }

    /// Truncate an f32 to bfloat16 (older tt-metal behaviour).
    pub fn truncate(v: f32) -> bfloat16 {
        bfloat16((v.to_bits() >> 16) as u16)
    }

    /// The value as f32 (exact).
    pub fn to_f32(self) -> f32 {
        f32::from_bits((self.0 as u32) << 16)
    }

    /// The raw bits.
    pub fn to_bits(self) -> u16 {
        self.0
    }
}

impl From<f32> for bfloat16 {
    fn from(v: f32) -> Self {
        bfloat16::from_f32(v)
    }
}

impl From<bfloat16> for f32 {
    fn from(v: bfloat16) -> f32 {
        v.to_f32()
    }
}

/// `pack_two_bfloat16_into_uint32`: `a` in the low 16 bits, `b` in the high.
pub fn pack_two_bfloat16_into_uint32(a: bfloat16, b: bfloat16) -> u32 {
    a.0 as u32 | ((b.0 as u32) << 16)
}

/// Round an f32 to the nearest bfloat16 value (ties to even), returned as f32.
#[inline]
pub fn round_bf16(v: f32) -> f32 {
    bfloat16::from_f32(v).to_f32()
}

/// IEEE half-precision bits of `v`, rounded to nearest even (overflow → ±inf, NaN kept).
pub fn f32_to_f16_bits(v: f32) -> u16 {
    let bits = v.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let frac = bits & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if frac != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        // Subnormal half (or zero): shift the full significand.
        if e < -10 {
            return sign;
        }
        let sig = frac | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rem = sig & ((1 << shift) - 1);
        let mut m = sig >> shift;
        if rem > half || (rem == half && m & 1 == 1) {
            m += 1;
        }
        return sign | m as u16;
    }
    let mut m = frac >> 13;
    let rem = frac & 0x1fff;
    let mut e = e as u32;
    if rem > 0x1000 || (rem == 0x1000 && m & 1 == 1) {
        m += 1;
        if m == 0x400 {
            m = 0;
            e += 1;
            if e >= 0x1f {
                return sign | 0x7c00;
            }
        }
    }
    sign | ((e as u16) << 10) | m as u16
}

/// The f32 value of IEEE half-precision bits (exact).
pub fn f16_bits_to_f32(h: u16) -> f32 {
    let sign = ((h & 0x8000) as u32) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let frac = (h & 0x3ff) as u32;
    let bits = match exp {
        0 if frac == 0 => sign,
        0 => {
            // Subnormal: normalise.
            let mut e = 127 - 15 + 1;
            let mut f = frac;
            while f & 0x400 == 0 {
                f <<= 1;
                e -= 1;
            }
            sign | ((e as u32) << 23) | ((f & 0x3ff) << 13)
        }
        0x1f => sign | 0x7f80_0000 | (frac << 13),
        _ => sign | ((exp + 127 - 15) << 23) | (frac << 13),
    };
    f32::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bf16_rounds_to_nearest_even() {
        assert_eq!(bfloat16::from_f32(1.0).0, 0x3f80);
        // 1 + 2^-8 is exactly halfway between 1.0 and 1 + 2^-7: ties to even (1.0).
        assert_eq!(bfloat16::from_f32(1.0 + 1.0 / 256.0).0, 0x3f80);
        // 1 + 3*2^-8 is halfway between 1+2^-7 (odd) and 1+2^-6 (even): rounds up to even.
        assert_eq!(bfloat16::from_f32(1.0 + 3.0 / 256.0).0, 0x3f82);
        assert_eq!(bfloat16::from_f32(1.0 + 1.5 / 256.0).0, 0x3f81);
        assert_eq!(bfloat16::truncate(1.0 + 1.5 / 256.0).0, 0x3f80);
        assert!(bfloat16::from_f32(f32::NAN).to_f32().is_nan());
        assert_eq!(bfloat16::from_f32(f32::INFINITY).to_f32(), f32::INFINITY);
        assert_eq!(pack_two_bfloat16_into_uint32(bfloat16(1), bfloat16(2)), 0x0002_0001);
    }

    #[test]
    fn tile_sizes() {
        assert_eq!(DataFormat::Float16_b.tile_size(), 2048);
        assert_eq!(DataFormat::Float32.tile_size(), 4096);
        assert_eq!(DataFormat::Bfp8_b.tile_size(), 1088);
        assert_eq!(DataFormat::Bfp4_b.tile_size(), 576);
    }
}
