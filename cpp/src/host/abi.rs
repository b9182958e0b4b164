//! The host ABI table: one `extern "C"` function per call of `tensim/host_abi.h`, in the same order, each
//! forwarding to tensim's Rust host API on this thread's session. Errors (and panics) become a non-zero
//! return and a message the C++ side throws as tt-metal does.

use super::call::{last_error, on_session, open_one, ranges};
use super::session::Session;
use crate::abi::format_from_code;
use crate::ffi::{c_string, read_slice, set_out, write_slice};
use sim_device::buffer::BufferType;
use sim_device::program::{
    CircularBufferConfig, ComputeConfig, DataMovementConfig, EthMode, EthernetConfig, KernelConfig, MathFidelity,
    NocMode, UnpackToDestMode,
};
use sim_device::{Arch, CoreCoord, NocId};
use sim_tensix::DataMovementProcessor;
use std::ffi::{c_char, c_void};

/// The ABI version `tensim/host_abi.h` declares.
pub const HOST_ABI_VERSION: u32 = 5;

/// `struct tensim_kernel_config`.
#[repr(C)]
pub struct KernelConfigC {
    kind: u32,
    processor: u32,
    noc: u32,
    noc_mode: u32,
    math_fidelity: u32,
    fp32_dest_acc_en: u32,
    dst_full_sync_en: u32,
    math_approx_mode: u32,
    eth_mode: u32,
    compile_args: *const u32,
    num_compile_args: u32,
    define_keys: *const *const c_char,
    define_values: *const *const c_char,
    num_defines: u32,
    named_keys: *const *const c_char,
    named_values: *const u32,
    num_named: u32,
    unpack_to_dest: *const u32,
    num_unpack_to_dest: u32,
}

/// `struct tensim_host_api`.
#[repr(C)]
pub struct HostApi {
    pub(crate) version: u32,
    pub(crate) last_error: extern "C" fn() -> *const c_char,
    pub(crate) num_devices: extern "C" fn(*mut u32) -> i32,
    pub(crate) open_device: extern "C" fn(i32, *mut u32) -> i32,
    pub(crate) close_device: extern "C" fn(u32) -> i32,
    pub(crate) device_query: extern "C" fn(u32, u32, u32, u32, *mut u64) -> i32,
    pub(crate) create_buffer: extern "C" fn(u32, u64, u64, u32, u32, *const u32, u32, u64, *mut u32) -> i32,
    pub(crate) buffer_query: extern "C" fn(u32, u32, *mut u64) -> i32,
    pub(crate) free_buffer: extern "C" fn(u32) -> i32,
    pub(crate) write_buffer: extern "C" fn(u32, *const c_void, u64) -> i32,
    pub(crate) read_buffer: extern "C" fn(u32, *mut c_void, u64) -> i32,
    pub(crate) l1: extern "C" fn(u32, u32, u32, u32, *mut c_void, u64, u32) -> i32,
    pub(crate) create_program: extern "C" fn(*mut u32) -> i32,
    pub(crate) free_program: extern "C" fn(u32) -> i32,
    pub(crate) create_kernel:
        extern "C" fn(u32, *const c_char, *const c_char, *const u32, u32, *const KernelConfigC, *mut u32) -> i32,
    pub(crate) create_cb: extern "C" fn(u32, *const u32, u32, u32, *const u32, u32, i64, *mut u32) -> i32,
    pub(crate) update_cb: extern "C" fn(u32, u32, u32, i64) -> i32,
    pub(crate) create_semaphore: extern "C" fn(u32, *const u32, u32, u32, u32, *mut u32) -> i32,
    pub(crate) set_args: extern "C" fn(u32, u32, u32, u32, u32, *const u32, u32) -> i32,
    pub(crate) run_program: extern "C" fn(u32, u32) -> i32,
    pub(crate) accessor_args: extern "C" fn(u32, u32, *mut u32, u32, *mut u32, *mut u32) -> i32,
    pub(crate) open_mesh: extern "C" fn(u32, u32, *mut u32) -> i32,
    pub(crate) set_fabric: extern "C" fn(u32) -> i32,
    pub(crate) run_mesh: extern "C" fn(*const i64, u32) -> i32,
    pub(crate) fabric_args: extern "C" fn(u32, u32, u32, u32, u32, u32, *mut u32, u32, *mut u32) -> i32,
    pub(crate) accessor_appended: extern "C" fn(u32, *const u32, u32) -> i32,
    pub(crate) update_cb_page_size: extern "C" fn(u32, u32, u32, u32) -> i32,
    pub(crate) buffer_region: extern "C" fn(u32, u64, *mut c_void, u64, u32) -> i32,
}

