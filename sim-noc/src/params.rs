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
}

/// DRAM parameters of one chip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DramParams {
    /// From a read request arriving at the DRAM endpoint to its data starting back.
    pub read_latency: Cycles,
    /// From write data arriving at the DRAM endpoint to the write being acknowledged.
    pub write_latency: Cycles,
}
