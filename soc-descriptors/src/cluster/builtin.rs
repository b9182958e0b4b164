//! The built-in systems, generated from how they are wired: n150 and p150 (one chip), n300 and p300 (two
//! chips on one board), T3000 (four n300 boards in a 2×4 mesh), the Wormhole Galaxy (32 chips, 8×4, four
//! links per neighbour pair), and Blackhole boxes of four p150 (a 2×2 ring) and eight p150 (2×4: two 4-rings
//! joined). The wiring follows tt-umd's example cluster descriptors (multichip.md §1.3); a test proves each
//! equals its file up to per-unit harvesting.

use super::{
    Board, BoardType, ChipHarvesting, ChipId, ClusterChip, ClusterDescriptor, EthEnd, EthLink, MeshEmbedding,
    MeshOrigin,
};
use crate::arch::Arch;

/// The built-in systems: `(name, description, tt-umd example file it mirrors)`.
pub const BUILTIN_SYSTEMS: [(&str, &str, &str); 8] = [
    ("n150", "one Wormhole B0 chip on a PCIe card", "wormhole_N150.yaml"),
    ("n300", "two Wormhole B0 chips on one card, 2 links, one chip on PCIe (1x2)", "wormhole_N300.yaml"),
    ("t3000", "four n300 cards, 8 Wormhole B0 chips in a 2x4 mesh, 2 links per neighbour", "t3k_cluster_desc.yaml"),
    ("galaxy", "32 Wormhole B0 chips in an 8x4 mesh, 4 links per neighbour, all on PCIe", "6u_cluster_desc.yaml"),
    ("p150", "one Blackhole chip on a PCIe card", "blackhole_P150.yaml"),
    ("p300", "two Blackhole chips on one card, 2 links, both on PCIe (1x2)", "blackhole_P300_both_mmio.yaml"),
    ("p150x4", "four p150 cards in a ring, 4 links per neighbour (2x2)", "blackhole_4xP150.yaml"),
    ("p150x8", "eight p150 cards: two 4-rings joined, 2 links per neighbour (2x4)", "blackhole_8xP150.yaml"),
];

struct Wiring {
    name: &'static str,
    arch: Arch,
    chips: Vec<ClusterChip>,
    links: Vec<EthLink>,
    boards: Vec<Board>,
}

impl Wiring {
    fn new(name: &'static str, arch: Arch, n: u32) -> Wiring {
        let harvesting = match arch {
            // tensim's usual Wormhole card: one Tensix row harvested (an 8x8 compute grid).
            Arch::WormholeB0 => ChipHarvesting { noc_translation: true, tensix_mask: 1 << 9, ..Default::default() },
            // Blackhole cards ship with physical Ethernet channels 5 and 8 harvested.
            _ => ChipHarvesting { noc_translation: true, eth_mask: 288, ..Default::default() },
        };
        let chips = (0..n)
            .map(|id| ClusterChip {
                id,
                arch,
                eth_coord: None,
                unique_id: u64::from(id) << 32,
                mmio: None,
                harvesting,
                board: None,
                asic_location: None,
                bus_id: None,
            })
            .collect();
        Wiring { name, arch, chips, links: Vec::new(), boards: Vec::new() }
    }

    /// Links `a.ca[i] ↔ b.cb[i]`.
    fn link(&mut self, a: ChipId, ca: &[u32], b: ChipId, cb: &[u32]) {
        for (&x, &y) in ca.iter().zip(cb) {
            self.links.push(EthLink {
                a: EthEnd { chip: a, channel: x },
                b: EthEnd { chip: b, channel: y },
                routing_enabled: None,
            });
        }
    }

    fn board(&mut self, board_type: &'static str, chips: &[ChipId]) {
        let index = self.boards.len();
        for &c in chips {
            self.chips[c as usize].board = Some(index);
        }
        self.boards.push(Board { id: index as u64, board_type: BoardType::Known(board_type), chips: chips.to_vec() });
    }

    fn mmio(&mut self, chips: &[ChipId]) {
        for (i, &c) in chips.iter().enumerate() {
            self.chips[c as usize].mmio = Some(i as u32);
        }
    }

    fn finish(self, rows: u32, cols: u32, mesh: Vec<ChipId>) -> (ClusterDescriptor, MeshEmbedding) {
        debug_assert_eq!(mesh.len(), (rows * cols) as usize, "{} on {}", self.name, self.arch);
        let cd = ClusterDescriptor {
            source: format!("built-in {}", self.name),
            chips: self.chips,
            links: self.links,
            remote_links: Vec::new(),
            boards: self.boards,
            io_device_type: None,
        };
        (cd, MeshEmbedding { rows, cols, chips: mesh, origin: MeshOrigin::Builtin })
    }
}

fn range(from: u32, n: u32) -> Vec<u32> {
    (from..from + n).collect()
}

/// An n300 card: the PCIe chip's channels 8, 9 to the remote chip's 0, 1.
fn n300_card(w: &mut Wiring, mmio_chip: ChipId, remote: ChipId) {
    w.link(mmio_chip, &[8, 9], remote, &[0, 1]);
}

