//! tensim's C++ program folders (`cpp/programs/*`: host code and kernels written against the TT-Metalium
//! API) built with `cpp::host::build` and run in-process, each against its Rust port among tensim's
//! built-in programs: the host program passes its own check, and every program run takes the same cycles
//! as the Rust port's, on Wormhole B0 and Blackhole. Needs the host C++ compiler and says so loudly.

use cpp::host::{HostConfig, OnRun, OpenDevice, build};
use programs::ExampleOptions;
use sim_device::{Arch, Device};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

fn programs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("programs")
}

fn need_compiler() {
    if let Err(e) = cpp::compile::compiler() {
        panic!("this test compiles C++ programs and needs the host C++ compiler: {e}");
    }
}

/// A host configuration: `num_devices` devices of `arch` that `open` makes, each run reported to `on_run`,
/// kernels looked up under `roots`, no system links.
fn host_config(arch: Arch, num_devices: u32, open: OpenDevice, on_run: OnRun, roots: Vec<PathBuf>) -> HostConfig {
    HostConfig {
        advice: Default::default(),
        arch,
        num_devices,
        open,
        on_run,
        kernel_roots: roots,
        system: None,
        workers: 0,
        pick_system: None,
    }
}

/// Build and run the program folder `dir` on `arch`: main's exit code and the cycles of each program run.
fn run_cpp(dir: &Path, arch: Arch) -> (i32, Vec<u64>) {
    run_cpp_on(dir, arch, 1).unwrap_or_else(|e| panic!("{e}"))
}

/// As `run_cpp`, on a system of `devices` chips; the host program's error if it stopped.
fn run_cpp_on(dir: &Path, arch: Arch, devices: u32) -> Result<(i32, Vec<u64>), String> {
    let lib = build::build(dir).unwrap_or_else(|e| panic!("{e}"));
    let cycles = Rc::new(RefCell::new(Vec::new()));
    let sink = cycles.clone();
    let cfg = host_config(
        arch,
        devices,
        Box::new(move |_| Device::builtin(arch).map_err(|e| e.to_string())),
        Box::new(move |_, _, r| sink.borrow_mut().push(r.cycles.0)),
        vec![programs()],
    );
    let out = cpp::host::run(&lib, cfg, &[dir.display().to_string()])?;
    let c = cycles.borrow().clone();
    Ok((out.exit_code, c))
}

/// The Rust port's cycles.
fn run_rust(name: &str, arch: Arch) -> u64 {
    let ex = programs::find(name).unwrap_or_else(|| panic!("no built-in program {name}"));
    let mut dev = Device::builtin(arch).unwrap();
    let out = (ex.run)(&mut dev, &ExampleOptions::default()).unwrap();
    assert!(out.passed, "{name}: {}", out.check);
    out.report.cycles.0
}

