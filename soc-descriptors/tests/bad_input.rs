//! Bad descriptor input gives errors that name the file, the key and the offending value — never a panic.
//! Targeted cases for each rule, then a sweep that mutates every real file many ways.

mod common;

use soc_descriptors::*;
use std::panic::{AssertUnwindSafe, catch_unwind};

const WH: &str = include_str!("data/wormhole_small.yaml");

fn err(text: &str) -> SocError {
    SocDescriptor::from_yaml_str(text, "chip.yaml").expect_err("expected an error")
}

#[test]
fn the_small_fixture_is_valid() {
    let s = SocDescriptor::from_yaml_str(WH, "chip.yaml").unwrap();
    assert_eq!(s.workers.len(), 4);
    assert_eq!(s.dram_banks.len(), 2);
}

#[test]
fn yaml_syntax_error_names_file_line_and_column() {
    let e = err(&WH.replace("functional_workers: [1-1, 2-1, 1-2, 2-2]", "functional_workers: [1-1, 2-1"));
    assert_eq!(e.file, "chip.yaml");
    let (line, col) = e.location.expect("location");
    assert!(line > 1 && col >= 1, "{e}");
    assert!(e.to_string().starts_with(&format!("chip.yaml:{line}:{col}: ")), "{e}");
}

#[test]
fn unknown_and_missing_keys_name_the_key_path() {
    let e = err(&WH.replace("arch_name:", "arch_nmae:"));
    assert!(e.message.contains("unknown field `arch_nmae`"), "{e}");
    let e = err(&WH.replace("  packer:\n    version: 2\n", "  packer:\n    version: 2\n    speed: 3\n"));
    assert_eq!(e.key.as_deref(), Some("features.packer.speed"), "{e}");
    let e = err(&WH.replace("eth_l1_size: 262144\n", ""));
    assert!(e.message.contains("missing field `eth_l1_size`"), "{e}");
    let e = err(&WH.replace("      channel: 1,\n", ""));
    assert_eq!(e.key.as_deref(), Some("dram_views[1]"), "{e}");
    assert!(e.message.contains("missing field `channel`"), "{e}");
}

#[test]
fn malformed_coordinate() {
    let e = err(&WH.replace("[1-1, 2-1, 1-2, 2-2]", "[1-1, 2_1, 1-2, 2-2]"));
    assert_eq!(e.key.as_deref(), Some("functional_workers[1]"));
    assert_eq!(e.value.as_deref(), Some("2_1"));
    assert!(e.message.contains("malformed coordinate"), "{e}");
}

#[test]
fn coordinate_outside_the_grid() {
    let e = err(&WH.replace("pcie: [0-3]", "pcie: [0-12]"));
    assert_eq!(e.key.as_deref(), Some("pcie[0]"));
    assert_eq!(e.value.as_deref(), Some("0-12"));
    assert!(e.message.contains("outside the 3x4 NoC grid"), "{e}");
}

#[test]
fn tile_listed_in_two_roles() {
    let e = err(&WH.replace("pcie: [0-3]", "pcie: [1-1]"));
    assert_eq!(e.value.as_deref(), Some("1-1"));
    assert!(e.message.contains("listed twice"), "{e}");
    assert!(e.message.contains("pcie[0]") || e.key.as_deref() == Some("functional_workers[0]"), "{e}");
}

#[test]
fn empty_worker_list() {
    let e =
        err(&WH.replace("[1-1, 2-1, 1-2, 2-2]", "[]").replace("router_only: []", "router_only: [1-1, 2-1, 1-2, 2-2]"));
    assert_eq!(e.key.as_deref(), Some("functional_workers"));
    assert!(e.message.contains("empty worker list"), "{e}");
}

#[test]
fn zero_size() {
    let e = err(&WH.replace("worker_l1_size: 1499136", "worker_l1_size: 0"));
    assert_eq!(e.key.as_deref(), Some("worker_l1_size"));
    assert_eq!(e.value.as_deref(), Some("0"));
    let e = err(&WH.replace("dram_view_size: 1073741824", "dram_view_size: 0"));
    assert_eq!(e.key.as_deref(), Some("dram_view_size"));
}

#[test]
fn sizes_beyond_what_an_address_reaches() {
    // 32-bit L1 pointers, 36 bits of NoC local address; the error echoes the value as written.
    let e = err(&WH.replace("worker_l1_size: 1499136", "worker_l1_size: 18446744073709551615"));
    assert_eq!(e.key.as_deref(), Some("worker_l1_size"));
    assert_eq!(e.value.as_deref(), Some("18446744073709551615"));
    assert!(e.to_string().contains("at most 4294967296 bytes"), "{e}");
    let e = err(&WH.replace("dram_view_size: 1073741824", "dram_view_size: 68719476737"));
    assert_eq!(e.key.as_deref(), Some("dram_view_size"));
    // Past 64 bits: the plain-words message gives the range, not serde's 128-bit detour.
    let e = err(&WH.replace("worker_l1_size: 1499136", "worker_l1_size: 99999999999999999999"));
    let text = e.to_string();
    assert!(text.contains("`99999999999999999999`, expected a whole number from 0 to 18446744073709551615"), "{text}");
    assert!(!text.contains("u128") && !text.contains("at least 0"), "{text}");
}

