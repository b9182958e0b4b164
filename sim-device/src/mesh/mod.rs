//! tt-metal's distributed host API over a system of chips: a [`MeshDevice`] opens a mesh of a given shape
//! on a system (a built-in one or a cluster descriptor), one [`Device`] per chip; submeshes share those
//! devices; [`MeshBuffer`]s are allocated lock-step (one address on every device), replicated or sharded;
//! a [`MeshWorkload`] gives each range of coordinates its program, and `enqueue_mesh_workload` runs every
//! chip's program — the chips in parallel on the host's cores, each chip deterministic on its own.
//!
//! One chip is the 1×1 mesh. Chips of a mesh talk over the Ethernet links between them: kernels on
//! Ethernet cores send to the core at the other end of their link, and `run.rs` runs the chips together
//! in conservative time windows.

pub mod distribute;
mod fabric_channels;
mod mesh_buffer;
mod mesh_coords;
pub(crate) mod run_chips;
pub(crate) mod worker;
mod workload;

pub use mesh_buffer::{DeviceLocalBufferConfig, MeshBuffer, MeshBufferConfig};
pub use mesh_coords::{MeshCoordinate, MeshCoordinateRange, MeshShape};
pub use workload::{MeshRunReport, MeshWorkload};

use crate::device::Device;
use crate::error::DeviceError;
use parking_lot::Mutex;
use sim_chip::fabric_config::FabricConfig;
use sim_params::Params;
use soc_descriptors::cluster::{ClusterDescriptor, EthEnd, MeshEmbedding};
use soc_descriptors::{Chip, ChipOptions};
use std::sync::Arc;

/// A mesh of devices over chips of a system.
pub struct MeshDevice {
    shape: MeshShape,
    /// The chip id at each coordinate, row-major.
    chip_ids: Vec<u32>,
    /// The device at each coordinate, row-major (shared with submeshes and reshapes).
    devices: Vec<Arc<Mutex<Device>>>,
    /// The other end of each Ethernet channel of each device (row-major), `(chip id, channel)`, when the
    /// system links it.
    eth_peers: Vec<Vec<Option<(u32, u32)>>>,
    system: String,
    /// Host threads simulating chips side by side (0 = as many as the host has).
    workers: usize,
    /// Let each chip run up to the earliest landing its links allow (else: windows of one link latency).
    lookahead: bool,
    /// Routers on the Ethernet cores.
    fabric: FabricConfig,
}

impl std::fmt::Debug for MeshDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MeshDevice({} on {}, chips {:?})", self.shape, self.system, self.chip_ids)
    }
}

/// The chips of `sys` forming a `shape` mesh at `offset`: a sub-rectangle of the system's mesh, or for a
/// line (1×N or N×1) that does not fit one, a snake through the system's rows (so consecutive chips are
/// linked wherever the system's rows are).
pub fn place(
    sys: &MeshEmbedding,
    shape: MeshShape,
    offset: MeshCoordinate,
    name: &str,
) -> Result<Vec<u32>, DeviceError> {
    if shape.rows == 0 || shape.cols == 0 {
        return Err(DeviceError::Api(format!("mesh shape {shape}: every dimension must be at least 1")));
    }
    if offset.row + shape.rows <= sys.rows && offset.col + shape.cols <= sys.cols {
        return Ok((0..shape.rows)
            .flat_map(|r| (0..shape.cols).map(move |c| (r, c)))
            .map(|(r, c)| sys.chip_at(offset.row + r, offset.col + c).expect("inside"))
            .collect());
    }
    let n = shape.mesh_size();
    if (shape.rows == 1 || shape.cols == 1) && offset == MeshCoordinate::new(0, 0) && n <= sys.chips.len() {
        let snake: Vec<u32> = (0..sys.rows)
            .flat_map(|r| {
                let cols: Vec<u32> = if r % 2 == 0 { (0..sys.cols).collect() } else { (0..sys.cols).rev().collect() };
                cols.into_iter().map(move |c| (r, c))
            })
            .map(|(r, c)| sys.chip_at(r, c).expect("inside"))
            .collect();
        return Ok(snake[..n].to_vec());
    }
    Err(DeviceError::Api(format!(
        "mesh {shape} at offset {offset} does not fit {name}, whose chips form a {}x{} mesh; use a shape that fits, or a line 1xN / Nx1 of at most {} chips",
        sys.rows,
        sys.cols,
        sys.chips.len()
    )))
}

