//! `reduce_scatter` (sum) over a line or ring of chips on the fabric, as tt-metal's fabric-based op moves
//! data: every device's input is cut into N slices along `dim`; device i ends with slice i summed over all
//! devices. Each direction runs on a core of its own (forward on logical core (0,0), backward on (1,0))
//! with a reader, a compute kernel (bf16 adds on the FPU) and a writer that is the direction's fabric sender.
//!
//! - Ring: each direction handles half of every slice's tiles. For direction d the device starts at slice
//!   `i ∓ 1` and moves one slice per step: step 0 sends its raw input one hop into the neighbour's
//!   intermediate buffer, steps 1..N−2 send (own input + the partial received), and step N−1 adds the
//!   last partial to its own slice and writes the output: N−1 transfers of T/N per direction-half.
//! - Line: the forward sender of device i sends slices N−1 down to i+1 (the first device raw input, the
//!   others input + the partial from the left), the backward sender slices 0 up to i−1; device i then
//!   reduces its own slice with both partials — (input + forward partial) + backward partial.
//!
//! After every 16 tiles of a slice (and after its last) the sender increments the neighbour's receive
//! semaphore over the fabric, behind the payloads; readers wait for it cumulatively, so a step starts on a
//! slice's first tiles while the rest are still arriving. Every slot of the intermediate buffer is used once, so no
//! flow control beyond the fabric's is needed. The host reference performs the same bf16 additions in the
//! same order, so the check is bit-exact.
//!
//! Not modelled here (as for all_gather): scatter writes of several tiles per packet, several links or
//! workers per direction, and the one-shot algorithm tt-metal uses for small tensors on a ring.

use super::ccl::{
    CclOutcome, PAGE, Topology, add_bf16, check_divisible, check_shape, line_of, mismatches, random_bf16_bits,
    slice_page, tiles, timed_run,
};
use crate::examples::common::create_bf16_cbs;
use crate::rng::Rng;
use sim_device::fabric_config::FabricConnection;
use sim_device::mesh::{
    DeviceLocalBufferConfig, MeshBuffer, MeshBufferConfig, MeshCoordinate, MeshCoordinateRange, MeshDevice,
    MeshWorkload,
};
use sim_device::prelude::*;

/// The problem: each device's input of `shape` (4-D, elements; the last two multiples of 32) is summed
/// over the devices and scattered along `dim` (which the devices must divide in whole tiles).
#[derive(Debug, Clone, Copy)]
pub struct ReduceScatter {
    /// Per-device input shape.
    pub shape: [u32; 4],
    /// The scatter dimension (0..=3).
    pub dim: u32,
    /// Line or ring.
    pub topology: Topology,
}

/// Where a step's local operand comes from.
const LOCAL_FWD_FINAL: u32 = 1;
/// The step adds a partial received from the neighbour.
const RECV: u32 = 2;
/// Where the step's result goes (bits 2..4).
const DST_SEND: u32 = 0;
const DST_OUTPUT: u32 = 1 << 2;
const DST_FWD_FINAL: u32 = 2 << 2;
const DST_MASK: u32 = 3 << 2;

/// One step of a direction: a slice and what to do with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Step {
    slice: u32,
    flags: u32,
}

/// The steps of device `i` of `n` in direction `fwd`.
fn steps(i: u32, n: u32, topology: Topology, fwd: bool) -> Vec<Step> {
    let send = |slice, recv: bool| Step { slice, flags: DST_SEND | if recv { RECV } else { 0 } };
    let mut out = Vec::new();
    match topology {
        Topology::Ring => {
            for k in 0..n - 1 {
                let s = if fwd { (i + n - 1 - k) % n } else { (i + 1 + k) % n };
                out.push(send(s, k > 0));
            }
            out.push(Step { slice: i, flags: RECV | DST_OUTPUT });
        }
        Topology::Line if fwd => {
            for s in (i + 1..n).rev() {
                out.push(send(s, i > 0));
            }
            if i > 0 {
                let dst = if i < n - 1 { DST_FWD_FINAL } else { DST_OUTPUT };
                out.push(Step { slice: i, flags: RECV | dst });
            }
        }
        Topology::Line => {
            for s in 0..i {
                out.push(send(s, i < n - 1));
            }
            if i < n - 1 {
                let local = if i > 0 { LOCAL_FWD_FINAL } else { 0 };
                out.push(Step { slice: i, flags: RECV | DST_OUTPUT | local });
            }
        }
    }
    out
}

