//! The multi-chip calls of the kernel ABI: an ERISC kernel's Ethernet dataflow API (`eth_*`), and a worker
//! kernel's fabric API — building and opening a connection to a router, packet-header pools, single
//! packets (the header's own command and route) and the linear / mesh calls that split a payload into
//! packets. The connection's state lives in the C++ object (its argument words and packets written) and
//! is handed over on every call.

use crate::ffi::{self, read_slice, write_slice};
use sim_core::fiber::abort;
use sim_tensix::dataflow::fabric::{FABRIC_CONNECTION_ARGS, FabricCmd, FabricConnection, FabricHeader, FabricRoute};

/// `eth(op, a, b, c, d, e)`, op: 0 txq busy, 1 send_bytes(src, dst, n, per_send), 2 payload only(src, dst,
/// n, per_send), 3 payload only, one packet(src, dst, n), 4 complete signal(ch, n), 5 send over channel(src,
/// dst, n, ch, per_send), 6 bytes available(ch), 7 wait for bytes(n), 8 wait for bytes on channel(n, ch),
/// 9 receiver channel ack(ch, ack word), 10 receiver channel done(ch), 11 receiver done, 12 wait for
/// receiver done, 13 wait for receiver channel done(ch), 14 channel send done?(ch), 15 channel send
/// acked?(ch), 16 wait for receiver channel ack(ch), 17 clear sender channel ack(ch), 18 eth semaphore
/// wait(addr, val), 19 this core's channel, 20 the Ethernet L1 unreserved base.
pub(super) extern "C-unwind" fn eth(op: u32, a: u32, b: u32, c: u32, d: u32, e: u32) -> u32 {
    ffi::dataflow("the Ethernet dataflow API", |f| match op {
        0 => f.eth_txq_is_busy() as u32,
        1 => {
            if d == 0 {
                f.eth_send_bytes(a, b, c)
            } else {
                f.eth_send_bytes_per_send(a, b, c, d)
            }
            0
        }
        2 => {
            f.eth_send_bytes_over_channel_payload_only(a, b, c, d);
            0
        }
        3 => {
            f.eth_send_bytes_over_channel_payload_only_unsafe_one_packet(a, b, c);
            0
        }
        4 => {
            f.eth_send_payload_complete_signal_over_channel(a, b);
            0
        }
        5 => {
            f.eth_send_bytes_over_channel(a, b, c, d, e);
            0
        }
        6 => f.eth_bytes_are_available_on_channel(a) as u32,
        7 => {
            f.eth_wait_for_bytes(a);
            0
        }
        8 => {
            f.eth_wait_for_bytes_on_channel(a, b);
            0
        }
        9 => {
            f.eth_receiver_channel_ack(a, b);
            0
        }
        10 => {
            f.eth_receiver_channel_done(a);
            0
        }
        11 => {
            f.eth_receiver_done();
            0
        }
        12 => {
            f.eth_wait_for_receiver_done();
            0
        }
        13 => {
            f.eth_wait_for_receiver_channel_done(a);
            0
        }
        14 => f.eth_is_receiver_channel_send_done(a) as u32,
        15 => f.eth_is_receiver_channel_send_acked(a) as u32,
        16 => {
            f.eth_wait_for_receiver_channel_ack(a);
            0
        }
        17 => {
            f.eth_clear_sender_channel_ack(a);
            0
        }
        18 => {
            f.eth_noc_semaphore_wait(a, b);
            0
        }
        19 => f.eth_channel(),
        20 => f.eth_l1_unreserved_base(),
        _ => abort(format!("unknown Ethernet call {op}: the kernel was built against other tensim headers")),
    })
}

/// Words of the C++ connection object (`tensim_fabric_conn` in `tensim/fabric.h`): the argument words,
/// then the packets written.
const CONN_WORDS: usize = FABRIC_CONNECTION_ARGS + 1;

/// Words of a send description (`p` of `fabric`): command (0 write, 2 atomic inc, 3 fused write + inc),
/// destination NoC address, semaphore NoC address, increment, route (0 line, 1 mesh), start distance or
/// destination device, range or mesh id, header address, source L1 address, payload bytes.
const SEND_WORDS: usize = 10;

