//! The data-movement calls of the kernel ABI: NoC addresses, reads and writes (by address, page and
//! TensorAccessor), multicasts, barriers, semaphores, inline writes, command-buffer state and trids.

use super::{format, noc};
use crate::ffi;
use sim_core::fiber::abort;
use sim_tensix::addrgen::ArgsLayout;
use sim_tensix::{AtomicOpts, InterleavedAddrGen, InterleavedAddrGenFast, McastReq, TensorAccessor};

pub(super) extern "C-unwind" fn noc_addr_xy(x: u32, y: u32, addr: u32, _noc: u32) -> u64 {
    ffi::dataflow("get_noc_addr", |d| d.get_noc_addr(x, y, addr))
}

pub(super) extern "C-unwind" fn noc_addr_bank(dram: u32, bank: u32, offset: u32, _noc: u32) -> u64 {
    ffi::dataflow("get_noc_addr_from_bank_id", |d| {
        if dram != 0 {
            d.get_noc_addr_from_bank_id::<true>(bank, offset)
        } else {
            d.get_noc_addr_from_bank_id::<false>(bank, offset)
        }
    })
}

/// Run `f` with the address generator the C++ side described.
macro_rules! with_gen {
    ($gen:expr, $dram:expr, $base:expr, $page:expr, $fmt:expr, |$g:ident| $body:expr) => {
        match ($gen, $dram != 0) {
            (0, true) => {
                let $g = InterleavedAddrGen::<true> { bank_base_address: $base, page_size: $page };
                $body
            }
            (0, false) => {
                let $g = InterleavedAddrGen::<false> { bank_base_address: $base, page_size: $page };
                $body
            }
            (_, true) => {
                let $g = InterleavedAddrGenFast::<true> {
                    bank_base_address: $base,
                    page_size: $page,
                    data_format: format($fmt),
                };
                $body
            }
            (_, false) => {
                let $g = InterleavedAddrGenFast::<false> {
                    bank_base_address: $base,
                    page_size: $page,
                    data_format: format($fmt),
                };
                $body
            }
        }
    };
}

#[allow(clippy::too_many_arguments)]
pub(super) extern "C-unwind" fn noc_addr_page(
    gen_: u32,
    dram: u32,
    base: u32,
    page: u32,
    fmt: u32,
    id: u32,
    off: u32,
    _noc: u32,
) -> u64 {
    ffi::dataflow("get_noc_addr", |d| with_gen!(gen_, dram, base, page, fmt, |g| d.get_noc_addr_page(id, &g, off)))
}

pub(super) extern "C-unwind" fn noc_addr_mcast(xs: u32, ys: u32, xe: u32, ye: u32, addr: u32, _noc: u32) -> u64 {
    ffi::dataflow("get_noc_multicast_addr", |d| d.get_noc_multicast_addr(xs, ys, xe, ye, addr))
}

pub(super) extern "C-unwind" fn read(src: u64, dst: u32, size: u32, n: u32) {
    ffi::dataflow("noc_async_read", |d| {
        if noc(n) == d.noc_index() {
            d.noc_async_read(src, dst, size)
        } else {
            d.noc_async_read_on(src, dst, size, noc(n))
        }
    })
}

pub(super) extern "C-unwind" fn write(src: u32, dst: u64, size: u32, n: u32, posted: u32) {
    ffi::dataflow("noc_async_write", |d| {
        if posted != 0 {
            d.noc_async_write_posted_on(src, dst, size, noc(n))
        } else if noc(n) == d.noc_index() {
            d.noc_async_write(src, dst, size)
        } else {
            d.noc_async_write_on(src, dst, size, noc(n))
        }
    })
}

