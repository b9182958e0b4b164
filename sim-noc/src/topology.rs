//! NoC topology and routing: each NoC is a 2-D torus over the whole SoC grid. NoC0 routes east then south,
//! NoC1 north then west, both wrapping around the edges (tt-isa-documentation WormholeB0/NoC/RoutingPaths.md).
//!
//! Every router has two outgoing links per NoC (NoC0: east, south; NoC1: north, west). Links are numbered
//! densely ([`LinkId`]) so per-link state lives in flat arrays.

use soc_descriptors::{GridSize, Noc0Coord, NocId};
use std::fmt;

/// Direction of an outgoing router link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// +x (NoC0).
    East,
    /// +y (NoC0).
    South,
    /// -y (NoC1).
    North,
    /// -x (NoC1).
    West,
}

impl Dir {
    /// The tt-npe link name (`NOC_0_EAST`, …).
    pub fn npe_name(self) -> &'static str {
        match self {
            Dir::East => "NOC_0_EAST",
            Dir::South => "NOC_0_SOUTH",
            Dir::North => "NOC_1_NORTH",
            Dir::West => "NOC_1_WEST",
        }
    }

    /// The NoC this direction belongs to.
    pub fn noc(self) -> NocId {
        match self {
            Dir::East | Dir::South => NocId::Noc0,
            Dir::North | Dir::West => NocId::Noc1,
        }
    }

    fn local_index(self) -> u32 {
        match self {
            Dir::East | Dir::North => 0,
            Dir::South | Dir::West => 1,
        }
    }
}

/// Dense index of one router-to-router link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinkId(pub u32);

/// The torus of one chip (both NoCs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Topology {
    grid: GridSize,
}

impl Topology {
    /// The topology of a `grid`-sized chip.
    pub fn new(grid: GridSize) -> Topology {
        Topology { grid }
    }

    /// The grid.
    pub fn grid(&self) -> GridSize {
        self.grid
    }

    /// Number of links over both NoCs.
    pub fn num_links(&self) -> usize {
        self.grid.count() * 4
    }

    /// Dense index of the NIU of tile `at` on `noc` (both NoCs' NIUs of a tile side by side): per-port
    /// state of the NoC models lives in flat arrays of `2 × tiles`.
    pub fn niu_index(&self, at: Noc0Coord, noc: NocId) -> usize {
        ((at.y * self.grid.x + at.x) as usize) * 2 + noc.index()
    }

    /// The link leaving router `at` in direction `dir`.
    pub fn link(&self, at: Noc0Coord, dir: Dir) -> LinkId {
        let noc = dir.noc().index() as u32;
        LinkId(((noc * self.grid.y + at.y) * self.grid.x + at.x) * 2 + dir.local_index())
    }

    /// Where link `l` starts and which way it goes.
    pub fn link_info(&self, l: LinkId) -> (Noc0Coord, Dir) {
        let local = l.0 % 2;
        let rest = l.0 / 2;
        let x = rest % self.grid.x;
        let rest = rest / self.grid.x;
        let y = rest % self.grid.y;
        let noc = rest / self.grid.y;
        let dir = match (noc, local) {
            (0, 0) => Dir::East,
            (0, _) => Dir::South,
            (_, 0) => Dir::North,
            _ => Dir::West,
        };
        (Noc0Coord::new(x, y), dir)
    }

    /// The router one step from `at` in `dir`, wrapping around the torus.
    pub fn step(&self, at: Noc0Coord, dir: Dir) -> Noc0Coord {
        let (w, h) = (self.grid.x, self.grid.y);
        match dir {
            Dir::East => Noc0Coord::new((at.x + 1) % w, at.y),
            Dir::South => Noc0Coord::new(at.x, (at.y + 1) % h),
            Dir::North => Noc0Coord::new(at.x, (at.y + h - 1) % h),
            Dir::West => Noc0Coord::new((at.x + w - 1) % w, at.y),
        }
    }

    /// Router-to-router hops of the unicast route from `src` to `dst` on `noc`.
    pub fn hops(&self, noc: NocId, src: Noc0Coord, dst: Noc0Coord) -> u32 {
        let (w, h) = (self.grid.x, self.grid.y);
        match noc {
            NocId::Noc0 => (dst.x + w - src.x) % w + (dst.y + h - src.y) % h,
            NocId::Noc1 => (src.x + w - dst.x) % w + (src.y + h - dst.y) % h,
        }
    }

