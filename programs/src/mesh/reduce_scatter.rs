//! `reduce_scatter` (sum) over a line or ring of chips on the fabric, as tt-metal's fabric-based op moves
//! data: every device's input is cut into N slices along `dim`; device i ends with slice i summed over all
//! devices. Each direction runs on a core of its own (forward on logical core (0,0), backward on (1,0))
//! with a reader, a compute kernel (bf16 adds on the FPU) and a writer that is the direction's fabric sender.
//! With `links` routing planes (ttnn's `num_links`) link `l` has its own pair of direction cores ((2l, 0)
//! and (2l+1, 0)), which take the `l`-th part of each direction's share of every slice (cut at whole
//! packets) over link `l` of every hop, into their own part of each receive slot.
//!
//! - Ring: each direction handles half of every slice's tiles. For direction d the device starts at slice
//!   `i ∓ 1` and moves one slice per step: step 0 sends its raw input one hop into the neighbour's
//!   intermediate buffer, steps 1..N−2 send (own input + the partial received), and step N−1 adds the
//!   last partial to its own slice and writes the output: N−1 transfers of T/N per direction-half.
//! - Line: the forward sender of device i sends slices N−1 down to i+1 (the first device raw input, the
//!   others input + the partial from the left), the backward sender slices 0 up to i−1; device i then
//!   reduces its own slice with both partials — (input + forward partial) + backward partial.
//!
//! Pipelined as TTNN's reduce_scatter: each fabric packet carries two tiles (the intermediate buffer's
//! pages are one packet each, so a packet lands in one DRAM bank without a scatter write); the reader
//! streams raw input through a double-buffered CB while the writer sends; sums go from the compute
//! kernel's CB straight to the fabric; outputs are flushed from L1, not acknowledged one by one. With every
//! eighth packet of a step (and its last) the sender increments the neighbour's receive semaphore, fused
//! with the payload; readers wait for it cumulatively, so a step starts on a slice's first packets while
//! the rest are still arriving. Every slot of the intermediate buffer is used once, so no flow control
//! beyond the fabric's is needed. The host reference performs the same bf16 additions in the same order, so
//! the check is bit-exact.
//!
//! Not modelled here (as for all_gather): scatter writes, several workers per link and direction, and the
//! one-shot algorithm tt-metal uses for small tensors on a ring.

use super::ccl::{
    CclOutcome, PAGE, Topology, add_bf16, check_divisible, check_links, check_shape, line_of, mismatches,
    random_bf16_bits, slice_page, tiles, timed_run,
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
    /// Routing planes used per direction (ttnn's `num_links`), a pair of direction cores each.
    pub links: u32,
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
    /// Tiles per fabric packet (as many 2 KiB tiles as the fabric's payload holds, at most
    /// [`MAX_TILES_PER_PACKET`]); the intermediate buffer's pages hold one packet.
    tpp: u32,
    /// Tiles of one intermediate block (a receive slot or the forward result): a slice's tiles rounded up to
    /// whole packets.
    cap: u32,
}

