//! Ethernet links as plain data: a channel's port ([`EthPort`]), a packet between chips ([`EthPacket`]) and
//! the link's timing ([`EthTiming`]), below the logic that sends and lands packets.

use sim_core::{Cycle, Cycles};
use sim_params::EthParams;
use sim_tensix::CoreIdx;
use soc_descriptors::Noc0Coord;

/// One logical Ethernet channel of the chip during a run.
#[derive(Debug, Clone)]
pub(crate) struct EthPort {
    /// Its core in the run's core list.
    pub core: CoreIdx,
    /// Its NoC0 tile.
    pub tile: Noc0Coord,
    /// The other end, `(device slot in the run, channel)`, when the link joins two chips of the run.
    pub peer: Option<(u32, u32)>,
    /// When the transmit side is free for the next send.
    pub tx_free: Cycle,
    /// Cycles the transmit side was busy.
    pub tx_busy: Cycles,
    /// Payload bytes sent.
    pub tx_bytes: u64,
    /// Send commands.
    pub tx_packets: u64,
    /// Payload bytes received.
    pub rx_bytes: u64,
}

/// A packet on its way to another chip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EthPacket {
    /// The receiving device's slot in the run.
    pub to_dev: u32,
    /// The receiving channel.
    pub to_channel: u32,
    /// Destination in the receiving Ethernet core's L1.
    pub dst_l1: u32,
    /// Bytes.
    pub size: u32,
    /// The payload (empty when the run moves timing only and the packet is larger than a sync word).
    pub data: Vec<u8>,
    /// When its last byte lands.
    pub arrive: Cycle,
    /// Its place among the packets sent on its link (0 for the first).
    pub seq: u64,
}

/// Link timing in cycles.
#[derive(Debug, Clone)]
pub(crate) struct EthTiming {
    pub params: EthParams,
    pub clock_mhz: u32,
    /// One-way latency.
    pub latency: Cycles,
}

impl EthTiming {
    pub fn new(params: EthParams, clock_mhz: u32) -> EthTiming {
        let latency = Cycles((params.latency_ns * clock_mhz as u64).div_ceil(1000).max(1));
        EthTiming { params, clock_mhz, latency }
    }

    /// Cycles the transmit side is busy with `bytes` of payload: the bytes plus one frame overhead per
    /// frame, at the line rate.
    pub fn wire(&self, bytes: u32) -> Cycles {
        let p = &self.params;
        let frames = (bytes as u64).div_ceil(p.frame_payload_bytes as u64).max(1);
        let on_wire = bytes as u128 + (frames * p.frame_overhead_bytes as u64) as u128;
        let hz = self.clock_mhz as u128 * 1_000_000;
        Cycles((on_wire * hz).div_ceil(p.link_bytes_per_sec as u128) as u64)
    }
}
