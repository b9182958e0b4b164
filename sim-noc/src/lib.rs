//! sim-noc: the two NoCs of a Tenstorrent chip — 2-D torus topology, dimension-ordered routing, packet
//! timing, the NoC address encoding — and DRAM as NoC endpoints (sparse storage and channel timing). Knows
//! nothing of Tensix cores.

pub mod addr;
pub mod backpressure;
pub mod calendar;
pub mod dram;
/// The flit-by-flit reference model: a test oracle, built for tests and with the `flit-oracle` feature
/// (`cargo run -p sim-noc --features flit-oracle --example flit_a2a`), never part of a run.
#[cfg(any(test, feature = "flit-oracle"))]
pub mod flit;
pub mod model;
pub mod params;
pub mod routers;
pub mod stepping;
pub mod timing;
pub mod topology;
pub mod use_counters;

pub use addr::NocAddrMap;
pub use backpressure::{Backpressure, WARN_STALLED_PER_TILE};
pub use calendar::Calendar;
pub use dram::{Dram, DramTiming, GddrCalendars, SparseMemory, ZeroLoadDram, dram_timing};
pub use model::{Delivery, NocModel, NocTraffic, VcClass};
pub use params::{DramModelKind, DramParams, NocModelKind, NocParams};
pub use routers::RouterTiming;
pub use stepping::{Happened, MULTICAST_VC, Outgoing, RESPONSE_VC, RouterEvent, SteppedNoc, UNICAST_VC};
pub use timing::{NocTiming, ZeroLoadNoc};

pub use topology::{Dir, LinkId, Rect, Topology, TreeNode};

use soc_descriptors::GridSize;

/// The model `params.model` names, for a `grid`-sized chip.
pub fn noc_timing(grid: GridSize, params: NocParams) -> Box<dyn NocTiming> {
    match params.model {
        NocModelKind::Calendar => Box::new(NocModel::new(grid, params)),
        NocModelKind::ZeroLoad => Box::new(ZeroLoadNoc::new(grid, params)),
        NocModelKind::Router | NocModelKind::Packets => Box::new(RouterTiming::new(grid, params)),
    }
}
