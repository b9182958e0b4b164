//! `tensim build-and-run DIR`: compile a TT-Metalium program folder as it stands — its host C++ (the
//! sources its CMakeLists.txt names, else the `.cpp` files at its top) against tensim's host headers, and
//! the kernels it names by path when it creates them — then run its `main` with the arguments after `--`.
//! Each program it runs on a device is simulated; the run's DPRINTs and a cycle summary are printed, and
//! the output flags write the last run's trace, heatmap and timeline, every run's stats, and the memory
//! reports. Every option and output path is checked before anything is compiled. With `--cmake` the folder
//! is built by CMake through its own CMakeLists.txt, with tensim's package standing in for TT-Metalium.

use crate::chip_args::{ChipArgs, ParamArgs, setup};
use crate::cmd_run::{NocOutputs, memory_report_contents, plan_memory_reports};
use crate::error::{CliError, CliResult};
use crate::out::say;
use crate::outputs::{self, OutputId, OutputPlan};
use clap::Args;
use cpp::host::{HostConfig, SystemLinks, build};
use report::stats::stats_document;
use sim_device::mesh::{MeshCoordinate, MeshDevice, MeshShape, eth_peers_of};
use sim_device::params::Params;
use sim_device::{Device, DeviceSetup};
use soc_descriptors::Arch;
use soc_descriptors::cluster::{ClusterDescriptor, MeshEmbedding};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;

/// Options of `tensim build-and-run`.
#[derive(Args, Debug)]
pub struct BuildAndRunArgs {
    /// The program folder (host .cpp files, or a CMakeLists.txt naming them; kernels under it).
    dir: PathBuf,
    #[command(flatten)]
    chip: ChipArgs,
    #[command(flatten)]
    params: ParamArgs,
    #[arg(long, allow_hyphen_values = true, value_name = "off|auto|always", value_parser = crate::chip_args::parse_router_check,
          long_help = crate::chip_args::ROUTER_CHECK_HELP, help = "Check runs that stall packets beyond the routers' buffers on the router-level NoC model: auto (default), always or off")]
    pub(crate) router_check: Option<crate::chip_args::RouterCheckLimit>,
    /// Write a Chrome/Perfetto trace of the last program run.
    #[arg(long, value_name = "FILE.json")]
    trace: Option<PathBuf>,
    /// Write a NoC link-utilisation heatmap (SVG) of the last program run.
    #[arg(long, value_name = "FILE.svg")]
    noc_heatmap: Option<PathBuf>,
    /// Write the last program run as a tt-npe timeline v1.0.0 (JSON).
    #[arg(long, value_name = "FILE.json")]
    npe_timeline: Option<PathBuf>,
    /// Write statistics of every program run (JSON).
    #[arg(long, value_name = "FILE.json")]
    stats: Option<PathBuf>,
    /// Build with CMake (the folder's CMakeLists.txt, tensim's package as TT-Metalium) instead of compiling
    /// the sources it names directly.
    #[arg(long)]
    cmake: bool,
    /// Write the allocator's memory reports after the last run (three CSV files) into this folder.
    #[arg(long, value_name = "DIR")]
    memory_report: Option<PathBuf>,
    /// Devices the program may open (CreateDevice ids and MeshDevice meshes: a 2x4 mesh needs 8), each an
    /// independent chip of the chosen arch (no Ethernet between them). Default 1, or every chip of --system.
    #[arg(allow_negative_numbers = true, long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    devices: Option<u32>,
    /// Run on the chips of a system (a built-in name, see `tensim system --list`): device i is the chip at
    /// mesh position (i / cols, i % cols), with that chip's arch and harvesting.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["arch", "soc", "core_desc", "harvest", "cluster"])]
    system: Option<String>,
    /// Run on the chips of a cluster descriptor file instead of a built-in system.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["arch", "soc", "core_desc", "harvest"])]
    cluster: Option<PathBuf>,
    /// Host threads simulating the chips of a mesh run together (1..=256; default: the processors idle at the start, at least 1;
    /// results do not depend on it).
    #[arg(allow_negative_numbers = true, long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    workers: Option<u32>,
    /// Arguments for the program's main (after `--`).
    #[arg(last = true)]
    args: Vec<String>,
}

