//! What the collectives share: the topology, the outcome of a run (one or more mesh runs), the checks of a
//! request against the mesh, and the tile arithmetic of 4-D bf16 tensors cut into slices along a dimension.

use crate::rng::Rng;
use sim_device::Cycles;
use sim_device::mesh::{MeshBuffer, MeshCoordinate, MeshDevice, MeshRunReport, MeshWorkload};
use sim_device::prelude::*;
use sim_device::report::multi_chip::{ChipRun, eth_utilisation};

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

/// What a collective's run gives back.
#[derive(Debug)]
pub struct CclOutcome {
    /// Whether every device's output matched the reference.
    pub passed: bool,
    /// The check, in words.
    pub check: String,
    /// The mesh runs in order, each with the op it ran (all_reduce: reduce_scatter, then all_gather).
    pub phases: Vec<(&'static str, MeshRunReport)>,
    /// Each op's fixed start before its first packet ([`op_start_cycles`]), summed over the ops.
    pub start: Cycles,
    /// Bytes of one device's input.
    pub input_bytes: u64,
    /// Host seconds spent inside the mesh runs (not in set-up or the check): for speed figures only,
    /// never part of a result.
    pub simulate_secs: f64,
}

/// The fixed start of one collective op on a line or ring of `devices` chips, before its first packet:
/// the op's launch and the workers opening their fabric connections (`fabric.op_launch_cycles`), then a
/// start handshake that walks the line, one Ethernet round trip per hop (each one-way trip the link's
/// latency plus a router's packet time, as the fabric model charges them). The chips' own reports start
/// after it; the collective's total includes it.
pub fn op_start_cycles(params: &sim_device::params::Params, devices: u32) -> Cycles {
    let link = Cycles(params.eth.latency_ns.saturating_mul(params.clock_mhz as u64) / 1000);
    let round_trip = (link + params.fabric.router_packet_cycles).0 * 2;
    Cycles(params.fabric.op_launch.0 + u64::from(devices.saturating_sub(1)) * round_trip)
}

/// A collective's bandwidths as tt-metal's CCL reports give them (the NCCL convention): the bytes the
/// op is named by (all_gather: one device's output, `n` times its input; reduce_scatter and all_reduce:
/// one device's input) over the op's time is `algbw`; `busbw` scales it by the share of those bytes that
/// crosses links, `(n-1)/n` for all_gather and reduce_scatter and `2(n-1)/n` for all_reduce, so it
/// compares with a link's rate whatever `n`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CclBandwidth {
    /// The bytes the op is named by (see the type).
    pub size_bytes: u64,
    /// `size_bytes` over the op's time, GB/s (10^9 bytes per second).
    pub algbw_gbs: f64,
    /// `algbw` times the op's bus factor, GB/s.
    pub busbw_gbs: f64,
}

/// [`CclBandwidth`] of `op` (all_gather, reduce_scatter or all_reduce) on `n` devices with `input_bytes`
/// per device, taking `micros` µs; `None` for another op or a zero time or device count.
pub fn ccl_bandwidth(op: &str, input_bytes: u64, n: u32, micros: f64) -> Option<CclBandwidth> {
    if n == 0 || micros <= 0.0 {
        return None;
    }
    let share = (n - 1) as f64 / n as f64;
    let (size_bytes, factor) = match op {
        "all_gather" => (input_bytes.saturating_mul(n as u64), share),
        "reduce_scatter" => (input_bytes, share),
        "all_reduce" => (input_bytes, 2.0 * share),
        _ => return None,
    };
    let algbw_gbs = size_bytes as f64 / (micros * 1e3);
    Some(CclBandwidth { size_bytes, algbw_gbs, busbw_gbs: algbw_gbs * factor })
}

/// Enqueue a mesh workload and measure the host time it took.
pub(crate) fn timed_run(mesh: &mut MeshDevice, w: &MeshWorkload) -> Result<(MeshRunReport, f64), DeviceError> {
    let t = std::time::Instant::now();
    let r = mesh.enqueue_mesh_workload(w)?;
    Ok((r, t.elapsed().as_secs_f64()))
}

impl CclOutcome {
    /// The collective's time: each op's fixed start, and the phases one after another.
    pub fn cycles(&self) -> Cycles {
        Cycles(self.phases.iter().map(|p| p.1.cycles.0).sum::<u64>() + self.start.0)
    }

    /// Per device over all phases: (coordinate, chip id, cycles, bytes sent over Ethernet), in mesh order.
    pub fn devices(&self) -> Vec<(MeshCoordinate, u32, u64, u64)> {
        let mut out: Vec<(MeshCoordinate, u32, u64, u64)> = Vec::new();
        for (_, r) in &self.phases {
            for (c, id, d) in &r.devices {
                let tx: u64 = d.eth.iter().map(|e| e.tx_bytes).sum();
                match out.iter_mut().find(|o| o.1 == *id) {
                    Some(o) => {
                        o.2 += d.cycles.0;
                        o.3 += tx;
                    }
                    None => out.push((*c, *id, d.cycles.0, tx)),
                }
            }
        }
        out
    }

