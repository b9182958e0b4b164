//! Tiles as tt-metal stores them: faces of `min(h, 16) × 16` elements, each contiguous and row-major, the
//! faces themselves row-major (a 32×32 tile: F0 top-left, F1 top-right, F2 bottom-left, F3 bottom-right).
//! Tiles of a matrix are stored row-major of tiles. This module is the one definition of face order: the
//! tile math, the codecs' callers and host tilize all use it.

use crate::error::LayoutError;
use crate::format::{DataFormat, bfp_mantissa_bits};
use serde::Serialize;
use std::fmt;

/// Tile height, elements.
pub const TILE_HEIGHT: usize = 32;
/// Tile width, elements.
pub const TILE_WIDTH: usize = 32;
/// Elements per tile.
pub const TILE_HW: usize = TILE_HEIGHT * TILE_WIDTH;
/// Face height, elements.
pub const FACE_HEIGHT: usize = 16;
/// Face width, elements.
pub const FACE_WIDTH: usize = 16;
/// Elements per face.
pub const FACE_HW: usize = FACE_HEIGHT * FACE_WIDTH;

/// Position inside a tile's storage of element (row `i`, column `j`) of the tile:
/// `((i/16)*2 + (j/16))*256 + (i%16)*16 + (j%16)`.
#[inline]
pub fn tile_offset(i: usize, j: usize) -> usize {
    ((i / FACE_HEIGHT) * 2 + (j / FACE_WIDTH)) * FACE_HW + (i % FACE_HEIGHT) * FACE_WIDTH + (j % FACE_WIDTH)
}

/// A tile shape the hardware supports (height × width): 32, 16, 8, 4, 2 or 1 rows of 32 columns, or 32, 16,
/// 8, 4, 2 or 1 rows of 16 columns; faces are `min(height, 16) × 16`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct TileShape {
    /// Rows.
    pub height: u32,
    /// Columns.
    pub width: u32,
}

impl TileShape {
    /// The default 32×32 tile.
    pub const T32X32: TileShape = TileShape { height: 32, width: 32 };
    /// The shapes the hardware supports.
    pub const SUPPORTED: [TileShape; 12] = [
        TileShape::T32X32,
        TileShape { height: 16, width: 32 },
        TileShape { height: 8, width: 32 },
        TileShape { height: 4, width: 32 },
        TileShape { height: 2, width: 32 },
        TileShape { height: 1, width: 32 },
        TileShape { height: 32, width: 16 },
        TileShape { height: 16, width: 16 },
        TileShape { height: 8, width: 16 },
        TileShape { height: 4, width: 16 },
        TileShape { height: 2, width: 16 },
        TileShape { height: 1, width: 16 },
    ];

    /// A supported tile shape.
    pub fn new(height: u32, width: u32) -> Result<TileShape, LayoutError> {
        let t = TileShape { height, width };
        if TileShape::SUPPORTED.contains(&t) {
            Ok(t)
        } else {
            let all: Vec<String> = TileShape::SUPPORTED.iter().map(|t| t.to_string()).collect();
            Err(LayoutError::value("tile", t, format!("one of {}", all.join(", "))))
        }
    }

    /// Rows × columns of one face: `min(height, 16) × 16`.
    pub fn face_shape(&self) -> (u32, u32) {
        (self.height.min(FACE_HEIGHT as u32), FACE_WIDTH as u32)
    }

    /// Number of faces.
    pub fn num_faces(&self) -> u32 {
        let (fh, fw) = self.face_shape();
        (self.height / fh) * (self.width / fw)
    }

    /// Elements in one tile.
    pub fn elements(&self) -> u32 {
        self.height * self.width
    }

    /// Position in the tile's storage of element (row `i`, column `j`).
    pub fn offset(&self, i: u32, j: u32) -> u32 {
        let (fh, fw) = self.face_shape();
        let faces_per_row = self.width / fw;
        ((i / fh) * faces_per_row + j / fw) * fh * fw + (i % fh) * fw + j % fw
    }

    /// Bytes of one tile in `format` (`Tile::get_tile_size`): the elements at the format's width; block
    /// floats add one shared exponent byte per 16 values, the exponent section padded to 16 bytes.
    pub fn tile_size(&self, format: DataFormat) -> u32 {
        let n = self.elements();
        match bfp_mantissa_bits(format) {
            Some(m) => {
                let mant = n * (m + 1) / 8;
                let exps = (n / 16).div_ceil(16) * 16;
                mant + exps
            }
            None => n * format.element_bytes(),
        }
    }
}

impl fmt::Display for TileShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.height, self.width)
    }
}

