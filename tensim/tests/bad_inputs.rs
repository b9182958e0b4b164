//! A table of bad inputs across every subcommand: each must exit 1 with one clear message that names the
//! offending value (or file, key, event), and never panic. Also: a closed standard output ends quietly.

#[path = "bad_inputs/cases_more.rs"]
mod cases_more;
#[path = "bad_inputs/fixtures.rs"]
mod fixtures;

use fixtures::Fixtures;
use std::path::Path;
use std::process::{Command, Stdio};

fn tensim(args: &[String]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tensim")).args(args).output().expect("run tensim");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn cases(f: &Fixtures) -> Vec<(Vec<String>, String)> {
    let p = |n: &str| f.p(n);
    let mut out: Vec<(Vec<String>, String)> = Vec::new();
    fn push(out: &mut Vec<(Vec<String>, String)>, args: &[&str], want: &str) {
        out.push((args.iter().map(|s| s.to_string()).collect(), want.to_string()));
    }
    let mut c = |args: &[&str], want: &str| push(&mut out, args, want);

    // The command line itself.
    c(&[], "Usage");
    c(&["bogus"], "unrecognized subcommand 'bogus'");
    c(&["run", "--bogus"], "unexpected argument '--bogus'");
    c(&["run"], "required arguments were not provided");
    c(&["dm-bench"], "name a suite (see --list) or give --compare TABLE.md|DIR");
    c(&["replay"], "required arguments were not provided");

    // Chips.
    for cmd in ["run", "soc", "dm-bench", "replay"] {
        let mut a: Vec<&str> = vec![cmd];
        match cmd {
            "run" => a.push("loopback"),
            "dm-bench" => a.push("one_to_one"),
            "replay" => a.push("/nonexistent/t.json"),
            _ => {}
        }
        let with =
            |extra: &[&'static str]| -> Vec<&'static str> { a.iter().copied().chain(extra.iter().copied()).collect() };
        let arch = with(&["--arch", "wormhole_c0"]);
        c(&arch, "unknown arch `wormhole_c0`");
        let harvest = with(&["--harvest", "zz"]);
        c(&harvest, "`zz` is not a harvesting mask");
        let cqs = with(&["--num-hw-cqs", "3"]);
        c(&cqs, "3 is not in 1..=2");
        let axis = with(&["--dispatch-axis", "diagonal"]);
        c(&axis, "unknown dispatch axis `diagonal`");
    }
    let zero = p("fifo");
    let cases_soc: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["soc".into(), "--soc".into(), "/nonexistent/chip.yaml".into()],
            "/nonexistent/chip.yaml: cannot read SoC descriptor: no such file",
        ),
        (
            vec!["soc".into(), "--soc".into(), "/dev/zero".into()],
            "/dev/zero: is a character device, not a regular file",
        ),
        (vec!["soc".into(), "--soc".into(), f.dir.display().to_string()], "is a directory"),
        (vec!["soc".into(), "--soc".into(), p("bad.yaml")], "bad.yaml:"),
        (vec!["soc".into(), "--soc".into(), p("notsoc.yaml")], "notsoc.yaml"),
        (vec!["soc".into(), "--soc".into(), zero.clone()], "not a regular file"),
        (vec!["run".into(), "loopback".into(), "--soc".into(), p("bad.yaml")], "bad.yaml:"),
        (
            vec![
                "soc".into(),
                "--arch".into(),
                "wormhole_b0".into(),
                "--core-desc".into(),
                "/nonexistent/core.yaml".into(),
            ],
            "/nonexistent/core.yaml: cannot read core descriptor",
        ),
        (vec!["soc".into(), "--arch".into(), "wormhole_b0".into(), "--core-desc".into(), p("bad.yaml")], "bad.yaml:"),
        (
            vec!["soc".into(), "--arch".into(), "wormhole_b0".into(), "--harvest".into(), "7".into()],
            "no wormhole_b0 product has 3 harvested rows",
        ),
        (vec!["soc".into(), "--arch".into(), "blackhole".into(), "--harvest".into(), "0xffff".into()], "blackhole"),
        (
            vec!["soc".into(), "--arch".into(), "wormhole_b0".into(), "--soc".into(), "x.yaml".into()],
            "cannot be used with",
        ),
    ];
    for (a, w) in cases_soc {
        out.push((a, w.to_string()));
    }

    // Parameters, on every command that takes them.
    let trace = p("t_ok.json");
    for prefix in [&["run", "loopback"][..], &["dm-bench", "one_to_one"], &["params"], &["replay", trace.as_str()]] {
        let with =
            |extra: &[&str]| -> Vec<String> { prefix.iter().chain(extra.iter()).map(|s| s.to_string()).collect() };
        for (set, want) in [
            ("noc.hop_cylces=3", "noc.hop_cylces = 3: unknown parameter"),
            ("noc.hop_cycles", "expected KEY=VALUE"),
            ("noc.hop_cycles=fast", "noc.hop_cycles = fast: not a number"),
            ("noc.hop_cycles=2.5", "noc.hop_cycles = 2.5: must be a whole number"),
            ("noc.hop_cycles=-1", "noc.hop_cycles = -1: must not be negative"),
            (
                "noc.hop_cycles=18446744073709551615",
                "noc.hop_cycles = 18446744073709551615: out of range; allowed 0..=1000000",
            ),
            ("mem.l1_unreserved_base=4295069696", "mem.l1_unreserved_base = 4295069696: out of range"),
            ("mem.l1_alignment_bytes=0", "mem.l1_alignment_bytes = 0: out of range"),
            ("mem.dram_alignment_bytes=24", "mem.dram_alignment_bytes = 24: must be a power of two"),
            ("noc.flit_bytes=0", "noc.flit_bytes = 0: out of range"),
            ("clock_mhz=0", "clock_mhz = 0: out of range"),
            ("dram.channel_bytes_per_kcycle=0", "dram.channel_bytes_per_kcycle = 0: out of range"),
            ("noc.inject_cycles_per_kflit=0", "noc.inject_cycles_per_kflit = 0: out of range"),
            ("noc.max_burst_bytes=8200", "noc.max_burst_bytes = 8200: must be a whole number of 32-byte flits"),
            ("mem.semaphore_base=102300", "semaphores end at"),
            ("eth.semaphore_base=69377", "eth.semaphore_base = 69377: must be a multiple of 16 bytes"),
            ("eth.semaphore_base=69376", "overlap the sync block at eth.app_sync_info_base"),
            ("eth.semaphore_base=200000", "above eth.l1_unreserved_base"),
            ("sim.stack_bytes=10", "sim.stack_bytes = 10: out of range"),
            ("sim.lookahead=2", "sim.lookahead = 2: out of range"),
            ("sim.math_thread=3", "sim.math_thread = 3: out of range"),
        ] {
            out.push((with(&["--set", set]), want.to_string()));
        }
        let pf = |n: &str| f.p(n);
        for (file, want) in [
            (pf("params_unknown.yaml"), "noc.hop_cylces = 3: unknown parameter".to_string()),
            (pf("params_fraction.yaml"), "noc.hop_cycles = 2.5: must be a whole number".to_string()),
            (pf("params_negative.yaml"), "noc.hop_cycles = -1: must not be negative".to_string()),
            (pf("params_text.yaml"), "noc.hop_cycles = fast: not a number".to_string()),
            (pf("params_huge.yaml"), "mem.l1_unreserved_base = 4295069696: out of range".to_string()),
            (pf("params_badfield.yaml"), "unknown field `sauce`".to_string()),
            (pf("params_list.yaml"), "params_list.yaml".to_string()),
            (pf("params_zero_clock.yaml"), "clock_mhz = 0: out of range".to_string()),
            (pf("bad.yaml"), "bad.yaml".to_string()),
            (
                "/nonexistent/p.yaml".to_string(),
                "/nonexistent/p.yaml: cannot read parameter file: no such file".to_string(),
            ),
            ("/dev/zero".to_string(), "/dev/zero: is a character device, not a regular file".to_string()),
        ] {
            out.push((with(&["--params", &file]), want));
        }
    }
    let mut c = |args: &[&str], want: &str| push(&mut out, args, want);
    c(
        &["run", "loopback", "--set", "mem.l1_unreserved_base=1499136"],
        "mem.l1_unreserved_base = 1499136 is not below the",
    );
    c(&["params", "--arch", "tenstorrent"], "unknown arch `tenstorrent`");

    // tensim run: programs and their options.
    c(&["run", "nosuch"], "unknown program `nosuch`");
    c(&["run", "loopback", "--router-check", "maybe"], "`maybe`: expected off, auto or always");
    c(&["run", "loopback", "--router-check", ""], "expected off, auto or always");
    c(&["run", "loopback", "--router-check", "-1"], "`-1`: expected off, auto or always");
    c(&["build-and-run", "x", "--router-check", "10"], "`10`: expected off, auto or always");
    c(&["run", "all_gather", "--router-check", "always"], "--router-check is not an option of `all_gather`");
    c(&["run", "loopback", "--m", "64"], "--m does not apply to loopback");
    c(&["run", "loopback", "--fidelity", "hifi2"], "--fidelity does not apply to loopback");
    c(&["run", "softmax", "--k", "64"], "--k does not apply to softmax");
    c(&["run", "multicast", "--size", "4"], "--size does not apply to multicast");
    c(&["run", "loopback", "--size", "0"], "--size 0: loopback takes 1..=1048576");
    c(&["run", "loopback", "--size", "99999999"], "--size 99999999: loopback takes 1..=1048576");
    c(&["run", "loopback", "--size", "-3"], "'-3'");
    c(&["run", "loopback", "--size", "many"], "'many'");
    c(&["run", "noc_tile_transfer", "--size", "70000"], "--size 70000: noc_tile_transfer takes 0..=65535");
    c(&["run", "hello_world_datamovement", "--size", "0"], "--size 0: hello_world_datamovement takes 1..=10000");
    c(&["run", "matmul_single_core", "--m", "33"], "--m 33: matmul dimensions are whole tiles");
    c(&["run", "matmul_multi_core", "--n", "0"], "--n 0: matmul dimensions are whole tiles");
    c(&["run", "softmax", "--m", "100"], "--m 100: softmax takes whole tiles");
    c(
        &["run", "matmul_single_core", "--m", "65536", "--n", "65536", "--k", "65536"],
        "would take about 96.0 GiB of host memory",
    );
    c(&["run", "softmax", "--m", "65536", "--n", "65536"], "Pass --allow-large to run it anyway");
    c(&["run", "matmul_multicore_reuse_mcast", "--fidelity", "HiFi5"], "`HiFi5` is not a math fidelity");
    c(&["run", "loopback", "--seed", "abc"], "'abc'");
    c(&["run", "loopback", "--trace", "/dev/zero"], "/dev/zero: is a character device, not a regular file");
    c(&["run", "loopback", "--trace", &zero], "fifo: is a FIFO (named pipe), not a regular file");
    c(
        &["run", "loopback", "--trace", &p("foreign.json")],
        "foreign.json: the file exists and is not a tensim trace; refusing",
    );
    c(&["run", "loopback", "--trace", &p("nope/t.json")], "folder");
    c(&["run", "loopback", "--trace", &p("empty")], "is a folder");
    c(&["run", "loopback", "--trace", &p("a.json"), "--stats", &p("a.json")], "a.json: is given for two outputs");
    c(
        &["run", "loopback", "--noc-heatmap", &p("foreign.svg")],
        "foreign.svg: the file exists and is not a tensim heatmap",
    );
    c(&["run", "loopback", "--npe-timeline", &p("foreign.json")], "not a tensim tt-npe timeline");
    c(&["run", "loopback", "--stats", &p("foreign.json")], "not a tensim stats file");
    c(&["run", "loopback", "--stats", "/dev/null"], "/dev/null: is a character device, not a regular file");
    c(&["run", "loopback", "--memory-report", &p("mem_not_dir")], "mem_not_dir: exists and is not a folder");
    c(&["run", "loopback", "--memory-report", &p("nope/deeper/mem")], "does not exist; create it first");

    // tensim gemm-bench.
    c(&["gemm-bench", "--ids", "M99"], "--ids M99: no such configuration");
    c(&["gemm-bench", "--dtype", "fp32"], "--dtype fp32: use bf16, bfp8_b or bfp4_b");
    c(&["gemm-bench", "--max-dim", "100"], "no configuration matches the filters");
    c(&["gemm-bench", "--workers", "x"], "invalid value 'x'");
    c(&["gemm-bench", "--ids", "M1", "--workers", "0"], "--workers 0: give at least 1 host thread");
    c(&["gemm-bench", "--compare", &p("nope.csv")], "nope.csv");
    c(&["gemm-bench", "--compare", &p("gemm_header.csv")], "gemm_header.csv: the header has no `n` column");
    c(&["gemm-bench", "--compare", &p("gemm_time.csv")], "gemm_time.csv:2: inference_time_avg_ns `abc`");
    c(&["gemm-bench", "--compare", &p("gemm_dtype.csv")], "gemm_dtype.csv:2: dtype `DataType.FLOAT32`");
    // gemm-bench's own NoC model gives way to the user's, which is checked as anywhere.
    c(
        &["gemm-bench", "--ids", "M1", "--set", "noc.model=packet"],
        "must be one of calendar, zero_load, router, packets",
    );
    c(&["gemm-bench", "--ids", "M1", "--max-dim", "0"], "no configuration matches the filters");
    c(&["run", "matmul_2d_mcast", "--m", "100"], "m = 100 must be a non-zero multiple of 32");
    c(&["run", "matmul_2d_mcast", "--dtype", "int8"], "--dtype int8: use bf16, bfp8_b or bfp4_b");
    c(&["run", "matmul_2d_mcast", "--to", "l2"], "--to l2: matmul_2d_mcast takes l1 (sharded) or dram");
    c(&["run", "matmul_2d_mcast", "--m", "128"], "per_core_M is 0");
    c(&["run", "loopback", "--dtype", "bf16"], "--dtype does not apply to loopback");

    // tensim dm-bench.
    c(&["dm-bench", "nosuch"], "unknown suite `nosuch`");
    c(&["dm-bench", "one_to_one", "--grid", "2x2"], "--grid does not apply to one_to_one");
    c(&["dm-bench", "loopback", "--grid", "full"], "--grid does not apply to loopback");
    c(&["dm-bench", "one_to_one", "--linked"], "--linked applies to one_to_all_multicast only");
    c(&["dm-bench", "all_to_all", "--vcs", "0"], "--vcs 0: the unicast request VCs are 1..=4");
    c(&["dm-bench", "all_to_all", "--vcs", "5"], "--vcs 5: the unicast request VCs are 1..=4");
    c(&["dm-bench", "all_to_all", "--noc", "2"], "--noc 2: give 0 or 1");
    c(&["dm-bench", "one_to_one", "--vcs", "2"], "--vcs applies to all_to_all only, not one_to_one");
    c(&["dm-bench", "one_to_one", "--noc", "1"], "--noc applies to all_to_all and all_from_all only");
    c(&["dm-bench", "dram_sharded", "--banks", "0"], "--banks 0: give at least one DRAM bank");
    c(&["dm-bench", "dram_sharded", "--banks", "13"], "--banks 13: the wormhole_b0 has 12 DRAM banks; give 1..=12");
    c(&["dm-bench", "one_to_one", "--banks", "2"], "--banks applies to dram_sharded only, not one_to_one");
    c(&["dm-bench", "core_bidirectional", "--grid", "2x2"], "--grid does not apply to core_bidirectional");
    c(&["run", "loopback", "--set", "noc.model=routers"], "must be one of calendar, zero_load, router, packets");
    c(&["run", "loopback", "--set", "noc.vc_cap_flits=0"], "noc.vc_cap_flits = 0: out of range; allowed 1..=4096");
    c(
        &["run", "loopback", "--set", "noc.fixed_port_priority=2"],
        "noc.fixed_port_priority = 2: out of range; allowed 0..=1",
    );
    c(&["run", "loopback", "--set", "noc.blind_response_vcs=-1"], "noc.blind_response_vcs = -1: must not be negative");
    c(
        &["run", "loopback", "--arch", "blackhole", "--set", "dram.write_buffer_bytes=2147483648"],
        "dram.write_buffer_bytes = 2147483648: out of range",
    );
    c(
        &["run", "loopback", "--set", "compute.matmul_phase_overhead_millicycles=1000001"],
        "compute.matmul_phase_overhead_millicycles = 1000001: out of range",
    );
    c(
        &["dm-bench", "all_to_all", "--loopback"],
        "--loopback applies to one_to_all_unicast and one_to_all_multicast only",
    );
    c(&["dm-bench", "all_to_all", "--grid", "100x100"], "--grid 100x100 does not fit");
    c(&["dm-bench", "one_to_all_unicast", "--grid", "9x9"], "--grid 9x9 does not fit");
    c(&["dm-bench", "one_to_all_multicast", "--grid", "10x8"], "--grid 10x8 does not fit");
    c(&["dm-bench", "all_to_all", "--grid", "0x2"], "`0` is not a positive number");
    c(&["dm-bench", "all_to_all", "--grid", "ax2"], "`a` is not a positive number");
    c(&["dm-bench", "all_to_all", "--grid", "4"], "--grid `4`: expected RxC");
    c(&["dm-bench", "all_to_all", "--grid", "2x"], "is not a positive number");
    c(&["dm-bench", "one_to_one", "--sizes", "0"], "--sizes: 0 is out of range; use 1..=65536");
    c(&["dm-bench", "one_to_one", "--sizes", "70000"], "--sizes: 70000 is out of range");
    c(&["dm-bench", "one_to_one", "--sizes", "abc"], "'abc'");
    c(&["dm-bench", "one_to_one", "--counts", "0"], "--counts: 0 is out of range");
    c(&["dm-bench", "one_to_one", "--counts", "2000000"], "--counts: 2000000 is out of range");
    c(&["dm-bench", "all_to_all", "--grid", "full", "--counts", "1000000"], "is large: about");
    // Within the packet limit, but hours of stepping flits on the router-level model.
    c(
        &[
            "dm-bench",
            "all_to_all",
            "--grid",
            "full",
            "--sizes",
            "65536",
            "--counts",
            "256",
            "--set",
            "noc.model=router",
        ],
        "flit moves on the router-level NoC model (limit 1000000000",
    );
    c(&["run", "all_gather", "--links", "0"], "--links 0: give at least 1 routing plane");
    c(
        &["run", "all_gather", "--links", "3"],
        "all_gather with 3 links: devices (0, 0) and (0, 1) are joined by 2; use at most 2",
    );
    c(&["run", "all_gather", "--links", "-1"], "--links");
    c(
        &["run", "reduce_scatter", "--links", "3"],
        "reduce_scatter with 3 links: devices (0, 0) and (0, 1) are joined by 2",
    );
    c(&["run", "all_reduce", "--system", "galaxy", "--devices", "4", "--links", "5"], "are joined by 4; use at most 4");
    c(&["run", "loopback", "--links", "2"], "--links is an option of the collectives");
    // A collective on the router-level model: every chip's flits count.
    c(
        &["run", "all_gather", "--system", "galaxy", "--shape", "1,1,160,8192", "--set", "noc.model=router"],
        "flit moves on the router-level NoC model (limit 1000000000",
    );
    c(
        &["dm-bench", "one_to_one", "--compare", "/nonexistent/t.md"],
        "/nonexistent/t.md: no such measured table or folder of tables (--compare)",
    );
    c(&["dm-bench", "one_to_one", "--compare", "/dev/zero"], "/dev/zero: is a character device, not a regular file");
    c(&["dm-bench", "one_to_one", "--compare", &p("empty")], "--compare DIR runs each table's own test");
    c(&["dm-bench", "--compare", &p("empty")], "no .md tables in the folder");
    c(&["dm-bench", "--compare", &p("empty"), "--grid", "2x2"], "--compare DIR runs each table's own test");
    c(&["dm-bench", "one_from_all", "--grid", "full"], "one_from_all reads from a block starting at (1,1)");
    c(&["dm-bench", "one_to_one", "--compare", &p("table_none.md")], "no table rows found");
    c(
        &["dm-bench", "one_to_one", "--compare", &p("table_title.md")],
        "cannot tell which test the table `Something Else Entirely` measured",
    );
    c(
        &["dm-bench", "one_to_one", "--compare", &p("table_other_test.md")],
        "the table measured `One from One Packet Sizes`",
    );
    c(&["dm-bench", "one_to_one", "--compare", &p("table_nan.md")], "`Latency (cycles)` is `slow`, not a number");
    for (file, want) in [
        ("table_nanlat.md", "table_nanlat.md:5: `Latency (cycles)` is `NaN`; expected a finite number above 0"),
        ("table_zerolat.md", "`Latency (cycles)` is `0`; expected a finite number above 0"),
        ("table_negsize.md", "`Transaction Size (bytes)` is `-64`; expected a whole number from 1 to 4294967295"),
        ("table_fracsize.md", "`Transaction Size (bytes)` is `1.5`; expected a whole number"),
        ("table_bigcount.md", "`Number of Transactions` is `99999999999999999999`; expected a whole number from 1"),
    ] {
        c(&["dm-bench", "--compare", &p(file), "--arch", "wormhole_b0"], want);
    }
    c(
        &["dm-bench", "one_to_one", "--compare", &p("table_short.md")],
        "the table has no `Number of Transactions` column",
    );
    c(
        &["dm-bench", "one_to_one", "--compare", &p("table_nomatch.md"), "--sizes", "32", "--counts", "1"],
        "no row of the measured table matches",
    );
    c(
        &["dm-bench", "one_to_one", "--arch", "wormhole_b0", "--compare", &p("blackhole/One to One Packet Sizes.md")],
        "the table was measured on blackhole but this run is on wormhole_b0",
    );
    c(&["dm-bench", "one_to_one", "--stats", &p("foreign.json")], "not a tensim stats file");

    // tensim replay.
    c(&["replay", "/nonexistent/t.json"], "/nonexistent/t.json: no such NoC trace or folder of traces (replay PATH)");
    c(&["replay", "/dev/zero"], "/dev/zero: is a character device, not a regular file");
    c(&["replay", &zero], "not a regular file");
    c(&["replay", &p("empty")], "no .json traces in this folder");
    c(&["replay", &p("notraces")], "no .json traces in this folder");
    c(&["replay", &p("notjson.json")], "notjson.json: not JSON");
    c(&["replay", &p("broken.json")], "broken.json:1:");
    c(&["replay", &p("empty.json")], "empty.json: the trace has no events");
    c(&["replay", &p("numbers.json")], "numbers.json:1:");
    c(&["replay", &p("t_noproc.json")], "t_noproc.json: event 0: missing field `proc`");
    c(&["replay", &p("t_risc.json")], "event 0: unknown RISC `TRISC7`");
    c(&["replay", &p("t_teleport.json")], "event 0: unknown event type `TELEPORT`");
    c(&["replay", &p("t_nonoc.json")], "event 0: missing field `noc`");
    c(&["replay", &p("t_noc2.json")], "event 0: NoC `NOC_2` is not NOC_0 or NOC_1");
    c(&["replay", &p("t_negbytes.json")], "event 0: `num_bytes` is -5");
    c(&["replay", &p("t_nodx.json")], "event 0: missing field `dx`");
    c(&["replay", &p("t_nobytes.json")], "event 0: missing field `num_bytes`");
    c(&["replay", &p("t_notime.json")], "event 0: missing field `timestamp`");
    c(&["replay", &p("t_nosx.json")], "event 0: missing field `sx`");
    c(&["replay", &p("t_phase.json")], "event 0: zone_phase `middle` is not begin or end");
    c(&["replay", &p("t_nophase.json")], "event 0: missing field `zone_phase`");
    c(&["replay", &p("t_notype.json")], "event 0: missing field `type`");
    c(&["replay", &p("t_sxtext.json")], "t_sxtext.json:1:");
    c(&["replay", &p("t_farcore.json")], "event 0: core (40,40) is not a usable Tensix worker");
    c(&["replay", &p("t_dram_src.json")], "event 0: core (0,11) is not a usable Tensix worker");
    c(&["replay", &p("t_fardst.json")], "event 0: destination (70,1) is outside the");
    c(&["replay", &p("t_mcast_corner.json")], "event 0: missing field `mcast_start_x`");
    c(&["replay", &p("t_hugebytes.json")], "event 0: `num_bytes` is 99999999999");
    c(&["replay", &p("w_zero.json")], "w_zero.json: event 0: `packet_size` is 0");
    c(&["replay", &p("w_nodst.json")], "event 0: missing field `dst_x`");
    c(&["replay", &p("w_both.json")], "either dst_x/dst_y or mcast_start_*/mcast_end_*, not both");
    c(&["replay", &p("w_rate.json")], "event 0: `injection_rate` is -3");
    c(&["replay", &p("w_noc.json")], "event 0: NoC `NOC_7` is not NOC_0 or NOC_1");
    c(&["replay", &p("w_many.json")], "at most 50000000 packets");
    c(
        &["replay", &p("t_bigint.json")],
        "whole number `18446744073709551615`, expected a whole number from -9223372036854775808 to 9223372036854775807",
    );
    c(
        &["replay", &p("t_late.json"), "--mode", "timestamps"],
        "event 1: `timestamp` is 18446744073709551615; expected within 2^50 cycles",
    );
    c(&["replay", &p("t_beyond.json"), "--mode", "timestamps"], "beyond sim.max_cycles = 20000000000");
    c(&["replay", &p("w_late.json")], "its phase_cycle_offset issues it at cycle 18446744073709551615");
    c(&["replay", &p("w_slow.json")], "its injection_rate issues it at a cycle beyond 64 bits");
    c(&["replay", &p("w_nophases.json")], "missing field `phases`");
    c(&["replay", &p("w_extra.json")], "unknown field `warp`");
    c(&["replay", &p("w_outside.json")], "event 0: destination (99,2) is outside the");
    c(&["replay", &p("w_ok.json"), "--mode", "kernels"], "a tt-npe workload carries no kernels");
    c(&["replay", &p("t_ok.json"), "--mode", "fast"], "unknown replay mode `fast`");
    c(&["replay", &p("empty"), "--noc-heatmap", &p("h.svg")], "--noc-heatmap draws one replay");
    c(&["replay", &p("empty"), "--npe-timeline", &p("t2.json")], "--npe-timeline draws one replay");
    c(&["replay", &p("t_ok.json"), "--noc-heatmap", &p("foreign.svg")], "not a tensim heatmap");
    c(&["replay", &p("t_ok.json"), "--stats", &p("foreign.json")], "not a tensim stats file");
    c(
        &["replay", &p("t_ok.json"), "--stats", &p("s.json"), "--npe-timeline", &p("s.json")],
        "is given for two outputs",
    );

    cases_more::add(f, &mut out);
    out
}

