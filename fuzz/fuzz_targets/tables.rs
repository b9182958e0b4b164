//! Fuzz target: measured tables given to `--compare` — tt-metal's data-movement markdown tables and the
//! GEMM benchmark's CSV — parse into rows or a named error, and a parsed table compares without a panic.
#![no_main]
use suites::dm_bench::{compare, parse_table, recognise, table_title};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Some(title) = table_title(text) {
        let _ = recognise(&title, "fuzz.md");
    }
    if let Ok(rows) = parse_table(text, "fuzz.md") {
        let c = compare(&rows, &rows);
        let _ = format!("{c:?}");
    }
    if let Ok(rows) = suites::gemm_bench::compare::parse("fuzz.csv", text) {
        let _ = suites::gemm_bench::compare::compare(&rows, &[]);
    }
});