/// What the runs leave for the output files.
#[derive(Default)]
struct Collected {
    runs: Vec<serde_json::Value>,
    last: Vec<(OutputId, String)>,
    memory: Vec<(OutputId, String)>,
    cycles: u64,
    /// Host seconds each device's router-level checks took so far, by device id.
    check_secs: std::collections::BTreeMap<u32, f64>,
    /// Standard output was closed while printing a run.
    closed: bool,
}

/// Folders kernel paths are looked up in: the program folder and its ancestors (host code names kernels
/// relative to the examples' root), then $TT_METAL_KERNEL_PATH and $TT_METAL_HOME.
fn kernel_roots(dir: &Path) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = dir.ancestors().map(Path::to_path_buf).collect();
    if let Some(v) = std::env::var_os("TT_METAL_KERNEL_PATH") {
        roots.push(PathBuf::from(v));
    }
    roots.push(PathBuf::from("/usr/share/tenstorrent/kernels"));
    if let Some(v) = std::env::var_os("TT_METAL_HOME") {
        roots.push(PathBuf::from(v));
    }
    roots
}

/// What the device profiler would have collected, in a few lines: each zone name's count and its shortest,
/// median and longest duration per RISC, and the values kernels logged (each when there are few; else
/// their count and range per name). The full records are in `--stats` and `--trace`.
fn profiler_summary(r: &sim_device::RunReport) -> Vec<String> {
    use std::collections::BTreeMap;
    let mut out = Vec::new();
    let mut zones: BTreeMap<(&str, &str), Vec<u64>> = BTreeMap::new();
    for z in &r.zones {
        zones.entry((z.name.as_str(), z.risc.name())).or_default().push((z.end - z.start).0);
    }
    for ((name, risc), mut d) in zones {
        d.sort_unstable();
        out.push(format!(
            "profiler: zone {name} on {risc}: {} time(s), {} / {} / {} cycles (min / median / max)",
            d.len(),
            d[0],
            d[d.len() / 2],
            d[d.len() - 1]
        ));
    }
    if r.timestamped_data.len() <= 16 {
        for d in &r.timestamped_data {
            out.push(format!(
                "profiler: ({},{}) {} at cycle {}: {} = {}",
                d.core.0,
                d.core.1,
                d.risc.name(),
                d.at.0,
                d.name,
                d.data
            ));
        }
    } else {
        let mut by_name: BTreeMap<&str, (usize, u64, u64)> = BTreeMap::new();
        for d in &r.timestamped_data {
            let e = by_name.entry(d.name.as_str()).or_insert((0, u64::MAX, 0));
            *e = (e.0 + 1, e.1.min(d.data), e.2.max(d.data));
        }
        for (name, (n, lo, hi)) in by_name {
            out.push(format!("profiler: {name}: {n} value(s) from {lo} to {hi}"));
        }
    }
    out
}

/// The devices a program may open: copies of one chip, or the chips of a system.
struct Devices {
    arch: Arch,
    count: u32,
    from: Source,
}

enum Source {
    Chip(Box<DeviceSetup>),
    System { cluster: ClusterDescriptor, mesh: MeshEmbedding, params: Box<Params> },
}

impl Devices {
    fn new(a: &BuildAndRunArgs) -> CliResult<Devices> {
        if a.system.is_none() && a.cluster.is_none() {
            let setup = setup(&a.chip, &a.params, Some(Arch::WormholeB0))?;
            let arch = setup.open()?.arch();
            return Ok(Devices { arch, count: a.devices.unwrap_or(1), from: Source::Chip(Box::new(setup)) });
        }
        let (cluster, mesh) = crate::cmd_system::load_system(a.system.as_deref(), a.cluster.as_deref())?;
        Self::of_system(cluster, mesh, a.devices, &a.params)
    }

