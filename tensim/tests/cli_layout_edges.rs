//! The layout edge cases of TTNN and tt-mlir, as `tensim layout … --json` prints them: strides on the
//! logical shape, low-rank collapse onto larger grids, logical shards padded only to the alignment,
//! row-major shard alignment, rank-0 tensors, every tile shape, fractional bytes per element, N-D shards
//! larger than the tensor, and `--physical-shard` implying logical mode.

use serde_json::Value;
use std::process::Command;

fn json(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_tensim")).args(args).arg("--json").output().expect("run tensim");
    let (o, e) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "tensim {}: {e}", args.join(" "));
    serde_json::from_str(&o).unwrap_or_else(|err| panic!("tensim {}: {err}\n{o}", args.join(" ")))
}

fn nums(v: &Value) -> Vec<u64> {
    v.as_array().unwrap_or_else(|| panic!("not a list: {v}")).iter().map(|x| x.as_u64().unwrap()).collect()
}

#[test]
fn ttnn_edge_cases() {
    let t = json(&["layout", "ttnn", "--shape", "5x4x3x2", "--layout", "tile"]);
    assert_eq!(nums(&t["strides"]), [384, 96, 32, 1]);
    let r = json(&["layout", "ttnn", "--shape", "30x20x10", "--padded-shape", "30x32x32"]);
    assert_eq!((nums(&r["alignment"]), nums(&r["strides"])), (vec![32, 32], vec![640, 32, 1]));
    let b = json(&[
        "layout",
        "ttnn",
        "--shape",
        "1x1x60x60",
        "--layout",
        "tile",
        "--memory",
        "block",
        "--shard",
        "36x40",
        "--shard-mode",
        "logical",
        "--cores",
        "(0,0)-(1,1)",
    ]);
    assert_eq!((nums(&b["physical_shard_shape"]), nums(&b["physical_shape"])), (vec![64, 64], vec![96, 96]));
    let h = json(&[
        "layout",
        "ttnn",
        "--shape",
        "1x2x5x1",
        "--dtype",
        "f32",
        "--memory",
        "height",
        "--shard",
        "3x1",
        "--shard-mode",
        "logical",
        "--cores",
        "(0,0)-(3,0)",
    ]);
    assert_eq!(nums(&h["physical_shape"]), [10, 1]);
    // --physical-shard alone means logical mode.
    let p = json(&[
        "layout",
        "ttnn",
        "--shape",
        "1x1x60x60",
        "--layout",
        "tile",
        "--memory",
        "block",
        "--shard",
        "36x40",
        "--physical-shard",
        "64x64",
        "--cores",
        "(0,0)-(1,1)",
    ]);
    assert_eq!(nums(&p["physical_shape"]), [96, 96]);
    // Row-major shards align to the shard width.
    let w = json(&[
        "layout",
        "ttnn",
        "--shape",
        "64x60",
        "--memory",
        "height",
        "--shard",
        "32x64",
        "--cores",
        "(0,0)-(1,0)",
    ]);
    assert_eq!(nums(&w["alignment"]), [64]);
    // Rank 0.
    let s = json(&["layout", "ttnn", "--shape", "scalar"]);
    assert_eq!((nums(&s["physical_shape"]), nums(&s["strides"])), (vec![1, 1], vec![]));
    let st = json(&["layout", "ttnn", "--shape", "", "--layout", "tile"]);
    assert_eq!(nums(&st["physical_shape"]), [32, 32]);
    // Tile shapes and their page sizes.
    for (tile, dtype, bytes) in [("32x16", "bfp8_b", 544), ("16x16", "bf16", 512), ("1x32", "bfp8_b", 48)] {
        let t = json(&["layout", "ttnn", "--shape", "64x64", "--layout", "tile", "--tile", tile, "--dtype", dtype]);
        assert_eq!(t["page_size"].as_u64(), Some(bytes), "{tile} {dtype}: {t}");
    }
    // N-D shard larger than the tensor in dimension 0: one shard there, padding slots.
    let nd = json(&[
        "layout",
        "ttnn",
        "--shape",
        "2x64x64",
        "--layout",
        "tile",
        "--memory",
        "nd",
        "--shard",
        "4x32x32",
        "--cores",
        "(0,0)-(3,0)",
    ]);
    assert_eq!(nd["num_shards"].as_u64(), Some(4), "{nd}");
}

#[test]
fn metal_low_rank_collapse() {
    let one = json(&["layout", "metal", "--shape", "64", "--grid", "1x2"]);
    let text = one.to_string();
    assert!(text.contains("(d0) -> (0, d0)"), "{text}");
    let three = json(&["layout", "metal", "--shape", "64", "--grid", "1x1x2"]);
    assert!(three.to_string().contains("(d0) -> (0, 0, d0)"), "{three}");
    let two = json(&["layout", "metal", "--shape", "4x64", "--grid", "1x1x2"]);
    assert!(two.to_string().contains("(d0, d1) -> (0, d0, d1)"), "{two}");
}

#[test]
fn pages_with_fractional_bytes_per_element() {
    let base =
        ["layout", "pages", "--tensor", "64x64", "--shard", "32x32", "--page", "32x32", "--cores", "(0,0)-(3,0)"];
    let f: Vec<&str> = base.iter().copied().chain(["--bytes-per-element", "1.0625"]).collect();
    let p: Vec<&str> = base.iter().copied().chain(["--page-bytes", "1088"]).collect();
    let (a, b) = (json(&f), json(&p));
    assert_eq!(a["page_bytes"].as_u64(), Some(1088));
    assert_eq!(a, b);
    assert_eq!(a["aligned_size"].as_u64(), Some(4 * 1088));
}