#[test]
fn cpp_programs_pass_and_time_like_their_rust_ports() {
    need_compiler();
    // (folder, Rust port). Kernels that read and write L1 through pointers (the adder, softmax's scaler tile)
    // take the same time as their Rust ports' L1 API calls.
    let cases = [
        // Today's API (the mesh host API, api/ includes, accessor args with their page size, kernel_main
        // compute kernels, object-style kernels where today's examples use them).
        ("loopback", "loopback"),
        ("eltwise_binary", "eltwise_binary"),
        ("add_2_integers_in_riscv", "add_2_integers_in_riscv"),
        ("custom_sfpi_add", "custom_sfpi_add"),
        ("custom_sfpi_smoothstep", "custom_sfpi_smoothstep"),
        ("eltwise_sfpu", "eltwise_sfpu"),
        ("sfpu_eltwise_chain", "sfpu_eltwise_chain"),
        ("matmul/matmul_single_core", "matmul_single_core"),
        ("matmul/matmul_multi_core", "matmul_multi_core"),
        ("matmul/matmul_multicore_reuse", "matmul_multicore_reuse"),
        ("matmul/matmul_multicore_reuse_mcast", "matmul_multicore_reuse_mcast"),
        ("vecadd_multi_core", "vecadd_multi_core"),
        ("vecadd_sharding", "eltwise_add_sharded"),
        ("NoC_tile_transfer", "noc_tile_transfer"),
        // The older API (classic host calls, compute_kernel_api/ includes, NAMESPACE/MAIN, older compute
        // names, one-word accessor offsets): it keeps working beside today's.
        ("legacy/eltwise_binary", "eltwise_binary"),
        ("hello_world_datamovement_kernel", "hello_world_datamovement"),
        ("hello_world_compute_kernel", "hello_world_compute"),
        ("sfpu_custom_add", "sfpu_custom_add"),
        ("add_2_integers_in_compute", "add_2_integers_in_compute"),
        ("softmax", "softmax"),
        ("contributed/multicast", "multicast"),
    ];
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md")).unwrap();
    let mut stale = Vec::new();
    let mut checked = 0;
    for (i, arch) in [Arch::WormholeB0, Arch::Blackhole].into_iter().enumerate() {
        for (dir, rust) in cases {
            let (code, runs) = run_cpp(&programs().join(dir), arch);
            assert_eq!(code, 0, "{dir} on {arch}: main returned {code}");
            assert_eq!(runs.len(), 1, "{dir}: one program run");
            let want = run_rust(rust, arch);
            assert_eq!(runs[0], want, "{dir} on {arch}: C++ cycles against the Rust port's");
            // The README's tables of programs state these cycles: they must be today's.
            if let Some(stated) = readme_cycles(&readme, dir).and_then(|c| c.get(i).copied()) {
                checked += 1;
                if stated != runs[0] {
                    stale.push(format!("{dir} on {arch}: README says {stated}, the run takes {}", runs[0]));
                }
            }
        }
    }
    assert!(checked >= 25, "only {checked} README figures found: has the table's layout changed?");
    assert!(stale.is_empty(), "README figures out of date (update the tables):\n{}", stale.join("\n"));
}

/// The cycles the README's C++ program tables state for the program folder `dir` (a row whose first cell is
/// the folder, perhaps followed by a note in parentheses): `WH / BH` or `WH`, thousands separated by commas.
fn readme_cycles(readme: &str, dir: &str) -> Option<Vec<u64>> {
    readme.lines().find_map(|l| {
        let cells: Vec<&str> = l.split('|').map(str::trim).collect();
        if cells.len() < 5 || cells[1].split(" (").next() != Some(dir) {
            return None;
        }
        let nums: Option<Vec<u64>> = cells[3].split(" / ").map(|n| n.replace(',', "").parse().ok()).collect();
        nums
    })
}

/// Seed 002's kernel as written for Grayskull (4 iterations per face, the second tile at `dst_reg[16]`)
/// runs on Grayskull's 64-lane SFPU and counts the same instructions as its Rust port.
#[test]
fn the_seed_sfpu_kernel_runs_on_grayskull_with_its_own_constants() {
    need_compiler();
    let (code, runs) = run_cpp(&programs().join("sfpu_custom_add"), Arch::Grayskull);
    assert_eq!(code, 0);
    assert_eq!(runs, vec![run_rust("sfpu_custom_add", Arch::Grayskull)]);
}

#[test]
fn a_kernel_error_in_a_host_program_is_an_exception_with_its_text() {
    need_compiler();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/missing_kernel");
    let lib = build::build(&dir).unwrap_or_else(|e| panic!("{e}"));
    let cfg = host_config(
        Arch::WormholeB0,
        1,
        Box::new(|_| Device::builtin(Arch::WormholeB0).map_err(|e| e.to_string())),
        Box::new(|_, _, _| {}),
        vec![dir.clone()],
    );
    let e = cpp::host::run(&lib, cfg, &["x".into()]).unwrap_err();
    assert!(e.contains("kernel file `kernels/no_such_kernel.cpp` not found"), "{e}");
}

/// Host threads running C++ kernels that dereference L1 pointers at once take turns at the L1 address
/// range: every run still sees its own core's L1 (the adder reads its inputs and writes its sum through
/// pointers), on each thread and every time.
#[test]
fn cpp_kernels_with_l1_pointers_run_on_several_host_threads_at_once() {
    need_compiler();
    let dir = programs().join("add_2_integers_in_riscv");
    build::build(&dir).unwrap_or_else(|e| panic!("{e}"));
    let threads: Vec<_> = [Arch::WormholeB0, Arch::Blackhole, Arch::WormholeB0]
        .into_iter()
        .map(|arch| {
            let dir = dir.clone();
            std::thread::spawn(move || (0..4).map(|_| run_cpp(&dir, arch)).collect::<Vec<_>>())
        })
        .collect();
    for t in threads {
        for (code, runs) in t.join().expect("a host thread") {
            assert_eq!(code, 0, "the adder's own check fails when it reads another core's L1");
            assert_eq!(runs.len(), 1);
        }
    }
}

