//! layout: where every element of a tensor lives — the one owner of placement, with no device knowledge.
//!
//! - [`format`](mod@format): data formats, their tile sizes and codecs.
//! - [`tile`]: tile shapes and the face order inside a tile; tilize/untilize.
//! - [`coords`]: core coordinates, ranges and sets, and the orders tt-metal walks them in.
//! - [`shape`]: N-D shapes and their arithmetic.
//! - [`placement`]: the page → (bank, slot) function of interleaved and sharded buffers (legacy 2-D shard
//!   specs and tt-metal's N-D buffer distribution), and its inverse.
//! - [`device`]: tt-mlir's device attribute: a logical worker grid mapped onto (chip, core y, core x).
//! - [`metal`]: tt-mlir's `tt.metal_layout` (affine maps, grids, shard memrefs, padding).
//! - [`ttnn`]: TTNN tensor specs (page and memory configs, derived shapes, shard mapping).
//! - [`svg`]: a picture of a tensor over its grid.

pub mod core_ranges;
pub mod device;
pub mod error;
pub mod format;
pub mod metal;
pub mod placement;
pub mod shape;
pub mod svg;
pub mod tile;
pub mod ttnn;

pub use core_ranges::{
    CoreCoord, CoreRange, CoreRangeSet, WorkSplit, corerange_to_cores, num_cores_to_corerangeset, split_work_to_cores,
};
pub use error::LayoutError;
pub use format::{DataFormat, bfloat16};
pub use placement::{Distribution, PageLocation, PageMapping, interleaved_location};
pub use shape::Shape;
pub use tile::{
    FACE_HEIGHT, FACE_HW, FACE_WIDTH, TILE_HEIGHT, TILE_HW, TILE_WIDTH, TileShape, tile_offset, tilize_nfaces,
    untilize_nfaces,
};