/// The one table host programs get.
pub static HOST_TABLE: HostApi = HostApi {
    version: HOST_ABI_VERSION,
    last_error,
    num_devices,
    open_device,
    close_device,
    device_query,
    create_buffer: super::memory::create_buffer,
    buffer_query: super::memory::buffer_query,
    free_buffer: super::memory::free_buffer,
    write_buffer: super::memory::write_buffer,
    read_buffer: super::memory::read_buffer,
    l1: super::memory::l1,
    create_program,
    free_program,
    create_kernel,
    create_cb,
    update_cb,
    create_semaphore,
    set_args,
    run_program,
    accessor_args,
    open_mesh: super::mesh::open_mesh,
    set_fabric: super::mesh::set_fabric,
    run_mesh: super::mesh::run_mesh,
    fabric_args: super::mesh::fabric_args,
    accessor_appended,
    update_cb_page_size,
    buffer_region: super::memory::buffer_region,
};

fn pack(x: u32, y: u32) -> u64 {
    x as u64 | (y as u64) << 32
}

extern "C" fn num_devices(out: *mut u32) -> i32 {
    on_session(|s| {
        set_out(out, s.cfg.num_devices);
        Ok(())
    })
}

extern "C" fn open_device(id: i32, out: *mut u32) -> i32 {
    on_session(|s| {
        let n = s.cfg.num_devices;
        let id = u32::try_from(id)
            .ok()
            .filter(|&i| i < n)
            .ok_or_else(|| format!("CreateDevice({id}): this system has {n} device(s), ids 0..{n}"))?;
        if s.devices.contains_key(&id) {
            return Err(format!("CreateDevice({id}): device {id} is already open"));
        }
        open_one(s, id)?;
        set_out(out, id);
        Ok(())
    })
}

extern "C" fn close_device(dev: u32) -> i32 {
    on_session(|s| {
        s.devices.remove(&dev).ok_or_else(|| format!("CloseDevice: device {dev} is not open"))?;
        for b in &mut s.buffers {
            if b.as_ref().is_some_and(|(d, _)| *d == dev) {
                *b = None;
            }
        }
        Ok(())
    })
}

extern "C" fn device_query(dev: u32, what: u32, a: u32, b: u32, out: *mut u64) -> i32 {
    on_session(|s| {
        // The far end of channel `a` of this device: (device id, channel), when the system links it.
        let peer = s.cfg.system.as_ref().and_then(|sys| {
            let (chip, ch) = (*sys.eth_peers.get(dev as usize)?.get(a as usize)?)?;
            Some((sys.device_of(chip)?, ch))
        });
        let peer = peer.filter(|p| p.0 < s.cfg.num_devices);
        let d = s.device(dev)?;
        let v = match what {
            0 => match d.arch() {
                Arch::Grayskull => 0,
                Arch::WormholeB0 => 1,
                Arch::Blackhole => 2,
            },
            1 => {
                let g = d.compute_with_storage_grid_size();
                pack(g.x, g.y)
            }
            2 => {
                let g = d.logical_grid_size();
                pack(g.x, g.y)
            }
            3 => {
                let g = d.chip().soc().grid;
                pack(g.x, g.y)
            }
            4 => {
                let t = d.worker_core_from_logical_core(CoreCoord::new(a, b)).map_err(|e| e.to_string())?;
                pack(t.x, t.y)
            }
            5 => d.num_dram_channels() as u64,
            6 => d.l1_size_per_core(),
            7 => d.alignment(BufferType::Dram) as u64,
            8 => d.alignment(BufferType::L1) as u64,
            9 => dev as u64,
            10 => pack(d.num_dram_channels() as u32, 1),
            11 => {
                let t = d.eth_core_noc_xy(a).map_err(|e| e.to_string())?;
                pack(t.x, t.y)
            }
            12 => d.num_eth_channels() as u64,
            13 => peer.map_or(u64::MAX, |(dev, ch)| pack(dev, ch)),
            // The allocator of DRAM (a = 0) or L1 (a = 1).
            14..=19 => {
                let st = d.allocator_statistics(if a == 0 { BufferType::Dram } else { BufferType::L1 });
                match what {
                    14 => st.num_banks as u64,
                    15 => st.bank_size_bytes,
                    16 => st.base_address,
                    17 => st.allocated_bytes,
                    18 => st.free_bytes,
                    _ => st.largest_free_block_bytes,
                }
            }
            _ => {
                return Err(format!("unknown device query {what}: the program was built against other tensim headers"));
            }
        };
        set_out(out, v);
        Ok(())
    })
}

