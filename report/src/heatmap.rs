//! The NoC link-utilisation heatmap: one SVG panel per NoC, the tiles of the grid labelled by type, every
//! router link drawn as an arrow coloured (and thickened) by its utilisation over the run, wrap-around links
//! as stubs at the grid's edge, and a colour scale. With the router-level NoC model an arrow's tooltip also
//! gives the buffer at the link's far end: its average occupancy and how often head-of-line blocking
//! stalled it.

use super::{NocReport, RunReport};
use sim_noc::Dir;
use soc_descriptors::{Chip, Noc0Coord, NocId, TileKind};
use std::fmt::Write;

const PITCH: f64 = 72.0;
const TILE: f64 = 44.0;
const MARGIN: f64 = 46.0;

/// Colour of a utilisation in 0..=1: grey when idle, then green → yellow → red.
fn colour(u: f64) -> String {
    if u <= 0.0 {
        return "#d9d9d9".into();
    }
    let u = u.clamp(0.0, 1.0);
    let (r, g, b) = if u < 0.5 {
        let t = u / 0.5;
        (46.0 + t * (240.0 - 46.0), 160.0 + t * (200.0 - 160.0), 60.0 - t * 30.0)
    } else {
        let t = (u - 0.5) / 0.5;
        (240.0 - t * 25.0, 200.0 - t * 170.0, 30.0 + t * 10.0)
    };
    format!("#{:02x}{:02x}{:02x}", r as u8, g as u8, b as u8)
}

fn tile_fill(k: TileKind) -> &'static str {
    match k {
        TileKind::Tensix => "#dbe9f6",
        TileKind::Dram { .. } => "#fde0c5",
        TileKind::Eth { .. } => "#e5d8f0",
        TileKind::Pcie | TileKind::Arc => "#e8e8e8",
        TileKind::Security | TileKind::L2Cpu | TileKind::Dispatch => "#f0e6d2",
        TileKind::RouterOnly | TileKind::Empty => "#ffffff",
    }
}

fn arrow(s: &mut String, x1: f64, y1: f64, x2: f64, y2: f64, u: f64, title: &str) {
    let c = colour(u);
    let w = if u > 0.0 { 2.0 + 5.0 * u.min(1.0) } else { 1.2 };
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / len, dy / len);
    let head = 5.0 + w;
    let (bx, by) = (x2 - ux * head, y2 - uy * head);
    let (px, py) = (-uy * head * 0.55, ux * head * 0.55);
    let _ = writeln!(
        s,
        "<g><title>{title}</title><line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{bx:.1}\" y2=\"{by:.1}\" stroke=\"{c}\" stroke-width=\"{w:.1}\"/>\
         <polygon points=\"{x2:.1},{y2:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"{c}\"/></g>",
        bx + px,
        by + py,
        bx - px,
        by - py
    );
}

