//! The NoC and DRAM model end to end: multicast lands on exactly the rectangle, linked multicast saves the
//! path reservation, every data-movement suite runs on both chips, a core's writes and reads overlap, replay of the silicon traces meets its
//! accuracy target and is deterministic, and the heatmap and tt-npe timeline are well formed.

use sim_device::prelude::*;
use std::path::PathBuf;
use suites::dm_bench::{Suite, SuiteArgs, builtin, run_sweep};
use suites::replay::{Mode, parse_replay_input, replay};

#[test]
fn multicast_reaches_every_core_of_the_rectangle_and_nothing_else() {
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let grid = dev.compute_with_storage_grid_size();
    let all = CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(grid.x - 1, grid.y - 1));
    let mut p = Program::new();
    p.create_circular_buffer(
        all,
        CircularBufferConfig::new(2048, &[(CBIndex::c_0, DataFormat::UInt32)]).set_page_size(CBIndex::c_0, 2048),
    )
    .unwrap();
    // Rectangle logical (2,1)..(5,3), sent from (0,0) on NoC0 and from (7,7) on NoC1.
    let (a, b) = (
        dev.worker_core_from_logical_core(CoreCoord::new(2, 1)).unwrap(),
        dev.worker_core_from_logical_core(CoreCoord::new(5, 3)).unwrap(),
    );
    for (core, noc, proc, value) in [
        (CoreCoord::new(0, 0), NocId::Noc0, DataMovementProcessor::RISCV_0, 0xA5u32),
        (CoreCoord::new(7, 7), NocId::Noc1, DataMovementProcessor::RISCV_1, 0x5A),
    ] {
        let k = p
            .create_kernel(
                Kernel::dataflow("mcast", move |k: &mut Dataflow| {
                    let (sx, sy, ex, ey): (u32, u32, u32, u32) =
                        (k.get_arg_val(0), k.get_arg_val(1), k.get_arg_val(2), k.get_arg_val(3));
                    let v: u32 = k.get_arg_val(4);
                    let off: u32 = k.get_arg_val(5);
                    let l1 = k.get_write_ptr(CBIndex::c_0) + off;
                    k.l1_write_u32(l1, v);
                    let dst = k.get_noc_multicast_addr(sx, sy, ex, ey, l1);
                    k.noc_async_write_multicast(l1, dst, 16, 12, false);
                    k.noc_async_write_barrier();
                }),
                core,
                DataMovementConfig { processor: proc, noc, ..Default::default() },
            )
            .unwrap();
        // NoC0 names the rectangle from its min corner, NoC1 from its max corner.
        let (s, e) = if noc == NocId::Noc0 { (a, b) } else { (b, a) };
        p.set_runtime_args(k, core, &[s.x, s.y, e.x, e.y, value, if noc == NocId::Noc0 { 0 } else { 16 }]).unwrap();
    }
    dev.set_record_transfers(true);
    let r = dev.enqueue_program(&p).unwrap();
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    for y in 0..grid.y {
        for x in 0..grid.x {
            let c = CoreCoord::new(x, y);
            let got: Vec<u32> = dev.read_from_device_l1(c, dev.mem().l1_unreserved_base, 5).unwrap();
            let inside = (2..=5).contains(&x) && (1..=3).contains(&y);
            let expect0 = if inside || c == CoreCoord::new(0, 0) { 0xA5 } else { 0 };
            let expect1 = if inside || c == CoreCoord::new(7, 7) { 0x5A } else { 0 };
            assert_eq!((got[0], got[4]), (expect0, expect1), "core ({x},{y})");
        }
    }
    // Multicast records name the rectangle and all twelve destinations.
    let m: Vec<_> = r.noc.transfers.iter().filter(|t| t.kind == sim_device::TransferKind::Multicast).collect();
    assert_eq!(m.len(), 2);
    assert!(m.iter().all(|t| t.dst.len() == 12));
}

#[test]
fn linked_multicast_pays_the_path_reservation_once() {
    let lat = |linked: bool| {
        let s = Suite::parse("one_to_all_multicast", &SuiteArgs { grid: Some("4x4"), linked, ..Default::default() })
            .unwrap();
        run_sweep(&builtin(Arch::WormholeB0), &s, &[2048], &[64], &|| ()).unwrap()[0].latency
    };
    let (unlinked, linked) = (lat(false), lat(true));
    assert!(linked < unlinked, "linked {linked} vs unlinked {unlinked}");
}