/// shard_data_rm (no Rust port) prints each core's sticks: the printed values are the check.
#[test]
fn shard_data_rm_prints_each_cores_sticks() {
    need_compiler();
    let dir = programs().join("shard_data_rm");
    let lib = build::build(&dir).unwrap_or_else(|e| panic!("{e}"));
    for arch in [Arch::WormholeB0, Arch::Blackhole] {
        let lines = Rc::new(RefCell::new(Vec::new()));
        let sink = lines.clone();
        let cfg = host_config(
            arch,
            1,
            Box::new(move |_| Device::builtin(arch).map_err(|e| e.to_string())),
            Box::new(move |_, _, r| sink.borrow_mut().extend(r.dprints.iter().map(|l| l.to_string()))),
            vec![programs()],
        );
        let out = cpp::host::run(&lib, cfg, &[dir.display().to_string()]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.exit_code, 0);
        let mut got = lines.borrow().clone();
        got.sort();
        let mut want: Vec<String> = (0..8u32)
            .map(|s| {
                let core = s / 2;
                // Floats print as a default std::ostream prints them (as tt-metal's print server does).
                format!("(0,{core}) BRISC: stick {s}: {} {}", 2 * s + 1, 2 * s + 2)
            })
            .collect();
        want.sort();
        assert_eq!(got, want, "{arch}");
    }
}

/// The distributed examples on a 2x4 mesh: one program dispatched to all devices; sharded and replicated
/// mesh buffers written and read back whole and shard by shard; sharded mesh buffers added by one workload
/// traced and replayed on all eight devices, an event, and a shard read alone, every device taking the same
/// cycles. With too few devices the error says how many.
#[test]
fn a_mesh_program_runs_on_eight_devices() {
    need_compiler();
    for arch in [Arch::WormholeB0, Arch::Blackhole] {
        let (code, runs) = run_cpp_on(&programs().join("distributed/1_distributed_program_dispatch"), arch, 8)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((code, runs.len()), (0, 8), "{arch}: one run per device");
        let (code, runs) = run_cpp_on(&programs().join("distributed/2_distributed_buffer_rw"), arch, 8)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((code, runs.len()), (0, 0), "{arch}: buffers only");
        // Sharded mesh buffers with replicated dimensions (a shard dimension of 0), checked device by device.
        let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/mesh_shards");
        let (code, runs) = run_cpp_on(&data, arch, 8).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((code, runs.len()), (0, 0), "{arch}: mesh_shards");
    }
    let dir = programs().join("distributed/3_distributed_eltwise_add");
    for arch in [Arch::WormholeB0, Arch::Blackhole] {
        let (code, runs) = run_cpp_on(&dir, arch, 8).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(code, 0, "{arch}");
        assert_eq!(runs.len(), 8, "the replayed workload runs once on each device");
        assert!(runs.iter().all(|&c| c == runs[0] && c > 0), "{runs:?}");
    }
    let e = run_cpp_on(&dir, Arch::WormholeB0, 4).unwrap_err();
    assert!(e.contains("needs 8 devices and this run has 4") && e.contains("run it with 8 independent chips"), "{e}");
}

/// tensim's {fmt} subset prints numbers as {fmt} does (shortest round-trip digits, fixed or exponential by
/// the same thresholds, widths, fills and precisions).
#[test]
fn the_shipped_fmt_prints_like_fmt() {
    need_compiler();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fmt_check");
    let (code, runs) = run_cpp(&dir, Arch::WormholeB0);
    assert_eq!(code, 0, "{code} format(s) differ from {{fmt}}'s (printed above)");
    assert!(runs.is_empty());
}

