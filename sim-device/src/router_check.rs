//! The router-level NoC model's check of a run. The calibrated (calendar) NoC model lets traffic pass a
//! backlog that, on silicon, would fill the routers' buffers and stall the links behind it; it counts the
//! packets that waited beyond those buffers (`sim_noc::Backpressure`). When a run has more than a trace of
//! them ([`MIN_STALLED_PER_TILE`]), and checks are on ([`Device::set_router_check`]), the same program
//! runs again from the memories it started from on `noc.model = router`, which models the buffers and the
//! routers' arbitration; its cycles join the report, and a difference beyond [`SHOWN_ABOVE`] becomes the
//! run's back-pressure warning. Data, stats and traces stay the first run's. Chips of a mesh run that
//! exchange packets are checked together ([`check_linked`]).

use crate::device::Device;
use crate::enqueue::{Launch, Links};
use crate::mesh::run_chips::run_chips;
use crate::mesh::worker::ChipJob;
use crate::program::Program;
use report::{RouterCheck, RunReport};
use sim_noc::{Dram, NocModelKind};
use sim_tensix::L1;

/// The check's cycles are a warning when they differ from the run's by more than this fraction (the
/// calibrated model's median error on the data-movement tables is about 2%, its goal 5%).
pub const SHOWN_ABOVE: f64 = 0.05;

/// The limit front ends use by default: flit moves (over links and NIU ports) the router-level model makes
/// in about a second on one host core (9-10 M a second on the multicast matmul and vecadd programs).
pub const DEFAULT_LIMIT_FLIT_MOVES: u64 = 10_000_000;

/// A run is checked when it stalled at least this many packets beyond buffering per worker core at an
/// average moment (`sim_noc::Backpressure::stalled_per_tile`). Below it, the router model's cycles were
/// within 2.2% of the calendar model's on every program measured (Blackhole softmax 0.0007: +2.2%,
/// matmul_multicore_reuse and vecadd_multi_core 0.0003: −0.7% and +0.5%, interleaved_to_sharded 0.0001:
/// −0.9%, matmul_multi_core 0.0000: −0.5%; a C++ 3-point stencil with 14 stalled packets in 96,149 cycles,
/// 0.0002: +0.2%, whose check cost four times its run), and the smallest share above 5% was Wormhole
/// matmul_2d_mcast 512³ (0.0025: +6.8%).
pub const MIN_STALLED_PER_TILE: f64 = 0.001;

/// The warning the calendar model gives a run that stalled packets beyond buffering starts so.
const BACKPRESSURE_WARNING: &str = "not modelled: wormhole back-pressure";

/// The memories a run started from.
pub(crate) struct Snapshot {
    l1: Vec<L1>,
    eth_l1: Vec<L1>,
    dram: Dram,
}

/// Flit moves a run made: the cycles its links and NIU ports were busy (one flit a cycle each).
pub fn flit_moves(r: &RunReport) -> u64 {
    let links: u64 = r.noc.links.iter().map(|l| l.busy).sum();
    let ports: u64 = r.noc.ports.iter().map(|p| p.busy).sum();
    links + ports
}

impl Device {
    /// Check every following run that stalls packets beyond the routers' buffers on the router-level NoC
    /// model, when it made at most `limit` flit moves (`None`: never; `Some(u64::MAX)`: whatever its size).
    /// Only the calendar NoC model is checked. Each run then keeps a copy of the memories it starts from.
    pub fn set_router_check(&mut self, limit: Option<u64>) {
        self.router_check = limit;
    }

    /// The limit set by [`Device::set_router_check`].
    pub fn router_check(&self) -> Option<u64> {
        self.router_check
    }

    /// Host wall-clock seconds the checks have taken so far (not part of any result: for reporting the
    /// simulation's own speed).
    pub fn router_check_secs(&self) -> f64 {
        self.router_check_secs
    }

    /// The memories a run is about to start from, when its result may be checked.
    pub(crate) fn router_check_snapshot(&self) -> Option<Snapshot> {
        self.router_check?;
        (self.params.noc.model == NocModelKind::Calendar).then(|| Snapshot {
            l1: self.l1.clone(),
            eth_l1: self.eth_l1.clone(),
            dram: self.dram.clone(),
        })
    }

    /// Check `r`, the report of `p`'s run from `snap` (with `links`), if it stalled packets beyond buffering.
    pub(crate) fn check_on_routers(&mut self, p: &Program, links: &Links, snap: Snapshot, r: &mut RunReport) {
        let Some(limit) = self.router_check else { return };
        if !worth_a_check(r) {
            return;
        }
        let moves = flit_moves(r);
        let check = if moves > limit {
            RouterCheck::TooLarge { flit_moves: moves, limit }
        } else {
            let wall = std::time::Instant::now();
            let rerun = self.rerun_on_routers(p, links, snap, r.program_id);
            self.router_check_secs += wall.elapsed().as_secs_f64();
            match rerun {
                Ok(cycles) => RouterCheck::Ran { cycles },
                Err(e) => RouterCheck::Failed(e),
            }
        };
        note_check(r, &check);
        r.router_check = Some(check);
    }

    /// Run `p` again from `snap` on the router-level model; the device's memories end as they were.
    fn rerun_on_routers(
        &mut self,
        p: &Program,
        links: &Links,
        snap: Snapshot,
        program_id: u32,
    ) -> Result<sim_core::Cycles, String> {
        let launch = Launch::build_linked(self, p, links).map_err(|e| e.to_string())?;
        // The snapshot goes in (into the host windows C++ kernels use, where L1 lives in one); what the run
        // left comes back afterwards.
        let after = self.exchange_memories(snap);
        let result = launch.what_if(self.router_params(), program_id).run(self);
        self.exchange_memories(after);
        result.map(|r| r.cycles).map_err(|e| e.to_string())
    }