#[test]
fn bad_inputs_give_one_clear_error_and_exit_1() {
    let f = Fixtures::new();
    let table = cases(&f);
    assert!(table.len() >= 150, "the table has {} cases", table.len());
    let mut failures = Vec::new();
    for (args, want) in &table {
        let (code, _, err) = tensim(args);
        let ok =
            code == 1 && err.contains(want.as_str()) && !err.contains("panicked") && !err.contains("RUST_BACKTRACE");
        if !ok {
            failures.push(format!(
                "tensim {}\n  exit {code}, want 1 and `{want}`\n  got: {}",
                args.join(" "),
                err.trim()
            ));
        }
        // No serde or Rust type names in the message.
        for leaked in ["i64", "u64", "u32", "usize", "a sequence", "struct ", "invalid digit found"] {
            // (Data type names such as u32 are the vocabulary of --dtype.)
            if err.contains(leaked) && !args.iter().any(|a| a.contains(leaked) || a == "--dtype") {
                failures.push(format!("tensim {}\n  message shows `{leaked}`: {}", args.join(" "), err.trim()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} bad inputs misbehave:\n{}",
        failures.len(),
        table.len(),
        failures.join("\n")
    );
    // Nothing the user gave was touched.
    assert_eq!(std::fs::read_to_string(f.dir.join("foreign.json")).unwrap(), "{\"mine\": true}");
    assert_eq!(std::fs::read_to_string(f.dir.join("foreign.svg")).unwrap(), "<svg>my drawing</svg>");
    assert!(!Path::new(&f.p("a.json")).exists(), "no output is written when a command fails before simulating");
}

#[test]
fn a_closed_standard_output_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tensim"))
        .args(["run", "vecadd_multi_core", "--per-core"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tensim");
    // Read nothing: close the pipe at once, as `| head -0` would.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked") && !err.contains("Broken pipe"), "{err}");
}