/// Build and run `dir` on `arch`; the exit code, each run's cycles and every DPRINT line.
fn run_cpp_printing(dir: &Path, arch: Arch) -> (i32, Vec<u64>, Vec<String>) {
    let lib = build::build(dir).unwrap_or_else(|e| panic!("{e}"));
    let seen = Rc::new(RefCell::new((Vec::new(), Vec::new())));
    let sink = seen.clone();
    let cfg = host_config(
        arch,
        1,
        Box::new(move |_| Device::builtin(arch).map_err(|e| e.to_string())),
        Box::new(move |_, _, r| {
            let mut s = sink.borrow_mut();
            s.0.push(r.cycles.0);
            s.1.extend(r.dprints.iter().map(|l| l.to_string()));
        }),
        vec![dir.to_path_buf(), programs()],
    );
    let out = cpp::host::run(&lib, cfg, &[dir.display().to_string()]).unwrap_or_else(|e| panic!("{e}"));
    let (cycles, prints) = seen.borrow().clone();
    (out.exit_code, cycles, prints)
}

/// A C++ program whose run stalls packets beyond the routers' buffers, on a device that checks such runs:
/// the check runs the C++ kernels again, inside the L1 windows they use, from the memories the run
/// started from, and gives the router model's cycles; the program still passes its own check.
#[test]
fn a_cpp_run_is_checked_on_the_router_model_inside_its_l1_windows() {
    need_compiler();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/row_center");
    let lib = build::build(&dir).unwrap_or_else(|e| panic!("{e}"));
    let run = |model: &'static str, limit: Option<u64>| {
        let seen = Rc::new(RefCell::new(Vec::new()));
        let sink = seen.clone();
        let cfg = host_config(
            Arch::WormholeB0,
            1,
            Box::new(move |_| {
                let mut p = sim_device::Params::builtin(Arch::WormholeB0);
                p.set("test", &format!("noc.model={model}")).map_err(|e| e.to_string())?;
                let mut d = Device::open_with_params(&sim_device::ChipSpec::builtin(Arch::WormholeB0), p)
                    .map_err(|e| e.to_string())?;
                d.set_router_check(limit);
                Ok(d)
            }),
            Box::new(move |_, _, r| sink.borrow_mut().push((r.cycles, r.router_check.clone(), r.warnings.clone()))),
            vec![dir.parent().unwrap().to_path_buf()],
        );
        let out = cpp::host::run(&lib, cfg, &[dir.display().to_string()]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.exit_code, 0, "{model}: the program's own check");
        let runs = seen.borrow().clone();
        assert_eq!(runs.len(), 1);
        runs.into_iter().next().unwrap()
    };
    let (router_cycles, ..) = run("router", None);
    let (plain_cycles, plain_check, _) = run("calendar", None);
    let (cycles, check, warnings) = run("calendar", Some(u64::MAX));
    assert_eq!((cycles, plain_check), (plain_cycles, None));
    assert_eq!(check, Some(sim_device::RouterCheck::Ran { cycles: router_cycles }));
    assert!(router_cycles.0 as f64 > 1.05 * cycles.0 as f64, "router {router_cycles:?} vs calendar {cycles:?}");
    assert!(warnings.iter().any(|w| w.contains(&format!("{} cycles", router_cycles.0))), "{warnings:?}");
}

