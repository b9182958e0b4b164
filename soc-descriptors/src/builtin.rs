//! Built-in descriptions of Wormhole B0, Blackhole and Grayskull, produced by code from each chip's layout
//! facts (Tensix rows and columns, DRAM and Ethernet placement, sizes), so tensim runs without any YAML.
//! Tests prove each equals what the parser makes of tt-metal's shipped file for that chip.

use crate::arch::Arch;
use crate::chip::{Chip, ChipOptions};
use crate::coords::{GridSize, Noc0Coord, RelativeCoord};
use crate::core_desc::{CoreConfig, CoreConfigEntry, CoreDescriptor, DispatchAxis, DispatchCoreType, RelativeRange};
use crate::descriptor::{DramBank, DramChannel, Features, SocDescriptor, TileKind};
use crate::error::SocError;

const KIB: u64 = 1024;
const MIB: u64 = 1024 * KIB;
const GIB: u64 = 1024 * MIB;

/// The layout facts of one chip.
struct Facts {
    grid: GridSize,
    tensix_cols: Vec<u32>,
    tensix_rows: Vec<u32>,
    /// DRAM channels, each a list of (x, y) subchannel endpoints.
    dram: Vec<Vec<(u32, u32)>>,
    eth: Vec<(u32, u32)>,
    pcie: Vec<(u32, u32)>,
    arc: Vec<(u32, u32)>,
    worker_l1: u64,
    eth_l1: u64,
    dram_channel: u64,
    /// Views: (channel, address offset, worker endpoint per NoC, eth endpoint per NoC).
    views: Vec<(u32, u64, [u32; 2], [u32; 2])>,
    view_size: u64,
    features: Features,
}

/// Columns in the order Ethernet channels are numbered: alternately from the two ends of the row.
fn outside_in(cols: &[u32], right_first: bool) -> Vec<u32> {
    let mut out = Vec::with_capacity(cols.len());
    let (mut lo, mut hi) = (0usize, cols.len());
    let mut take_right = right_first;
    while lo < hi {
        if take_right {
            hi -= 1;
            out.push(cols[hi]);
        } else {
            out.push(cols[lo]);
            lo += 1;
        }
        take_right = !take_right;
    }
    out
}

fn range(a: u32, b: u32) -> Vec<u32> {
    (a..=b).collect()
}

fn wormhole_b0() -> Facts {
    let eth_cols = outside_in(&[1, 2, 3, 4, 6, 7, 8, 9], true);
    let eth = [0u32, 6].iter().flat_map(|&y| eth_cols.iter().map(move |&x| (x, y))).collect();
    // Per channel: worker subchannel of its two 1 GiB views, and the Ethernet subchannel of the channel.
    let worker_eps = [[2, 1], [0, 2], [1, 2], [0, 1], [2, 0], [0, 2]];
    let eth_eps = [0, 1, 0, 2, 1, 1];
    let views = (0..6u32)
        .flat_map(|ch| {
            (0..2u32).map(move |v| {
                let w = worker_eps[ch as usize][v as usize];
                let e = eth_eps[ch as usize];
                (ch, v as u64 * GIB, [w, w], [e, e])
            })
        })
        .collect();
    Facts {
        grid: GridSize::new(10, 12),
        tensix_cols: vec![1, 2, 3, 4, 6, 7, 8, 9],
        tensix_rows: [range(1, 5), range(7, 11)].concat(),
        dram: vec![
            vec![(0, 0), (0, 1), (0, 11)],
            vec![(0, 5), (0, 6), (0, 7)],
            vec![(5, 0), (5, 1), (5, 11)],
            vec![(5, 2), (5, 9), (5, 10)],
            vec![(5, 3), (5, 4), (5, 8)],
            vec![(5, 5), (5, 6), (5, 7)],
        ],
        eth,
        pcie: vec![(0, 3)],
        arc: vec![(0, 10)],
        worker_l1: 1464 * KIB,
        eth_l1: 256 * KIB,
        dram_channel: 2 * GIB,
        views,
        view_size: GIB,
        features: Features {
            noc_translation_id_enabled: Some(true),
            unpacker_version: 2,
            unpacker_inline_srca_trans: true,
            math_dst_size_alignment: 32768,
            packer_version: 2,
            overlay_version: 2,
        },
    }
}