/// `noc_async_write(…, noc, vc)`: the VC the kernel names (the default one goes through [`write`]).
pub(super) extern "C-unwind" fn write_vc(src: u32, dst: u64, size: u32, n: u32, posted: u32, vc: u32) {
    if vc == u32::from(sim_tensix::NOC_UNICAST_WRITE_VC) {
        return write(src, dst, size, n, posted);
    }
    ffi::dataflow("noc_async_write", |d| {
        if posted != 0 {
            d.noc_async_write_posted_on(src, dst, size, noc(n))
        } else {
            d.noc_async_write_on_vc(src, dst, size, noc(n), vc.min(255) as u8)
        }
    })
}

#[allow(clippy::too_many_arguments)]
pub(super) extern "C-unwind" fn read_page(
    gen_: u32,
    dram: u32,
    base: u32,
    page: u32,
    fmt: u32,
    id: u32,
    l1: u32,
    off: u32,
    n: u32,
) {
    ffi::dataflow("noc_async_read_page", |d| {
        with_gen!(gen_, dram, base, page, fmt, |g| d.noc_async_read_page_on(id, &g, l1, off, noc(n)))
    })
}

#[allow(clippy::too_many_arguments)]
pub(super) extern "C-unwind" fn write_page(
    gen_: u32,
    dram: u32,
    base: u32,
    page: u32,
    fmt: u32,
    id: u32,
    l1: u32,
    size: u32,
    flags: u32,
) {
    // flags: the NoC in bit 0, posted in bit 1, the byte offset from bit 8.
    let (posted, off, n) = (flags & 2 != 0, flags >> 8, noc(flags & 1));
    ffi::dataflow("noc_async_write_page", |d| {
        with_gen!(gen_, dram, base, page, fmt, |g| d.noc_async_write_page_with(id, &g, l1, size, off, posted, n))
    })
}

pub(super) extern "C-unwind" fn write_mcast(
    src: u32,
    dst: u64,
    size: u32,
    dests: u32,
    linked: u32,
    loopback: u32,
    n: u32,
) {
    ffi::dataflow("noc_async_write_multicast", |d| {
        let m = McastReq { num_dests: dests, loopback: loopback != 0, linked: linked != 0 };
        d.noc_async_write_multicast_on(src, dst, size, m, noc(n))
    })
}

pub(super) extern "C-unwind" fn barrier(which: u32, n: u32) {
    ffi::dataflow("a NoC barrier", |d| {
        let other = noc(n) != d.noc_index();
        match which {
            0 if other => d.noc_async_read_barrier_on(noc(n)),
            0 => d.noc_async_read_barrier(),
            1 if other => d.noc_async_write_barrier_on(noc(n)),
            1 => d.noc_async_write_barrier(),
            2 if other => d.noc_async_flush_or_barrier_on(0, noc(n)),
            2 => d.noc_async_writes_flushed(),
            3 if other => d.noc_async_flush_or_barrier_on(1, noc(n)),
            3 => d.noc_async_posted_writes_flushed(),
            4 if other => d.noc_async_flush_or_barrier_on(2, noc(n)),
            4 => d.noc_async_atomic_barrier(),
            _ if other => d.noc_async_flush_or_barrier_on(3, noc(n)),
            _ => d.noc_async_full_barrier(),
        }
    })
}

pub(super) extern "C-unwind" fn sem_wait(addr: u32, val: u32, min: u32) {
    ffi::dataflow("noc_semaphore_wait", |d| {
        if min != 0 { d.noc_semaphore_wait_min(addr, val) } else { d.noc_semaphore_wait(addr, val) }
    })
}

pub(super) extern "C-unwind" fn sem_set(addr: u32, val: u32) {
    ffi::dataflow("noc_semaphore_set", |d| d.noc_semaphore_set(addr, val))
}

/// `flags`: the NoC in bits 0..8, posted in bits 8..16, the VC number above.
pub(super) extern "C-unwind" fn sem_inc(addr: u64, incr: u32, flags: u32) {
    ffi::dataflow("noc_semaphore_inc", |d| {
        let o = AtomicOpts { noc: noc(flags & 0xff), posted: (flags >> 8) & 0xff != 0, vc: (flags >> 16) as u8 };
        d.noc_semaphore_inc_with(addr, incr, o)
    })
}

