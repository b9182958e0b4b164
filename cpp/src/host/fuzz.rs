//! A driver of the host ABI table for fuzzing and property tests: arbitrary bytes become a sequence of
//! host calls with arbitrary (small and extreme) arguments on a fresh session, as a C++ host program
//! could make them. Every call must return 0 or -1 with a message; a caught panic ("internal error") or
//! an empty message is a finding.

use super::abi::HOST_TABLE;
use super::session::{HostConfig, with_session};
use std::ffi::c_void;

/// Reads arguments out of the fuzz input, cycling through interesting values.
struct Input<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Input<'_> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    /// A u32: usually small (handles, coordinates, indices), sometimes extreme.
    fn word(&mut self) -> u32 {
        match self.byte().unwrap_or(0) {
            250 => u32::MAX,
            251 => 1 << 31,
            252 => 0x18_0000,
            253 => 1 << 20,
            254 => {
                let hi = self.byte().unwrap_or(0) as u32;
                let lo = self.byte().unwrap_or(0) as u32;
                (hi << 8 | lo) * 32
            }
            255 => 4096,
            b => (b % 16) as u32,
        }
    }

    fn big(&mut self) -> u64 {
        match self.byte().unwrap_or(0) % 6 {
            0 => self.word() as u64,
            1 => 2048,
            2 => 64 * 2048,
            3 => u64::MAX,
            4 => 1 << 40,
            _ => self.word() as u64 * 1024,
        }
    }

    /// A few words (core-range quadruples, CB formats, runtime args).
    fn words(&mut self, max: usize) -> Vec<u32> {
        let n = self.byte().unwrap_or(0) as usize % (max + 1);
        (0..n).map(|_| self.word()).collect()
    }
}

/// A session of `devices` built-in `arch` chips that records nothing: what the fuzz target and its
/// property-test twin drive.
pub fn builtin_config(arch: sim_device::Arch, devices: u32) -> HostConfig {
    HostConfig {
        advice: Default::default(),
        arch,
        num_devices: devices,
        open: Box::new(move |_| sim_device::Device::builtin(arch).map_err(|e| e.to_string())),
        on_run: Box::new(|_, _, _| {}),
        kernel_roots: Vec::new(),
        system: None,
        workers: 1,
        pick_system: None,
    }
}

/// Drive the host table with `bytes` on a session configured by `cfg`: the number of calls made, or the
/// finding (a call that panicked inside tensim or failed without a message).
pub fn drive(cfg: HostConfig, bytes: &[u8]) -> Result<usize, String> {
    with_session(cfg, || calls(bytes)).0
}