    /// The device's parameters with the router-level NoC model.
    fn router_params(&self) -> std::sync::Arc<sim_params::Params> {
        let mut params = (*self.params).clone();
        params.noc.model = NocModelKind::Router;
        std::sync::Arc::new(params)
    }

    /// Put `s`'s contents into the device's memories and give back what they held.
    pub(crate) fn exchange_memories(&mut self, s: Snapshot) -> Snapshot {
        let l1 = self.l1.iter_mut().zip(s.l1).map(|(m, x)| m.exchange(x)).collect();
        let eth_l1 = self.eth_l1.iter_mut().zip(s.eth_l1).map(|(m, x)| m.exchange(x)).collect();
        let dram = std::mem::replace(&mut self.dram, s.dram);
        Snapshot { l1, eth_l1, dram }
    }
}

/// Check the run of chips that exchanged packets (`jobs`, which gave `reports`) as one: when any chip stalled
/// enough packets, every chip keeps a copy of its memories and their flit moves together are within the
/// smallest limit, all run again together on the router-level model from those copies, and each report gets
/// its chip's cycles.
pub(crate) fn check_linked(
    jobs: &[ChipJob<'_>],
    window: Option<sim_core::Cycles>,
    workers: usize,
    lookahead: bool,
    snapshots: Vec<Option<Snapshot>>,
    reports: &mut [RunReport],
) {
    if !reports.iter().any(worth_a_check) {
        return;
    }
    // A chip without a copy is not checked (checks off, or another NoC model): then none is.
    let Some(snapshots) = snapshots.into_iter().collect::<Option<Vec<Snapshot>>>() else { return };
    let limit = jobs.iter().filter_map(|j| j.device.lock().router_check).min().unwrap_or(0);
    let moves: u64 = reports.iter().map(flit_moves).sum();
    let checks: Vec<RouterCheck> = if moves > limit {
        vec![RouterCheck::TooLarge { flit_moves: moves, limit }; reports.len()]
    } else {
        let wall = std::time::Instant::now();
        let after: Vec<Snapshot> =
            jobs.iter().zip(snapshots).map(|(j, s)| j.device.lock().exchange_memories(s)).collect();
        let what_if: Vec<ChipJob<'_>> = jobs
            .iter()
            .zip(reports.iter())
            .map(|(j, r)| ChipJob {
                device: j.device,
                program: j.program,
                links: j.links.clone(),
                chip_id: j.chip_id,
                what_if: Some((j.device.lock().router_params(), r.program_id)),
            })
            .collect();
        let rerun = run_chips(&what_if, window, workers, lookahead);
        for (j, a) in jobs.iter().zip(after) {
            j.device.lock().exchange_memories(a);
        }
        jobs[0].device.lock().router_check_secs += wall.elapsed().as_secs_f64();
        match rerun {
            Ok(rs) => rs.iter().map(|r| RouterCheck::Ran { cycles: r.cycles }).collect(),
            Err(e) => vec![RouterCheck::Failed(e.to_string()); reports.len()],
        }
    };
    for (r, check) in reports.iter_mut().zip(checks) {
        note_check(r, &check);
        r.router_check = Some(check);
    }
}

/// Whether `r` stalled enough packets beyond buffering to be checked ([`MIN_STALLED_PER_TILE`]).
fn worth_a_check(r: &RunReport) -> bool {
    let bp = &r.noc.backpressure;
    bp.first.is_some() && bp.stalled_per_tile(r.cycles.0, r.noc.worker_tiles) >= MIN_STALLED_PER_TILE
}

/// Replace the calendar model's back-pressure warning in `r` with what the check found.
fn note_check(r: &mut RunReport, check: &RouterCheck) {
    let cycles = r.cycles.0;
    match check {
        RouterCheck::Ran { cycles: c } => {
            r.warnings.retain(|w| !w.starts_with(BACKPRESSURE_WARNING));
            let change = c.0 as f64 / cycles.max(1) as f64 - 1.0;
            if change.abs() > SHOWN_ABOVE {
                r.warnings.push(format!(
                    "{BACKPRESSURE_WARNING}. {} packets waited behind another destination's backlog longer than \
                     the routers behind them buffer, and this model lets the other traffic pass; the \
                     router-level NoC model (noc.model = router), which models those buffers and the routers' \
                     arbitration, times the same run at {} cycles ({:+.1}% against these {cycles}; it is far \
                     slower to simulate)",
                    r.noc.backpressure.blocked_packets,
                    c.0,
                    change * 100.0
                ));
            }
        }
        RouterCheck::TooLarge { flit_moves, limit } => {
            if let Some(w) = r.warnings.iter_mut().find(|w| w.starts_with(BACKPRESSURE_WARNING)) {
                w.push_str(&format!(
                    "; the router-level model was not run to compare: this run moved {flit_moves} flits over \
                     links and ports, above the check's limit of {limit}"
                ));
            }
        }
        RouterCheck::Failed(e) => r.warnings.push(format!(
            "not checked: packets waited beyond the routers' buffers, and the router-level NoC model \
             (noc.model = router) could not run this program to compare: {e}"
        )),
    }
}
