//! Tile codecs: one tile of any [`DataFormat`] in tt-metal's byte layout ↔ 1024 f32 values in storage
//! (face) order — IEEE formats, integers (rounded and saturated) and the block floats (a shared exponent per
//! 16-value face row, exponents first, then sign|magnitude codes).

use super::{DataFormat, f16_bits_to_f32, f32_to_f16_bits};

/// Magnitude bits (including the leading one) of a block-float datum, or `None` for other formats.
pub fn bfp_mantissa_bits(format: DataFormat) -> Option<u32> {
    match format {
        DataFormat::Bfp8_b => Some(7),
        DataFormat::Bfp4_b => Some(3),
        DataFormat::Bfp2_b => Some(1),
        _ => None,
    }
}

/// Values per 32×32 tile.
pub const TILE_VALUES: usize = 1024;

/// Encode 16 values sharing one exponent; returns the shared exponent and fills `out` with
/// `sign << m_bits | magnitude` codes.
fn bfp_encode_group(vals: &[f32], m_bits: u32, out: &mut [u8]) -> u8 {
    let shared = vals.iter().map(|v| ((v.to_bits() >> 23) & 0xff) as u8).max().unwrap_or(0);
    for (v, o) in vals.iter().zip(out.iter_mut()) {
        let bits = v.to_bits();
        let sign = (bits >> 31) as u8;
        let exp = (bits >> 23) & 0xff;
        if exp == 0 || v.is_nan() {
            *o = sign << m_bits;
            continue;
        }
        let sig = (bits & 0x7f_ffff) | 0x80_0000; // 24 significant bits
        let drop = 24 - m_bits + (shared as u32 - exp);
        let mut m = if drop >= 32 {
            0
        } else {
            let half = 1u64 << (drop - 1);
            let rem = (sig as u64) & ((1u64 << drop) - 1);
            let mut m = (sig as u64) >> drop;
            if rem > half || (rem == half && m & 1 == 1) {
                m += 1;
            }
            m as u32
        };
        let max = (1u32 << m_bits) - 1;
        if m > max {
            m = max;
        }
        *o = (sign << m_bits) | m as u8;
    }
    shared
}

fn bfp_decode(code: u8, shared: u8, m_bits: u32) -> f32 {
    let m = (code & ((1 << m_bits) - 1)) as f32;
    let sign = if code >> m_bits & 1 == 1 { -1.0 } else { 1.0 };
    if shared == 0 || m == 0.0 {
        return 0.0 * sign;
    }
    sign * m * 2f32.powi(shared as i32 - 127 - (m_bits as i32 - 1))
}

/// Decode one tile stored in `format` (tt-metal's byte layout) into 1024 values in storage (face) order.
pub fn decode_tile(format: DataFormat, bytes: &[u8], out: &mut [f32]) {
    assert!(bytes.len() >= format.tile_size() as usize && out.len() >= TILE_VALUES, "decode_tile: short buffer");
    match format {
        DataFormat::Float32 => {
            for (i, o) in out[..TILE_VALUES].iter_mut().enumerate() {
                *o = f32::from_le_bytes([bytes[4 * i], bytes[4 * i + 1], bytes[4 * i + 2], bytes[4 * i + 3]]);
            }
        }
        DataFormat::Float16_b => {
            for (i, o) in out[..TILE_VALUES].iter_mut().enumerate() {
                *o = f32::from_bits((u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]) as u32) << 16);
            }
        }
        DataFormat::Float16 => {
            for (i, o) in out[..TILE_VALUES].iter_mut().enumerate() {
                *o = f16_bits_to_f32(u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]));
            }
        }
        DataFormat::Int32 => {
            for (i, o) in out[..TILE_VALUES].iter_mut().enumerate() {
                *o = i32::from_le_bytes([bytes[4 * i], bytes[4 * i + 1], bytes[4 * i + 2], bytes[4 * i + 3]]) as f32;
            }
        }
        DataFormat::UInt32 => {
            for (i, o) in out[..TILE_VALUES].iter_mut().enumerate() {
                *o = u32::from_le_bytes([bytes[4 * i], bytes[4 * i + 1], bytes[4 * i + 2], bytes[4 * i + 3]]) as f32;
            }
        }
        DataFormat::UInt16 => {
            for (i, o) in out[..TILE_VALUES].iter_mut().enumerate() {
                *o = u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]) as f32;
            }
        }
        DataFormat::UInt8 => {
            for (o, b) in out[..TILE_VALUES].iter_mut().zip(bytes) {
                *o = *b as f32;
            }
        }
        DataFormat::Bfp8_b | DataFormat::Bfp4_b | DataFormat::Bfp2_b => {
            let m_bits = bfp_mantissa_bits(format).expect("bfp");
            let per_byte = 8 / (m_bits + 1) as usize;
            let mant = &bytes[64..];
            for (i, o) in out[..TILE_VALUES].iter_mut().enumerate() {
                let byte = mant[i / per_byte];
                let shift = (i % per_byte) as u32 * (m_bits + 1);
                let code = (byte >> shift) & ((1u16 << (m_bits + 1)) - 1) as u8;
                *o = bfp_decode(code, bytes[i / 16], m_bits);
            }
        }
    }
}