    /// The chips of a system (at most `devices` of them).
    fn of_system(
        cluster: ClusterDescriptor,
        mesh: MeshEmbedding,
        devices: Option<u32>,
        params: &crate::chip_args::ParamArgs,
    ) -> CliResult<Devices> {
        let arch = cluster
            .chips
            .first()
            .map(|c| c.arch)
            .ok_or_else(|| CliError::User(format!("{}: the system has no chips", cluster.source)))?;
        if let Some(c) = cluster.chips.iter().find(|c| c.arch != arch) {
            return Err(CliError::User(format!(
                "{}: chip {} is {} but chip {} is {}: not modelled: systems mixing architectures",
                cluster.source, c.id, c.arch, cluster.chips[0].id, arch
            )));
        }
        let chips = mesh.rows * mesh.cols;
        let count = match devices {
            Some(n) if n > chips => {
                return Err(CliError::User(format!(
                    "--devices {n}: {} has {chips} chips in its {}x{} mesh (give at most {chips})",
                    cluster.source, mesh.rows, mesh.cols
                )));
            }
            Some(n) => n,
            None => chips,
        };
        let params = Box::new(params.resolve(arch)?);
        crate::out::note!(
            "note: {}: {count} {arch} chip(s) of a {}x{} mesh; a mesh the program creates (MeshDevice::create) runs its chips together over their Ethernet links, other devices run on their own",
            cluster.source,
            mesh.rows,
            mesh.cols
        );
        Ok(Devices { arch, count, from: Source::System { cluster, mesh, params } })
    }

    /// The smallest built-in system of `arch` chips whose mesh holds a `shape` mesh (fewest chips, then the
    /// order of `tensim system --list`): for a program that creates a mesh larger than the devices at hand
    /// when the command named neither a system nor a number of devices.
    fn smallest_system_for(
        arch: Arch,
        shape: MeshShape,
        params: &crate::chip_args::ParamArgs,
    ) -> Result<(String, Devices), String> {
        let mut best: Option<(u32, &str)> = None;
        for (name, _, _) in soc_descriptors::cluster::BUILTIN_SYSTEMS {
            let Some((cluster, mesh)) = soc_descriptors::builtin_system(name) else { continue };
            let chips = mesh.rows * mesh.cols;
            let fits = sim_device::mesh::place(&mesh, shape, MeshCoordinate::new(0, 0), name).is_ok();
            if cluster.chips.iter().all(|c| c.arch == arch) && fits && best.is_none_or(|(n, _)| chips < n) {
                best = Some((chips, name));
            }
        }
        let n = shape.mesh_size();
        let Some((_, name)) = best else {
            return Err(format!(
                "MeshDevice::create({shape}): no built-in system of {arch} chips holds a {shape} mesh; give `--devices {n}` (independent chips) or `--cluster FILE`"
            ));
        };
        let (cluster, mesh) = soc_descriptors::builtin_system(name).expect("a built-in system");
        let devices = Devices::of_system(cluster, mesh, None, params).map_err(|e| e.to_string())?;
        Ok((name.to_string(), devices))
    }

    /// The links between the devices, when they are a system's chips.
    fn links(&self) -> CliResult<Option<SystemLinks>> {
        let Source::System { cluster, mesh, .. } = &self.from else { return Ok(None) };
        let eth_peers = (0..mesh.rows * mesh.cols)
            .map(|i| {
                let chip = mesh.chip_at(i / mesh.cols, i % mesh.cols).unwrap_or(u32::MAX);
                eth_peers_of(cluster, chip).map_err(|e| CliError::User(e.to_string()))
            })
            .collect::<CliResult<_>>()?;
        Ok(Some(SystemLinks { name: cluster.source.clone(), mesh: mesh.clone(), eth_peers }))
    }