/// The far end `(chip id, channel)` of each Ethernet channel of chip `id` of `cluster`, where linked.
pub fn eth_peers_of(cluster: &ClusterDescriptor, id: u32) -> Result<Vec<Option<(u32, u32)>>, DeviceError> {
    let c = cluster.chip(id).ok_or_else(|| DeviceError::Config(format!("{}: no chip {id}", cluster.source)))?;
    Ok((0..cluster.num_channels(c))
        .map(|ch| cluster.peer(EthEnd { chip: id, channel: ch }).map(|p| (p.chip, p.channel)))
        .collect())
}

impl MeshDevice {
    /// A `shape` mesh of devices already open (row-major), on chips `chip_ids` of `system` whose Ethernet
    /// channels reach `eth_peers` (see [`eth_peers_of`]; empty where the chips are not linked). Give them
    /// back with [`MeshDevice::into_devices`].
    pub fn from_devices(
        shape: MeshShape,
        devices: Vec<Device>,
        chip_ids: Vec<u32>,
        eth_peers: Vec<Vec<Option<(u32, u32)>>>,
        system: &str,
    ) -> Result<MeshDevice, DeviceError> {
        let n = shape.mesh_size();
        if devices.len() != n || chip_ids.len() != n || eth_peers.len() != n {
            return Err(DeviceError::Api(format!(
                "a {shape} mesh needs {n} devices, chip ids and link lists; got {}, {} and {}",
                devices.len(),
                chip_ids.len(),
                eth_peers.len()
            )));
        }
        Ok(MeshDevice {
            shape,
            chip_ids,
            devices: devices.into_iter().map(|d| Arc::new(Mutex::new(d))).collect(),
            eth_peers,
            system: system.to_string(),
            workers: 0,
            lookahead: true,
            fabric: FabricConfig::Disabled,
        })
    }

    /// Open a `shape` mesh (at `offset` in the system's mesh; default the origin) on a system, with
    /// `params` for every chip (they must be for the system's arch).
    pub fn open(
        cluster: &ClusterDescriptor,
        sys_mesh: &MeshEmbedding,
        shape: MeshShape,
        offset: Option<MeshCoordinate>,
        params: &Params,
    ) -> Result<MeshDevice, DeviceError> {
        let chip_ids = place(sys_mesh, shape, offset.unwrap_or(MeshCoordinate::new(0, 0)), &cluster.source)?;
        let mut devices = Vec::with_capacity(chip_ids.len());
        let mut eth_peers = Vec::with_capacity(chip_ids.len());
        for &id in &chip_ids {
            let c = cluster.chip(id).ok_or_else(|| DeviceError::Config(format!("{}: no chip {id}", cluster.source)))?;
            if c.harvesting.dram_mask != 0 {
                return Err(DeviceError::Config(format!(
                    "{}: chip {id} has DRAM channels harvested (mask {:#x}): not modelled: DRAM harvesting",
                    cluster.source, c.harvesting.dram_mask
                )));
            }
            let chip =
                Chip::builtin(c.arch, ChipOptions { harvest_mask: c.harvesting.tensix_mask, ..Default::default() })
                    .map_err(|e| DeviceError::Config(format!("{}: chip {id}: {e}", cluster.source)))?;
            let mut dev = Device::with_chip(chip, format!("{} chip {id}", cluster.source), params.clone())?;
            let tiles = (0..cluster.num_channels(c)).filter_map(|ch| cluster.eth_core(c, ch)).collect();
            dev.set_eth_channels(tiles);
            eth_peers.push(eth_peers_of(cluster, id)?);
            devices.push(Arc::new(Mutex::new(dev)));
        }
        Ok(MeshDevice {
            shape,
            chip_ids,
            devices,
            eth_peers,
            system: cluster.source.clone(),
            workers: 0,
            lookahead: true,
            fabric: FabricConfig::Disabled,
        })
    }

