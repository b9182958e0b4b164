//! Typed NoC and DRAM timing parameters (filled once from the per-arch data file by sim-device, where every
//! value carries its source note and its allowed range; nothing here is looked up by name).

use sim_core::Cycles;

/// Which NoC timing model a chip uses (`noc.model`; see [`crate::timing`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum NocModelKind {
    /// Ports and links as calendars of busy intervals (calibrated against silicon).
    #[default]
    Calendar,
    /// Every packet at its zero-load latency (a floor; not calibrated).
    ZeroLoad,
    /// Credit-based wormhole routers with shared input buffers and VC-first arbitration, stepped cycle by
    /// cycle ([`crate::routers`]).
    Router,
    /// The same routers packet by packet: wormhole VC ownership, finite buffers behind a blocked head and
    /// the blind VC pick's cost, timed per hop rather than per flit ([`crate::routers::worms`]).
    Packets,
}

impl NocModelKind {
    /// Every model, in `noc.model` value order.
    pub const ALL: [NocModelKind; 4] =
        [NocModelKind::Calendar, NocModelKind::ZeroLoad, NocModelKind::Router, NocModelKind::Packets];

    /// The name `noc.model` takes.
    pub fn name(self) -> &'static str {
        match self {
            NocModelKind::Calendar => "calendar",
            NocModelKind::ZeroLoad => "zero_load",
            NocModelKind::Router => "router",
            NocModelKind::Packets => "packets",
        }
    }

    /// Whether it models the routers' buffers and arbitration (router, packets).
    pub fn is_router_level(self) -> bool {
        matches!(self, NocModelKind::Router | NocModelKind::Packets)
    }
}

/// NoC parameters of one chip.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NocParams {
    /// The timing model.
    pub model: NocModelKind,
    /// Bytes per flit (one flit per cycle per link).
    pub flit_bytes: u32,
    /// `NOC_MAX_BURST_SIZE`: the largest packet payload, bytes.
    pub max_burst_bytes: u32,
    /// Header flits per packet.
    pub header_flits: u32,
    /// Router-to-router hop latency.
    pub hop: Cycles,
    /// NIU-to-router latency (injection).
    pub niu_to_router: Cycles,
    /// Router-to-NIU latency (ejection).
    pub router_to_niu: Cycles,
    /// Cycles a source NIU takes per 1000 flits it injects (1000 = one flit per cycle).
    pub inject_cycles_per_kflit: u32,
    /// Cycles a NIU takes per 1000 flits of a packet addressed to its own tile.
    pub loopback_cycles_per_kflit: u32,
    /// Extra latency of a data packet addressed to its own tile.
    pub loopback_turn: Cycles,
    /// Cycles from a write committing at its destination to its acknowledgement leaving.
    pub ack_turnaround: Cycles,
    /// Fixed part of an unlinked multicast's path reservation (source NIU busy before the head leaves).
    pub mcast_reserve_base: Cycles,
    /// Path reservation cycles per router hop to the farthest router of the broadcast tree.
    pub mcast_reserve_per_hop: Cycles,
    /// Bytes one virtual channel can hold in a router's inbound port (its guaranteed share plus the most
    /// it may claim from the shared pool): what a stalled packet can park in each router behind its head.
    pub vc_buffer_bytes: u32,
    /// Flits of a router's inbound-port buffer each VC is guaranteed (router model).
    pub vc_reserved_flits: u32,
    /// The most flits one VC may hold in a router's inbound-port buffer, guarantee included (router model).
    pub vc_cap_flits: u32,
    /// Flits of a router's inbound-port buffer its VCs share beyond their guarantees (router model).
    pub port_shared_flits: u32,
    /// Cycles from a flit leaving a router's input buffer to its credit reaching the sender (router model).
    pub credit_delay: Cycles,
    /// Whether a router input picks a VC before knowing whether its flit can move (router model).
    pub blind_vc_arbitration: bool,
    /// Whether a blind VC pick covers the response class too (router model): `false` passes over a
    /// response VC whose front flit cannot move, as if the input were not blind for it.
    pub blind_response_vcs: bool,
    /// Whether a response's head may take either buddy VC of its class at each hop (router model).
    pub dynamic_response_vcs: bool,
    /// How a router output chooses among the inputs that want it (router model): `false` round-robin,
    /// `true` a fixed priority — the router's own NIU, then the link arriving in the output's dimension of
    /// the route's second leg, then the other (see [`crate::routers`]).
    pub fixed_port_priority: bool,
    /// Read packets or non-posted write packets one RISC may have in flight per NoC.
    pub max_outstanding: u32,
    /// Time an L1 tile's NIU spends serving one read request (reading the data and forming the response);
    /// it serves one at a time (see [`crate::model::NocModel::served_request`]).
    pub read_serve: Cycles,
    /// The least time between the services of two consecutive read requests of one requesting NIU,
    /// whichever tiles serve them (see [`crate::model::NocModel::served_request`]).
    pub read_interval: Cycles,
    /// NIU read of L1 for a read response.
    pub l1_read_latency: Cycles,
    /// NIU write of arriving data into L1.
    pub l1_write_latency: Cycles,
}

