//! Raw L1 pointers for C++ kernels. A kernel may turn any L1 address — `get_write_ptr(cb)`, a semaphore, an
//! L1 buffer address from its runtime args — into a pointer and read or write L1 through it. So a device
//! running C++ kernels keeps every core's L1 in one shared memory file (`Arena`: tensim's own mapping,
//! one window per core), and while a C++ kernel runs, the first access to an L1 address faults and maps
//! that kernel's core's L1 at its own addresses (L1 address A at host address A); when a kernel of
//! another core runs, the mapping is dropped and the next access maps that core's. Kernels therefore see
//! L1 addresses exactly as tt-metal gives them, and a core with no pointer use costs nothing.
//!
//! An access past the end of L1 (up to 64 KiB beyond) or below the lowest address the host can map is
//! reported with the address and the core, and ends the run.

use super::arena::{Arena, map_low, reserve_low};
use super::fault::{FaultAction, install_fault_handler, resolve_addresses_with};

use sim_device::Device;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Gap after each window in tensim's mapping, and how far past the end of L1 an access is still named.
const GUARD_BYTES: usize = 64 << 10;
/// Devices with C++ kernels the fault handler can tell apart (one slot each).
const SLOTS: usize = 64;
const NONE: usize = usize::MAX;

/// Per device (lock-free, for the fault handler): tensim's mapping base, its length, the memory file, the
/// window stride and the L1 bytes per window. A zero base is a free slot.
static REG: [[AtomicUsize; 5]; SLOTS] = [const { [const { AtomicUsize::new(0) }; 5] }; SLOTS];
/// The L1 window (tensim-side address of byte 0) of the core whose C++ kernel is running, or NONE.
static RUNNING: AtomicUsize = AtomicUsize::new(NONE);
/// The window currently mapped at L1 addresses, or NONE.
static MAPPED: AtomicUsize = AtomicUsize::new(NONE);
/// The reserved range L1 addresses map into: [LOW_START, LOW_END).
static LOW_START: AtomicUsize = AtomicUsize::new(0);
static LOW_END: AtomicUsize = AtomicUsize::new(0);
/// The thread whose C++ kernel code owns the L1 address range (its [`thread_token`]), or 0. The range can
/// show one core's L1 at a time, so C++ kernel code of devices run on different host threads takes turns:
/// a thread owns the range only while C++ code runs between two API calls (never across a fiber switch,
/// which happens inside API calls).
static OWNER: AtomicUsize = AtomicUsize::new(0);
/// Serialises reserving the low range (two threads mapping their first devices at once).
static RESERVE: std::sync::Mutex<()> = std::sync::Mutex::new(());
/// Times a core's L1 was mapped for a kernel's pointer accesses.
static POINTER_MAPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
/// Per device slot, a bit per window: its core's C++ code has dereferenced L1 before, so the next time it runs
/// its L1 is mapped at once instead of on the fault its first access would take (one system call instead of
/// two and a signal: kernels of several cores that take turns at the NoC switch thousands of times).
static HOT: [[AtomicU64; HOT_WORDS]; SLOTS] = [const { [const { AtomicU64::new(0) }; HOT_WORDS] }; SLOTS];
/// Windows a slot keeps hot bits for (the rest are mapped on their first access only).
const HOT_WORDS: usize = 4;

/// How many times so far a kernel's first L1 pointer access (after another core ran) mapped its core's L1:
/// non-zero growth during a run means kernels read or wrote L1 through pointers (timed per access by
/// `tensim/l1_access.h`, except inside library calls such as memcpy).
pub fn pointer_mappings() -> u64 {
    POINTER_MAPS.load(Ordering::Relaxed)
}

struct Registration {
    slot: usize,
    arena: Arena,
}

