//! End-to-end tests of `tensim soc`: every real descriptor file, the built-in chips, JSON output, and the
//! user-error paths (one clear message, exit code 1).

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

fn soc_dir() -> Option<PathBuf> {
    let d = std::env::var_os("TENSIM_SOC_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/soc"));
    let key = "tensim/cli_soc: CLI runs on the real SoC files";
    if d.is_dir() {
        soc_descriptors::test_skips::note(env!("CARGO_TARGET_TMPDIR"), key, None);
        Some(d)
    } else {
        soc_descriptors::test_skips::note(
            env!("CARGO_TARGET_TMPDIR"),
            key,
            Some("../shared/soc not found (TENSIM_SOC_DIR)"),
        );
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "\n*** WARNING: TENSIM_SOC_DIR not set / ../shared/soc missing: real-file CLI tests SKIPPED ***\n"
        );
        None
    }
}

#[test]
fn builtin_wormhole_summary() {
    let (code, out, err) = tensim(&["soc", "--arch", "wormhole_b0"]);
    assert_eq!(code, 0, "{err}");
    // A Wormhole is an n150 unless told otherwise: 72 workers, the 8x8 compute grid of nebula_x1.
    assert!(out.contains("72 in an 8x9 worker grid"), "{out}");
    assert!(out.contains("compute grid     8x8"), "{out}");
    assert!(out.contains("product nebula_x1"), "{out}");
    let (_, full, _) = tensim(&["soc", "--arch", "wormhole_b0", "--harvest", "0"]);
    assert!(full.contains("80 in an 8x10 worker grid") && full.contains("product galaxy"), "{full}");
    assert!(out.contains("NoC grid         10x12"), "{out}");
    assert!(out.contains("6 channels"), "{out}");
    assert!(out.contains("; 12 banks"), "{out}");
    assert!(out.contains("legend:"), "{out}");
    // The map has one row per NoC row.
    let map_rows =
        out.lines().skip_while(|l| !l.starts_with("NoC grid map")).skip(2).take_while(|l| !l.is_empty()).count();
    assert_eq!(map_rows, 12);
}

#[test]
fn json_output_carries_the_same_facts() {
    for arch in ["wormhole_b0", "blackhole", "grayskull"] {
        let (code, out, err) = tensim(&["soc", "--arch", arch, "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
        assert_eq!(v["arch"], arch);
        let banks = v["dram_banks"].as_array().unwrap().len();
        let workers = v["tensix_workers"].as_u64().unwrap();
        match arch {
            "wormhole_b0" => assert_eq!((banks, workers), (12, 72)),
            "blackhole" => assert_eq!((banks, workers), (8, 140)),
            _ => assert_eq!((banks, workers), (8, 120)),
        }
        assert_eq!(v["map"].as_array().unwrap().len(), 12);
    }
}

#[test]
fn every_real_file_succeeds() {
    let Some(dir) = soc_dir() else { return };
    for sub in ["tt-metal/soc_descriptors", "tt-umd/soc_descs"] {
        for e in std::fs::read_dir(dir.join(sub)).unwrap() {
            let p = e.unwrap().path();
            let (code, out, err) = tensim(&["soc", "--soc", p.to_str().unwrap()]);
            assert_eq!(code, 0, "{}: {err}", p.display());
            assert!(out.contains("Tensix workers"), "{out}");
            let (code, _, err) = tensim(&["soc", "--soc", p.to_str().unwrap(), "--json"]);
            assert_eq!(code, 0, "{}: {err}", p.display());
        }
    }
}

#[test]
fn harvesting_changes_the_grids() {
    let (code, out, _) = tensim(&["soc", "--arch", "wormhole_b0", "--harvest", "1"]);
    assert_eq!(code, 0);
    assert!(out.contains("72 in an 8x9 worker grid"), "{out}");
    assert!(out.contains("compute grid     8x8"), "{out}");
    assert!(out.contains("product nebula_x1"), "{out}");
    let (code, out, _) = tensim(&["soc", "--arch", "blackhole", "--harvest", "0x3"]);
    assert_eq!(code, 0);
    assert!(out.contains("compute grid     11x10"), "{out}");
}

#[test]
fn soc_alone_describes_the_default_chip() {
    let (code, out, err) = tensim(&["soc"]);
    assert_eq!(code, 0, "{err}");
    let (_, wh, _) = tensim(&["soc", "--arch", "wormhole_b0"]);
    assert_eq!(out, wh, "`tensim soc` is `tensim soc --arch wormhole_b0`, as every command defaults");
}

#[test]
fn user_errors_exit_1_with_one_clear_message() {
    let cases: &[(&[&str], &str)] = &[
        (&["soc", "--soc", "/nonexistent/chip.yaml"], "/nonexistent/chip.yaml: cannot read SoC descriptor"),
        (&["soc", "--arch", "wormhole_b0", "--harvest", "7"], "no wormhole_b0 product has 3 harvested rows"),
        (&["soc", "--arch", "nosuch"], "unknown arch `nosuch`"),
        (
            &["soc", "--arch", "wormhole_b0", "--core-desc", "/nonexistent/core.yaml"],
            "/nonexistent/core.yaml: cannot read core descriptor",
        ),
    ];
    for (args, msg) in cases {
        let (code, _, err) = tensim(args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
        assert!(!err.contains("panicked") && !err.contains("backtrace"), "{err}");
    }
}

#[test]
fn a_broken_file_is_named_with_its_line() {
    let dir = std::env::temp_dir().join(format!("tensim-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("broken.yaml");
    std::fs::write(&p, "grid:\n  x_size: 10\n  y_size: [12\narc: [0-10]\n").unwrap();
    let (code, _, err) = tensim(&["soc", "--soc", p.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains(&format!("{}:", p.display())), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn help_works_for_every_subcommand() {
    for args in [&["--help"][..], &["soc", "--help"][..]] {
        let (code, out, _) = tensim(args);
        assert_eq!(code, 0);
        assert!(out.contains("Usage:"), "{out}");
    }
}

/// Every SoC descriptor under ../shared/soc (tt-metal's and tt-umd's) is usable as it stands: the loopback
/// program runs and passes on it (defaults that depend on the chip, such as the Ethernet kernel region's
/// end, come from the file).
#[test]
fn every_real_soc_descriptor_runs_a_program() {
    let Some(dir) = soc_dir() else { return };
    let mut files = Vec::new();
    for sub in ["tt-metal/soc_descriptors", "tt-umd/soc_descs"] {
        for e in std::fs::read_dir(dir.join(sub)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "yaml") {
                files.push(p);
            }
        }
    }
    assert!(files.len() >= 7, "the descriptors: {files:?}");
    for f in files {
        let (code, out, err) = tensim(&["run", "loopback", "--soc", f.to_str().unwrap()]);
        assert_eq!(code, 0, "{}: {err}", f.display());
        assert!(out.starts_with("PASS loopback"), "{}: {out}", f.display());
    }
}
