//! Raw L1 pointers for C++ kernels. A kernel may turn `get_write_ptr(cb)` into a pointer and read or write
//! L1 through it, so a device running C++ kernels keeps each core's L1 in host memory below 4 GiB (an
//! [`Arena`]: one window per core, inaccessible guard gaps between them). The kernel ABI hands kernels
//! window addresses (`window base + L1 address`) and maps every address a kernel passes back to its L1
//! address ([`to_l1`]), whichever core's window it came from — cores share L1 addresses (CBs, semaphores),
//! so an address from one core's window means the same L1 address on a peer. A pointer run into a guard
//! gap faults, and the fault handler names the core and how far past its L1 the access was.

use crate::ffi::{Arena, install_fault_handler};
use sim_core::fiber::abort;
use sim_device::Device;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Gap between windows (and before the first): inaccessible, so overruns fault.
const GUARD_BYTES: usize = 64 << 10;
/// Registrations the fault handler can see at once (devices opened by one process).
const SLOTS: usize = 64;

/// One arena's geometry, in lock-free slots (the fault handler reads them): base, length, stride,
/// L1 bytes per core. A zero base is a free slot.
static REG: [[AtomicUsize; 4]; SLOTS] = [const { [const { AtomicUsize::new(0) }; 4] }; SLOTS];
/// The lowest base registered (a fast test for ordinary L1 addresses, which are small).
static LOWEST: AtomicUsize = AtomicUsize::new(usize::MAX);

struct Registration {
    slot: usize,
    arena: Arena,
}

impl Drop for Registration {
    fn drop(&mut self) {
        REG[self.slot][0].store(0, Ordering::SeqCst);
    }
}

/// One core's window.
struct Window {
    reg: Arc<Registration>,
    off: usize,
    len: usize,
}

impl sim_tensix::HostWindow for Window {
    fn bytes(&self) -> &[u8] {
        self.reg.arena.bytes(self.off, self.len)
    }
    fn bytes_mut(&mut self) -> &mut [u8] {
        self.reg.arena.bytes_mut(self.off, self.len)
    }
}

/// Where an arena address falls.
enum Place {
    /// Not in any arena.
    Outside,
    /// Core `core`'s L1 address `addr`.
    L1 { addr: usize },
    /// In a guard gap: `past` bytes after the end of core `core`'s L1 of `size` bytes (or before the first
    /// core when `core` is `None`).
    Guard { core: Option<usize>, past: usize, size: usize },
}

fn place(v: usize) -> Place {
    if v < LOWEST.load(Ordering::Relaxed) {
        return Place::Outside;
    }
    for r in &REG {
        let base = r[0].load(Ordering::Acquire);
        let len = r[1].load(Ordering::Relaxed);
        if base == 0 || v < base || v >= base + len {
            continue;
        }
        let (stride, size) = (r[2].load(Ordering::Relaxed), r[3].load(Ordering::Relaxed));
        let rel = v - base;
        if rel < GUARD_BYTES {
            return Place::Guard { core: None, past: GUARD_BYTES - rel, size };
        }
        let (core, within) = ((rel - GUARD_BYTES) / stride, (rel - GUARD_BYTES) % stride);
        if within < size {
            return Place::L1 { addr: within };
        }
        return Place::Guard { core: Some(core), past: within - size, size };
    }
    Place::Outside
}

fn describe(v: usize) -> Option<String> {
    match place(v) {
        Place::Outside | Place::L1 { .. } => None,
        Place::Guard { core: Some(c), past, size } => Some(format!(
            "a C++ kernel dereferenced an L1 pointer out of bounds: host address {v:#x} is {past} bytes past the end of the {size}-byte L1 of core #{c} (workers numbered row-major); check the address arithmetic on get_write_ptr/get_read_ptr"
        )),
        Place::Guard { core: None, past, .. } => Some(format!(
            "a C++ kernel dereferenced an L1 pointer out of bounds: host address {v:#x} is {past} bytes before L1 address 0 of core #0"
        )),
    }
}

/// The L1 address a kernel meant by `v`: a window address becomes its L1 address; anything else is
/// already one. A window address in a guard gap is an API error.
pub(crate) fn to_l1(v: u32) -> u32 {
    match place(v as usize) {
        Place::Outside => v,
        Place::L1 { addr } => addr as u32,
        Place::Guard { .. } => abort(describe(v as usize).unwrap_or_default()),
    }
}

/// The address a kernel sees for L1 address `addr` of the core whose window starts at `base`.
pub(crate) fn to_window(base: Option<usize>, addr: u32) -> u32 {
    match base {
        Some(b) => (b + addr as usize) as u32,
        None => addr,
    }
}

/// Move `dev`'s L1s into windows kernels can dereference (once per device).
pub fn map_device(dev: &mut Device) -> Result<(), String> {
    if dev.l1_in_windows() {
        return Ok(());
    }
    let size = dev.l1_size_per_core().max(dev.chip().soc().eth_l1_size) as usize;
    let page = 4096;
    let stride = size.div_ceil(page) * page + GUARD_BYTES;
    let n = dev.num_l1_cores();
    let len = GUARD_BYTES + n * stride;
    let arena = Arena::reserve(len)?;
    for i in 0..n {
        arena.open(GUARD_BYTES + i * stride, size.div_ceil(page) * page)?;
    }
    let slot = (0..SLOTS)
        .find(|&s| REG[s][0].compare_exchange(0, usize::MAX, Ordering::SeqCst, Ordering::SeqCst).is_ok())
        .ok_or("too many devices with C++ kernels open at once (64)")?;
    let base = arena.base();
    REG[slot][1].store(len, Ordering::Relaxed);
    REG[slot][2].store(stride, Ordering::Relaxed);
    REG[slot][3].store(size, Ordering::Relaxed);
    REG[slot][0].store(base, Ordering::Release);
    LOWEST.fetch_min(base, Ordering::SeqCst);
    install_fault_handler(describe);
    let reg = Arc::new(Registration { slot, arena });
    dev.move_l1_to_windows(|i, l1_bytes| {
        Box::new(Window { reg: reg.clone(), off: GUARD_BYTES + i * stride, len: l1_bytes as usize })
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_device::{Arch, CoreCoord};

    #[test]
    fn window_addresses_map_back_to_l1_addresses_and_guards_are_named() {
        let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
        dev.write_to_device_l1(CoreCoord::new(1, 0), 0x1000, &[7u32, 8]).unwrap();
        map_device(&mut dev).unwrap();
        // Contents moved along.
        assert_eq!(dev.read_from_device_l1::<u32>(CoreCoord::new(1, 0), 0x1000, 2).unwrap(), vec![7, 8]);
        let size = dev.l1_size_per_core() as usize;
        let stride = size.div_ceil(4096) * 4096 + GUARD_BYTES;
        let r = (0..SLOTS).find(|&s| REG[s][2].load(Ordering::Relaxed) == stride).unwrap();
        let base = REG[r][0].load(Ordering::Relaxed);
        let core1 = base + GUARD_BYTES + stride;
        assert!(core1 + size < 1 << 32, "windows lie below 4 GiB");
        assert_eq!(to_l1((core1 + 0x1000) as u32), 0x1000);
        assert_eq!(to_l1(0x1000), 0x1000, "plain L1 addresses pass through");
        let m = describe(core1 + size + 4).unwrap();
        assert!(m.contains("4 bytes past the end") && m.contains("core #1"), "{m}");
        assert!(describe(core1 + 8).is_none());
    }
}
