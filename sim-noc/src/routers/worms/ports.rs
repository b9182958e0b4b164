//! The packet-level model's per-port counters, as the flit-level routers keep them for `--stats` and the
//! heatmap: cycles an input buffer lost to head-of-line blocking, and the flits it held summed over cycles.
//!
//! The packet model does not move flits one at a time, so both are reckoned from what it times:
//! - **Head-of-line cycles** at the buffer where a head waits: the cycles it waits for a VC another packet
//!   owns or for a channel still carrying another body, and the cycles its body loses to blind VC picks
//!   there (the flit-level routers count each cycle an input picks a VC whose flit cannot move).
//! - **Occupancy**: flits that pass unhindered are not counted (as on the flit-level routers); behind a
//!   head that waits its body fills the buffer it waits in (one VC's share), then the one before, back
//!   towards the source, and each buffer whose share is full counts its cycles as head-of-line blocked too.

use super::PacketNoc;

/// Per channel (the buffer at its far end): head-of-line cycles and flit-cycles held.
#[derive(Debug, Clone, Default)]
pub(super) struct PortCounters {
    hol: Vec<u64>,
    flit_cycles: Vec<u64>,
    /// Head-of-line cycles are counted up to here (an input blocks at most once a cycle, however many
    /// packets wait behind it).
    hol_until: Vec<u64>,
}

impl PortCounters {
    pub(super) fn new(channels: usize) -> PortCounters {
        PortCounters { hol: vec![0; channels], flit_cycles: vec![0; channels], hol_until: vec![0; channels] }
    }

    /// A body of `flits` leaving the buffer at the far end of channel `input` lost `cycles` to blind VC
    /// picks: its flits keep arriving meanwhile, so that buffer holds its share of them (`held` flits).
    pub(super) fn slowed(&mut self, input: usize, from: u64, cycles: u64, held: u64) {
        self.block(input, from, from + cycles);
        self.flit_cycles[input] += held * cycles;
    }

    /// The input at the far end of channel `input` blocks from `from` to `to`.
    fn block(&mut self, input: usize, from: u64, to: u64) {
        let until = &mut self.hol_until[input];
        self.hol[input] += to.saturating_sub(from.max(*until));
        *until = (*until).max(to);
    }
}

impl PacketNoc {
    /// Packet `p`'s head, in the buffer at the far end of hop `m`'s parent, waited from `from` to `to` to take hop `m`.
    /// Its body backs up behind it: the flits arriving at a flit a cycle fill that buffer (one VC's share),
    /// then the one before it, and so on towards the source; a buffer whose share is full picks its VC each
    /// cycle and moves nothing.
    pub(super) fn stalled(&mut self, p: u32, m: u16, from: u64, to: u64) {
        let cycles = to - from;
        let pk = &self.pkts[p as usize];
        let b = self.buffer;
        let mut a = pk.hops[m as usize].parent as usize;
        let mut left = pk.flits as u64;
        // The k-th buffer back fills once the k before it are full: it stalls for `cycles - k·b`.
        let mut stalls = cycles;
        while stalls > 0 {
            let input = pk.hops[a].chan as usize;
            let share = left.min(b);
            self.ports.block(input, to - stalls, to);
            // As if full from the start (streaming bodies arrive with their buffers already partly full; the
            // flit-level routers hold about twice what this counts on contended programs even so).
            self.ports.flit_cycles[input] += share * stalls;
            left -= share;
            if a == 0 || left == 0 {
                break;
            }
            a = pk.hops[a].parent as usize;
            stalls = stalls.saturating_sub(b);
        }
    }

    /// Per channel (links first, then injection and ejection ports by NIU index): head-of-line cycles and
    /// flit-cycles held by the buffer at its far end.
    pub fn port_counters(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.ports.hol.iter().zip(&self.ports.flit_cycles).map(|(&h, &f)| (h, f))
    }
}
