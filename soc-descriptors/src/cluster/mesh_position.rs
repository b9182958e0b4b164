//! Where the chips of a cluster sit in a 2-D mesh: from the Ethernet coordinates when the file gives them,
//! otherwise recovered from the links (a line, a ring, or a full rectangular grid), otherwise chip-id order
//! with the embedding marked as not derived. Built-in systems carry theirs.

use super::{ChipId, ClusterDescriptor};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// How a mesh embedding was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshOrigin {
    /// The built-in system's own layout.
    Builtin,
    /// The `chips` Ethernet coordinates `[x, y, rack, shelf]` of the file.
    EthCoords,
    /// Recovered from the links: a full rectangular grid of neighbour links.
    Grid,
    /// Recovered from the links: a line or a ring, in link order.
    Line,
    /// Nothing fits: chips in id order on one row. Mesh coordinates are then only labels.
    Unplaced,
}

impl MeshOrigin {
    /// A short description for printing.
    pub fn describe(self) -> &'static str {
        match self {
            MeshOrigin::Builtin => "built-in layout",
            MeshOrigin::EthCoords => "from the file's Ethernet coordinates",
            MeshOrigin::Grid => "recovered from the links (a rectangular grid)",
            MeshOrigin::Line => "recovered from the links (a line or ring)",
            MeshOrigin::Unplaced => "not derivable from the file: chips in id order",
        }
    }
}

/// The chips of a cluster laid out on a `rows × cols` mesh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeshEmbedding {
    /// Mesh rows.
    pub rows: u32,
    /// Mesh columns.
    pub cols: u32,
    /// The chip at each mesh coordinate, row-major.
    pub chips: Vec<ChipId>,
    /// How it was found.
    pub origin: MeshOrigin,
}

impl MeshEmbedding {
    /// The chip at mesh coordinate `(row, col)`.
    pub fn chip_at(&self, row: u32, col: u32) -> Option<ChipId> {
        (row < self.rows && col < self.cols).then(|| self.chips[(row * self.cols + col) as usize])
    }

    /// The mesh coordinate of `chip`.
    pub fn coord_of(&self, chip: ChipId) -> Option<(u32, u32)> {
        self.chips.iter().position(|&c| c == chip).map(|i| (i as u32 / self.cols, i as u32 % self.cols))
    }

    /// The embedding of `cd`.
    pub fn derive(cd: &ClusterDescriptor) -> MeshEmbedding {
        let ids: Vec<ChipId> = cd.chips.iter().map(|c| c.id).collect();
        if let Some(m) = from_eth_coords(cd) {
            return m;
        }
        let adj: BTreeMap<ChipId, Vec<ChipId>> = ids.iter().map(|&c| (c, cd.neighbours(c))).collect();
        if ids.len() > 1
            && connected(&adj)
            && let Some(m) = line_or_ring(&adj).or_else(|| grid(&adj))
        {
            return m;
        }
        if ids.len() == 1 {
            return MeshEmbedding { rows: 1, cols: 1, chips: ids, origin: MeshOrigin::Line };
        }
        MeshEmbedding { rows: 1, cols: ids.len() as u32, chips: ids, origin: MeshOrigin::Unplaced }
    }
}

fn from_eth_coords(cd: &ClusterDescriptor) -> Option<MeshEmbedding> {
    let coords: Vec<[i64; 4]> = cd.chips.iter().map(|c| c.eth_coord).collect::<Option<_>>()?;
    let first = coords.first()?;
    if coords.iter().any(|c| c[2] != first[2] || c[3] != first[3] || c[0] < 0 || c[1] < 0 || c[0] > 64 || c[1] > 64) {
        return None;
    }
    let cols = coords.iter().map(|c| c[0]).max()? as u32 + 1;
    let rows = coords.iter().map(|c| c[1]).max()? as u32 + 1;
    if (rows * cols) as usize != coords.len() {
        return None;
    }
    let mut chips = vec![None; coords.len()];
    for (chip, c) in cd.chips.iter().zip(&coords) {
        let slot = &mut chips[(c[1] as u32 * cols + c[0] as u32) as usize];
        if slot.is_some() {
            return None;
        }
        *slot = Some(chip.id);
    }
    Some(MeshEmbedding { rows, cols, chips: chips.into_iter().collect::<Option<_>>()?, origin: MeshOrigin::EthCoords })
}

