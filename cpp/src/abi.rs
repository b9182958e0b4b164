//! The kernel ABI table: one `extern "C-unwind"` function per call of `tensim/abi.h`, in the same
//! order, each forwarding to the Rust kernel API — so a C++ kernel and its Rust port make the very same
//! calls and get the very same timing.

use crate::ffi::{self, c_str, text};
use sim_core::fiber::abort;
use sim_device::NocId;
use sim_tensix::{
    BroadcastType, DataCopyType, DataFormat, EltwiseBinaryReuseDestType, EltwiseOp, InterleavedAddrGen,
    InterleavedAddrGenFast, PoolType, ReduceDim, SfpuUnary, SlicePtr, SliceRange, SliceStyle, TensorAccessor,
};
use std::collections::HashSet;
use std::ffi::c_char;
use std::sync::{LazyLock, Mutex};

/// The ABI version `tensim/abi.h` declares.
pub const ABI_VERSION: u32 = 5;

/// The table (`struct tensim_api` of `tensim/abi.h`).
#[repr(C)]
pub struct TensimApi {
    version: u32,
    arg: extern "C-unwind" fn(u32) -> u32,
    common_arg: extern "C-unwind" fn(u32) -> u32,
    dprint: extern "C-unwind" fn(*const u8, u32),
    zone: extern "C-unwind" fn(*const c_char, u32),
    cb: extern "C-unwind" fn(u32, u32, u32),
    query: extern "C-unwind" fn(u32, u32, u32) -> u32,
    noc_addr_xy: extern "C-unwind" fn(u32, u32, u32, u32) -> u64,
    noc_addr_bank: extern "C-unwind" fn(u32, u32, u32, u32) -> u64,
    noc_addr_page: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32, u32, u32) -> u64,
    noc_addr_mcast: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32) -> u64,
    read: extern "C-unwind" fn(u64, u32, u32, u32),
    write: extern "C-unwind" fn(u32, u64, u32, u32, u32),
    read_page: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32, u32, u32, u32),
    write_page: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32, u32, u32, u32),
    write_mcast: extern "C-unwind" fn(u32, u64, u32, u32, u32, u32, u32),
    barrier: extern "C-unwind" fn(u32, u32),
    sem_wait: extern "C-unwind" fn(u32, u32, u32),
    sem_set: extern "C-unwind" fn(u32, u32),
    sem_inc: extern "C-unwind" fn(u64, u32, u32),
    sem_set_remote: extern "C-unwind" fn(u32, u64, u32),
    sem_set_mcast: extern "C-unwind" fn(u32, u64, u32, u32, u32, u32),
    inline_write: extern "C-unwind" fn(u64, u32, u32),
    compute: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32, u32),
    ta_noc_addr: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32, u32) -> u64,
    ta_read: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32, u32),
    ta_write: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32, u32),
    sfpi: extern "C-unwind" fn(u32, i32, u32, *mut f32, *const u8) -> u32,
    l1_size: extern "C-unwind" fn() -> u32,
    l1_access: extern "C-unwind" fn(u32, u32),
    tile_slice: extern "C-unwind" fn(u32, u32, u64, u32, *mut u8, u32) -> u32,
}

/// The one table every kernel gets.
pub static TABLE: TensimApi = TensimApi {
    version: ABI_VERSION,
    arg,
    common_arg,
    dprint,
    zone,
    cb,
    query,
    noc_addr_xy,
    noc_addr_bank,
    noc_addr_page,
    noc_addr_mcast,
    read,
    write,
    read_page,
    write_page,
    write_mcast,
    barrier,
    sem_wait,
    sem_set,
    sem_inc,
    sem_set_remote,
    sem_set_mcast,
    inline_write,
    compute,
    ta_noc_addr,
    ta_read,
    ta_write,
    sfpi,
    l1_size,
    l1_access,
    tile_slice,
};

fn noc(n: u32) -> NocId {
    if n == 0 { NocId::Noc0 } else { NocId::Noc1 }
}

/// The data format of tt-metal's numeric code, if tensim models it.
pub(crate) fn format_from_code(code: u32) -> Option<DataFormat> {
    Some(match code {
        0 => DataFormat::Float32,
        1 => DataFormat::Float16,
        5 => DataFormat::Float16_b,
        6 => DataFormat::Bfp8_b,
        7 => DataFormat::Bfp4_b,
        8 => DataFormat::Int32,
        9 => DataFormat::UInt16,
        15 => DataFormat::Bfp2_b,
        24 => DataFormat::UInt32,
        30 => DataFormat::UInt8,
        _ => return None,
    })
}

