//! `tensim soc`: describe a chip — arch, NoC grid, tile counts, L1/DRAM sizes, DRAM banks, worker and compute
//! grids, and a map of the NoC grid with one letter per tile — as text or JSON.

use crate::chip_args::ChipArgs;
use clap::Args;
use serde::Serialize;
use soc_descriptors::{Chip, LogicalCoord, Noc0Coord, NocId, TileKind};
use std::fmt::Write;
use std::process::ExitCode;

/// Options of `tensim soc`.
#[derive(Args, Debug)]
pub struct SocArgs {
    #[command(flatten)]
    chip: ChipArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct BankRow {
    bank: usize,
    channel: u32,
    address_offset: u64,
    size_bytes: u64,
    worker_endpoint_noc0: Noc0Coord,
    worker_endpoint_noc1: Noc0Coord,
    worker_xy_noc0: (u32, u32),
    worker_xy_noc1: (u32, u32),
    eth_endpoint_noc0: Noc0Coord,
    eth_endpoint_noc1: Noc0Coord,
}

#[derive(Serialize)]
struct Report {
    arch: String,
    soc_descriptor: String,
    core_descriptor: String,
    product: String,
    num_hw_cqs: u32,
    harvest_mask: u32,
    harvested_noc0_lines: Vec<u32>,
    noc_grid: (u32, u32),
    tile_counts: Vec<(String, usize)>,
    tensix_workers: usize,
    worker_grid: (u32, u32),
    compute_grid: (u32, u32),
    compute_range: (LogicalCoord, LogicalCoord),
    storage_cores: Vec<LogicalCoord>,
    storage_core_bank_size: Option<u64>,
    dispatch_core_type: String,
    dispatch_cores: Vec<LogicalCoord>,
    worker_l1_size: u64,
    eth_l1_size: u64,
    dram_channels: usize,
    dram_channel_size: u64,
    dram_total_bytes: u64,
    dram_banks: Vec<BankRow>,
    map: Vec<String>,
    legend: Vec<(char, &'static str)>,
}

const LEGEND: &[(char, &str)] = &[
    ('T', "Tensix worker in the compute grid"),
    ('t', "Tensix worker outside the compute grid"),
    ('d', "Tensix dispatch core"),
    ('s', "Tensix storage-only core"),
    ('x', "harvested Tensix"),
    ('D', "DRAM endpoint"),
    ('E', "Ethernet"),
    ('P', "PCIe"),
    ('A', "ARC"),
    ('r', "router only"),
    ('S', "security"),
    ('L', "L2CPU"),
    ('X', "dispatch engine"),
    ('.', "empty"),
];

fn letter(chip: &Chip, p: Noc0Coord, kind: TileKind) -> char {
    if kind != TileKind::Tensix {
        return kind.letter();
    }
    match chip.noc0_to_logical(p) {
        None => 'x',
        Some(l) if chip.dispatch_cores().contains(&l) => 'd',
        Some(l) if chip.storage_cores().contains(&l) => 's',
        Some(l) if chip.compute_grid().contains(l) => 'T',
        Some(_) => 't',
    }
}

fn build(chip: &Chip, soc_name: String) -> Report {
    let soc = chip.soc();
    let g = soc.grid;
    let xy = |noc: NocId, p: Noc0Coord| {
        let t = chip.noc0_to_translated(p);
        let _ = noc; // translated coordinates are the same on both NoCs
        (t.x, t.y)
    };
    let dram_banks = soc
        .dram_banks
        .iter()
        .enumerate()
        .map(|(i, b)| BankRow {
            bank: i,
            channel: b.channel,
            address_offset: b.address_offset,
            size_bytes: b.size_bytes,
            worker_endpoint_noc0: soc.dram_bank_worker_endpoint(i, NocId::Noc0),
            worker_endpoint_noc1: soc.dram_bank_worker_endpoint(i, NocId::Noc1),
            worker_xy_noc0: xy(NocId::Noc0, soc.dram_bank_worker_endpoint(i, NocId::Noc0)),
            worker_xy_noc1: xy(NocId::Noc1, soc.dram_bank_worker_endpoint(i, NocId::Noc1)),
            eth_endpoint_noc0: soc.dram_bank_eth_endpoint(i, NocId::Noc0),
            eth_endpoint_noc1: soc.dram_bank_eth_endpoint(i, NocId::Noc1),
        })
        .collect();
    let map = (0..g.y)
        .map(|y| (0..g.x).map(|x| letter(chip, Noc0Coord::new(x, y), soc.tile(Noc0Coord::new(x, y)))).collect())
        .collect();
    let lg = chip.logical_grid();
    let cg = chip.compute_with_storage_grid_size();
    Report {
        arch: soc.arch.name().to_string(),
        soc_descriptor: soc_name,
        core_descriptor: chip.core_source().to_string(),
        product: chip.product().to_string(),
        num_hw_cqs: chip.num_hw_cqs(),
        harvest_mask: chip.harvest_mask(),
        harvested_noc0_lines: chip.harvested_lines().to_vec(),
        noc_grid: (g.x, g.y),
        tile_counts: soc.counts_by_kind().into_iter().map(|(k, n)| (k.to_string(), n)).collect(),
        tensix_workers: (lg.x * lg.y) as usize,
        worker_grid: (lg.x, lg.y),
        compute_grid: (cg.x, cg.y),
        compute_range: (chip.compute_grid().start, chip.compute_grid().end),
        storage_cores: chip.storage_cores().to_vec(),
        storage_core_bank_size: chip.storage_core_bank_size(),
        dispatch_core_type: format!("{:?}", chip.dispatch_core_type()).to_lowercase(),
        dispatch_cores: chip.dispatch_cores().to_vec(),
        worker_l1_size: soc.worker_l1_size,
        eth_l1_size: soc.eth_l1_size,
        dram_channels: soc.dram_channels.len(),
        dram_channel_size: soc.dram_channel_size,
        dram_total_bytes: soc.dram_total_bytes(),
        dram_banks,
        map,
        legend: LEGEND.to_vec(),
    }
}

fn bytes(n: u64) -> String {
    const K: u64 = 1024;
    if n >= K * K * K && n.is_multiple_of(K * K * K) {
        format!("{n} bytes ({} GiB)", n / (K * K * K))
    } else if n >= K * K && n.is_multiple_of(K * K) {
        format!("{n} bytes ({} MiB)", n / (K * K))
    } else if n >= K && n.is_multiple_of(K) {
        format!("{n} bytes ({} KiB)", n / K)
    } else {
        format!("{n} bytes")
    }
}

fn coords(v: &[LogicalCoord]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.iter().map(|c| format!("({},{})", c.x, c.y)).collect::<Vec<_>>().join(" ")
}

fn text(r: &Report) -> String {
    let mut s = String::new();
    let w = &mut s;
    let _ = writeln!(w, "arch             {}", r.arch);
    let _ = writeln!(w, "soc descriptor   {}", r.soc_descriptor);
    let _ = writeln!(
        w,
        "core descriptor  {} (product {}, {} command queue(s))",
        r.core_descriptor, r.product, r.num_hw_cqs
    );
    let harvest = if r.harvest_mask == 0 {
        "none (mask 0x0)".to_string()
    } else {
        format!("mask {:#x}: NoC0 lines {:?}", r.harvest_mask, r.harvested_noc0_lines)
    };
    let _ = writeln!(w, "harvesting       {harvest}");
    let _ = writeln!(w, "NoC grid         {}x{} ({} tiles)", r.noc_grid.0, r.noc_grid.1, r.noc_grid.0 * r.noc_grid.1);
    let counts: Vec<String> = r.tile_counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let _ = writeln!(w, "tiles            {}", counts.join(", "));
    let article = if matches!(r.worker_grid.0, 8 | 11 | 18 | 80..=89) { "an" } else { "a" };
    let _ = writeln!(
        w,
        "Tensix workers   {} in {article} {}x{} worker grid",
        r.tensix_workers, r.worker_grid.0, r.worker_grid.1
    );
    let _ = writeln!(
        w,
        "compute grid     {}x{} (logical ({},{})..({},{}))",
        r.compute_grid.0,
        r.compute_grid.1,
        r.compute_range.0.x,
        r.compute_range.0.y,
        r.compute_range.1.x,
        r.compute_range.1.y
    );
    let _ = writeln!(w, "dispatch cores   {} ({})", coords(&r.dispatch_cores), r.dispatch_core_type);
    let bank = r.storage_core_bank_size.map(|b| format!(", bank size {}", bytes(b))).unwrap_or_default();
    let _ = writeln!(w, "storage cores    {}{bank}", coords(&r.storage_cores));
    let _ = writeln!(w, "worker L1        {}", bytes(r.worker_l1_size));
    let _ = writeln!(w, "eth L1           {}", bytes(r.eth_l1_size));
    let _ = writeln!(
        w,
        "DRAM             {} channels x {} = {}; {} banks",
        r.dram_channels,
        bytes(r.dram_channel_size),
        bytes(r.dram_total_bytes),
        r.dram_banks.len()
    );
    let _ = writeln!(w, "\nDRAM banks (endpoints as NoC0 coordinates; xy = the coordinate kernels use)");
    let _ = writeln!(
        w,
        "bank  channel  offset        size         worker NoC0  worker NoC1  xy(NoC0)  xy(NoC1)  eth NoC0  eth NoC1"
    );
    for b in &r.dram_banks {
        let p = |c: Noc0Coord| format!("({},{})", c.x, c.y);
        let q = |c: (u32, u32)| format!("({},{})", c.0, c.1);
        let _ = writeln!(
            w,
            "{:<5} {:<8} {:<#13x} {:<12} {:<12} {:<12} {:<9} {:<9} {:<9} {}",
            b.bank,
            b.channel,
            b.address_offset,
            b.size_bytes,
            p(b.worker_endpoint_noc0),
            p(b.worker_endpoint_noc1),
            q(b.worker_xy_noc0),
            q(b.worker_xy_noc1),
            p(b.eth_endpoint_noc0),
            p(b.eth_endpoint_noc1)
        );
    }
    let _ = writeln!(w, "\nNoC grid map (NoC0 coordinates: x across, y down)");
    let _ = write!(w, "    ");
    for x in 0..r.noc_grid.0 {
        let _ = write!(w, "{:>3}", x);
    }
    let _ = writeln!(w);
    for (y, row) in r.map.iter().enumerate() {
        let _ = write!(w, "{y:>3} ");
        for ch in row.chars() {
            let _ = write!(w, "{:>3}", ch);
        }
        let _ = writeln!(w);
    }
    let _ = writeln!(w, "\nlegend:");
    for (c, what) in &r.legend {
        if r.map.iter().any(|row| row.contains(*c)) {
            let _ = writeln!(w, "  {c}  {what}");
        }
    }
    s
}

/// Run `tensim soc`.
pub fn run(a: &SocArgs) -> crate::error::CliResult<ExitCode> {
    // With no chip named, the built-in Wormhole B0, as every other command defaults.
    let spec = a.chip.spec(Some(soc_descriptors::Arch::WormholeB0))?;
    let chip = spec.load()?;
    let report = build(&chip, spec.soc_name());
    if a.json {
        crate::out::say!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
    } else {
        crate::out::text(&text(&report))?;
    }
    Ok(ExitCode::SUCCESS)
}