/// Storage (face) order of a 32×32 tile → row-major.
pub fn faces_to_rows(src: &[f32], dst: &mut [f32; TILE_HW]) {
    for f in 0..4 {
        let (r0, c0) = ((f / 2) * FACE_HEIGHT, (f % 2) * FACE_WIDTH);
        for r in 0..FACE_HEIGHT {
            let s = f * FACE_HW + r * FACE_WIDTH;
            let d = (r0 + r) * TILE_WIDTH + c0;
            dst[d..d + FACE_WIDTH].copy_from_slice(&src[s..s + FACE_WIDTH]);
        }
    }
}

/// Row-major 32×32 tile → storage (face) order.
pub fn rows_to_faces(src: &[f32; TILE_HW], dst: &mut [f32]) {
    for f in 0..4 {
        let (r0, c0) = ((f / 2) * FACE_HEIGHT, (f % 2) * FACE_WIDTH);
        for r in 0..FACE_HEIGHT {
            let d = f * FACE_HW + r * FACE_WIDTH;
            let s = (r0 + r) * TILE_WIDTH + c0;
            dst[d..d + FACE_WIDTH].copy_from_slice(&src[s..s + FACE_WIDTH]);
        }
    }
}

/// A bfloat16 32×32 tile in storage (face) order, as little-endian bytes → row-major f32 values.
pub fn bf16_faces_to_rows(bytes: &[u8], dst: &mut [f32; TILE_HW]) {
    // Face row `r` (16 values) is row `r % 16` of face `r / 16`.
    sim_core::simd::widen_bf16_rows(&bytes[..TILE_HW * 2], dst, |r| {
        let (f, fr) = (r / FACE_HEIGHT, r % FACE_HEIGHT);
        ((f / 2) * FACE_HEIGHT + fr) * TILE_WIDTH + (f % 2) * FACE_WIDTH
    });
}

/// A row-major 32×32 tile → bfloat16 (round to nearest even) little-endian bytes in storage (face) order:
/// [`rows_to_faces`] and narrowing in one pass.
pub fn bf16_rows_to_faces(src: &[f32; TILE_HW], bytes: &mut [u8]) {
    // Face row `r` (16 values) is row `r % 16` of face `r / 16`.
    sim_core::simd::narrow_bf16_rows(src, &mut bytes[..TILE_HW * 2], |r| {
        let (f, fr) = (r / FACE_HEIGHT, r % FACE_HEIGHT);
        ((f / 2) * FACE_HEIGHT + fr) * TILE_WIDTH + (f % 2) * FACE_WIDTH
    });
}

/// Row-major `rows × cols` matrix → tiles (row-major of tiles), each tile as four faces.
/// `rows` and `cols` must be multiples of 32.
pub fn tilize_nfaces<T: Copy + Default>(data: &[T], rows: usize, cols: usize) -> Vec<T> {
    assert!(
        rows.is_multiple_of(TILE_HEIGHT) && cols.is_multiple_of(TILE_WIDTH),
        "tilize: {rows}x{cols} is not a multiple of 32x32"
    );
    assert_eq!(data.len(), rows * cols, "tilize: data length does not match {rows}x{cols}");
    let mut out = vec![T::default(); data.len()];
    let tiles_c = cols / TILE_WIDTH;
    // Each face row (16 values) is contiguous on both sides.
    for r in 0..rows {
        let (tr, i) = (r / TILE_HEIGHT, r % TILE_HEIGHT);
        for c in (0..cols).step_by(FACE_WIDTH) {
            let o = (tr * tiles_c + c / TILE_WIDTH) * TILE_HW + tile_offset(i, c % TILE_WIDTH);
            out[o..o + FACE_WIDTH].copy_from_slice(&data[r * cols + c..r * cols + c + FACE_WIDTH]);
        }
    }
    out
}

/// The inverse of [`tilize_nfaces`].
pub fn untilize_nfaces<T: Copy + Default>(data: &[T], rows: usize, cols: usize) -> Vec<T> {
    assert!(
        rows.is_multiple_of(TILE_HEIGHT) && cols.is_multiple_of(TILE_WIDTH),
        "untilize: {rows}x{cols} is not a multiple of 32x32"
    );
    assert_eq!(data.len(), rows * cols, "untilize: data length does not match {rows}x{cols}");
    let mut out = vec![T::default(); data.len()];
    let tiles_c = cols / TILE_WIDTH;
    for r in 0..rows {
        let (tr, i) = (r / TILE_HEIGHT, r % TILE_HEIGHT);
        for c in (0..cols).step_by(FACE_WIDTH) {
            let o = (tr * tiles_c + c / TILE_WIDTH) * TILE_HW + tile_offset(i, c % TILE_WIDTH);
            out[r * cols + c..r * cols + c + FACE_WIDTH].copy_from_slice(&data[o..o + FACE_WIDTH]);
        }
    }
    out
}

