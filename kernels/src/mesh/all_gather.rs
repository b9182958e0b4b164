//! `all_gather` over a line or ring of chips on the fabric, the way tt-metal's fabric-based op moves data:
//! every device writes its slice into its own output at `position × slice`, and a writer sends each page
//! of the slice in both directions as a fabric multicast — over the devices on each side on a line, over
//! half of the ring each way on a ring — so the routers forward every packet hop by hop and each chip on
//! the route writes it into its own output. After the slice the writer multicasts an atomic increment of
//! the peers' `out_ready` semaphore (the fabric keeps it behind the payloads) and waits until every other
//! device's increment has arrived. Checked bit-exactly against the concatenation done on the host.
//!
//! Not modelled here: tt-metal's scatter writes of up to four tiles per packet (one tile per packet
//! here) and its several links and workers per direction (one routing plane, one worker).

use crate::rng::Rng;
use sim_device::fabric::{FabricConfig, FabricConnection};
use sim_device::mesh::{
    DeviceLocalBufferConfig, MeshBuffer, MeshBufferConfig, MeshCoordinateRange, MeshDevice, MeshRunReport, MeshWorkload,
};
use sim_device::prelude::*;

/// A line (ends not connected) or a ring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topology {
    /// `ttnn.Topology.Linear`.
    Line,
    /// `ttnn.Topology.Ring`.
    Ring,
}

impl Topology {
    /// Parse `line`/`linear` or `ring`.
    pub fn parse(s: &str) -> Result<Topology, String> {
        match s {
            "line" | "linear" => Ok(Topology::Line),
            "ring" => Ok(Topology::Ring),
            _ => Err(format!("topology `{s}`: use line or ring")),
        }
    }
}

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
}

/// What a collective's run gives back.
#[derive(Debug)]
pub struct CclOutcome {
    /// Whether every device's output matched the reference.
    pub passed: bool,
    /// The check, in words.
    pub check: String,
    /// Per-device reports and the mesh's cycles.
    pub report: MeshRunReport,
    /// Bytes of one device's input.
    pub slice_bytes: u64,
}

impl CclOutcome {
    /// The busiest Ethernet link direction of the run: (chip id, channel, bytes sent, GB/s over the run).
    pub fn busiest_link(&self) -> Option<(u32, u32, u64, f64)> {
        let cycles = self.report.cycles.0.max(1) as f64;
        self.report
            .devices
            .iter()
            .flat_map(|(_, id, r)| r.eth.iter().map(move |e| (*id, e.channel, e.tx_bytes, r.clock_mhz)))
            .max_by_key(|e| (e.2, std::cmp::Reverse((e.0, e.1))))
            .map(|(id, ch, b, mhz)| (id, ch, b, b as f64 * mhz as f64 / 1000.0 / cycles))
    }
}

const TILE: u32 = 32;
const PAGE: u32 = 2048;
/// Pages read from DRAM per batch.
const BATCH: u32 = 8;

fn tiles(shape: [u32; 4]) -> [u32; 4] {
    [shape[0], shape[1], shape[2] / TILE, shape[3] / TILE]
}

/// The page of the gathered output holding page `k` of the input of the device at `pos`.
fn out_page(k: u32, pos: u32, n: u32, t: [u32; 4], dim: usize) -> u32 {
    let mut c = [k / (t[1] * t[2] * t[3]), k / (t[2] * t[3]) % t[1], k / t[3] % t[2], k % t[3]];
    let mut e = t;
    e[dim] *= n;
    c[dim] += pos * t[dim];
    ((c[0] * e[1] + c[1]) * e[2] + c[2]) * e[3] + c[3]
}

/// Check the problem against the mesh.
pub fn check(mesh: &MeshDevice, p: &AllGather) -> Result<(), DeviceError> {
    let n = mesh.num_devices() as u32;
    let s = mesh.shape();
    if s.rows != 1 && s.cols != 1 {
        return Err(DeviceError::Api(format!("all_gather: a {s} mesh is not a line; open a 1xN or Nx1 mesh")));
    }
    if n < 2 {
        return Err(DeviceError::Api("all_gather: needs at least 2 devices".into()));
    }
    if p.topology == Topology::Ring && n < 3 {
        return Err(DeviceError::Api(format!(
            "all_gather: a ring needs at least 3 devices, not {n}; use --topology line"
        )));
    }
    if p.dim > 3 {
        return Err(DeviceError::Api(format!("all_gather: dim {} is not a dimension of a 4-D tensor (0..=3)", p.dim)));
    }
    if p.shape.contains(&0) || !p.shape[2].is_multiple_of(TILE) || !p.shape[3].is_multiple_of(TILE) {
        return Err(DeviceError::Api(format!(
            "all_gather: shape {:?}: every dimension must be at least 1 and the last two multiples of 32 (tiles)",
            p.shape
        )));
    }
    Ok(())
}

