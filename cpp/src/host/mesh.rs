//! The mesh calls of the host ABI: opening a mesh of devices (placed on the system's chips where the
//! command named a system), `SetFabricConfig`, running a mesh workload with every chip of the mesh
//! simulated together (Ethernet and fabric traffic between them included), and the fabric connection
//! arguments a worker kernel needs (`append_fabric_connection_rt_args`). Each joint step lends the
//! session's devices to a [`MeshDevice`] and takes them back afterwards, whatever the outcome.

use super::call::on_session;
use super::session::{OpenMesh, Session};
use crate::ffi::{read_slice, set_out, write_slice};
use sim_device::fabric_config::FabricConfig;
use sim_device::mesh::{MeshCoordinate, MeshCoordinateRange, MeshDevice, MeshShape, MeshWorkload, place};
use sim_device::{CoreCoord, CoreRange};

/// `MeshDevice::create(MeshShape(rows, cols))`: the device ids of the mesh, row-major, into `out`
/// (`rows * cols` of them), each opened as `CreateDevice` opens one.
pub(super) extern "C" fn open_mesh(rows: u32, cols: u32, out: *mut u32) -> i32 {
    on_session(|s| {
        let shape = MeshShape::new(rows, cols);
        let n = u32::try_from(shape.mesh_size()).unwrap_or(u32::MAX);
        if n == 0 {
            return Err(format!("MeshDevice::create({shape}): a mesh needs at least one device"));
        }
        if n > s.cfg.num_devices
            && s.cfg.system.is_none()
            && s.devices.is_empty()
            && let Some(pick) = s.cfg.pick_system.as_mut()
        {
            let auto = pick(shape)?;
            s.cfg.system = Some(auto.links);
            s.cfg.num_devices = auto.num_devices;
            s.cfg.open = auto.open;
        }
        let available = s.cfg.num_devices;
        if n > available {
            return Err(format!(
                "MeshDevice::create({shape}): the mesh needs {n} devices and this run has {available}; {}",
                (s.cfg.advice.more_devices)(n)
            ));
        }
        let ids: Vec<u32> = match &s.cfg.system {
            None => (0..n).collect(),
            Some(sys) => {
                let chips = place(&sys.mesh, shape, MeshCoordinate::new(0, 0), &sys.name).map_err(|e| e.to_string())?;
                chips
                    .iter()
                    .map(|&c| sys.device_of(c).ok_or_else(|| format!("{}: chip {c} is not in its mesh", sys.name)))
                    .collect::<Result<_, _>>()?
            }
        };
        if let Some(&busy) = ids.iter().find(|&&i| i >= available) {
            return Err(format!(
                "MeshDevice::create({shape}): it needs device {busy} of {} and this run has {available}; {}",
                s.cfg.system.as_ref().map_or("the system", |x| x.name.as_str()),
                (s.cfg.advice.more_devices)(busy + 1)
            ));
        }
        for &id in &ids {
            if s.devices.contains_key(&id) {
                return Err(format!("MeshDevice::create({shape}): device {id} is already open"));
            }
        }
        for &id in &ids {
            super::call::open_one(s, id)?;
        }
        write_slice(out, &ids);
        s.mesh = Some(OpenMesh { shape, devices: ids });
        Ok(())
    })
}

/// `tt::tt_fabric::SetFabricConfig`: 0 disabled, 1 FABRIC_1D, 2 FABRIC_1D_RING, 3 FABRIC_2D.
pub(super) extern "C" fn set_fabric(config: u32) -> i32 {
    on_session(|s| {
        let fabric = match config {
            0 => FabricConfig::Disabled,
            1 => FabricConfig::Fabric1D,
            2 => FabricConfig::Fabric1DRing,
            3 => FabricConfig::Fabric2D,
            c => {
                return Err(format!(
                    "SetFabricConfig: configuration {c} is not modelled (DISABLED, FABRIC_1D, FABRIC_1D_RING and FABRIC_2D are)"
                ));
            }
        };
        if fabric.enabled() && s.cfg.system.is_none() {
            return Err(format!(
                "SetFabricConfig: the fabric runs over the Ethernet links of a system; {}",
                s.cfg.advice.need_system
            ));
        }
        s.fabric = fabric;
        Ok(())
    })
}

