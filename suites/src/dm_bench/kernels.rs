//! The kernels of tt-metal's data-movement tests, rewritten for tensim: each issues its transactions back to
//! back inside one profiler zone (`RISCV0` on RISCV_0, `RISCV1` on RISCV_1) that ends with the matching
//! barrier; address setup is outside the zone. Runtime args carry the counts, sizes, addresses and peers.

use sim_device::prelude::*;

/// The zone name of a kernel on `risc`.
fn zone(k: &Dataflow) -> &'static str {
    if k.risc() == Risc::Ncrisc { "RISCV1" } else { "RISCV0" }
}

/// Args `[n, bytes, local, remote, peers, in_zone, x0, y0, x1, y1, …]`: the header.
fn header(k: &mut Dataflow) -> (u32, u32, u32, u32, u32, bool) {
    let h: Vec<u32> = (0..6).map(|i| k.get_arg_val(i)).collect();
    (h[0], h[1], h[2], h[3], h[4], h[5] != 0)
}

/// The NoC address of peer `i`'s `remote`, read from the args.
fn peer_addr(k: &mut Dataflow, i: usize, remote: u32) -> u64 {
    let (x, y): (u32, u32) = (k.get_arg_val(6 + 2 * i), k.get_arg_val(7 + 2 * i));
    k.get_noc_addr(x, y, remote)
}

/// The peers' addresses: computed before the zone (one_to_one, one_from_one, loopback: the tests set
/// their one address up first), or `None` when the test computes each inside the zone, once per peer
/// (one_to_all, one_from_all, all_to_all, all_from_all).
fn before_zone(k: &mut Dataflow, peers: u32, remote: u32, in_zone: bool) -> Option<Vec<u64>> {
    (!in_zone).then(|| (0..peers as usize).map(|i| peer_addr(k, i, remote)).collect())
}

/// `sender.cpp` / `sender_unicast.cpp`: for each peer in turn, `n` writes of `bytes` from `local` to the
/// peer's `remote`; one write barrier.
pub fn sender(k: &mut Dataflow) {
    let (n, bytes, local, remote, peers, in_zone) = header(k);
    // All to all passes `num_vcs` as compile-time arg 0 (`vc = i % num_vcs`); the others pass none.
    let vcs = k.kernel_compile_time_args().first().copied();
    let noc = k.noc_index();
    let pre = before_zone(k, peers, remote, in_zone);
    k.zone_begin(zone(k));
    for i in 0..peers as usize {
        let a = match &pre {
            Some(v) => v[i],
            None => peer_addr(k, i, remote),
        };
        for j in 0..n {
            match vcs {
                // The test's default: no VC argument (tt-metal's NOC_UNICAST_WRITE_VC).
                None => k.noc_async_write(local, a, bytes),
                Some(v) => k.noc_async_write_on_vc(local, a, bytes, noc, (j % v) as u8),
            }
        }
    }
    k.noc_async_write_barrier();
    k.zone_end();
}

/// `requestor.cpp` / `gatherer.cpp`: for each peer in turn, `n` reads of `bytes` from the peer's `remote`
/// into `local`; one read barrier.
pub fn requestor(k: &mut Dataflow) {
    let (n, bytes, local, remote, peers, in_zone) = header(k);
    let pre = before_zone(k, peers, remote, in_zone);
    k.zone_begin(zone(k));
    for i in 0..peers as usize {
        let a = match &pre {
            Some(v) => v[i],
            None => peer_addr(k, i, remote),
        };
        for _ in 0..n {
            k.noc_async_read(a, local, bytes);
        }
    }
    k.noc_async_read_barrier();
    k.zone_end();
}

/// `sender_and_requestor.cpp` of the core-bidirectional test: args `[n, bytes, w_local, w_remote, r_local,
/// r_remote, x, y]`; `n` times a write of `bytes` from `w_local` to the peer's `w_remote` and then a read of
/// `bytes` from the peer's `r_remote` into `r_local`, on the kernel's NoC; a write barrier, a read barrier.
pub fn sender_and_requestor(k: &mut Dataflow) {
    let a: Vec<u32> = (0..8).map(|i| k.get_arg_val(i)).collect();
    let (n, bytes, w_local, w_remote, r_local, r_remote) = (a[0], a[1], a[2], a[3], a[4], a[5]);
    let (dst, src) = (k.get_noc_addr(a[6], a[7], w_remote), k.get_noc_addr(a[6], a[7], r_remote));
    k.zone_begin(zone(k));
    for _ in 0..n {
        k.noc_async_write(w_local, dst, bytes);
        k.noc_async_read(src, r_local, bytes);
    }
    k.noc_async_write_barrier();
    k.noc_async_read_barrier();
    k.zone_end();
}

