//! Rules of the source tree that keep it readable, checked on every test run: only the command line
//! (this crate) spells command-line flags, and no two source files share a name for different things.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace").to_path_buf()
}

/// Every `.rs` file under `dir`'s `src/` (recursively), with its path from the root.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The library crates: every workspace member but the command line.
fn library_sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut crates: Vec<PathBuf> = std::fs::read_dir(root())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("Cargo.toml").is_file() && p.join("src").is_dir())
        .filter(|p| !p.ends_with("tensim") && !p.ends_with("fuzz"))
        .collect();
    crates.sort();
    for c in crates {
        sources(&c.join("src"), &mut files);
    }
    files
}

/// A string literal's text that spells a command-line flag (`--size`, `--set KEY=VALUE`): a double quote,
/// then anything but a quote, then `--` and a lower-case letter.
fn flag_in_string(line: &str) -> Option<String> {
    let bytes = line.as_bytes();
    let mut in_string = false;
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if in_string => i += 1,
            b'"' => {
                in_string = !in_string;
                start = i;
            }
            b'-' if in_string
                && bytes.get(i + 1) == Some(&b'-')
                && bytes.get(i + 2).is_some_and(|c| c.is_ascii_lowercase())
                && (i == start + 1 || !bytes[i - 1].is_ascii_alphanumeric()) =>
            {
                let end = line[i + 2..]
                    .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
                    .map_or(line.len(), |e| e + i + 2);
                return Some(line[i..end].to_string());
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Flags of the tools tensim runs (the C++ compiler, the linker, CMake), which library code passes on.
const TOOL_FLAGS: &[&str] = &["--param", "--wrap", "--no-undefined", "--build", "--target"];

#[test]
fn only_the_command_line_spells_flags() {
    let mut found = Vec::new();
    for f in library_sources() {
        let text = std::fs::read_to_string(&f).unwrap();
        let mut in_tests = false;
        for (n, line) in text.lines().enumerate() {
            let t = line.trim_start();
            if t.starts_with("#[cfg(test)]") {
                in_tests = true;
            }
            if in_tests || t.starts_with("//") || f.file_name().is_some_and(|n| n == "tests.rs") {
                continue;
            }
            if let Some(flag) = flag_in_string(line)
                && !TOOL_FLAGS.iter().any(|t| flag.starts_with(t))
            {
                found.push(format!("{}:{}: {flag}", f.strip_prefix(root()).unwrap().display(), n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "library crates spell command-line flags (name options bare and let the front end spell them):\n{}",
        found.join("\n")
    );
}

/// File names that several crates use for the same thing (each crate's errors, parameters, built-in
/// descriptions, the two halves of a kernel or ABI, NoC addresses, the kernel host and its implementation).
const SAME_MEANING: &[&str] = &[
    "mod.rs",
    "lib.rs",
    "main.rs",
    "tests.rs",
    "build.rs",
    "error.rs",
    "params.rs",
    "builtin.rs",
    "dataflow.rs",
    "compute.rs",
    "addr.rs",
    "kernel_host.rs",
];

#[test]
fn no_two_source_files_share_a_name_for_different_things() {
    let mut by_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in library_sources() {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        by_name.entry(name).or_default().push(f.strip_prefix(root()).unwrap().display().to_string());
    }
    let shared: Vec<String> = by_name
        .iter()
        .filter(|(name, files)| files.len() > 1 && !SAME_MEANING.contains(&name.as_str()))
        .map(|(name, files)| format!("{name}: {}", files.join(", ")))
        .collect();
    assert!(shared.is_empty(), "source files share a name (rename them after what each holds):\n{}", shared.join("\n"));
}

#[test]
fn the_flag_finder_finds_flags_in_strings_only() {
    assert_eq!(flag_in_string(r#"    x("--size 5: too big")"#), Some("--size".into()));
    assert_eq!(flag_in_string(r#"    format!("use --set sim.max_cycles=N")"#), Some("--set".into()));
    assert_eq!(flag_in_string("    a -- b; // --size in a comment"), None);
    assert_eq!(flag_in_string(r#"    "a-b--c""#), None, "not after a letter");
    assert_eq!(flag_in_string(r#"    "x", y -- z"#), None, "outside the string");
}

/// The kernel APIs stand on the Tensix hardware model, never the other way round: nothing under
/// `sim-tensix/src/hw/` names a kernel-API module.
#[test]
fn the_tensix_hardware_model_imports_no_kernel_api() {
    const API: &[&str] = &[
        "crate::compute",
        "crate::dataflow",
        "crate::kernel_ctx",
        "crate::addrgen",
        "crate::args",
        "crate::tile_slice",
    ];
    let mut files = Vec::new();
    sources(&root().join("sim-tensix/src/hw"), &mut files);
    assert!(files.len() >= 9, "the hardware model's files: {files:?}");
    let mut found = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (n, line) in text.lines().enumerate() {
            if let Some(m) = API.iter().find(|m| line.contains(&format!("{m}::")) || line.contains(&format!("{m};"))) {
                found.push(format!("{}:{}: {m}", f.strip_prefix(root()).unwrap().display(), n + 1));
            }
        }
    }
    assert!(found.is_empty(), "the hardware model imports kernel-API modules:\n{}", found.join("\n"));
}
