//! The channels a packet crosses, as both router models number them: its source NIU's injection port, the
//! links of its dimension-ordered route or broadcast tree, and the ejection port of every destination, each
//! with the VC it takes there (its static VC number, the dateline bit set on the ring's wrap link and cleared
//! when the route turns).

use super::channels::Hop;
use crate::stepping::Outgoing;
use crate::topology::{Dir, LinkId, Topology, TreeNode};
use soc_descriptors::{Noc0Coord, NocId};

/// No destination (a tree node that only forwards).
pub(super) const NOT_A_DEST: u16 = u16::MAX;

/// The channel index of NIU `port`'s injection port (links come first).
pub(super) fn inject_chan(topo: &Topology, port: usize) -> usize {
    topo.num_links() + port
}

/// The channel index of NIU `port`'s ejection port (after the injection ports).
pub(super) fn eject_chan(topo: &Topology, port: usize) -> usize {
    topo.num_links() + topo.grid().count() * 2 + port
}

/// Every channel of a packet as a tree: hop 0 its injection port, each hop's kids the hops after it (a
/// parent always before its kids), an ejection port per destination (`dest` its index in `s.dests`).
/// `route` is scratch space.
pub(super) fn packet_hops(topo: &Topology, s: &Outgoing<'_>, route: &mut Vec<LinkId>) -> Vec<Hop> {
    let mut hops = Vec::with_capacity(8);
    packet_hops_into(topo, s, route, &mut hops);
    hops
}

/// [`packet_hops`] into `hops` (cleared first).
pub(super) fn packet_hops_into(topo: &Topology, s: &Outgoing<'_>, route: &mut Vec<LinkId>, hops: &mut Vec<Hop>) {
    let port = topo.niu_index(s.src, s.noc);
    hops.clear();
    hops.push(Hop {
        chan: inject_chan(topo, port) as u32,
        vc: s.vc,
        kids: [0; 3],
        nkids: 0,
        dest: NOT_A_DEST,
        arrived: 0,
    });
    match s.tree {
        None => unicast_hops(topo, s.noc, s.src, s.dests[0], s.vc, hops, route),
        Some(tree) => tree_hops(topo, s.noc, tree, s.dests, s.vc, hops),
    }
}

fn unicast_hops(
    topo: &Topology,
    noc: NocId,
    src: Noc0Coord,
    dst: Noc0Coord,
    vc: u8,
    hops: &mut Vec<Hop>,
    route: &mut Vec<LinkId>,
) {
    route.clear();
    topo.unicast_route(noc, src, dst, route);
    let mut last_dir = None;
    let mut dateline = 0u8;
    for &l in route.iter() {
        let (at, dir) = topo.link_info(l);
        if last_dir != Some(dir) {
            dateline = 0;
            last_dir = Some(dir);
        }
        if wraps(topo, at, dir) {
            dateline = 8;
        }
        let k = hops.len() as u16;
        let parent = hops.len() - 1;
        hops[parent].kids[0] = k;
        hops[parent].nkids = 1;
        hops.push(Hop { chan: l.0, vc: vc + dateline, kids: [0; 3], nkids: 0, dest: NOT_A_DEST, arrived: 0 });
    }
    let e = eject_chan(topo, topo.niu_index(dst, noc)) as u32;
    let k = hops.len() as u16;
    let parent = hops.len() - 1;
    hops[parent].kids[0] = k;
    hops[parent].nkids = 1;
    hops.push(Hop { chan: e, vc: vc + dateline, kids: [0; 3], nkids: 0, dest: 0, arrived: 0 });
}

fn tree_hops(topo: &Topology, noc: NocId, tree: &[TreeNode], dests: &[Noc0Coord], vc: u8, hops: &mut Vec<Hop>) {
    // Tree node n is hop `at[n]`; its router's ejection port, when it is a destination, a hop of its own.
    let mut at = vec![0u16; tree.len()];
    let mut dateline = vec![0u8; tree.len()];
    let mut dir_in: Vec<Option<Dir>> = vec![None; tree.len()];
    let add_kid = |hops: &mut Vec<Hop>, parent: usize, kid: u16| {
        let h = &mut hops[parent];
        h.kids[h.nkids as usize] = kid;
        h.nkids += 1;
    };
    // Only the branches that lead to a destination: a branch that ends at routers whose tiles take no
    // copy (the source without loopback, tiles that are not workers) would hold its flits for ever.
    let mut needed = vec![false; tree.len()];
    for d in dests {
        needed[tree.iter().rposition(|t| t.tile == *d).unwrap_or(0)] = true;
    }
    for n in (1..tree.len()).rev() {
        if needed[n] {
            needed[tree[n].parent.expect("non-root")] = true;
        }
    }
    for (n, node) in tree.iter().enumerate() {
        if !needed[n] {
            continue;
        }
        if let (Some(p), Some(l)) = (node.parent, node.via) {
            let (from, dir) = topo.link_info(l);
            let mut d = if dir_in[p] == Some(dir) { dateline[p] } else { 0 };
            if wraps(topo, from, dir) {
                d = 8;
            }
            // A tree that wraps around the torus can cross one link twice (the way to the rectangle and a
            // row of it): the second crossing goes on the dateline twin, or the packet would wait for
            // its own tail and deadlock.
            if hops[1..].iter().any(|h| h.chan == l.0 && h.vc == vc + d) {
                d ^= 8;
            }
            dateline[n] = d;
            dir_in[n] = Some(dir);
            let k = hops.len() as u16;
            add_kid(hops, at[p] as usize, k);
            hops.push(Hop { chan: l.0, vc: vc + d, kids: [0; 3], nkids: 0, dest: NOT_A_DEST, arrived: 0 });
            at[n] = k;
        }
    }
    for (i, d) in dests.iter().enumerate() {
        let n = tree.iter().rposition(|t| t.tile == *d).unwrap_or(0);
        let e = eject_chan(topo, topo.niu_index(*d, noc)) as u32;
        let k = hops.len() as u16;
        add_kid(hops, at[n] as usize, k);
        hops.push(Hop { chan: e, vc: vc + dateline[n], kids: [0; 3], nkids: 0, dest: i as u16, arrived: 0 });
    }
}

/// Whether the link leaving `at` towards `dir` is the ring's wrap link (the dateline).
fn wraps(topo: &Topology, at: Noc0Coord, dir: Dir) -> bool {
    let (w, h) = (topo.grid().x, topo.grid().y);
    match dir {
        Dir::East => at.x == w - 1,
        Dir::South => at.y == h - 1,
        Dir::West => at.x == 0,
        Dir::North => at.y == 0,
    }
}
