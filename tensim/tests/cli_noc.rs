//! End-to-end tests of `tensim dm-bench` and `tensim replay`, and of the NoC outputs of `tensim run`.

use std::path::PathBuf;
use std::process::Command;

fn tensim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tensim")).args(args).output().expect("run tensim");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh folder of this test process under the system's temporary directory (`tag` tells the tests apart).
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tensim-cli-noc-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn shared() -> Option<PathBuf> {
    let d = std::env::var_os("TENSIM_CALIBRATION_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("TENSIM_SOC_DIR").map(|s| PathBuf::from(s).join("../calibration")))
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/calibration"))
        .join("..");
    let key = "tensim/cli_noc: CLI calibration and replay checks";
    if d.join("calibration").is_dir() {
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
            "\n*** WARNING: ../shared/calibration not found: CLI calibration/replay checks SKIPPED ***\n"
        );
        None
    }
}

#[test]
fn dm_bench_lists_suites_and_prints_tt_metal_tables() {
    let (code, out, _) = tensim(&["dm-bench", "--list"]);
    assert_eq!(code, 0);
    for s in [
        "one_to_one",
        "one_from_one",
        "one_to_all_unicast",
        "one_to_all_multicast",
        "one_from_all",
        "all_to_all",
        "all_from_all",
        "dram_interleaved",
        "loopback",
        "dram_sharded",
        "core_bidirectional",
        "core_bidirectional_same_kernel",
    ] {
        assert!(out.contains(s), "{out}");
    }
    let (code, out, err) = tensim(&[
        "dm-bench",
        "one_to_all_multicast",
        "--grid",
        "full",
        "--linked",
        "--loopback",
        "--sizes",
        "64,1024",
        "--counts",
        "1,4",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("| Kernel | Run Host ID | Transaction Size (bytes) | Number of Transactions | Latency (cycles) | Bandwidth (bytes/cycle) |"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("| Sender |")).count(), 4, "{out}");
    let (code, out, _) = tensim(&["dm-bench", "dram_interleaved", "--sizes", "2048", "--counts", "4"]);
    assert_eq!(code, 0);
    assert!(out.contains("| Receiver | 0 | 2048 | 4 |") && out.contains("| Sender | 0 | 2048 | 4 |"), "{out}");
}

#[test]
fn dm_bench_compares_with_silicon() {
    let Some(d) = shared() else { return };
    for (arch, file) in [("wormhole_b0", "wormhole_b0_one_to_one.md"), ("blackhole", "blackhole_one_to_one.md")] {
        let f = d.join("calibration").join(file);
        let (code, out, err) = tensim(&["dm-bench", "one_to_one", "--arch", arch, "--compare", f.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        let last = out.lines().last().unwrap();
        assert!(last.starts_with("rows ") && last.contains("median error") && last.contains("worst error"), "{last}");
    }
}

#[test]
fn dm_bench_compares_only_the_rows_measured_within_a_bound() {
    // A one_to_one table of three rows: a bound of 1,000 cycles runs and compares the two shorter ones.
    let tmp = scratch("bound");
    let t = tmp.join("One to One Packet Sizes.md");
    std::fs::write(
        &t,
        "# One to One Packet Sizes\n\n| Kernel | Run Host ID | Transaction Size (bytes) | Number of Transactions | \
         Latency (cycles) | Bandwidth (bytes/cycle) |\n|---|---|---|---|---|---|\n| Sender | 0 | 64 | 1 | 300 | 0.2 |\n\
         | Sender | 1 | 8192 | 1 | 600 | 13.6 |\n| Sender | 2 | 8192 | 16 | 5000 | 26.2 |\n",
    )
    .unwrap();
    let table = t.to_str().unwrap();
    let (code, out, err) = tensim(&["dm-bench", "--compare", table, "--max-measured-cycles", "1000"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("rows 2, median error"), "{out}");
    assert!(out.contains("(only the rows measured at 1000 cycles or fewer: 2 of 3)"), "{out}");
    assert!(!out.contains("| Sender | 8192 | 16 |"), "the long row is not run: {out}");
    assert!(err.contains("2 runs") || out.contains("2 runs"), "{out}{err}");
    let (code, out, err) = tensim(&["dm-bench", "--compare", table]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("rows 3, median error") && !out.contains("only the rows"), "{out}");
    for (args, msg) in [
        (&["dm-bench", "one_to_one", "--max-measured-cycles", "1000"][..], "give it with --compare"),
        (&["dm-bench", "--compare", table, "--max-measured-cycles", "0"][..], "0 keeps no row"),
        (
            &["dm-bench", "--compare", table, "--max-measured-cycles", "299"][..],
            "no row was measured at 299 cycles or fewer (the shortest took 300)",
        ),
        (
            &["dm-bench", "--compare", tmp.to_str().unwrap(), "--max-measured-cycles", "10"][..],
            "no table has a row measured",
        ),
        (&["dm-bench", "--compare", table, "--max-measured-cycles", "-5"][..], "is negative"),
    ] {
        let (code, _, err) = tensim(args);
        assert_eq!(code, 1, "{args:?}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&tmp).ok();
}

#[test]
fn dm_bench_user_errors() {
    for (args, msg) in [
        (&["dm-bench", "nope"][..], "unknown suite `nope`"),
        (&["dm-bench", "one_to_one", "--linked"][..], "applies to one_to_all_multicast only"),
        (&["dm-bench", "one_to_all_unicast", "--grid", "4by4"][..], "expected RxC"),
        (&["dm-bench", "one_to_one", "--compare", "/nonexistent.md"][..], "/nonexistent.md: no such measured table"),
    ] {
        let (code, _, err) = tensim(args);
        assert_eq!(code, 1, "{args:?}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

#[test]
fn replay_single_and_batch() {
    let Some(d) = shared() else { return };
    let dir = d.join("calibration/noc_traces");
    let one = dir.join("DRAM_TO_2x2_HEIGHT.json");
    let (code, out, err) = tensim(&["replay", one.to_str().unwrap(), "--arch", "wormhole_b0"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("predicted: ") && out.contains("measured:  8832 cycles") && out.contains("error: "), "{out}");
    assert!(out.contains("DRAM bandwidth per channel"), "{out}");
    let (code, out, err) = tensim(&["replay", dir.to_str().unwrap(), "--mode", "timestamps"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().filter(|l| l.starts_with("| ") && l.contains(".json")).count(), 6, "{out}");
    assert!(out.lines().last().unwrap().starts_with("traces 6, median error "), "{out}");
    let (code, _, err) = tensim(&["replay", one.to_str().unwrap(), "--mode", "sideways"]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown replay mode"), "{err}");
}

#[test]
fn replay_reads_tt_npe_workloads_and_rejects_garbage() {
    let tmp = scratch("replay");
    let w = tmp.join("wl.json");
    std::fs::write(
        &w,
        r#"{"golden_result":{"cycles":450},"phases":[{"transfers":[
            {"packet_size":256,"num_packets":3,"src_x":0,"src_y":1,"injection_rate":23.1,"phase_cycle_offset":112,"noc_type":"NOC_1","dst_x":3,"dst_y":4},
            {"packet_size":8192,"num_packets":1,"src_x":2,"src_y":2,"injection_rate":28.2,"phase_cycle_offset":145,"noc_type":"NOC_1",
             "mcast_start_x":3,"mcast_start_y":3,"mcast_end_x":4,"mcast_end_y":4}]}]}"#,
    )
    .unwrap();
    let (code, out, err) = tensim(&["replay", w.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("measured:  450 cycles"), "{out}");
    let bad = tmp.join("bad.json");
    std::fs::write(&bad, "[{\"proc\": 1}]").unwrap();
    let (code, _, err) = tensim(&["replay", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.json:1:") && err.contains("not a tt-metal NoC trace"), "{err}");
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn run_writes_heatmap_and_timeline() {
    let tmp = scratch("run");
    let (svg, json) = (tmp.join("h.svg"), tmp.join("t.json"));
    let (code, out, err) =
        tensim(&["run", "multicast", "--noc-heatmap", svg.to_str().unwrap(), "--npe-timeline", json.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("hottest links:"), "{out}");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["common_info"]["version"], "1.0.0");
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn dm_bench_marks_the_runs_that_stall_behind_other_destinations() {
    // All-to-all on the full Wormhole grid: 1 KiB x 16 per pair finishes on every core before the next
    // starts (no back-pressure; silicon agrees), 2 KiB x 16 overlaps them and stalls packets behind other
    // destinations' backlogs (silicon collapses there). Only the second is marked, in the text and the JSON.
    let dir = scratch("bp");
    let stats = dir.join("a2a.json");
    let (code, out, err) = tensim(&[
        "dm-bench",
        "all_to_all",
        "--arch",
        "wormhole_b0",
        "--grid",
        "full",
        "--sizes",
        "1024,2048",
        "--counts",
        "16",
        "--stats",
        stats.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = format!("{out}{err}");
    assert!(
        text.contains("not modelled: wormhole back-pressure in 1 of 2 rows (Transaction Size x Number of Transactions: 131072 x 16)"),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    let rows = json["rows"].as_array().unwrap();
    let marks: Vec<(u64, bool)> =
        rows.iter().map(|r| (r["size"].as_u64().unwrap(), r["backpressure"].as_bool().unwrap())).collect();
    assert_eq!(marks, vec![(65536, false), (131072, true)]);
    // Each row also says how many packets were stalled (the warning threshold is 0.35 per core).
    let stalled: Vec<f64> = rows.iter().map(|r| r["stalled_per_tile"].as_f64().unwrap()).collect();
    assert!(stalled[0] < 0.1 && stalled[1] > 1.0, "{stalled:?}");
    // And how long the whole run was: at least its median zone, and the summary line adds them up.
    let runs: Vec<(f64, u64)> =
        rows.iter().map(|r| (r["latency"].as_f64().unwrap(), r["run_cycles"].as_u64().unwrap())).collect();
    assert!(runs.iter().all(|&(lat, run)| run as f64 >= lat && run > 0), "{runs:?}");
    let total = runs[0].1 + runs[1].1;
    assert!(err.contains("2 runs (") && err.contains(&format!(", {total} simulated cycles) in ")), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gemm_bench_names_the_rows_a_note_comes_from() {
    // On the calendar model the 4096³ DRAM-in0 row stalls packets behind other destinations' backlogs; the
    // 512³ row does not.
    let (code, out, err) = tensim(&["gemm-bench", "--ids", "M1,M13", "--set", "noc.model=calendar"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("note (M13): not modelled: wormhole back-pressure"), "{out}");
    assert!(!out.contains("note (M1)") && !out.contains("note (M1,"), "{out}");
    assert!(!out.contains("gemm-bench's default"), "{out}");
    // gemm-bench's own default is the packet-level routers, and it says so, in its stats too.
    let stats = std::env::temp_dir().join(format!("tensim-gemm-noc-model-{}.json", std::process::id()));
    let (code, out, err) = tensim(&["gemm-bench", "--ids", "M1", "--stats", &stats.to_string_lossy()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("noc.model = packets (gemm-bench's default"), "{out}");
    assert!(out.contains("note (M1): noc.model = packets"), "{out}");
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert_eq!(doc["noc_model"], "packets", "{doc}");
    std::fs::remove_file(&stats).unwrap();
}

/// The output of a 2x2 many-to-many `suite` point on NoC `model`, both streams.
fn many_to_many(suite: &str, model: &str) -> String {
    let set = format!("noc.model={model}");
    let args = ["dm-bench", suite, "--grid", "2x2", "--sizes", "64", "--counts", "1", "--set", &set];
    let (code, out, err) = tensim(&args);
    assert_eq!(code, 0, "{err}");
    format!("{out}{err}")
}

#[test]
fn all_to_all_says_what_the_router_level_models_approximate() {
    // The calendar model marks the rows it stalls (back-pressure); the router-level models time them, but
    // not as silicon has it, and say so.
    for (model, approximate) in [("calendar", false), ("packets", true), ("router", true)] {
        let both = many_to_many("all_to_all", model);
        let says = both.contains("approximate: NoC congestion collapse of many-to-many writes");
        assert_eq!(says, approximate, "{model}: {both}");
    }
}

#[test]
fn all_from_all_says_what_each_noc_model_leaves_out() {
    // The calendar's links queue without limit; the router-level models queue in buffers, but the read
    // responses' end points under load are theirs to approximate.
    for (model, says, not) in [
        ("calendar", "not modelled: NoC congestion collapse", "approximate: NoC congestion collapse"),
        ("packets", "approximate: NoC congestion collapse", "not modelled: NoC congestion collapse"),
        ("router", "approximate: NoC congestion collapse", "not modelled: NoC congestion collapse"),
    ] {
        let both = many_to_many("all_from_all", model);
        assert!(both.contains(says) && !both.contains(not), "{model}: {both}");
    }
}