fn connected(adj: &BTreeMap<ChipId, Vec<ChipId>>) -> bool {
    let Some(&start) = adj.keys().next() else { return false };
    bfs(adj, start).len() == adj.len()
}

fn bfs(adj: &BTreeMap<ChipId, Vec<ChipId>>, start: ChipId) -> BTreeMap<ChipId, u32> {
    let mut dist = BTreeMap::from([(start, 0u32)]);
    let mut q = VecDeque::from([start]);
    while let Some(u) = q.pop_front() {
        for &v in &adj[&u] {
            if !dist.contains_key(&v) {
                dist.insert(v, dist[&u] + 1);
                q.push_back(v);
            }
        }
    }
    dist
}

/// Every chip has at most two neighbours: walk from an end (a line) or from the lowest id towards its
/// lower neighbour (a ring of more than four; four is also a 2×2 grid, which `grid` prefers).
fn line_or_ring(adj: &BTreeMap<ChipId, Vec<ChipId>>) -> Option<MeshEmbedding> {
    if adj.values().any(|n| n.len() > 2) {
        return None;
    }
    let ends: Vec<ChipId> = adj.iter().filter(|(_, n)| n.len() == 1).map(|(&c, _)| c).collect();
    let is_ring = ends.is_empty();
    if is_ring && adj.len() == 4 {
        return None;
    }
    let start = if is_ring { *adj.keys().next()? } else { ends[0] };
    let mut order = vec![start];
    let mut seen = BTreeSet::from([start]);
    let mut cur = start;
    while let Some(&next) = adj[&cur].iter().find(|c| !seen.contains(c)) {
        order.push(next);
        seen.insert(next);
        cur = next;
    }
    let cols = order.len() as u32;
    (order.len() == adj.len()).then_some(MeshEmbedding { rows: 1, cols, chips: order, origin: MeshOrigin::Line })
}

/// A full rectangular grid: the degree-2 chips are the four corners; distances from the lowest-id corner
/// and from its nearer neighbouring corner give every chip's (row, col). Accepted only when the links are
/// exactly the grid's neighbour pairs.
fn grid(adj: &BTreeMap<ChipId, Vec<ChipId>>) -> Option<MeshEmbedding> {
    let corners: Vec<ChipId> = adj.iter().filter(|(_, n)| n.len() == 2).map(|(&c, _)| c).collect();
    if corners.len() != 4 {
        return None;
    }
    let c0 = corners[0];
    let d0 = bfs(adj, c0);
    let c1 = *corners[1..].iter().min_by_key(|c| (d0[c], **c))?;
    let cols = d0[&c1] + 1;
    let far = corners.iter().map(|c| d0[c]).max()?;
    let rows = far + 2 - cols;
    if (rows * cols) as usize != adj.len() {
        return None;
    }
    let d1 = bfs(adj, c1);
    let mut chips = vec![None; adj.len()];
    for &v in adj.keys() {
        let (a, b) = (d0[&v] as i64, d1[&v] as i64);
        let two_r = a + b - (cols as i64 - 1);
        let two_c = a - b + cols as i64 - 1;
        if two_r < 0 || two_c < 0 || two_r % 2 != 0 || two_c % 2 != 0 {
            return None;
        }
        let (r, c) = ((two_r / 2) as u32, (two_c / 2) as u32);
        if r >= rows || c >= cols || chips[(r * cols + c) as usize].is_some() {
            return None;
        }
        chips[(r * cols + c) as usize] = Some(v);
    }
    let chips: Vec<ChipId> = chips.into_iter().collect::<Option<_>>()?;
    let m = MeshEmbedding { rows, cols, chips, origin: MeshOrigin::Grid };
    // Every link joins mesh neighbours, and every mesh neighbour pair is linked.
    let mut edges = 0;
    for (&u, ns) in adj {
        let (ru, cu) = m.coord_of(u)?;
        for &v in ns {
            let (rv, cv) = m.coord_of(v)?;
            if ru.abs_diff(rv) + cu.abs_diff(cv) != 1 {
                return None;
            }
            edges += 1;
        }
    }
    let want = 2 * (rows * (cols - 1) + cols * (rows - 1));
    (edges == want).then_some(m)
}