pub(super) extern "C-unwind" fn sem_set_remote(src: u32, dst: u64, n: u32) {
    ffi::dataflow("noc_semaphore_set_remote", |d| d.noc_semaphore_set_remote_on(src, dst, noc(n)))
}

pub(super) extern "C-unwind" fn sem_set_mcast(src: u32, dst: u64, dests: u32, linked: u32, loopback: u32, n: u32) {
    ffi::dataflow("noc_semaphore_set_multicast", |d| {
        let m = McastReq { num_dests: dests, loopback: loopback != 0, linked: linked != 0 };
        d.noc_semaphore_set_multicast_on(src, dst, m, noc(n))
    })
}

/// `flags`: the NoC in bits 0..8, the byte-enable mask in bits 8..16, posted in bits 16..24, the VC number
/// above.
pub(super) extern "C-unwind" fn inline_write(addr: u64, val: u32, flags: u32) {
    ffi::dataflow("noc_inline_dw_write", |d| {
        let o = AtomicOpts { noc: noc(flags & 0xff), posted: (flags >> 16) & 0xff != 0, vc: (flags >> 24) as u8 };
        d.noc_inline_dw_write_with(addr, val, (flags >> 8) as u8, o)
    })
}

/// The TensorAccessor a kernel describes by `desc` (its compile-time offset in the low 16 bits, its common
/// runtime-arg offset above), base address and page size (0: the aligned page size in the args).
fn accessor(d: &sim_tensix::Dataflow<'_>, desc: u32, base: u32, page: u32) -> TensorAccessor {
    let (cta, crta) = (desc & 0xffff, desc >> 16);
    let args = d.tensor_accessor_args_at(cta, crta, ArgsLayout::Current);
    let a = TensorAccessor::new(args, base, page);
    if a.page_size == 0 {
        abort(format!(
            "TensorAccessor(args<{cta}>, address): the page size is 0 (the args are a placeholder, or the host \
             appended no page size); pass the page size (e.g. get_tile_size(cb)) as the third argument"
        ));
    }
    a
}

pub(super) extern "C-unwind" fn ta_noc_addr(
    desc: u32,
    base: u32,
    page: u32,
    id: u32,
    off: u32,
    _noc: u32,
    shard: u32,
) -> u64 {
    ffi::dataflow("TensorAccessor::get_noc_addr", |d| {
        let a = accessor(d, desc, base, page);
        if shard != 0 { d.get_shard_noc_addr(&a, id, off) } else { d.get_noc_addr_page(id, &a, off) }
    })
}

pub(super) extern "C-unwind" fn ta_read(desc: u32, base: u32, page: u32, id: u32, l1: u32, off: u32, n: u32) {
    ffi::dataflow("noc_async_read_page", |d| {
        let a = accessor(d, desc, base, page);
        d.noc_async_read_page_on(id, &a, l1, off, noc(n))
    })
}

/// `noc_offset`: the NoC in bit 0, the byte offset into the page from bit 8.
pub(super) extern "C-unwind" fn ta_write(
    desc: u32,
    base: u32,
    page: u32,
    id: u32,
    l1: u32,
    size: u32,
    noc_offset: u32,
) {
    ffi::dataflow("noc_async_write_page", |d| {
        let a = accessor(d, desc, base, page);
        d.noc_async_write_page_with(id, &a, l1, size, noc_offset >> 8, false, noc(noc_offset & 1))
    })
}

