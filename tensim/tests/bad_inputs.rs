//! A table of bad inputs across every subcommand: each must exit 1 with one clear message that names the
//! offending value (or file, key, event), and never panic. Also: a closed standard output ends quietly.

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
    c(&["run", "loopback", "--set", "noc.model=routers"], "must be one of calendar, zero_load, router");
    c(&["run", "loopback", "--set", "noc.vc_cap_flits=0"], "noc.vc_cap_flits = 0: out of range; allowed 1..=4096");
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

    // Issue 47's causes: numbers, files, flags that did nothing, work and memory, row alignment.
    c(&["run", "loopback", "--size", "-1"], "`-1` is negative");
    c(&["run", "all_gather", "--dim", "-1"], "--dim");
    c(&["run", "all_gather", "--shape", "-1,1,64,64"], "-1");
    c(&["layout", "ttnn", "--shape", "-1x64"], "-1x64");
    c(&["run", "loopback", "--params", &p("params_dup.yaml")], "noc.hop_cycles");
    c(&["params", "--params", &p("params_dup.yaml")], "duplicate");
    c(&["soc", "--arch", "wormhole_b0", "--core-desc", &p("soc_like.yaml")], "this is a SoC descriptor");
    c(&["soc", "--soc", &p("dangling.yaml")], "dangling");
    c(&["soc", "--soc", &p("deep.yaml")], "deep.yaml");
    c(&["params", "--params", &p("deep.yaml")], "deep.yaml");
    c(&["run", "all_gather", "--system", "t3000", "--devices", "3", "--topology", "ring"], "the ring does not close");
    c(&["run", "all_gather", "--system", "t3000", "--cluster", &p("cl_twice.yaml")], "cannot be used with");
    c(&["run", "all_gather", "--per-core"], "--per-core");
    c(&["run", "all_gather", "--dispatch", "slow"], "--dispatch");
    c(&["replay", &p("t_dyneg.json")], "`dy` is -3");
    c(&["replay", &p("t_back.json")], "event 1");
    c(&["params", "--set", "mem.l1_unreserved_base=4294967295"], "is not below the 1499136-byte L1");
    c(&["run", "matmul_multi_core", "--m", "65536", "--n", "65536", "--k", "32"], "of host memory");
    c(&["run", "vecadd_multi_core", "--size", "2000000"], "--size");
    c(&["run", "all_gather", "--shape", "1,1,8192,65536"], "of host memory");
    c(&["run", "matmul_multicore_reuse_mcast", "--size", "8192"], "L1");
    c(&["dm-bench", "one_to_all_multicast", "--grid", "full", "--counts", "1000000"], "is large: about");
    c(
        &[
            "layout",
            "ttnn",
            "--shape",
            "64x64",
            "--memory",
            "height",
            "--shard",
            "32x64",
            "--cores",
            "(0,0)-(100000,100000)",
        ],
        "reaches past any grid",
    );
    c(
        &["run", "interleaved_to_sharded", "--page", "row_major", "--shape", "64x8", "--to", "l1:height:2x1"],
        "multiple of 16 elements",
    );

    c(&["run", "matmul_multi_core", "--check", "most"], "`most` is not a check mode: use full, sample or off");
    c(&["run", "loopback", "--check", "off"], "--check does not apply to loopback");

    // Layouts.
    let m = |extra: &[&'static str]| -> Vec<&'static str> {
        ["layout", "metal", "--shape", "2x3x64x128", "--grid", "2x4"]
            .iter()
            .copied()
            .chain(extra.iter().copied())
            .collect()
    };
    c(&m(&["--map", "(d0, d1) -> (d0, d1)"]), "2 inputs");
    c(&m(&["--map", "(d0, d1, d2, d3) -> (d0, d1, d2 + d3)"]), "3 results");
    c(&m(&["--map", "(d0, d1, d2, d3) -> (d0 * d1, d3)"]), "a product of two dimensions is not affine");
    c(&m(&["--map", "(d0, d1, d2, d3) -> (d9, d3)"]), "one of the dimensions");
    c(&m(&["--collapse", "0,9"]), "collapse interval = (0, 9)");
    c(&m(&["--collapse", "2,1"]), "collapse interval = (2, 1)");
    c(&m(&["--collapse", "0"]), "--collapse 0: give START,END");
    c(&m(&["--collapse", "0,-1", "--map", "(d0, d1, d2, d3) -> (d0, d3)"]), "not both");
    c(&m(&["--tile", "32x8"]), "32x8");
    c(&m(&["--dtype", "bfp8"]), "block floats exist only in tiles");
    c(&m(&["--dtype", "f64"]), "dtype = f64");
    c(&m(&["--memspace", "hbm"]), "memspace = hbm");
    c(&m(&["--oob", "seven"]), "oob = seven");
    c(&m(&["--index", "1,1,6"]), "3 coordinates");
    c(&m(&["--index", "1,1,64,0"]), "index[2] = 64");
    c(&m(&["--index", "1,-1,0,0"]), "-1 is negative");
    c(&["layout", "metal", "--shape", "2x0x4", "--grid", "1x1"], "shape[1] = 0");
    c(&["layout", "metal", "--shape", "2xx4", "--grid", "1x1"], "cannot read shape `2xx4`");
    c(&["layout", "metal", "--shape", "4x4", "--grid", "0x1"], "grid[0] = 0");
    let svg = p("foreign.svg");
    c(&["layout", "metal", "--shape", "4x4", "--grid", "1x1", "--svg", &svg], "not a tensim layout picture");
    let t = |extra: &[&'static str]| -> Vec<&'static str> {
        ["layout", "ttnn", "--shape", "64x64"].iter().copied().chain(extra.iter().copied()).collect()
    };
    c(&t(&["--layout", "tile", "--memory", "height", "--shard", "32x32", "--cores", "(0,0)-(1,0)"]), "whole rows");
    c(
        &t(&["--layout", "tile", "--memory", "block", "--shard", "16x32", "--cores", "(0,0)-(3,1)"]),
        "16x32 is not tile-aligned",
    );
    c(&t(&["--layout", "tile", "--memory", "block", "--shard", "32x32", "--cores", "(0,0)-(1,0)"]), "4 shards");
    c(&t(&["--memory", "height", "--shard", "32x64"]), "needs its cores");
    c(&t(&["--memory", "height", "--cores", "(0,0)-(1,0)"]), "needs --shard");
    c(&t(&["--memory", "height", "--shard", "32x64", "--cores", "(0,0)-(1,"]), "cannot read core ranges");
    c(&t(&["--memory", "height", "--shard", "32x64", "--cores", "(0,0)-(1,1),(1,1)"]), "overlap");
    c(&t(&["--memory", "diagonal"]), "--memory diagonal");
    c(&t(&["--layout", "columns"]), "--layout columns");
    c(&t(&["--dtype", "bfp8"]), "BFLOAT8_B exists only in tiles");
    c(&t(&["--shard", "32x64"]), "--shard applies to sharded memory");
    c(&t(&["--memory", "nd", "--shard", "32x32x32", "--cores", "(0,0)-(1,0)"]), "the N-D shard has the tensor's rank");
    c(&t(&["--padded-shape", "32x64"]), "padded shape[0] = 32");
    c(&t(&["--memory", "height", "--shard", "32x64", "--num-cores", "0"]), "num-cores = 0");
    c(
        &t(&["--memory", "height", "--shard", "32x64", "--num-cores", "100", "--grid-size", "8x8"]),
        "100 cores do not fit",
    );
    let g = |extra: &[&'static str]| -> Vec<&'static str> {
        ["layout", "pages", "--tensor", "5x2x64x96", "--page", "32x32", "--cores", "(0,0)-(3,3)"]
            .iter()
            .copied()
            .chain(extra.iter().copied())
            .collect()
    };
    c(&g(&["--shard", "0x2x32x32"]), "shard shape");
    c(&g(&["--shard", "2x32x32"]), "the shard's rank must equal the tensor's");
    c(&g(&["--shard", "5x2x0x32"]), "shard shape[2] = 0");
    c(
        &["layout", "pages", "--tensor", "64x64", "--shard", "32x32", "--page", "0x32", "--cores", "(0,0)"],
        "--page 0x32",
    );
    c(&g(&["--shard", "5x2x32x32", "--orientation", "diagonal"]), "orientation = diagonal");
    c(&g(&["--shard", "5x2x32x32", "--alignment", "24"]), "--alignment 24");
    c(
        &[
            "layout",
            "pages",
            "--tensor",
            "64x64",
            "--shard",
            "32x32",
            "--page",
            "32x32",
            "--cores",
            "(0,0)-(1,1),(3,3)",
            "--strategy",
            "grid_2d",
        ],
        "GRID_2D needs one rectangle",
    );

    // Sizes and arithmetic beyond 64 bits: errors that echo the value, never a wrapped answer or a hang.
    let lm = |shape: &'static str, map: &'static str| -> Vec<&'static str> {
        vec!["layout", "metal", "--shape", shape, "--grid", "1x1", "--map", map]
    };
    c(
        &lm("64x64", "(d0, d1) -> (d0 * 4611686018427387904 + d1 * 4611686018427387904, d1)"),
        "= 581072438321850875904: over the tensor's extents the map's values must fit 64-bit integers",
    );
    c(&lm("2x2", "(d0, d1) -> (d0 * 9223372036854775807 * 2, d1)"), "coefficients and constants that fit 64-bit");
    c(&lm("2x2", "(d0, d1) -> (d0 - 9223372036854775807 - 9223372036854775807, d1)"), "fit 64-bit integers at");
    c(&lm("2x2", "(d0, d1) -> (d0 * 99999999999999999999, d1)"), "`99999999999999999999` does not fit 64 bits");
    c(&["layout", "metal", "--shape", "18446744073709551615x2", "--grid", "1x1"], "shape = 18446744073709551615");
    c(&lm("2x2", "\u{85}2"), "cannot read affine map"); // a two-byte Unicode space (found by fuzzing)
    c(
        &["layout", "metal", "--shape", "4294967296x4294967296x4", "--grid", "1x1", "--collapse", "0,-1"],
        "the product of 4294967296x4294967296x4's dimensions 0 to 1",
    );
    c(&["layout", "metal", "--shape", "64x64", "--grid", "1x1", "--tile", "4294967328x32"], "--tile 4294967328x32");
    c(
        &["layout", "metal", "--shape", "1048576x1048576", "--grid", "1048576x1048576", "--svg", &p("big.svg")],
        "the picture would draw 1099511627776 shards",
    );
    c(&["layout", "ttnn", "--shape", "18446744073709551615x32", "--dtype", "bf16"], "shape[0] = 18446744073709551615");
    c(&["layout", "ttnn", "--shape", "65536x65536x65536", "--dtype", "bf16"], "(281474976710656 elements)");
    c(
        &["layout", "ttnn", "--shape", "64x64", "--dtype", "bf16", "--layout", "tile", "--tile", "4294967296x32"],
        "--tile 4294967296x32: each extent must be at most 4294967295",
    );
    c(
        &[
            "layout",
            "ttnn",
            "--shape",
            "32x32",
            "--dtype",
            "bf16",
            "--layout",
            "tile",
            "--memory",
            "block",
            "--shard",
            "4294967264x4294967264",
            "--cores",
            "(0,0)",
        ],
        "padded 2-D shape = 4294967264x4294967264",
    );
    c(
        &[
            "layout",
            "ttnn",
            "--shape",
            "1048576x1048576",
            "--dtype",
            "bf16",
            "--layout",
            "tile",
            "--svg",
            &p("big.svg"),
        ],
        "the picture would draw 1073741824 pages",
    );
    c(
        &["layout", "ttnn", "--shape", "1048576x1048576", "--dtype", "bf16", "--layout", "tile", "--pages"],
        "--pages: the layout has 1073741824 page slots; tensim lists at most 16777216",
    );
    c(
        &[
            "layout",
            "pages",
            "--tensor",
            "1048576x1048576",
            "--shard",
            "32x32",
            "--page",
            "32x32",
            "--cores",
            "(0,0)-(3,3)",
        ],
        "the layout has 1073741824 page slots",
    );
    c(
        &["layout", "pages", "--tensor", "4294967296x64", "--shard", "32x32", "--page", "32x32", "--cores", "(0,0)"],
        "tensor shape[0] = 4294967296",
    );
    c(
        &[
            "device",
            "--physical-grid",
            "8x8",
            "--grid",
            "8x8",
            "--map",
            "(d0, d1) -> (0, d0 * 9223372036854775807 * 4, d1)",
        ],
        "a value beyond 64-bit integers",
    );

    c(&["device", "--system", "t3000", "--mesh", "0x4"], "--mesh: mesh[0] = 0: every extent must be at least 1");
    c(&["device", "--system", "t3000", "--mesh", "4294967296x4294967296"], "needs more than 2^64 chips");
    c(
        &["device", "--physical-grid", "8x8", "--mesh", "4294967296x4294967296"],
        "mesh shape = 4294967296x4294967296: at most 2^24 cores over all chips",
    );
    c(&["device", "--physical-grid", "8x8", "--grid", "0x8"], "--grid: grid[0] = 0");

    // Problems that cannot fit the device are refused before the host builds their data, --allow-large or not.
    c(
        &["run", "matmul_single_core", "--m", "4294967264", "--n", "32", "--k", "32", "--allow-large"],
        "CreateBuffer: out of DRAM memory",
    );
    c(
        &["run", "matmul_2d_mcast", "--m", "4294967040", "--n", "256", "--k", "256", "--allow-large"],
        "matmul 4294967040x256x256 (A, B and C in bf16) needs 4398046380032 bytes of device memory",
    );

    c(&["run", "all_gather", "--system", "t3000", "--workers", "0"], "0 is not in 1..=256");

    c(&["soc", "--arch", "wormhole_b0", "--harvest", "0xFFFFFFFFFFFFFFFFF"], "it does not fit 32 bits");
    c(
        &["run", "all_gather", "--system", "t3000", "--dim", "99999999999999999999"],
        "is too large (at most 4294967295)",
    );

    // Layout ops.
    c(&["run", "reshard", "--from", "l1:block"], "needs a grid");
    c(&["run", "reshard", "--to", "l1:block:9x9"], "does not fit the 8x8 compute grid");
    c(&["run", "reshard", "--to", "dram:height:13x1"], "13 DRAM banks asked for");
    c(
        &["run", "reshard", "--shape", "8192x8192", "--from", "dram:interleaved", "--to", "l1:block:1x1"],
        "out of L1 memory",
    );
    c(&["run", "reshard", "--page", "rows"], "--page rows");
    c(&["run", "reshard", "--shape", "0x32"], "--shape 0x32: extent 0 is 0; every extent must be at least 1");
    c(
        &["run", "interleaved_to_sharded", "--from", "l1:height:2x1"],
        "interleaved_to_sharded moves an interleaved tensor",
    );
    c(&["run", "eltwise_add_sharded", "--to", "dram:height:4x1"], "needs height or block shards in L1");
    c(&["run", "loopback", "--from", "dram:interleaved"], "--from does not apply to loopback");
    c(&["run", "reshard", "--size", "4"], "--size does not apply to reshard");

    // Systems.
    // Collectives.
    c(&["run", "all_gather", "--system", "n300", "--topology", "ring"], "ring needs at least 3");
    c(&["run", "all_gather", "--system", "t3000", "--topology", "star"], "topology `star`");
    c(&["run", "all_gather", "--system", "t3000", "--shape", "1,1,30,64"], "multiples of 32");
    c(&["run", "all_gather", "--system", "t3000", "--shape", "1,1,32"], "--shape 1,1,32");
    c(&["run", "all_gather", "--system", "t3000", "--dim", "7"], "dim 7");
    c(&["run", "all_gather", "--system", "t3000", "--devices", "9"], "1x9");
    c(&["run", "all_gather", "--system", "t3000", "--devices", "4", "--topology", "ring"], "not linked");
    c(&["run", "all_gather", "--system", "n500"], "unknown system `n500`");
    c(
        &["run", "all_gather", "--system", "t3000", "--npe-timeline", &p("t.json")],
        "--npe-timeline is not an option of `all_gather`",
    );
    c(&["run", "all_gather", "--system", "t3000", "--m", "64"], "--m is not an option");
    c(&["run", "add", "--system", "t3000"], "--system is an option of the collectives");
    c(&["run", "all_gather", "--set", "fabric.max_payload_bytes=8000"], "above eth.l1_kernel_top");
    c(&["run", "all_gather", "--set", "fabric.max_payload_bytes=8160"], "larger than one NoC burst");
    c(&["run", "all_gather", "--set", "eth.latency_ns=0"], "eth.latency_ns");
    c(&["run", "reduce_scatter", "--system", "t3000", "--devices", "4", "--shape", "1,1,32,96"], "cannot share evenly");
    c(&["run", "reduce_scatter", "--system", "t3000", "--dim", "5"], "dim 5");
    c(&["run", "reduce_scatter", "--system", "n300", "--topology", "ring"], "ring needs at least 3");
    c(&["run", "all_reduce", "--system", "t3000", "--devices", "4", "--shape", "1,3,32,96"], "not modelled");
    c(&["run", "all_reduce", "--system", "t3000", "--dim", "3"], "--dim is not an option of `all_reduce`");
    c(&["run", "all_reduce", "--system", "t3000", "--trace", &p("nodir/t.json")], "nodir");
    c(&["run", "all_reduce", "--system", "t3000", "--stats", &p("s.json"), "--trace", &p("s.json")], "s.json");
    c(&["system"], "name a system");
    c(&["system", "n500"], "unknown system `n500`");
    c(&["system", "--cluster", &p("nothere.yaml")], "nothere.yaml");
    c(
        &["system", "--cluster", &p("cl_missing_chip.yaml")],
        "ethernet_connections[0][1].chip: names a chip without an arch (got `3`)",
    );
    c(&["system", "--cluster", &p("cl_twice.yaml")], "channel used by two links (got `chip 0 ch 1`)");
    c(&["system", "--cluster", &p("cl_noarch.yaml")], "harvesting.7: names a chip without an arch");
    c(
        &["system", "--cluster", &p("cl_chan.yaml")],
        "ethernet_connections[0][0].chan: Ethernet channel does not exist on this chip (got `12`)",
    );
    c(&["system", "--cluster", &p("bad.yaml")], "bad.yaml");
    c(&["system", "n300", "--svg", &p("foreign.svg")], "foreign.svg");
    c(&["device"], "give --system NAME, --cluster FILE or --physical-grid RxC");
    c(&["device", "--system", "n300", "--mesh", "1x4"], "--mesh 1x4 needs 4 chips");
    c(&["device", "--system", "n300", "--chips", "0,9", "--mesh", "1x2"], "needs chip 9");
    c(&["device", "--physical-grid", "8x8", "--mesh", "2x0"], "--mesh");
    c(
        &["device", "--physical-grid", "8x8", "--mesh", "2x2", "--chips", "0,1"],
        "number of chip ids and the mesh volume",
    );
    c(&["device", "--physical-grid", "8x8", "--mesh", "1x2", "--chips", "1,1"], "chip 1 is listed twice");
    c(
        &["device", "--physical-grid", "8x8", "--grid", "8x8", "--map", "(d0, d1) -> (0, d0, d1 floordiv 2)"],
        "no other point uses",
    );
    c(
        &["device", "--physical-grid", "8x8", "--mesh", "2", "--grid", "8x9", "--map", "(d0, d1) -> (0, d0, d1)"],
        "logical point (0, 8)",
    );
    c(&["device", "--physical-grid", "8x8", "--grid", "8x9", "--map", "(d0, d1) -> (0, d0, d1)"], "at most 64 points");
    c(
        &["device", "--physical-grid", "8x8", "--grid", "8x8", "--map", "(d0, d1) -> (0, d0 mod 0, d1)"],
        "a positive constant after `mod`",
    );
    c(&["device", "--physical-grid", "8x8", "--mesh", "1x2", "--grid", "8x8"], "gives the worker grid 8x16");
    c(&["device", "--physical-grid", "0x8"], "--physical-grid 0x8");
    c(&["device", "--physical-grid", "100000x8"], "--physical-grid 100000x8: a chip has at most 256x256 cores");
    c(&["device", "--physical-grid", "8x8", "--mesh", "99999999999x2"], "at most 2^24 cores");
    c(&["system", "--cluster", "/dev/zero"], "not a regular file");
    c(&["device", "--physical-grid", "8x8", "--mesh", "2x1x1", "--tensor", "64x64", "--tensor-grid", "2x2"], "rank");
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
