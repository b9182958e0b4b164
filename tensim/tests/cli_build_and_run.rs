//! End-to-end tests of `tensim build-and-run`: a C++ program folder builds and runs (output flags written,
//! main's arguments passed), a second run is served from the compile cache, and the errors a user meets —
//! a missing folder, a host compile error, an out-of-bounds L1 pointer in a kernel — exit 1 with a message
//! that names the problem. Needs the host C++ compiler and says so loudly.

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

fn need_compiler() {
    let found = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("g++").is_file() || d.join("c++").is_file()));
    assert!(found || std::env::var_os("CXX").is_some(), "these tests build C++ programs and need g++ (or CXX)");
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn a_program_folder_builds_runs_and_writes_its_outputs() {
    need_compiler();
    let dir = root().join("cpp/programs/loopback");
    let tmp = std::env::temp_dir().join(format!("tensim-bar-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let stats = tmp.join("stats.json");
    let trace = tmp.join("trace.json");
    for arch in ["wormhole_b0", "blackhole"] {
        let (code, out, err) = tensim(&[
            "build-and-run",
            dir.to_str().unwrap(),
            "--arch",
            arch,
            "--stats",
            stats.to_str().unwrap(),
            "--trace",
            trace.to_str().unwrap(),
            "--",
            "8",
        ]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("Test Passed: 8 tiles copied"), "{out}");
        assert!(out.contains("tensim: program 0 on device 0:"), "{out}");
        let s = std::fs::read_to_string(&stats).unwrap();
        assert!(s.contains("\"build-and-run\"") && s.contains("\"runs\""), "{s}");
        assert!(std::fs::read_to_string(&trace).unwrap().contains("traceEvents"));
    }
    // Served from the cache now.
    let (code, out, _) = tensim(&["build-and-run", dir.to_str().unwrap(), "--", "8"]);
    assert_eq!(code, 0);
    assert!(out.contains("built in 0.0"), "{out}");
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn user_errors_exit_1_with_the_reason() {
    need_compiler();
    let (code, _, err) = tensim(&["build-and-run", "/no/such/program"]);
    assert_eq!(code, 1);
    assert!(err.contains("/no/such/program: not a folder"), "{err}");

    let overrun = root().join("tensim/tests/data/l1_overrun");
    let (code, _, err) = tensim(&["build-and-run", overrun.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("dereferenced L1 address 0x16e010") && err.contains("outside its core's 1499136-byte L1"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    let broken = std::env::temp_dir().join(format!("tensim-broken-host-{}", std::process::id()));
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(
        broken.join("main.cpp"),
        "#include <tt-metalium/host_api.hpp>\nint main() { return undefined_thing; }\n",
    )
    .unwrap();
    let (code, _, err) = tensim(&["build-and-run", broken.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("main.cpp:2") && err.contains("undefined_thing"), "{err}");
    // A compiler that fails without a word is named, not shown as an empty error.
    std::fs::write(broken.join("main.cpp"), "int main() { return 0; }\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tensim"))
        .args(["build-and-run", broken.to_str().unwrap()])
        .env("CXX", "/bin/false")
        .output()
        .expect("run tensim");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("failed and printed nothing") && err.contains("/bin/false"), "{err}");
    let _ = std::fs::remove_dir_all(&broken);
}

#[test]
fn cmake_builds_an_unchanged_cmakelists_against_tensims_package() {
    need_compiler();
    let has_cmake = Command::new("cmake").arg("--version").output().is_ok_and(|o| o.status.success());
    let key = "tensim/cli_build_and_run: build-and-run --cmake";
    if !has_cmake {
        soc_descriptors::test_skips::note(
            env!("CARGO_TARGET_TMPDIR"),
            key,
            Some("cmake is not on PATH (pip install cmake)"),
        );
        eprintln!("SKIPPED: cmake is not on PATH, so `build-and-run --cmake` was not tested (pip install cmake)");
        return;
    }
    soc_descriptors::test_skips::note(env!("CARGO_TARGET_TMPDIR"), key, None);
    let dir = root().join("cpp/programs/loopback");
    let (code, out, err) = tensim(&["build-and-run", dir.to_str().unwrap(), "--cmake", "--", "4"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Test Passed: 4 tiles copied"), "{out}");
}

/// `--system NAME` gives the program the chips of a system (device i at mesh position (i / cols, i % cols),
/// each with its own arch and harvesting); too few chips, too many `--devices` and an unknown system are
/// errors that say what to give instead.
#[test]
fn a_mesh_program_runs_on_the_chips_of_a_system() {
    need_compiler();
    let dir = root().join("cpp/programs/distributed/3_distributed_eltwise_add");
    let dir = dir.to_str().unwrap();
    let (code, out, err) = tensim(&["build-and-run", dir, "--system", "t3000"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Test Passed") && out.contains("8 program run(s)"), "{out}");
    assert!(err.contains("8 wormhole_b0 chip(s) of a 2x4 mesh") && err.contains("runs its chips together"), "{err}");
    let (code, alone, err) = tensim(&["build-and-run", dir, "--devices", "8"]);
    assert_eq!(code, 0, "{err}");
    for d in 0..8 {
        assert_eq!(cycles_of(&out, d), cycles_of(&alone, 0), "device {d}: the same cycles as --devices 8");
    }
    let (code, _, err) = tensim(&["build-and-run", dir, "--system", "p150x4"]);
    assert_eq!(code, 1);
    assert!(err.contains("needs 8 devices and this run has 4") && err.contains("--system"), "{err}");
    let (code, _, err) = tensim(&["build-and-run", dir, "--system", "t3000", "--devices", "9"]);
    assert_eq!(code, 1);
    assert!(err.contains("--devices 9: built-in t3000 has 8 chips"), "{err}");
    let (code, _, err) = tensim(&["build-and-run", dir, "--system", "nosuch"]);
    assert_eq!(code, 1);
    assert!(err.contains("unknown system `nosuch`"), "{err}");
    let (code, _, err) = tensim(&["build-and-run", dir, "--system", "t3000", "--arch", "blackhole"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("cannot be used with"), "{err}");
}

/// The cycles `build-and-run` printed for device `d`.
fn cycles_of(out: &str, d: u32) -> u64 {
    let key = format!("on device {d}: ");
    let at = out.find(&key).unwrap_or_else(|| panic!("no run on device {d}: {out}")) + key.len();
    out[at..].split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn a_cpp_worker_writes_through_the_fabric_to_another_chip() {
    need_compiler();
    let dir = root().join("cpp/programs/distributed/5_distributed_fabric_write");
    let dir = dir.to_str().unwrap();
    let mut first = None;
    for system in ["t3000", "p150x4", "t3000"] {
        let (code, out, err) = tensim(&["build-and-run", dir, "--system", system]);
        assert_eq!(code, 0, "{system}: {err}{out}");
        assert!(out.contains("Test Passed: 32 pages of 2048 bytes crossed the fabric"), "{out}");
        // Device 1's print, prefixed as tt-metal's print server prefixes it (its core's translated coordinates).
        assert!(
            out.lines().any(|l| l.starts_with("1:(x=") && l.ends_with(":BR: receiver: the pages have arrived")),
            "{out}"
        );
        let (tx, rx) = (cycles_of(&out, 0), cycles_of(&out, 1));
        // 64 KiB over one link at 12.5 B/cycle (WH) or more: the receiver cannot finish before the wire
        // time of the payload, and the sender finishes after its last packet left.
        assert!(rx >= 65536 * 1000 / 25_000 && tx > 0, "{system}: {tx} / {rx} cycles");
        if system == "t3000" {
            // Deterministic: the same cycles on a second run.
            match first {
                None => first = Some((tx, rx)),
                Some(f) => assert_eq!(f, (tx, rx), "two runs of the same program differ"),
            }
        }
    }
    // The fabric needs a system's links.
    let (code, _, err) = tensim(&["build-and-run", dir, "--devices", "2"]);
    assert_eq!(code, 1);
    assert!(err.contains("SetFabricConfig") && err.contains("--system"), "{err}");
}

#[test]
fn cpp_erisc_kernels_send_over_an_ethernet_link() {
    need_compiler();
    let dir = root().join("cpp/programs/distributed/ethernet_send_receive");
    let dir = dir.to_str().unwrap();
    // (system, link bytes per cycle at 1 GHz: eth.link_bytes_per_sec of the arch's data file)
    for (system, bytes_per_cycle) in [("n300", 12.5), ("p300", 25.0)] {
        let (code, out, err) = tensim(&["build-and-run", dir, "--system", system]);
        assert_eq!(code, 0, "{system}: {err}{out}");
        assert!(out.contains("Test Passed: 16384 bytes crossed Ethernet channel"), "{out}");
        // At least the wire time of 16 KiB at the link's rate, plus the handshake's round trip and the
        // payload's one-way latency (eth.latency_ns = 500).
        let floor = (16384.0 / bytes_per_cycle) as u64 + 3 * 500;
        let rx = cycles_of(&out, 1);
        assert!(rx >= floor, "{system}: receiver done at {rx} cycles, below the wire time {floor}");
    }
    // On the router-level NoC model too (each chip's Ethernet cores send and receive through it): the same
    // bytes, and the receiver still waits for the wire.
    let (code, out, err) = tensim(&["build-and-run", dir, "--system", "n300", "--set", "noc.model=router"]);
    assert_eq!(code, 0, "router model: {err}{out}");
    assert!(out.contains("Test Passed: 16384 bytes crossed Ethernet channel"), "{out}");
    assert!(cycles_of(&out, 1) >= (16384.0 / 12.5) as u64 + 3 * 500, "{out}");
    // Independent chips have no links: the program's own check names it.
    let (code, _, err) = tensim(&["build-and-run", dir, "--devices", "2"]);
    assert_eq!(code, 1);
    assert!(err.contains("not linked by Ethernet"), "{err}");
}

#[test]
fn a_matmul_split_over_two_chips_is_gathered_through_the_fabric() {
    need_compiler();
    let dir = root().join("cpp/programs/distributed/6_distributed_fabric_matmul");
    let dir = dir.to_str().unwrap();
    let (code, out, err) = tensim(&["build-and-run", dir, "--system", "t3000"]);
    assert_eq!(code, 0, "{err}{out}");
    assert!(out.contains("Test Passed") && out.contains("2 program run(s)"), "{out}");
    // Device 0's receiver waits for device 1's last tile, which device 1 sends after its own half: the two
    // chips end within the last tile's trip of each other.
    let (home, away) = (cycles_of(&out, 0), cycles_of(&out, 1));
    assert!(home + 2000 > away && away + 2000 > home, "{home} / {away} cycles");
    // One host thread per chip or one for both: the same cycles.
    let (code, one, err) = tensim(&["build-and-run", dir, "--system", "t3000", "--workers", "1"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!((cycles_of(&one, 0), cycles_of(&one, 1)), (home, away), "--workers 1 changes the result");
    let (code, _, err) = tensim(&["build-and-run", dir, "--system", "t3000", "--workers", "0"]);
    assert_eq!(code, 1);
    assert!(err.contains("--workers") && err.contains("0"), "{err}");
    // Its chips stall packets beyond buffering: checked together on the router model (past the automatic
    // limit, so asked for), each chip's cycles are those of the two chips run on that model.
    let (code, router, err) = tensim(&["build-and-run", dir, "--system", "t3000", "--set", "noc.model=router"]);
    assert_eq!(code, 0, "{err}");
    let stats = std::env::temp_dir().join(format!("tensim-fabric-check-{}.json", std::process::id()));
    let s = stats.to_str().unwrap();
    let (code, _, err) = tensim(&["build-and-run", dir, "--system", "t3000", "--router-check", "always", "--stats", s]);
    assert_eq!(code, 0, "{err}");
    let doc = std::fs::read_to_string(&stats).unwrap();
    std::fs::remove_file(&stats).unwrap();
    for d in 0..2 {
        let want = format!("\"router_check\":{{\"cycles\":{},", cycles_of(&router, d));
        assert!(doc.contains(&want), "device {d}: {want} in {doc}");
    }
}

#[test]
fn misuses_of_the_mesh_and_fabric_host_api_are_named() {
    need_compiler();
    let dir = root().join("cpp/tests/data/fabric_misuse");
    let dir = dir.to_str().unwrap();
    let (code, out, err) = tensim(&["build-and-run", dir, "--system", "t3000", "--workers", "2", "--", "ok"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("8 connection words"), "{out}");
    assert!(err.contains("--workers had no effect"), "a program without a mesh run says --workers did nothing: {err}");
    for (what, says) in [
        ("torus", "SetFabricConfig: configuration 5 is not modelled"),
        (
            "no_fabric",
            "the fabric is disabled; call set_fabric_config(FabricConfig::Fabric1D) first (C++: tt_fabric::SetFabricConfig",
        ),
        ("too_big", "the mesh needs 16 devices and this run has 8"),
        ("not_neighbour", "(0, 2) is not a neighbour of (0, 0) in the 1x4 mesh"),
        ("link", "are joined by 2 link(s) (routing planes 0..1)"),
        ("payload", "carries a payload of 64 bytes and none was given before it"),
    ] {
        let (code, _, err) = tensim(&["build-and-run", dir, "--system", "t3000", "--", what]);
        assert_eq!(code, 1, "{what}: {err}");
        assert!(err.contains(says) && !err.contains("panicked"), "{what}: {err}");
    }
}

/// `build-and-run` from several working folders: kernel paths are resolved to absolute ones before the build
/// wrapper (in the cache) includes them, and the program is the same (cached) whichever folder it runs from.
#[test]
fn a_program_runs_from_any_working_folder() {
    need_compiler();
    let programs = root().join("cpp/programs").canonicalize().unwrap();
    let run_in = |cwd: &std::path::Path, dir: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_tensim"))
            .args(["build-and-run", dir, "--", "4"])
            .current_dir(cwd)
            .output()
            .expect("run tensim");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let abs = programs.join("loopback");
    for (cwd, dir) in [
        (programs.clone(), "loopback".to_string()),
        (programs.join("loopback"), ".".to_string()),
        (programs.join("loopback/kernels"), "..".to_string()),
        (std::env::temp_dir(), abs.display().to_string()),
    ] {
        let (code, out, err) = run_in(&cwd, &dir);
        assert_eq!(code, Some(0), "from {}: {err}", cwd.display());
        assert!(out.contains("Test Passed: 4 tiles copied"), "from {}: {out}", cwd.display());
    }
    // Copied under another name, the host still names its kernels `loopback/kernels/…`: they are found in
    // the copy.
    let copy = std::env::temp_dir().join(format!("tensim-renamed-{}/my_copy", std::process::id()));
    std::fs::create_dir_all(copy.join("kernels")).unwrap();
    for f in std::fs::read_dir(&abs).unwrap().chain(std::fs::read_dir(abs.join("kernels")).unwrap()) {
        let f = f.unwrap().path();
        if f.is_file() {
            let rel = f.strip_prefix(&abs).unwrap();
            std::fs::copy(&f, copy.join(rel)).unwrap();
        }
    }
    let (code, out, err) = run_in(&std::env::temp_dir(), copy.to_str().unwrap());
    assert_eq!(code, Some(0), "renamed copy: {err}");
    assert!(out.contains("Test Passed: 4 tiles copied"), "renamed copy: {out}");
    let _ = std::fs::remove_dir_all(copy.parent().unwrap());
}

/// A program that creates a 2x4 mesh, run with neither --system nor --devices, runs on the smallest built-in
/// system of the chosen chip that holds it and says which; when no built-in system holds it, the error
/// gives the flag to add.
#[test]
fn a_mesh_program_picks_the_smallest_system_that_holds_it() {
    need_compiler();
    let dir = root().join("cpp/programs/distributed/1_distributed_program_dispatch");
    let dir = dir.to_str().unwrap();
    let (code, out, err) = tensim(&["build-and-run", dir]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("MeshDevice::create(2x4) runs on the built-in system t3000"), "{err}");
    assert!(out.contains("Program dispatched to 8 devices of a 2x4 mesh") && out.contains("Test Passed"), "{out}");
    let (code, _, err) = tensim(&["build-and-run", dir, "--arch", "blackhole"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("runs on the built-in system p150x8"), "{err}");
    let (code, _, err) = tensim(&["build-and-run", dir, "--arch", "grayskull"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("no built-in system of grayskull chips holds a 2x4 mesh") && err.contains("--devices 8"),
        "{err}"
    );
    let (code, _, err) = tensim(&["build-and-run", dir, "--devices", "4"]);
    assert_eq!(code, 1);
    assert!(err.contains("needs 8 devices and this run has 4") && err.contains("--devices 8"), "{err}");
}