/// Encode 1024 values (storage order) as one tile in `format`, rounding as the packer does: to nearest,
/// ties to even; integers round to nearest and saturate; block floats share the largest exponent of each
/// 16-value face row.
pub fn encode_tile(format: DataFormat, vals: &[f32], out: &mut [u8]) {
    assert!(vals.len() >= TILE_VALUES && out.len() >= format.tile_size() as usize, "encode_tile: short buffer");
    let vals = &vals[..TILE_VALUES];
    match format {
        DataFormat::Float32 => {
            for (i, v) in vals.iter().enumerate() {
                out[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
            }
        }
        DataFormat::Float16_b => sim_core::simd::narrow_bf16(vals, &mut out[..TILE_VALUES * 2]),
        DataFormat::Float16 => {
            for (i, v) in vals.iter().enumerate() {
                out[2 * i..2 * i + 2].copy_from_slice(&f32_to_f16_bits(*v).to_le_bytes());
            }
        }
        DataFormat::Int32 => {
            for (i, v) in vals.iter().enumerate() {
                out[4 * i..4 * i + 4].copy_from_slice(&(v.round_ties_even() as i32).to_le_bytes());
            }
        }
        DataFormat::UInt32 => {
            for (i, v) in vals.iter().enumerate() {
                out[4 * i..4 * i + 4].copy_from_slice(&(v.round_ties_even().max(0.0) as u32).to_le_bytes());
            }
        }
        DataFormat::UInt16 => {
            for (i, v) in vals.iter().enumerate() {
                out[2 * i..2 * i + 2].copy_from_slice(&(v.round_ties_even().clamp(0.0, 65535.0) as u16).to_le_bytes());
            }
        }
        DataFormat::UInt8 => {
            for (o, v) in out.iter_mut().zip(vals) {
                *o = v.round_ties_even().clamp(0.0, 255.0) as u8;
            }
        }
        DataFormat::Bfp8_b | DataFormat::Bfp4_b | DataFormat::Bfp2_b => {
            let m_bits = bfp_mantissa_bits(format).expect("bfp");
            let per_byte = 8 / (m_bits + 1) as usize;
            let (exps, mant) = out.split_at_mut(64);
            mant[..TILE_VALUES / per_byte].fill(0);
            let mut codes = [0u8; 16];
            for g in 0..64 {
                exps[g] = bfp_encode_group(&vals[16 * g..16 * g + 16], m_bits, &mut codes);
                for (k, c) in codes.iter().enumerate() {
                    let i = 16 * g + k;
                    mant[i / per_byte] |= c << ((i % per_byte) as u32 * (m_bits + 1));
                }
            }
        }
    }
}

/// One value of a row-major (untiled) page in `format`, from its `element_bytes()` bytes, as the unpacker
/// reads it (integers as their values); `None` for block floats, which have no row-major form.
pub fn decode_element(format: DataFormat, e: &[u8]) -> Option<f32> {
    Some(match format {
        DataFormat::Float32 => f32::from_le_bytes([e[0], e[1], e[2], e[3]]),
        DataFormat::Float16_b => f32::from_bits((u16::from_le_bytes([e[0], e[1]]) as u32) << 16),
        DataFormat::Float16 => super::f16_bits_to_f32(u16::from_le_bytes([e[0], e[1]])),
        DataFormat::Int32 => i32::from_le_bytes([e[0], e[1], e[2], e[3]]) as f32,
        DataFormat::UInt32 => u32::from_le_bytes([e[0], e[1], e[2], e[3]]) as f32,
        DataFormat::UInt16 => u16::from_le_bytes([e[0], e[1]]) as f32,
        DataFormat::UInt8 => e[0] as f32,
        DataFormat::Bfp8_b | DataFormat::Bfp4_b | DataFormat::Bfp2_b => return None,
    })
}

/// One value into a row-major page in `format` (`out`: `element_bytes()` bytes), rounded as
/// [`encode_tile`] rounds it; `false` for block floats, which have no row-major form.
pub fn encode_element(format: DataFormat, v: f32, out: &mut [u8]) -> bool {
    match format {
        DataFormat::Float32 => out[..4].copy_from_slice(&v.to_le_bytes()),
        DataFormat::Float16_b => out[..2].copy_from_slice(&super::bfloat16::from_f32(v).0.to_le_bytes()),
        DataFormat::Float16 => out[..2].copy_from_slice(&super::f32_to_f16_bits(v).to_le_bytes()),
        DataFormat::Int32 => out[..4].copy_from_slice(&(v.round_ties_even() as i32).to_le_bytes()),
        DataFormat::UInt32 => out[..4].copy_from_slice(&(v.round_ties_even().max(0.0) as u32).to_le_bytes()),
        DataFormat::UInt16 => out[..2].copy_from_slice(&(v.round_ties_even().clamp(0.0, 65535.0) as u16).to_le_bytes()),
        DataFormat::UInt8 => out[0] = v.round_ties_even().clamp(0.0, 255.0) as u8,
        DataFormat::Bfp8_b | DataFormat::Bfp4_b | DataFormat::Bfp2_b => return false,
    }
    true
}

/// Host helper: values already in tile (face) order, `1024 × tiles` of them, packed as tiles of `format`.
pub fn pack_tiles(format: DataFormat, vals: &[f32]) -> Vec<u8> {
    assert!(vals.len().is_multiple_of(TILE_VALUES), "pack_tiles: {} values are not whole tiles", vals.len());
    let ts = format.tile_size() as usize;
    let mut out = vec![0u8; vals.len() / TILE_VALUES * ts];
    for (t, chunk) in vals.chunks(TILE_VALUES).enumerate() {
        encode_tile(format, chunk, &mut out[t * ts..(t + 1) * ts]);
    }
    out
}

/// Host helper: tiles of `format` back to values in tile (face) order.
pub fn unpack_tiles(format: DataFormat, bytes: &[u8]) -> Vec<f32> {
    let ts = format.tile_size() as usize;
    assert!(bytes.len().is_multiple_of(ts), "unpack_tiles: {} bytes are not whole {format} tiles", bytes.len());
    let mut out = vec![0f32; bytes.len() / ts * TILE_VALUES];
    for (t, chunk) in bytes.chunks(ts).enumerate() {
        decode_tile(format, chunk, &mut out[t * TILE_VALUES..(t + 1) * TILE_VALUES]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bfloat16_tiles_encode_value_by_value_as_from_f32() {
        // The vectorised tile encoder gives exactly `bfloat16::from_f32` of every value, NaNs and ties included.
        let vals: Vec<f32> = (0..TILE_VALUES as u32)
            .map(|i| match i % 7 {
                0 => f32::NAN,
                1 => f32::from_bits(0x3f80_8000), // a tie: 1 + 2^-8
                2 => f32::from_bits(0x3f81_8000), // a tie rounding up
                3 => -f32::INFINITY,
                _ => f32::from_bits(i.wrapping_mul(2_654_435_761)),
            })
            .collect();
        let mut out = vec![0u8; TILE_VALUES * 2];
        encode_tile(DataFormat::Float16_b, &vals, &mut out);
        for (i, v) in vals.iter().enumerate() {
            assert_eq!(
                u16::from_le_bytes([out[2 * i], out[2 * i + 1]]),
                super::super::bfloat16::from_f32(*v).0,
                "value {i}"
            );
        }
    }

    #[test]
    fn half_precision_round_trips_and_rounds() {
        for v in [0.0f32, 1.0, -2.5, 65504.0, 6.1035156e-5, 5.9604645e-8, 0.333333] {
            let h = f32_to_f16_bits(v);
            let back = f16_bits_to_f32(h);
            assert!((back - v).abs() <= v.abs() * 1e-3 + 6e-8, "{v} -> {back}");
        }
        assert_eq!(f32_to_f16_bits(1.0), 0x3c00);
        assert_eq!(f32_to_f16_bits(65520.0), 0x7c00, "rounds to infinity");
        // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1.0).
        assert_eq!(f32_to_f16_bits(1.0 + 1.0 / 2048.0), 0x3c00);
        assert_eq!(f32_to_f16_bits(1.0 + 3.0 / 2048.0), 0x3c02);
        assert_eq!(f16_bits_to_f32(0x0001), 5.9604645e-8);
    }

    #[test]
    fn bfp8_shares_the_largest_exponent_of_each_face_row() {
        let mut vals = vec![0f32; 1024];
        vals[0] = 1.0;
        vals[1] = 0.5;
        vals[2] = -0.75;
        vals[3] = 3.0 / 256.0; // between the shared exponent's 1/64 steps
        vals[4] = 1.0 / 128.0; // exactly half a step
        vals[16] = 3.0; // next group
        let bytes = pack_tiles(DataFormat::Bfp8_b, &vals);
        assert_eq!(bytes.len(), 1088);
        assert_eq!(bytes[0], 127, "shared exponent of group 0 is that of 1.0");
        assert_eq!(bytes[1], 128, "group 1: exponent of 3.0");
        let back = unpack_tiles(DataFormat::Bfp8_b, &bytes);
        assert_eq!(&back[..3], &[1.0, 0.5, -0.75]);
        assert_eq!(back[3], 1.0 / 64.0, "3/256 rounds to the nearest 1/64 step");
        assert_eq!(back[4], 0.0, "1/128 is a tie between 0 and 1/64: to even (0)");
        assert_eq!(back[16], 3.0);
        // Layout: exponents first, then one sign|magnitude byte per value.
        assert_eq!(bytes[64], 64, "1.0 = 64/64");
        assert_eq!(bytes[66], 0x80 | 48, "-0.75 = -48/64");
    }

    #[test]
    fn bfp4_and_bfp2_pack_several_values_per_byte() {
        let vals: Vec<f32> = (0..1024).map(|i| if i % 16 == 0 { 1.0 } else { 0.5 }).collect();
        let b4 = pack_tiles(DataFormat::Bfp4_b, &vals);
        assert_eq!(b4.len(), 576);
        assert_eq!(unpack_tiles(DataFormat::Bfp4_b, &b4), vals);
        let b2 = pack_tiles(DataFormat::Bfp2_b, &vals);
        assert_eq!(b2.len(), 320);
        let back = unpack_tiles(DataFormat::Bfp2_b, &b2);
        assert_eq!(back[0], 1.0);
        assert_eq!(back[1], 0.0, "bfp2 has one magnitude bit: 0.5 is a tie between 0 and 1, to even (0)");
    }

    /// The formats with one value per element (every one but the block floats).
    const ELEMENT_FORMATS: [DataFormat; 7] = [
        DataFormat::Float32,
        DataFormat::Float16_b,
        DataFormat::Float16,
        DataFormat::Int32,
        DataFormat::UInt32,
        DataFormat::UInt16,
        DataFormat::UInt8,
    ];

    #[test]
    fn elements_decode_and_encode_as_tiles_do() {
        let vals: Vec<f32> = (0..1024).map(|i| (i as f32 - 300.5) * 1.37).collect();
        for f in ELEMENT_FORMATS {
            let tile = pack_tiles(f, &vals);
            let n = f.element_bytes() as usize;
            let mut one = vec![0u8; n];
            for (i, v) in vals.iter().enumerate() {
                assert!(encode_element(f, *v, &mut one));
                assert_eq!(&one[..], &tile[i * n..(i + 1) * n], "{f} value {i}");
                assert_eq!(decode_element(f, &one), Some(unpack_tiles(f, &tile)[i]), "{f} value {i}");
            }
        }
        assert_eq!(decode_element(DataFormat::Bfp8_b, &[0]), None);
        assert!(!encode_element(DataFormat::Bfp4_b, 1.0, &mut [0]));
    }

    #[test]
    fn every_format_round_trips_representable_values() {
        let vals: Vec<f32> = (0..1024).map(|i| (i % 200) as f32).collect();
        for f in ELEMENT_FORMATS {
            let b = pack_tiles(f, &vals);
            assert_eq!(b.len(), f.tile_size() as usize, "{f}");
            assert_eq!(unpack_tiles(f, &b), vals, "{f}");
        }
    }
}
