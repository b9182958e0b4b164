//! soc-descriptors: parse and validate Tenstorrent SoC and core descriptor YAML, apply harvesting, convert
//! between coordinate systems, and provide built-in descriptions of Wormhole B0, Blackhole and Grayskull.
//!
//! This crate is the only one in tensim that parses YAML (see [`yaml`]).

pub mod arch;
pub mod builtin;
pub mod chip;
pub mod cluster;
pub mod coords;
pub mod core_desc;
pub mod descriptor;
pub mod error;
pub mod input;
pub mod test_skips;
pub mod yaml;

pub use arch::{Arch, HarvestAxis};
pub use builtin::{builtin_core_descriptor, builtin_name, builtin_soc, whole_grid_core_descriptor};
pub use chip::{Chip, ChipOptions, LogicalRange};
pub use cluster::{ClusterDescriptor, MeshEmbedding, builtin_system};
pub use coords::{GridSize, LogicalCoord, Noc0Coord, Noc1Coord, NocId, RelativeCoord, TranslatedCoord};
pub use core_desc::{CoreConfig, CoreConfigEntry, CoreDescriptor, DispatchAxis, DispatchCoreType, RelativeRange};
pub use descriptor::{DramBank, DramChannel, Features, SocDescriptor, TileKind};
pub use error::SocError;
