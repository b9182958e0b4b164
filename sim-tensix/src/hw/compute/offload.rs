//! MATH's tile products on a helper host thread. The simulation thread keeps every decision, cost and
//! hand-off; only the arithmetic of `matmul_tiles`/`matmul_block` (the largest single cost of a matmul run)
//! is queued to one helper thread, which runs the products in the order they were queued. DST's storage
//! is shared with the helper ([`DstBank`]), and every other read or write of DST first waits until the
//! products queued for its core are done (`DstBank::done`), so each DST tile sees exactly the same
//! operations in the same order as without the helper: results are bit-identical, whether it runs or not
//! (a test compares). Timing never depends on DST's values, so cycles are unchanged too. A core that has to
//! wait takes back its products the helper has not started and runs them itself, so a wait lasts one batch
//! at most and a helper that falls behind (it shares its core with other work) leaves more work here
//! instead of stalling the simulation. The helper hands every batch it has run back to the simulation
//! thread, which drops its jobs, keeps their operand tiles for reuse and reuses the list: the helper writes
//! no reference count and frees no memory (a tile freed on the helper's thread is memory the simulation
//! thread's allocations cannot reuse).

use super::math::{self, Tile};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

/// Scratch tiles for reuse, shared by the cores of a run (all on the simulation thread).
pub type TilePool = Rc<RefCell<Vec<Arc<Tile>>>>;

/// Products sent to the helper at once. Larger batches mean fewer queue operations, but a core that needs
/// its DST waits for the whole batch the helper is running (or takes back and runs inline the products of
/// the batch not sent yet). Measured on the 1024³ matmul example (whole process, paired runs): 16 took
/// 0.92 of the time of 64, 8 the same as 16, 32 1.04 of 16; 2048³: 16 took 0.97 of 64.
const BATCH: usize = 16;

/// Polls of a product's completion before a waiting simulation thread yields its core (a wait lasts one
/// batch at most).
const SPINS_BEFORE_YIELD: u32 = 4096;

/// A helper that finds the queue empty naps this long, up to [`NAPS_BEFORE_SLEEP`] times in a row, before
/// it sleeps until the simulation thread wakes it. Waking a sleeping thread costs the simulation thread a
/// system call, and on a virtual machine an interrupt to an idle processor: about 15 µs per batch on the
/// development host, about 4% of a 1024³ matmul, where the helper outpaces the simulation and sleeps
/// after most batches. A napping helper wakes on its own timer and yields its core meanwhile (polling
/// without yielding took the core from the CPU reference and lost time). The products are never late for
/// it: a core that needs them first takes back the ones the helper has not started.
const NAP: std::time::Duration = std::time::Duration::from_micros(50);
const NAPS_BEFORE_SLEEP: u32 = 40;

/// The DST storage of one core, shared with the helper thread.
#[derive(Debug)]
pub struct DstBank {
    tiles: Box<[Mutex<Tile>]>,
    /// Products of this core done, in the order they were queued (by the helper, or by the simulation
    /// thread for the ones it took back).
    done: AtomicU64,
}

impl DstBank {
    /// `slots` zeroed DST tiles.
    pub fn new(slots: usize) -> Arc<DstBank> {
        Arc::new(DstBank { tiles: (0..slots).map(|_| Mutex::new([0f32; 1024])).collect(), done: AtomicU64::new(0) })
    }

    /// Tile `slot`, on the simulation thread: the caller has waited for the products queued for it, so the
    /// lock is free unless the caller itself still holds it, an internal error said as such (never a hang).
    pub fn lock(&self, slot: usize) -> MutexGuard<'_, Tile> {
        match self.tiles[slot].try_lock() {
            Ok(t) => t,
            // A poisoned lock means the helper panicked in the middle of a product; the caller reports the
            // helper's failure (see `Offload::wait`) before ever getting here, so the tile's value is moot.
            Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => {
                panic!("DST tile {slot} is read while a read or write of it is still under way")
            }
        }
    }

    /// Tile `slot`, on the helper thread.
    fn lock_for_helper(&self, slot: usize) -> MutexGuard<'_, Tile> {
        self.tiles[slot].lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One queued product: DST tile `slot` (zeroed first when `zero`) += `a` · `b`.
struct Job {
    bank: Arc<DstBank>,
    slot: usize,
    zero: bool,
    phases: u32,
    fp32: bool,
    a: Arc<Tile>,
    b: Arc<Tile>,
}

/// The helper thread of one simulation run, shared by its cores' compute states (on the simulation thread).
pub struct Offload {
    /// Products not sent yet.
    batch: RefCell<Vec<Job>>,
    shared: Arc<Shared>,
    handle: RefCell<Option<JoinHandle<()>>>,
}

/// What the simulation thread and the helper share.
struct Shared {
    queue: Mutex<Queue>,
    /// Batches the helper has run, for the simulation thread to drop and reuse.
    spent: Mutex<Vec<Vec<Job>>>,
    /// Signalled when a batch is queued for a sleeping helper, or the run ends.
    ready: Condvar,
    /// The helper panicked.
    failed: AtomicBool,
}