fn calls(bytes: &[u8]) -> Result<usize, String> {
    let t = &HOST_TABLE;
    let mut input = Input { bytes, at: 0 };
    let mut made = 0;
    while let Some(op) = input.byte() {
        let mut out32 = 0u32;
        let mut out64 = 0u64;
        let (name, rc) = match op % 20 {
            0 => ("num_devices", (t.num_devices)(&mut out32)),
            1 => ("open_device", (t.open_device)(input.word() as i32, &mut out32)),
            2 => ("close_device", (t.close_device)(input.word())),
            3 => {
                let (d, w, a, b) = (input.word(), input.word(), input.word(), input.word());
                ("device_query", (t.device_query)(d, w, a, b, &mut out64))
            }
            4 => {
                let (d, size, page, ty, layout) = (input.word(), input.big(), input.big(), input.word(), input.word());
                let shard = input.words(12);
                // Allocated, or at an address the input picks (often outside every bank).
                let address = if input.word().is_multiple_of(2) { u64::MAX } else { input.big() };
                let rc = (t.create_buffer)(
                    d,
                    size,
                    page,
                    ty,
                    layout,
                    shard.as_ptr(),
                    shard.len() as u32,
                    address,
                    &mut out32,
                );
                ("create_buffer", rc)
            }
            5 => {
                let (b, w) = (input.word(), input.word());
                ("buffer_query", (t.buffer_query)(b, w, &mut out64))
            }
            6 => ("free_buffer", (t.free_buffer)(input.word())),
            7 | 8 => {
                let b = input.word();
                // The C++ side passes a pointer and its length; the length is honest, the size arbitrary.
                let bytes = (input.big() as usize).min(1 << 20);
                let mut data = vec![0u8; bytes];
                let rc = if op % 20 == 7 {
                    (t.write_buffer)(b, data.as_ptr() as *const c_void, bytes as u64)
                } else {
                    (t.read_buffer)(b, data.as_mut_ptr() as *mut c_void, bytes as u64)
                };
                (if op % 20 == 7 { "write_buffer" } else { "read_buffer" }, rc)
            }
            9 => {
                let (d, x, y, addr) = (input.word(), input.word(), input.word(), input.word());
                let bytes = (input.big() as usize).min(1 << 20);
                let mut data = vec![0u8; bytes];
                let write = input.word();
                ("l1", (t.l1)(d, x, y, addr, data.as_mut_ptr() as *mut c_void, bytes as u64, write))
            }
            10 => ("create_program", (t.create_program)(&mut out32)),
            11 => ("free_program", (t.free_program)(input.word())),
            12 => {
                let (p, total) = (input.word(), input.word());
                let rs = input.words(8);
                let formats = input.words(9);
                let buffer = input.word() as i64 - 2;
                let rc = (t.create_cb)(
                    p,
                    rs.as_ptr(),
                    rs.len() as u32 / 4,
                    total,
                    formats.as_ptr(),
                    formats.len() as u32 / 3,
                    buffer,
                    &mut out32,
                );
                ("create_cb", rc)
            }
            13 => {
                let (p, cb, total, buffer) = (input.word(), input.word(), input.word(), input.word() as i64 - 2);
                ("update_cb", (t.update_cb)(p, cb, total, buffer))
            }
            14 => {
                let p = input.word();
                let rs = input.words(8);
                let init = input.word();
                let eth = input.word() % 2;
                ("create_semaphore", (t.create_semaphore)(p, rs.as_ptr(), rs.len() as u32 / 4, init, eth, &mut out32))
            }
            15 => {
                let (p, k, x, y, common) = (input.word(), input.word(), input.word(), input.word(), input.word());
                let args = input.words(16);
                ("set_args", (t.set_args)(p, k, x, y, common, args.as_ptr(), args.len() as u32))
            }
            16 => {
                let (d, p) = (input.word(), input.word());
                ("run_program", (t.run_program)(d, p))
            }
            17 => {
                let (b, config) = (input.word(), input.word());
                let mut words = [0u32; 64];
                let cap = input.word().min(64);
                let (mut n_ct, mut n_crta) = (0u32, 0u32);
                ("accessor_args", (t.accessor_args)(b, config, words.as_mut_ptr(), cap, &mut n_ct, &mut n_crta))
            }
            18 => {
                let offset = input.word();
                let words = input.words(16);
                ("accessor_appended", (t.accessor_appended)(offset, words.as_ptr(), words.len() as u32))
            }
            19 if input.word().is_multiple_of(2) => {
                let (p, cb, index, page) = (input.word(), input.word(), input.word(), input.word());
                ("update_cb_page_size", (t.update_cb_page_size)(p, cb, index, page))
            }
            19 if input.word().is_multiple_of(2) => {
                let (b, offset) = (input.word(), input.big());
                let bytes = (input.big() as usize).min(1 << 20);
                let mut data = vec![0u8; bytes];
                let write = input.word() % 2;
                ("buffer_region", (t.buffer_region)(b, offset, data.as_mut_ptr() as *mut c_void, bytes as u64, write))
            }
            _ => {
                let (r, c) = (input.word(), input.word());
                ("open_mesh", (t.open_mesh)(r, c, &mut out32))
            }
        };
        made += 1;
        if rc != 0 {
            let msg = super::call::last_error_message();
            if msg.is_empty() || msg.contains("internal error") {
                return Err(format!("call {made} ({name}) returned {rc} with message `{msg}`"));
            }
        }
    }
    Ok(made)
}