/// `dram_sharded_read.cpp`: args `[n, banks, pages, page, dram, local]`; `n` times, for each bank in turn,
/// the read state set to the bank's `dram` for one `page`-byte packet, then `pages` one-packet reads of
/// consecutive pages into consecutive L1 from `local` (the same L1 each time round); one read barrier.
pub fn dram_sharded_reader(k: &mut Dataflow) {
    let a: Vec<u32> = (0..6).map(|i| k.get_arg_val(i)).collect();
    let (n, banks, pages, page, dram, local) = (a[0], a[1], a[2], a[3], a[4], a[5]);
    k.zone_begin(zone(k));
    for _ in 0..n {
        let mut l1 = local;
        for b in 0..banks {
            let src = k.get_noc_addr_from_bank_id::<true>(b, dram);
            k.noc_async_read_one_packet_set_state(src, page);
            for i in 0..pages {
                k.noc_async_read_one_packet_with_state(dram + i * page, l1);
                l1 += page;
            }
        }
    }
    k.noc_async_read_barrier();
    k.zone_end();
}

/// `sender_multicast.cpp`: args `[n, bytes, local, remote, x_start, y_start, x_end, y_end, num_dests,
/// linked, loopback]`; `n − 1` multicasts (linked when asked), a last unlinked one, one write barrier.
pub fn multicast_sender(k: &mut Dataflow) {
    let a: Vec<u32> = (0..11).map(|i| k.get_arg_val(i)).collect();
    let (n, bytes, local, remote) = (a[0], a[1], a[2], a[3]);
    let (num_dests, linked, loopback) = (a[8], a[9] != 0, a[10] != 0);
    let dst = k.get_noc_multicast_addr(a[4], a[5], a[6], a[7], remote);
    k.zone_begin(zone(k));
    for i in 0..n {
        let link = linked && i + 1 < n;
        if loopback {
            k.noc_async_write_multicast_loopback_src(local, dst, bytes, num_dests, link);
        } else {
            k.noc_async_write_multicast(local, dst, bytes, num_dests, link);
        }
    }
    k.noc_async_write_barrier();
    k.zone_end();
}

/// `reader_unary.cpp` of the DRAM test: `n` reads of `bytes` from DRAM bank 0 at `dram` into `local`, a read
/// barrier; after the zone, set the local semaphore the writer waits on. Args `[n, bytes, dram, local, sem]`.
pub fn dram_reader(k: &mut Dataflow) {
    let (n, bytes, dram, local, sem): (u32, u32, u32, u32, u32) =
        (k.get_arg_val(0), k.get_arg_val(1), k.get_arg_val(2), k.get_arg_val(3), k.get_arg_val(4));
    let src = k.get_noc_addr_from_bank_id::<true>(0, dram);
    k.zone_begin(zone(k));
    for _ in 0..n {
        k.noc_async_read(src, local, bytes);
    }
    k.noc_async_read_barrier();
    k.zone_end();
    let s = k.get_semaphore(sem);
    k.noc_semaphore_set(s, 1);
}

/// `writer_unary.cpp` of the DRAM test: wait for the reader's semaphore, then `n` writes of `bytes` from
/// `local` to DRAM bank 0 at `dram`, a write barrier. Args `[n, bytes, dram, local, sem]`.
pub fn dram_writer(k: &mut Dataflow) {
    let (n, bytes, dram, local, sem): (u32, u32, u32, u32, u32) =
        (k.get_arg_val(0), k.get_arg_val(1), k.get_arg_val(2), k.get_arg_val(3), k.get_arg_val(4));
    let s = k.get_semaphore(sem);
    k.noc_semaphore_wait(s, 1);
    let dst = k.get_noc_addr_from_bank_id::<true>(0, dram);
    k.zone_begin(zone(k));
    for _ in 0..n {
        k.noc_async_write(local, dst, bytes);
    }
    k.noc_async_write_barrier();
    k.zone_end();
}

/// The DRAM contention measurement's mover (dm-tests.md §14): args `[bank, n, bytes, local, read]`; `n`
/// transfers of `bytes` between `local` and consecutive addresses of DRAM bank `bank`, one barrier.
pub fn dram_mover(k: &mut Dataflow) {
    let (bank, n, bytes, local, read): (u32, u32, u32, u32, u32) =
        (k.get_arg_val(0), k.get_arg_val(1), k.get_arg_val(2), k.get_arg_val(3), k.get_arg_val(4));
    let base = k.get_noc_addr_from_bank_id::<true>(bank, 0);
    k.zone_begin(zone(k));
    for i in 0..n as u64 {
        let a = base + i * bytes as u64;
        if read == 1 {
            k.noc_async_read(a, local, bytes);
        } else {
            k.noc_async_write(local, a, bytes);
        }
    }
    if read == 1 {
        k.noc_async_read_barrier();
    } else {
        k.noc_async_write_barrier();
    }
    k.zone_end();
}
