//! `tensim system`: describe a system of chips — a built-in one or a tt-umd cluster descriptor — with its
//! chips, where they sit in the mesh, every Ethernet link with the cores at both ends, and a picture of the
//! mesh and its links (text, JSON, or SVG with `--svg`).

use crate::error::{CliError, CliResult};
use crate::out::say;
use crate::outputs::{OutputKind, OutputPlan};
use clap::Args;
use serde::Serialize;
use soc_descriptors::cluster::{BUILTIN_SYSTEMS, ClusterDescriptor, MeshEmbedding};
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `tensim system`.
#[derive(Args, Debug)]
pub struct SystemArgs {
    /// A built-in system (see --list): n150, n300, t3000, galaxy, p150, p300, p150x4, p150x8.
    name: Option<String>,
    /// A tt-umd cluster descriptor YAML instead of a built-in system.
    #[arg(long, value_name = "FILE", conflicts_with = "name")]
    cluster: Option<PathBuf>,
    /// List the built-in systems.
    #[arg(long, conflicts_with_all = ["name", "cluster", "json", "svg"])]
    list: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Also draw the mesh and its links as SVG.
    #[arg(long, value_name = "FILE.svg")]
    svg: Option<PathBuf>,
}

/// A system picture.
const PICTURE: OutputKind = OutputKind { what: "system picture", marker: SVG_MARKER };
const SVG_MARKER: &str = "tensim system picture";

/// A system as the command line names it: a built-in name or a cluster file. Shared with `tensim device`
/// and the multi-chip programs.
pub fn load_system(
    name: Option<&str>,
    cluster: Option<&std::path::Path>,
) -> CliResult<(ClusterDescriptor, MeshEmbedding)> {
    match (name, cluster) {
        (_, Some(path)) => {
            let cd = ClusterDescriptor::load(path)?;
            let mesh = cd.mesh();
            Ok((cd, mesh))
        }
        (Some(n), None) => soc_descriptors::builtin_system(n).ok_or_else(|| {
            let names: Vec<&str> = BUILTIN_SYSTEMS.iter().map(|s| s.0).collect();
            CliError::User(format!(
                "unknown system `{n}`; built-in systems: {} (or give --cluster FILE)",
                names.join(", ")
            ))
        }),
        (None, None) => Err(CliError::User(
            "name a system (tensim system --list shows the built-in ones) or give --cluster FILE".into(),
        )),
    }
}

#[derive(Serialize)]
struct ChipRow {
    id: u32,
    arch: &'static str,
    mesh_coord: [u32; 2],
    mmio: Option<u32>,
    board: Option<String>,
    eth_coord: Option<[i64; 4]>,
    tensix_harvest_mask: u32,
    dram_harvest_mask: u32,
    eth_harvest_mask: u32,
    usable_channels: u32,
    active_channels: Vec<u32>,
}

#[derive(Serialize)]
struct LinkEnd {
    chip: u32,
    channel: u32,
    core_noc0: [u32; 2],
}

#[derive(Serialize)]
struct Report {
    system: String,
    arch: Option<&'static str>,
    mesh_shape: [u32; 2],
    mesh_origin: &'static str,
    mesh: Vec<Vec<u32>>,
    chips: Vec<ChipRow>,
    links: Vec<[LinkEnd; 2]>,
    remote_links: Vec<(u32, u32, u64, u32)>,
    picture: Vec<String>,
}