extern "C" fn create_program(out: *mut u32) -> i32 {
    on_session(|s| {
        s.programs.push(Some(sim_device::program::Program::new()));
        s.cbs.push(Vec::new());
        s.kernels.push(Vec::new());
        set_out(out, s.programs.len() as u32 - 1);
        Ok(())
    })
}

extern "C" fn free_program(prog: u32) -> i32 {
    on_session(|s| {
        if let Some(p) = s.programs.get_mut(prog as usize) {
            *p = None;
        }
        Ok(())
    })
}

fn strings(ptr: *const *const c_char, n: u32) -> Vec<String> {
    read_slice(ptr, n as usize).iter().map(|&p| c_string(p).unwrap_or_default()).collect()
}

/// The Rust kernel configuration of a C one.
fn kernel_config(c: &KernelConfigC) -> Result<KernelConfig, String> {
    let compile_args = read_slice(c.compile_args, c.num_compile_args as usize).to_vec();
    let defines: Vec<(String, String)> =
        strings(c.define_keys, c.num_defines).into_iter().zip(strings(c.define_values, c.num_defines)).collect();
    let named_compile_args: Vec<(String, u32)> = strings(c.named_keys, c.num_named)
        .into_iter()
        .zip(read_slice(c.named_values, c.num_named as usize).iter().copied())
        .collect();
    let noc = if c.noc == 0 { NocId::Noc0 } else { NocId::Noc1 };
    let processor = match c.processor {
        0 => DataMovementProcessor::RISCV_0,
        1 => DataMovementProcessor::RISCV_1,
        p => {
            return Err(format!(
                "CreateKernel: DataMovementProcessor::RISCV_{p} is not modelled (RISCV_0 and RISCV_1 are)"
            ));
        }
    };
    Ok(match c.kind {
        0 => KernelConfig::DataMovement(DataMovementConfig {
            processor,
            noc,
            noc_mode: if c.noc_mode == 0 { NocMode::Dedicated } else { NocMode::Dynamic },
            compile_args,
            defines,
            named_compile_args,
        }),
        1 => KernelConfig::Compute(ComputeConfig {
            math_fidelity: match c.math_fidelity {
                0 => MathFidelity::LoFi,
                2 => MathFidelity::HiFi2,
                3 => MathFidelity::HiFi3,
                4 => MathFidelity::HiFi4,
                f => return Err(format!("CreateKernel: math fidelity {f} is not LoFi, HiFi2, HiFi3 or HiFi4")),
            },
            fp32_dest_acc_en: c.fp32_dest_acc_en != 0,
            dst_full_sync_en: c.dst_full_sync_en != 0,
            math_approx_mode: c.math_approx_mode != 0,
            unpack_to_dest_mode: read_slice(c.unpack_to_dest, c.num_unpack_to_dest as usize)
                .iter()
                .enumerate()
                .map(|(i, m)| match m {
                    0 => Ok(UnpackToDestMode::UnpackToDestFp32),
                    1 => Ok(UnpackToDestMode::Default),
                    m => Err(format!("CreateKernel: unpack_to_dest_mode[{i}] = {m} is not an UnpackToDestMode")),
                })
                .collect::<Result<_, _>>()?,
            compile_args,
            defines,
            named_compile_args,
        }),
        _ => KernelConfig::Ethernet(EthernetConfig {
            eth_mode: match c.eth_mode {
                0 => EthMode::Sender,
                1 => EthMode::Receiver,
                _ => EthMode::Idle,
            },
            noc,
            processor,
            compile_args,
            defines,
            named_compile_args,
        }),
    })
}