fn cmd(p: &[u64]) -> FabricCmd {
    match p[0] {
        0 => FabricCmd::Write { dst: p[1] },
        2 => FabricCmd::AtomicInc { sem: p[2], val: p[3] as u32 },
        3 => FabricCmd::FusedWriteInc { dst: p[1], sem: p[2], val: p[3] as u32 },
        c => abort(format!(
            "not modelled: fabric NoC command {c} (unicast write, atomic increment and fused write + increment are)"
        )),
    }
}

fn route(p: &[u64]) -> FabricRoute {
    match p[4] {
        0 => FabricRoute::Line { start_distance: p[5] as u8, range: p[6] as u8 },
        _ if p[6] != 0 => abort(format!(
            "dst_mesh_id {}: tensim's fabric spans one mesh (id 0); several meshes are not modelled",
            p[6]
        )),
        _ => FabricRoute::Mesh { dst_dev_id: p[5] as u8, dst_mesh_id: 0 },
    }
}

/// `fabric(op, conn, p)`, op: 0 build from args (p[0] the arg index; returns the next index), 1 open,
/// 2 close, 3 wait for an empty write slot, 4 one packet (the header's command and route, payload ≤ one
/// packet), 5 a send split into packets, 6 take a header from this RISC's pool (returns its address).
pub(super) extern "C-unwind" fn fabric(op: u32, conn: *mut u32, p: *const u64) -> u32 {
    ffi::dataflow("the fabric API", |d| {
        if op == 6 {
            return d.packet_header_pool_allocate();
        }
        let words = read_slice(conn as *const u32, CONN_WORDS).to_vec();
        if words.len() != CONN_WORDS {
            abort("fabric call without a connection".to_string());
        }
        let mut a = [0u32; FABRIC_CONNECTION_ARGS];
        a.copy_from_slice(&words[..FABRIC_CONNECTION_ARGS]);
        let mut ret = 0;
        let mut c = match op {
            0 => {
                let mut idx = read_slice(p, 1).first().copied().unwrap_or(0) as usize;
                let c = FabricConnection::from_args(d, &mut idx);
                ret = idx as u32;
                c
            }
            _ => FabricConnection::from_words(d, a, words[FABRIC_CONNECTION_ARGS]),
        };
        let s = read_slice(p, SEND_WORDS);
        match op {
            0 => {}
            1 => d.fabric_open(&mut c),
            2 => d.fabric_close(&mut c),
            3 => d.fabric_wait_for_empty_write_slot(&c),
            4 | 5 if s.len() == SEND_WORDS => {
                let (hdr, src, size) = (s[7] as u32, s[8] as u32, s[9] as u32);
                if op == 4 {
                    // s[8]: bit 63 a payload was given, bits 32..63 its size, the low word its address.
                    let given = (s[8] >> 63 == 1).then_some(((s[8] >> 32) & 0x7fff_ffff) as u32);
                    if given.unwrap_or(0) != size {
                        abort(format!(
                            "send_payload_flush_blocking_from_address: the header at L1 {hdr:#x} carries a payload of {size} bytes and {} was given before it; send the payload first with send_payload_without_header_non_blocking_from_address(src, {size})",
                            given.map_or("none".to_string(), |g| format!("{g} bytes"))
                        ));
                    }
                    let h = FabricHeader { cmd: cmd(s), route: route(s), hops_done: 0, payload_bytes: size };
                    d.fabric_packet("send_payload_flush_blocking_from_address", &mut c, hdr, src, h);
                } else {
                    d.fabric_send_routed("the fabric's linear/mesh API", &mut c, hdr, src, size, cmd(s), route(s));
                }
            }
            _ => abort(format!("unknown fabric call {op}: the kernel was built against other tensim headers")),
        }
        let mut out = c.words().to_vec();
        out.push(c.wr);
        write_slice(conn, &out);
        ret
    })
}