fn build(cd: &ClusterDescriptor, mesh: &MeshEmbedding) -> Report {
    let end = |e: soc_descriptors::cluster::EthEnd| {
        let chip = cd.chip(e.chip).expect("validated link");
        let core = cd.eth_core(chip, e.channel).expect("validated channel");
        LinkEnd { chip: e.chip, channel: e.channel, core_noc0: [core.x, core.y] }
    };
    let chips = cd
        .chips
        .iter()
        .map(|c| {
            let (r, col) = mesh.coord_of(c.id).unwrap_or((0, 0));
            let mut active: Vec<u32> = cd
                .links
                .iter()
                .flat_map(|l| [l.a, l.b])
                .chain(cd.remote_links.iter().map(|r| r.local))
                .filter(|e| e.chip == c.id)
                .map(|e| e.channel)
                .collect();
            active.sort_unstable();
            ChipRow {
                id: c.id,
                arch: c.arch.name(),
                mesh_coord: [r, col],
                mmio: c.mmio,
                board: c.board.map(|b| cd.boards[b].board_type.name().to_string()),
                eth_coord: c.eth_coord,
                tensix_harvest_mask: c.harvesting.tensix_mask,
                dram_harvest_mask: c.harvesting.dram_mask,
                eth_harvest_mask: c.harvesting.eth_mask,
                usable_channels: cd.num_channels(c),
                active_channels: active,
            }
        })
        .collect();
    Report {
        system: cd.source.clone(),
        arch: cd.arch().map(|a| a.name()),
        mesh_shape: [mesh.rows, mesh.cols],
        mesh_origin: mesh.origin.describe(),
        mesh: (0..mesh.rows).map(|r| (0..mesh.cols).map(|c| mesh.chip_at(r, c).unwrap_or(0)).collect()).collect(),
        chips,
        links: cd.links.iter().map(|l| [end(l.a), end(l.b)]).collect(),
        remote_links: cd
            .remote_links
            .iter()
            .map(|r| (r.local.chip, r.local.channel, r.remote_unique_id, r.remote_channel))
            .collect(),
        picture: picture(cd, mesh),
    }
}

/// The mesh as text: `[ id]` per chip, `=N=` / `‖N` for N links between mesh neighbours; links between
/// chips that are not mesh neighbours are listed below it.
fn picture(cd: &ClusterDescriptor, mesh: &MeshEmbedding) -> Vec<String> {
    let mut out = Vec::new();
    let n = |a: u32, b: u32| cd.channels_between(a, b).len();
    for r in 0..mesh.rows {
        let mut row = String::new();
        let mut below = String::new();
        for c in 0..mesh.cols {
            let me = mesh.chip_at(r, c).unwrap_or(0);
            let _ = write!(row, "[{me:>3}]");
            let down = mesh.chip_at(r + 1, c).map(|d| n(me, d)).unwrap_or(0);
            let _ = write!(below, "{:^5}", if down > 0 { format!("|{down}") } else { String::new() });
            if let Some(right) = mesh.chip_at(r, c + 1) {
                let k = n(me, right);
                row.push_str(&if k > 0 { format!("={k}=") } else { "   ".to_string() });
                below.push_str("   ");
            }
        }
        out.push(row.trim_end().to_string());
        if r + 1 < mesh.rows {
            out.push(below.trim_end().to_string());
        }
    }
    let mut extra: Vec<String> = Vec::new();
    for a in &cd.chips {
        for b in cd.neighbours(a.id) {
            let (Some(pa), Some(pb)) = (mesh.coord_of(a.id), mesh.coord_of(b)) else { continue };
            if a.id < b && pa.0.abs_diff(pb.0) + pa.1.abs_diff(pb.1) != 1 {
                extra.push(format!("{}-{} ({} links)", a.id, b, n(a.id, b)));
            }
        }
    }
    if !extra.is_empty() {
        out.push(format!("links between chips that are not mesh neighbours: {}", extra.join(", ")));
    }
    out
}

