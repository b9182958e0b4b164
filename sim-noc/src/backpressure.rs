//! Where tensim's link queues stop being physical. A link calendar lets packets queue without limit, but a
//! wormhole router parks only `vc_buffer_bytes` of a stalled packet per router behind its head; the rest
//! stays in the routers upstream, holding their links. When the head of a packet for one destination waits
//! longer than its upstream buffers absorb, behind a backlog for *another* destination (head-of-line
//! blocking across flows), silicon would stall the traffic behind it; tensim lets that traffic pass. This
//! module counts those packets so a run can say "not modelled" instead of printing optimistic cycles. A
//! backlog of packets all bound for one destination (incast) is left out: there the destination is the
//! bottleneck either way, and silicon's totals agree with tensim's (calibration/dm One from All).

use crate::topology::LinkId;
use sim_core::{Cycle, Cycles};

/// Head-of-line blocking tensim does not model, as observed in one run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Backpressure {
    /// Packets whose head waited at a link beyond what the routers behind it buffer, behind a backlog for
    /// another destination.
    pub blocked_packets: u64,
    /// The longest of those waits beyond buffering.
    pub max_excess: Cycles,
    /// The sum of those waits beyond buffering (divided by a run's length: how many packets were, on
    /// average, stalled beyond buffering at any moment).
    pub total_excess: Cycles,
    /// The first such packet: when its head reached the link, and the link.
    pub first: Option<(Cycle, LinkId)>,
}

impl Backpressure {
    /// Whether a `cycles`-long run on a chip of `tiles` worker cores stalled enough packets beyond
    /// buffering to warn (see [`WARN_STALLED_PER_TILE`]).
    pub fn significant(&self, cycles: u64, tiles: u32) -> bool {
        self.first.is_some() && self.stalled_per_tile(cycles, tiles) > WARN_STALLED_PER_TILE
    }

    /// Packets stalled beyond buffering at an average moment of a `cycles`-long run, per tile of `tiles`.
    pub fn stalled_per_tile(&self, cycles: u64, tiles: u32) -> f64 {
        self.total_excess.0 as f64 / cycles.max(1) as f64 / tiles.max(1) as f64
    }
}

/// A run warns of back-pressure when [`Backpressure::stalled_per_tile`] passes this. It is a reporting
/// threshold, not a timing parameter, set where the router model (which has the buffers) and this one part:
/// in calibration/dm All to All (Wormhole B0) the rows that collapse on silicon (30-70% slower than tensim)
/// stall 1.5-12 packets per tile and the rows that do not under 0.002 (Blackhole 56320 x 16, which silicon
/// and the router model run within 2% of this model, stalls 0.25-0.35); in the GEMM benchmark
/// (calibration/gemm_wh_bf16.csv, every dtype of gemm-bench.md) the L1-sharded rows stall at most 0.12 and
/// the router model gives them the same cycles within 1% (6% on the 512³ ones), while the rows with in0 in
/// DRAM stall 0.3-1.2 and the router model gives them 6-25% more cycles: bf16 HiFi2 M11-M13 stall 0.5-1.2
/// and run 17-25% fast against silicon on this model with the per-phase compute cost (-1.8% to +1.4% on the
/// router model); the HiFi4 M26 / M27, 0.3, run 4% fast (router model 6-8% slow) and are not marked.
pub const WARN_STALLED_PER_TILE: f64 = 0.35;

/// Per-link backlog marks and the counters.
#[derive(Debug, Clone, Default)]
pub(crate) struct BackpressureTracker {
    /// Per link: `(destination tile + 1, end)` of the latest packet that queued beyond buffering there
    /// (`0`: none yet).
    marks: Vec<(u32, u64)>,
    pub seen: Backpressure,
}

impl BackpressureTracker {
    pub fn new(links: usize) -> Self {
        BackpressureTracker { marks: vec![(0, 0); links], seen: Backpressure::default() }
    }

    /// A packet for tile `dst` reached `link` at `head`, got it at `start` for `dur` cycles, and its wait
    /// was `excess` cycles longer than the routers behind it buffer.
    pub fn queued(&mut self, link: LinkId, dst: u32, head: u64, start: u64, dur: u64, excess: u64) {
        let m = &mut self.marks[link.0 as usize];
        if m.0 != 0 && m.0 != dst + 1 && m.1 > head {
            let s = &mut self.seen;
            s.blocked_packets += 1;
            s.max_excess = s.max_excess.max(Cycles(excess));
            s.total_excess += Cycles(excess);
            s.first.get_or_insert((Cycle(head), link));
        }
        *m = (dst + 1, start + dur);
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{NocModel, VcClass, test_model as wh};
    use sim_core::{Cycle, Cycles};
    use soc_descriptors::{Noc0Coord, NocId};

    /// A source tile and a destination tile, (x, y) in NoC0 coordinates.
    type Flow = ((u32, u32), (u32, u32));

    /// Eight 8 KiB packets from each flow's source to its destination, all ready at cycle 0.
    fn send(n: &mut NocModel, flows: &[Flow]) {
        for _ in 0..8 {
            for &((sx, sy), (dx, dy)) in flows {
                let (s, d) = (Noc0Coord::new(sx, sy), Noc0Coord::new(dx, dy));
                n.unicast(NocId::Noc0, s, d, 8192, Cycle(0), VcClass::Unicast);
            }
        }
    }

    #[test]
    fn a_backlog_for_one_destination_is_not_head_of_line_blocking() {
        // Three sources in a row send to one core: the packets queue far beyond buffering on the shared
        // links, but all for the same destination (incast), which limits them either way.
        let mut n = wh();
        send(&mut n, &[((0, 1), (5, 1)), ((1, 1), (5, 1)), ((2, 1), (5, 1))]);
        assert_eq!(n.backpressure().blocked_packets, 0);
        assert!(!n.backpressure().significant(10_000, 1));
    }

    #[test]
    fn flows_to_two_destinations_queued_behind_each_other_are_counted() {
        // Two flows share the links (1,1)->(5,1) eastwards on their way to different cores: each queues
        // behind the other's backlog, longer than the routers behind it can buffer.
        let mut n = wh();
        send(&mut n, &[((0, 1), (5, 1)), ((1, 1), (6, 1))]);
        let bp = n.backpressure();
        assert!(bp.blocked_packets > 0);
        assert!(bp.max_excess > Cycles(0));
        assert_eq!(bp.first.map(|(at, _)| at > Cycle(0)), Some(true));
        // One run stalling that much over 4,000 cycles on a one-core chip is significant; spread over a
        // long run on a large grid it is not.
        assert!(bp.significant(4_000, 1));
        assert!(!bp.significant(100_000_000, 64));
    }
}