/// What every kernel of a direction core is told.
#[derive(Debug, Clone, Copy)]
struct Shape {
    n: u32,
    t: [u32; 4],
    dim: usize,
    /// Pages of one slice.
    per: u32,
}

impl Shape {
    /// The intermediate page of receive slot `k` of `region` (0 forward, 1 backward), page `j`.
    fn inter_page(&self, region: u32, k: u32, j: u32) -> u32 {
        (region * (self.n - 1) + k) * self.per + j
    }
    /// The intermediate page of the forward result of a line's middle device.
    fn fwd_final_page(&self, j: u32) -> u32 {
        2 * (self.n - 1) * self.per + j
    }
}

// Runtime args shared by the three kernels of a direction core.
const A_INPUT: usize = 0;
const A_INTER: usize = 1;
const A_OUTPUT: usize = 2;
const A_J0: usize = 3;
const A_J1: usize = 4;
const A_REGION: usize = 5;
const A_STEPS: usize = 6;
const A_OTHER_X: usize = 7;
const A_OTHER_Y: usize = 8;
const A_CONN: usize = 9;
const A_FIRST_STEP: usize = 10;

const SEM_RECV: u32 = 0;
const SEM_FWD_FINAL: u32 = 1;
const SEM_CREDIT: u32 = 2;

const CB_LOCAL: CBIndex = CBIndex::c_0;
const CB_RECV: CBIndex = CBIndex::c_1;
const CB_SCRATCH: CBIndex = CBIndex::c_2;
const CB_HEADER: CBIndex = CBIndex::c_3;
const CB_OUT: CBIndex = CBIndex::c_16;
/// Tiles read per DRAM round trip (the reader's operands, the writer's raw input); the operand CBs hold two
/// batches.
const BATCH: u32 = 4;
/// The sender increments the receiver's semaphore after every this many tiles of a slice (and after the
/// last): tt-metal's `chunks_per_sync` of 4 chunks of up to 4 tiles. A receiver starts on a slice's first
/// tiles while the rest are still on the way.
const SYNC_TILES: u32 = 16;

/// Increments a sender makes per slice of `tiles` tiles.
fn syncs(tiles: u32) -> u32 {
    tiles.div_ceil(SYNC_TILES).max(1)
}

fn read_steps(arg: impl Fn(usize) -> u32) -> Vec<Step> {
    (0..arg(A_STEPS) as usize)
        .map(|k| Step { slice: arg(A_FIRST_STEP + 2 * k), flags: arg(A_FIRST_STEP + 2 * k + 1) })
        .collect()
}

fn reader(sh: Shape) -> Kernel {
    Kernel::dataflow("ccl_reduce_scatter_reader", move |d| {
        let a = |i| d.get_arg_val::<u32>(i);
        let (input, inter, j0, j1, region) = (a(A_INPUT), a(A_INTER), a(A_J0), a(A_J1), a(A_REGION));
        let steps = read_steps(a);
        let (recv_sem, ff_sem) = (d.get_semaphore(SEM_RECV), d.get_semaphore(SEM_FWD_FINAL));
        for (r, st) in (0u32..).zip(steps.iter().filter(|s| s.flags & RECV != 0)) {
            let ff = st.flags & LOCAL_FWD_FINAL != 0;
            if ff {
                d.noc_semaphore_wait_min(ff_sem, 1);
            }
            // Both operands of up to BATCH tiles per round trip, each batch as soon as the sender's
            // increment for its sync group has arrived.
            let per_step = syncs(j1 - j0);
            if j0 == j1 {
                d.noc_semaphore_wait_min(recv_sem, (r + 1) * per_step);
            }
            let mut j = j0;
            while j < j1 {
                let b = BATCH.min(j1 - j);
                d.noc_semaphore_wait_min(recv_sem, r * per_step + (j + b - j0).div_ceil(SYNC_TILES));
                d.cb_reserve_back(CB_LOCAL, b);
                d.cb_reserve_back(CB_RECV, b);
                let (lp, rp) = (d.get_write_ptr(CB_LOCAL), d.get_write_ptr(CB_RECV));
                for k in 0..b {
                    let local = if ff {
                        d.get_dram_noc_addr(sh.fwd_final_page(j + k), PAGE, inter, 0)
                    } else {
                        d.get_dram_noc_addr(slice_page(j + k, st.slice, sh.n, sh.t, sh.dim), PAGE, input, 0)
                    };
                    d.noc_async_read(local, lp + k * PAGE, PAGE);
                    let partial = d.get_dram_noc_addr(sh.inter_page(region, r, j + k), PAGE, inter, 0);
                    d.noc_async_read(partial, rp + k * PAGE, PAGE);
                }
                d.noc_async_read_barrier();
                d.cb_push_back(CB_LOCAL, b);
                d.cb_push_back(CB_RECV, b);
                j += b;
            }
        }
    })
}