/// Programs written for tensim's tests as a user would write them today (object-style NoC, endpoints, L1
/// pointers, semaphore objects, multicast including the sender; shard_transpose: the sharded accessor's
/// shard views, transpose and pack-untilize, inline writes with byte enables and with state, state-based
/// writes, relayed and incremented multicast semaphores; pair_add: accessor tuples, a type-erased accessor, a
/// PageView, state-based and transaction-id reads, posted writes on a chosen VC from a DataflowBuffer, a page
/// write at a byte offset; program_reuse: one program run three times on an IDevice with its globally
/// allocated circular buffers moved between sharded buffers, its args changed in place, a kernel from a
/// string, slow-dispatch and command-queue calls, a buffer freed and replaced; sfpu_ops: 33 operations of
/// today's compute API — SFPU, row broadcasts, partial reloads, pack_untilize_dest — against their definitions;
/// col_stats: float32 row-major DRAM pages read at byte offsets, tilize, column reductions with fp32
/// accumulation, out-of-order packing, a COL_MAJOR width-sharded output; buffer_regions: buffers at a given
/// address as views of others, sub-buffer and shard-region transfers, misplaced ones refused; eth_semaphores:
/// semaphores on an idle Ethernet core rung by a worker through get_semaphore<ACTIVE_ETH>; block_mm:
/// matmul_block per inner tile from interleaved DRAM and a padded BLOCK_SHARDED L1 operand, a scalar
/// broadcast, an Int32 tile copied exactly through DST with UnpackToDestFp32; dram_shards: a WIDTH_SHARDED
/// DRAM buffer over every bank read by bank id and through the sharded accessor; tile_ops: pack_untilize of
/// two block rows, transpose, a MAX scalar reduction, DST reuse; sfpu_approx: each SFPU call approximates
/// as its template flag says) pass their own checks on both chips. The stencil
/// stalls a trace of packets (14 in 96,149 cycles on Wormhole), too few for the router-level check.
#[test]
fn programs_written_against_todays_api_pass_their_checks() {
    need_compiler();
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for name in [
        "stencil",
        "bscale",
        "shard_transpose",
        "pair_add",
        "program_reuse",
        "sfpu_ops",
        "col_stats",
        "buffer_regions",
        "eth_semaphores",
    ] {
        let dir = data.join(name);
        let lib = build::build(&dir).unwrap_or_else(|e| panic!("{e}"));
        for arch in [Arch::WormholeB0, Arch::Blackhole] {
            let checks = Rc::new(RefCell::new(Vec::new()));
            let sink = checks.clone();
            let cfg = host_config(
                arch,
                1,
                Box::new(move |_| {
                    let mut d = Device::builtin(arch).map_err(|e| e.to_string())?;
                    d.set_router_check(Some(sim_device::router_check::DEFAULT_LIMIT_FLIT_MOVES));
                    Ok(d)
                }),
                Box::new(move |_, _, r| sink.borrow_mut().push(r.router_check.clone())),
                vec![data.clone()],
            );
            let out = cpp::host::run(&lib, cfg, &[dir.display().to_string()]).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(out.exit_code, 0, "{name} on {arch}");
            if name == "stencil" {
                assert_eq!(*checks.borrow(), vec![None], "{name} on {arch}");
            }
        }
    }
}

/// The §10 examples with no Rust port (reduce_max single, multi-core and multicast; pad_multi_core;
/// contributed/vecadd; profiler/test_timestamped_events and test_multi_op) pass
/// their own exact checks on both chips; the reduction's TSLICE print shows column 0 of its first output
/// tile, every eighth row, each value as an ostream prints it.
#[test]
fn examples_without_rust_ports_pass_their_checks() {
    need_compiler();
    for arch in [Arch::WormholeB0, Arch::Blackhole] {
        for dir in [
            "reduce_max/reduce_max_single_core",
            "reduce_max/reduce_max_multi_core",
            "reduce_max/reduce_max_mcast",
            "pad_multi_core",
            "contributed/vecadd",
            "profiler/test_timestamped_events",
            "profiler/test_multi_op",
        ] {
            let (code, cycles, prints) = run_cpp_printing(&programs().join(dir), arch);
            assert_eq!(code, 0, "{dir} on {arch}");
            if dir.ends_with("multi_op") {
                // Three runs of 100, 200 and 300 timed L1 stores.
                assert!(cycles.len() == 3 && cycles[0] < cycles[1] && cycles[1] < cycles[2], "{cycles:?}");
                continue;
            }
            assert_eq!(cycles.len(), 1, "{dir}");
            if dir.ends_with("single_core") {
                // The heading, then one line per row of the slice (each print line is a line of its own).
                let at = prints.iter().position(|p| p.contains("max of rows 0, 8, 16, 24")).expect("the TSLICE print");
                let rows = &prints[at + 1..at + 5];
                let values: Vec<f32> =
                    rows.iter().filter_map(|l| l.rsplit(": ").next().and_then(|v| v.trim().parse().ok())).collect();
                assert_eq!(values.len(), 4, "four rows of one column: {rows:?}");
                assert!(values.iter().all(|v| (9.0..=10.0).contains(v)), "maxima of 512 values in [-10, 10): {rows:?}");
                // As an ostream prints floats by default (%g: 6 significant digits, no trailing zeros).
                assert!(rows.iter().all(|l| !l.trim_end().ends_with('0') || l.trim_end().ends_with(" 10")), "{rows:?}");
            }
        }
    }
}

