//! The table of every parameter key: where its value lives in [`Params`], the range it may take and
//! whether it must be a power of two. Names resolve to table rows once, when a data file or an override is
//! read; the simulation only ever reads the typed fields.

use crate::typed::Params;
use sim_core::Cycles;

/// A value type a parameter is stored as; every one converts losslessly from a checked `u64`.
pub(super) trait ParamValue: Copy {
    /// The largest value the type holds.
    const MAX: u64;
    fn to_u64(self) -> u64;
    fn from_u64(v: u64) -> Self;
}

impl ParamValue for u32 {
    const MAX: u64 = u32::MAX as u64;
    fn to_u64(self) -> u64 {
        self as u64
    }
    fn from_u64(v: u64) -> Self {
        u32::try_from(v).expect("range-checked")
    }
}

impl ParamValue for u64 {
    const MAX: u64 = u64::MAX;
    fn to_u64(self) -> u64 {
        self
    }
    fn from_u64(v: u64) -> Self {
        v
    }
}

impl ParamValue for usize {
    const MAX: u64 = usize::MAX as u64;
    fn to_u64(self) -> u64 {
        self as u64
    }
    fn from_u64(v: u64) -> Self {
        usize::try_from(v).expect("range-checked")
    }
}

impl ParamValue for bool {
    const MAX: u64 = 1;
    fn to_u64(self) -> u64 {
        self as u64
    }
    fn from_u64(v: u64) -> Self {
        v != 0
    }
}

impl ParamValue for sim_noc::NocModelKind {
    const MAX: u64 = sim_noc::NocModelKind::ALL.len() as u64 - 1;
    fn to_u64(self) -> u64 {
        sim_noc::NocModelKind::ALL.iter().position(|&k| k == self).expect("every kind is listed") as u64
    }
    fn from_u64(v: u64) -> Self {
        sim_noc::NocModelKind::ALL[v as usize]
    }
}

impl ParamValue for sim_noc::DramModelKind {
    const MAX: u64 = sim_noc::DramModelKind::ALL.len() as u64 - 1;
    fn to_u64(self) -> u64 {
        sim_noc::DramModelKind::ALL.iter().position(|&k| k == self).expect("every kind is listed") as u64
    }
    fn from_u64(v: u64) -> Self {
        sim_noc::DramModelKind::ALL[v as usize]
    }
}

impl ParamValue for Cycles {
    const MAX: u64 = u64::MAX;
    fn to_u64(self) -> u64 {
        self.0
    }
    fn from_u64(v: u64) -> Self {
        Cycles(v)
    }
}

/// One parameter key.
#[derive(Clone, Copy)]
pub(crate) struct KeySpec {
    /// The key as written in data files and `--set`.
    pub name: &'static str,
    /// Smallest allowed value.
    pub min: u64,
    /// Largest allowed value (never above what the field's type holds).
    pub max: u64,
    /// The value must be a power of two.
    pub pow2: bool,
    /// What the value means (the unit), for listings and errors.
    pub unit: &'static str,
    pub(super) get: fn(&Params) -> u64,
    pub(super) set: fn(&mut Params, u64),
    /// The largest value the field's type can hold (checked against `max` by a test).
    pub(super) type_max: u64,
}

impl std::fmt::Debug for KeySpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KeySpec({})", self.name)
    }
}

impl KeySpec {
    /// The allowed values in words, e.g. `1..=1000000` or `a power of two in 1..=4096`.
    pub fn allowed(&self) -> String {
        let names = choices(self.name);
        if !names.is_empty() {
            return format!("one of {}", names.join(", "));
        }
        let range = format!("{}..={}", self.min, self.max);
        if self.pow2 { format!("a power of two in {range}") } else { range }
    }
}

/// Cycles a single timing parameter may take: generous, but small enough that no sum of them wraps.
const CYC: u64 = 1_000_000;