    /// Open device `id`.
    fn open(&self, id: u32) -> Result<Device, String> {
        match &self.from {
            Source::Chip(setup) => setup.open().map_err(|e| e.to_string()),
            Source::System { cluster, mesh, params } => {
                let at = MeshCoordinate::new(id / mesh.cols, id % mesh.cols);
                let m = MeshDevice::open(cluster, mesh, MeshShape::new(1, 1), Some(at), params)
                    .and_then(MeshDevice::into_devices)
                    .map_err(|e| e.to_string())?;
                m.into_iter().next().ok_or_else(|| format!("{}: no chip at mesh position {at}", cluster.source))
            }
        }
    }
}

/// Run `tensim build-and-run`.
pub fn run(a: &BuildAndRunArgs) -> CliResult<ExitCode> {
    if !a.dir.is_dir() {
        return Err(CliError::User(format!("{}: not a folder (give the program's folder)", a.dir.display())));
    }
    cpp::check_timeout_setting().map_err(CliError::User)?;
    let devices = Devices::new(a)?;
    let mut plan = OutputPlan::new();
    let trace = a.trace.as_deref().map(|p| plan.add(p, outputs::TRACE)).transpose()?;
    let noc = NocOutputs::plan(&mut plan, &a.noc_heatmap, &a.npe_timeline)?;
    let stats = a.stats.as_deref().map(|p| plan.add(p, outputs::STATS)).transpose()?;
    let mem = plan_memory_reports(&mut plan, &a.memory_report)?;

    let started = std::time::Instant::now();
    let lib = if a.cmake { build::build_with_cmake(&a.dir) } else { build::build(&a.dir) }.map_err(CliError::User)?;
    let built = started.elapsed();
    let arch = devices.arch;

    let dprint = crate::dprint::DprintSettings::from_env()?;
    let collected = Rc::new(RefCell::new(Collected::default()));
    let sink = collected.clone();
    let tracing = trace.is_some();
    let records = noc.needs_records();
    let router_check = a.router_check.unwrap_or(crate::chip_args::RouterCheckLimit::AUTO).0;
    let maps_seen = std::cell::Cell::new(cpp::l1_window::pointer_mappings());
    let system = devices.links()?;
    // A mesh bigger than the one device at hand, with no system or device count given: the smallest
    // built-in system that holds it.
    let pick_system: Option<cpp::host::PickSystem> = if a.system.is_none() && a.cluster.is_none() && a.devices.is_none()
    {
        let params = a.params.clone();
        Some(Box::new(move |shape: MeshShape| {
            let (name, devices) = Devices::smallest_system_for(arch, shape, &params)?;
            crate::out::note!(
                "note: MeshDevice::create({shape}) runs on the built-in system {name} (the smallest of {arch} chips that holds it; give --system NAME, --cluster FILE or --devices N to choose)"
            );
            let links = devices.links().map_err(|e| e.to_string())?.expect("a system's links");
            let num_devices = devices.count;
            let open: cpp::host::OpenDevice = Box::new(move |id| {
                let mut d = devices.open(id)?;
                d.set_tracing(tracing);
                d.set_record_transfers(records);
                d.set_router_check(router_check);
                Ok(d)
            });
            Ok(cpp::host::AutoSystem { links, num_devices, open })
        }))
    } else {
        None
    };
    let cfg = HostConfig {
        advice: cpp::host::RunAdvice {
            more_devices: |n| {
                format!(
                    "give `tensim build-and-run --devices {n}` (independent chips) or a `--system` with that many chips"
                )
            },
            need_system: "run the program with `--system NAME` (e.g. t3000) or `--cluster FILE`",
        },
        pick_system,
        system,
        workers: a.workers.unwrap_or(0) as usize,
        arch,
        num_devices: devices.count,
        open: Box::new(move |id| {
            let mut d = devices.open(id)?;
            d.set_tracing(tracing);
            d.set_record_transfers(records);
            d.set_router_check(router_check);
            Ok(d)
        }),
        on_run: Box::new(move |dev_id, dev, r| {
            let mut c = sink.borrow_mut();
            let printed = (|| -> CliResult<()> {
                dprint.emit(dev_id, &r.dprints)?;
                for w in &r.warnings {
                    crate::out::note!("warning: {w}");
                }
                let maps = cpp::l1_window::pointer_mappings();
                if maps != maps_seen.replace(maps) {
                    crate::out::note!(
                        "note: kernels read or wrote L1 through pointers: each load and store is timed as the RISC-V's; not modelled: the time of library copies (memcpy, memset) on L1"
                    );
                }
                for line in profiler_summary(r) {
                    say!("{line}");
                }
                say!(
                    "tensim: program {} on device {dev_id}: {} cycles ({:.2} us at {} MHz), {} kernels",
                    c.runs.len(),
                    r.cycles.0,
                    r.cycles.0 as f64 / r.clock_mhz.max(1) as f64,
                    r.clock_mhz,
                    r.kernels.len()
                );
                Ok(())
            })();
            c.closed |= printed.is_err();
            c.cycles += r.cycles.0;
            c.check_secs.insert(dev_id, dev.router_check_secs());
            c.runs.push(r.stats());
            let mut last = noc.contents(dev, r);
            if let (Some(id), Some(json)) = (trace, &r.trace_json) {
                last.push((id, json.clone()));
            }
            c.last = last;
            if let Some(ids) = &mem {
                c.memory = memory_report_contents(dev, ids);
            }
        }),
        kernel_roots: kernel_roots(&a.dir.canonicalize().unwrap_or_else(|_| a.dir.clone())),
    };
    let mut argv = vec![a.dir.display().to_string()];
    argv.extend(a.args.iter().cloned());
    let ran = std::time::Instant::now();
    let outcome = cpp::host::run(&lib, cfg, &argv);
    let wall = ran.elapsed();
    let outcome = outcome.map_err(|m| CliError::User(format!("the host program stopped: {m}")))?;
    if a.workers.is_some() && outcome.mesh_runs == 0 {
        crate::out::note!(
            "note: --workers had no effect: the program ran no mesh workload with its chips together (MeshDevice::create and EnqueueMeshWorkload)"
        );
    }
    let c = Rc::try_unwrap(collected).map(RefCell::into_inner).unwrap_or_default();
    if c.closed {
        return Err(CliError::Closed);
    }
    if outcome.exited {
        say!("tensim: the host program called exit({}); the run so far:", outcome.exit_code);
    }
    // The router-level checks' time is their own, not the program's.
    let check_secs: f64 = c.check_secs.values().sum();
    let checked = if check_secs > 0.0 {
        format!(", and {check_secs:.2} s for the router-level model's checks")
    } else {
        String::new()
    };
    say!(
        "tensim: {} program run(s), {} simulated cycles in total; built in {:.2} s, ran in {:.2} s{checked}",
        outcome.programs_run,
        c.cycles,
        built.as_secs_f64(),
        (wall.as_secs_f64() - check_secs).max(0.0)
    );
    let mut contents = c.last;
    contents.extend(c.memory);
    if let Some(id) = stats {
        let doc = stats_document(
            "build-and-run",
            vec![
                ("program", a.dir.display().to_string().into()),
                ("arch", arch.to_string().into()),
                ("exit_code", outcome.exit_code.into()),
                ("runs", serde_json::Value::Array(c.runs)),
            ],
        );
        contents.push((id, doc));
    }
    let planned = contents.len();
    if planned > 0 || outcome.programs_run > 0 {
        for p in plan.commit(contents)? {
            say!("wrote {}", p.display());
        }
    }
    if outcome.exit_code != 0 {
        let code = outcome.exit_code;
        let how = if outcome.exited { format!("called exit({code})") } else { format!("returned {code}") };
        return Err(CliError::User(format!("the host program {how}")));
    }
    Ok(ExitCode::SUCCESS)
}