/// hello_world_datatypes_kernel reads DRAM at the NoC coordinates (1, 0) it hard-codes: DRAM bank 0 on
/// Grayskull, where it prints the host's float; on Wormhole the coordinate is no tile, and the error says
/// where coordinates should come from.
#[test]
fn hard_coded_coordinates_work_where_they_are_dram_and_fail_clearly_elsewhere() {
    need_compiler();
    let dir = programs().join("hello_world_datatypes_kernel");
    let (code, _, prints) = run_cpp_printing(&dir, Arch::Grayskull);
    assert_eq!(code, 0);
    assert_eq!(prints, vec!["(0,0) BRISC: Received float: 1.23".to_string()]);
    let e = run_cpp_on(&dir, Arch::WormholeB0, 1).unwrap_err();
    assert!(e.contains("NoC coordinate (1,0) is not a tile") && e.contains("worker_core_from_logical_core"), "{e}");
}

/// profiler/test_custom_cycle_count: DeviceZoneScopedN zones are recorded on data-movement RISCs and on
/// every TRISC, and DeviceTimestampedData values with their core, RISC and cycle.
#[test]
fn profiler_zones_and_timestamped_data_are_recorded() {
    need_compiler();
    let dir = programs().join("profiler/test_custom_cycle_count");
    let lib = build::build(&dir).unwrap_or_else(|e| panic!("{e}"));
    let reports = Rc::new(RefCell::new(Vec::new()));
    let sink = reports.clone();
    let cfg = host_config(
        Arch::WormholeB0,
        1,
        Box::new(|_| Device::builtin(Arch::WormholeB0).map_err(|e| e.to_string())),
        Box::new(move |_, _, r| sink.borrow_mut().push(r.clone())),
        vec![programs()],
    );
    let out = cpp::host::run(&lib, cfg, &[dir.display().to_string()]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.exit_code, 0);
    let reports = reports.borrow();
    let r = &reports[0];
    for (name, risc) in [("TEST-FULL", "BRISC"), ("TEST-COMPUTE", "TRISC0"), ("TEST-COMPUTE", "TRISC2")] {
        let zones: Vec<_> = r.zones.iter().filter(|z| z.name == name && z.risc.name() == risc).collect();
        assert_eq!(zones.len(), 4, "{name} on {risc}: one per core");
        assert!(zones.iter().all(|z| z.end > z.start && z.end.0 <= r.cycles.0), "{zones:?}");
    }
    let loops: Vec<_> = r.timestamped_data.iter().filter(|d| d.name == "Number of loops").collect();
    assert_eq!(loops.len(), 4);
    assert!(loops.iter().all(|d| d.data == 16 && d.risc.name() == "BRISC"));
    let bytes = r.timestamped_data.iter().find(|d| d.name == "Bytes read" && d.core == (0, 0)).unwrap();
    let zone = r.zones.iter().find(|z| z.name == "TEST-FULL" && z.core == (0, 0)).unwrap();
    assert_eq!(bytes.data, 16 * 2048);
    assert!(bytes.at >= zone.end, "logged after the zone closed");
}

/// Both generations of the API in one program: a kernel of the one-word TensorAccessorArgs layout
/// (hard-coded offsets and a scalar after the accessors) is recognised and built for that layout; a kernel
/// of today's layout walks a sharded buffer whose accessor fields are all common runtime args; a late-2025
/// `experimental::` object-API kernel; and device prints as silicon prints them (sticky stream
/// manipulators per RISC, lines made of several prints, {fmt} format strings, per-RISC forms).
#[test]
fn both_api_generations_run_side_by_side() {
    need_compiler();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/api_eras");
    let (code, runs, prints) = run_cpp_printing(&dir, Arch::WormholeB0);
    assert_eq!((code, runs.len()), (0, 1));
    let on = |risc: &str| -> Vec<String> {
        let prefix = format!("(2,1) {risc}: ");
        prints.iter().filter_map(|p| p.strip_prefix(&prefix).map(str::to_string)).collect()
    };
    let common = [
        "ff",
        "ff still hex",
        "3.14 1.23e+06     7|",
        "2.500",
        "0.1 1e-05 -3",
        "a line made of two prints",
        "fmt: 0.1 1000000 3.14    42|0xff true",
    ];
    let mut brisc: Vec<String> = common.iter().map(|s| s.to_string()).collect();
    brisc.extend(["only on BRISC".to_string(), "last 1 without a newline".to_string()]);
    let mut ncrisc: Vec<String> = common.iter().map(|s| s.to_string()).collect();
    ncrisc.extend(["only on NCRISC".to_string(), "last 1 without a newline".to_string()]);
    assert_eq!(on("BRISC"), brisc);
    assert_eq!(on("NCRISC"), ncrisc);
    assert!(prints.contains(&"(0,1) NCRISC: one-word layout: 8 tiles".to_string()), "{prints:?}");
    assert!(prints.contains(&"(0,1) BRISC: experimental: first word 7".to_string()), "{prints:?}");
    assert!(
        prints.contains(&"(1,1) BRISC: sharded: 8 pages over 4 banks, rank 2; page 7 in bank 3 at 1".to_string()),
        "{prints:?}"
    );
}

