//! The timing models are swappable: with `noc.model=zero_load` and `dram.model=zero_load` every built-in
//! program still runs and passes, says its cycles are not calibrated, and a contended program takes fewer
//! cycles than under the calibrated calendar models (zero-load is a floor).

use std::process::Command;

fn tensim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tensim")).args(args).output().expect("run tensim");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn cycles(out: &str) -> u64 {
    let l = out.lines().find(|l| l.starts_with("simulated ")).expect("a simulated line");
    l.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Smaller sizes for the programs whose defaults take long in a test build.
fn small(name: &str) -> &'static [&'static str] {
    match name {
        "matmul_single_core" | "matmul_multi_core" | "matmul_multicore_reuse" => &["--size", "128"],
        "matmul_multicore_reuse_mcast" | "matmul_2d_mcast" => &["--size", "256"],
        "softmax" => &["--m", "256", "--n", "256"],
        "all_gather" => &["--shape", "1,1,64,64"],
        "reduce_scatter" | "all_reduce" => &["--shape", "1,1,64,256"],
        _ => &[],
    }
}

#[test]
fn every_program_runs_on_the_zero_load_models() {
    let (_, list, _) = tensim(&["run", "--list"]);
    let names: Vec<&str> = list
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(names.len() >= 25, "{list}");
    for name in names {
        let mut args = vec!["run", name];
        args.extend_from_slice(small(name));
        args.extend_from_slice(&["--set", "noc.model=zero_load", "--set", "dram.model=zero_load"]);
        let (code, out, err) = tensim(&args);
        assert_eq!(code, 0, "tensim {}: {err}", args.join(" "));
        assert!(out.starts_with("PASS") || out.contains("\nPASS") || out.contains("PASS "), "{name}: {out}");
        assert!(
            err.contains("not calibrated: noc.model = zero_load")
                && err.contains("not calibrated: dram.model = zero_load"),
            "{name}: {err}"
        );
    }
}

#[test]
fn zero_load_is_a_floor_for_a_contended_program() {
    let base = ["run", "matmul_multicore_reuse_mcast", "--size", "256"];
    let (_, cal, _) = tensim(&base);
    let zl: Vec<&str> = base.iter().copied().chain(["--set", "noc.model=zero_load"]).collect();
    let (code, zero, err) = tensim(&zl);
    assert_eq!(code, 0, "{err}");
    assert!(cycles(&zero) < cycles(&cal), "zero-load {} against calendar {}", cycles(&zero), cycles(&cal));
    // An unknown model is an error naming the choices.
    let (code, _, err) = tensim(&["run", "loopback", "--set", "noc.model=booksim"]);
    assert_eq!(code, 1);
    assert!(err.contains("noc.model = booksim: must be one of calendar, zero_load"), "{err}");
}

/// Every built-in program passes with `--set noc.model=MODEL`, the run names the model, and the programs
/// whose packets never meet take the calendar model's cycles exactly.
fn every_program_runs_on(model: &str) {
    let (_, list, _) = tensim(&["run", "--list"]);
    let names: Vec<&str> = list
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let set = format!("noc.model={model}");
    let mut ran = 0;
    for name in names {
        let mut args = vec!["run", name];
        args.extend_from_slice(small(name));
        let (_, cal, _) = tensim(&args);
        args.extend_from_slice(&["--set", &set]);
        let (code, out, err) = tensim(&args);
        assert_eq!(code, 0, "tensim {}: {err}", args.join(" "));
        assert!(out.contains("PASS"), "{name}: {out}");
        assert!(err.contains(&format!("noc.model = {model}")), "{name}: {err}");
        if matches!(
            name,
            "loopback" | "eltwise_binary" | "eltwise_sfpu" | "matmul_single_core" | "add_2_integers_in_riscv"
        ) {
            assert_eq!(cycles(&out), cycles(&cal), "{name}");
        }
        ran += 1;
    }
    assert!(ran >= 25, "{ran} programs ran");
}

#[test]
fn every_program_runs_on_the_router_model() {
    // The collectives too: the Ethernet cores and fabric routers of every chip send and receive through its
    // router model.
    every_program_runs_on("router");
}

#[test]
fn every_program_runs_on_the_packet_level_router_model() {
    every_program_runs_on("packets");
    // Deterministic on a contended program, and timed apart from the calendar model there.
    let args = ["run", "matmul_multicore_reuse_mcast", "--size", "256", "--set", "noc.model=packets"];
    let timed = |out: &str| -> String {
        out.lines().filter(|l| !l.starts_with("simulated ") && !l.starts_with("host memory")).collect()
    };
    let (_, a, _) = tensim(&args);
    let (_, b, _) = tensim(&args);
    assert_eq!(timed(&a), timed(&b));
}

#[test]
fn a_multicast_that_lands_before_its_tail_leaves_carries_its_own_data() {
    // On the packet-level routers a multicast's near branches can land while its far branches still hold
    // its tail at the source. Such a landing takes the data from the source then; it once wrote whatever
    // an earlier packet had left in the same transfer slot (PCC 0.54 on Wormhole at this size).
    for model in ["packets", "router"] {
        let set = format!("noc.model={model}");
        let (code, out, err) = tensim(&["run", "matmul_2d_mcast", "--size", "512", "--set", &set]);
        assert_eq!(code, 0, "{model}: {err}");
        assert!(out.starts_with("PASS"), "{model}: {out}");
    }
}

#[test]
fn both_router_level_models_report_per_port_blocking_in_the_stats() {
    // `reshard` queues many cores' reads on a few inputs: on either router-level model some port blocks and
    // holds flits; on the calendar model the figures are 0.
    let dir = std::env::temp_dir().join(format!("tensim-ports-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for model in ["router", "packets", "calendar"] {
        let json = dir.join(format!("{model}.json"));
        let set = format!("noc.model={model}");
        let (code, _, err) = tensim(&["run", "reshard", "--set", &set, "--stats", json.to_str().unwrap()]);
        assert_eq!(code, 0, "{model}: {err}");
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let run = &v["runs"][0];
        let all = || run["links"].as_array().unwrap().iter().chain(run["ports"].as_array().unwrap());
        let hol: u64 = all().map(|p| p["hol_cycles"].as_u64().unwrap()).sum();
        let held: f64 = all().map(|p| p["buffer_flits_avg"].as_f64().unwrap()).sum();
        if model == "calendar" {
            assert_eq!((hol, held), (0, 0.0));
        } else {
            assert!(hol > 1000 && held > 10.0, "{model}: hol {hol}, flits held {held}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
