//! `all_reduce` (sum) over a line or ring of chips, as `ttnn.all_reduce` runs it on the fabric: a
//! reduce_scatter along the first dimension the devices divide (in whole tiles), then an all_gather of the
//! reduced slices along the same dimension, as two mesh runs one after the other (their times add). Every
//! device ends with the whole sum; the check is bit-exact against the host doing the same additions.
//!
//! Not modelled: tt-metal's fallback (all_gather on dim 0 and a local sum) for shapes no dimension of
//! which the devices divide — such a shape is refused with that reason.

use super::all_gather::{self, AllGather};
use super::ccl::{CclOutcome, PAGE, Topology, check_shape, line_of, mismatches, random_bf16_bits, tiles, timed_run};
use super::reduce_scatter::{self, ReduceScatter};
use crate::rng::Rng;
use sim_device::mesh::{DeviceLocalBufferConfig, MeshBuffer, MeshBufferConfig, MeshDevice};
use sim_device::prelude::*;

/// The problem: each device's input of `shape` (4-D, elements; the last two multiples of 32), summed.
#[derive(Debug, Clone, Copy)]
pub struct AllReduce {
    /// Per-device input shape (also the output's).
    pub shape: [u32; 4],
    /// Line or ring.
    pub topology: Topology,
    /// Routing planes used per direction by both halves (ttnn's `num_links`).
    pub links: u32,
}

/// The dimension the reduce_scatter and all_gather halves run on: the first the devices divide.
pub fn split_dim(shape: [u32; 4], n: u32) -> Result<u32, DeviceError> {
    let t = tiles(shape);
    (0..4u32).find(|&d| t[d as usize].is_multiple_of(n)).ok_or_else(|| {
        DeviceError::Api(format!(
            "all_reduce: no dimension of shape {shape:?} (in tiles {t:?}) divides among {n} devices; \
             not modelled: the all_gather + local sum fallback tt-metal uses then. Use a shape with a dimension \
             divisible by {n} (by {} for the last two)",
            n * 32
        ))
    })
}

/// Run it on `mesh` (a line of devices in mesh order) with data from `seed`: inputs uniform in [-1, 1).
pub fn run(mesh: &mut MeshDevice, p: AllReduce, seed: u64) -> Result<CclOutcome, DeviceError> {
    let coords = line_of(mesh, "all_reduce", p.topology)?;
    check_shape("all_reduce", p.shape, 0)?;
    let n = coords.len() as u32;
    let dim = split_dim(p.shape, n)?;
    mesh.set_fabric_config(all_gather::fabric_config(p.topology))?;
    let rs = ReduceScatter { shape: p.shape, dim, topology: p.topology, links: p.links };
    let mut slice = p.shape;
    slice[dim as usize] /= n;
    let ag = AllGather { shape: slice, dim, topology: p.topology, links: p.links };
    let input_bytes = tiles(p.shape).iter().product::<u32>() as u64 * PAGE as u64;
    let local = DeviceLocalBufferConfig { page_size: PAGE as u64, buffer_type: BufferType::Dram };
    let input = MeshBuffer::create(mesh, MeshBufferConfig::Replicated { size: input_bytes }, local)?;
    let reduced = MeshBuffer::create(mesh, MeshBufferConfig::Replicated { size: input_bytes / n as u64 }, local)?;
    let output = MeshBuffer::create(mesh, MeshBufferConfig::Replicated { size: input_bytes }, local)?;
    let inter = reduce_scatter::intermediate(mesh, &rs)?;
    let mut rng = Rng::new(seed);
    let inputs: Vec<Vec<u16>> = (0..n).map(|_| random_bf16_bits(&mut rng, (input_bytes / 2) as usize)).collect();
    for (c, data) in coords.iter().zip(&inputs) {
        mesh.write_shard(&input, data, *c)?;
    }
    let w = reduce_scatter::workload(mesh, &rs, &input, &inter, &reduced)?;
    let (first, s1) = timed_run(mesh, &w)?;
    let w = all_gather::workload(mesh, &ag, &reduced, &output)?;
    let (second, s2) = timed_run(mesh, &w)?;
    let expect = all_gather::reference(&reduce_scatter::reference(&inputs, &rs), tiles(slice), dim as usize);
    let bad = mismatches(mesh, &output, &coords, |_| &expect)?;
    let passed = bad.is_empty();
    let check = if passed {
        format!(
            "all {n} outputs equal the sum over the devices (bit-exact; reduce_scatter and all_gather on dim {dim})"
        )
    } else {
        format!("outputs differ from the sum on {}", bad.join(", "))
    };
    Ok(CclOutcome {
        passed,
        check,
        phases: vec![("reduce_scatter", first), ("all_gather", second)],
        // Two ops, each with its own start.
        start: super::ccl::op_start_cycles(mesh.get_device(coords[0])?.params(), n) * 2,
        input_bytes,
        simulate_secs: s1 + s2,
    })
}