fn format(code: u32) -> DataFormat {
    format_from_code(code).unwrap_or_else(|| {
        abort(format!(
            "not modelled: DataFormat code {code} (tensim models Float32, Float16, Float16_b, Bfp8_b, Bfp4_b, Bfp2_b, Int32, UInt32, UInt16, UInt8)"
        ))
    })
}

/// tt-metal's numeric code of a data format (`DataFormat` in `tensim/common.h`).
pub fn format_code(f: DataFormat) -> u32 {
    match f {
        DataFormat::Float32 => 0,
        DataFormat::Float16 => 1,
        DataFormat::Float16_b => 5,
        DataFormat::Bfp8_b => 6,
        DataFormat::Bfp4_b => 7,
        DataFormat::Bfp2_b => 15,
        DataFormat::Int32 => 8,
        DataFormat::UInt32 => 24,
        DataFormat::UInt16 => 9,
        DataFormat::UInt8 => 30,
    }
}

/// A call both kinds of kernel make: `on_compute` or `on_dataflow` on the running kernel's context.
fn either<R>(
    api: &str,
    on_compute: impl FnOnce(&mut sim_tensix::Compute<'_>) -> R,
    on_dataflow: impl FnOnce(&mut sim_tensix::Dataflow<'_>) -> R,
) -> R {
    if ffi::is_compute() { ffi::compute(api, on_compute) } else { ffi::dataflow(api, on_dataflow) }
}

extern "C-unwind" fn arg(i: u32) -> u32 {
    either("get_arg_val", |c| c.get_arg_val(i as usize), |d| d.get_arg_val(i as usize))
}

extern "C-unwind" fn common_arg(i: u32) -> u32 {
    either("get_common_arg_val", |c| c.get_common_arg_val(i as usize), |d| d.get_common_arg_val(i as usize))
}

extern "C-unwind" fn dprint(ptr: *const u8, len: u32) {
    let t = text(ptr, len);
    let t = t.strip_suffix('\n').unwrap_or(&t).to_string();
    either("DPRINT", |c| c.dprint(&t), |d| d.dprint(&t))
}

/// Zone names live as long as the process (a kernel names few).
fn intern(name: String) -> &'static str {
    static NAMES: LazyLock<Mutex<HashSet<&'static str>>> = LazyLock::new(Default::default);
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.get(name.as_str()) {
        return n;
    }
    let leaked: &'static str = Box::leak(name.into_boxed_str());
    names.insert(leaked);
    leaked
}

extern "C-unwind" fn zone(name: *const c_char, begin: u32) {
    if ffi::is_compute() {
        return; // Zones are recorded for data-movement kernels.
    }
    if begin != 0 {
        let n = intern(c_str(name));
        ffi::dataflow("DeviceZoneScopedN", |d| d.zone_begin(n));
    } else {
        ffi::dataflow("DeviceZoneScopedN", |d| d.zone_end());
    }
}

extern "C-unwind" fn cb(op: u32, cb: u32, n: u32) {
    either(
        "a circular-buffer call",
        |c| match op {
            0 => c.cb_reserve_back(cb, n),
            1 => c.cb_push_back(cb, n),
            2 => c.cb_wait_front(cb, n),
            _ => c.cb_pop_front(cb, n),
        },
        |d| match op {
            0 => d.cb_reserve_back(cb, n),
            1 => d.cb_push_back(cb, n),
            2 => d.cb_wait_front(cb, n),
            _ => d.cb_pop_front(cb, n),
        },
    )
}

extern "C-unwind" fn query(what: u32, a: u32, b: u32) -> u32 {
    if let 15 | 16 = what {
        let common = what == 16;
        return either(
            "get_arg_addr",
            |c| if common { c.get_common_arg_addr(a as usize) } else { c.get_arg_addr(a as usize) },
            |d| if common { d.get_common_arg_addr(a as usize) } else { d.get_arg_addr(a as usize) },
        );
    }
    ffi::dataflow("a data-movement query", |d| match what {
        0 => d.get_write_ptr(a),
        1 => d.get_read_ptr(a),
        2 => d.get_tile_size(a),
        3 => format_code(d.get_dataformat(a)),
        4 => d.get_tile_hw(a),
        5 => d.get_tile_num_faces(a),
        6 => d.cb_pages_reservable_at_back(a, b) as u32,
        7 => d.cb_pages_available_at_front(a, b) as u32,
        8 => d.my_x(noc(a)),
        9 => d.my_y(noc(a)),
        10 => d.get_absolute_logical_x(),
        11 => d.get_absolute_logical_y(),
        12 => d.get_semaphore(a),
        _ => abort(format!("unknown tensim query {what}: the kernel was built against other tensim headers")),
    })
}

extern "C-unwind" fn noc_addr_xy(x: u32, y: u32, addr: u32, _noc: u32) -> u64 {
    ffi::dataflow("get_noc_addr", |d| d.get_noc_addr(x, y, addr))
}

extern "C-unwind" fn noc_addr_bank(dram: u32, bank: u32, offset: u32, _noc: u32) -> u64 {
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
extern "C-unwind" fn noc_addr_page(
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

extern "C-unwind" fn noc_addr_mcast(xs: u32, ys: u32, xe: u32, ye: u32, addr: u32, _noc: u32) -> u64 {
    ffi::dataflow("get_noc_multicast_addr", |d| d.get_noc_multicast_addr(xs, ys, xe, ye, addr))
}

extern "C-unwind" fn read(src: u64, dst: u32, size: u32, n: u32) {
    ffi::dataflow("noc_async_read", |d| {
        if noc(n) == d.noc_index() {
            d.noc_async_read(src, dst, size)
        } else {
            d.noc_async_read_on(src, dst, size, noc(n))
        }
    })
}

extern "C-unwind" fn write(src: u32, dst: u64, size: u32, n: u32, posted: u32) {
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
extern "C-unwind" fn read_page(
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
extern "C-unwind" fn write_page(
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

extern "C-unwind" fn write_mcast(src: u32, dst: u64, size: u32, dests: u32, linked: u32, loopback: u32, _noc: u32) {
    ffi::dataflow("noc_async_write_multicast", |d| {
        if loopback != 0 {
            d.noc_async_write_multicast_loopback_src(src, dst, size, dests, linked != 0)
        } else {
            d.noc_async_write_multicast(src, dst, size, dests, linked != 0)
        }
    })
}

extern "C-unwind" fn barrier(which: u32, n: u32) {
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

extern "C-unwind" fn sem_wait(addr: u32, val: u32, min: u32) {
    ffi::dataflow("noc_semaphore_wait", |d| {
        if min != 0 { d.noc_semaphore_wait_min(addr, val) } else { d.noc_semaphore_wait(addr, val) }
    })
}

extern "C-unwind" fn sem_set(addr: u32, val: u32) {
    ffi::dataflow("noc_semaphore_set", |d| d.noc_semaphore_set(addr, val))
}

extern "C-unwind" fn sem_inc(addr: u64, incr: u32, n: u32) {
    ffi::dataflow("noc_semaphore_inc", |d| {
        if noc(n) == d.noc_index() {
            d.noc_semaphore_inc(addr, incr)
        } else {
            d.noc_semaphore_inc_on(addr, incr, noc(n))
        }
    })
}

extern "C-unwind" fn sem_set_remote(src: u32, dst: u64, _noc: u32) {
    ffi::dataflow("noc_semaphore_set_remote", |d| d.noc_semaphore_set_remote(src, dst))
}

extern "C-unwind" fn sem_set_mcast(src: u32, dst: u64, dests: u32, linked: u32, loopback: u32, _noc: u32) {
    ffi::dataflow("noc_semaphore_set_multicast", |d| {
        if loopback != 0 {
            d.noc_semaphore_set_multicast_loopback_src(src, dst, dests, linked != 0)
        } else {
            d.noc_semaphore_set_multicast(src, dst, dests, linked != 0)
        }
    })
}

extern "C-unwind" fn inline_write(addr: u64, val: u32, _noc: u32) {
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

extern "C-unwind" fn ta_noc_addr(cta: u32, base: u32, page: u32, id: u32, off: u32, _noc: u32, shard: u32) -> u64 {
    ffi::dataflow("TensorAccessor::get_noc_addr", |d| {
        let a = accessor(d, cta, base, page);
        if shard != 0 { d.get_shard_noc_addr(&a, id, off) } else { d.get_noc_addr_page(id, &a, off) }
    })
}

extern "C-unwind" fn ta_read(cta: u32, base: u32, page: u32, id: u32, l1: u32, off: u32, _noc: u32) {
    ffi::dataflow("noc_async_read_page", |d| {
        let a = accessor(d, cta, base, page);
        d.noc_async_read_page(id, &a, l1, off)
    })
}

extern "C-unwind" fn ta_write(cta: u32, base: u32, page: u32, id: u32, l1: u32, size: u32, _noc: u32) {
    ffi::dataflow("noc_async_write_page", |d| {
        let a = accessor(d, cta, base, page);
        d.noc_async_write_page(id, &a, l1, size, 0)
    })
}

fn sfpu(code: u32, param: u32) -> SfpuUnary {
    match code {
        0 => SfpuUnary::Exp,
        1 => SfpuUnary::Recip,
        2 => SfpuUnary::Sqrt,
        3 => SfpuUnary::Rsqrt,
        4 => SfpuUnary::Log,
        5 => SfpuUnary::Sigmoid,
        6 => SfpuUnary::Tanh,
        7 => SfpuUnary::Gelu,
        8 => SfpuUnary::Relu,
        9 => SfpuUnary::Abs,
        10 => SfpuUnary::Square,
        11 => SfpuUnary::Power(param),
        _ => abort(format!("unknown SFPU operation {code}: the kernel was built against other tensim headers")),
    }
}

fn datacopy(kind: u32) -> DataCopyType {
    match kind {
        0 => DataCopyType::A2D,
        1 => DataCopyType::B2D,
        _ => abort(format!("unknown datacopy type {kind}: the kernel was built against other tensim headers")),
    }
}

/// Operation codes of `tensim/compute_ops.h`.
extern "C-unwind" fn compute(op: u32, a: u32, b: u32, c3: u32, d4: u32, e5: u32, f6: u32) {
    ffi::compute("a compute call", |c| match op {
        0 => c.compute_kernel_hw_startup(a, b, c3),
        1 => c.binary_op_init_common(a, b, c3),
        2 => c.unary_op_init_common(a, b),
        3 => match a {
            0 => c.add_tiles_init(b, c3, d4 != 0),
            1 => c.sub_tiles_init(b, c3, d4 != 0),
            _ => c.mul_tiles_init(b, c3),
        },
        4 => match a {
            0 => c.add_tiles(b, c3, d4, e5, f6),
            1 => c.sub_tiles(b, c3, d4, e5, f6),
            _ => c.mul_tiles(b, c3, d4, e5, f6),
        },
        5 => match a {
            0 => c.tile_regs_acquire(),
            1 => c.tile_regs_commit(),
            2 => c.tile_regs_wait(),
            3 => c.tile_regs_release(),
            4 => c.acquire_dst(),
            _ => c.release_dst(),
        },
        6 => {
            if c3 != 0 {
                c.pack_tile_ooo(a, b, d4)
            } else {
                c.pack_tile(a, b)
            }
        }
        7 => {
            if b != 0 {
                c.copy_tile_to_dst_init_short(a, b)
            } else {
                c.copy_tile_init(a)
            }
        }
        8 => c.copy_tile(a, b, c3),
        9 => c.mm_init(a, b, c3, d4),
        10 => c.mm_init_short(a, b, c3),
        11 => c.matmul_tiles(a, b, c3, d4, e5),
        12 => match sfpu(a, 0) {
            SfpuUnary::Exp => c.exp_tile_init(),
            SfpuUnary::Recip => c.recip_tile_init(),
            SfpuUnary::Sqrt => c.sqrt_tile_init(),
            SfpuUnary::Rsqrt => c.rsqrt_tile_init(),
            SfpuUnary::Log => c.log_tile_init(),
            SfpuUnary::Sigmoid => c.sigmoid_tile_init(),
            SfpuUnary::Tanh => c.tanh_tile_init(),
            SfpuUnary::Gelu => c.gelu_tile_init(),
            SfpuUnary::Relu => c.relu_tile_init(),
            SfpuUnary::Abs => c.abs_tile_init(),
            SfpuUnary::Square => c.square_tile_init(),
            SfpuUnary::Power(_) => c.power_tile_init(),
        },
        13 => c.sfpu_unary(sfpu(a, c3), b),
        14 => c.pack_reconfig_data_format(a),
        15 => c.reconfig_data_format(a, b),
        16 => c.pack_tile_block(a, b, c3),
        17 => c.llk_unpack_ab_init(a, b),
        18 => c.llk_unpack_ab(a, b, c3, d4),
        19 => c.llk_math_eltwise_unary_datacopy_init(datacopy(a), b),
        20 => c.llk_math_eltwise_unary_datacopy(datacopy(a), b),
        21 => match a {
            0 => c.add_binary_tile_init(),
            1 => c.sub_binary_tile_init(),
            2 => c.mul_binary_tile_init(),
            _ => c.div_binary_tile_init(),
        },
        22 => match a {
            0 => c.add_binary_tile(b, c3, d4),
            1 => c.sub_binary_tile(b, c3, d4),
            2 => c.mul_binary_tile(b, c3, d4),
            _ => c.div_binary_tile(b, c3, d4),
        },
        23 => {
            if f6 != 0 {
                c.binary_op_init_common(c3, d4, e5);
            }
            c.init_bcast(eltwise(a), bcast(b), c3, d4)
        }
        24 => c.tiles_bcast(eltwise(a & 0xff), bcast(a >> 8), b, c3, d4, e5, f6),
        25 => c.reduce_init(pool(a), reduce_dim(b), c3, d4, e5),
        26 => c.reduce_tile(pool(a & 0xff), reduce_dim(a >> 8), b, c3, d4, e5, f6),
        27 => c.reduce_uninit(),
        28 => {
            if c3 != 0 {
                c.transpose_wh_init(a, b)
            } else {
                c.transpose_wh_init_short(a)
            }
        }
        29 => c.transpose_wh_tile(a, b, c3),
        30 => c.mm_init_short_with_dt(a, b, c3, d4),
        31 => c.matmul_block(a & 0xff, (a >> 8) & 0xff, b, c3, d4, (a >> 16) & 1, e5 & 0xffff, e5 >> 16, f6),
        32 => c.copy_tile_to_dst_init_short_with_dt(a, b, c3),
        33 => c.reconfig_data_format_srca(a),
        34 => c.pack_reconfig_l1_acc(a),
        35 => c.binary_dest_reuse_tiles_init(eltwise(a), reuse(b), c3),
        36 => c.binary_dest_reuse_tiles(eltwise(a & 0xff), reuse(a >> 8), b, c3, d4),
        37 => match a {
            0 => c.tilize_init(b, c3, d4),
            1 if e5 != 0 || f6 != 0 => abort(format!(
                "tilize_block with input tile index {e5} and output tile index {f6}: not modelled: tile offsets \
                 other than 0 (pop and push the CBs instead)"
            )),
            1 => c.tilize_block(b, c3, d4),
            _ => c.tilize_uninit(b, d4),
        },
        38 => match a {
            0 => c.untilize_init(b),
            1 => c.untilize_block(b, c3, d4),
            _ => c.untilize_uninit(b),
        },
        39 => match a {
            0 => c.pack_untilize_init(b, d4),
            1 => c.pack_untilize_block(b, c3, d4, e5 & 0xffff, e5 >> 16, f6),
            _ => c.pack_untilize_uninit(d4),
        },
        _ => abort(format!("unknown compute operation {op}: the kernel was built against other tensim headers")),
    })
}

/// tensim's binary kind (0 add, 1 sub, 2 mul; the headers map EltwiseBinaryType onto it).
fn eltwise(kind: u32) -> EltwiseOp {
    match kind {
        0 => EltwiseOp::Add,
        1 => EltwiseOp::Sub,
        2 => EltwiseOp::Mul,
        _ => abort(
            "not modelled: an FPU broadcast or DST-reuse operation other than add, sub and mul (ELWDIV, ELWMAX)".into(),
        ),
    }
}

/// `BroadcastType` of the headers: NONE, COL, ROW, SCALAR.
fn bcast(code: u32) -> BroadcastType {
    match code {
        0 => BroadcastType::None,
        1 => BroadcastType::Col,
        2 => BroadcastType::Row,
        3 => BroadcastType::Scalar,
        _ => abort(format!("unknown BroadcastType {code}: the kernel was built against other tensim headers")),
    }
}

/// `PoolType` of the headers: SUM, AVG, MAX, MIN.
fn pool(code: u32) -> PoolType {
    match code {
        0 => PoolType::Sum,
        1 => PoolType::Avg,
        2 => PoolType::Max,
        3 => abort("not modelled: reductions with PoolType::MIN (SUM, AVG and MAX are)".into()),
        _ => abort(format!("unknown PoolType {code}: the kernel was built against other tensim headers")),
    }
}

/// `ReduceDim` of the headers: REDUCE_ROW, REDUCE_COL, REDUCE_SCALAR.
fn reduce_dim(code: u32) -> ReduceDim {
    match code {
        0 => ReduceDim::Row,
        1 => ReduceDim::Col,
        2 => ReduceDim::Scalar,
        _ => abort(format!("unknown ReduceDim {code}: the kernel was built against other tensim headers")),
    }
}

/// `EltwiseBinaryReuseDestType` of the headers: NONE, DEST_TO_SRCA, DEST_TO_SRCB.
fn reuse(code: u32) -> EltwiseBinaryReuseDestType {
    match code {
        1 => EltwiseBinaryReuseDestType::DEST_TO_SRCA,
        2 => EltwiseBinaryReuseDestType::DEST_TO_SRCB,
        _ => abort("binary_dest_reuse_tiles needs DEST_TO_SRCA or DEST_TO_SRCB (NONE reuses nothing)".into()),
    }
}

/// Lanes of the vectors the SFPI header passes (`tensim::sfpi::MAX_LANES`).
const SFPI_LANES: usize = sim_tensix::compute::sfpi::MAX_LANES;

/// The SFPI model's DST access (`tensim/sfpi.h`): 0 open (a = wrapper, b = start tile; returns the lanes,
/// 0 when not MATH), 1 seek (a = tile, b = face), 2 load `dst_reg[a]` into `data`, 3 store floats and
/// 4 store integer bits from `data` to `dst_reg[a]` on the lanes of `mask` (one byte per lane; null = all),
/// 5 advance the pointer, 6 close (b = instructions the header counted).
extern "C-unwind" fn sfpi(op: u32, a: i32, b: u32, data: *mut f32, mask: *const u8) -> u32 {
    ffi::compute("an SFPI call", |c| match op {
        0 => c.sfpi_open(a.max(0) as usize, b),
        1 => {
            c.sfpi_session("the SFPU face walk").seek(a.max(0) as usize, b as usize);
            0
        }
        2 => {
            let mut v = [0f32; SFPI_LANES];
            c.sfpi_session("a dst_reg read").load_lanes(a as isize, &mut v);
            ffi::write_slice(data, &v);
            0
        }
        3 | 4 => {
            // Copied onto the stack: one store per vector instruction, no allocation.
            let mut vals = [0f32; SFPI_LANES];
            let src = ffi::read_slice(data as *const f32, SFPI_LANES);
            if src.len() != SFPI_LANES {
                abort("a dst_reg write without its lanes: the kernel was built against other tensim headers".into());
            }
            vals.copy_from_slice(src);
            let mut en = [true; SFPI_LANES];
            for (e, &m) in en.iter_mut().zip(ffi::read_slice(mask, SFPI_LANES)) {
                *e = m != 0;
            }
            c.sfpi_session("a dst_reg write").store_lanes(a as isize, &vals, Some(&en), op == 3);
            0
        }
        5 => {
            c.sfpi_session("dst_reg++").advance();
            0
        }
        6 => {
            c.sfpi_close(b as u64);
            0
        }
        _ => abort(format!("unknown SFPI call {op}: the kernel was built against other tensim headers")),
    })
}

/// The size of the running kernel's core's L1 in bytes (the headers' bound for pointer accesses).
extern "C-unwind" fn l1_size() -> u32 {
    either("l1_size", |c| c.l1_size_bytes(), |d| d.l1_size_bytes())
}

/// The kernel is about to load (`store` 0) or store `bytes` through an L1 pointer (`tensim/l1_access.h`).
extern "C-unwind" fn l1_access(bytes: u32, store: u32) {
    let store = store != 0;
    either("an L1 pointer access", |c| c.l1_pointer_access(bytes, store), |d| d.l1_pointer_access(bytes, store));
    if store {
        ffi::mark_store();
    }
}

extern "C-unwind" fn tile_slice(cb: u32, tile: u32, range: u64, flags: u32, out: *mut u8, cap: u32) -> u32 {
    let b = |i: u32| (range >> (8 * i)) as u8;
    let range = SliceRange { h0: b(0), h1: b(1), hs: b(2), w0: b(3), w1: b(4), ws: b(5) };
    let ptr = if flags & 1 != 0 { SlicePtr::Write } else { SlicePtr::Read };
    let style = SliceStyle { endl_rows: flags & 2 != 0, untilized: flags & 4 != 0, precision: (flags >> 8) as usize };
    let text =
        either("TSLICE", |c| c.tile_slice(cb, tile, range, ptr, style), |d| d.tile_slice(cb, tile, range, ptr, style));
    if !out.is_null() {
        ffi::write_slice(out, &text.as_bytes()[..text.len().min(cap as usize)]);
    }
    text.len() as u32
}