/// Where face row `k` of a tilized `_ × cols` matrix (16 values; tiles row-major, four faces each)
/// starts in the row-major matrix.
fn face_row_offset(k: usize, cols: usize) -> usize {
    let (t, fr) = (k / (TILE_HW / FACE_WIDTH), k % (TILE_HW / FACE_WIDTH));
    let (f, rr) = (fr / FACE_HEIGHT, fr % FACE_HEIGHT);
    let tiles_c = cols / TILE_WIDTH;
    let (tr, tc) = (t / tiles_c, t % tiles_c);
    (tr * TILE_HEIGHT + (f / 2) * FACE_HEIGHT + rr) * cols + tc * TILE_WIDTH + (f % 2) * FACE_WIDTH
}

/// A row-major `rows × cols` f32 matrix as tilized bfloat16 bytes (little-endian, round to nearest even):
/// [`tilize_nfaces`] and narrowing in one pass, with no intermediate copies (host matrices are large).
pub fn tilize_bf16_bytes(data: &[f32], rows: usize, cols: usize) -> Vec<u8> {
    assert!(
        rows.is_multiple_of(TILE_HEIGHT) && cols.is_multiple_of(TILE_WIDTH),
        "tilize: {rows}x{cols} is not a multiple of 32x32"
    );
    assert_eq!(data.len(), rows * cols, "tilize: data length does not match {rows}x{cols}");
    let mut out = vec![0u8; data.len() * 2];
    sim_core::simd::narrow_bf16_rows(data, &mut out, |k| face_row_offset(k, cols));
    out
}

/// Tilized bfloat16 bytes (as [`tilize_bf16_bytes`] writes them) as a row-major `rows × cols` f32 matrix:
/// [`untilize_nfaces`] and widening in one pass. Bytes past the matrix are ignored.
pub fn untilize_bf16_bytes(bytes: &[u8], rows: usize, cols: usize) -> Vec<f32> {
    let mut out = Vec::new();
    untilize_bf16_bytes_into(bytes, rows, cols, &mut out);
    out
}

