//! The fabric from a worker kernel (tt-metal's 1-D "linear" fabric API): a connection to the router on an
//! Ethernet core of this chip, and packets — a header plus up to the fabric's maximum payload — written
//! into the router's sender-channel slots over the NoC, one slot credit each. The router (modelled by the
//! chip) forwards them hop by hop over Ethernet; on the chips the header's route selects, it replays the
//! packet's NoC command: a write, an atomic increment, or a write followed by an increment.
//!
//! 1-D routes: a packet travels `start_distance` hops along the connection's direction and is written on
//! `range` consecutive chips from there (unicast: `range` 1). 2-D routes (`fabric_mesh.rs`) name the
//! destination device; routers pick the next hop dimension-ordered, X (columns) first, then Y.

use super::Dataflow;
use crate::hw::core::WordCond;

/// Words of connection arguments a host appends per connection ([`FabricConnection::from_args`]).
pub const FABRIC_CONNECTION_ARGS: usize = 8;

/// Byte offsets in a router's L1 region, from its base (`eth.l1_unreserved_base`).
pub mod router_layout {
    /// Sender channel 0's doorbell: a worker increments it once per packet written.
    pub const CH0_DOORBELL: u32 = 0;
    /// Sender channel 1's doorbell (packets passed on by the chip's other router).
    pub const CH1_DOORBELL: u32 = 16;
    /// The connected worker's NoC x, y and credit-word address (three words).
    pub const WORKER_REG: u32 = 32;
    /// Packets the router at the other end has freed from its receiver channel (written over Ethernet).
    pub const CREDIT_IN: u32 = 48;
    /// The word the router sends as its own receiver credit.
    pub const CREDIT_OUT: u32 = 64;
    /// Doorbells of the 2-D fabric's sender channels 2 and 3 (from the chip's other routers).
    pub const CH2_DOORBELL: u32 = 80;
    /// See [`CH2_DOORBELL`].
    pub const CH3_DOORBELL: u32 = 96;
    /// Each sender channel's doorbell.
    pub const DOORBELLS: [u32; 4] = [CH0_DOORBELL, CH1_DOORBELL, CH2_DOORBELL, CH3_DOORBELL];
    /// First slot: the sender channels in order, then the receiver channel.
    pub const SLOTS: u32 = 128;
}

/// Where a packet goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FabricRoute {
    /// 1-D: `start_distance` hops along the connection's line, then written on `range` chips.
    Line {
        /// Hops before the first chip that executes the command.
        start_distance: u8,
        /// Chips that execute it.
        range: u8,
    },
    /// 2-D: the device `dst_dev_id` (its row-major index in the mesh) of mesh `dst_mesh_id`.
    Mesh {
        /// Destination device.
        dst_dev_id: u8,
        /// Destination mesh.
        dst_mesh_id: u16,
    },
}

/// What a fabric packet does where it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FabricCmd {
    /// `NOC_UNICAST_WRITE` of the payload to a NoC address.
    Write {
        /// Destination NoC address.
        dst: u64,
    },
    /// `NOC_UNICAST_ATOMIC_INC` (header only).
    AtomicInc {
        /// Semaphore NoC address.
        sem: u64,
        /// Increment.
        val: u32,
    },
    /// `NOC_FUSED_UNICAST_ATOMIC_INC`: the write, then the increment.
    FusedWriteInc {
        /// Destination NoC address.
        dst: u64,
        /// Semaphore NoC address.
        sem: u64,
        /// Increment.
        val: u32,
    },
}

/// A decoded packet header (tensim's encoding of the low-latency 1-D and the 2-D headers' fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FabricHeader {
    /// The NoC command.
    pub cmd: FabricCmd,
    /// The route.
    pub route: FabricRoute,
    /// Hops travelled so far (routers increment it).
    pub hops_done: u8,
    /// Payload bytes after the header.
    pub payload_bytes: u32,
}