fn compute() -> Kernel {
    Kernel::compute("ccl_reduce_scatter_compute", move |c| {
        let a = |c: &Compute<'_>, i| c.get_arg_val::<u32>(i);
        let (j0, j1, n) = (a(c, A_J0), a(c, A_J1), a(c, A_STEPS) as usize);
        let adds = (0..n).filter(|&k| a(c, A_FIRST_STEP + 2 * k + 1) & RECV != 0).count() as u32;
        c.binary_op_init_common(CB_LOCAL, CB_RECV, CB_OUT);
        c.add_tiles_init(CB_LOCAL, CB_RECV, false);
        for _ in 0..adds * (j1 - j0) {
            c.cb_wait_front(CB_LOCAL, 1);
            c.cb_wait_front(CB_RECV, 1);
            c.tile_regs_acquire();
            c.add_tiles(CB_LOCAL, CB_RECV, 0, 0, 0);
            c.tile_regs_commit();
            c.cb_pop_front(CB_LOCAL, 1);
            c.cb_pop_front(CB_RECV, 1);
            c.cb_reserve_back(CB_OUT, 1);
            c.tile_regs_wait();
            c.pack_tile(0, CB_OUT);
            c.tile_regs_release();
            c.cb_push_back(CB_OUT, 1);
        }
    })
}