fn blackhole() -> Facts {
    // Four channels per DRAM column; subchannel rows of each channel.
    let channel_rows = [[0, 1, 11], [2, 10, 3], [9, 4, 8], [5, 7, 6]];
    let dram = [0u32, 9]
        .iter()
        .flat_map(|&x| channel_rows.iter().map(move |rows| rows.iter().map(|&y| (x, y)).collect()))
        .collect();
    let eth_cols = outside_in(&[range(1, 7), range(10, 16)].concat(), false);
    let views = (0..8u32)
        .map(|ch| (ch, 0, if ch < 4 { [0, 1] } else { [2, 1] }, if ch < 4 { [0, 1] } else { [2, 1] }))
        .collect();
    Facts {
        grid: GridSize::new(17, 12),
        tensix_cols: [range(1, 7), range(10, 16)].concat(),
        tensix_rows: range(2, 11),
        dram,
        eth: eth_cols.into_iter().map(|x| (x, 1)).collect(),
        pcie: vec![(2, 0), (11, 0)],
        arc: vec![(8, 0)],
        worker_l1: 1536 * KIB,
        eth_l1: 512 * KIB,
        dram_channel: 4 * GIB - 16 * MIB,
        views,
        view_size: 4 * GIB - 16 * MIB,
        features: Features {
            noc_translation_id_enabled: Some(true),
            unpacker_version: 2,
            unpacker_inline_srca_trans: true,
            math_dst_size_alignment: 32768,
            packer_version: 2,
            overlay_version: 2,
        },
    }
}

fn grayskull() -> Facts {
    let dram = [1u32, 4, 7, 10].iter().flat_map(|&x| [0u32, 6].map(|y| vec![(x, y)])).collect();
    Facts {
        grid: GridSize::new(13, 12),
        tensix_cols: range(1, 12),
        tensix_rows: [range(1, 5), range(7, 11)].concat(),
        dram,
        eth: Vec::new(),
        pcie: vec![(0, 4)],
        arc: vec![(0, 2)],
        worker_l1: MIB,
        eth_l1: 0,
        dram_channel: GIB,
        views: (0..8).map(|ch| (ch, 0, [0, 0], [0, 0])).collect(),
        view_size: GIB,
        features: Features {
            noc_translation_id_enabled: None,
            unpacker_version: 1,
            unpacker_inline_srca_trans: false,
            math_dst_size_alignment: 32768,
            packer_version: 1,
            overlay_version: 1,
        },
    }
}

fn facts(arch: Arch) -> Facts {
    match arch {
        Arch::WormholeB0 => wormhole_b0(),
        Arch::Blackhole => blackhole(),
        Arch::Grayskull => grayskull(),
    }
}

/// The built-in SoC descriptor of `arch` (tt-metal's view of the unharvested die).
pub fn builtin_soc(arch: Arch) -> SocDescriptor {
    let f = facts(arch);
    let g = f.grid;
    let mut tiles = vec![TileKind::RouterOnly; g.count()];
    let mut set = |(x, y): (u32, u32), k: TileKind| tiles[(y * g.x + x) as usize] = k;
    let mut workers = Vec::new();
    for &y in &f.tensix_rows {
        for &x in &f.tensix_cols {
            set((x, y), TileKind::Tensix);
            workers.push(Noc0Coord::new(x, y));
        }
    }
    for (ch, eps) in f.dram.iter().enumerate() {
        for (sub, &p) in eps.iter().enumerate() {
            set(p, TileKind::Dram { channel: ch as u32, subchannel: sub as u32 });
        }
    }
    for (ch, &p) in f.eth.iter().enumerate() {
        set(p, TileKind::Eth { channel: ch as u32 });
    }
    for &p in &f.pcie {
        set(p, TileKind::Pcie);
    }
    for &p in &f.arc {
        set(p, TileKind::Arc);
    }
    let c = |v: &[(u32, u32)]| v.iter().map(|&(x, y)| Noc0Coord::new(x, y)).collect::<Vec<_>>();
    SocDescriptor {
        arch,
        grid: g,
        tiles,
        workers,
        eth: c(&f.eth),
        pcie: c(&f.pcie),
        arc: c(&f.arc),
        dram_channels: f.dram.iter().map(|eps| DramChannel { endpoints: c(eps) }).collect(),
        dram_banks: f
            .views
            .iter()
            .map(|&(channel, address_offset, worker_endpoint, eth_endpoint)| DramBank {
                channel,
                address_offset,
                size_bytes: f.view_size,
                worker_endpoint,
                eth_endpoint,
            })
            .collect(),
        worker_l1_size: f.worker_l1,
        eth_l1_size: f.eth_l1,
        dram_channel_size: f.dram_channel,
        noc1_x: (0..g.x).rev().collect(),
        noc1_y: (0..g.y).rev().collect(),
        features: f.features,
    }
}

fn rc(x: i32, y: i32) -> RelativeCoord {
    RelativeCoord::new(x, y)
}

fn rect(x0: i32, y0: i32, x1: i32, y1: i32) -> RelativeRange {
    RelativeRange { start: rc(x0, y0), end: rc(x1, y1) }
}

fn tensix_config(compute: RelativeRange, dispatch: Vec<RelativeCoord>) -> CoreConfig {
    CoreConfig {
        compute_grid: compute,
        tg_compute_grid: None,
        storage_cores: Vec::new(),
        storage_core_bank_size: None,
        dispatch_cores: dispatch,
        tg_dispatch_cores: None,
        dispatch_core_type: DispatchCoreType::Tensix,
    }
}