#[test]
fn every_suite_runs_on_both_chips() {
    for arch in [Arch::WormholeB0, Arch::Blackhole] {
        let open = builtin(arch);
        for (name, grid, linked, loopback) in [
            ("one_to_one", None, false, false),
            ("one_from_one", None, false, false),
            ("one_to_all_unicast", Some("2x2"), false, false),
            ("one_to_all_multicast", Some("5x5"), true, false),
            ("one_to_all_multicast", Some("full"), false, true),
            ("one_from_all", Some("4x4"), false, false),
            ("all_to_all", Some("2x2"), false, false),
            ("all_from_all", Some("2x2"), false, false),
            ("dram_interleaved", None, false, false),
            ("loopback", None, false, false),
            ("dram_sharded", None, false, false),
            ("core_bidirectional", None, false, false),
            ("core_bidirectional_same_kernel", None, false, false),
        ] {
            let s = Suite::parse(name, &SuiteArgs { grid, linked, loopback, ..Default::default() }).unwrap();
            let rows = run_sweep(&open, &s, &[256, 8192], &[1, 16], &|| ()).unwrap();
            assert!(!rows.is_empty(), "{name}");
            for r in &rows {
                assert!(r.latency > 0.0 && r.bandwidth > 0.0, "{name} on {arch}: {r:?}");
            }
            // Bigger transfers move more bytes per cycle (the table's Size is per-transaction bytes times the
            // peers the test counts).
            let of16: Vec<_> = rows.iter().filter(|r| r.count == 16).collect();
            let small = of16.iter().min_by_key(|r| r.size).unwrap();
            let big = of16.iter().filter(|r| r.kernel == small.kernel).max_by_key(|r| r.size).unwrap();
            assert_eq!(big.size, small.size * 32, "{name}: sizes scale by the same peers");
            assert!(big.bandwidth > small.bandwidth, "{name} on {arch}");
        }
        // DRAM: single-core bandwidth stays under the channel's.
        let s = Suite::parse("dram_interleaved", &SuiteArgs::default()).unwrap();
        let rows = run_sweep(&open, &s, &[65536], &[16], &|| ()).unwrap();
        assert_eq!(rows.iter().map(|r| r.kernel.as_str()).collect::<Vec<_>>(), ["Receiver", "Sender"]);
    }
}

#[test]
fn core_bidirectional_writes_and_reads_overlap() {
    // (0,0) writes to (1,1) and reads from it on NoC0: the write data leaves through (0,0)'s injection port
    // and the read data enters through its ejection port, so the two directions overlap. From two kernels
    // each direction takes about as long as alone (one_to_one; one_from_one on NoC1 has another route, so
    // the read is checked against the write); from one kernel that alternates them, the pair takes about
    // one direction's time, far less than the two in a row.
    for arch in [Arch::WormholeB0, Arch::Blackhole] {
        let open = builtin(arch);
        let run = |name: &str| {
            let s = Suite::parse(name, &SuiteArgs::default()).unwrap();
            run_sweep(&open, &s, &[8192], &[64], &|| ()).unwrap()
        };
        let alone = run("one_to_one")[0].latency;
        let two = run("core_bidirectional");
        assert_eq!(two.iter().map(|r| r.kernel.as_str()).collect::<Vec<_>>(), ["Sender", "Receiver"], "{arch}");
        let (w, r) = (two[0].latency, two[1].latency);
        assert!(w < alone * 1.05 && r < alone * 1.05, "{arch}: write {w}, read {r}, write alone {alone}");
        let one = run("core_bidirectional_same_kernel");
        assert_eq!(one.len(), 1, "{arch}");
        let both = one[0].latency;
        assert!(both >= alone && both < alone * 1.2, "{arch}: alternating {both}, write alone {alone}");
    }
    // The table titles are recognised for --compare.
    for (title, kind) in [
        ("Core Bidirectional Packet Sizes", suites::dm_bench::SuiteKind::CoreBidirectional),
        ("Core Bidirectional Same Kernel Packet Sizes", suites::dm_bench::SuiteKind::CoreBidirectionalSameKernel),
    ] {
        let id = suites::dm_bench::recognise(title, &format!("{title}.md")).expect(title);
        assert_eq!(id.suite.kind, kind);
        assert_eq!(id.suite.title(), title);
    }
    // They run between fixed cores: a grid is refused.
    let e = Suite::parse("core_bidirectional", &SuiteArgs { grid: Some("2x2"), ..Default::default() }).unwrap_err();
    assert!(e.to_string().contains("does not apply"), "{e}");
}

#[test]
fn dram_sharded_reads_spread_over_banks_up_to_the_cores_port() {
    // One core reading the same bytes from one bank or from every bank: the banks serve in parallel, so more
    // banks move more bytes per cycle, but never more than the reading NIU takes in (a flit per cycle).
    for arch in [Arch::WormholeB0, Arch::Blackhole] {
        let open = builtin(arch);
        let flit = Device::builtin(arch).unwrap().params().noc.flit_bytes as f64;
        let bw = |banks: Option<u32>| {
            let s = Suite::parse("dram_sharded", &SuiteArgs { banks, ..Default::default() }).unwrap();
            let rows = run_sweep(&open, &s, &[65536], &[16], &|| ()).unwrap();
            assert_eq!(rows.len(), 1, "{arch}");
            rows[0].bandwidth
        };
        let (one, all) = (bw(Some(1)), bw(None));
        assert!(all > one * 1.2, "{arch}: every bank {all} B/cycle, one bank {one}");
        assert!(all <= flit * 1.001, "{arch}: {all} B/cycle beyond the NIU's {flit}");
    }
    let id = suites::dm_bench::recognise("DRAM Sharded Read Packet Sizes", "x.md").expect("recognised");
    assert_eq!(id.suite.kind, suites::dm_bench::SuiteKind::DramSharded);
}