/// What a TensorAccessor's distribution says (`tensim/accessor.h`): `what` 0 the bank (high word) and
/// page offset in the bank (low word) of page `id`; 1 the page in slot `extra` of shard `id`; 2 the
/// tensor's pages; 3 its shards; 4 the pages of a shard. `u64::MAX` where there is none (padding, a page
/// or shard past the end, a question for an interleaved buffer that has no answer).
pub(super) extern "C-unwind" fn ta_info(desc: u32, what: u32, id: u32, extra: u32) -> u64 {
    ffi::dataflow("a TensorAccessor query", |d| {
        let (cta, crta) = (desc & 0xffff, desc >> 16);
        let args = d.tensor_accessor_args_at(cta, crta, ArgsLayout::Current);
        let none = u64::MAX;
        match (&args.sharded, what) {
            (Some(s), 0) => s.dist.locate(id as u64).map_or(none, |l| ((l.bank as u64) << 32) | l.slot),
            (None, 0) => {
                let l = layout::interleaved_location(id as u64, d.num_banks(args.is_dram()));
                ((l.bank as u64) << 32) | l.slot
            }
            (Some(s), 1) => s.dist.shard_location(id as u64).map_or(none, |l| {
                if extra as u64 >= s.dist.shard_pages().volume() {
                    return none;
                }
                s.dist.host_page(l.bank, l.slot + extra as u64).unwrap_or(none)
            }),
            (Some(s), 2) => s.dist.num_pages(),
            (Some(s), 3) => s.dist.num_shards(),
            (Some(s), 4) => s.dist.shard_pages().volume(),
            (None, _) => none,
            _ => abort(format!(
                "unknown tensim TensorAccessor query {what}: the kernel was built against other tensim headers"
            )),
        }
    })
}

/// The NoC coordinates `x | y << 16` an address names.
pub(super) extern "C-unwind" fn noc_xy(addr: u64) -> u32 {
    ffi::dataflow("a NoC address query", |d| {
        let (x, y) = d.noc_addr_xy(addr);
        x | (y << 16)
    })
}

pub(super) extern "C-unwind" fn noc_state(op: u32, addr: u64, a: u32, b: u32, c: u32) {
    ffi::dataflow("a *_set_state / *_with_state / trid NoC call", |d| match op {
        0 => d.noc_async_read_one_packet_set_state(addr, a),
        1 => d.noc_async_read_one_packet_with_state(a, b),
        2 => d.noc_async_read_set_state(addr),
        3 => d.noc_async_read_with_state(a, b, c),
        // b: posted | vc << 8.
        4 => d.noc_async_write_one_packet_set_state_on_vc(addr, a, b & 1 == 1, (b >> 8) as u8),
        5 => d.noc_async_write_one_packet_with_state(a, b),
        6 if b == 0 => d.noc_async_read_set_trid(a),
        6 => d.noc_async_write_set_trid(a),
        7 => d.noc_async_read_barrier_with_trid(a),
        8 => d.noc_async_write_barrier_with_trid(a),
        9 => d.noc_async_write_flushed_with_trid(a),
        10 => d.noc_async_write_one_packet_with_trid_set_state(addr, a != 0),
        // addr: the size in the low word, the id in the high word.
        11 => d.noc_async_write_one_packet_with_trid_with_state(a, b, addr as u32, (addr >> 32) as u32),
        // c: the NoC.
        12 => d.noc_semaphore_inc_multicast_on(addr, a, b, noc(c)),
        13 => d.noc_async_write_zeros_l1(a, b, noc(c)),
        // a: the value; b: be | set_val << 8 | vc << 16; c: the command buffer.
        14 => {
            let val = ((b >> 8) & 1 == 1).then_some(a);
            d.noc_inline_dw_write_set_state(c as u8, addr, val, b as u8, (b >> 16) as u8)
        }
        // a: the value; addr: the local address; b: update_addr_lo | update_val << 1 | posted << 2; c: the
        // command buffer.
        15 => {
            let lo = (b & 1 == 1).then_some(addr as u32);
            let val = ((b >> 1) & 1 == 1).then_some(a);
            d.noc_inline_dw_write_with_state(c as u8, val, lo, (b >> 2) & 1 == 1)
        }
        _ => abort(format!("unknown tensim NoC state call {op}: the kernel was built against other tensim headers")),
    })
}