    /// The broadcast tree from `src` covering `rect` on `noc` (parents before children): along the major
    /// axis (NoC0 east, NoC1 west) to the rectangle's first column, along the minor axis (south, north)
    /// until every row of the rectangle has been passed, then along the major axis across each row.
    pub fn broadcast_tree(&self, noc: NocId, src: Noc0Coord, rect: Rect) -> Vec<TreeNode> {
        let (major, minor, start_x) = match noc {
            NocId::Noc0 => (Dir::East, Dir::South, rect.x0),
            NocId::Noc1 => (Dir::West, Dir::North, rect.x1),
        };
        let width = rect.x1 - rect.x0 + 1;
        let height = rect.y1 - rect.y0 + 1;
        let mut nodes = vec![TreeNode { tile: src, parent: None, via: None }];
        let mut cur = 0usize;
        let push = |nodes: &mut Vec<TreeNode>, from: usize, dir: Dir| -> usize {
            let t = nodes[from].tile;
            nodes.push(TreeNode { tile: self.step(t, dir), parent: Some(from), via: Some(self.link(t, dir)) });
            nodes.len() - 1
        };
        // Along the major axis to the rectangle's first column.
        while nodes[cur].tile.x != start_x {
            cur = push(&mut nodes, cur, major);
        }
        // Along the minor axis until every row of the rectangle has been passed.
        let mut trunk = Vec::with_capacity(height as usize);
        loop {
            if (rect.y0..=rect.y1).contains(&nodes[cur].tile.y) {
                trunk.push(cur);
                if trunk.len() == height as usize {
                    break;
                }
            }
            cur = push(&mut nodes, cur, minor);
        }
        // Along the major axis across each row.
        for t in trunk {
            let mut b = t;
            for _ in 1..width {
                b = push(&mut nodes, b, major);
            }
        }
        nodes
    }

    /// Append the links of the unicast route from `src` to `dst` on `noc` to `out`, in path order:
    /// NoC0 east then south, NoC1 north then west.
    pub fn unicast_route(&self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, out: &mut Vec<LinkId>) {
        self.for_each_route_link(noc, src, dst, |l| out.push(l));
    }

    /// Call `f` with each link of the unicast route from `src` to `dst` on `noc`, in path order (the
    /// links of [`Topology::unicast_route`], without a list: the NoC model times every packet's route).
    #[inline]
    pub fn for_each_route_link(&self, noc: NocId, src: Noc0Coord, dst: Noc0Coord, mut f: impl FnMut(LinkId)) {
        let (w, h) = (self.grid.x, self.grid.y);
        // Router (x, y) of NoC n owns links ((n·h + y)·w + x)·2 + local: a step along x moves the id by 2,
        // one along y by 2·w, and a wrap around the torus by the row's or column's length less one step.
        let link = |n: u32, x: u32, y: u32, local: u32| ((n * h + y) * w + x) * 2 + local;
        // `n` links from `first` at position `at` of a ring of `len`, each `step` further on (wrapping
        // back by `len` steps at the ring's end when `forward`, forward by `len` steps at 0 otherwise).
        let mut run = |first: u32, mut at: u32, n: u32, len: u32, step: u32, forward: bool| {
            let mut id = first;
            for _ in 0..n {
                f(LinkId(id));
                if forward {
                    at += 1;
                    id += step;
                    if at == len {
                        at = 0;
                        id -= step * len;
                    }
                } else if at == 0 {
                    at = len - 1;
                    id += step * (len - 1);
                } else {
                    at -= 1;
                    id -= step;
                }
            }
        };
        match noc {
            NocId::Noc0 => {
                // East along row src.y, then south along column dst.x.
                run(link(0, src.x, src.y, 0), src.x, (dst.x + w - src.x) % w, w, 2, true);
                run(link(0, dst.x, src.y, 1), src.y, (dst.y + h - src.y) % h, h, 2 * w, true);
            }
            NocId::Noc1 => {
                // North along column src.x, then west along row dst.y.
                run(link(1, src.x, src.y, 0), src.y, (src.y + h - dst.y) % h, h, 2 * w, false);
                run(link(1, src.x, dst.y, 1), src.x, (src.x + w - dst.x) % w, w, 2, false);
            }
        }
    }
}

/// A multicast rectangle in NoC0 coordinates (inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// Smallest x.
    pub x0: u32,
    /// Largest x.
    pub x1: u32,
    /// Smallest y.
    pub y0: u32,
    /// Largest y.
    pub y1: u32,
}

impl Rect {
    /// Whether `c` is inside.
    pub fn contains(&self, c: Noc0Coord) -> bool {
        (self.x0..=self.x1).contains(&c.x) && (self.y0..=self.y1).contains(&c.y)
    }
}

/// One node of a broadcast tree: a router, the node it was reached from, and the link used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeNode {
    /// The router's tile.
    pub tile: Noc0Coord,
    /// Index of the parent node (`None` for the source).
    pub parent: Option<usize>,
    /// The link from the parent.
    pub via: Option<LinkId>,
}

impl fmt::Display for LinkId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "link#{}", self.0)
    }
}

