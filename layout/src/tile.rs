//! The 32×32 tile as tt-metal stores it: four 16×16 faces (F0 top-left, F1 top-right, F2 bottom-left,
//! F3 bottom-right), each face contiguous and row-major. Tiles of a matrix are stored row-major of tiles.

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
    for r in 0..rows {
        let (tr, i) = (r / TILE_HEIGHT, r % TILE_HEIGHT);
        for c in 0..cols {
            let (tc, j) = (c / TILE_WIDTH, c % TILE_WIDTH);
            out[(tr * tiles_c + tc) * TILE_HW + tile_offset(i, j)] = data[r * cols + c];
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
        for c in 0..cols {
            let (tc, j) = (c / TILE_WIDTH, c % TILE_WIDTH);
            out[r * cols + c] = data[(tr * tiles_c + tc) * TILE_HW + tile_offset(i, j)];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn face_offsets() {
        assert_eq!(tile_offset(0, 0), 0);
        assert_eq!(tile_offset(0, 16), 256);
        assert_eq!(tile_offset(16, 0), 512);
        assert_eq!(tile_offset(31, 31), 1023);
        assert_eq!(tile_offset(1, 0), 16);
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