/// Batches sent and not yet started by the helper, in order.
#[derive(Default)]
struct Queue {
    batches: VecDeque<Vec<Job>>,
    /// The helper sleeps until signalled.
    sleeping: bool,
    /// The run is over: the helper ends once the queue is empty.
    closed: bool,
}

/// Sets `failed` when the helper thread unwinds.
struct FailFlag(Arc<Shared>);

impl Drop for FailFlag {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.failed.store(true, Ordering::Release);
        }
    }
}

/// Run `j` on `t`, its DST tile.
fn run_job(t: &mut Tile, j: &Job) {
    if j.zero {
        t.fill(0.0);
    }
    math::matmul(t, &j.a, &j.b, j.phases, j.fp32);
}

impl Shared {
    fn new() -> Arc<Shared> {
        Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            spent: Mutex::new(Vec::new()),
            ready: Condvar::new(),
            failed: AtomicBool::new(false),
        })
    }

    /// The helper's loop: take the oldest batch and run it, napping and then sleeping while there is none
    /// ([`NAP`]), until the run is over.
    fn serve(&self) {
        let mut naps = 0;
        loop {
            let batch = {
                let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
                loop {
                    if let Some(b) = q.batches.pop_front() {
                        naps = 0;
                        break b;
                    }
                    if q.closed {
                        return;
                    }
                    if naps < NAPS_BEFORE_SLEEP {
                        naps += 1;
                        drop(q);
                        std::thread::sleep(NAP);
                        q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
                        continue;
                    }
                    q.sleeping = true;
                    q = self.ready.wait(q).unwrap_or_else(|e| e.into_inner());
                    q.sleeping = false;
                }
            };
            for j in &batch {
                run_job(&mut j.bank.lock_for_helper(j.slot), j);
                j.bank.done.fetch_add(1, Ordering::Release);
            }
            self.spent.lock().unwrap_or_else(|e| e.into_inner()).push(batch);
        }
    }
}

impl Offload {
    /// Start the helper thread; `None` if the host cannot start one (the products then run inline).
    pub fn start() -> Option<Offload> {
        let shared = Shared::new();
        let (helper, flag) = (shared.clone(), FailFlag(shared.clone()));
        let handle = std::thread::Builder::new()
            .name("tensim math".into())
            .spawn(move || {
                let _flag = flag;
                helper.serve();
            })
            .ok()?;
        Some(Offload { batch: RefCell::new(Vec::with_capacity(BATCH)), shared, handle: RefCell::new(Some(handle)) })
    }

    /// An offload whose helper never runs (tests: every wait then takes all its products back).
    #[cfg(test)]
    fn without_helper() -> Offload {
        Offload { batch: RefCell::new(Vec::with_capacity(BATCH)), shared: Shared::new(), handle: RefCell::new(None) }
    }

    /// Queue DST tile `slot` of `bank` (zeroed first when `zero`) += `a` · `b`; operand tiles of finished
    /// products that no one else holds go back to `pool`.
    #[allow(clippy::too_many_arguments)]
    pub fn matmul(
        &self,
        bank: &Arc<DstBank>,
        slot: usize,
        zero: bool,
        a: &Arc<Tile>,
        b: &Arc<Tile>,
        phases: u32,
        fp32: bool,
        pool: &TilePool,
    ) {
        let mut batch = self.batch.borrow_mut();
        batch.push(Job { bank: bank.clone(), slot, zero, phases, fp32, a: a.clone(), b: b.clone() });
        if batch.len() >= BATCH {
            let full = std::mem::replace(&mut *batch, self.empty_list(pool));
            drop(batch);
            self.send(full);
        }
    }

    /// An empty job list: one the helper has handed back (its jobs dropped here, on the simulation
    /// thread, their operand tiles that no one else holds put in `pool`), or a new one.
    fn empty_list(&self, pool: &TilePool) -> Vec<Job> {
        let spent = self.shared.spent.lock().unwrap_or_else(|e| e.into_inner()).pop();
        match spent {
            Some(mut list) => {
                let mut pool = pool.borrow_mut();
                for j in list.drain(..) {
                    for t in [j.a, j.b] {
                        if Arc::strong_count(&t) == 1 {
                            pool.push(t);
                        }
                    }
                }
                list
            }
            None => Vec::with_capacity(BATCH),
        }
    }

    fn send(&self, jobs: Vec<Job>) {
        let wake = {
            let mut q = self.shared.queue.lock().unwrap_or_else(|e| e.into_inner());
            q.batches.push_back(jobs);
            q.sleeping
        };
        if wake {
            self.shared.ready.notify_one();
        }
    }