#[test]
fn dram_view_with_missing_channel_or_subchannel() {
    let e = err(&WH.replace("      channel: 1,\n", "      channel: 7,\n"));
    assert_eq!(e.key.as_deref(), Some("dram_views[1].channel"));
    assert_eq!(e.value.as_deref(), Some("7"));
    assert!(e.message.contains("channel does not exist"), "{e}");
    let e = err(&WH.replace("worker_endpoint: [1, 1]", "worker_endpoint: [1, 5]"));
    assert_eq!(e.key.as_deref(), Some("dram_views[1].worker_endpoint[1]"));
    assert_eq!(e.value.as_deref(), Some("5"));
    assert!(e.message.contains("subchannel does not exist"), "{e}");
}

#[test]
fn unsupported_arch() {
    let e = err(&WH.replace("WORMHOLE_B0", "QUASAR"));
    assert_eq!(e.key.as_deref(), Some("arch_name"));
    assert_eq!(e.value.as_deref(), Some("QUASAR"));
}

#[test]
fn missing_file_is_an_error_naming_it() {
    let e = SocDescriptor::load(std::path::Path::new("/nonexistent/soc.yaml")).unwrap_err();
    assert_eq!(e.file, "/nonexistent/soc.yaml");
    assert!(e.message.contains("cannot read"), "{e}");
}

/// A parser under test: text and file name in, success or a [`SocError`] out.
type Parser = dyn Fn(&str, &str) -> Result<(), SocError>;

/// Runs `parse` on `text`; fails the test on a panic or an error that does not name `file`.
fn must_not_panic(file: &str, what: &str, text: &str, parse: &dyn Fn(&str, &str) -> Result<(), SocError>) {
    let r = catch_unwind(AssertUnwindSafe(|| parse(text, file)));
    match r {
        Err(_) => panic!("{file}: panicked on {what}"),
        Ok(Err(e)) => {
            assert_eq!(e.file, file, "{what}: error does not name the file: {e}");
            assert!(!e.message.is_empty());
        }
        Ok(Ok(())) => {}
    }
}

fn top_level_keys(text: &str) -> Vec<(usize, usize)> {
    // (start line, end line exclusive) of every top-level key block.
    let lines: Vec<&str> = text.lines().collect();
    let starts: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.is_empty() && !l.starts_with([' ', '#', '\t']) && l.contains(':'))
        .map(|(i, _)| i)
        .collect();
    starts.iter().enumerate().map(|(k, &s)| (s, starts.get(k + 1).copied().unwrap_or(lines.len()))).collect()
}

#[test]
fn mutated_real_files_never_panic_and_always_name_the_file() {
    let Some(dir) = common::soc_dir() else { return };
    let soc_parse = |t: &str, f: &str| SocDescriptor::from_yaml_str(t, f).map(|_| ());
    let core_parse = |t: &str, f: &str| {
        let cd = CoreDescriptor::from_yaml_str(t, f)?;
        // Selecting and applying must not panic either.
        for arch in Arch::ALL {
            let _ = Chip::new(builtin_soc(arch), &cd, f, ChipOptions::default());
        }
        Ok(())
    };
    let mut files: Vec<(std::path::PathBuf, &Parser)> = Vec::new();
    for sub in ["tt-metal/soc_descriptors", "tt-umd/soc_descs"] {
        for f in common::yamls(&dir, sub) {
            files.push((f, &soc_parse));
        }
    }
    for f in common::yamls(&dir, "tt-metal/core_descriptors") {
        files.push((f, &core_parse));
    }
    let mut cases = 0;
    for (path, parse) in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.display().to_string();
        let lines: Vec<&str> = text.lines().collect();
        // Truncate at every tenth line.
        for cut in (0..lines.len()).step_by(10) {
            must_not_panic(&name, &format!("truncation at line {cut}"), &lines[..cut].join("\n"), parse);
            cases += 1;
        }
        // Delete each top-level key.
        for (s, e) in top_level_keys(&text) {
            let t = [&lines[..s], &lines[e..]].concat().join("\n");
            let what = format!("deleting `{}`", lines[s]);
            must_not_panic(&name, &what, &t, parse);
            cases += 1;
        }
        // Corrupt coordinates and numbers in many ways.
        let corruptions: &[(&str, &str)] = &[
            ("1-1", "1_1"),
            ("1-1", "99-99"),
            ("1-1", "a-b"),
            ("1-1", "-1"),
            ("1-1", "1-"),
            ("0-0", "0-0-0"),
            ("0-0", "4294967296-0"),
            ("9-", "9999999-"),
            ("[", "{"),
            ("]", ""),
            (",", ""),
            (": ", ": [["),
            ("1", "-1"),
            ("0", "x"),
            ("2", "999999999999999999999999"),
            ("-1", "-100"),
            ("start", "begin"),
            ("True", "Maybe"),
        ];
        for (from, to) in corruptions {
            let positions: Vec<usize> = text.match_indices(from).map(|(i, _)| i).collect();
            for &pos in positions.iter().step_by((positions.len() / 7).max(1)) {
                let t = format!("{}{}{}", &text[..pos], to, &text[pos + from.len()..]);
                must_not_panic(&name, &format!("`{from}` -> `{to}` at byte {pos}"), &t, parse);
                cases += 1;
            }
        }
    }
    assert!(cases > 500, "only {cases} mutations tried");
}
