//! End-to-end tests of `tensim run`: listing, PASS runs on both architectures, traces and memory reports
//! written (and never over a file that is not an earlier tensim output), user errors exit 1.

use std::process::Command;

fn tensim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tensim")).args(args).output().expect("run tensim");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("tensim-cli-run-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn list_names_every_program() {
    let (code, out, _) = tensim(&["run", "--list"]);
    assert_eq!(code, 0);
    for p in [
        "loopback",
        "add_2_integers_in_riscv",
        "noc_tile_transfer",
        "multicast",
        "hello_world_datamovement",
        "add_2_integers_in_compute",
        "eltwise_binary",
        "eltwise_sfpu",
        "sfpu_eltwise_chain",
        "vecadd_multi_core",
        "matmul_single_core",
        "matmul_multi_core",
        "matmul_multicore_reuse",
        "matmul_multicore_reuse_mcast",
        "softmax",
    ] {
        assert!(out.contains(p), "{out}");
    }
}

#[test]
fn runs_pass_and_report_cycles_per_core_and_risc() {
    for arch in ["wormhole_b0", "blackhole"] {
        let (code, out, err) = tensim(&["run", "noc_tile_transfer", "--arch", arch]);
        assert_eq!(code, 0, "{err}");
        assert!(out.starts_with(&format!("PASS noc_tile_transfer on {arch}")), "{out}");
        assert!(out.contains("cycles: "), "{out}");
        assert!(out.contains("(0,1)      NCRISC"), "{out}");
        assert!(out.contains("busy") && out.contains("blocked"), "{out}");
    }
    let (code, out, _) = tensim(&["run", "hello_world_datamovement"]);
    assert_eq!(code, 0);
    assert!(out.contains("0:(x=18,y=18):BR: My logical coordinates are 0,0"), "{out}");
}

