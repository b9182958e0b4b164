//! `all_gather` over a line or ring of chips on the fabric, the way tt-metal's fabric-based op moves data:
//! every device writes its slice into its own output at `position × slice`, and a writer sends each page
//! of the slice in both directions as a fabric multicast — over the devices on each side on a line, over
//! half of the ring each way on a ring — so the routers forward every packet hop by hop and each chip on
//! the route writes it into its own output. After the slice the writer multicasts an atomic increment of
//! the peers' `out_ready` semaphore (the fabric keeps it behind the payloads) and waits until every other
//! device's increment has arrived. Checked bit-exactly against the concatenation done on the host.
//!
//! With `links` routing planes (ttnn's `num_links`), worker `l` (core (0, l)) sends the `l`-th contiguous
//! part of the slice over link `l` of every hop, and the op ends when every worker has seen its peers'
//! increments.
//!
//! Not modelled here: tt-metal's scatter writes of up to four tiles per packet (one tile per packet
//! here) and its several workers per link and direction (one worker per link).

use super::ccl::{
    CclOutcome, PAGE, Topology, check_links, check_shape, line_of, mismatches, slice_page, tiles, timed_run,
};
use crate::rng::Rng;
use sim_device::fabric_config::{FabricConfig, FabricConnection};
use sim_device::mesh::{
    DeviceLocalBufferConfig, MeshBuffer, MeshBufferConfig, MeshCoordinate, MeshCoordinateRange, MeshDevice,
    MeshWorkload,
};
use sim_device::prelude::*;

/// The problem: each device's input of `shape` (4-D, elements; the last two multiples of 32), gathered
/// along `dim`.
#[derive(Debug, Clone, Copy)]
pub struct AllGather {
    /// Per-device input shape.
    pub shape: [u32; 4],
    /// The gather dimension (0..=3).
    pub dim: u32,
    /// Line or ring.
    pub topology: Topology,
    /// Routing planes used per direction (ttnn's `num_links`), one worker each.
    pub links: u32,
}

/// Pages read from DRAM per batch.
const BATCH: u32 = 8;

/// The page of the gathered output (`n` inputs of `t` tiles) holding page `k` of the input at `pos`.
fn out_page(k: u32, pos: u32, n: u32, t: [u32; 4], dim: usize) -> u32 {
    let mut e = t;
    e[dim] *= n;
    slice_page(k, pos, n, e, dim)
}

/// Check the problem against the mesh; the devices as a line in mesh order.
pub fn check(mesh: &MeshDevice, p: &AllGather) -> Result<Vec<MeshCoordinate>, DeviceError> {
    let coords = line_of(mesh, "all_gather", p.topology)?;
    check_shape("all_gather", p.shape, p.dim)?;
    check_links(mesh, "all_gather", &coords, p.topology, p.links)?;
    Ok(coords)
}

fn writer(n: u32, t: [u32; 4], dim: usize) -> Kernel {
    Kernel::dataflow("ccl_all_gather_writer", move |d| {
        let a = |d: &Dataflow<'_>, i| d.get_arg_val::<u32>(i);
        let (in_addr, out_addr, pos, fwd, bwd, scratch, hdr, first, count) =
            (a(d, 0), a(d, 1), a(d, 2), a(d, 3), a(d, 4), a(d, 5), a(d, 6), a(d, 7), a(d, 8));
        let mut idx = 9;
        let mut conns = Vec::new();
        for targets in [fwd, bwd] {
            if targets > 0 {
                let mut c = FabricConnection::from_args(d, &mut idx);
                d.fabric_open(&mut c);
                conns.push((c, targets as u8));
            }
        }
        let pages = first + count;
        let (mx, my) = (d.my_x(NocId::Noc0), d.my_y(NocId::Noc0));
        let mut k = first;
        while k < pages {
            let batch = BATCH.min(pages - k);
            for b in 0..batch {
                let src = d.get_dram_noc_addr(k + b, PAGE, in_addr, 0);
                d.noc_async_read(src, scratch + b * PAGE, PAGE);
            }
            d.noc_async_read_barrier();
            for b in 0..batch {
                let o = out_page(k + b, pos, n, t, dim);
                let dst = d.get_dram_noc_addr(o, PAGE, out_addr, 0);
                d.noc_async_write(scratch + b * PAGE, dst, PAGE);
                for (c, targets) in conns.iter_mut() {
                    d.fabric_multicast_noc_unicast_write(c, hdr, scratch + b * PAGE, PAGE, dst, 1, *targets);
                }
            }
            // The scratch is read again next batch: its data must have left L1 (not been acknowledged).
            d.noc_async_writes_flushed();
            k += batch;
        }
        d.noc_async_write_barrier();
        let ready = d.get_semaphore(0);
        let ready_noc = d.get_noc_addr(mx, my, ready);
        for (c, targets) in conns.iter_mut() {
            d.fabric_multicast_noc_unicast_atomic_inc(c, hdr, ready_noc, 1, 1, *targets);
        }
        d.noc_semaphore_wait_min(ready, n - 1);
        for (c, _) in conns.iter_mut() {
            d.fabric_close(c);
        }
    })
}

/// The fabric configuration a topology runs on.
pub fn fabric_config(t: Topology) -> FabricConfig {
    match t {
        Topology::Line => FabricConfig::Fabric1D,
        Topology::Ring => FabricConfig::Fabric1DRing,
    }
}