    /// One chip as a 1×1 mesh.
    pub fn unit(device: Device) -> MeshDevice {
        let system = device.soc_name().to_string();
        MeshDevice {
            shape: MeshShape::new(1, 1),
            chip_ids: vec![0],
            devices: vec![Arc::new(Mutex::new(device))],
            eth_peers: vec![Vec::new()],
            system,
            workers: 0,
            lookahead: true,
            fabric: FabricConfig::Disabled,
        }
    }

    /// The devices of the mesh, row-major, as independent devices (each keeps its chip, harvesting and
    /// Ethernet cores; the links between them are gone). An error while a submesh still shares them.
    pub fn into_devices(self) -> Result<Vec<Device>, DeviceError> {
        let system = self.system;
        self.devices
            .into_iter()
            .map(|d| {
                Arc::try_unwrap(d).map(Mutex::into_inner).map_err(|_| {
                    DeviceError::Api(format!("a device of the mesh on {system} is still shared with a submesh"))
                })
            })
            .collect()
    }

    /// Simulate chips on `n` host threads (0: as many as the host has). Results do not depend on it.
    pub fn set_workers(&mut self, n: usize) {
        self.workers = n;
    }

    /// Whether a chip may run past one link latency when its links' backlog shows nothing can land on
    /// it sooner (on by default). Results do not depend on it; it exists so tests can prove that.
    pub fn set_lookahead(&mut self, on: bool) {
        self.lookahead = on;
    }

    /// Record a Perfetto trace on every device of the mesh (see [`report::multi_chip::merged_trace`]).
    pub fn set_tracing(&mut self, on: bool) {
        for d in &self.devices {
            d.lock().set_tracing(on);
        }
    }

    /// The mesh shape.
    pub fn shape(&self) -> MeshShape {
        self.shape
    }

    /// Number of devices.
    pub fn num_devices(&self) -> usize {
        self.devices.len()
    }

    /// The chip id at each coordinate, row-major.
    pub fn chip_ids(&self) -> &[u32] {
        &self.chip_ids
    }

    /// The system the mesh is on.
    pub fn system(&self) -> &str {
        &self.system
    }

    fn index(&self, c: MeshCoordinate) -> Result<usize, DeviceError> {
        if !self.shape.contains(c) {
            return Err(DeviceError::Api(format!("mesh coordinate {c} is outside the {} mesh", self.shape)));
        }
        Ok(c.to_linear_index(self.shape))
    }

