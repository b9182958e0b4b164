//! Pictures of a tensor over its grid: rectangles (pages or shards) coloured by the core or bank holding
//! them, padding hatched, numbers written in when they fit — the picture to reach for when a layout
//! surprises. Every picture starts with the comment [`MARKER`].

use std::fmt::Write;

/// The comment every picture starts with (so tools can recognise tensim's own files).
pub const MARKER: &str = "tensim layout picture";

/// One rectangle of a picture, in picture units (a page or an element).
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// Left edge.
    pub x: u64,
    /// Top edge.
    pub y: u64,
    /// Width.
    pub w: u64,
    /// Height.
    pub h: u64,
    /// Who holds it (colour); `None`: nobody.
    pub owner: Option<usize>,
    /// Text to write inside when it fits.
    pub label: Option<String>,
    /// Whether it is padding (hatched).
    pub padding: bool,
}

/// A picture: a title, the extent in units, its cells and a legend of owners.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Picture {
    /// Title line.
    pub title: String,
    /// Width in units.
    pub width: u64,
    /// Height in units.
    pub height: u64,
    /// The cells.
    pub cells: Vec<Cell>,
    /// Name of each owner, for the legend (index = owner).
    pub owners: Vec<String>,
}

/// A distinct, readable colour for owner `i` (golden-angle hues, as `#rrggbb` so every SVG renderer reads
/// it).
fn colour(i: usize) -> String {
    let h = (i as f64 * 137.508) % 360.0;
    let (s, l) = (0.65, 0.62 + (i / 7 % 3) as f64 * 0.08);
    let c = (1.0 - (2.0 * l - 1.0f64).abs()) * s;
    let x = c * (1.0 - ((h / 60.0) % 2.0 - 1.0).abs());
    let m = l - c / 2.0;
    let (r, g, b) = match (h / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let v = |f: f64| ((f + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    format!("#{:02x}{:02x}{:02x}", v(r), v(g), v(b))
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The picture as SVG text.
pub fn render(p: &Picture) -> String {
    // Scale so the larger side is at most 900 px and a unit at least 1 px when possible.
    let side = p.width.max(p.height).max(1) as f64;
    let scale = (900.0 / side).clamp(0.05, 48.0);
    let (w, h) = (p.width as f64 * scale, p.height as f64 * scale);
    let legend_rows = p.owners.len().min(64).div_ceil(8);
    let top = 34.0;
    let total_h = top + h + 16.0 + legend_rows as f64 * 18.0 + 8.0;
    let total_w = w.max(8.0 * 110.0) + 20.0;
    let mut s = String::new();
    let _ = writeln!(s, "<!-- {MARKER} -->");
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0}" height="{total_h:.0}" font-family="monospace" font-size="11">"#
    );
    let _ = writeln!(
        s,
        r##"<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" stroke="#555" stroke-width="1.5"/></pattern></defs>"##
    );
    let _ = writeln!(s, r#"<text x="10" y="20" font-size="13">{}</text>"#, escape(&p.title));
    let _ = writeln!(
        s,
        r##"<g transform="translate(10,{top})"><rect width="{w:.1}" height="{h:.1}" fill="#f4f4f4" stroke="#222"/>"##
    );
    for c in &p.cells {
        let (x, y, cw, ch) = (c.x as f64 * scale, c.y as f64 * scale, c.w as f64 * scale, c.h as f64 * scale);
        let fill = c.owner.map_or("#ffffff".to_string(), colour);
        let _ = writeln!(
            s,
            r##"<rect x="{x:.2}" y="{y:.2}" width="{cw:.2}" height="{ch:.2}" fill="{fill}" stroke="#333" stroke-width="0.4"/>"##
        );
        if c.padding {
            let _ = writeln!(s, r#"<rect x="{x:.2}" y="{y:.2}" width="{cw:.2}" height="{ch:.2}" fill="url(#hatch)"/>"#);
        }
        if let Some(l) = &c.label
            && cw >= 7.0 * l.len() as f64 + 4.0
            && ch >= 12.0
        {
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" dominant-baseline="middle">{}</text>"#,
                x + cw / 2.0,
                y + ch / 2.0,
                escape(l)
            );
        }
    }
    let _ = writeln!(s, "</g>");
    for (i, name) in p.owners.iter().take(64).enumerate() {
        let (lx, ly) = (10.0 + (i % 8) as f64 * 110.0, top + h + 16.0 + (i / 8) as f64 * 18.0);
        let _ = writeln!(s, r##"<rect x="{lx}" y="{ly}" width="12" height="12" fill="{}" stroke="#333"/>"##, colour(i));
        let _ = writeln!(s, r#"<text x="{}" y="{}">{}</text>"#, lx + 16.0, ly + 10.0, escape(name));
    }
    if p.owners.len() > 64 {
        let _ = writeln!(s, r#"<text x="10" y="{}">… and {} more</text>"#, total_h - 4.0, p.owners.len() - 64);
    }
    s.push_str("</svg>\n");
    s
}

/// The device view of a page mapping: one row per core (or bank), one cell per page slot, labelled with the
/// host page it holds; padding slots hatched.
pub fn slots_picture(title: &str, owners: Vec<String>, slots: &[Vec<Option<u64>>]) -> Picture {
    let width = slots.iter().map(Vec::len).max().unwrap_or(0) as u64;
    let mut cells = Vec::new();
    for (row, list) in slots.iter().enumerate() {
        for (col, p) in list.iter().enumerate() {
            cells.push(Cell {
                x: col as u64,
                y: row as u64,
                w: 1,
                h: 1,
                owner: Some(row),
                label: p.map(|v| v.to_string()),
                padding: p.is_none(),
            });
        }
    }
    Picture { title: title.to_string(), width: width.max(1), height: slots.len().max(1) as u64, cells, owners }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_cells_labels_padding_and_a_legend() {
        let p = Picture {
            title: "4 pages on 2 cores".into(),
            width: 2,
            height: 2,
            cells: (0..4)
                .map(|i| Cell {
                    x: i % 2,
                    y: i / 2,
                    w: 1,
                    h: 1,
                    owner: Some((i % 2) as usize),
                    label: Some(i.to_string()),
                    padding: i == 3,
                })
                .collect(),
            owners: vec!["(0,0)".into(), "(1,0)".into()],
        };
        let s = render(&p);
        assert!(s.starts_with(&format!("<!-- {MARKER} -->")));
        assert_eq!(s.matches("url(#hatch)").count(), 1);
        assert!(s.contains(">3</text>") && s.contains("(1,0)"));
    }
}
