//! layout: where tensor elements live — tiles of four 16×16 faces, tilize/untilize.

pub mod tile;

pub use tile::{
    FACE_HEIGHT, FACE_HW, FACE_WIDTH, TILE_HEIGHT, TILE_HW, TILE_WIDTH, tile_offset, tilize_nfaces, untilize_nfaces,
};