fn panel(s: &mut String, r: &RunReport, chip: &Chip, noc: NocId, ox: f64, oy: f64) {
    let soc = chip.soc();
    let (w, h) = (soc.grid.x, soc.grid.y);
    let (avg, peak) = r.noc.link_util(noc, r.cycles);
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"17\" font-weight=\"bold\">{noc} link utilisation — peak {:.1}%, average of busy links {:.1}% ({} cycles)</text>",
        ox,
        oy - 18.0,
        peak * 100.0,
        avg * 100.0,
        r.cycles.0
    );
    let pos = |x: u32, y: u32| (ox + x as f64 * PITCH, oy + y as f64 * PITCH);
    for y in 0..h {
        for x in 0..w {
            let (px, py) = pos(x, y);
            let k = soc.tile(Noc0Coord::new(x, y));
            let label = match (k, chip.noc0_to_logical(Noc0Coord::new(x, y))) {
                (TileKind::Tensix, Some(l)) => format!("T {},{}", l.x, l.y),
                (TileKind::Tensix, None) => "T (harv.)".to_string(),
                (TileKind::Dram { channel, subchannel }, _) => format!("D{channel}.{subchannel}"),
                (TileKind::Eth { channel }, _) => format!("E{channel}"),
                (TileKind::RouterOnly, _) => "router".to_string(),
                (TileKind::Pcie, _) => "PCIe".to_string(),
                (TileKind::Arc, _) => "ARC".to_string(),
                (k, _) => k.name().to_string(),
            };
            let _ = writeln!(
                s,
                "<rect x=\"{px:.1}\" y=\"{py:.1}\" width=\"{TILE}\" height=\"{TILE}\" rx=\"5\" fill=\"{}\" stroke=\"#777\" stroke-width=\"0.8\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\">{label}</text>\
                 <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"8\" fill=\"#666\" text-anchor=\"middle\">{x}-{y}</text>",
                tile_fill(k),
                px + TILE / 2.0,
                py + TILE / 2.0 - 2.0,
                px + TILE / 2.0,
                py + TILE / 2.0 + 10.0
            );
        }
    }
    let gap = PITCH - TILE;
    for l in r.noc.links.iter().filter(|l| l.noc == noc) {
        let (x, y) = l.from;
        let (px, py) = pos(x, y);
        let u = NocReport::util(l.busy, r.cycles);
        let mut title = format!("{} from {x}-{y}: {:.1}% busy, {} bytes", l.dir.npe_name(), u * 100.0, l.bytes);
        if l.hol_cycles > 0 || l.buffer_flit_cycles > 0 {
            // The router-level model's buffer at the link's far end.
            let hol = NocReport::util(l.hol_cycles, r.cycles);
            let avg = l.buffer_flit_cycles as f64 / r.cycles.0.max(1) as f64;
            let _ = write!(
                title,
                "; far-end buffer: {avg:.1} flits on average, head-of-line blocked {:.1}% of cycles",
                hol * 100.0
            );
        }
        let mid = TILE / 2.0;
        match l.dir {
            Dir::East => {
                let wrap = x + 1 == w;
                let end = if wrap { px + TILE + gap * 0.55 } else { px + PITCH };
                arrow(s, px + TILE, py + mid, end, py + mid, u, &title);
            }
            Dir::West => {
                let wrap = x == 0;
                let end = if wrap { px - gap * 0.55 } else { px - gap };
                arrow(s, px, py + mid, end, py + mid, u, &title);
            }
            Dir::South => {
                let wrap = y + 1 == h;
                let end = if wrap { py + TILE + gap * 0.55 } else { py + PITCH };
                arrow(s, px + mid, py + TILE, px + mid, end, u, &title);
            }
            Dir::North => {
                let wrap = y == 0;
                let end = if wrap { py - gap * 0.55 } else { py - gap };
                arrow(s, px + mid, py, px + mid, end, u, &title);
            }
        }
    }
}

/// The heatmap of a run as an SVG document.
pub fn heatmap_svg(r: &RunReport, chip: &Chip) -> String {
    let g = chip.soc().grid;
    let pw = MARGIN * 2.0 + g.x as f64 * PITCH;
    let ph = MARGIN * 2.0 + g.y as f64 * PITCH;
    let width = pw * 2.0;
    let height = ph + 90.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\">\n\
         <!-- tensim NoC heatmap: {} -->\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
        chip.arch()
    );
    panel(&mut s, r, chip, NocId::Noc0, MARGIN, MARGIN);
    panel(&mut s, r, chip, NocId::Noc1, pw + MARGIN, MARGIN);
    // Colour scale.
    let (sx, sy, sw) = (MARGIN, ph + 30.0, 360.0);
    let _ = writeln!(
        s,
        "<text x=\"{sx:.1}\" y=\"{:.1}\" font-size=\"12\">link utilisation (busy cycles / run cycles); grey = unused; hover an arrow for its figures</text>",
        sy - 8.0
    );
    for i in 0..60 {
        let u = (i as f64 + 0.5) / 60.0;
        let _ = writeln!(
            s,
            "<rect x=\"{:.1}\" y=\"{sy:.1}\" width=\"{:.2}\" height=\"14\" fill=\"{}\"/>",
            sx + i as f64 * sw / 60.0,
            sw / 60.0 + 0.3,
            colour(u)
        );
    }
    for (t, lbl) in [(0.0, "0%"), (0.5, "50%"), (1.0, "100%")] {
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\">{lbl}</text>",
            sx + t * sw,
            sy + 28.0
        );
    }
    let legend = [
        ("Tensix", TileKind::Tensix),
        ("DRAM", TileKind::Dram { channel: 0, subchannel: 0 }),
        ("Ethernet", TileKind::Eth { channel: 0 }),
        ("PCIe/ARC", TileKind::Pcie),
        ("router only", TileKind::RouterOnly),
    ];
    for (i, (name, k)) in legend.iter().enumerate() {
        let x = sx + sw + 40.0 + i as f64 * 110.0;
        let _ = writeln!(
            s,
            "<rect x=\"{x:.1}\" y=\"{sy:.1}\" width=\"14\" height=\"14\" fill=\"{}\" stroke=\"#777\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\">{name}</text>",
            tile_fill(*k),
            x + 20.0,
            sy + 11.0
        );
    }
    s.push_str("</svg>\n");
    s
}