#[test]
fn trace_and_memory_reports_are_written() {
    let d = tmp("outputs");
    let trace = d.join("run.json");
    let reports = d.join("mem");
    let (code, out, err) =
        tensim(&["run", "loopback", "--trace", trace.to_str().unwrap(), "--memory-report", reports.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("wrote {}", trace.display())), "{out}");
    let t = std::fs::read_to_string(&trace).unwrap();
    let v: serde_json::Value = serde_json::from_str(&t).unwrap();
    assert!(v["traceEvents"].as_array().unwrap().len() > 100);
    for f in ["l1_usage_summary.csv", "memory_usage_summary.csv", "detailed_memory_usage.csv"] {
        let text = std::fs::read_to_string(reports.join(f)).unwrap();
        assert!(text.starts_with("# tensim memory report\n"), "{f}: {text}");
    }
    // Running again replaces our own outputs.
    let (code, _, err) =
        tensim(&["run", "loopback", "--trace", trace.to_str().unwrap(), "--memory-report", reports.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // A tt-metal memory report (no tensim marker) in the folder is never overwritten, and nothing is written.
    std::fs::write(reports.join("l1_usage_summary.csv"), "Program ID,Circular Buffers End\n0,1\n").unwrap();
    std::fs::remove_file(&trace).unwrap();
    let (code, _, err) =
        tensim(&["run", "loopback", "--trace", trace.to_str().unwrap(), "--memory-report", reports.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("l1_usage_summary.csv: the file exists and is not a tensim memory report"), "{err}");
    assert!(!trace.exists(), "outputs are written all or none");
    // A file that is not a tensim trace is never overwritten.
    let precious = d.join("precious.json");
    std::fs::write(&precious, "{\"mine\": true}").unwrap();
    let (code, _, err) = tensim(&["run", "loopback", "--trace", precious.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("refusing to overwrite"), "{err}");
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "{\"mine\": true}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn user_errors_exit_1() {
    let cases: &[(&[&str], &str)] = &[
        (&["run", "nosuch"], "unknown program `nosuch`"),
        (&["run", "loopback", "--set", "noc.hop_cylces=3"], "noc.hop_cylces = 3: unknown parameter"),
        (&["run", "loopback", "--set", "noc.hop_cycles=fast"], "noc.hop_cycles = fast: not a number"),
        (
            &["run", "loopback", "--arch", "wormhole_b0", "--harvest", "7"],
            "no wormhole_b0 product has 3 harvested rows",
        ),
        (&["run"], "required"),
    ];
    for (args, msg) in cases {
        let (code, _, err) = tensim(args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn parameter_overrides_change_timing() {
    let (_, a, _) = tensim(&["run", "loopback"]);
    let (_, b, _) = tensim(&["run", "loopback", "--set", "dram.read_latency_cycles=500"]);
    let cycles = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("cycles: "))
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .parse::<u64>()
            .unwrap()
    };
    assert_eq!(cycles(&b) - cycles(&a), 50 * 400, "each of 50 DRAM reads is 400 cycles slower");
}

#[test]
fn matmuls_take_their_shape_and_fidelity_and_report_tflops() {
    let args = ["run", "matmul_multicore_reuse_mcast", "--m", "256", "--n", "512", "--k", "128", "--fidelity", "hifi2"];
    let (code, out, err) = tensim(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("C = A·B (256x128x512)"), "{out}");
    assert!(out.contains("HiFi2") && out.contains("TFLOP/s at 1000 MHz; ideal"), "{out}");
    for (flag, value, want) in [
        ("--m", "100", "--m 100: matmul dimensions are whole tiles; use a positive multiple of 32"),
        ("--k", "0", "--k 0: matmul dimensions are whole tiles"),
        ("--fidelity", "medium", "`medium` is not a math fidelity; use LoFi, HiFi2, HiFi3 or HiFi4"),
    ] {
        let (code, _, err) = tensim(&["run", "matmul_single_core", flag, value]);
        assert_eq!(code, 1, "{flag} {value}");
        assert!(err.contains(want), "{err}");
    }
}

/// The scheduler's lookahead is a speed option only: a run's stats JSON is byte-identical without it.
/// A run that stalls packets beyond the routers' buffers is checked on the router-level model by default:
/// the warning gives its cycles (the same as a run with `--set noc.model=router`), the stats carry them,
/// and `--router-check off` leaves the run as it was (the same stats but for the check).
#[test]
fn a_stalling_run_is_checked_on_the_router_model_unless_asked_not_to() {
    let d = tmp("router-check");
    let args = ["run", "matmul_multicore_reuse_mcast", "--size", "256"];
    let (code, out, err) = tensim(&[&args[..], &["--set", "noc.model=router"]].concat());
    assert_eq!(code, 0, "{out}{err}");
    let line = out.lines().chain(err.lines()).find(|l| l.starts_with("cycles:")).expect("a cycles line").to_string();
    let router: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    let mut stats = Vec::new();
    for check in ["auto", "off"] {
        let path = d.join(format!("{check}.json"));
        let (code, out, err) =
            tensim(&[&args[..], &["--router-check", check, "--stats", path.to_str().unwrap()]].concat());
        assert_eq!(code, 0, "{out}{err}");
        let said = err.contains(&format!("times the same run at {router} cycles"));
        assert_eq!(said, check == "auto", "{check}: {err}");
        stats.push(std::fs::read_to_string(&path).unwrap());
    }
    assert!(stats[0].contains(&format!("\"router_check\":{{\"cycles\":{router},")), "{}", stats[0]);
    assert!(stats[1].contains("\"router_check\":null"), "{}", stats[1]);
    // Nothing else of the run changes: the kernels, NoC figures and cycles are the same (the keys are in
    // order: the check's sits between the ports and the zones, the warnings come last).
    let cut = |s: &str| {
        let (a, b) = (s.find("\"router_check\"").unwrap(), s.find("\"timestamped_data\"").unwrap());
        format!("{}{}", &s[..a], &s[b..s.find("\"warnings\"").unwrap()])
    };
    assert_eq!(cut(&stats[0]), cut(&stats[1]));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn lookahead_off_gives_the_same_stats() {
    let d = tmp("lookahead");
    let mut docs = Vec::new();
    for on in ["1", "0"] {
        let path = d.join(format!("stats-{on}.json"));
        let set = format!("sim.lookahead={on}");
        let (code, out, err) = tensim(&["run", "matmul_multi_core", "--set", &set, "--stats", path.to_str().unwrap()]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("PASS"), "{out}");
        docs.push(std::fs::read(&path).unwrap());
    }
    assert!(docs[0] == docs[1], "stats differ with the lookahead off");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn all_gather_over_several_links_says_where_silicon_has_one_fewer() {
    // T3000's remote chips are dispatched over a link from their PCIe partner, which silicon keeps out of the
    // fabric: with --links 2 on such a hop the run says so; on a Galaxy (every chip on PCIe) it does not.
    let (code, out, err) = tensim(&["run", "all_gather", "--system", "t3000", "--devices", "2", "--links", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("PASS"), "{out}");
    assert!(out.contains("not modelled: dispatch over Ethernet"), "{out}");
    let (_, out, _) = tensim(&["run", "all_gather", "--system", "t3000", "--devices", "2"]);
    assert!(!out.contains("dispatch over Ethernet"), "one link: nothing to say\n{out}");
    let (code, out, err) = tensim(&["run", "all_gather", "--system", "galaxy", "--devices", "4", "--links", "4"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("PASS") && !out.contains("dispatch over Ethernet"), "{out}");
}
