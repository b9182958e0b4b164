//! The data-movement calls of the kernel ABI: NoC addresses, reads and writes (by address, page and
//! TensorAccessor), multicasts, barriers, semaphores, inline writes, command-buffer state and trids.

use super::{format, noc};
use crate::ffi;
use sim_core::fiber::abort;
use sim_tensix::{InterleavedAddrGen, InterleavedAddrGenFast, TensorAccessor};

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
            d.noc_async_write_posted(src, dst, size)
        } else if noc(n) == d.noc_index() {
            d.noc_async_write(src, dst, size)
        } else {
            d.noc_async_write_on(src, dst, size, noc(n))
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
    _noc: u32,
) {
    ffi::dataflow("noc_async_read_page", |d| {
        with_gen!(gen_, dram, base, page, fmt, |g| d.noc_async_read_page(id, &g, l1, off))
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
    _noc: u32,
) {
    ffi::dataflow("noc_async_write_page", |d| {
        with_gen!(gen_, dram, base, page, fmt, |g| d.noc_async_write_page(id, &g, l1, size, 0))
    })
}

pub(super) extern "C-unwind" fn write_mcast(
    src: u32,
    dst: u64,
    size: u32,
    dests: u32,
    linked: u32,
    loopback: u32,
    _noc: u32,
) {
    ffi::dataflow("noc_async_write_multicast", |d| {
        if loopback != 0 {
            d.noc_async_write_multicast_loopback_src(src, dst, size, dests, linked != 0)
        } else {
            d.noc_async_write_multicast(src, dst, size, dests, linked != 0)
        }
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
            2 => d.noc_async_writes_flushed(),
            3 => d.noc_async_posted_writes_flushed(),
            4 => d.noc_async_atomic_barrier(),
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

pub(super) extern "C-unwind" fn sem_inc(addr: u64, incr: u32, n: u32) {
    ffi::dataflow("noc_semaphore_inc", |d| {
        if noc(n) == d.noc_index() {
            d.noc_semaphore_inc(addr, incr)
        } else {
            d.noc_semaphore_inc_on(addr, incr, noc(n))
        }
    })
}

pub(super) extern "C-unwind" fn sem_set_remote(src: u32, dst: u64, _noc: u32) {
    ffi::dataflow("noc_semaphore_set_remote", |d| d.noc_semaphore_set_remote(src, dst))
}

pub(super) extern "C-unwind" fn sem_set_mcast(src: u32, dst: u64, dests: u32, linked: u32, loopback: u32, _noc: u32) {
    ffi::dataflow("noc_semaphore_set_multicast", |d| {
        if loopback != 0 {
            d.noc_semaphore_set_multicast_loopback_src(src, dst, dests, linked != 0)
        } else {
            d.noc_semaphore_set_multicast(src, dst, dests, linked != 0)
        }
    })
}

pub(super) extern "C-unwind" fn inline_write(addr: u64, val: u32, _noc: u32) {
    ffi::dataflow("noc_inline_dw_write", |d| d.noc_inline_dw_write(addr, val))
}

/// The TensorAccessor a kernel describes by its compile-time offset, base address and page size.
fn accessor(d: &sim_tensix::Dataflow<'_>, cta: u32, base: u32, page: u32) -> TensorAccessor {
    let args = d.tensor_accessor_args(cta);
    if page == 0 {
        abort(format!(
            "not modelled: TensorAccessor(args<{cta}>, address) without a page size; pass the page size (e.g. get_tile_size(cb)) as the third argument"
        ));
    }
    TensorAccessor { args, bank_base_address: base, page_size: page }
}

pub(super) extern "C-unwind" fn ta_noc_addr(
    cta: u32,
    base: u32,
    page: u32,
    id: u32,
    off: u32,
    _noc: u32,
    shard: u32,
) -> u64 {
    ffi::dataflow("TensorAccessor::get_noc_addr", |d| {
        let a = accessor(d, cta, base, page);
        if shard != 0 { d.get_shard_noc_addr(&a, id, off) } else { d.get_noc_addr_page(id, &a, off) }
    })
}

pub(super) extern "C-unwind" fn ta_read(cta: u32, base: u32, page: u32, id: u32, l1: u32, off: u32, _noc: u32) {
    ffi::dataflow("noc_async_read_page", |d| {
        let a = accessor(d, cta, base, page);
        d.noc_async_read_page(id, &a, l1, off)
    })
}

pub(super) extern "C-unwind" fn ta_write(cta: u32, base: u32, page: u32, id: u32, l1: u32, size: u32, _noc: u32) {
    ffi::dataflow("noc_async_write_page", |d| {
        let a = accessor(d, cta, base, page);
        d.noc_async_write_page(id, &a, l1, size, 0)
    })
}

pub(super) extern "C-unwind" fn noc_state(op: u32, addr: u64, a: u32, b: u32, c: u32) {
    ffi::dataflow("a *_set_state / *_with_state / trid NoC call", |d| match op {
        0 => d.noc_async_read_one_packet_set_state(addr, a),
        1 => d.noc_async_read_one_packet_with_state(a, b),
        2 => d.noc_async_read_set_state(addr),
        3 => d.noc_async_read_with_state(a, b, c),
        4 => d.noc_async_write_one_packet_set_state(addr, a, b != 0),
        5 => d.noc_async_write_one_packet_with_state(a, b),
        6 if b == 0 => d.noc_async_read_set_trid(a),
        6 => d.noc_async_write_set_trid(a),
        7 => d.noc_async_read_barrier_with_trid(a),
        8 => d.noc_async_write_barrier_with_trid(a),
        9 => d.noc_async_write_flushed_with_trid(a),
        10 => d.noc_async_write_one_packet_with_trid_set_state(addr, a != 0),
        // addr: the size in the low word, the id in the high word.
        11 => d.noc_async_write_one_packet_with_trid_with_state(a, b, addr as u32, (addr >> 32) as u32),
        _ => abort(format!("unknown tensim NoC state call {op}: the kernel was built against other tensim headers")),
    })
}
