//! `tensim system` and `tensim device` end to end: built-in systems and real cluster files print their
//! chips, mesh and links; `tensim device` answers seed 003's examples in JSON.

use std::process::Command;

fn tensim(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tensim")).args(args).output().expect("run tensim");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = tensim(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}\n{out}"))
}

#[test]
fn system_lists_and_describes() {
    let (code, out, _) = tensim(&["system", "--list"]);
    assert_eq!(code, 0);
    for name in ["n150", "n300", "t3000", "galaxy", "p150", "p300", "p150x4", "p150x8"] {
        assert!(out.contains(name), "{out}");
    }
    let j = json(&["system", "t3000", "--json"]);
    assert_eq!(j["mesh_shape"], serde_json::json!([2, 4]));
    assert_eq!(j["links"].as_array().unwrap().len(), 20);
    assert_eq!(j["mesh"][0], serde_json::json!([4, 0, 2, 6]));
    // chip 0 channel 8 is the Ethernet core at NoC0 (9, 6).
    let l = &j["links"][0];
    assert_eq!((l[0]["chip"].as_u64(), l[0]["channel"].as_u64()), (Some(0), Some(8)));
    assert_eq!(l[0]["core_noc0"], serde_json::json!([9, 6]));
    let (code, out, _) = tensim(&["system", "galaxy"]);
    assert_eq!(code, 0);
    assert!(out.contains("mesh: 8x4") && out.contains("=4="), "{out}");
}

