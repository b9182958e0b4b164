//! `MeshWorkload` and `EnqueueMeshWorkload`: a program per range of mesh coordinates, run on every device
//! of its range — the chips together (`run.rs`), each chip's simulation on one thread as always, so the
//! results are the same with any number of workers.

use super::run_chips::{run_chips, window_of};
use super::worker::ChipJob;
use super::{MeshCoordinate, MeshCoordinateRange, MeshDevice, MeshShape};
use crate::enqueue::Links;
use crate::error::DeviceError;
use crate::program::Program;
use report::RunReport;
use sim_chip::fabric_config::{FabricConfig, FabricLayout};
use sim_core::Cycles;

/// Programs on ranges of mesh coordinates (`MeshWorkload::add_program`).
#[derive(Default)]
pub struct MeshWorkload {
    programs: Vec<(MeshCoordinateRange, Program)>,
}

impl std::fmt::Debug for MeshWorkload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ranges: Vec<String> = self.programs.iter().map(|(r, _)| r.to_string()).collect();
        write!(f, "MeshWorkload({})", ranges.join(", "))
    }
}

impl MeshWorkload {
    /// An empty workload.
    pub fn new() -> MeshWorkload {
        MeshWorkload::default()
    }

    /// Run `program` on every device of `range` (`AddProgramToMeshWorkload`).
    pub fn add_program(&mut self, range: MeshCoordinateRange, program: Program) {
        self.programs.push((range, program));
    }
}

/// What a mesh run gives back: one report per device that ran a program.
#[derive(Debug)]
pub struct MeshRunReport {
    /// (coordinate, chip id, report), row-major.
    pub devices: Vec<(MeshCoordinate, u32, RunReport)>,
    /// The mesh's time: the slowest device.
    pub cycles: Cycles,
    /// What the run relied on that tensim does not model.
    pub not_modelled: Vec<String>,
}

impl MeshDevice {
    /// Run `w` (`EnqueueMeshWorkload`): each device runs the program of the range containing it.
    pub fn enqueue_mesh_workload(&mut self, w: &MeshWorkload) -> Result<MeshRunReport, DeviceError> {
        let shape: MeshShape = self.shape;
        let mut jobs: Vec<(usize, &Program)> = Vec::new();
        for (r, (range, program)) in w.programs.iter().enumerate() {
            if !shape.contains(range.start)
                || !shape.contains(range.end)
                || range.start.row > range.end.row
                || range.start.col > range.end.col
            {
                return Err(DeviceError::Api(format!(
                    "EnqueueMeshWorkload: program {r} is on {range}, outside the {shape} mesh (or its corners are swapped)"
                )));
            }
            for c in range.iter() {
                let i = c.to_linear_index(shape);
                if let Some(prev) = jobs.iter().position(|j| j.0 == i) {
                    return Err(DeviceError::Api(format!(
                        "EnqueueMeshWorkload: device {c} is in the ranges of two programs ({prev} and {r}); a device runs one program"
                    )));
                }
                jobs.push((i, program));
            }
        }
        // With the fabric enabled every chip's routers run (tt-metal's persistent router kernels), also on
        // chips the workload gives no program: they join with an empty one.
        let empty = Program::new();
        if self.fabric.enabled() && !jobs.is_empty() {
            for i in 0..(shape.rows * shape.cols) as usize {
                if !jobs.iter().any(|j| j.0 == i) {
                    jobs.push((i, &empty));
                }
            }
        }
        jobs.sort_by_key(|j| j.0);
        if jobs.is_empty() {
            return Ok(MeshRunReport { devices: Vec::new(), cycles: Cycles::ZERO, not_modelled: Vec::new() });
        }
        // The job of each chip id, to turn the system's links into links between jobs.
        let job_of = |chip: u32| jobs.iter().position(|j| self.chip_ids[j.0] == chip);
        let linked =
            self.fabric.enabled() || jobs.iter().any(|(_, p)| p.kernels.iter().any(|k| k.config.is_ethernet()));
        let layout = if self.fabric.enabled() {
            let dev = self.devices[jobs[0].0].lock();
            Some(FabricLayout::new(&dev.params, self.fabric).map_err(DeviceError::Config)?)
        } else {
            None
        };
        let chip_jobs: Vec<ChipJob<'_>> = jobs
            .iter()
            .map(|&(i, program)| ChipJob {
                device: &self.devices[i],
                program,
                links: Links {
                    peers: self.eth_peers[i]
                        .iter()
                        .map(|p| p.and_then(|(chip, ch)| job_of(chip).map(|j| (j as u32, ch))))
                        .collect(),
                    routers: self.routers_of(i),
                    layout,
                    ring: self.fabric == FabricConfig::Fabric1DRing,
                },
                chip_id: self.chip_ids[i],
                what_if: None,
            })
            .collect();
        let window =
            if linked && chip_jobs.len() > 1 { Some(window_of(&self.devices[jobs[0].0].lock())) } else { None };
        // The runs may be checked on the router-level NoC model, from the memories they start from: each
        // chip's alone, or chips that exchange packets together.
        let snapshots: Vec<_> = chip_jobs.iter().map(|j| j.device.lock().router_check_snapshot()).collect();
        let mut reports = run_chips(&chip_jobs, window, self.workers, self.lookahead)?;
        if linked {
            crate::router_check::check_linked(
                &chip_jobs,
                window,
                self.workers,
                self.lookahead,
                snapshots,
                &mut reports,
            );
        } else {
            for ((job, snapshot), report) in chip_jobs.iter().zip(snapshots).zip(reports.iter_mut()) {
                if let Some(s) = snapshot {
                    job.device.lock().check_on_routers(job.program, &job.links, s, report);
                }
            }
        }
        let out: Vec<(MeshCoordinate, u32, RunReport)> =
            jobs.iter().zip(reports).map(|(&(i, _), r)| (shape.coord(i), self.chip_ids[i], r)).collect();
        let cycles = out.iter().map(|d| d.2.cycles).max().unwrap_or_default();
        let not_modelled = Vec::new();
        Ok(MeshRunReport { devices: out, cycles, not_modelled })
    }
}
