//! The kernel ABI table: one `extern "C-unwind"` function per call of `tensim/abi.h`, in the same
//! order, each forwarding to the Rust kernel API — so a C++ kernel and its Rust port make the very same
//! calls and get the very same timing.

mod compute;
mod dataflow;
mod multichip;

use crate::ffi::{self, c_str, text};
use compute::{compute, sfpi};
use dataflow::{
    barrier, inline_write, noc_addr_bank, noc_addr_mcast, noc_addr_page, noc_addr_xy, noc_state, noc_xy, read,
    read_page, sem_inc, sem_set, sem_set_mcast, sem_set_remote, sem_wait, ta_info, ta_noc_addr, ta_read, ta_write,
    write, write_mcast, write_page,
};
use sim_core::fiber::abort;
use sim_device::NocId;
use sim_tensix::{DataFormat, SlicePtr, SliceRange, SliceStyle};
use std::collections::HashSet;
use std::ffi::{c_char, c_void};
use std::sync::{LazyLock, Mutex};

/// The ABI version `tensim/abi.h` declares.
pub const ABI_VERSION: u32 = 10;

/// The table (`struct tensim_api` of `tensim/abi.h`).
#[repr(C)]
pub struct TensimApi {
    pub(crate) version: u32,
    pub(crate) arg: extern "C-unwind" fn(u32) -> u32,
    pub(crate) common_arg: extern "C-unwind" fn(u32) -> u32,
    pub(crate) dprint: extern "C-unwind" fn(*const c_char, u32),
    pub(crate) zone: extern "C-unwind" fn(*const c_char, u32),
    pub(crate) cb: extern "C-unwind" fn(u32, u32, u32),
    pub(crate) query: extern "C-unwind" fn(u32, u32, u32) -> u32,
    pub(crate) noc_addr_xy: extern "C-unwind" fn(u32, u32, u32, u32) -> u64,
    pub(crate) noc_addr_bank: extern "C-unwind" fn(u32, u32, u32, u32) -> u64,
    pub(crate) noc_addr_page: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32, u32, u32) -> u64,
    pub(crate) noc_addr_mcast: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32) -> u64,
    pub(crate) read: extern "C-unwind" fn(u64, u32, u32, u32),
    pub(crate) write: extern "C-unwind" fn(u32, u64, u32, u32, u32),
    pub(crate) read_page: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32, u32, u32, u32),
    pub(crate) write_page: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32, u32, u32, u32),
    pub(crate) write_mcast: extern "C-unwind" fn(u32, u64, u32, u32, u32, u32, u32),
    pub(crate) barrier: extern "C-unwind" fn(u32, u32),
    pub(crate) sem_wait: extern "C-unwind" fn(u32, u32, u32),
    pub(crate) sem_set: extern "C-unwind" fn(u32, u32),
    pub(crate) sem_inc: extern "C-unwind" fn(u64, u32, u32),
    pub(crate) sem_set_remote: extern "C-unwind" fn(u32, u64, u32),
    pub(crate) sem_set_mcast: extern "C-unwind" fn(u32, u64, u32, u32, u32, u32),
    pub(crate) inline_write: extern "C-unwind" fn(u64, u32, u32),
    pub(crate) compute: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32, u32),
    pub(crate) ta_noc_addr: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32, u32) -> u64,
    pub(crate) ta_read: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32, u32),
    pub(crate) ta_write: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32, u32),
    pub(crate) sfpi: extern "C-unwind" fn(u32, i32, u32, *mut f32, *const u8) -> u32,
    pub(crate) l1_size: extern "C-unwind" fn() -> u32,
    pub(crate) l1_access: extern "C-unwind" fn(u32, u32, u32) -> u32,
    pub(crate) tile_slice: extern "C-unwind" fn(u32, u32, u64, u32, *mut c_char, u32) -> u32,
    pub(crate) timestamped_data: extern "C-unwind" fn(*const c_char, u64),
    pub(crate) noc_state: extern "C-unwind" fn(u32, u64, u32, u32, u32),
    pub(crate) eth: extern "C-unwind" fn(u32, u32, u32, u32, u32, u32) -> u32,
    pub(crate) fabric: extern "C-unwind" fn(u32, *mut u32, *const u64) -> u32,
    pub(crate) ta_info: extern "C-unwind" fn(u32, u32, u32, u32) -> u64,
    pub(crate) noc_xy: extern "C-unwind" fn(u64) -> u32,
    pub(crate) fail: extern "C-unwind" fn(*const c_char),
    pub(crate) dprint_state: extern "C-unwind" fn(u32, u32) -> u32,
    pub(crate) exit_jump: extern "C-unwind" fn(*mut c_void) -> *mut c_void,
    pub(crate) write_vc: extern "C-unwind" fn(u32, u64, u32, u32, u32, u32),
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
    timestamped_data,
    noc_state,
    eth: multichip::eth,
    fabric: multichip::fabric,
    ta_info,
    noc_xy,
    fail,
    dprint_state,
    exit_jump,
    write_vc: dataflow::write_vc,
};

