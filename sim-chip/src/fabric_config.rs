//! The fabric's configuration (tt-metal's `FabricConfig`), the memory layout of a router on an Ethernet
//! core, and where routers sit: one per mesh neighbour of every chip and link between the two (link `p` of
//! every neighbour pair forms routing plane `p`). A packet that arrives at the router facing one neighbour
//! continues on the router of its plane facing the opposite one, so every row and column of the mesh is a
//! 1-D line per plane (a ring when the configuration closes it and the system links its ends).

use sim_params::Params;
use sim_tensix::dataflow::fabric::router_layout;
pub use sim_tensix::dataflow::fabric::{
    FABRIC_CONNECTION_ARGS, FabricCmd, FabricConnection, FabricHeader, FabricRoute,
};

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
    /// `FABRIC_2D`: a mesh (no wrap-around); packets name their destination device and routers forward
    /// them dimension-ordered, X first.
    Fabric2D,
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
    /// Sender channels: the worker's, then one per router of the chip that passes packets on (1-D: 2;
    /// 2-D: 4).
    pub sender_channels: u32,
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
            FabricConfig::Fabric2D => (f.mesh_sender_slots, f.mesh_receiver_slots),
            _ => (f.line_sender_slots, f.line_receiver_slots),
        };
        let (channels, header) = match config {
            FabricConfig::Fabric2D => (4, f.header_bytes_2d.next_multiple_of(16)),
            _ => (2, f.header_bytes_1d.next_multiple_of(16)),
        };
        let slot = (header + f.max_payload_bytes).next_multiple_of(16);
        if slot > params.noc.max_burst_bytes {
            return Err(format!(
                "a fabric slot of {slot} bytes (fabric.header_bytes_1d + fabric.max_payload_bytes) is larger than one NoC burst ({} bytes); lower fabric.max_payload_bytes",
                params.noc.max_burst_bytes
            ));
        }
        let base = params.eth.l1_unreserved_base;
        let end = base as u64 + router_layout::SLOTS as u64 + (channels * s + r) as u64 * slot as u64;
        if end > params.eth.l1_kernel_top as u64 {
            return Err(format!(
                "the fabric router's {} slots of {slot} bytes end at {end:#x}, above eth.l1_kernel_top = {:#x}; lower fabric.max_payload_bytes or the slot counts",
                channels * s + r,
                params.eth.l1_kernel_top
            ));
        }
        Ok(FabricLayout {
            base,
            sender_channels: channels,
            sender_slots: s,
            receiver_slots: r,
            slot_bytes: slot,
            header_bytes: header,
            max_payload: f.max_payload_bytes,
        })
    }

    /// L1 address of slot `i` of sender channel `ch`.
    pub fn sender_slot(&self, ch: u32, i: u32) -> u32 {
        self.base + router_layout::SLOTS + (ch * self.sender_slots + i % self.sender_slots) * self.slot_bytes
    }

    /// L1 address of slot `i` of the receiver channel.
    pub fn receiver_slot(&self, i: u32) -> u32 {
        self.base
            + router_layout::SLOTS
            + (self.sender_channels * self.sender_slots + i % self.receiver_slots) * self.slot_bytes
    }

    /// Whether `addr` lies in the receiver channel.
    pub fn in_receiver(&self, addr: u32) -> bool {
        let start = self.receiver_slot(0);
        addr >= start && addr < start + self.receiver_slots * self.slot_bytes
    }
}

/// A router of one chip: its channel, the direction it faces, and its chip's other routers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouterSpec {
    /// Its Ethernet channel.
    pub channel: u32,
    /// The direction it faces: 0 east, 1 west, 2 north, 3 south.
    pub dir: usize,
    /// The chip's router channel facing each direction (a 1-D packet continues on `dirs[dir ^ 1]`).
    pub dirs: [Option<u32>; 4],
    /// The chip's mesh coordinate (row, column) and the mesh's columns (2-D routing).
    pub coord: (u32, u32),
    /// Columns of the mesh.
    pub cols: u32,
}

impl RouterSpec {
    /// The sender channel of the router facing `target` that packets arriving through the router facing
    /// `from` use: 1 + the rank of `from` among the other three directions.
    pub fn upstream_channel(target: usize, from: usize) -> u32 {
        1 + (0..4).filter(|&d| d != target).position(|d| d == from).unwrap_or(0) as u32
    }

    /// The next direction from `here` towards `dst` (row, column), dimension-ordered: along the row
    /// (east/west) until the column matches, then along the column (north/south). `None` when there.
    pub fn next_dir(here: (u32, u32), dst: (u32, u32)) -> Option<usize> {
        if dst.1 != here.1 {
            Some(if dst.1 > here.1 { 0 } else { 1 })
        } else if dst.0 != here.0 {
            Some(if dst.0 < here.0 { 2 } else { 3 })
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_upstream_router_has_its_own_channel() {
        for target in 0..4 {
            let mut seen: Vec<u32> =
                (0..4).filter(|&f| f != target).map(|f| RouterSpec::upstream_channel(target, f)).collect();
            seen.sort_unstable();
            assert_eq!(seen, vec![1, 2, 3], "router facing {target}");
        }
    }

    #[test]
    fn routes_go_along_the_row_first() {
        assert_eq!(RouterSpec::next_dir((0, 0), (1, 3)), Some(0));
        assert_eq!(RouterSpec::next_dir((0, 3), (1, 3)), Some(3));
        assert_eq!(RouterSpec::next_dir((1, 3), (0, 0)), Some(1));
        assert_eq!(RouterSpec::next_dir((1, 0), (0, 0)), Some(2));
        assert_eq!(RouterSpec::next_dir((1, 2), (1, 2)), None);
    }

    #[test]
    fn headers_round_trip_both_routes() {
        for route in
            [FabricRoute::Line { start_distance: 2, range: 3 }, FabricRoute::Mesh { dst_dev_id: 29, dst_mesh_id: 0 }]
        {
            let h = FabricHeader {
                cmd: FabricCmd::AtomicInc { sem: 0x1234, val: 5 },
                route,
                hops_done: 1,
                payload_bytes: 0,
            };
            assert_eq!(FabricHeader::decode(&h.encode()), Some(h));
        }
    }

    #[test]
    fn a_2d_router_fits_the_ethernet_l1() {
        for arch in [soc_descriptors::Arch::WormholeB0, soc_descriptors::Arch::Blackhole] {
            let l = FabricLayout::new(&Params::builtin(arch), FabricConfig::Fabric2D).unwrap();
            assert_eq!((l.sender_channels, l.sender_slots), (4, 4));
            assert!(l.receiver_slot(l.receiver_slots - 1) > l.sender_slot(3, 3));
        }
    }
}
