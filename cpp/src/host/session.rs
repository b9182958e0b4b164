//! The state a running C++ host program works on: its devices, buffers and programs by integer handle,
//! and what the command running it asked for (how to open a device, where kernel files are looked up,
//! what to do with each finished run). One session per host thread; the ABI calls (`abi.rs`) reach it.

use crate::compile::cache_dir;
use sim_device::fabric_config::FabricConfig;
use sim_device::mesh::MeshShape;
use sim_device::program::{CbHandle, KernelHandle, Program};
use sim_device::{Arch, Buffer, Device, RunReport};
use soc_descriptors::cluster::MeshEmbedding;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Opens device `id` (as the command configured the chip), or says why it cannot.
pub type OpenDevice = Box<dyn FnMut(u32) -> Result<Device, String>>;
/// Called after every program run with the device id, the device and the report.
pub type OnRun = Box<dyn FnMut(u32, &Device, &RunReport)>;

/// The chips of a system the devices are (`--system`): device id `i` is the chip at mesh position
/// `(i / cols, i % cols)`, and meshes the program opens run their chips together over these links.
pub struct SystemLinks {
    /// The system's name (its cluster descriptor).
    pub name: String,
    /// The system's mesh of chips.
    pub mesh: MeshEmbedding,
    /// Per device id: the far end `(chip id, channel)` of each of its Ethernet channels, where linked.
    pub eth_peers: Vec<Vec<Option<(u32, u32)>>>,
}

impl SystemLinks {
    /// The device id of chip `chip`.
    pub fn device_of(&self, chip: u32) -> Option<u32> {
        self.mesh.chips.iter().position(|&c| c == chip).map(|i| i as u32)
    }
}

/// A mesh the host program opened (`MeshDevice::create`): its shape and its device ids, row-major.
#[derive(Debug, Clone)]
pub(crate) struct OpenMesh {
    pub shape: MeshShape,
    pub devices: Vec<u32>,
}

/// The system a mesh the program creates runs on when the command named none: the chips, how many
/// devices there are now, how to open them, and a note saying which system it is.
pub struct AutoSystem {
    pub links: SystemLinks,
    pub num_devices: u32,
    pub open: OpenDevice,
}

/// Picks a system for a mesh of the given shape (when the command named no system or device count).
pub type PickSystem = Box<dyn FnMut(MeshShape) -> Result<AutoSystem, String>>;

/// What a command gives a host program.
pub struct HostConfig {
    /// The architecture every device has (kernels are compiled for it).
    pub arch: Arch,
    /// Devices `CreateDevice` may open: ids 0..num_devices.
    pub num_devices: u32,
    /// Opens a device.
    pub open: OpenDevice,
    /// Receives each run.
    pub on_run: OnRun,
    /// Folders kernel paths are looked up in after the current folder (the program's folder and its
    /// ancestors, `$TT_METAL_KERNEL_PATH`, `$TT_METAL_HOME`).
    pub kernel_roots: Vec<PathBuf>,
    /// The system the devices are chips of, when the command named one: meshes then run their chips
    /// together over its Ethernet links (else every device runs on its own).
    pub system: Option<SystemLinks>,
    /// Host threads simulating a mesh's chips side by side (0: as many as the host has).
    pub workers: usize,
    /// When the command gave neither a system nor a number of devices: the system a mesh larger than the
    /// devices at hand runs on (the smallest built-in one that holds it).
    pub pick_system: Option<PickSystem>,
    /// How the front end tells its user to give a run more chips (the command line names its flags).
    pub advice: RunAdvice,
}

/// How the front end running a host program tells its user to give the run more chips: the command line
/// names its flags; the defaults say it in plain words.
#[derive(Clone, Copy)]
pub struct RunAdvice {
    /// What to do when a mesh needs `n` devices and the run has fewer.
    pub more_devices: fn(u32) -> String,
    /// What to do when the fabric is asked for and the run has no system of chips.
    pub need_system: &'static str,
}

impl Default for RunAdvice {
    fn default() -> Self {
        RunAdvice {
            more_devices: |n| format!("run it with {n} independent chips or on a system with that many chips"),
            need_system: "run the program on a system of chips (e.g. t3000) or a cluster descriptor",
        }
    }
}