/// The built-in system `name` with its mesh layout, or `None`.
pub fn builtin_system(name: &str) -> Option<(ClusterDescriptor, MeshEmbedding)> {
    let name = BUILTIN_SYSTEMS.iter().find(|s| s.0.eq_ignore_ascii_case(name))?.0;
    Some(match name {
        "n150" | "p150" => {
            let arch = if name == "n150" { Arch::WormholeB0 } else { Arch::Blackhole };
            let mut w = Wiring::new(name, arch, 1);
            w.mmio(&[0]);
            w.board(name, &[0]);
            if arch == Arch::WormholeB0 {
                w.chips[0].eth_coord = Some([0, 0, 0, 0]);
            }
            w.finish(1, 1, vec![0])
        }
        "n300" => {
            let mut w = Wiring::new(name, Arch::WormholeB0, 2);
            n300_card(&mut w, 0, 1);
            w.mmio(&[0]);
            w.board("n300", &[0, 1]);
            w.chips[0].eth_coord = Some([0, 0, 0, 0]);
            w.chips[1].eth_coord = Some([1, 0, 0, 0]);
            w.finish(1, 2, vec![0, 1])
        }
        "t3000" => {
            // Cards (PCIe chip, remote chip) at mesh columns: remote chips at the outer columns 0 and 3.
            let mut w = Wiring::new(name, Arch::WormholeB0, 8);
            let mesh = vec![4, 0, 2, 6, 5, 1, 3, 7];
            for card in 0..4 {
                n300_card(&mut w, card, card + 4);
                w.board("n300", &[card + 4, card]);
            }
            // Cables between the cards: along rows, then down the columns.
            w.link(0, &[6, 7], 2, &[6, 7]);
            w.link(1, &[0, 1], 3, &[0, 1]);
            w.link(0, &[14, 15], 1, &[14, 15]);
            w.link(2, &[14, 15], 3, &[14, 15]);
            w.link(4, &[6, 7], 5, &[6, 7]);
            w.link(6, &[6, 7], 7, &[6, 7]);
            w.mmio(&[0, 1, 2, 3]);
            for (i, &c) in mesh.iter().enumerate() {
                w.chips[c as usize].eth_coord = Some([(i % 4) as i64, (i / 4) as i64, 0, 0]);
            }
            w.finish(2, 4, mesh)
        }
        "galaxy" => {
            // Column c of the 8x4 mesh starts at chip [0, 16, 18, 2][c]; rows 0..3 step by 4, rows 4..7
            // come back up from base + 1. East links use channels 12-15/0-3 at the edges and 12-15 inside;
            // south links 8-11 → 4-7 in the top half, 8-11 ↔ 8-11 at the middle, 4-7 → 8-11 below.
            let mut w = Wiring::new(name, Arch::WormholeB0, 32);
            let base = [0u32, 16, 18, 2];
            let at = |r: u32, c: u32| if r < 4 { base[c as usize] + 4 * r } else { base[c as usize] + 1 + 4 * (7 - r) };
            let mesh: Vec<ChipId> = (0..8).flat_map(|r| (0..4).map(move |c| at(r, c))).collect();
            for r in 0..8 {
                for c in 0..4 {
                    if c < 3 {
                        let (ca, cb) = match c {
                            0 => (range(12, 4), range(0, 4)),
                            1 => (range(12, 4), range(12, 4)),
                            _ => (range(0, 4), range(12, 4)),
                        };
                        w.link(at(r, c), &ca, at(r, c + 1), &cb);
                    }
                    if r < 7 {
                        let (ca, cb) = match r {
                            0..=2 => (range(8, 4), range(4, 4)),
                            3 => (range(8, 4), range(8, 4)),
                            _ => (range(4, 4), range(8, 4)),
                        };
                        w.link(at(r, c), &ca, at(r + 1, c), &cb);
                    }
                }
            }
            w.mmio(&range(0, 32));
            w.board("ubb", &mesh);
            w.finish(8, 4, mesh)
        }
        "p300" => {
            let mut w = Wiring::new(name, Arch::Blackhole, 2);
            w.link(0, &[2, 3], 1, &[9, 8]);
            w.mmio(&[0, 1]);
            w.board("p300", &[1, 0]);
            w.chips[0].asic_location = Some(0);
            w.chips[1].asic_location = Some(1);
            w.finish(1, 2, vec![0, 1])
        }
        "p150x4" => {
            // The ring 0-2-1-3-0; channels 4-7 on one side of each card, 8-11 on the other.
            let mut w = Wiring::new(name, Arch::Blackhole, 4);
            w.link(0, &range(4, 4), 2, &range(4, 4));
            w.link(0, &range(8, 4), 3, &range(8, 4));
            w.link(1, &range(8, 4), 2, &range(8, 4));
            w.link(1, &range(4, 4), 3, &range(4, 4));
            w.mmio(&range(0, 4));
            for c in 0..4 {
                w.board("p150", &[c]);
            }
            w.finish(2, 2, vec![0, 2, 3, 1])
        }
        "p150x8" => {
            // Two rings 0-1-3-2 and 4-5-7-6 (rows of the 2x4 mesh, wrapping), joined chip by chip.
            let mut w = Wiring::new(name, Arch::Blackhole, 8);
            for off in [0, 4] {
                w.link(off, &[4, 6], off + 1, &[7, 5]);
                w.link(off + 1, &[4, 6], off + 3, &[7, 5]);
                w.link(off, &[5, 7], off + 2, &[6, 4]);
                w.link(off + 2, &[5, 7], off + 3, &[6, 4]);
            }
            for c in 0..4 {
                w.link(c, &[8, 10], c + 4, &[11, 9]);
            }
            w.mmio(&range(0, 8));
            for c in 0..8 {
                w.board("p150", &[c]);
            }
            w.finish(2, 4, vec![0, 1, 3, 2, 4, 5, 7, 6])
        }
        _ => return None,
    })
}
