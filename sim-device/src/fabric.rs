//! The fabric's configuration (tt-metal's `FabricConfig`), the memory layout of a router on an Ethernet
//! core, and where routers sit: one per mesh neighbour of every chip, on the first Ethernet channel
//! linking the two (routing plane 0). A packet that arrives at the router facing one neighbour continues
//! on the router facing the opposite one, so every row and column of the mesh is a 1-D line (a ring when
//! the configuration closes it and the system links its ends).

use crate::params::Params;
use sim_tensix::dataflow::fabric::router_layout;
pub use sim_tensix::dataflow::fabric::{FABRIC_CONNECTION_ARGS, FabricCmd, FabricConnection, FabricHeader};

/// `tt::tt_fabric::FabricConfig`: set before a mesh workload runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FabricConfig {
    /// No fabric: Ethernet cores are free for user kernels.
    #[default]
    Disabled,
    /// `FABRIC_1D`: lines along the mesh's rows and columns.
    Fabric1D,
    /// `FABRIC_1D_RING`: the same, closed into rings where the system links a line's two ends.
    Fabric1DRing,
}

impl FabricConfig {
    /// Whether routers run.
    pub fn enabled(self) -> bool {
        self != FabricConfig::Disabled
    }
}

/// Where a router keeps its channels in its Ethernet core's L1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FabricLayout {
    /// Base of the router's region.
    pub base: u32,
    /// Slots per sender channel.
    pub sender_slots: u32,
    /// Slots of the receiver channel.
    pub receiver_slots: u32,
    /// Bytes per slot: header plus largest payload, 16-byte aligned.
    pub slot_bytes: u32,
    /// Header bytes.
    pub header_bytes: u32,
    /// Largest payload.
    pub max_payload: u32,
}

impl FabricLayout {
    /// The layout for `config` under `params`, or why it does not fit the Ethernet core's L1.
    pub fn new(params: &Params, config: FabricConfig) -> Result<FabricLayout, String> {
        let f = &params.fabric;
        let (s, r) = match config {
            FabricConfig::Fabric1DRing => (f.ring_sender_slots, f.ring_receiver_slots),
            _ => (f.line_sender_slots, f.line_receiver_slots),
        };
        let header = f.header_bytes_1d.next_multiple_of(16);
        let slot = (header + f.max_payload_bytes).next_multiple_of(16);
        if slot > params.noc.max_burst_bytes {
            return Err(format!(
                "a fabric slot of {slot} bytes (fabric.header_bytes_1d + fabric.max_payload_bytes) is larger than one NoC burst ({} bytes); lower fabric.max_payload_bytes",
                params.noc.max_burst_bytes
            ));
        }
        let base = params.eth.l1_unreserved_base;
        let end = base as u64 + router_layout::SLOTS as u64 + (2 * s + r) as u64 * slot as u64;
        if end > params.eth.l1_kernel_top as u64 {
            return Err(format!(
                "the fabric router's {} slots of {slot} bytes end at {end:#x}, above eth.l1_kernel_top = {:#x}; lower fabric.max_payload_bytes or the slot counts",
                2 * s + r,
                params.eth.l1_kernel_top
            ));
        }
        Ok(FabricLayout {
            base,
            sender_slots: s,
            receiver_slots: r,
            slot_bytes: slot,
            header_bytes: header,
            max_payload: f.max_payload_bytes,
        })
    }

    /// L1 address of slot `i` of sender channel `ch` (0 or 1).
    pub fn sender_slot(&self, ch: u32, i: u32) -> u32 {
        self.base + router_layout::SLOTS + (ch * self.sender_slots + i % self.sender_slots) * self.slot_bytes
    }

    /// L1 address of slot `i` of the receiver channel.
    pub fn receiver_slot(&self, i: u32) -> u32 {
        self.base + router_layout::SLOTS + (2 * self.sender_slots + i % self.receiver_slots) * self.slot_bytes
    }

    /// Whether `addr` lies in the receiver channel.
    pub fn in_receiver(&self, addr: u32) -> bool {
        let start = self.receiver_slot(0);
        addr >= start && addr < start + self.receiver_slots * self.slot_bytes
    }
}

/// A router of one chip: its channel, and the channel of the router its arriving packets continue on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouterSpec {
    /// Its Ethernet channel.
    pub channel: u32,
    /// The router on the opposite side of the chip, if the line goes on.
    pub forward: Option<u32>,
}