pub(crate) struct Session {
    pub cfg: HostConfig,
    pub devices: BTreeMap<u32, Device>,
    pub buffers: Vec<Option<(u32, Buffer)>>,
    pub programs: Vec<Option<Program>>,
    /// Per program: its CB handles (the ABI's CB ids index this).
    pub cbs: Vec<Vec<CbHandle>>,
    /// Per program: its kernel handles.
    pub kernels: Vec<Vec<KernelHandle>>,
    /// Programs run so far.
    pub runs: u32,
    /// Mesh workloads run with their chips together.
    pub mesh_runs: u32,
    /// The mesh opened last (fabric connections and mesh workloads refer to it).
    pub mesh: Option<OpenMesh>,
    /// `SetFabricConfig`: routers run on the Ethernet cores of the mesh's chips.
    pub fabric: FabricConfig,
    /// Every TensorAccessorArgs block the program appended to a compile-time args vector: (offset, words).
    pub accessor_blocks: Vec<(u32, Vec<u32>)>,
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// Install `cfg` as this thread's session for the duration of `f`.
pub(crate) fn with_session<R>(cfg: HostConfig, f: impl FnOnce() -> R) -> (R, Session) {
    SESSION.with(|s| {
        *s.borrow_mut() = Some(Session {
            cfg,
            devices: BTreeMap::new(),
            buffers: Vec::new(),
            programs: Vec::new(),
            cbs: Vec::new(),
            kernels: Vec::new(),
            runs: 0,
            mesh_runs: 0,
            mesh: None,
            fabric: FabricConfig::Disabled,
            accessor_blocks: Vec::new(),
        })
    });
    let r = f();
    let s = SESSION.with(|s| s.borrow_mut().take()).expect("the session is installed");
    (r, s)
}

/// Run `f` on this thread's session.
pub(crate) fn session<R>(f: impl FnOnce(&mut Session) -> Result<R, String>) -> Result<R, String> {
    SESSION.with(|s| {
        let mut s = s.try_borrow_mut().map_err(|_| "a host API call was made from inside another".to_string())?;
        let s = s.as_mut().ok_or("no tensim host session: run the program with `tensim build-and-run`")?;
        f(s)
    })
}

impl Session {
    pub fn device(&mut self, dev: u32) -> Result<&mut Device, String> {
        self.devices.get_mut(&dev).ok_or_else(|| format!("device {dev} is not open (CreateDevice it first)"))
    }

    pub fn buffer(&self, buf: u32) -> Result<&(u32, Buffer), String> {
        self.buffers
            .get(buf as usize)
            .and_then(Option::as_ref)
            .ok_or_else(|| format!("buffer handle {buf} does not name a live buffer"))
    }

    pub fn program(&mut self, prog: u32) -> Result<&mut Program, String> {
        self.programs
            .get_mut(prog as usize)
            .and_then(Option::as_mut)
            .ok_or_else(|| format!("program handle {prog} does not name a live program"))
    }

    pub fn kernel(&self, prog: u32, k: u32) -> Result<KernelHandle, String> {
        self.kernels
            .get(prog as usize)
            .and_then(|ks| ks.get(k as usize))
            .copied()
            .ok_or_else(|| format!("kernel handle {k} does not exist in program {prog}"))
    }

    /// Where a kernel file named `name` in the host program is, as an absolute path: tt-metal's search order
    /// (as given, i.e. absolute or relative to the current folder; then each kernel root: the program's
    /// folder and its ancestors, `$TT_METAL_KERNEL_PATH`, the system kernel folder, `$TT_METAL_HOME`), plus
    /// the in-tree spelling `tt_metal/programming_examples/…` tried without that prefix, and a path that names
    /// the program's folder by another name (`old_name/kernels/…`, a folder copied under a new name) tried
    /// inside the program's folder.
    pub fn find_kernel(&self, name: &str) -> Result<PathBuf, String> {
        let absolute =
            |p: &Path| p.canonicalize().map_err(|e| format!("CreateKernel: kernel file `{}`: {e}", p.display()));
        let given = Path::new(name);
        if given.is_file() {
            return absolute(given);
        }
        let stripped = name.strip_prefix("tt_metal/programming_examples/");
        let mut tried = vec![given.display().to_string()];
        for root in &self.cfg.kernel_roots {
            for n in [Some(name), stripped].into_iter().flatten() {
                let p = root.join(n);
                if p.is_file() {
                    return absolute(&p);
                }
                tried.push(p.display().to_string());
            }
        }
        let renamed = stripped.unwrap_or(name).split_once('/').map(|(_, rest)| rest);
        if let (Some(rest), Some(program)) = (renamed, self.cfg.kernel_roots.first()) {
            let p = program.join(rest);
            if rest.starts_with("kernels/") && p.is_file() {
                return absolute(&p);
            }
        }
        Err(format!(
            "CreateKernel: kernel file `{name}` not found; looked at {} (set TT_METAL_HOME or TT_METAL_KERNEL_PATH to the folder the path is relative to)",
            tried.join(", ")
        ))
    }

    /// Where accessor blocks the program appended sit in `compile_args` (today's layout, ascending): each
    /// recorded block whose words are found at its recorded offset.
    pub fn accessor_blocks_in(&self, compile_args: &[u32]) -> Vec<u32> {
        let mut at: Vec<u32> = self
            .accessor_blocks
            .iter()
            .filter(|(o, w)| compile_args.get(*o as usize..*o as usize + w.len()) == Some(w.as_slice()))
            .map(|(o, _)| *o)
            .collect();
        at.sort_unstable();
        at.dedup();
        at
    }

    /// A kernel given as source text (`CreateKernelFromString`): written once per content into the cache.
    pub fn kernel_from_string(&self, source: &str) -> Result<PathBuf, String> {
        let h = crate::compile::Hash::new().add(source.as_bytes()).hex();
        let dir = cache_dir()?.join("sources");
        std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let p = dir.join(format!("kernel-{}.cpp", &h[..16]));
        if !p.exists() {
            std::fs::write(&p, source).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        }
        Ok(p)
    }
}