impl Drop for Registration {
    /// Drops the L1 mapping if it shows one of this device's cores. Only the owner of the L1 range changes
    /// the mapping, so this takes the range first: unmapping from outside could land after another
    /// thread's kernel had mapped its own core (a kernel would then fault with its core mapped) or leave
    /// the range showing that core while `MAPPED` says nothing is mapped (the next thread's kernel would
    /// then read and write the other core's L1 without faulting).
    fn drop(&mut self) {
        let owned_before = OWNER.load(Ordering::SeqCst) == thread_token();
        acquire();
        let base = REG[self.slot][0].load(Ordering::SeqCst);
        let mapped = MAPPED.load(Ordering::SeqCst);
        if mapped != NONE && mapped >= base && mapped < base + REG[self.slot][1].load(Ordering::SeqCst) {
            unmap_low();
        }
        REG[self.slot][0].store(0, Ordering::SeqCst);
        if !owned_before {
            OWNER.store(0, Ordering::SeqCst);
        }
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
    fn data_ranges(&self) -> Option<Vec<std::ops::Range<usize>>> {
        self.reg.arena.data_ranges(self.off, self.len)
    }
}

/// The registration slot, file offset and L1 size of the window starting at `w`.
fn locate(w: usize) -> Option<(usize, usize, usize)> {
    for (slot, r) in REG.iter().enumerate() {
        let base = r[0].load(Ordering::Acquire);
        if base == 0 || base == NONE || w < base || w >= base + r[1].load(Ordering::Relaxed) {
            continue;
        }
        return Some((slot, w - base, r[4].load(Ordering::Relaxed)));
    }
    None
}

fn unmap_low() {
    if MAPPED.swap(NONE, Ordering::SeqCst) != NONE {
        map_low(LOW_START.load(Ordering::Relaxed), LOW_END.load(Ordering::Relaxed), -1, 0);
    }
}

thread_local! {
    static TOKEN: u8 = const { 0 };
}

/// A non-zero number unique to the calling thread (the address of a thread-local), readable from the
/// fault handler (a `const` thread-local with no destructor).
fn thread_token() -> usize {
    TOKEN.with(|t| t as *const u8 as usize)
}

/// Take the L1 address range for this thread's C++ code (at once if it is free or already this thread's).
fn acquire() {
    let me = thread_token();
    let mut spins = 0u32;
    loop {
        match OWNER.compare_exchange(0, me, Ordering::SeqCst, Ordering::SeqCst) {
            Ok(_) => return,
            Err(owner) if owner == me => return,
            Err(_) => {
                spins += 1;
                if spins < 64 {
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            }
        }
    }
}

/// C++ code of the kernel whose core's window is `window` runs from now on (`None`: tensim's own code).
/// Returns the window that was running. Drops the L1 mapping of another core.
pub(crate) fn enter_kernel(window: Option<usize>) -> Option<usize> {
    let before = match window {
        Some(w) => {
            acquire();
            let before = RUNNING.swap(w, Ordering::SeqCst);
            let mapped = MAPPED.load(Ordering::SeqCst);
            if mapped != w && !map_if_hot(w) && mapped != NONE {
                unmap_low();
            }
            before
        }
        None if OWNER.load(Ordering::SeqCst) == thread_token() => {
            let before = RUNNING.swap(NONE, Ordering::SeqCst);
            OWNER.store(0, Ordering::SeqCst);
            before
        }
        None => NONE,
    };
    (before != NONE).then_some(before)
}

/// The hot bit of window `w`: (slot, word, mask), if its slot keeps one.
fn hot_bit(w: usize) -> Option<(usize, usize, u64)> {
    let (slot, offset, _) = locate(w)?;
    let i = offset / REG[slot][3].load(Ordering::Relaxed).max(1);
    (i < HOT_WORDS * 64).then_some((slot, i / 64, 1u64 << (i % 64)))
}

/// Map window `w` at the L1 addresses now if its core's C++ code dereferenced L1 before (the range is this
/// thread's); whether it did.
fn map_if_hot(w: usize) -> bool {
    let Some((slot, word, mask)) = hot_bit(w) else { return false };
    if HOT[slot][word].load(Ordering::Relaxed) & mask == 0 {
        return false;
    }
    let Some((_, offset, _)) = locate(w) else { return false };
    let (lo, hi) = (LOW_START.load(Ordering::Relaxed), LOW_END.load(Ordering::Relaxed));
    let fd = REG[slot][2].load(Ordering::Relaxed) as i32;
    if map_low(lo, hi, fd, offset + lo) {
        MAPPED.store(w, Ordering::SeqCst);
        POINTER_MAPS.fetch_add(1, Ordering::Relaxed);
        return true;
    }
    false
}

/// What a fault at `addr` means for L1 (called from the fault handler).
pub(crate) fn on_fault(addr: usize) -> FaultAction {
    if OWNER.load(Ordering::SeqCst) != thread_token() {
        return FaultAction::Pass;
    }
    let running = RUNNING.load(Ordering::SeqCst);
    if running == NONE {
        return FaultAction::Pass;
    }
    let Some((slot, offset, size)) = locate(running) else { return FaultAction::Pass };
    let (lo, hi) = (LOW_START.load(Ordering::Relaxed), LOW_END.load(Ordering::Relaxed));
    if addr >= lo && addr < size.min(hi) {
        let fd = REG[slot][2].load(Ordering::Relaxed) as i32;
        if MAPPED.load(Ordering::SeqCst) == running {
            // Mapped already and still faulting: not an L1 access tensim can serve.
            return FaultAction::Pass;
        }
        if map_low(lo, hi, fd, offset + lo) {
            MAPPED.store(running, Ordering::SeqCst);
            POINTER_MAPS.fetch_add(1, Ordering::Relaxed);
            if let Some((slot, word, mask)) = hot_bit(running) {
                HOT[slot][word].fetch_or(mask, Ordering::Relaxed);
            }
            return FaultAction::Retry;
        }
        return FaultAction::Pass;
    }
    if addr >= size && addr < size + GUARD_BYTES {
        return FaultAction::Report(format!(
            "dereferenced L1 address {addr:#x}, outside its core's {size}-byte L1 (addresses end at {:#x}); check the pointer arithmetic",
            size - 1
        ));
    }
    if addr < lo && addr >= 256 {
        return FaultAction::Report(format!(
            "dereferenced L1 address {addr:#x}: not modelled: L1 below {lo:#x} (the firmware area, which this host cannot map)"
        ));
    }
    FaultAction::Pass
}

/// The lowest address the host lets a process map.
fn mmap_min_addr() -> usize {
    std::fs::read_to_string("/proc/sys/vm/mmap_min_addr").ok().and_then(|s| s.trim().parse().ok()).unwrap_or(65536)
}

/// Move `dev`'s L1s into host memory C++ kernels may dereference (once per device).
pub fn map_device(dev: &mut Device) -> Result<(), String> {
    if dev.l1_in_windows() {
        return Ok(());
    }
    let page = 4096;
    let size = dev.l1_size_per_core().max(dev.chip().soc().eth_l1_size) as usize;
    let stride = size.div_ceil(page) * page + GUARD_BYTES;
    let n = dev.num_l1_cores();
    let arena = Arena::new(n * stride)?;
    for i in 0..n {
        arena.open(i * stride, size.div_ceil(page) * page)?;
    }
    // The range L1 addresses are mapped at: reserved once per process, as large as the largest L1.
    let lo = mmap_min_addr().max(page).div_ceil(page) * page;
    let hi = size.div_ceil(page) * page;
    let reserving = RESERVE.lock().unwrap_or_else(|e| e.into_inner());
    if LOW_END.load(Ordering::SeqCst) < hi {
        let start = LOW_END.load(Ordering::SeqCst).max(lo);
        reserve_low(start, hi)?;
        LOW_START.store(lo, Ordering::SeqCst);
        LOW_END.store(hi, Ordering::SeqCst);
    }
    drop(reserving);
    let slot = (0..SLOTS)
        .find(|&s| REG[s][0].compare_exchange(0, NONE, Ordering::SeqCst, Ordering::SeqCst).is_ok())
        .ok_or("too many devices with C++ kernels open at once (64)")?;
    for word in &HOT[slot] {
        word.store(0, Ordering::Relaxed);
    }
    REG[slot][1].store(n * stride, Ordering::Relaxed);
    REG[slot][2].store(arena.fd() as usize, Ordering::Relaxed);
    REG[slot][3].store(stride, Ordering::Relaxed);
    REG[slot][4].store(size, Ordering::Relaxed);
    REG[slot][0].store(arena.base(), Ordering::Release);
    resolve_addresses_with(on_fault);
    install_fault_handler();
    let reg = Arc::new(Registration { slot, arena });
    dev.move_l1_to_windows(|i, l1_bytes| {
        Box::new(Window { reg: reg.clone(), off: i * stride, len: l1_bytes as usize })
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_device::{Arch, CoreCoord};

    /// The tests below drive the process-wide L1 range (`OWNER`, `RUNNING`, `MAPPED`): they take turns, or one
    /// would see the other's kernel holding it.
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

    /// This thread's C++ code of window `w` holds the L1 range until the guard drops (also when a failed
    /// assertion unwinds, so that the other tests do not wait for the range forever).
    struct Held;
    impl Drop for Held {
        fn drop(&mut self) {
            enter_kernel(None);
        }
    }
    fn hold(w: usize) -> Held {
        enter_kernel(Some(w));
        Held
    }

    #[test]
    fn l1_moves_into_windows_and_faults_are_classified() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
        dev.write_to_device_l1(CoreCoord::new(1, 0), 0x20000, &[7u32, 8]).unwrap();
        map_device(&mut dev).unwrap();
        // Contents moved along.
        assert_eq!(dev.read_from_device_l1::<u32>(CoreCoord::new(1, 0), 0x20000, 2).unwrap(), vec![7, 8]);
        let size = dev.l1_size_per_core() as usize;
        // No kernel running: faults are not tensim's.
        assert!(matches!(on_fault(0x20000), FaultAction::Pass));
        let live = |s: usize| ![0, NONE].contains(&REG[s][0].load(Ordering::Relaxed));
        let slot = (0..SLOTS).find(|&s| live(s) && REG[s][4].load(Ordering::Relaxed) == size).unwrap();
        let (base, stride) = (REG[slot][0].load(Ordering::Relaxed), REG[slot][3].load(Ordering::Relaxed));
        let held = hold(base + stride);
        let past = on_fault(size + 3);
        let FaultAction::Report(m) = past else { panic!("an overrun is reported") };
        assert!(m.contains("outside its core") && m.contains(&format!("{:#x}", size + 3)), "{m}");
        // A first access inside L1 maps core 1's L1 at its own addresses.
        assert!(matches!(on_fault(0x20000), FaultAction::Retry));
        assert_ne!(MAPPED.load(Ordering::SeqCst), NONE);
        drop(held);
        let held = hold(base);
        assert_eq!(MAPPED.load(Ordering::SeqCst), NONE, "another core's kernel drops the mapping");
        drop(held);
        // Core 1's code dereferenced L1 before: when it runs again its L1 is mapped at once, with no fault.
        let maps = pointer_mappings();
        let held = hold(base + stride);
        assert_eq!(MAPPED.load(Ordering::SeqCst), base + stride);
        assert_eq!(pointer_mappings(), maps + 1);
        drop(held);
    }

    #[test]
    fn the_memory_file_tells_where_its_data_is() {
        let (len, page) = (1 << 20, 4096);
        let arena = Arena::new(len).unwrap();
        arena.open(0, len).unwrap();
        assert_eq!(arena.data_ranges(0, len), Some(vec![]));
        arena.bytes_mut(5 * page + 10, 4)[0] = 1;
        arena.bytes_mut(9 * page, page * 2).fill(2);
        assert_eq!(arena.data_ranges(0, len), Some(vec![5 * page..6 * page, 9 * page..11 * page]));
        // Relative to the window asked about, and cut at its end.
        assert_eq!(arena.data_ranges(4 * page, 6 * page), Some(vec![page..2 * page, 5 * page..6 * page]));
        assert_eq!(arena.data_ranges(12 * page, page), Some(vec![]));
    }

    /// Dropping a device changes the L1 mapping only while holding the L1 range: while another thread's
    /// kernel holds it, the drop waits (unmapping under that kernel could leave the range showing a core
    /// that `MAPPED` does not name, and the next kernel would use that core's L1 without a fault).
    #[test]
    fn dropping_a_device_waits_for_the_kernel_holding_the_l1_range() {
        use std::sync::atomic::AtomicBool;
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
        map_device(&mut dev).unwrap();
        let held = hold(12345);
        let dropped = Arc::new(AtomicBool::new(false));
        let flag = dropped.clone();
        let other = std::thread::spawn(move || {
            drop(dev);
            flag.store(true, Ordering::SeqCst);
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(!dropped.load(Ordering::SeqCst), "the drop waits while this thread's C++ code runs");
        drop(held);
        other.join().unwrap();
        assert!(dropped.load(Ordering::SeqCst));
        assert_eq!(OWNER.load(Ordering::SeqCst), 0, "the drop gives the range back");
    }

    /// While one thread's C++ code holds the L1 range, another thread's kernel waits for it; faults on a
    /// thread that does not hold it are not tensim's.
    #[test]
    fn threads_take_turns_at_the_l1_range() {
        use std::sync::atomic::AtomicBool;
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let held = hold(12345);
        let entered = Arc::new(AtomicBool::new(false));
        let flag = entered.clone();
        let other = std::thread::spawn(move || {
            assert!(matches!(on_fault(0x20000), FaultAction::Pass), "not this thread's range");
            enter_kernel(Some(67890));
            flag.store(true, Ordering::SeqCst);
            assert_eq!(RUNNING.load(Ordering::SeqCst), 67890);
            enter_kernel(None);
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(!entered.load(Ordering::SeqCst), "the other thread waits while this one's C++ code runs");
        assert_eq!(RUNNING.load(Ordering::SeqCst), 12345);
        drop(held);
        other.join().unwrap();
        assert!(entered.load(Ordering::SeqCst));
        assert_eq!(OWNER.load(Ordering::SeqCst), 0);
    }
}