    /// The chip clock (MHz) of the run.
    pub fn clock_mhz(&self) -> u32 {
        self.phases.first().and_then(|p| p.1.devices.first()).map_or(1000, |d| d.2.clock_mhz)
    }

    /// Every chip's run of every phase on the collective's timeline (a phase starts when the previous ends).
    pub fn chip_runs(&self) -> Vec<ChipRun<'_>> {
        let mut parts = Vec::new();
        let mut offset = 0u64;
        for (_, r) in &self.phases {
            for (c, id, d) in &r.devices {
                parts.push(ChipRun { chip_id: *id, coord: (c.row, c.col), offset: Cycles(offset), report: d });
            }
            offset += r.cycles.0;
        }
        parts
    }

    /// The busiest Ethernet link direction over the whole collective: (chip id, channel, bytes sent, GB/s
    /// over the collective's time).
    pub fn busiest_link(&self) -> Option<(u32, u32, u64, f64)> {
        let cycles = self.cycles();
        let mhz = self.clock_mhz() as f64;
        eth_utilisation(&self.chip_runs(), cycles)
            .into_iter()
            .max_by_key(|u| (u.tx_bytes, std::cmp::Reverse((u.chip_id, u.channel))))
            .map(|u| (u.chip_id, u.channel, u.tx_bytes, u.tx_bytes as f64 * mhz / 1000.0 / cycles.0.max(1) as f64))
    }

    /// What the runs relied on that tensim does not model (each line once).
    pub fn not_modelled(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for m in self.phases.iter().flat_map(|p| p.1.not_modelled.iter()) {
            if !out.contains(m) {
                out.push(m.clone());
            }
        }
        out
    }
}

/// Elements per tile side.
pub const TILE: u32 = 32;
/// Bytes of one bf16 tile (the page of every collective's buffers).
pub const PAGE: u32 = 2048;

/// A 4-D shape in tiles: the last two dimensions divided by 32.
pub fn tiles(shape: [u32; 4]) -> [u32; 4] {
    [shape[0], shape[1], shape[2] / TILE, shape[3] / TILE]
}

/// The tile coordinate of page `k` of a tensor of `t` tiles (row-major over the tiles).
pub fn unravel(k: u32, t: [u32; 4]) -> [u32; 4] {
    [k / (t[1] * t[2] * t[3]), k / (t[2] * t[3]) % t[1], k / t[3] % t[2], k % t[3]]
}

/// The page of tile coordinate `c` in a tensor of `t` tiles.
pub fn ravel(c: [u32; 4], t: [u32; 4]) -> u32 {
    ((c[0] * t[1] + c[1]) * t[2] + c[2]) * t[3] + c[3]
}

/// The page of a tensor of `t` tiles cut into `n` slices along `dim` holding page `j` of slice `s`.
pub fn slice_page(j: u32, s: u32, n: u32, t: [u32; 4], dim: usize) -> u32 {
    let mut e = t;
    e[dim] /= n;
    let mut c = unravel(j, e);
    c[dim] += s * e[dim];
    ravel(c, t)
}

/// The devices of `mesh` as a line in mesh order; an error unless the mesh is 1xN or Nx1 and big enough
/// for the topology.
pub fn line_of(mesh: &MeshDevice, op: &str, topology: Topology) -> Result<Vec<MeshCoordinate>, DeviceError> {
    let n = mesh.num_devices() as u32;
    let s = mesh.shape();
    if s.rows != 1 && s.cols != 1 {
        return Err(DeviceError::Api(format!("{op}: a {s} mesh is not a line; open a 1xN or Nx1 mesh")));
    }
    if n < 2 {
        return Err(DeviceError::Api(format!("{op}: needs at least 2 devices")));
    }
    if topology == Topology::Ring && n < 3 {
        return Err(DeviceError::Api(format!("{op}: a ring needs at least 3 devices, not {n}; use a line topology")));
    }
    Ok((0..n as usize).map(|i| s.coord(i)).collect())
}

/// Check a 4-D bf16 tile shape and a dimension (0..=3).
pub fn check_shape(op: &str, shape: [u32; 4], dim: u32) -> Result<(), DeviceError> {
    if dim > 3 {
        return Err(DeviceError::Api(format!("{op}: dim {dim} is not a dimension of a 4-D tensor (0..=3)")));
    }
    if shape.contains(&0) || !shape[2].is_multiple_of(TILE) || !shape[3].is_multiple_of(TILE) {
        return Err(DeviceError::Api(format!(
            "{op}: shape {shape:?}: every dimension must be at least 1 and the last two multiples of 32 (tiles)"
        )));
    }
    Ok(())
}

/// Check that `shape` can be cut into `n` whole-tile slices along `dim`.
pub fn check_divisible(op: &str, shape: [u32; 4], dim: u32, n: u32) -> Result<(), DeviceError> {
    let t = tiles(shape);
    if !t[dim as usize].is_multiple_of(n) {
        let unit = if dim >= 2 { " tiles of 32" } else { "" };
        return Err(DeviceError::Api(format!(
            "{op}: dim {dim} of shape {shape:?} has {}{unit}, which {n} devices cannot share evenly; use a size divisible by {}",
            t[dim as usize],
            if dim >= 2 { n * TILE } else { n }
        )));
    }
    Ok(())
}

