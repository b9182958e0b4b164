//! Typed timing parameters of a Tensix core's kernel APIs (filled from the per-arch data file by
//! sim-device; every value there carries its source note).

use sim_core::Cycles;

/// Cycles each kernel API call charges its RISC, and hand-off latencies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiCosts {
    /// `get_arg_val` / `get_common_arg_val`.
    pub arg_read: Cycles,
    /// `cb_reserve_back`, `cb_wait_front` (the counter poll).
    pub cb_poll: Cycles,
    /// `cb_push_back`, `cb_pop_front` (counter update and pointer move).
    pub cb_update: Cycles,
    /// `get_write_ptr`, `get_read_ptr` and other local lookups.
    pub local_lookup: Cycles,
    /// Computing a NoC address (`get_noc_addr`, address generators).
    pub addr_gen: Cycles,
    /// Programming one NoC command (per packet issued).
    pub noc_cmd: Cycles,
    /// One poll of a NoC barrier or flush.
    pub barrier_poll: Cycles,
    /// A RISC load from L1.
    pub l1_load: Cycles,
    /// A RISC store to L1.
    pub l1_store: Cycles,
    /// Cycles between a CB counter update and a blocked kernel noticing it.
    pub cb_wake: Cycles,
    /// Cycles between an L1 word change and a polling kernel noticing it.
    pub l1_wake: Cycles,
    /// Cycles between a barrier's last completion and the kernel leaving the barrier.
    pub barrier_wake: Cycles,
    /// Firmware cycles before a kernel's first instruction.
    pub kernel_start: Cycles,
    /// A profiler zone marker (begin or end).
    pub zone: Cycles,
}

impl ApiCosts {
    /// All-zero costs (unit tests of functional behaviour).
    pub fn zero() -> ApiCosts {
        let z = Cycles::ZERO;
        ApiCosts {
            arg_read: z,
            cb_poll: z,
            cb_update: z,
            local_lookup: z,
            addr_gen: z,
            noc_cmd: z,
            barrier_poll: z,
            l1_load: z,
            l1_store: z,
            cb_wake: z,
            l1_wake: z,
            barrier_wake: z,
            kernel_start: z,
            zone: z,
        }
    }
}