    /// Wait until the first `need` of the `issued` products queued for `bank` are done. When they are not,
    /// every product of `bank` is done on return (the ones the helper has not started run here, in order:
    /// taking back only some of them could let the helper run a later one first).
    pub fn wait(&self, bank: &DstBank, need: u64, issued: u64) {
        if bank.done.load(Ordering::Acquire) >= need {
            return;
        }
        // This core's products that the helper has not started are the latest of its queue: they are taken
        // back, from the batches sent (oldest first) and the one not sent yet, and run here in order once
        // the helper has finished the ones it has started. The other cores' stay where they are. So a wait
        // lasts one batch at most, and a helper that falls behind (sharing its core) leaves more of the work
        // here.
        let ours = |j: &Job| std::ptr::eq(&*j.bank, bank);
        let mut mine = Vec::new();
        {
            let mut q = self.shared.queue.lock().unwrap_or_else(|e| e.into_inner());
            for b in q.batches.iter_mut() {
                take_into(b, &mut mine, ours);
            }
            q.batches.retain(|b| !b.is_empty());
        }
        take_into(&mut self.batch.borrow_mut(), &mut mine, ours);
        self.wait_for(bank, issued - mine.len() as u64);
        for j in &mine {
            run_job(&mut bank.lock(j.slot), j);
        }
        bank.done.store(issued, Ordering::Release);
    }

    /// Wait until the helper has finished the first `started` products of `bank`.
    fn wait_for(&self, bank: &DstBank, started: u64) {
        let mut spins = 0u32;
        while bank.done.load(Ordering::Acquire) < started {
            if self.shared.failed.load(Ordering::Acquire) {
                panic!("the helper thread computing tile products failed (see the message above)");
            }
            spins += 1;
            if spins < SPINS_BEFORE_YIELD {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
}

/// Move the jobs of `batch` for which `ours` holds to the end of `mine`, keeping both in order.
fn take_into(batch: &mut Vec<Job>, mine: &mut Vec<Job>, ours: impl Fn(&Job) -> bool) {
    mine.extend(batch.extract_if(.., |j| ours(j)));
}

impl std::fmt::Debug for Offload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Offload({} products not sent yet)", self.batch.borrow().len())
    }
}

impl Drop for Offload {
    /// Let the helper finish what was queued and end.
    fn drop(&mut self) {
        let queued = std::mem::take(&mut *self.batch.borrow_mut());
        {
            let mut q = self.shared.queue.lock().unwrap_or_else(|e| e.into_inner());
            if !queued.is_empty() {
                q.batches.push_back(queued);
            }
            q.closed = true;
        }
        self.shared.ready.notify_one();
        if let Some(h) = self.handle.borrow_mut().take() {
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(seed: u32) -> Arc<Tile> {
        let mut t = [0f32; 1024];
        for (i, v) in t.iter_mut().enumerate() {
            *v = layout::format::round_bf16(((i as u32 * 7 + seed * 13) % 61) as f32 / 31.0 - 1.0);
        }
        Arc::new(t)
    }

    #[test]
    fn queued_products_equal_inline_ones_and_wait_sees_them_all() {
        interleaved_cores_and_a_wait_mid_stream(&Offload::start().expect("a host thread"));
        // Without a helper, every product is taken back from the batches sent and the one not sent.
        let o = Offload::without_helper();
        interleaved_cores_and_a_wait_mid_stream(&o);
        assert!(o.shared.queue.lock().unwrap().batches.is_empty() && o.batch.borrow().is_empty());
    }

    fn interleaved_cores_and_a_wait_mid_stream(o: &Offload) {
        // Two cores' banks, their products interleaved: waiting for one mid-stream (its unsent products then
        // run on the waiting thread) leaves the other's queued, in order.
        let banks = [DstBank::new(4), DstBank::new(4)];
        let mut want = [[[0f32; 1024]; 4]; 2];
        let mut issued = [0u64; 2];
        let check = |c: usize, want: &[Tile; 4]| {
            for (slot, w) in want.iter().enumerate() {
                let got = banks[c].lock(slot);
                assert!(got.iter().zip(w).all(|(x, y)| x.to_bits() == y.to_bits()), "core {c} slot {slot}");
            }
        };
        for i in 0..(3 * BATCH as u32 + 5) {
            let (c, slot, a, b) = ((i % 2) as usize, ((i / 2) % 4) as usize, tile(i), tile(i + 1));
            let (phases, fp32) = (1 + i % 4, i % 3 == 0);
            o.matmul(&banks[c], slot, i < 8, &a, &b, phases, fp32, &TilePool::default());
            issued[c] += 1;
            math::matmul(&mut want[c][slot], &a, &b, phases, fp32);
            if i == BATCH as u32 + 7 {
                o.wait(&banks[0], issued[0], issued[0]);
                check(0, &want[0]);
            }
        }
        for c in 0..2 {
            o.wait(&banks[c], issued[c], issued[c]);
            assert_eq!(banks[c].done.load(Ordering::Acquire), issued[c]);
            check(c, &want[c]);
        }
    }
}