/// Every program of today's API builds through its own CMakeLists (tensim's package standing in for
/// TT-Metalium; the matmul examples through their parent folder, which defines `Matmul::Common`) and runs as
/// the build without CMake does. Needs `cmake` on PATH and says so loudly when there is none.
#[test]
fn programs_build_with_their_cmakelists() {
    need_compiler();
    let key = "cpp/programs: every program built through its CMakeLists";
    if std::process::Command::new("cmake").arg("--version").output().is_err() {
        soc_descriptors::test_skips::note(
            env!("CARGO_TARGET_TMPDIR"),
            key,
            Some("cmake is not on PATH (pip install cmake; .ci/run installs it)"),
        );
        eprintln!(
            "WARNING: cmake is not on PATH: skipping the --cmake builds (pip install cmake, or .ci/run installs it)"
        );
        return;
    }
    soc_descriptors::test_skips::note(env!("CARGO_TARGET_TMPDIR"), key, None);
    for dir in [
        "loopback",
        "eltwise_binary",
        "add_2_integers_in_riscv",
        "eltwise_sfpu",
        "sfpu_eltwise_chain",
        "custom_sfpi_add",
        "custom_sfpi_smoothstep",
        "vecadd_multi_core",
        "vecadd_sharding",
        "pad_multi_core",
        "shard_data_rm",
        "NoC_tile_transfer",
        "matmul/matmul_single_core",
        "matmul/matmul_multi_core",
        "matmul/matmul_multicore_reuse",
        "matmul/matmul_multicore_reuse_mcast",
        "distributed/1_distributed_program_dispatch",
        "distributed/2_distributed_buffer_rw",
        "distributed/3_distributed_eltwise_add",
    ] {
        let path = programs().join(dir);
        let with = build::build_with_cmake(&path).unwrap_or_else(|e| panic!("{dir}: {e}"));
        let devices = if dir.starts_with("distributed") { 8 } else { 1 };
        let run = |lib: &Path| {
            let cycles = Rc::new(RefCell::new(Vec::new()));
            let sink = cycles.clone();
            let cfg = host_config(
                Arch::WormholeB0,
                devices,
                Box::new(|_| Device::builtin(Arch::WormholeB0).map_err(|e| e.to_string())),
                Box::new(move |_, _, r| sink.borrow_mut().push(r.cycles.0)),
                vec![path.clone(), programs()],
            );
            let out = cpp::host::run(lib, cfg, &[path.display().to_string()]).unwrap_or_else(|e| panic!("{dir}: {e}"));
            let c = cycles.borrow().clone();
            (out.exit_code, c)
        };
        let without = build::build(&path).unwrap_or_else(|e| panic!("{dir}: {e}"));
        let (code, cycles) = run(&with);
        assert_eq!(code, 0, "{dir} built with CMake");
        assert_eq!((code, cycles), run(&without), "{dir}: with and without CMake");
    }
}

/// Mesh traces replay what they captured: a trace whose workload was destroyed right after its capture
/// replays it (the programs are held until the trace is released), and one whose program's runtime args were
/// changed after the capture replays the captured args. The host program checks the buffer after every run
/// (object NoC API zeros, a multicast semaphore increment, `wait_min`, events) and exits non-zero otherwise.
#[test]
fn traces_replay_what_they_captured() {
    need_compiler();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/trace_replay");
    let (code, runs, _) = run_cpp_printing(&dir, Arch::WormholeB0);
    assert_eq!(code, 0);
    // The first run and two replays of each trace, all alike.
    assert_eq!(runs.len(), 5, "{runs:?}");
    assert!(runs.iter().all(|&c| c == runs[0] && c > 0), "{runs:?}");
}