extern "C" fn create_kernel(
    prog: u32,
    path: *const c_char,
    source: *const c_char,
    rs: *const u32,
    nr: u32,
    cfg: *const KernelConfigC,
    out: *mut u32,
) -> i32 {
    on_session(|s| {
        let cores = ranges(rs, nr)?;
        let cfg = kernel_config(read_slice(cfg, 1).first().ok_or("CreateKernel: no config")?)?;
        let file = match c_string(source) {
            Some(src) => s.kernel_from_string(&src)?,
            None => s.find_kernel(&c_string(path).unwrap_or_default())?,
        };
        let compile_args = match &cfg {
            KernelConfig::DataMovement(c) => &c.compile_args,
            KernelConfig::Compute(c) => &c.compile_args,
            KernelConfig::Ethernet(c) => &c.compile_args,
        };
        let blocks = s.accessor_blocks_in(compile_args);
        let kernel =
            crate::kernel_file::kernel_from_file_with(&file, &cfg, s.cfg.arch, &blocks).map_err(|e| e.to_string())?;
        let h = s.program(prog)?.create_kernel(kernel, cores, cfg).map_err(|e| e.to_string())?;
        let ks = &mut s.kernels[prog as usize];
        ks.push(h);
        set_out(out, ks.len() as u32 - 1);
        Ok(())
    })
}

fn cb_buffer(s: &Session, buffer: i64) -> Result<Option<sim_device::Buffer>, String> {
    if buffer < 0 {
        return Ok(None);
    }
    Ok(Some(s.buffer(buffer as u32)?.1.clone()))
}

#[allow(clippy::too_many_arguments)]
extern "C" fn create_cb(
    prog: u32,
    rs: *const u32,
    nr: u32,
    total: u32,
    formats: *const u32,
    nformats: u32,
    buffer: i64,
    out: *mut u32,
) -> i32 {
    on_session(|s| {
        let cores = ranges(rs, nr)?;
        let mut cfg = CircularBufferConfig::new(total, &[] as &[(u32, sim_tensix::DataFormat)]);
        for t in read_slice(formats, nformats as usize * 3).chunks_exact(3) {
            let f = format_from_code(t[1]).ok_or_else(|| {
                format!("CircularBufferConfig: CB {}: data format code {} is not modelled", t[0], t[1])
            })?;
            cfg.formats.push((t[0], f));
            if t[2] != 0 {
                cfg = cfg.set_page_size(t[0], t[2]);
            }
        }
        cfg.globally_allocated = cb_buffer(s, buffer)?;
        let h = s.program(prog)?.create_circular_buffer(cores, cfg).map_err(|e| e.to_string())?;
        let cbs = &mut s.cbs[prog as usize];
        cbs.push(h);
        set_out(out, cbs.len() as u32 - 1);
        Ok(())
    })
}

/// The circular buffer `cb` of program `prog`.
fn cb_handle(s: &Session, prog: u32, cb: u32) -> Result<sim_device::program::CbHandle, String> {
    s.cbs
        .get(prog as usize)
        .and_then(|c| c.get(cb as usize))
        .copied()
        .ok_or_else(|| format!("circular buffer handle {cb} does not exist in program {prog}"))
}