impl Shape {
    /// A direction's share of a slice, `len` tiles, rounded up to whole packets: every kernel of the core
    /// moves whole packets through its circular buffers (the last packet of a step may carry a pad tile,
    /// which is read from nowhere, added, sent into the padding of the receive slot and never written
    /// out), so packets stay contiguous in L1.
    fn padded(&self, len: u32) -> u32 {
        len.next_multiple_of(self.tpp)
    }
    /// The intermediate page and byte offset of tile `t` of block `block`.
    fn inter_at(&self, block: u32, t: u32) -> (u32, u32) {
        let g = block * self.cap + t;
        (g / self.tpp, (g % self.tpp) * PAGE)
    }
    /// The block receiving step `k` of `region` (0 forward, 1 backward).
    fn recv_block(&self, region: u32, k: u32) -> u32 {
        region * (self.n - 1) + k
    }
    /// The block of the forward result of a line's middle device.
    fn fwd_final_block(&self) -> u32 {
        2 * (self.n - 1)
    }
    /// Syncs (semaphore increments) a sender makes per step of `packets` packets.
    fn syncs(&self, packets: u32) -> u32 {
        packets.div_ceil(SYNC_PACKETS).max(1)
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
/// Where this core's part starts in each receive slot, in tiles (a multiple of a packet's tiles).
const A_SLOT_OFF: usize = 10;
const A_FIRST_STEP: usize = 11;

const SEM_RECV: u32 = 0;
const SEM_FWD_FINAL: u32 = 1;
const SEM_CREDIT: u32 = 2;

const CB_LOCAL: CBIndex = CBIndex::c_0;
const CB_RECV: CBIndex = CBIndex::c_1;
const CB_RAW: CBIndex = CBIndex::c_2;
const CB_HEADER: CBIndex = CBIndex::c_3;
const CB_OUT: CBIndex = CBIndex::c_16;
/// The most tiles one fabric packet carries: two bf16 tiles (4 KiB) fit the fabric's default payload
/// (4352 B), as TTNN's reduce_scatter packs them.
const MAX_TILES_PER_PACKET: u32 = 2;
/// Packets the reader moves per DRAM round trip (one barrier); every circular buffer holds two such
/// batches, so reading the next batch overlaps sending (or adding) the last.
const BATCH_PACKETS: u32 = 4;
/// The sender increments the receiver's semaphore (fused with the payload) after every this many packets
/// of a step and after its last: tt-metal's `chunks_per_sync`. A receiver starts on a slice's first
/// packets while the rest are still on the way.
const SYNC_PACKETS: u32 = 8;

fn read_steps(arg: impl Fn(usize) -> u32) -> Vec<Step> {
    (0..arg(A_STEPS) as usize)
        .map(|k| Step { slice: arg(A_FIRST_STEP + 2 * k), flags: arg(A_FIRST_STEP + 2 * k + 1) })
        .collect()
}

/// The reader (NoC 1): for a raw send, the input's tiles into `CB_RAW`; for a step that receives, the local
/// operand (the input, or a line's forward result) into `CB_LOCAL` and the neighbour's partial into
/// `CB_RECV`, each batch once its sync has arrived.
fn reader(sh: Shape) -> Kernel {
    Kernel::dataflow("ccl_reduce_scatter_reader", move |d| {
        let a = |i| d.get_arg_val::<u32>(i);
        let (input, inter, j0, j1, region) = (a(A_INPUT), a(A_INTER), a(A_J0), a(A_J1), a(A_REGION));
        let off = a(A_SLOT_OFF);
        let steps = read_steps(a);
        let (recv_sem, ff_sem) = (d.get_semaphore(SEM_RECV), d.get_semaphore(SEM_FWD_FINAL));
        let len = sh.padded(j1 - j0);
        let packets = len / sh.tpp;
        let page_bytes = sh.tpp * PAGE;
        let batch = BATCH_PACKETS * sh.tpp;
        let mut r = 0;
        for st in &steps {
            let recv = st.flags & RECV != 0;
            if !recv && st.flags & DST_MASK != DST_SEND {
                continue;
            }
            let ff = st.flags & LOCAL_FWD_FINAL != 0;
            if ff {
                d.noc_semaphore_wait_min(ff_sem, 1);
            }
            if recv && j0 == j1 {
                d.noc_semaphore_wait_min(recv_sem, (r + 1) * sh.syncs(0));
            }
            let mut t = 0;
            while t < len {
                let b = batch.min(len - t);
                let cb = if recv { CB_LOCAL } else { CB_RAW };
                d.cb_reserve_back(cb, b);
                let lp = d.get_write_ptr(cb);
                for k in (0..b).filter(|k| j0 + t + k < j1) {
                    let j = j0 + t + k;
                    let from = if ff {
                        let (page, off) = sh.inter_at(sh.fwd_final_block(), j);
                        d.get_dram_noc_addr(page, page_bytes, inter, off)
                    } else {
                        d.get_dram_noc_addr(slice_page(j, st.slice, sh.n, sh.t, sh.dim), PAGE, input, 0)
                    };
                    d.noc_async_read(from, lp + k * PAGE, PAGE);
                }
                if recv {
                    // The partial's packets of this batch, once the sync covering the last has landed.
                    let done = (t + b) / sh.tpp;
                    let need = r * sh.syncs(packets) + done.div_ceil(SYNC_PACKETS).min(sh.syncs(packets));
                    d.noc_semaphore_wait_min(recv_sem, need);
                    d.cb_reserve_back(CB_RECV, b);
                    let rp = d.get_write_ptr(CB_RECV);
                    for p in 0..b / sh.tpp {
                        let (page, _) = sh.inter_at(sh.recv_block(region, r), off + t + p * sh.tpp);
                        let from = d.get_dram_noc_addr(page, page_bytes, inter, 0);
                        d.noc_async_read(from, rp + p * page_bytes, page_bytes);
                    }
                }
                d.noc_async_read_barrier();
                d.cb_push_back(cb, b);
                if recv {
                    d.cb_push_back(CB_RECV, b);
                }
                t += b;
            }
            if recv {
                r += 1;
            }
        }
    })
}

/// The compute kernel: every tile of every receiving step (pad tiles included) summed on the FPU.
fn compute(sh: Shape) -> Kernel {
    Kernel::compute("ccl_reduce_scatter_compute", move |c| {
        let a = |c: &Compute<'_>, i| c.get_arg_val::<u32>(i);
        let (j0, j1, n) = (a(c, A_J0), a(c, A_J1), a(c, A_STEPS) as usize);
        let adds = (0..n).filter(|&k| a(c, A_FIRST_STEP + 2 * k + 1) & RECV != 0).count() as u32;
        c.binary_op_init_common(CB_LOCAL, CB_RECV, CB_OUT);
        c.add_tiles_init(CB_LOCAL, CB_RECV, false);
        for _ in 0..adds * sh.padded(j1 - j0) {
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

/// The writer (NoC 0), the direction's fabric sender: packets of `tpp` tiles from `CB_RAW` (raw input) or
/// `CB_OUT` (sums) into the neighbour's receive slot, the sync fused on every eighth and the last; the
/// final sums to the output (or a line's forward result to the intermediate buffer), with no wait on
/// each write's acknowledgement — only that it left L1 before its CB page is reused.
fn writer(sh: Shape) -> Kernel {
    Kernel::dataflow("ccl_reduce_scatter_writer", move |d| {
        let a = |i| d.get_arg_val::<u32>(i);
        let (inter, output, j0, j1, region) = (a(A_INTER), a(A_OUTPUT), a(A_J0), a(A_J1), a(A_REGION));
        let (ox, oy, has_conn) = (a(A_OTHER_X), a(A_OTHER_Y), a(A_CONN) != 0);
        let off = a(A_SLOT_OFF);
        let steps = read_steps(a);
        let mut conn = has_conn.then(|| {
            let mut idx = A_FIRST_STEP + 2 * steps.len();
            let mut c = FabricConnection::from_args(d, &mut idx);
            d.fabric_open(&mut c);
            c
        });
        let hdr = d.get_write_ptr(CB_HEADER);
        let (mx, my) = (d.my_x(NocId::Noc0), d.my_y(NocId::Noc0));
        let peer_recv = d.get_noc_addr(mx, my, d.get_semaphore(SEM_RECV));
        let len = sh.padded(j1 - j0);
        let packets = len / sh.tpp;
        let page_bytes = sh.tpp * PAGE;
        let mut sent = 0;
        for st in &steps {
            match st.flags & DST_MASK {
                DST_SEND => {
                    let c = conn.as_mut().expect("the host gives a fabric connection to every sending core");
                    if j0 == j1 {
                        d.fabric_unicast_noc_unicast_atomic_inc(c, hdr, peer_recv, 1, 1);
                    }
                    let cb = if st.flags & RECV != 0 { CB_OUT } else { CB_RAW };
                    // The neighbour's slot for this step: a region of `dir`'s slots (the receiver numbers
                    // its receiving steps as the sender numbers its sends).
                    let block = sh.recv_block(region, sent);
                    for p in 0..packets {
                        d.cb_wait_front(cb, sh.tpp);
                        let src = d.get_read_ptr(cb);
                        let (page, _) = sh.inter_at(block, off + p * sh.tpp);
                        let to = d.get_dram_noc_addr(page, page_bytes, inter, 0);
                        let real = (j1 - j0 - p * sh.tpp).min(sh.tpp) * PAGE;
                        if (p + 1).is_multiple_of(SYNC_PACKETS) || p + 1 == packets {
                            d.fabric_unicast_noc_fused_unicast_with_atomic_inc(c, hdr, src, real, to, peer_recv, 1, 1);
                        } else {
                            d.fabric_unicast_noc_unicast_write(c, hdr, src, real, to, 1);
                        }
                        d.cb_pop_front(cb, sh.tpp);
                    }
                    sent += 1;
                }
                dst => {
                    for t in 0..len {
                        d.cb_wait_front(CB_OUT, 1);
                        let j = j0 + t;
                        if j < j1 {
                            let to = if dst == DST_OUTPUT {
                                d.get_dram_noc_addr(j, PAGE, output, 0)
                            } else {
                                let (page, off) = sh.inter_at(sh.fwd_final_block(), j);
                                d.get_dram_noc_addr(page, page_bytes, inter, off)
                            };
                            let src = d.get_read_ptr(CB_OUT);
                            d.noc_async_write(src, to, PAGE);
                            d.noc_async_writes_flushed();
                        }
                        d.cb_pop_front(CB_OUT, 1);
                    }
                    if dst == DST_FWD_FINAL {
                        // The other core reads the forward result once all of it is in DRAM.
                        d.noc_async_write_barrier();
                        let sem = d.get_noc_addr(ox, oy, d.get_semaphore(SEM_FWD_FINAL));
                        d.noc_semaphore_inc(sem, 1);
                        d.noc_async_atomic_barrier();
                    }
                }
            }
        }
        d.noc_async_write_barrier();
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
    check_links(mesh, "reduce_scatter", &coords, p.topology, p.links)?;
    Ok(coords)
}

/// Pages of the intermediate buffer (a packet each): a receive slot per step and direction, and the
/// forward result.
fn inter_pages(sh: &Shape) -> u32 {
    (2 * (sh.n - 1) + 1) * sh.cap / sh.tpp
}

/// The fabric's largest payload on the mesh's chips.
fn max_payload_bytes(mesh: &MeshDevice) -> Result<u32, DeviceError> {
    let first = mesh.shape().coord(0);
    Ok(mesh.get_device(first)?.params().fabric.max_payload_bytes)
}

fn shape_of(p: &ReduceScatter, n: u32, max_payload_bytes: u32) -> Shape {
    let t = tiles(p.shape);
    let per = t.iter().product::<u32>() / n;
    let tpp = (max_payload_bytes / PAGE).clamp(1, MAX_TILES_PER_PACKET);
    Shape { n, t, dim: p.dim as usize, per, tpp, cap: per.next_multiple_of(tpp) }
}

/// The buffers a reduce_scatter needs besides its input and output: the intermediate buffer.
pub fn intermediate(mesh: &mut MeshDevice, p: &ReduceScatter) -> Result<MeshBuffer, DeviceError> {
    let sh = shape_of(p, mesh.num_devices() as u32, max_payload_bytes(mesh)?);
    let page_size = (sh.tpp * PAGE) as u64;
    let local = DeviceLocalBufferConfig { page_size, buffer_type: BufferType::Dram };
    MeshBuffer::create(mesh, MeshBufferConfig::Replicated { size: inter_pages(&sh) as u64 * page_size }, local)
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
    let sh = shape_of(p, n, max_payload_bytes(mesh)?);
    let links = p.links.max(1);
    // Link `l`: the forward core (0, l) and the backward core (1, l), a row of its own, so that the
    // links' DRAM reads do not share the row's NoC links on their way back.
    let cores: Vec<CoreCoord> = (0..2 * links).map(|k| CoreCoord::new(k % 2, k / 2)).collect();
    let mut w = MeshWorkload::new();
    for (i, &c) in coords.iter().enumerate() {
        let i = i as u32;
        let xy: Vec<_> = {
            let dev = mesh.get_device(c)?; // a lock on the device: released before the fabric arguments
            cores.iter().map(|&l| dev.worker_core_from_logical_core(l)).collect::<Result<_, _>>()?
        };
        let mut prog = Program::new();
        let set = CoreRangeSet::from(CoreRange::new(cores[0], cores[cores.len() - 1]));
        for _ in 0..3 {
            prog.create_semaphore(set.clone(), 0)?;
        }
        let batch = BATCH_PACKETS * sh.tpp;
        let cbs =
            [(CB_LOCAL, 2 * batch), (CB_RECV, 2 * batch), (CB_OUT, 2 * batch), (CB_RAW, 2 * batch), (CB_HEADER, 1)];
        create_bf16_cbs(&mut prog, set.clone(), &cbs)?;
        // The writer is on NoC 0, the frame of the addresses the routers use; the reader on NoC 1.
        let rcfg = DataMovementConfig { noc: NocId::Noc1, ..DataMovementConfig::reader(vec![]) };
        let r = prog.create_kernel(reader(sh), set.clone(), rcfg)?;
        let k = prog.create_kernel(compute(sh), set.clone(), ComputeConfig::default())?;
        let wr = prog.create_kernel(writer(sh), set.clone(), DataMovementConfig::default())?;
        for (l, (d, fwd)) in (0..links).flat_map(|l| [(l, (0usize, true)), (l, (1, false))]) {
            let st = steps(i, n, p.topology, fwd);
            let (j0, j1) = match p.topology {
                Topology::Ring if fwd => (0, sh.per / 2),
                Topology::Ring => (sh.per / 2, sh.per),
                Topology::Line => (0, sh.per),
            };
            // Link `l`'s part of the direction's share, cut at whole packets so that the parts' packets
            // (pad tiles included) never overlap in a receive slot.
            let cut = |l: u32| if l == links { j1 - j0 } else { ((j1 - j0) * l / links) / sh.tpp * sh.tpp };
            let (off, end) = (cut(l), cut(l + 1));
            let (j0, j1) = (j0 + off, j0 + end);
            let sends = st.iter().any(|s| s.flags & DST_MASK == DST_SEND);
            let me = (2 * l) as usize + d;
            let other = xy[(2 * l) as usize + 1 - d];
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
                off,
            ];
            args.extend(st.iter().flat_map(|s| [s.slice, s.flags]));
            let mut wargs = args.clone();
            if sends {
                let next = if fwd { coords[((i + 1) % n) as usize] } else { coords[((i + n - 1) % n) as usize] };
                mesh.append_fabric_connection_rt_args(c, next, l, SEM_CREDIT, &mut wargs)?;
            }
            prog.set_runtime_args(r, cores[me], &args)?;
            prog.set_runtime_args(k, cores[me], &args)?;
            prog.set_runtime_args(wr, cores[me], &wargs)?;
        }
        w.add_program(MeshCoordinateRange::single(c), prog);
    }
    Ok(w)
}

/// The reference: device i's output, slice i of the sum, with the additions in the order the devices
/// perform them (bf16 rounding after each).
pub fn reference(inputs: &[Vec<u16>], p: &ReduceScatter) -> Vec<Vec<u16>> {
    let n = inputs.len() as u32;
    let sh = shape_of(p, n, PAGE); // the sums do not depend on the packet size
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
    let sh = shape_of(&p, n, max_payload_bytes(mesh)?);
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