#[test]
fn system_reads_a_real_cluster_file_and_draws_it() {
    // $TENSIM_SOC_DIR (as every real-file test reads it), else ../shared/soc next to the repository.
    let soc = std::env::var_os("TENSIM_SOC_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/soc"));
    let file = soc.join("cluster/cluster_descriptor_examples/wormhole_N300.yaml");
    let key = "tensim/cli_system: a real cluster file";
    if !file.exists() {
        soc_descriptors::test_skips::note(
            env!("CARGO_TARGET_TMPDIR"),
            key,
            Some("../shared/soc/cluster not found (TENSIM_SOC_DIR)"),
        );
        eprintln!("*** WARNING: ../shared/soc/cluster not found: the real cluster file was not read ***");
        return;
    }
    soc_descriptors::test_skips::note(env!("CARGO_TARGET_TMPDIR"), key, None);
    let svg = std::env::temp_dir().join(format!("tensim-system-{}.svg", std::process::id()));
    let (code, out, err) = tensim(&["system", "--cluster", file.to_str().unwrap(), "--svg", svg.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("mesh: 1x2") && out.contains("[  0]=2=[  1]"), "{out}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("tensim system picture") && text.contains("chip 1"));
    // Written again over its own earlier output: allowed.
    let (code, _, err) = tensim(&["system", "n300", "--svg", svg.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_file(svg);
}

#[test]
fn device_answers_the_seed_examples() {
    let cases: [(&[&str], &str, &[u64]); 5] = [
        (&["--mesh", "1"], "(d0, d1) -> (0, d0, d1)", &[8, 8]),
        (&["--mesh", "2x1x1"], "(d0, d1, d2) -> (d0, d1, d2)", &[2, 8, 8]),
        (&["--mesh", "1x2"], "(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)", &[8, 16]),
        (&["--mesh", "2x1x2"], "(d0, d1, d2) -> (d0 * 2 + d2 floordiv 8, d1, d2 mod 8)", &[2, 8, 16]),
        (
            &["--mesh", "2x2", "--chips", "4,5,6,7"],
            "(d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)",
            &[16, 16],
        ),
    ];
    for (extra, map, grid) in cases {
        let mut args = vec!["device", "--physical-grid", "8x8", "--json"];
        args.extend_from_slice(extra);
        let j = json(&args);
        assert_eq!(j["affine_map"], map, "{extra:?}");
        assert_eq!(j["worker_grid"], serde_json::json!(grid));
        let points: u64 = grid.iter().product();
        assert_eq!(j["table"].as_array().unwrap().len() as u64, points);
        assert!(j["inverse_map"].is_string());
    }
    // The pipeline view's logical (9, 3) is chip 6, core (1, 3).
    let j = json(&["device", "--physical-grid", "8x8", "--mesh", "2x2", "--chips", "4,5,6,7", "--json"]);
    let row = j["table"].as_array().unwrap().iter().find(|r| r["point"] == serde_json::json!([9, 3])).unwrap().clone();
    assert_eq!(row["at"], serde_json::json!([6, 1, 3]));
    // Reinterpreted grids take --grid and --map.
    for (grid, map, point, at) in [
        ("8x8", "(d0, d1) -> (0, d1, d0)", [2, 5], [0, 5, 2]),
        ("1x64", "(d0, d1) -> (0, d0 * 8 + d1 floordiv 8, d1 mod 8)", [0, 19], [0, 2, 3]),
        ("64x1", "(d0, d1) -> (0, d1 * 8 + d0 floordiv 8, d0 mod 8)", [19, 0], [0, 2, 3]),
        ("8x8", "(d0, d1) -> (0, d0, (d0 + d1) mod 8)", [3, 6], [0, 3, 1]),
    ] {
        let j = json(&["device", "--physical-grid", "8x8", "--grid", grid, "--map", map, "--json"]);
        let row =
            j["table"].as_array().unwrap().iter().find(|r| r["point"] == serde_json::json!(point)).unwrap().clone();
        assert_eq!(row["at"], serde_json::json!(at), "{map}");
    }
    // On a real system the chip grid comes from the chips and the chips follow the system's mesh.
    let j = json(&["device", "--system", "t3000", "--mesh", "2x4", "--json"]);
    assert_eq!(j["chip_ids"], serde_json::json!([4, 0, 2, 6, 5, 1, 3, 7]));
    assert_eq!(j["worker_grid"], serde_json::json!([16, 32]));
}

/// A collective writes one trace with a Perfetto process per core of every chip, stats with every chip's
/// run and the Ethernet links' utilisation, and a picture of the mesh's links.
#[test]
fn collectives_write_per_chip_trace_stats_and_link_heatmap() {
    let dir = std::env::temp_dir().join(format!("tensim-ccl-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (t, s, h) = (dir.join("t.json"), dir.join("s.json"), dir.join("h.svg"));
    let args = [
        "run",
        "all_reduce",
        "--system",
        "t3000",
        "--devices",
        "4",
        "--shape",
        "1,1,32,256",
        "--trace",
        t.to_str().unwrap(),
        "--stats",
        s.to_str().unwrap(),
        "--noc-heatmap",
        h.to_str().unwrap(),
    ];
    let (code, out, err) = tensim(&args);
    assert_eq!(code, 0, "{err}\n{out}");
    assert!(out.contains("PASS all_reduce") && out.contains("ethernet links that sent"), "{out}");
    let trace: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&t).unwrap()).unwrap();
    let names: Vec<String> = trace["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["name"] == "process_name")
        .map(|e| e["args"]["name"].as_str().unwrap().to_string())
        .collect();
    // The 1x4 line on a T3000 is chips 4, 0, 2, 6; each shows up with its cores.
    for chip in [4, 0, 2, 6] {
        assert!(names.iter().any(|n| n.starts_with(&format!("chip {chip} "))), "chip {chip}: {names:?}");
    }
    let stats: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&s).unwrap()).unwrap();
    assert_eq!(stats["phases"].as_array().unwrap().len(), 2);
    assert_eq!(stats["runs"].as_array().unwrap().len(), 8, "4 chips × 2 phases");
    let links = stats["eth_links"].as_array().unwrap();
    assert_eq!(links.len(), 6, "3 links of a 4-chip line, both directions: {links:?}");
    assert!(links.iter().all(|l| l["util"].as_f64().unwrap() > 0.0 && l["util"].as_f64().unwrap() < 1.0));
    let svg = std::fs::read_to_string(&h).unwrap();
    assert!(svg.contains("tensim NoC heatmap") && svg.contains("chip 0 channel"), "{svg}");
    // Running again over tensim's own outputs is allowed; a foreign file at the trace path is not touched.
    std::fs::write(&t, "my notes").unwrap();
    let (code, _, err) = tensim(&args);
    assert_eq!(code, 1, "{err}");
    assert_eq!(std::fs::read_to_string(&t).unwrap(), "my notes");
    std::fs::remove_dir_all(&dir).ok();
}