    /// The device at `c` (locked while the guard lives; asking for a device whose guard is still alive is
    /// an error, not a hang).
    pub fn get_device(&self, c: MeshCoordinate) -> Result<parking_lot::MutexGuard<'_, Device>, DeviceError> {
        self.lock_device(self.index(c)?)
    }

    /// Lock device `i` for a host call. The host API is single-threaded (runs take `&mut self`), so a held
    /// lock can only be a [`MeshDevice::get_device`] guard the caller still holds.
    pub(crate) fn lock_device(&self, i: usize) -> Result<parking_lot::MutexGuard<'_, Device>, DeviceError> {
        self.devices[i].try_lock().ok_or_else(|| {
            DeviceError::Api(format!(
                "device {} is held by a get_device() guard that is still alive; drop the guard before this call",
                self.shape.coord(i)
            ))
        })
    }

    /// The chip id at `c`.
    pub fn chip_id(&self, c: MeshCoordinate) -> Result<u32, DeviceError> {
        Ok(self.chip_ids[self.index(c)?])
    }

    /// A submesh of `shape` at `offset` sharing this mesh's devices (memory written through one is seen
    /// through the other).
    pub fn create_submesh(&self, shape: MeshShape, offset: MeshCoordinate) -> Result<MeshDevice, DeviceError> {
        if shape.rows == 0
            || shape.cols == 0
            || offset.row + shape.rows > self.shape.rows
            || offset.col + shape.cols > self.shape.cols
        {
            return Err(DeviceError::Api(format!(
                "submesh {shape} at offset {offset} does not fit the {} mesh",
                self.shape
            )));
        }
        let mut chip_ids = Vec::new();
        let mut devices = Vec::new();
        let mut eth_peers = Vec::new();
        for c in MeshCoordinateRange::new(
            offset,
            MeshCoordinate::new(offset.row + shape.rows - 1, offset.col + shape.cols - 1),
        )
        .iter()
        {
            let i = c.to_linear_index(self.shape);
            chip_ids.push(self.chip_ids[i]);
            devices.push(self.devices[i].clone());
            eth_peers.push(self.eth_peers[i].clone());
        }
        Ok(MeshDevice {
            shape,
            chip_ids,
            devices,
            eth_peers,
            system: self.system.clone(),
            workers: self.workers,
            lookahead: self.lookahead,
            fabric: self.fabric,
        })
    }

    /// Every submesh of `shape`, row-major by offset, tiling the mesh.
    pub fn create_submeshes(&self, shape: MeshShape) -> Result<Vec<MeshDevice>, DeviceError> {
        if shape.rows == 0
            || shape.cols == 0
            || !self.shape.rows.is_multiple_of(shape.rows)
            || !self.shape.cols.is_multiple_of(shape.cols)
        {
            return Err(DeviceError::Api(format!("submeshes of {shape} do not tile the {} mesh", self.shape)));
        }
        let mut out = Vec::new();
        for r in (0..self.shape.rows).step_by(shape.rows as usize) {
            for c in (0..self.shape.cols).step_by(shape.cols as usize) {
                out.push(self.create_submesh(shape, MeshCoordinate::new(r, c))?);
            }
        }
        Ok(out)
    }

    /// The same devices as a `shape` mesh: the volume must not change; 1×N ↔ N×1 keep the order; a grid
    /// is formed only where the system's own mesh has those chips in that arrangement.
    pub fn reshape(
        &mut self,
        shape: MeshShape,
        cluster: &ClusterDescriptor,
        sys_mesh: &MeshEmbedding,
    ) -> Result<(), DeviceError> {
        if shape.mesh_size() != self.shape.mesh_size() {
            return Err(DeviceError::Api(format!(
                "reshape {} to {shape}: the number of devices must stay {}",
                self.shape,
                self.shape.mesh_size()
            )));
        }
        let line = |s: MeshShape| s.rows == 1 || s.cols == 1;
        let order = if line(shape) && line(self.shape) {
            self.chip_ids.clone()
        } else {
            let order = place(sys_mesh, shape, MeshCoordinate::new(0, 0), &cluster.source)?;
            let mut a = order.clone();
            let mut b = self.chip_ids.clone();
            a.sort_unstable();
            b.sort_unstable();
            if a != b {
                return Err(DeviceError::Api(format!(
                    "reshape {} to {shape}: these chips do not form a connected {shape} mesh on {}",
                    self.shape, cluster.source
                )));
            }
            order
        };
        let from: Vec<usize> =
            order.iter().map(|id| self.chip_ids.iter().position(|c| c == id).expect("same chips")).collect();
        self.devices = from.iter().map(|&i| self.devices[i].clone()).collect();
        self.eth_peers = from.iter().map(|&i| self.eth_peers[i].clone()).collect();
        self.chip_ids = order;
        self.shape = shape;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