/// Store (`set` not null) and return the running kernel's exit jump.
extern "C-unwind" fn exit_jump(set: *mut c_void) -> *mut c_void {
    ffi::exit_jump(set)
}

/// The kernel ends with an error (a misuse tensim's headers detect, or an exception the kernel threw).
extern "C-unwind" fn fail(text: *const c_char) {
    abort(c_str(text))
}

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
    api: &'static str,
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

/// A print statement's text, as the kernel made it (lines end at its newlines).
extern "C-unwind" fn dprint(ptr: *const c_char, len: u32) {
    let t = text(ptr.cast(), len);
    either("DPRINT", |c| c.dprint_raw(t.clone()), |d| d.dprint_raw(t.clone()))
}

/// The DPRINT stream's sticky format state of the running RISC: stores `value` first when `set` != 0.
extern "C-unwind" fn dprint_state(set: u32, value: u32) -> u32 {
    either("DPRINT", |c| c.dprint_state(set != 0, value), |d| d.dprint_state(set != 0, value))
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
    if begin != 0 {
        let n = intern(c_str(name));
        either("DeviceZoneScopedN", |c| c.zone_begin(n), |d| d.zone_begin(n));
    } else {
        either("DeviceZoneScopedN", |c| c.zone_end(), |d| d.zone_end());
    }
}

extern "C-unwind" fn timestamped_data(name: *const c_char, data: u64) {
    let n = c_str(name);
    either("DeviceTimestampedData", |c| c.timestamped_data(&n, data), |d| d.timestamped_data(&n, data));
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
    if ffi::is_compute() {
        return ffi::compute("a circular-buffer query", |c| match what {
            0 => c.get_write_ptr(a),
            1 => c.get_read_ptr(a),
            2 => c.get_tile_size(a),
            3 => format_code(c.get_dataformat(a)),
            4 => 1024,
            5 => 4,
            _ => abort(format!("tensim query {what} is for data-movement kernels only (this is a compute kernel)")),
        });
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
        12 => d.get_semaphore_on(
            a,
            if b == 0 { sim_tensix::SemaphoreCore::Worker } else { sim_tensix::SemaphoreCore::Eth },
        ),
        17 => d.get_cb_page_size(a),
        18 => d.get_cb_num_pages(a),
        19 => d.get_cb_size_bytes(a),
        _ => abort(format!("unknown tensim query {what}: the kernel was built against other tensim headers")),
    })
}

/// The size of the running kernel's core's L1 in bytes (the headers' bound for pointer accesses).
extern "C-unwind" fn l1_size() -> u32 {
    either("l1_size", |c| c.l1_size_bytes(), |d| d.l1_size_bytes())
}

/// The kernel is about to load (`store` 0) or store `bytes` at L1 address `addr` through a pointer
/// (`tensim/l1_access.h`). Returns 1 when the kernel must stop: the call unwound (an error, or the run
/// tearing the kernel down while it waited), and the unwinding goes on from the kernel's entry once the
/// hook has jumped back there (`ffi::stop_from_hook`).
extern "C-unwind" fn l1_access(addr: u32, bytes: u32, store: u32) -> u32 {
    let store = store != 0;
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        either(
            "an L1 pointer access",
            |c| c.l1_pointer_access(addr, bytes, store),
            |d| d.l1_pointer_access(addr, bytes, store),
        )
    }));
    match r {
        Ok(()) => {
            if store {
                ffi::mark_store();
            }
            0
        }
        Err(payload) => {
            ffi::stop_from_hook(payload);
            1
        }
    }
}

extern "C-unwind" fn tile_slice(cb: u32, tile: u32, range: u64, flags: u32, out: *mut c_char, cap: u32) -> u32 {
    let out: *mut u8 = out.cast();
    let b = |i: u32| (range >> (8 * i)) as u8;
    let range = SliceRange { h0: b(0), h1: b(1), hs: b(2), w0: b(3), w1: b(4), ws: b(5) };
    let ptr = if flags & 1 != 0 { SlicePtr::Write } else { SlicePtr::Read };
    let style = SliceStyle {
        endl_rows: flags & 2 != 0,
        untilized: flags & 4 != 0,
        precision: (flags >> 8 & 0xff) as usize,
        fixed: flags & 8 != 0,
    };
    let text =
        either("TSLICE", |c| c.tile_slice(cb, tile, range, ptr, style), |d| d.tile_slice(cb, tile, range, ptr, style));
    if !out.is_null() {
        ffi::write_slice(out, &text.as_bytes()[..text.len().min(cap as usize)]);
    }
    text.len() as u32
}