extern "C" fn update_cb(prog: u32, cb: u32, total: u32, buffer: i64) -> i32 {
    on_session(|s| {
        let h = cb_handle(s, prog, cb)?;
        let b = cb_buffer(s, buffer)?;
        let cfg = s.program(prog)?.circular_buffer_config_mut(h).map_err(|e| e.to_string())?;
        if total != 0 {
            if let Some(&(i, p)) = cfg.page_sizes.iter().find(|&&(_, p)| p == 0 || !total.is_multiple_of(p)) {
                return Err(format!(
                    "UpdateCircularBufferTotalSize: total size {total} is not a whole number of pages of buffer index \
                     {i} ({p} bytes)"
                ));
            }
            cfg.total_size = total;
        }
        if b.is_some() {
            cfg.globally_allocated = b;
        }
        Ok(())
    })
}

extern "C" fn update_cb_page_size(prog: u32, cb: u32, index: u32, page_size: u32) -> i32 {
    on_session(|s| {
        let h = cb_handle(s, prog, cb)?;
        let cfg = s.program(prog)?.circular_buffer_config_mut(h).map_err(|e| e.to_string())?;
        if !cfg.formats.iter().any(|&(i, _)| i == index) {
            let have: Vec<String> = cfg.formats.iter().map(|(i, _)| i.to_string()).collect();
            return Err(format!(
                "UpdateCircularBufferPageSize: circular buffer {cb} has no buffer index {index} (it has {})",
                have.join(", ")
            ));
        }
        if page_size == 0 || !cfg.total_size.is_multiple_of(page_size) {
            return Err(format!(
                "UpdateCircularBufferPageSize: page size {page_size} for buffer index {index} does not divide the \
                 circular buffer's total size {} (a circular buffer holds a whole number of pages)",
                cfg.total_size
            ));
        }
        match cfg.page_sizes.iter_mut().find(|(i, _)| *i == index) {
            Some(p) => p.1 = page_size,
            None => cfg.page_sizes.push((index, page_size)),
        }
        Ok(())
    })
}

extern "C" fn create_semaphore(prog: u32, rs: *const u32, nr: u32, init: u32, eth: u32, out: *mut u32) -> i32 {
    on_session(|s| {
        let cores = ranges(rs, nr)?;
        let p = s.program(prog)?;
        let id = if eth != 0 { p.create_eth_semaphore(cores, init) } else { p.create_semaphore(cores, init) }
            .map_err(|e| e.to_string())?;
        set_out(out, id);
        Ok(())
    })
}

extern "C" fn set_args(prog: u32, kernel: u32, x: u32, y: u32, common: u32, args: *const u32, n: u32) -> i32 {
    on_session(|s| {
        let k = s.kernel(prog, kernel)?;
        let args = read_slice(args, n as usize);
        let p = s.program(prog)?;
        if common != 0 { p.set_common_runtime_args(k, args) } else { p.set_runtime_args(k, CoreCoord::new(x, y), args) }
            .map_err(|e| e.to_string())
    })
}

extern "C" fn run_program(dev: u32, prog: u32) -> i32 {
    on_session(|s| {
        let p = s
            .programs
            .get(prog as usize)
            .and_then(Option::as_ref)
            .ok_or_else(|| format!("program handle {prog} does not name a live program"))?;
        let d = s.devices.get_mut(&dev).ok_or_else(|| format!("device {dev} is not open"))?;
        let report = d.enqueue_program(p).map_err(|e| e.to_string())?;
        s.runs += 1;
        (s.cfg.on_run)(dev, d, &report);
        Ok(())
    })
}

extern "C" fn accessor_args(buf: u32, config: u32, out: *mut u32, cap: u32, n_ct: *mut u32, n_crta: *mut u32) -> i32 {
    on_session(|s| {
        let (ct, crta) = sim_device::buffer::tensor_accessor_args_with(Some(&s.buffer(buf)?.1), config)?;
        set_out(n_ct, ct.len() as u32);
        set_out(n_crta, crta.len() as u32);
        let words: Vec<u32> = ct.into_iter().chain(crta).collect();
        write_slice(out, &words[..words.len().min(cap as usize)]);
        Ok(())
    })
}

extern "C" fn accessor_appended(offset: u32, words: *const u32, n: u32) -> i32 {
    on_session(|s| {
        let block = (offset, read_slice(words, n as usize).to_vec());
        if !s.accessor_blocks.contains(&block) {
            s.accessor_blocks.push(block);
        }
        Ok(())
    })
}
