//! Typed NoC and DRAM timing parameters (filled from the per-arch data file by sim-device; every value there
//! carries its source note).

use sim_core::Cycles;

/// NoC parameters of one chip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NocParams {
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
}

/// DRAM parameters of one chip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DramParams {
    /// From a read request reaching the DRAM channel to its data starting back.
    pub read_latency: Cycles,
    /// From write data reaching the DRAM channel to the write being acknowledged.
    pub write_latency: Cycles,
    /// Sustained bandwidth of one GDDR channel, bytes per 1000 cycles.
    pub channel_bytes_per_kcycle: u64,
    /// GDDR channels behind one descriptor DRAM channel (its address range is split evenly among them).
    pub gddr_per_channel: u32,
}
