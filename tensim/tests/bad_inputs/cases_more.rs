//! The bad-input table, second half: numbers, files and flags (issue 47's causes), layouts, sizes beyond 64
//! bits, problems that cannot fit a device, layout ops, systems and collectives.

use super::fixtures::Fixtures;

pub fn add(f: &Fixtures, out: &mut Vec<(Vec<String>, String)>) {
    let p = |n: &str| f.p(n);
    let mut c = |args: &[&str], want: &str| out.push((args.iter().map(|s| s.to_string()).collect(), want.to_string()));
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
}