fn writer(sh: Shape) -> Kernel {
    Kernel::dataflow("ccl_reduce_scatter_writer", move |d| {
        let a = |i| d.get_arg_val::<u32>(i);
        let (input, inter, output, j0, j1, region) =
            (a(A_INPUT), a(A_INTER), a(A_OUTPUT), a(A_J0), a(A_J1), a(A_REGION));
        let (ox, oy, has_conn) = (a(A_OTHER_X), a(A_OTHER_Y), a(A_CONN) != 0);
        let steps = read_steps(a);
        let mut conn = has_conn.then(|| {
            let mut idx = A_FIRST_STEP + 2 * steps.len();
            let mut c = FabricConnection::from_args(d, &mut idx);
            d.fabric_open(&mut c);
            c
        });
        let (scratch, hdr) = (d.get_write_ptr(CB_SCRATCH), d.get_write_ptr(CB_HEADER));
        let (mx, my) = (d.my_x(NocId::Noc0), d.my_y(NocId::Noc0));
        let peer_recv = d.get_noc_addr(mx, my, d.get_semaphore(SEM_RECV));
        let mut sent = 0;
        for st in &steps {
            match st.flags & DST_MASK {
                DST_SEND => {
                    let c = conn.as_mut().expect("the host gives a fabric connection to every sending core");
                    let dst = |d: &Dataflow<'_>, j| d.get_dram_noc_addr(sh.inter_page(region, sent, j), PAGE, inter, 0);
                    // The increment behind each sync group's payloads (the fabric keeps the order).
                    let sync = |d: &mut Dataflow<'_>, c: &mut FabricConnection, done: u32| {
                        if done.is_multiple_of(SYNC_TILES) || done == j1 - j0 {
                            d.fabric_unicast_noc_unicast_atomic_inc(c, hdr, peer_recv, 1, 1);
                        }
                    };
                    if j0 == j1 {
                        d.fabric_unicast_noc_unicast_atomic_inc(c, hdr, peer_recv, 1, 1);
                    } else if st.flags & RECV != 0 {
                        for j in j0..j1 {
                            d.cb_wait_front(CB_OUT, 1);
                            let src = d.get_read_ptr(CB_OUT);
                            let to = dst(d, j);
                            d.fabric_unicast_noc_unicast_write(c, hdr, src, PAGE, to, 1);
                            d.cb_pop_front(CB_OUT, 1);
                            sync(d, c, j + 1 - j0);
                        }
                    } else {
                        let mut j = j0;
                        while j < j1 {
                            let b = BATCH.min(j1 - j);
                            for k in 0..b {
                                let page = slice_page(j + k, st.slice, sh.n, sh.t, sh.dim);
                                let from = d.get_dram_noc_addr(page, PAGE, input, 0);
                                d.noc_async_read(from, scratch + k * PAGE, PAGE);
                            }
                            d.noc_async_read_barrier();
                            for k in 0..b {
                                let to = dst(d, j + k);
                                d.fabric_unicast_noc_unicast_write(c, hdr, scratch + k * PAGE, PAGE, to, 1);
                                sync(d, c, j + k + 1 - j0);
                            }
                            j += b;
                        }
                    }
                    sent += 1;
                }
                dst => {
                    for j in j0..j1 {
                        d.cb_wait_front(CB_OUT, 1);
                        let to = if dst == DST_OUTPUT {
                            d.get_dram_noc_addr(j, PAGE, output, 0)
                        } else {
                            d.get_dram_noc_addr(sh.fwd_final_page(j), PAGE, inter, 0)
                        };
                        let src = d.get_read_ptr(CB_OUT);
                        d.noc_async_write(src, to, PAGE);
                        d.noc_async_write_barrier();
                        d.cb_pop_front(CB_OUT, 1);
                    }
                    if dst == DST_FWD_FINAL {
                        let sem = d.get_noc_addr(ox, oy, d.get_semaphore(SEM_FWD_FINAL));
                        d.noc_semaphore_inc(sem, 1);
                        d.noc_async_atomic_barrier();
                    }
                }
            }
        }
        if let Some(c) = conn.as_mut() {
            d.fabric_close(c);
        }
    })
}

/// Check the problem against the mesh; the devices as a line in mesh order.
pub fn check(mesh: &MeshDevice, p: &ReduceScatter) -> Result<Vec<MeshCoordinate>, DeviceError> {
    let coords = line_of(mesh, "reduce_scatter", p.topology)?;
    check_shape("reduce_scatter", p.shape, p.dim)?;
    check_divisible("reduce_scatter", p.shape, p.dim, coords.len() as u32)?;
    Ok(coords)
}

/// Pages of the intermediate buffer: a receive slot per step and direction, and the forward result.
fn inter_pages(sh: &Shape) -> u32 {
    (2 * (sh.n - 1) + 1) * sh.per
}

fn shape_of(p: &ReduceScatter, n: u32) -> Shape {
    let t = tiles(p.shape);
    Shape { n, t, dim: p.dim as usize, per: t.iter().product::<u32>() / n }
}

/// The buffers a reduce_scatter needs besides its input and output: the intermediate buffer.
pub fn intermediate(mesh: &mut MeshDevice, p: &ReduceScatter) -> Result<MeshBuffer, DeviceError> {
    let sh = shape_of(p, mesh.num_devices() as u32);
    let local = DeviceLocalBufferConfig { page_size: PAGE as u64, buffer_type: BufferType::Dram };
    MeshBuffer::create(mesh, MeshBufferConfig::Replicated { size: inter_pages(&sh) as u64 * PAGE as u64 }, local)
}