fn writer(n: u32, t: [u32; 4], dim: usize) -> Kernel {
    Kernel::dataflow("ccl_all_gather_writer", move |d| {
        let a = |d: &Dataflow<'_>, i| d.get_arg_val::<u32>(i);
        let (in_addr, out_addr, pos, fwd, bwd, scratch, hdr) =
            (a(d, 0), a(d, 1), a(d, 2), a(d, 3), a(d, 4), a(d, 5), a(d, 6));
        let mut idx = 7;
        let mut conns = Vec::new();
        for targets in [fwd, bwd] {
            if targets > 0 {
                let mut c = FabricConnection::from_args(d, &mut idx);
                d.fabric_open(&mut c);
                conns.push((c, targets as u8));
            }
        }
        let pages = t[0] * t[1] * t[2] * t[3];
        let (mx, my) = (d.my_x(NocId::Noc0), d.my_y(NocId::Noc0));
        let mut k = 0;
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
            d.noc_async_write_barrier();
            k += batch;
        }
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

/// Run it on `mesh` (a line of devices in mesh order) with data from `seed`.
pub fn run(mesh: &mut MeshDevice, p: AllGather, seed: u64) -> Result<CclOutcome, DeviceError> {
    check(mesh, &p)?;
    let n = mesh.num_devices() as u32;
    mesh.set_fabric_config(match p.topology {
        Topology::Line => FabricConfig::Fabric1D,
        Topology::Ring => FabricConfig::Fabric1DRing,
    })?;
    let t = tiles(p.shape);
    let pages = t.iter().product::<u32>();
    let slice_bytes = pages as u64 * PAGE as u64;
    let local = DeviceLocalBufferConfig { page_size: PAGE as u64, buffer_type: BufferType::Dram };
    let input = MeshBuffer::create(mesh, MeshBufferConfig::Replicated { size: slice_bytes }, local)?;
    let output = MeshBuffer::create(mesh, MeshBufferConfig::Replicated { size: slice_bytes * n as u64 }, local)?;
    // Each device's input: random bf16 bit patterns, page by page (a page is one tile).
    let mut rng = Rng::new(seed);
    let inputs: Vec<Vec<u16>> =
        (0..n).map(|_| (0..pages * PAGE / 2).map(|_| (rng.next_u64() >> 48) as u16).collect()).collect();
    let coords: Vec<_> = (0..n as usize).map(|i| mesh.shape().coord(i)).collect();
    for (c, data) in coords.iter().zip(&inputs) {
        mesh.write_shard(&input, data, *c)?;
    }
    let core = CoreCoord::new(0, 0);
    let base = {
        let d = mesh.get_device(coords[0])?;
        d.params().mem.l1_unreserved_base
    };
    let scratch = base.next_multiple_of(64);
    let hdr = scratch + BATCH * PAGE;
    let mut w = MeshWorkload::new();
    for (i, &c) in coords.iter().enumerate() {
        let i = i as u32;
        let (fwd, bwd) = match p.topology {
            Topology::Line => (n - 1 - i, i),
            Topology::Ring => ((n - 1).div_ceil(2), (n - 1) / 2),
        };
        let mut args = vec![input.address(), output.address(), i, fwd, bwd, scratch, hdr];
        let step = |k: i64| {
            let j = (i as i64 + k).rem_euclid(n as i64) as usize;
            coords[j]
        };
        if fwd > 0 {
            mesh.append_fabric_connection_rt_args(c, step(1), 0, 1, &mut args)?;
        }
        if bwd > 0 {
            mesh.append_fabric_connection_rt_args(c, step(-1), 0, 2, &mut args)?;
        }
        let mut prog = Program::new();
        prog.create_semaphore(core, 0)?;
        prog.create_semaphore(core, 0)?;
        prog.create_semaphore(core, 0)?;
        let k = prog.create_kernel(writer(n, t, p.dim as usize), core, DataMovementConfig::default())?;
        prog.set_runtime_args(k, core, &args)?;
        w.add_program(MeshCoordinateRange::single(c), prog);
    }
    let report = mesh.enqueue_mesh_workload(&w)?;
    // The reference: every device's output is the inputs concatenated along `dim` in mesh order.
    let mut expect = vec![0u16; (pages * n * PAGE / 2) as usize];
    for (pos, data) in inputs.iter().enumerate() {
        for k in 0..pages {
            let o = out_page(k, pos as u32, n, t, p.dim as usize) as usize;
            let (src, dst) = ((k * PAGE / 2) as usize, o * (PAGE / 2) as usize);
            expect[dst..dst + (PAGE / 2) as usize].copy_from_slice(&data[src..src + (PAGE / 2) as usize]);
        }
    }
    let mut bad = Vec::new();
    for &c in &coords {
        let got: Vec<u16> = mesh.read_shard(&output, c)?;
        if got != expect {
            bad.push(c.to_string());
        }
    }
    let passed = bad.is_empty();
    let check = if passed {
        format!("all {n} outputs equal the inputs concatenated along dim {} (bit-exact)", p.dim)
    } else {
        format!("outputs differ from the concatenation on {}", bad.join(", "))
    };
    Ok(CclOutcome { passed, check, report, slice_bytes })
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
