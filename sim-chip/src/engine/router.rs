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
    /// Packets landed in the receiver channel, handled, and whose slots are free again (their credit sent).
    pub rx_arrived: u32,
    pub rx_next: u32,
    pub rx_done: u32,
    /// On a stepped NoC model: handled packets whose slots still feed NoC writes that have not left L1 yet
    /// (packet number, writes still to leave), oldest first; a slot is freed only once they have.
    pub rx_unfreed: std::collections::VecDeque<(u32, u32)>,
    /// Packets this router has written into the pass-through channel of the router facing each direction.
    pub forwarded: [u32; 4],
    /// Its ERISC is busy until then.
    pub erisc_free: Cycle,
    /// A step is scheduled.
    pub scheduled: bool,
    /// Which sender channel goes first next time.
    pub turn: usize,
    /// When the last write it issued lands (a NoC model that books packets when they are sent).
    pub last_write_land: Cycle,
    /// On a stepped NoC model, which learns when a write lands only as it does: the writes it issued, by
    /// number, that have not landed yet (in issue order) …
    pub writes_in_flight: Vec<u64>,
    /// … how many it has issued …
    pub writes_issued: u64,
    /// … and its atomic increments (indices of the chip's `fabric_incs`) that wait for every write issued
    /// before them to land, each with the number of writes issued before it.
    pub held_incs: std::collections::VecDeque<(u32, u64)>,
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
            rx_next: 0,
            rx_done: 0,
            rx_unfreed: std::collections::VecDeque::new(),
            forwarded: [0; 4],
            erisc_free: Cycle::ZERO,
            scheduled: false,
            turn: 0,
            last_write_land: Cycle::ZERO,
            writes_in_flight: Vec::new(),
            writes_issued: 0,
            held_incs: std::collections::VecDeque::new(),
            packets: 0,
            ring,
        }
    }
}