/// The devices (of `coords`, in order) whose shard of `output` differs from `expect(i)`, by coordinate; the
/// shards are compared in place, several devices at once on the host's threads.
pub fn mismatches<'a>(
    mesh: &MeshDevice,
    output: &MeshBuffer,
    coords: &[MeshCoordinate],
    expect: impl Fn(usize) -> &'a [u16] + Sync,
) -> Result<Vec<String>, DeviceError> {
    use rayon::prelude::*;
    let same: Vec<bool> = coords
        .par_iter()
        .enumerate()
        .map(|(i, &c)| mesh.shard_matches(output, expect(i), c))
        .collect::<Result<_, _>>()?;
    Ok(coords.iter().zip(same).filter(|(_, s)| !s).map(|(c, _)| c.to_string()).collect())
}

/// `len` bf16 values uniform in [-1, 1), as bit patterns.
pub fn random_bf16_bits(rng: &mut Rng, len: usize) -> Vec<u16> {
    (0..len)
        .map(|_| {
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            bfloat16::from_f32(u * 2.0 - 1.0).0
        })
        .collect()
}

/// `a + b` in bf16 as the FPU adds into a 16-bit DST: in f32, rounded to nearest even.
pub fn add_bf16(a: u16, b: u16) -> u16 {
    bfloat16::from_f32(bfloat16(a).to_f32() + bfloat16(b).to_f32()).0
}

/// Check that every hop of the line (and a ring's closing one) of `coords` has at least `links` Ethernet links
/// (routing planes), for `op` (`links` 0 is an error too).
pub fn check_links(
    mesh: &MeshDevice,
    op: &str,
    coords: &[MeshCoordinate],
    topology: Topology,
    links: u32,
) -> Result<(), DeviceError> {
    if links == 0 {
        return Err(DeviceError::api(format!("{op}: links = 0; give at least one routing plane")));
    }
    let n = coords.len();
    let hops = if topology == Topology::Ring { n } else { n.saturating_sub(1) };
    for h in 0..hops {
        let (a, b) = (coords[h], coords[(h + 1) % n]);
        let have = mesh.links_between(a, b)?;
        if have < links {
            return Err(DeviceError::api(format!(
                "{op} with {links} links: devices {a} and {b} are joined by {have}; use at most {have}"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_cover_the_tensor_once() {
        for dim in 0..4 {
            let t = [2, 2, 4, 4];
            let n = 2;
            let per = t.iter().product::<u32>() / n;
            let mut seen = vec![false; (per * n) as usize];
            for s in 0..n {
                for j in 0..per {
                    let p = slice_page(j, s, n, t, dim) as usize;
                    assert!(!seen[p], "dim {dim}: page {p} twice");
                    seen[p] = true;
                    assert_eq!(unravel(p as u32, t)[dim] / (t[dim] / n), s, "dim {dim}: page {p} in slice {s}");
                }
            }
            assert!(seen.iter().all(|&b| b));
        }
    }

    #[test]
    fn bandwidths_follow_the_nccl_convention() {
        // 1 MiB per device gathered on 8 devices in 100 us: 8 MiB named, 83.886 GB/s, 7/8 of it on the bus.
        let b = ccl_bandwidth("all_gather", 1 << 20, 8, 100.0).unwrap();
        assert_eq!(b.size_bytes, 8 << 20);
        assert!((b.algbw_gbs - 83.886_08).abs() < 1e-9, "{b:?}");
        assert!((b.busbw_gbs - 83.886_08 * 7.0 / 8.0).abs() < 1e-9, "{b:?}");
        let r = ccl_bandwidth("reduce_scatter", 1 << 20, 4, 10.0).unwrap();
        assert_eq!(r.size_bytes, 1 << 20);
        assert!((r.busbw_gbs - r.algbw_gbs * 0.75).abs() < 1e-9);
        let a = ccl_bandwidth("all_reduce", 1 << 20, 2, 10.0).unwrap();
        assert!((a.busbw_gbs - a.algbw_gbs).abs() < 1e-9, "2(n-1)/n is 1 on two devices");
        assert_eq!(ccl_bandwidth("broadcast", 1, 2, 1.0), None);
        assert_eq!(ccl_bandwidth("all_gather", 1, 2, 0.0), None);
    }

    #[test]
    fn bf16_add_rounds_to_nearest_even() {
        let one = bfloat16::from_f32(1.0).0;
        let tiny = bfloat16::from_f32(1.0 / 256.0).0; // half an ulp of 1.0 in bf16
        assert_eq!(add_bf16(one, tiny), one, "a tie rounds to the even neighbour");
        let three_halves_ulp = bfloat16::from_f32(3.0 / 512.0).0;
        assert_eq!(bfloat16(add_bf16(one, three_halves_ulp)).to_f32(), 1.0 + 1.0 / 128.0);
    }
}