macro_rules! keys {
    ($( $name:literal => $($field:tt).+ , [$min:expr, $max:expr] $(, $pow2:ident)? , $unit:literal; )*) => {
        /// Every parameter key, in data-file order.
        pub(crate) const KEYS: &[KeySpec] = &[
            $( KeySpec {
                name: $name,
                min: $min,
                max: $max,
                pow2: keys!(@pow2 $($pow2)?),
                unit: $unit,
                get: |p| ParamValue::to_u64(p.$($field).+),
                set: |p, v| p.$($field).+ = ParamValue::from_u64(v),
                type_max: keys!(@max p, $($field).+),
            }, )*
        ];
    };
    (@pow2 pow2) => { true };
    (@pow2) => { false };
    (@max $p:ident, $($field:tt).+) => {{
        // The type of the field, found through a function that is never called.
        const fn type_max<T: ParamValue>(_: fn(&Params) -> T) -> u64 { T::MAX }
        type_max(|$p: &Params| $p.$($field).+)
    }};
}

keys! {
    "clock_mhz" => clock_mhz, [1, 100_000], "MHz";

    "noc.model" => noc.model, [0, 3], "model";

    "noc.flit_bytes" => noc.flit_bytes, [4, 1024], pow2, "bytes";
    "noc.max_burst_bytes" => noc.max_burst_bytes, [4, 1 << 20], "bytes";
    "noc.header_flits" => noc.header_flits, [0, 64], "flits";
    "noc.hop_cycles" => noc.hop, [0, CYC], "cycles";
    "noc.niu_to_router_cycles" => noc.niu_to_router, [0, CYC], "cycles";
    "noc.inject_cycles_per_kflit" => noc.inject_cycles_per_kflit, [1, 1_000_000], "cycles per 1000 flits";
    "noc.loopback_cycles_per_kflit" => noc.loopback_cycles_per_kflit, [1, 1_000_000], "cycles per 1000 flits";
    "noc.loopback_turn_cycles" => noc.loopback_turn, [0, CYC], "cycles";
    "noc.ack_turnaround_cycles" => noc.ack_turnaround, [0, CYC], "cycles";
    "noc.mcast_reserve_base_cycles" => noc.mcast_reserve_base, [0, CYC], "cycles";
    "noc.mcast_reserve_hop_cycles" => noc.mcast_reserve_per_hop, [0, CYC], "cycles";
    "noc.max_outstanding" => noc.max_outstanding, [1, 65_535], "packets";
    "noc.vc_buffer_bytes" => noc.vc_buffer_bytes, [1, 1 << 20], "bytes";
    "noc.vc_reserved_flits" => noc.vc_reserved_flits, [1, 4096], "flits";
    "noc.vc_cap_flits" => noc.vc_cap_flits, [1, 4096], "flits";
    "noc.port_shared_flits" => noc.port_shared_flits, [0, 65536], "flits";
    "noc.credit_delay_cycles" => noc.credit_delay, [0, CYC], "cycles";
    "noc.blind_vc_arbitration" => noc.blind_vc_arbitration, [0, 1], "0 (off) or 1 (on)";
    "noc.blind_response_vcs" => noc.blind_response_vcs, [0, 1], "0 (off) or 1 (on)";
    "noc.dynamic_response_vcs" => noc.dynamic_response_vcs, [0, 1], "0 (off) or 1 (on)";
    "noc.fixed_port_priority" => noc.fixed_port_priority, [0, 1], "0 (round-robin) or 1 (fixed)";
    "noc.router_to_niu_cycles" => noc.router_to_niu, [0, CYC], "cycles";

    "noc.read_serve_cycles" => noc.read_serve, [0, CYC], "cycles";
    "noc.read_interval_cycles" => noc.read_interval, [0, CYC], "cycles";
    "l1.noc_read_latency_cycles" => noc.l1_read_latency, [0, CYC], "cycles";
    "l1.noc_write_latency_cycles" => noc.l1_write_latency, [0, CYC], "cycles";
    "dram.model" => dram.model, [0, 1], "model";
    "dram.read_latency_cycles" => dram.read_latency, [0, CYC], "cycles";
    "dram.channel_bytes_per_kcycle" => dram.channel_bytes_per_kcycle, [1, 1_000_000_000], "bytes per 1000 cycles";
    "dram.gddr_per_channel" => dram.gddr_per_channel, [1, 64], "GDDR channels";
    "dram.interleave_bytes" => dram.interleave_bytes, [0, 1 << 40], "bytes";
    "dram.read_serve_cycles" => dram.read_serve, [0, CYC], "cycles";
    "dram.small_write_bytes" => dram.small_write_bytes, [0, 1 << 20], "bytes";
    "dram.small_write_cycles" => dram.small_write, [0, CYC], "cycles";
    "dram.write_latency_cycles" => dram.write_latency, [0, CYC], "cycles";
    "dram.bank_bytes_per_kcycle" => dram.bank_bytes_per_kcycle, [0, 1_000_000_000], "bytes per 1000 cycles";
    "dram.read_region_bytes" => dram.read_region_bytes, [0, 1 << 40], "bytes";
    "dram.write_buffer_bytes" => dram.write_buffer_bytes, [0, 1 << 30], "bytes";

    "mem.l1_alignment_bytes" => mem.l1_alignment, [1, 4096], pow2, "bytes";
    "mem.dram_alignment_bytes" => mem.dram_alignment, [1, 4096], pow2, "bytes";
    "mem.l1_read_alignment_bytes" => mem.l1_read_alignment, [1, 4096], pow2, "bytes";
    "mem.dram_read_alignment_bytes" => mem.dram_read_alignment, [1, 4096], pow2, "bytes";
    "mem.write_alignment_bytes" => mem.write_alignment, [1, 4096], pow2, "bytes";
    "mem.l1_unreserved_base" => mem.l1_unreserved_base, [0, u32::MAX as u64], "L1 address";
    "mem.semaphore_base" => mem.semaphore_base, [0, u32::MAX as u64], "L1 address";
    "mem.runtime_args_base" => mem.runtime_args_base, [0, u32::MAX as u64], "L1 address";
    "mem.packet_header_pool_base" => mem.packet_header_pool_base, [0, u32::MAX as u64], "L1 address";
    "mem.dram_unreserved_base" => mem.dram_unreserved_base, [0, 1 << 40], "DRAM bank address";
    "mem.num_circular_buffers" => mem.num_circular_buffers, [1, 64], "CBs per core";

    "api.arg_read_cycles" => api.arg_read, [0, CYC], "cycles";
    "api.cb_poll_cycles" => api.cb_poll, [0, CYC], "cycles";
    "api.cb_update_cycles" => api.cb_update, [0, CYC], "cycles";
    "api.local_lookup_cycles" => api.local_lookup, [0, CYC], "cycles";
    "api.addr_gen_cycles" => api.addr_gen, [0, CYC], "cycles";
    "api.noc_cmd_cycles" => api.noc_cmd, [0, CYC], "cycles";
    "api.noc_read_cmd_cycles" => api.noc_read_cmd, [0, CYC], "cycles";
    "api.noc_with_state_cmd_cycles" => api.noc_with_state_cmd, [0, CYC], "cycles";
    "api.barrier_poll_cycles" => api.barrier_poll, [0, CYC], "cycles";
    "api.l1_load_cycles" => api.l1_load, [0, CYC], "cycles";
    "api.l1_store_cycles" => api.l1_store, [0, CYC], "cycles";
    "api.cb_wake_cycles" => api.cb_wake, [0, CYC], "cycles";
    "api.l1_wake_cycles" => api.l1_wake, [0, CYC], "cycles";
    "api.barrier_wake_cycles" => api.barrier_wake, [0, CYC], "cycles";
    "api.zone_cycles" => api.zone, [0, CYC], "cycles";
    "api.kernel_start_cycles" => api.kernel_start, [0, CYC], "cycles";

    "replay.noc_event_cycles" => replay.noc_event, [0, CYC], "cycles";
    "replay.kernel_prologue_cycles" => replay.kernel_prologue, [0, CYC], "cycles";
    "dispatch.slow_core_interval_cycles" => dispatch.slow_core_interval, [0, CYC], "cycles";
    "dispatch.program_launch_cycles" => dispatch.program_launch, [0, CYC], "cycles";
    "sim.max_cycles" => sim.max_cycles, [1, 1 << 50], "cycles";
    "sim.stack_bytes" => sim.stack_bytes, [16 * 1024, 64 << 20], "bytes";
    "sim.lookahead" => sim.lookahead, [0, 1], "0 (off) or 1 (on)";
    "sim.math_thread" => sim.math_thread, [0, 2], "0 (never), 1 (when the host has a core to spare) or 2 (always)";

    "eth.link_bytes_per_sec" => eth.link_bytes_per_sec, [1_000_000, 10_000_000_000_000], "bytes per second";
    "eth.latency_ns" => eth.latency_ns, [1, 1_000_000], "ns";
    "eth.frame_payload_bytes" => eth.frame_payload_bytes, [16, 1 << 20], "bytes";
    "eth.frame_overhead_bytes" => eth.frame_overhead_bytes, [0, 1 << 16], "bytes";
    "eth.l1_unreserved_base" => eth.l1_unreserved_base, [0, u32::MAX as u64], "L1 address";
    "eth.l1_kernel_top" => eth.l1_kernel_top, [16, u32::MAX as u64], "L1 address";
    "eth.app_sync_info_base" => eth.app_sync_info_base, [0, u32::MAX as u64], "L1 address";
    "eth.semaphore_base" => eth.semaphore_base, [0, u32::MAX as u64], "L1 address";
    "api.eth_send_cmd_cycles" => api.eth_send_cmd, [0, CYC], "cycles";
    "fabric.max_payload_bytes" => fabric.max_payload_bytes, [16, 1 << 20], "bytes";
    "fabric.header_bytes_1d" => fabric.header_bytes_1d, [16, 4096], "bytes";
    "fabric.header_bytes_2d" => fabric.header_bytes_2d, [16, 4096], "bytes";
    "fabric.line_sender_slots" => fabric.line_sender_slots, [1, 256], "slots";
    "fabric.line_receiver_slots" => fabric.line_receiver_slots, [1, 256], "slots";
    "fabric.ring_sender_slots" => fabric.ring_sender_slots, [1, 256], "slots";
    "fabric.ring_receiver_slots" => fabric.ring_receiver_slots, [1, 256], "slots";
    "fabric.mesh_sender_slots" => fabric.mesh_sender_slots, [1, 256], "slots";
    "fabric.mesh_receiver_slots" => fabric.mesh_receiver_slots, [1, 256], "slots";
    "fabric.router_packet_cycles" => fabric.router_packet_cycles, [0, CYC], "cycles";
    "fabric.op_launch_cycles" => fabric.op_launch, [0, CYC], "cycles";

    "compute.init_cycles" => api.compute.init, [0, CYC], "cycles";
    "compute.unpack_base_cycles" => api.compute.unpack_base, [0, CYC], "cycles";
    "compute.unpack_bytes_per_cycle" => api.compute.unpack_bytes_per_cycle, [1, 1 << 20], "bytes per cycle";
    "compute.unpack_ab_bytes_per_cycle" => api.compute.unpack_ab_bytes_per_cycle, [1, 1 << 20], "bytes per cycle";
    "compute.math_base_cycles" => api.compute.math_base, [0, CYC], "cycles";
    "compute.matmul_cycles_per_phase" => api.compute.matmul_per_phase, [0, CYC], "cycles";
    "compute.matmul_tile_cycles" => api.compute.matmul_per_tile, [0, CYC], "cycles";
    "compute.matmul_phase_overhead_millicycles" => api.compute.matmul_phase_overhead_millicycles, [0, 1_000_000], "thousandths of a cycle per fidelity phase";
    "compute.eltwise_cycles" => api.compute.eltwise, [0, CYC], "cycles";
    "compute.reduce_cycles" => api.compute.reduce, [0, CYC], "cycles";
    "compute.datacopy_cycles" => api.compute.datacopy, [0, CYC], "cycles";
    "compute.sfpu_cycles_per_instr" => api.compute.sfpu_per_instr, [0, CYC], "cycles";
    "compute.sfpu_lanes" => api.compute.sfpu_lanes, [16, 256], pow2, "lanes";
    "compute.sfpu.exp_instr" => api.compute.sfpu.exp.0, [0, 100_000], "instructions";
    "compute.sfpu.exp_approx_instr" => api.compute.sfpu.exp.1, [0, 100_000], "instructions";
    "compute.sfpu.recip_instr" => api.compute.sfpu.recip.0, [0, 100_000], "instructions";
    "compute.sfpu.recip_approx_instr" => api.compute.sfpu.recip.1, [0, 100_000], "instructions";
    "compute.sfpu.sqrt_instr" => api.compute.sfpu.sqrt.0, [0, 100_000], "instructions";
    "compute.sfpu.sqrt_approx_instr" => api.compute.sfpu.sqrt.1, [0, 100_000], "instructions";
    "compute.sfpu.rsqrt_instr" => api.compute.sfpu.rsqrt.0, [0, 100_000], "instructions";
    "compute.sfpu.rsqrt_approx_instr" => api.compute.sfpu.rsqrt.1, [0, 100_000], "instructions";
    "compute.sfpu.log_instr" => api.compute.sfpu.log.0, [0, 100_000], "instructions";
    "compute.sfpu.log_approx_instr" => api.compute.sfpu.log.1, [0, 100_000], "instructions";
    "compute.sfpu.sigmoid_instr" => api.compute.sfpu.sigmoid.0, [0, 100_000], "instructions";
    "compute.sfpu.sigmoid_approx_instr" => api.compute.sfpu.sigmoid.1, [0, 100_000], "instructions";
    "compute.sfpu.tanh_instr" => api.compute.sfpu.tanh.0, [0, 100_000], "instructions";
    "compute.sfpu.tanh_approx_instr" => api.compute.sfpu.tanh.1, [0, 100_000], "instructions";
    "compute.sfpu.gelu_instr" => api.compute.sfpu.gelu.0, [0, 100_000], "instructions";
    "compute.sfpu.gelu_approx_instr" => api.compute.sfpu.gelu.1, [0, 100_000], "instructions";
    "compute.sfpu.simple_instr" => api.compute.sfpu.simple, [0, 100_000], "instructions";
    "compute.sfpu.power_mul_instr" => api.compute.sfpu.power_per_mul, [0, 100_000], "instructions";
    "compute.sfpu.binary_instr" => api.compute.sfpu.binary, [0, 100_000], "instructions";
    "compute.sfpu.div_instr" => api.compute.sfpu.div, [0, 100_000], "instructions";
    "compute.pack_base_cycles" => api.compute.pack_base, [0, CYC], "cycles";
    "compute.pack_bytes_per_cycle" => api.compute.pack_bytes_per_cycle, [1, 1 << 20], "bytes per cycle";
    "compute.sync_cycles" => api.compute.sync, [0, CYC], "cycles";
    "compute.handoff_cycles" => api.compute.handoff, [0, CYC], "cycles";
}

/// The row of `name`, if it is a key.
/// Keys whose values are names, not numbers: the names in value order (the value stored is the index).
pub(crate) fn choices(name: &str) -> &'static [&'static str] {
    match name {
        "noc.model" => &["calendar", "zero_load", "router", "packets"],
        "dram.model" => &["calendar", "zero_load"],
        _ => &[],
    }
}

pub(crate) fn find(name: &str) -> Option<usize> {
    KEYS.iter().position(|k| k.name == name)
}