fn svg(cd: &ClusterDescriptor, mesh: &MeshEmbedding) -> String {
    let (cell, gap) = (90u32, 60u32);
    let pos = |r: u32, c: u32| (30 + c * (cell + gap), 50 + r * (cell + gap));
    let (w, h) = (60 + mesh.cols * (cell + gap), 80 + mesh.rows * (cell + gap));
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"monospace\">\n\
         <!-- {SVG_MARKER} -->\n<text x=\"30\" y=\"28\" font-size=\"16\">{} — {}×{} mesh, {} links</text>\n",
        cd.source,
        mesh.rows,
        mesh.cols,
        cd.links.len()
    );
    for a in &cd.chips {
        for b in cd.neighbours(a.id).into_iter().filter(|&b| b > a.id) {
            let (Some((ra, ca)), Some((rb, cb))) = (mesh.coord_of(a.id), mesh.coord_of(b)) else { continue };
            let ((xa, ya), (xb, yb)) = (pos(ra, ca), pos(rb, cb));
            let k = cd.channels_between(a.id, b).len();
            let (mx, my) = ((xa + xb) / 2 + cell / 2, (ya + yb) / 2 + cell / 2);
            let neighbour = ra.abs_diff(rb) + ca.abs_diff(cb) == 1;
            let dash = if neighbour { "" } else { " stroke-dasharray=\"6 4\"" };
            let _ = writeln!(
                s,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#4a7\" stroke-width=\"{}\"{dash}/>\
                 <text x=\"{mx}\" y=\"{my}\" font-size=\"12\" fill=\"#262\">{k}</text>",
                xa + cell / 2,
                ya + cell / 2,
                xb + cell / 2,
                yb + cell / 2,
                1 + k
            );
        }
    }
    for c in &cd.chips {
        let Some((r, col)) = mesh.coord_of(c.id) else { continue };
        let (x, y) = pos(r, col);
        let fill = if c.mmio.is_some() { "#cde" } else { "#eee" };
        let _ = writeln!(
            s,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"{fill}\" stroke=\"#333\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"14\">chip {}</text><text x=\"{}\" y=\"{}\" font-size=\"11\">({r},{col}){}</text>",
            x + 8,
            y + 30,
            c.id,
            x + 8,
            y + 50,
            if c.mmio.is_some() { " PCIe" } else { "" }
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Run `tensim system`.
pub fn run(a: &SystemArgs) -> CliResult<ExitCode> {
    if a.list {
        for (name, what, file) in BUILTIN_SYSTEMS {
            say!("{name:<8} {what} (mirrors tt-umd's {file})");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let plan = match &a.svg {
        Some(p) => {
            let mut plan = OutputPlan::new();
            let id = plan.add(p, PICTURE)?;
            Some((plan, id))
        }
        None => None,
    };
    let (cd, mesh) = load_system(a.name.as_deref(), a.cluster.as_deref())?;
    let report = build(&cd, &mesh);
    if a.json {
        say!("{}", serde_json::to_string_pretty(&report).map_err(|e| CliError::User(e.to_string()))?);
    } else {
        print_text(&report)?;
    }
    if let Some((plan, id)) = plan {
        for p in plan.commit(vec![(id, svg(&cd, &mesh))])? {
            crate::out::note!("picture written to {}", p.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_text(r: &Report) -> CliResult<()> {
    say!("system: {}", r.system);
    say!("arch: {}", r.arch.unwrap_or("mixed"));
    say!("chips: {}, links: {}, links leaving the system: {}", r.chips.len(), r.links.len(), r.remote_links.len());
    say!("mesh: {}x{} ({})", r.mesh_shape[0], r.mesh_shape[1], r.mesh_origin);
    for line in &r.picture {
        say!("  {line}");
    }
    say!();
    say!("chip  arch         mesh   pcie  board          tensix  dram  eth   channels  active");
    for c in &r.chips {
        let active: Vec<String> = c.active_channels.iter().map(|x| x.to_string()).collect();
        say!(
            "{:>4}  {:<11}  ({},{})  {:<4}  {:<13}  {:#06x}  {:#04x}  {:#05x} {:>8}  {}",
            c.id,
            c.arch,
            c.mesh_coord[0],
            c.mesh_coord[1],
            c.mmio.map(|m| m.to_string()).unwrap_or_else(|| "-".into()),
            c.board.as_deref().unwrap_or("-"),
            c.tensix_harvest_mask,
            c.dram_harvest_mask,
            c.eth_harvest_mask,
            c.usable_channels,
            if active.is_empty() { "-".to_string() } else { active.join(",") }
        );
    }
    if !r.links.is_empty() {
        say!();
        say!("Ethernet links (chip ch core-noc0 <-> chip ch core-noc0):");
        for [a, b] in &r.links {
            say!(
                "  {:>3} {:>2} {:>2}-{:<2}  <->  {:>3} {:>2} {:>2}-{}",
                a.chip,
                a.channel,
                a.core_noc0[0],
                a.core_noc0[1],
                b.chip,
                b.channel,
                b.core_noc0[0],
                b.core_noc0[1]
            );
        }
    }
    for (chip, ch, uid, rch) in &r.remote_links {
        say!("  {chip:>3} {ch:>2} -> remote chip {uid} ch {rch} (outside this system: not simulated)");
    }
    Ok(())
}