/// The built-in core descriptor of `arch` (tt-metal's Tensix-dispatch configurations).
pub fn builtin_core_descriptor(arch: Arch) -> CoreDescriptor {
    let mut entries = Vec::new();
    let mut push = |product: &str, axis: Option<DispatchAxis>, config: &dyn Fn(u32) -> CoreConfig| {
        for cqs in 1..=2 {
            entries.push(CoreConfigEntry { product: product.to_string(), axis, num_cqs: cqs, config: config(cqs) });
        }
    };
    match arch {
        Arch::WormholeB0 => {
            let last_row = || (0..8).map(|x| rc(x, -1)).collect::<Vec<_>>();
            push("galaxy", None, &|_| tensix_config(rect(0, 0, 7, 9), (0..8).map(|y| rc(-1, y)).collect()));
            push("nebula_x1", None, &|_| CoreConfig {
                tg_compute_grid: Some(rect(0, 0, 7, 1)),
                tg_dispatch_cores: Some((1..=6).flat_map(|r| (0..8).map(move |x| rc(x, -r))).collect()),
                ..tensix_config(rect(0, 0, 7, 7), last_row())
            });
            push("nebula_x2", None, &|_| tensix_config(rect(0, 0, 7, 6), last_row()));
        }
        Arch::Blackhole => {
            for (h, product) in [(0, "unharvested"), (1, "1xharvested"), (2, "2xharvested")] {
                push(product, Some(DispatchAxis::Col), &|_| {
                    tensix_config(rect(0, 0, 12 - h, 9), (0..10).map(|y| rc(-1, y)).collect())
                });
            }
        }
        Arch::Grayskull => {
            // Storage-only cores fill the last row (E150) or column (E75) around the dispatch cores.
            let storage_line = |dispatch: &[i32], all: std::ops::Range<i32>, f: &dyn Fn(i32) -> RelativeCoord| {
                all.filter(|i| !dispatch.contains(i)).map(f).collect::<Vec<_>>()
            };
            push("E150", None, &|cqs| {
                let d: &[i32] = if cqs == 1 { &[0, 6] } else { &[0, 6, 1, 7] };
                CoreConfig {
                    storage_cores: storage_line(d, 0..12, &|x| rc(x, -1)),
                    storage_core_bank_size: Some(512 * KIB),
                    ..tensix_config(rect(0, 0, 11, 8), d.iter().map(|&x| rc(x, -1)).collect())
                }
            });
            push("E75", None, &|cqs| {
                let d: &[i32] = if cqs == 1 { &[0, 4] } else { &[0, 4, 1, 5] };
                CoreConfig {
                    storage_cores: storage_line(d, 0..8, &|y| rc(11, y)),
                    storage_core_bank_size: Some(MIB),
                    ..tensix_config(rect(0, 0, 10, 7), d.iter().map(|&y| rc(11, y)).collect())
                }
            });
        }
    }
    entries.sort_by(|a, b| (&a.product, a.axis, a.num_cqs).cmp(&(&b.product, b.axis, b.num_cqs)));
    CoreDescriptor { entries }
}

/// A core descriptor for chips tt-metal has none for (such as tt-umd's 1x1 test chip): for every product of
/// `arch`, the whole logical worker grid computes and no core is reserved for dispatch or storage.
pub fn whole_grid_core_descriptor(arch: Arch) -> CoreDescriptor {
    let mut entries: Vec<CoreConfigEntry> = builtin_core_descriptor(arch).entries;
    for e in &mut entries {
        e.config = tensix_config(rect(0, 0, -1, -1), Vec::new());
    }
    CoreDescriptor { entries }
}

/// The name built-in descriptions carry in place of a file name.
pub fn builtin_name(arch: Arch) -> String {
    format!("built-in {arch}")
}

impl Chip {
    /// The built-in chip of `arch` with `opts` applied.
    pub fn builtin(arch: Arch, opts: ChipOptions) -> Result<Chip, SocError> {
        Chip::new(builtin_soc(arch), &builtin_core_descriptor(arch), &builtin_name(arch), opts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ethernet_channel_order() {
        assert_eq!(outside_in(&[1, 2, 3, 4, 6, 7, 8, 9], true), vec![9, 1, 8, 2, 7, 3, 6, 4]);
        assert_eq!(
            outside_in(&[1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16], false),
            vec![1, 16, 2, 15, 3, 14, 4, 13, 5, 12, 6, 11, 7, 10]
        );
    }

    #[test]
    fn builtin_counts() {
        let wh = builtin_soc(Arch::WormholeB0);
        assert_eq!(wh.workers.len(), 80);
        assert_eq!(wh.dram_banks.len(), 12);
        assert_eq!(wh.dram_channels.len(), 6);
        let bh = builtin_soc(Arch::Blackhole);
        assert_eq!(bh.workers.len(), 140);
        assert_eq!(bh.dram_banks.len(), 8);
        let gs = builtin_soc(Arch::Grayskull);
        assert_eq!(gs.workers.len(), 120);
        assert_eq!(gs.dram_banks.len(), 8);
    }
}
