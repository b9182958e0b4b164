//! Typed timing parameters of a Tensix core's kernel APIs (filled once from the per-arch data file by
//! sim-device; every value there carries its source note).

use sim_core::Cycles;

/// SFPU instructions per 32-lane vector of each operation (exact mode, approximate mode).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SfpuCosts {
    /// exp.
    pub exp: (u64, u64),
    /// recip.
    pub recip: (u64, u64),
    /// sqrt.
    pub sqrt: (u64, u64),
    /// rsqrt.
    pub rsqrt: (u64, u64),
    /// log.
    pub log: (u64, u64),
    /// sigmoid.
    pub sigmoid: (u64, u64),
    /// tanh.
    pub tanh: (u64, u64),
    /// gelu.
    pub gelu: (u64, u64),
    /// relu, abs, square and other one-instruction operations.
    pub simple: u64,
    /// power (per multiply).
    pub power_per_mul: u64,
    /// add/sub/mul of two DST tiles.
    pub binary: u64,
    /// div of two DST tiles.
    pub div: u64,
}

/// Cycles of the compute engines (unpacker, FPU, SFPU, packer) and of the TRISC hand-offs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ComputeParams {
    /// An `*_init` call (reconfiguring unpacker, math and packer).
    pub init: Cycles,
    /// Fixed cycles per unpacked tile.
    pub unpack_base: Cycles,
    /// L1 read bandwidth of one unpacker, bytes per cycle.
    pub unpack_bytes_per_cycle: u64,
    /// L1 read bandwidth of both unpackers together, bytes per cycle.
    pub unpack_ab_bytes_per_cycle: u64,
    /// Fixed cycles per FPU/SFPU operation issued.
    pub math_base: Cycles,
    /// One 32×32×32 tile matmul, per fidelity phase.
    pub matmul_per_phase: Cycles,
    /// One 32×32×32 tile matmul, once per tile product whatever the fidelity.
    pub matmul_per_tile: Cycles,
    /// One 32×32×32 tile matmul: the math thread's work per fidelity phase beyond the FPU's passes, in
    /// thousandths of a cycle (a tile product pays it once per phase, rounded up once per product).
    pub matmul_phase_overhead_millicycles: u64,
    /// One element-wise tile operation (add/sub; mul is this per fidelity phase).
    pub eltwise: Cycles,
    /// One tile reduction.
    pub reduce: Cycles,
    /// One tile moved into DST (copy, tilize, untilize).
    pub datacopy: Cycles,
    /// One SFPU instruction over a whole tile (1024 values / 32 lanes).
    pub sfpu_per_instr: Cycles,
    /// SFPU instruction counts.
    pub sfpu: SfpuCosts,
    /// SFPU lanes: the values one vector instruction works on (a custom SFPU function's vector width).
    pub sfpu_lanes: u32,
    /// Fixed cycles per packed tile.
    pub pack_base: Cycles,
    /// L1 write bandwidth of the packers, bytes per cycle.
    pub pack_bytes_per_cycle: u64,
    /// A `tile_regs_*` call.
    pub sync: Cycles,
    /// Hand-off latency between the TRISC threads (source-register and DST semaphores).
    pub handoff: Cycles,
}

impl ComputeParams {
    /// All-zero costs.
    pub fn zero() -> ComputeParams {
        let z = Cycles::ZERO;
        ComputeParams {
            init: z,
            unpack_base: z,
            unpack_bytes_per_cycle: 1 << 20,
            unpack_ab_bytes_per_cycle: 1 << 20,
            math_base: z,
            matmul_per_phase: z,
            matmul_per_tile: z,
            matmul_phase_overhead_millicycles: 0,
            eltwise: z,
            reduce: z,
            datacopy: z,
            sfpu_per_instr: z,
            sfpu_lanes: 32,
            sfpu: SfpuCosts {
                exp: (0, 0),
                recip: (0, 0),
                sqrt: (0, 0),
                rsqrt: (0, 0),
                log: (0, 0),
                sigmoid: (0, 0),
                tanh: (0, 0),
                gelu: (0, 0),
                simple: 0,
                power_per_mul: 0,
                binary: 0,
                div: 0,
            },
            pack_base: z,
            pack_bytes_per_cycle: 1 << 20,
            sync: z,
            handoff: z,
        }
    }
}

/// Cycles each kernel API call charges its RISC, and hand-off latencies.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
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
    /// Programming one NoC write or atomic command (per packet issued).
    pub noc_cmd: Cycles,
    /// Programming one NoC read command (per packet issued).
    pub noc_read_cmd: Cycles,
    /// Issuing a `*_with_state` command: the remote coordinates and size are already programmed.
    pub noc_with_state_cmd: Cycles,
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
    /// Programming one Ethernet send command (`eth_send_packet`: the transmit-queue registers).
    pub eth_send_cmd: Cycles,
    /// Compute engine costs.
    pub compute: ComputeParams,
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
            noc_read_cmd: z,
            noc_with_state_cmd: z,
            barrier_poll: z,
            l1_load: z,
            l1_store: z,
            cb_wake: z,
            l1_wake: z,
            barrier_wake: z,
            kernel_start: z,
            zone: z,
            eth_send_cmd: z,
            compute: ComputeParams::zero(),
        }
    }
}
