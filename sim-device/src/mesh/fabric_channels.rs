//! The fabric on a mesh: which Ethernet channel of each device runs the router facing each mesh
//! neighbour, and the connection arguments a worker kernel needs to reach one
//! (`append_fabric_connection_rt_args`).

use super::{MeshCoordinate, MeshDevice};
use crate::error::DeviceError;
use sim_chip::fabric_config::{FabricConfig, FabricLayout, RouterSpec};
use sim_tensix::dataflow::fabric::FABRIC_CONNECTION_ARGS;

/// East, west, north, south as (row, column) steps; the opposite of direction `d` is `d ^ 1`.
const DIRS: [(i64, i64); 4] = [(0, 1), (0, -1), (-1, 0), (1, 0)];

impl MeshDevice {
    /// `SetFabricConfig`: routers run on the Ethernet cores from the next workload on.
    pub fn set_fabric_config(&mut self, config: FabricConfig) -> Result<(), DeviceError> {
        if config.enabled() {
            let dev = self.lock_device(0)?;
            FabricLayout::new(&dev.params, config).map_err(DeviceError::Config)?;
        }
        self.fabric = config;
        Ok(())
    }

    /// The fabric configuration.
    pub fn fabric_config(&self) -> FabricConfig {
        self.fabric
    }

    /// The neighbour of device `i` in direction `d` (wrapping around a ring's line when the
    /// configuration closes it).
    fn neighbour(&self, i: usize, d: usize) -> Option<usize> {
        let c = self.shape.coord(i);
        let (rows, cols) = (self.shape.rows as i64, self.shape.cols as i64);
        let (mut r, mut k) = (c.row as i64 + DIRS[d].0, c.col as i64 + DIRS[d].1);
        if self.fabric == FabricConfig::Fabric1DRing {
            let along = if d < 2 { cols } else { rows };
            if along >= 3 {
                r = r.rem_euclid(rows);
                k = k.rem_euclid(cols);
            }
        }
        if r < 0 || k < 0 || r >= rows || k >= cols {
            return None;
        }
        let j = MeshCoordinate::new(r as u32, k as u32).to_linear_index(self.shape);
        (j != i).then_some(j)
    }

    /// The channel of device `i` whose link reaches device `j`: links between two chips are numbered by
    /// the channel at the end on the lower chip id, so both ends agree on which link is `link`.
    fn channel_to(&self, i: usize, j: usize, link: u32) -> Option<u32> {
        let target = self.chip_ids[j];
        let mut pairs: Vec<(u32, u32)> = self.eth_peers[i]
            .iter()
            .enumerate()
            .filter_map(|(c, p)| p.filter(|(chip, _)| *chip == target).map(|(_, far)| (c as u32, far)))
            .collect();
        if self.chip_ids[i] > target {
            pairs.sort_by_key(|&(_, far)| far);
        }
        pairs.get(link as usize).map(|&(near, _)| near)
    }

    /// The routers of device `i`: one per neighbour the system links it to and routing plane (link `p` of
    /// every neighbour pair is plane `p`; a packet stays on the plane it entered, so each plane is a fabric
    /// of its own, as tt-metal's routing planes are).
    pub(crate) fn routers_of(&self, i: usize) -> Vec<RouterSpec> {
        if !self.fabric.enabled() {
            return Vec::new();
        }
        let c = self.shape.coord(i);
        let mut out: Vec<RouterSpec> = Vec::new();
        for plane in 0.. {
            let mut facing = [None; 4];
            for (d, f) in facing.iter_mut().enumerate() {
                *f = self.neighbour(i, d).and_then(|j| self.channel_to(i, j, plane));
            }
            if facing.iter().all(Option::is_none) {
                break;
            }
            out.extend((0..4).filter_map(|d| {
                facing[d].map(|channel| RouterSpec {
                    channel,
                    dir: d,
                    dirs: facing,
                    coord: (c.row, c.col),
                    cols: self.shape.cols,
                })
            }));
        }
        out.sort_by_key(|r| r.channel);
        out.dedup_by_key(|r| r.channel);
        out
    }

    /// Links (routing planes) between neighbouring devices `a` and `b` of the mesh (0 if they are not
    /// neighbours or not linked).
    pub fn links_between(&self, a: MeshCoordinate, b: MeshCoordinate) -> Result<u32, DeviceError> {
        let (i, j) = (self.index(a)?, self.index(b)?);
        Ok((0..).take_while(|&l| self.channel_to(i, j, l).is_some()).count() as u32)
    }

    /// `append_fabric_connection_rt_args(src, dst, link_idx, program, worker_core, args)`: the arguments a
    /// worker on the device at `src` reads with `FabricConnection::from_args` to send towards the
    /// neighbouring device `dst`; `credit_sem` is the id of the worker's semaphore the router writes its
    /// credits to.
    pub fn append_fabric_connection_rt_args(
        &self,
        src: MeshCoordinate,
        dst: MeshCoordinate,
        link_idx: u32,
        credit_sem: u32,
        args: &mut Vec<u32>,
    ) -> Result<(), DeviceError> {
        if !self.fabric.enabled() {
            return Err(DeviceError::api(
                "append_fabric_connection_rt_args: the fabric is disabled; call set_fabric_config(FabricConfig::Fabric1D) first (C++: tt_fabric::SetFabricConfig(FabricConfig::FABRIC_1D) before MeshDevice::create)",
            ));
        }
        let i = self.index(src)?;
        let j = self.index(dst)?;
        if !(0..4).any(|d| self.neighbour(i, d) == Some(j)) {
            return Err(DeviceError::api(format!(
                "append_fabric_connection_rt_args: {dst} is not a neighbour of {src} in the {} mesh; connect to an adjacent device and route with hops",
                self.shape
            )));
        }
        let ch = self.channel_to(i, j, link_idx).ok_or_else(|| {
            let links = (0..).take_while(|&l| self.channel_to(i, j, l).is_some()).count();
            DeviceError::api(if links == 0 {
                format!(
                    "append_fabric_connection_rt_args: chips {} and {} are not linked by Ethernet",
                    self.chip_ids[i], self.chip_ids[j]
                )
            } else {
                format!(
                    "append_fabric_connection_rt_args: link {link_idx}: chips {} and {} are joined by {links} link(s) (routing planes 0..{})",
                    self.chip_ids[i],
                    self.chip_ids[j],
                    links - 1
                )
            })
        })?;
        let dev = self.lock_device(i)?;
        let l = FabricLayout::new(&dev.params, self.fabric).map_err(DeviceError::Config)?;
        let t = dev.eth_core_noc_xy(ch)?;
        let before = args.len();
        args.extend([t.x, t.y, l.base, l.sender_slots, l.slot_bytes, l.header_bytes, l.max_payload, credit_sem]);
        debug_assert_eq!(args.len() - before, FABRIC_CONNECTION_ARGS);
        Ok(())
    }
}
