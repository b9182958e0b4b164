//! User C++ that misbehaves never takes tensim down silently or hangs it: a kernel's stray or null pointer,
//! stack overflow, trap, division by zero, exception or `exit`, a kernel spinning without tensim calls or
//! polling an L1 word nobody writes, a host `main` dereferencing null or calling `exit`, a host folder
//! without `main`. Each run ends with exit code 1 and one message naming the kernel file, core and RISC
//! (or the host program), the fault and the last tensim call (`cpp/tests/data/misbehaving`). Needs the
//! host C++ compiler.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

fn tensim_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String, Duration) {
    let t = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_tensim")).args(args).envs(env.iter().copied()).output().expect("run");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        t.elapsed(),
    )
}

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../cpp/tests/data").join(name).display().to_string()
}

/// Run the misbehaving program with `case` (and its runtime arg): exit code 1, and stderr's error line.
fn misbehave(case: &[&str], env: &[(&str, &str)]) -> (String, String, Duration) {
    let dir = data("misbehaving");
    let mut args = vec!["build-and-run", dir.as_str(), "--"];
    args.extend_from_slice(case);
    let (code, out, err, took) = tensim_env(&args, env);
    assert_eq!(code, 1, "{case:?}: exit code 1 (no signal death), got {code}\n{out}\n{err}");
    let line =
        err.lines().find(|l| l.starts_with("error:")).unwrap_or_else(|| panic!("{case:?}: no error line:\n{err}"));
    (line.to_string(), out, took)
}

fn kernel_named(line: &str, file: &str) {
    assert!(
        line.contains(&format!("kernels/{file}.cpp`")) && line.contains("core (0,0) BRISC"),
        "names the kernel, its core and RISC: {line}"
    );
}

#[test]
fn faults_in_kernels_name_the_kernel_the_fault_and_the_last_call() {
    let cases: &[(&[&str], &str, &[&str])] = &[
        (
            &["store_at", "0x200000"],
            "store_at",
            &["address 0x200000", "stray pointer", "last tensim call was `get_arg_val`"],
        ),
        (&["store_at", "0x7fff0000"], "store_at", &["address 0x7fff0000"]),
        (&["load_null", "0"], "load_null", &["null pointer (address 0x0)"]),
        (&["big_stack", "4"], "big_stack", &["overflowed its stack", "sim.stack_bytes"]),
        // 8 MiB: larger than the guard page's reach without stack probing; still caught.
        (&["big_stack", "8"], "big_stack", &["overflowed its stack"]),
        (&["trap", "0"], "trap", &["illegal instruction", "__builtin_trap"]),
        (&["divides", "0"], "divides", &["divided an integer by zero"]),
        (&["throws", "0"], "throws", &["threw a C++ exception (std::runtime_error): the tile count is wrong"]),
        (&["exits", "0"], "exits", &["called exit(2)", "return from kernel_main"]),
    ];
    for (case, file, words) in cases {
        let (line, _, _) = misbehave(case, &[]);
        kernel_named(&line, file);
        for w in *words {
            assert!(line.contains(w), "{case:?}: `{w}` in {line}");
        }
    }
}

#[test]
fn a_kernel_that_never_calls_tensim_again_is_stopped_by_the_watchdog() {
    let (line, _, took) = misbehave(&["spins", "0"], &[("TENSIM_KERNEL_TIMEOUT", "1")]);
    kernel_named(&line, "spins");
    assert!(line.contains("made no tensim call for 1 s") && line.contains("`get_arg_val`"), "{line}");
    assert!(took < Duration::from_secs(30), "stopped within its bound: {took:?}");
    let (code, _, err, _) =
        tensim_env(&["build-and-run", &data("misbehaving"), "--", "spins", "0"], &[("TENSIM_KERNEL_TIMEOUT", "-3")]);
    assert_eq!(code, 1);
    assert!(err.contains("TENSIM_KERNEL_TIMEOUT=-3"), "{err}");
}

#[test]
fn a_poll_of_an_l1_word_nobody_writes_is_a_deadlock_naming_the_word() {
    let (line, _, took) = misbehave(&["polls", "0"], &[]);
    assert!(line.contains("deadlock"), "{line}");
    assert!(took < Duration::from_secs(60), "{took:?}");
    let (code, _, err, _) = tensim_env(&["build-and-run", &data("misbehaving"), "--", "polls", "0"], &[]);
    assert_eq!(code, 1);
    assert!(
        err.contains("kernels/polls.cpp` since cycle")
            && err.contains("to change from 0: the kernel polls it through a pointer"),
        "{err}"
    );
}

#[test]
fn the_host_programs_faults_and_exits_are_named() {
    let (line, out, _) = misbehave(&["host_null"], &[]);
    assert!(line.contains("the host program") && line.contains("null pointer"), "{line}");
    assert!(out.contains("the host dereferences a null pointer"), "its own output is kept: {out}");
    let (line, out, _) = misbehave(&["host_exit"], &[]);
    assert!(line.contains("the host program called exit(3)"), "{line}");
    assert!(
        out.contains("tensim: the host program called exit(3); the run so far:") && out.contains("program run(s)"),
        "{out}"
    );
    let (code, _, err, _) = tensim_env(&["build-and-run", &data("no_main")], &[]);
    assert_eq!(code, 1);
    assert!(err.contains("has no `main`") && err.contains("no_main.cpp"), "{err}");
}