fn traces() -> Option<PathBuf> {
    let d = std::env::var_os("TENSIM_CALIBRATION_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("TENSIM_SOC_DIR").map(|s| PathBuf::from(s).join("../calibration")))
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/calibration"))
        .join("noc_traces");
    let key = "suites/noc_model: replay accuracy of the silicon traces";
    if d.is_dir() {
        soc_descriptors::test_skips::note(env!("CARGO_TARGET_TMPDIR"), key, None);
        Some(d)
    } else {
        soc_descriptors::test_skips::note(
            env!("CARGO_TARGET_TMPDIR"),
            key,
            Some("../shared/calibration not found (TENSIM_CALIBRATION_DIR)"),
        );
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "\n*** WARNING: ../shared/calibration/noc_traces not found: replay accuracy checks SKIPPED ***\n"
        );
        None
    }
}

#[test]
fn replaying_the_silicon_traces_meets_the_accuracy_target() {
    let Some(dir) = traces() else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 6);
    let mut errs = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let input = parse_replay_input(&text, &f.display().to_string()).unwrap();
        let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
        let r = replay(&mut dev, &input, Mode::Kernels, "trace").unwrap();
        let e = r.error().unwrap();
        eprintln!(
            "{}: predicted {} measured {} error {:+.1}%",
            f.display(),
            r.predicted,
            r.measured.unwrap(),
            e * 100.0
        );
        errs.push(e.abs());
        // Determinism: the same replay twice is bit-identical.
        let mut dev2 = Device::builtin(Arch::WormholeB0).unwrap();
        let r2 = replay(&mut dev2, &input, Mode::Kernels, "trace").unwrap();
        assert_eq!((r.predicted, &r.report.noc), (r2.predicted, &r2.report.noc));
        // Timestamps mode runs too.
        let mut dev3 = Device::builtin(Arch::WormholeB0).unwrap();
        assert!(replay(&mut dev3, &input, Mode::Timestamps, "trace").unwrap().predicted > 0);
    }
    errs.sort_by(|a, b| a.total_cmp(b));
    let median = (errs[2] + errs[3]) / 2.0;
    assert!(median <= 0.15, "median error {:.1}%", median * 100.0);
}

#[test]
fn heatmap_and_npe_timeline_are_well_formed() {
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let s = Suite::parse("one_to_all_multicast", &SuiteArgs { grid: Some("4x4"), ..Default::default() }).unwrap();
    let rows = run_sweep(&builtin(Arch::WormholeB0), &s, &[4096], &[4], &|| ()).unwrap();
    assert_eq!(rows.len(), 1);
    // Re-run one example to get a report with DRAM and both NoCs in use.
    dev.set_record_transfers(true);
    let out = (programs::find("multicast").unwrap().run)(&mut dev, &Default::default()).unwrap();
    let svg = sim_device::report::heatmap::heatmap_svg(&out.report, dev.chip());
    assert!(svg.starts_with("<?xml") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("NOC_0 link utilisation") && svg.contains("NOC_1 link utilisation"));
    // One arrow per link of both NoCs.
    assert_eq!(svg.matches("<line ").count(), 10 * 12 * 4);
    let t: serde_json::Value = serde_json::from_str(&{
        let noc = &dev.params().noc;
        sim_device::report::npe::npe_timeline(&out.report, dev.chip(), noc.flit_bytes, noc.inject_bytes_per_cycle())
    })
    .unwrap();
    assert_eq!(t["common_info"]["version"], "1.0.0");
    assert_eq!(t["common_info"]["cycles_per_timestep"], 128);
    let tr = t["noc_transfers"].as_array().unwrap();
    assert_eq!(tr.len(), out.report.noc.transfers.len());
    for x in tr {
        for key in ["transfer_id", "noc_event_type", "total_bytes", "src", "dst", "start_cycle", "end_cycle", "route"] {
            assert!(!x[key].is_null(), "{key} missing in {x}");
        }
        for l in x["route"][0]["links"].as_array().unwrap() {
            let name = l[3].as_str().unwrap();
            assert!(["NOC_0_EAST", "NOC_0_SOUTH", "NOC_1_NORTH", "NOC_1_WEST"].contains(&name));
        }
    }
    let steps = t["timestep_data"].as_array().unwrap();
    assert_eq!(steps.len() as u64, out.report.cycles.0.div_ceil(128));
    assert!(steps.iter().any(|s| !s["link_demand"].as_array().unwrap().is_empty()));
}