/// The workload reducing each device's `input` (interleaved bf16 tiles, `p.shape`) into its slice in
/// `output` (the slice's shape), through `inter` (from [`intermediate`]); the mesh's fabric must be
/// configured for `p.topology`.
pub fn workload(
    mesh: &MeshDevice,
    p: &ReduceScatter,
    input: &MeshBuffer,
    inter: &MeshBuffer,
    output: &MeshBuffer,
) -> Result<MeshWorkload, DeviceError> {
    let coords = check(mesh, p)?;
    let n = coords.len() as u32;
    let sh = shape_of(p, n);
    let cores = [CoreCoord::new(0, 0), CoreCoord::new(1, 0)];
    let mut w = MeshWorkload::new();
    for (i, &c) in coords.iter().enumerate() {
        let i = i as u32;
        let xy: Vec<_> = {
            let dev = mesh.get_device(c)?; // a lock on the device: released before the fabric arguments
            cores.iter().map(|&l| dev.worker_core_from_logical_core(l)).collect::<Result<_, _>>()?
        };
        let mut prog = Program::new();
        let set = CoreRangeSet::from(CoreRange::new(cores[0], cores[1]));
        for _ in 0..3 {
            prog.create_semaphore(set.clone(), 0)?;
        }
        let cbs =
            [(CB_LOCAL, 2 * BATCH), (CB_RECV, 2 * BATCH), (CB_OUT, 2 * BATCH), (CB_SCRATCH, BATCH), (CB_HEADER, 1)];
        create_bf16_cbs(&mut prog, set.clone(), &cbs)?;
        // The writer is on NoC 0, the frame of the addresses the routers use; the reader on NoC 1.
        let rcfg = DataMovementConfig { noc: NocId::Noc1, ..DataMovementConfig::reader(vec![]) };
        let r = prog.create_kernel(reader(sh), set.clone(), rcfg)?;
        let k = prog.create_kernel(compute(), set.clone(), ComputeConfig::default())?;
        let wr = prog.create_kernel(writer(sh), set.clone(), DataMovementConfig::default())?;
        for (d, fwd) in [(0usize, true), (1, false)] {
            let st = steps(i, n, p.topology, fwd);
            let (j0, j1) = match p.topology {
                Topology::Ring if fwd => (0, sh.per / 2),
                Topology::Ring => (sh.per / 2, sh.per),
                Topology::Line => (0, sh.per),
            };
            let sends = st.iter().any(|s| s.flags & DST_MASK == DST_SEND);
            let other = xy[1 - d];
            let mut args = vec![
                input.address(),
                inter.address(),
                output.address(),
                j0,
                j1,
                d as u32,
                st.len() as u32,
                other.x,
                other.y,
                sends as u32,
            ];
            args.extend(st.iter().flat_map(|s| [s.slice, s.flags]));
            let mut wargs = args.clone();
            if sends {
                let next = if fwd { coords[((i + 1) % n) as usize] } else { coords[((i + n - 1) % n) as usize] };
                mesh.append_fabric_connection_rt_args(c, next, 0, SEM_CREDIT, &mut wargs)?;
            }
            prog.set_runtime_args(r, cores[d], &args)?;
            prog.set_runtime_args(k, cores[d], &args)?;
            prog.set_runtime_args(wr, cores[d], &wargs)?;
        }
        w.add_program(MeshCoordinateRange::single(c), prog);
    }
    Ok(w)
}

/// The reference: device i's output, slice i of the sum, with the additions in the order the devices
/// perform them (bf16 rounding after each).
pub fn reference(inputs: &[Vec<u16>], p: &ReduceScatter) -> Vec<Vec<u16>> {
    let n = inputs.len() as u32;
    let sh = shape_of(p, n);
    let half = (PAGE / 2) as usize;
    let page = |dev: u32, s: u32, j: u32| {
        let q = slice_page(j, s, n, sh.t, sh.dim) as usize * half;
        &inputs[dev as usize][q..q + half]
    };
    let acc = |out: &mut [u16], x: &[u16]| out.iter_mut().zip(x).for_each(|(o, &v)| *o = add_bf16(v, *o));
    (0..n)
        .map(|s| {
            let mut out = vec![0u16; sh.per as usize * half];
            for j in 0..sh.per {
                let o = &mut out[j as usize * half..(j as usize + 1) * half];
                // The devices contributing to page j of slice s, in the order the partial passes them.
                let chain: Vec<Vec<u32>> = match p.topology {
                    Topology::Ring if j < sh.per / 2 => vec![(1..n).map(|m| (s + m) % n).collect()],
                    Topology::Ring => vec![(1..n).map(|m| (s + n - m) % n).collect()],
                    Topology::Line => vec![(0..s).collect(), (s + 1..n).rev().collect()],
                };
                o.copy_from_slice(page(s, s, j));
                for c in chain.iter().filter(|c| !c.is_empty()) {
                    let mut partial = page(c[0], s, j).to_vec();
                    for &dev in &c[1..] {
                        acc(&mut partial, page(dev, s, j));
                    }
                    acc(o, &partial);
                }
            }
            out
        })
        .collect()
}