/// The workload gathering each device's `input` (interleaved bf16 tiles in DRAM, `p.shape`) into every
/// device's `output`; the mesh's fabric must be configured for `p.topology`.
pub fn workload(
    mesh: &MeshDevice,
    p: &AllGather,
    input: &MeshBuffer,
    output: &MeshBuffer,
) -> Result<MeshWorkload, DeviceError> {
    let coords = check(mesh, p)?;
    let n = coords.len() as u32;
    let t = tiles(p.shape);
    let pages = t.iter().product::<u32>();
    let links = p.links.max(1);
    // Worker `l` on core (0, l): a row of its own, so that the workers' DRAM reads do not share the row's NoC
    // links on their way back.
    let cores = CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(0, links - 1));
    let base = mesh.get_device(coords[0])?.params().mem.l1_unreserved_base;
    let scratch = base.next_multiple_of(64);
    let hdr = scratch + BATCH * PAGE;
    let mut w = MeshWorkload::new();
    for (i, &c) in coords.iter().enumerate() {
        let i = i as u32;
        let (fwd, bwd) = match p.topology {
            Topology::Line => (n - 1 - i, i),
            Topology::Ring => ((n - 1).div_ceil(2), (n - 1) / 2),
        };
        let step = |k: i64| coords[(i as i64 + k).rem_euclid(n as i64) as usize];
        let mut prog = Program::new();
        for _ in 0..3 {
            prog.create_semaphore(cores, 0)?;
        }
        let k = prog.create_kernel(writer(n, t, p.dim as usize), cores, DataMovementConfig::default())?;
        for l in 0..links {
            // Worker `l`: the `l`-th contiguous part of the slice, over link `l` of each hop.
            let (first, end) = (pages * l / links, pages * (l + 1) / links);
            let mut args = vec![input.address(), output.address(), i, fwd, bwd, scratch, hdr, first, end - first];
            if fwd > 0 {
                mesh.append_fabric_connection_rt_args(c, step(1), l, 1, &mut args)?;
            }
            if bwd > 0 {
                mesh.append_fabric_connection_rt_args(c, step(-1), l, 2, &mut args)?;
            }
            prog.set_runtime_args(k, CoreCoord::new(0, l), &args)?;
        }
        w.add_program(MeshCoordinateRange::single(c), prog);
    }
    Ok(w)
}

/// The reference: the inputs (one per device, bit patterns of tiles) concatenated along `dim` in mesh order.
pub fn reference(inputs: &[Vec<u16>], t: [u32; 4], dim: usize) -> Vec<u16> {
    let n = inputs.len() as u32;
    let pages = t.iter().product::<u32>();
    let half = (PAGE / 2) as usize;
    let mut expect = vec![0u16; pages as usize * n as usize * half];
    for (pos, data) in inputs.iter().enumerate() {
        for k in 0..pages {
            let o = out_page(k, pos as u32, n, t, dim) as usize;
            let src = k as usize * half;
            expect[o * half..(o + 1) * half].copy_from_slice(&data[src..src + half]);
        }
    }
    expect
}

/// Run it on `mesh` (a line of devices in mesh order) with data from `seed`.
pub fn run(mesh: &mut MeshDevice, p: AllGather, seed: u64) -> Result<CclOutcome, DeviceError> {
    let coords = check(mesh, &p)?;
    let n = coords.len() as u32;
    mesh.set_fabric_config(fabric_config(p.topology))?;
    let t = tiles(p.shape);
    let pages = t.iter().product::<u32>();
    let input_bytes = pages as u64 * PAGE as u64;
    let local = DeviceLocalBufferConfig { page_size: PAGE as u64, buffer_type: BufferType::Dram };
    let input = MeshBuffer::create(mesh, MeshBufferConfig::Replicated { size: input_bytes }, local)?;
    let output = MeshBuffer::create(mesh, MeshBufferConfig::Replicated { size: input_bytes * n as u64 }, local)?;
    // Each device's input: random bf16 bit patterns, page by page (a page is one tile).
    let mut rng = Rng::new(seed);
    let inputs: Vec<Vec<u16>> =
        (0..n).map(|_| crate::rng::random_u16s(&mut rng, (pages * PAGE / 2) as usize)).collect();
    for (c, data) in coords.iter().zip(&inputs) {
        mesh.write_shard(&input, data, *c)?;
    }
    let w = workload(mesh, &p, &input, &output)?;
    let (report, simulate_secs) = timed_run(mesh, &w)?;
    let expect = reference(&inputs, t, p.dim as usize);
    let bad = mismatches(mesh, &output, &coords, |_| &expect)?;
    let passed = bad.is_empty();
    let check = if passed {
        format!("all {n} outputs equal the inputs concatenated along dim {} (bit-exact)", p.dim)
    } else {
        format!("outputs differ from the concatenation on {}", bad.join(", "))
    };
    let start = super::ccl::op_start_cycles(mesh.get_device(coords[0])?.params(), n);
    Ok(CclOutcome { passed, check, phases: vec![("all_gather", report)], start, input_bytes, simulate_secs })
}

#[cfg(test)]
mod tests {
    use super::out_page;

    #[test]
    fn output_pages_concatenate_along_each_dim() {
        let t = [1, 2, 2, 3];
        // dim 3: the rows of the two devices' tiles sit side by side.
        assert_eq!(out_page(0, 0, 2, t, 3), 0);
        assert_eq!(out_page(0, 1, 2, t, 3), 3);
        assert_eq!(out_page(3, 0, 2, t, 3), 6);
        // dim 2: device 1's rows follow device 0's in each (a, b) matrix.
        assert_eq!(out_page(0, 1, 2, t, 2), 6);
        assert_eq!(out_page(6, 0, 2, t, 2), 12);
        // dim 0: whole tensors one after another.
        assert_eq!(out_page(5, 1, 2, t, 0), 12 + 5);
    }
}