impl FabricHeader {
    /// Bytes of the encoding (it fits every header size a fabric may be configured with).
    pub const ENCODED_BYTES: usize = 32;

    /// Encode into the first [`FabricHeader::ENCODED_BYTES`] bytes.
    pub fn encode(&self) -> [u8; Self::ENCODED_BYTES] {
        let mut b = [0u8; Self::ENCODED_BYTES];
        let (kind, a, s, v) = match self.cmd {
            FabricCmd::Write { dst } => (0u8, dst, 0, 0),
            FabricCmd::AtomicInc { sem, val } => (2, 0, sem, val),
            FabricCmd::FusedWriteInc { dst, sem, val } => (3, dst, sem, val),
        };
        b[0] = kind;
        match self.route {
            FabricRoute::Line { start_distance, range } => {
                b[1] = start_distance;
                b[2] = range;
            }
            FabricRoute::Mesh { dst_dev_id, dst_mesh_id } => {
                b[28] = 1;
                b[29] = dst_dev_id;
                b[30..32].copy_from_slice(&dst_mesh_id.to_le_bytes());
            }
        }
        b[3] = self.hops_done;
        b[4..8].copy_from_slice(&self.payload_bytes.to_le_bytes());
        b[8..16].copy_from_slice(&a.to_le_bytes());
        b[16..24].copy_from_slice(&s.to_le_bytes());
        b[24..28].copy_from_slice(&v.to_le_bytes());
        b
    }

    /// Decode; `None` for an unknown command byte.
    pub fn decode(b: &[u8]) -> Option<FabricHeader> {
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        let cmd = match b[0] {
            0 => FabricCmd::Write { dst: u64_at(8) },
            2 => FabricCmd::AtomicInc { sem: u64_at(16), val: u32_at(24) },
            3 => FabricCmd::FusedWriteInc { dst: u64_at(8), sem: u64_at(16), val: u32_at(24) },
            _ => return None,
        };
        let route = match b[28] {
            0 => FabricRoute::Line { start_distance: b[1], range: b[2] },
            1 => FabricRoute::Mesh { dst_dev_id: b[29], dst_mesh_id: u16::from_le_bytes([b[30], b[31]]) },
            _ => return None,
        };
        Some(FabricHeader { cmd, route, hops_done: b[3], payload_bytes: u32_at(4) })
    }
}

/// A worker's connection to the router of one direction (tt-metal's `WorkerToFabricEdmSender`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FabricConnection {
    /// The router's Ethernet core (NoC coordinates as kernels use them).
    pub eth_xy: (u32, u32),
    /// Base of the router's L1 region.
    pub base: u32,
    /// Slots of the sender channel.
    pub slots: u32,
    /// Bytes of one slot (header and largest payload).
    pub slot_bytes: u32,
    /// Header bytes at the start of each slot.
    pub header_bytes: u32,
    /// Largest payload of one packet.
    pub max_payload: u32,
    /// The semaphore id of the worker's credit word (the router writes its sent count there).
    pub credit_sem: u32,
    /// Packets written so far.
    pub wr: u32,
    credit_addr: u32,
}

impl FabricConnection {
    /// A connection from its [`FABRIC_CONNECTION_ARGS`] words (as [`FabricConnection::words`] gives them)
    /// with `wr` packets written so far: C++ kernels keep these in their connection object.
    pub fn from_words(d: &Dataflow<'_>, a: [u32; FABRIC_CONNECTION_ARGS], wr: u32) -> FabricConnection {
        FabricConnection {
            eth_xy: (a[0], a[1]),
            base: a[2],
            slots: a[3],
            slot_bytes: a[4],
            header_bytes: a[5],
            max_payload: a[6],
            credit_sem: a[7],
            wr,
            // Computed as `from_args` found it (no second `get_semaphore` charge); the id is masked to the
            // 16 semaphores, which `from_args` checked.
            credit_addr: d.ctx.k.sem_base + (a[7] % 16) * 16,
        }
    }