/// Hops from the root to the deepest node of a broadcast tree.
pub fn tree_depth(tree: &[TreeNode]) -> u64 {
    let mut depth = vec![0u64; tree.len()];
    for i in 1..tree.len() {
        depth[i] = depth[tree[i].parent.expect("non-root")] + 1;
    }
    depth.iter().copied().max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wh() -> Topology {
        Topology::new(GridSize::new(10, 12))
    }

    fn route(t: &Topology, noc: NocId, s: (u32, u32), d: (u32, u32)) -> Vec<(Noc0Coord, Dir)> {
        let mut v = Vec::new();
        t.unicast_route(noc, Noc0Coord::new(s.0, s.1), Noc0Coord::new(d.0, d.1), &mut v);
        v.into_iter().map(|l| t.link_info(l)).collect()
    }

    #[test]
    fn noc0_goes_east_then_south() {
        let t = wh();
        let r = route(&t, NocId::Noc0, (1, 1), (3, 2));
        assert_eq!(
            r,
            vec![
                (Noc0Coord::new(1, 1), Dir::East),
                (Noc0Coord::new(2, 1), Dir::East),
                (Noc0Coord::new(3, 1), Dir::South)
            ]
        );
        assert_eq!(t.hops(NocId::Noc0, Noc0Coord::new(1, 1), Noc0Coord::new(3, 2)), 3);
    }

    #[test]
    fn noc1_goes_north_then_west() {
        let t = wh();
        let r = route(&t, NocId::Noc1, (3, 2), (1, 1));
        assert_eq!(
            r,
            vec![
                (Noc0Coord::new(3, 2), Dir::North),
                (Noc0Coord::new(3, 1), Dir::West),
                (Noc0Coord::new(2, 1), Dir::West)
            ]
        );
    }

    #[test]
    fn routes_wrap_around_the_torus() {
        let t = wh();
        // NoC0 from (2,2) back to (1,1): east through the wrap (9 hops), south through the wrap (11 hops).
        let r = route(&t, NocId::Noc0, (2, 2), (1, 1));
        assert_eq!(r.len(), 20);
        assert_eq!(r[7], (Noc0Coord::new(9, 2), Dir::East));
        assert_eq!(r[8], (Noc0Coord::new(0, 2), Dir::East));
        assert_eq!(t.hops(NocId::Noc0, Noc0Coord::new(2, 2), Noc0Coord::new(1, 1)), 20);
        // NoC1 from (1,1) to (2,2): north through the wrap (11), west through the wrap (9).
        assert_eq!(route(&t, NocId::Noc1, (1, 1), (2, 2)).len(), 20);
    }

    #[test]
    fn link_ids_are_dense_and_invertible() {
        let t = wh();
        let mut seen = vec![false; t.num_links()];
        for y in 0..12 {
            for x in 0..10 {
                for d in [Dir::East, Dir::South, Dir::North, Dir::West] {
                    let p = Noc0Coord::new(x, y);
                    let l = t.link(p, d);
                    assert!(!seen[l.0 as usize]);
                    seen[l.0 as usize] = true;
                    assert_eq!(t.link_info(l), (p, d));
                }
            }
        }
        assert!(seen.iter().all(|s| *s));
    }

    #[test]
    fn every_route_is_the_walk_one_router_at_a_time() {
        // The route's arithmetic against walking with `step` and `link`, for every pair on two grids.
        for t in [wh(), Topology::new(GridSize::new(17, 12))] {
            let (w, h) = (t.grid().x, t.grid().y);
            for noc in [NocId::Noc0, NocId::Noc1] {
                let (first, second) = match noc {
                    NocId::Noc0 => (Dir::East, Dir::South),
                    NocId::Noc1 => (Dir::North, Dir::West),
                };
                for s in (0..w * h).map(|i| Noc0Coord::new(i % w, i / w)) {
                    for d in (0..w * h).map(|i| Noc0Coord::new(i % w, i / w)) {
                        let mut want = Vec::new();
                        let mut at = s;
                        while if first == Dir::East { at.x != d.x } else { at.y != d.y } {
                            want.push(t.link(at, first));
                            at = t.step(at, first);
                        }
                        while at != d {
                            want.push(t.link(at, second));
                            at = t.step(at, second);
                        }
                        let mut got = Vec::new();
                        t.unicast_route(noc, s, d, &mut got);
                        assert_eq!(got, want, "{noc:?} {s:?} -> {d:?}");
                        assert_eq!(got.len() as u32, t.hops(noc, s, d));
                    }
                }
            }
        }
    }

    #[test]
    fn route_to_self_is_empty() {
        assert!(route(&wh(), NocId::Noc0, (4, 4), (4, 4)).is_empty());
    }
}