/// Lend the open mesh's devices to a [`MeshDevice`] for `f` and take them back, whatever `f` returns.
fn with_mesh<R>(s: &mut Session, api: &str, f: impl FnOnce(&mut MeshDevice) -> Result<R, String>) -> Result<R, String> {
    let mesh = s.mesh.clone().ok_or_else(|| format!("{api}: no mesh is open (MeshDevice::create first)"))?;
    if let Some(id) = mesh.devices.iter().find(|id| !s.devices.contains_key(id)) {
        return Err(format!("{api}: device {id} of the mesh was closed"));
    }
    let devices = mesh.devices.iter().map(|id| s.devices.remove(id).expect("checked open")).collect();
    // The mesh's chips go by their device ids (what the host program knows them as, and what errors name);
    // the links are renamed to match.
    let (peers, name) = match &s.cfg.system {
        Some(sys) => (
            mesh.devices
                .iter()
                .map(|&d| {
                    let ends = sys.eth_peers.get(d as usize).cloned().unwrap_or_default();
                    ends.into_iter().map(|e| e.and_then(|(chip, ch)| Some((sys.device_of(chip)?, ch)))).collect()
                })
                .collect(),
            sys.name.clone(),
        ),
        None => (vec![Vec::new(); mesh.devices.len()], "independent chips".to_string()),
    };
    let mut m = MeshDevice::from_devices(mesh.shape, devices, mesh.devices.clone(), peers, &name)
        .map_err(|e| format!("internal error in tensim: {e}; please report it"))?;
    m.set_workers(s.cfg.workers);
    let r = m.set_fabric_config(s.fabric).map_err(|e| format!("{api}: {e}")).and_then(|()| f(&mut m));
    let back = m.into_devices().map_err(|e| format!("internal error in tensim: {e}; please report it"))?;
    for (id, d) in mesh.devices.iter().zip(back) {
        s.devices.insert(*id, d);
    }
    r
}

/// `EnqueueMeshWorkload`: `progs[i]` is the program of the mesh's device `i` (row-major), or -1 for
/// none; every chip of the mesh runs at once.
pub(super) extern "C" fn run_mesh(progs: *const i64, n: u32) -> i32 {
    on_session(|s| {
        let progs = read_slice(progs, n as usize).to_vec();
        let mesh = s.mesh.clone().ok_or("EnqueueMeshWorkload: no mesh is open (MeshDevice::create first)")?;
        if progs.len() != mesh.devices.len() {
            return Err(format!(
                "EnqueueMeshWorkload: {} programs for a mesh of {} devices",
                progs.len(),
                mesh.devices.len()
            ));
        }
        let mut w = MeshWorkload::new();
        for (i, &p) in progs.iter().enumerate() {
            if p < 0 {
                continue;
            }
            let program = s
                .programs
                .get(p as usize)
                .and_then(Option::as_ref)
                .ok_or_else(|| format!("program handle {p} does not name a live program"))?
                .clone();
            w.add_program(MeshCoordinateRange::single(mesh.shape.coord(i)), program);
        }
        let report = with_mesh(s, "EnqueueMeshWorkload", |m| m.enqueue_mesh_workload(&w).map_err(|e| e.to_string()))?;
        s.mesh_runs += 1;
        for (coord, _, r) in &report.devices {
            let i = coord.to_linear_index(mesh.shape);
            if progs[i] < 0 {
                continue;
            }
            let dev = mesh.devices[i];
            s.runs += 1;
            let d = s.devices.get(&dev).expect("given back");
            (s.cfg.on_run)(dev, d, r);
        }
        Ok(())
    })
}

/// `append_fabric_connection_rt_args(src, dst, link, program, core, args)`: a semaphore for the router's
/// credits on `core` of `prog`, then the connection's words (up to `cap` into `out`, the count into `n`).
#[allow(clippy::too_many_arguments)]
pub(super) extern "C" fn fabric_args(
    prog: u32,
    src: u32,
    dst: u32,
    link: u32,
    x: u32,
    y: u32,
    out: *mut u32,
    cap: u32,
    n: *mut u32,
) -> i32 {
    on_session(|s| {
        const API: &str = "append_fabric_connection_rt_args";
        let mesh = s.mesh.clone().ok_or_else(|| format!("{API}: no mesh is open (MeshDevice::create first)"))?;
        let coord = |dev: u32| {
            mesh.devices
                .iter()
                .position(|&d| d == dev)
                .map(|i| mesh.shape.coord(i))
                .ok_or_else(|| format!("{API}: device {dev} is not in the open {} mesh", mesh.shape))
        };
        let (a, b) = (coord(src)?, coord(dst)?);
        let core = CoreCoord::new(x, y);
        let sem =
            s.program(prog)?.create_semaphore(CoreRange::new(core, core), 0).map_err(|e| format!("{API}: {e}"))?;
        let mut words = Vec::new();
        with_mesh(s, API, |m| {
            m.append_fabric_connection_rt_args(a, b, link, sem, &mut words).map_err(|e| e.to_string())
        })?;
        set_out(n, words.len() as u32);
        write_slice(out, &words[..words.len().min(cap as usize)]);
        Ok(())
    })
}