impl NocParams {
    /// A lower bound on the time from a NoC command on one tile to its first effect on another's memory:
    /// a header leaves through the source NIU, crosses at least one router hop, enters the destination NIU,
    /// and either writes L1 or makes the NIU read it (a read request is served a cycle after it arrives).
    pub fn min_remote_latency(&self) -> Cycles {
        let touch = self.l1_write_latency.min(self.l1_read_latency + Cycles(1));
        self.niu_to_router + self.hop + self.router_to_niu + touch
    }

    /// Cycles an unlinked multicast's source NIU spends reserving a broadcast tree `depth` hops deep before
    /// the head leaves.
    pub fn path_reservation(&self, depth: u64) -> Cycles {
        Cycles(self.mcast_reserve_base.0 + depth * self.mcast_reserve_per_hop.0)
    }

    /// The rate one NIU injects at, bytes per cycle (`flit_bytes` every `inject_cycles_per_kflit` / 1000
    /// cycles).
    pub fn inject_bytes_per_cycle(&self) -> f64 {
        self.flit_bytes as f64 * 1000.0 / self.inject_cycles_per_kflit as f64
    }
}

/// Which DRAM timing model a chip uses (`dram.model`; see [`crate::dram::DramTiming`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum DramModelKind {
    /// Each GDDR channel a calendar serving requests at its bandwidth (calibrated).
    #[default]
    Calendar,
    /// Every access at its unloaded time (a floor; not calibrated).
    ZeroLoad,
}

impl DramModelKind {
    /// Every model, in `dram.model` value order.
    pub const ALL: [DramModelKind; 2] = [DramModelKind::Calendar, DramModelKind::ZeroLoad];

    /// The name `dram.model` takes.
    pub fn name(self) -> &'static str {
        match self {
            DramModelKind::Calendar => "calendar",
            DramModelKind::ZeroLoad => "zero_load",
        }
    }
}

/// DRAM parameters of one chip.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DramParams {
    /// The timing model.
    pub model: DramModelKind,
    /// From a read request reaching the DRAM channel to its data starting back.
    pub read_latency: Cycles,
    /// From write data reaching the DRAM channel to the write being acknowledged.
    pub write_latency: Cycles,
    /// Sustained bandwidth of one GDDR channel, bytes per 1000 cycles.
    pub channel_bytes_per_kcycle: u64,
    /// GDDR channels behind one descriptor DRAM channel (its address range is split evenly among them).
    pub gddr_per_channel: u32,
    /// The address map of a bank's GDDR channels: consecutive blocks of this many bytes alternate between
    /// them (0: the bank's address range is split into contiguous parts, one per channel).
    pub interleave_bytes: u64,
    /// Time a DRAM tile's NIU spends taking one read request (it takes one at a time, as an L1 tile's
    /// does): streams of small reads to one bank go at this rate whatever their size.
    pub read_serve: Cycles,
    /// Writes of at most this many bytes pay `small_write` at the controller (0: none do).
    pub small_write_bytes: u32,
    /// The GDDR channel time of a small write (a partial-line read-modify-write).
    pub small_write: Cycles,
    /// The rate of everything one DRAM tile moves, over all its GDDR channels, bytes per 1000 cycles (0: only
    /// the channels limit it).
    pub bank_bytes_per_kcycle: u64,
    /// Reads of one aligned region of this many bytes of a bank wait for the previous read of that region
    /// to finish, and a read walks its address range in order, one channel's block after the next (0: reads
    /// are not held per region; a read takes the channel of its first byte).
    pub read_region_bytes: u64,
    /// A write is acknowledged once it is in the tile's write buffer of this many bytes, which drains into
    /// the GDDR channels by address, each channel's block in parallel (0: no buffer; a write is acknowledged
    /// once its data has passed its channel).
    pub write_buffer_bytes: u64,
}
