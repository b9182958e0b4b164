//! One fabric router's state (an Ethernet core's ERISC running the fabric): its channels' slots and
//! credits, as plain data with its own bookkeeping; the engine's `fabric_routers.rs` steps it.

use crate::fabric_config::{FabricLayout, RouterSpec};
use sim_core::Cycle;

/// One router's state.
#[derive(Debug, Clone)]
pub(crate) struct Router {
    pub layout: FabricLayout,
    /// Where it sits and its chip's other routers.
    pub spec: RouterSpec,
    /// Packets sent over the link from each sender channel.
    pub sent: [u32; 4],
    /// Packets landed in the receiver channel, and handled.
    pub rx_arrived: u32,
    pub rx_done: u32,
    /// Packets this router has written into the pass-through channel of the router facing each direction.
    pub forwarded: [u32; 4],
    /// Its ERISC is busy until then.
    pub erisc_free: Cycle,
    /// A step is scheduled.
    pub scheduled: bool,
    /// Which sender channel goes first next time.
    pub turn: usize,
    /// When the last write it issued lands.
    pub last_write_land: Cycle,
    /// Packets handled, for the report.
    pub packets: u64,
    /// On a ring (bubble flow control for injected packets).
    pub ring: bool,
}

impl Router {
    pub fn new(layout: FabricLayout, spec: RouterSpec, ring: bool) -> Router {
        Router {
            layout,
            spec,
            sent: [0; 4],
            rx_arrived: 0,
            rx_done: 0,
            forwarded: [0; 4],
            erisc_free: Cycle::ZERO,
            scheduled: false,
            turn: 0,
            last_write_land: Cycle::ZERO,
            packets: 0,
            ring,
        }
    }
}
