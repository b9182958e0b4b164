//! A data-parallel matmul over a mesh (seed 003's first example): the input `[batch, M, K]` is sharded over
//! the batch, one piece per device in row-major mesh order; the weights `[K, N]` are replicated; every chip
//! runs the blocked multicore matmul on its `(batch/devices · M) × K` piece; the outputs concatenate back
//! along the batch. Checked against a CPU reference by PCC.

use crate::checks::matmul_reference;
use crate::examples::common::{read_bf16_matrix, write_bf16_matrix};
use crate::examples::matmul_common::MatmulShape;
use crate::examples::matmul_multicore_reuse::program;
use crate::golden::check_pcc;
use crate::rng::{Rng, random_bf16};
use sim_device::mesh::distribute::{concat, replicate_to_mesh, shard_to_mesh};
use sim_device::mesh::{
    DeviceLocalBufferConfig, MeshBuffer, MeshBufferConfig, MeshCoordinateRange, MeshDevice, MeshRunReport, MeshWorkload,
};
use sim_device::prelude::*;

/// The problem: `batch` items of `(m × k) · (k × n)`.
#[derive(Debug, Clone, Copy)]
pub struct DpMatmul {
    /// Batch items (divisible by the number of devices).
    pub batch: u32,
    /// Rows per item.
    pub m: u32,
    /// Inner dimension.
    pub k: u32,
    /// Columns.
    pub n: u32,
}

/// What the run gives back.
#[derive(Debug)]
pub struct DpOutcome {
    /// Whether the output matched the reference.
    pub passed: bool,
    /// The check, in words.
    pub check: String,
    /// Per-device reports and the mesh's cycles.
    pub report: MeshRunReport,
}

const TILE_BYTES: u64 = 2048;

/// Run it on `mesh` with data from `seed`.
pub fn run(mesh: &mut MeshDevice, p: DpMatmul, fid: MathFidelity, seed: u64) -> Result<DpOutcome, DeviceError> {
    let devices = mesh.num_devices() as u32;
    if p.batch == 0 || !p.batch.is_multiple_of(devices) {
        return Err(DeviceError::Api(format!(
            "batch {}: data parallel over {devices} devices needs a batch divisible by {devices}",
            p.batch
        )));
    }
    let local = MatmulShape { m: p.batch / devices * p.m, k: p.k, n: p.n };
    for (name, v) in [("m", p.m), ("k", p.k), ("n", p.n)] {
        if v == 0 || !v.is_multiple_of(32) {
            return Err(DeviceError::Api(format!("{name} {v}: matmul dimensions are whole tiles (multiples of 32)")));
        }
    }
    let mut rng = Rng::new(seed);
    let a = random_bf16(&mut rng, (p.batch * p.m * p.k) as usize, -1.0, 1.0);
    let w = random_bf16(&mut rng, (p.k * p.n) as usize, -1.0, 1.0);
    let dram = DeviceLocalBufferConfig { page_size: TILE_BYTES, buffer_type: BufferType::Dram };
    let per_device = |tiles: u32| MeshBufferConfig::Replicated { size: u64::from(tiles) * TILE_BYTES };
    let in0 = MeshBuffer::create(mesh, per_device(local.mt() * local.kt()), dram)?;
    let in1 = MeshBuffer::create(mesh, per_device(local.kt() * local.nt()), dram)?;
    let out = MeshBuffer::create(mesh, per_device(local.mt() * local.nt()), dram)?;
    // Distribute: A sharded over the batch, W replicated (each written tilized to its device).
    let shape = [p.batch as usize, p.m as usize, p.k as usize];
    let (_, a_pieces) = shard_to_mesh(mesh.shape(), &shape, &a, 0)?;
    let w_pieces = replicate_to_mesh(mesh.shape(), &w);
    let range = MeshCoordinateRange::all(mesh.shape());
    for (i, c) in range.iter().enumerate() {
        let mut dev = mesh.get_device(c)?;
        write_bf16_matrix(&mut dev, in0.device_buffer(i), &a_pieces[i], local.m as usize, local.k as usize)?;
        write_bf16_matrix(&mut dev, in1.device_buffer(i), &w_pieces[i], local.k as usize, local.n as usize)?;
    }
    let grid = mesh.get_device(range.start)?.compute_with_storage_grid_size();
    let (prog, _) = program(grid, local, fid, (in0.address(), in1.address(), out.address()))?;
    let mut work = MeshWorkload::new();
    work.add_program(range, prog);
    let report = mesh.enqueue_mesh_workload(&work)?;
    let mut pieces = Vec::new();
    for (i, c) in range.iter().enumerate() {
        let mut dev = mesh.get_device(c)?;
        pieces.push(read_bf16_matrix(&mut dev, out.device_buffer(i), local.m as usize, local.n as usize)?);
    }
    let (_, got) = concat(&[local.m as usize, local.n as usize], &pieces, 0)?;
    let want = matmul_reference(&a, &w, (p.batch * p.m) as usize, p.n as usize, p.k as usize);
    let what = format!("data-parallel C = A·W over {} chips ({}x{}x{}x{})", devices, p.batch, p.m, p.k, p.n);
    let (passed, check) = check_pcc(&what, &got, &want, 0.99);
    Ok(DpOutcome { passed, check, report })
}