    /// The connection's argument words.
    pub fn words(&self) -> [u32; FABRIC_CONNECTION_ARGS] {
        [
            self.eth_xy.0,
            self.eth_xy.1,
            self.base,
            self.slots,
            self.slot_bytes,
            self.header_bytes,
            self.max_payload,
            self.credit_sem,
        ]
    }

    /// `build_from_args`: read [`FABRIC_CONNECTION_ARGS`] runtime args from `*idx` on.
    pub fn from_args(d: &mut Dataflow<'_>, idx: &mut usize) -> FabricConnection {
        let mut a = [0u32; FABRIC_CONNECTION_ARGS];
        for v in &mut a {
            *v = d.get_arg_val::<u32>(*idx);
            *idx += 1;
        }
        let credit_addr = d.get_semaphore(a[7]);
        FabricConnection {
            eth_xy: (a[0], a[1]),
            base: a[2],
            slots: a[3],
            slot_bytes: a[4],
            header_bytes: a[5],
            max_payload: a[6],
            credit_sem: a[7],
            wr: 0,
            credit_addr,
        }
    }
}

impl Dataflow<'_> {
    /// [`Dataflow::fabric_send_routed`] on a 1-D route: to chips `start_distance .. start_distance + range`
    /// hops away.
    #[allow(clippy::too_many_arguments)]
    pub fn fabric_send(
        &mut self,
        api: &str,
        c: &mut FabricConnection,
        hdr_addr: u32,
        src: u32,
        size: u32,
        cmd: FabricCmd,
        start_distance: u8,
        range: u8,
    ) {
        self.fabric_send_routed(api, c, hdr_addr, src, size, cmd, FabricRoute::Line { start_distance, range });
    }

    fn router_addr(&self, c: &FabricConnection, offset: u32) -> u64 {
        self.ctx.k.tables.addr_map.xy(c.eth_xy.0, c.eth_xy.1, (c.base + offset) as u64)
    }

    /// `open()`: register this worker (its NoC coordinates and credit word) with the router.
    pub fn fabric_open(&mut self, c: &mut FabricConnection) {
        self.l1_write_u32(c.credit_addr, 0);
        let (x, y) = self.ctx.k.noc_xy;
        for (i, v) in [x, y, c.credit_addr].into_iter().enumerate() {
            let a = self.router_addr(c, router_layout::WORKER_REG + 4 * i as u32);
            self.noc_inline_dw_write(a, v);
        }
        c.wr = 0;
    }

    /// `close()`: wait until the router has sent every packet of this connection.
    pub fn fabric_close(&mut self, c: &mut FabricConnection) {
        self.l1_poll_u32(c.credit_addr, WordCond::Ge(c.wr));
        self.noc_async_write_barrier();
        self.noc_async_atomic_barrier();
    }

    /// `wait_for_empty_write_slot()`.
    pub fn fabric_wait_for_empty_write_slot(&mut self, c: &FabricConnection) {
        if c.wr >= c.slots {
            self.l1_poll_u32(c.credit_addr, WordCond::Ge(c.wr + 1 - c.slots));
        }
    }

    /// `PacketHeaderPool::allocate_header()`: the L1 address of a fresh header slot of this RISC's pool
    /// (an error once the pool's [`crate::args::PACKET_HEADERS_PER_RISC`] headers are taken).
    pub fn packet_header_pool_allocate(&mut self) -> u32 {
        let api = "PacketHeaderPool::allocate_header";
        self.ctx.spend(self.ctx.costs.local_lookup);
        let Some(base) = self.ctx.k.header_pool_l1 else {
            self.ctx.fail(format!("{api}: not modelled: a header pool on an Ethernet core (take headers from a CB)"))
        };
        let n = self.ctx.headers_allocated;
        if n >= crate::args::PACKET_HEADERS_PER_RISC {
            self.ctx.fail(format!(
                "{api}: this RISC's pool has {} headers and all are taken; reuse headers or take more from a CB",
                crate::args::PACKET_HEADERS_PER_RISC
            ));
        }
        self.ctx.headers_allocated = n + 1;
        base + n * crate::args::PACKET_HEADER_SLOT_BYTES
    }

    /// One packet (`send_payload_without_header_non_blocking_from_address` then
    /// `send_payload_flush_blocking_from_address`): wait for a slot, write payload and header into it,
    /// ring the doorbell. The payload must fit one packet.
    pub fn fabric_packet(&mut self, api: &str, c: &mut FabricConnection, hdr_addr: u32, src: u32, h: FabricHeader) {
        if h.payload_bytes > c.max_payload {
            self.ctx.fail(format!(
                "{api}: a single packet of {} bytes exceeds the fabric's {}-byte payload",
                h.payload_bytes, c.max_payload
            ));
        }
        if let FabricRoute::Line { start_distance, range } = h.route
            && (range == 0 || start_distance == 0)
        {
            self.ctx.fail(format!(
                "{api}: the route needs at least one hop and one chip (start {start_distance}, range {range})"
            ));
        }
        self.fabric_wait_for_empty_write_slot(c);
        let mut hb = vec![0u8; c.header_bytes as usize];
        hb[..FabricHeader::ENCODED_BYTES].copy_from_slice(&h.encode());
        self.l1_write_bytes(hdr_addr, &hb);
        let slot = c.base + router_layout::SLOTS + (c.wr % c.slots) * c.slot_bytes;
        if h.payload_bytes > 0 {
            let dst = self.ctx.k.tables.addr_map.xy(c.eth_xy.0, c.eth_xy.1, (slot + c.header_bytes) as u64);
            self.noc_async_write(src, dst, h.payload_bytes);
        }
        let dst = self.ctx.k.tables.addr_map.xy(c.eth_xy.0, c.eth_xy.1, slot as u64);
        self.noc_async_write(hdr_addr, dst, c.header_bytes);
        // "Flush": the header (and payload) must have left L1 before the caller may reuse them.
        self.noc_async_writes_flushed();
        let bell = self.router_addr(c, router_layout::CH0_DOORBELL);
        self.noc_semaphore_inc(bell, 1);
        c.wr += 1;
    }

    /// Send `cmd` with `size` payload bytes from `src` (split into packets of the fabric's largest payload;
    /// a fused increment rides on the last one) along `route`.
    #[allow(clippy::too_many_arguments)]
    pub fn fabric_send_routed(
        &mut self,
        api: &str,
        c: &mut FabricConnection,
        hdr_addr: u32,
        src: u32,
        size: u32,
        cmd: FabricCmd,
        route: FabricRoute,
    ) {
        let hdr = |cmd, n| FabricHeader { cmd, route, hops_done: 0, payload_bytes: n };
        match cmd {
            FabricCmd::AtomicInc { .. } => self.fabric_packet(api, c, hdr_addr, src, hdr(cmd, 0)),
            FabricCmd::Write { dst } | FabricCmd::FusedWriteInc { dst, .. } => {
                let mut off = 0;
                loop {
                    let n = c.max_payload.min(size - off);
                    let last = off + n == size;
                    let d = dst + off as u64;
                    let part = match cmd {
                        FabricCmd::FusedWriteInc { sem, val, .. } if last => {
                            FabricCmd::FusedWriteInc { dst: d, sem, val }
                        }
                        _ => FabricCmd::Write { dst: d },
                    };
                    self.fabric_packet(api, c, hdr_addr, src + off, hdr(part, n));
                    off += n;
                    if last {
                        break;
                    }
                }
            }
        }
    }

    /// `fabric_unicast_noc_unicast_write(conn, hdr, src, size, {dst_noc_addr}, num_hops)`.
    pub fn fabric_unicast_noc_unicast_write(
        &mut self,
        c: &mut FabricConnection,
        hdr: u32,
        src: u32,
        size: u32,
        dst_noc_addr: u64,
        num_hops: u8,
    ) {
        self.fabric_send(
            "fabric_unicast_noc_unicast_write",
            c,
            hdr,
            src,
            size,
            FabricCmd::Write { dst: dst_noc_addr },
            num_hops,
            1,
        );
    }

    /// `fabric_multicast_noc_unicast_write(conn, hdr, src, size, {dst_noc_addr}, start_distance, range)`.
    #[allow(clippy::too_many_arguments)]
    pub fn fabric_multicast_noc_unicast_write(
        &mut self,
        c: &mut FabricConnection,
        hdr: u32,
        src: u32,
        size: u32,
        dst_noc_addr: u64,
        start_distance: u8,
        range: u8,
    ) {
        self.fabric_send(
            "fabric_multicast_noc_unicast_write",
            c,
            hdr,
            src,
            size,
            FabricCmd::Write { dst: dst_noc_addr },
            start_distance,
            range,
        );
    }

    /// `fabric_unicast_noc_unicast_atomic_inc(conn, hdr, {sem_noc_addr, val}, num_hops)`.
    pub fn fabric_unicast_noc_unicast_atomic_inc(
        &mut self,
        c: &mut FabricConnection,
        hdr: u32,
        sem_noc_addr: u64,
        val: u32,
        num_hops: u8,
    ) {
        self.fabric_send(
            "fabric_unicast_noc_unicast_atomic_inc",
            c,
            hdr,
            0,
            0,
            FabricCmd::AtomicInc { sem: sem_noc_addr, val },
            num_hops,
            1,
        );
    }

    /// `fabric_multicast_noc_unicast_atomic_inc(conn, hdr, {sem_noc_addr, val}, start_distance, range)`.
    pub fn fabric_multicast_noc_unicast_atomic_inc(
        &mut self,
        c: &mut FabricConnection,
        hdr: u32,
        sem_noc_addr: u64,
        val: u32,
        start_distance: u8,
        range: u8,
    ) {
        self.fabric_send(
            "fabric_multicast_noc_unicast_atomic_inc",
            c,
            hdr,
            0,
            0,
            FabricCmd::AtomicInc { sem: sem_noc_addr, val },
            start_distance,
            range,
        );
    }

    /// `fabric_unicast_noc_fused_unicast_with_atomic_inc(conn, hdr, src, size, {dst, sem, val}, num_hops)`.
    #[allow(clippy::too_many_arguments)]
    pub fn fabric_unicast_noc_fused_unicast_with_atomic_inc(
        &mut self,
        c: &mut FabricConnection,
        hdr: u32,
        src: u32,
        size: u32,
        dst_noc_addr: u64,
        sem_noc_addr: u64,
        val: u32,
        num_hops: u8,
    ) {
        let cmd = FabricCmd::FusedWriteInc { dst: dst_noc_addr, sem: sem_noc_addr, val };
        self.fabric_send("fabric_unicast_noc_fused_unicast_with_atomic_inc", c, hdr, src, size, cmd, num_hops, 1);
    }

    /// `fabric_multicast_noc_fused_unicast_with_atomic_inc(conn, hdr, src, size, {dst, sem, val}, start_distance, range)`.
    #[allow(clippy::too_many_arguments)]
    pub fn fabric_multicast_noc_fused_unicast_with_atomic_inc(
        &mut self,
        c: &mut FabricConnection,
        hdr: u32,
        src: u32,
        size: u32,
        dst_noc_addr: u64,
        sem_noc_addr: u64,
        val: u32,
        start_distance: u8,
        range: u8,
    ) {
        let cmd = FabricCmd::FusedWriteInc { dst: dst_noc_addr, sem: sem_noc_addr, val };
        self.fabric_send(
            "fabric_multicast_noc_fused_unicast_with_atomic_inc",
            c,
            hdr,
            src,
            size,
            cmd,
            start_distance,
            range,
        );
    }
}