/// Run it on `mesh` (a line of devices in mesh order) with data from `seed`: inputs uniform in [-1, 1).
pub fn run(mesh: &mut MeshDevice, p: ReduceScatter, seed: u64) -> Result<CclOutcome, DeviceError> {
    let coords = check(mesh, &p)?;
    let n = coords.len() as u32;
    mesh.set_fabric_config(super::all_gather::fabric_config(p.topology))?;
    let sh = shape_of(&p, n);
    let input_bytes = sh.per as u64 * n as u64 * PAGE as u64;
    let local = DeviceLocalBufferConfig { page_size: PAGE as u64, buffer_type: BufferType::Dram };
    let input = MeshBuffer::create(mesh, MeshBufferConfig::Replicated { size: input_bytes }, local)?;
    let output = MeshBuffer::create(mesh, MeshBufferConfig::Replicated { size: input_bytes / n as u64 }, local)?;
    let inter = intermediate(mesh, &p)?;
    let mut rng = Rng::new(seed);
    let inputs: Vec<Vec<u16>> = (0..n).map(|_| random_bf16_bits(&mut rng, (input_bytes / 2) as usize)).collect();
    for (c, data) in coords.iter().zip(&inputs) {
        mesh.write_shard(&input, data, *c)?;
    }
    let w = workload(mesh, &p, &input, &inter, &output)?;
    let (report, simulate_secs) = timed_run(mesh, &w)?;
    let expect = reference(&inputs, &p);
    let bad = mismatches(mesh, &output, &coords, |i| &expect[i])?;
    let passed = bad.is_empty();
    let check = if passed {
        format!("all {n} outputs equal their slice of the sum along dim {} (bit-exact, same addition order)", p.dim)
    } else {
        format!("outputs differ from the reduced slices on {}", bad.join(", "))
    };
    let start = super::ccl::op_start_cycles(mesh.get_device(coords[0])?.params(), n);
    Ok(CclOutcome { passed, check, phases: vec![("reduce_scatter", report)], start, input_bytes, simulate_secs })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sender's sends are its neighbour's receives, in order and per slice.
    #[test]
    fn each_direction_receives_what_its_neighbour_sends() {
        for topology in [Topology::Line, Topology::Ring] {
            for n in 2..=8 {
                if topology == Topology::Ring && n < 3 {
                    continue;
                }
                for fwd in [true, false] {
                    for i in 0..n {
                        let from = if fwd { (i + n - 1) % n } else { (i + 1) % n };
                        let is_end = topology == Topology::Line && (if fwd { i == 0 } else { i == n - 1 });
                        let sent: Vec<u32> = if is_end {
                            Vec::new()
                        } else {
                            steps(from, n, topology, fwd)
                                .iter()
                                .filter(|s| s.flags & DST_MASK == DST_SEND)
                                .map(|s| s.slice)
                                .collect()
                        };
                        let recv: Vec<u32> = steps(i, n, topology, fwd)
                            .iter()
                            .filter(|s| s.flags & RECV != 0)
                            .map(|s| s.slice)
                            .collect();
                        assert_eq!(sent, recv, "{topology:?} n={n} fwd={fwd} device {i}");
                    }
                }
            }
        }
    }

    /// Every slice ends at its own device, written to the output once per direction-half.
    #[test]
    fn every_device_writes_its_own_slice() {
        for n in 2..=8 {
            for i in 0..n {
                let outs: Vec<Step> = [true, false]
                    .iter()
                    .flat_map(|&f| steps(i, n, Topology::Line, f))
                    .filter(|s| s.flags & DST_MASK == DST_OUTPUT)
                    .collect();
                assert_eq!(outs.len(), 1, "line n={n} device {i}");
                assert_eq!(outs[0].slice, i);
            }
        }
    }
}