/// [`untilize_bf16_bytes`] into `out`, whose memory is reused (replaced contents, length `rows × cols`):
/// fresh memory for a large matrix costs a page fault per 4 KiB.
pub fn untilize_bf16_bytes_into(bytes: &[u8], rows: usize, cols: usize, out: &mut Vec<f32>) {
    assert!(
        rows.is_multiple_of(TILE_HEIGHT) && cols.is_multiple_of(TILE_WIDTH),
        "untilize: {rows}x{cols} is not a multiple of 32x32"
    );
    let n = rows * cols;
    assert!(bytes.len() >= n * 2, "untilize: {} bytes are short of {rows}x{cols} bfloat16 values", bytes.len());
    out.clear();
    out.resize(n, 0.0);
    sim_core::simd::widen_bf16_rows(&bytes[..n * 2], out, |k| face_row_offset(k, cols));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hardware_tile_shape_and_its_page_sizes() {
        assert_eq!(TileShape::SUPPORTED.len(), 12);
        let t = |h, w| TileShape::new(h, w).unwrap();
        assert_eq!(t(32, 16).tile_size(DataFormat::Bfp8_b), 544);
        assert_eq!(t(16, 16).tile_size(DataFormat::Float16_b), 512);
        assert_eq!(t(1, 32).tile_size(DataFormat::Bfp8_b), 48);
        assert_eq!((t(32, 16).face_shape(), t(32, 16).num_faces()), ((16, 16), 2));
        assert_eq!((t(8, 16).face_shape(), t(8, 16).num_faces()), ((8, 16), 1));
        // Every element of every shape has its own place in the tile.
        for s in TileShape::SUPPORTED {
            let mut seen = vec![false; s.elements() as usize];
            for i in 0..s.height {
                for j in 0..s.width {
                    let o = s.offset(i, j) as usize;
                    assert!(!seen[o], "{s}: ({i},{j})");
                    seen[o] = true;
                }
            }
        }
        let e = TileShape::new(32, 8).unwrap_err().to_string();
        assert!(e.contains("32x8") && e.contains("16x16") && e.contains("1x16"), "{e}");
    }

    #[test]
    fn face_offsets() {
        assert_eq!(tile_offset(0, 0), 0);
        assert_eq!(tile_offset(0, 16), 256);
        assert_eq!(tile_offset(16, 0), 512);
        assert_eq!(tile_offset(31, 31), 1023);
        assert_eq!(tile_offset(1, 0), 16);
    }

    #[test]
    fn tile_shapes_faces_and_sizes() {
        let t = TileShape::T32X32;
        for i in 0..32 {
            for j in 0..32 {
                assert_eq!(t.offset(i, j) as usize, tile_offset(i as usize, j as usize));
            }
        }
        let t16 = TileShape::new(16, 32).unwrap();
        assert_eq!((t16.num_faces(), t16.offset(0, 16), t16.offset(15, 15)), (2, 256, 255));
        let t1 = TileShape::new(1, 32).unwrap();
        assert_eq!((t1.face_shape(), t1.num_faces(), t1.offset(0, 17)), ((1, 16), 2, 17));
        assert_eq!(t.tile_size(DataFormat::Bfp8_b), DataFormat::Bfp8_b.tile_size());
        assert_eq!(t.tile_size(DataFormat::Float16_b), 2048);
        assert_eq!(t16.tile_size(DataFormat::Bfp8_b), 512 + 32);
        assert_eq!(t1.tile_size(DataFormat::Bfp4_b), 16 + 16, "two exponents padded to 16 bytes");
        assert!(TileShape::new(32, 8).is_err());
        let rows: [f32; TILE_HW] = std::array::from_fn(|i| i as f32);
        let mut faces = [0f32; TILE_HW];
        rows_to_faces(&rows, &mut faces);
        assert_eq!(faces[tile_offset(17, 3)], rows[17 * 32 + 3]);
        let mut back = [0f32; TILE_HW];
        faces_to_rows(&faces, &mut back);
        assert_eq!(back, rows);
        // Integers below 256 are exact in bfloat16.
        let small: [f32; TILE_HW] = std::array::from_fn(|i| (i % 256) as f32);
        rows_to_faces(&small, &mut faces);
        let bytes: Vec<u8> = faces.iter().flat_map(|v| crate::format::bfloat16::from_f32(*v).0.to_le_bytes()).collect();
        let mut b16 = [0f32; TILE_HW];
        bf16_faces_to_rows(&bytes, &mut b16);
        assert!(b16 == small, "bfloat16 faces decode to the same rows");
        // Narrowing rows straight into faces equals rows_to_faces then encoding, value by value (rounding
        // to nearest even included).
        let odd: [f32; TILE_HW] = std::array::from_fn(|i| (i as f32 * 0.7311).sin() * 1000.0 + 1.0 / 3.0);
        rows_to_faces(&odd, &mut faces);
        let mut want = vec![0u8; TILE_HW * 2];
        crate::format::encode_tile(DataFormat::Float16_b, &faces, &mut want);
        let mut got = vec![0u8; TILE_HW * 2];
        bf16_rows_to_faces(&odd, &mut got);
        assert_eq!(got, want, "bf16_rows_to_faces");
    }

    #[test]
    fn bf16_tilize_in_one_pass_equals_tilize_then_encode() {
        let (r, c) = (64, 96);
        let m: Vec<f32> = (0..r * c).map(|i| (i as f32 * 0.377).cos() * 300.0 + 0.1).collect();
        let want: Vec<u8> =
            tilize_nfaces(&m.iter().map(|&v| crate::format::bfloat16::from_f32(v)).collect::<Vec<_>>(), r, c)
                .iter()
                .flat_map(|b| b.0.to_le_bytes())
                .collect();
        let got = tilize_bf16_bytes(&m, r, c);
        assert_eq!(got, want);
        let back = untilize_bf16_bytes(&got, r, c);
        let mut reused = vec![7.0f32; 3];
        untilize_bf16_bytes_into(&got, r, c, &mut reused);
        assert_eq!(reused, back, "into a used vector: the same values, nothing left over");
        let rounded: Vec<f32> = m.iter().map(|&v| crate::format::bfloat16::from_f32(v).to_f32()).collect();
        assert_eq!(back, rounded);
        assert_eq!(back, untilize_nfaces(&tilize_nfaces(&rounded, r, c), r, c));
    }

    #[test]
    fn tilize_round_trips() {
        let (r, c) = (64, 96);
        let m: Vec<u32> = (0..(r * c) as u32).collect();
        let t = tilize_nfaces(&m, r, c);
        // Tile (1, 2) element (3, 17) is matrix element (35, 81).
        assert_eq!(t[(3 + 2) * TILE_HW + tile_offset(3, 17)], (35 * c + 81) as u32);
        assert_eq!(untilize_nfaces(&t, r, c), m);
    }
}
