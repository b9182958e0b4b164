//! `tensim::invoke`, the entry the Python package uses: one command line run in this process gives the
//! same exit code and output as the binary, with nothing printed and errors handed back as text.

use std::process::Command;

fn argv(words: &[&str]) -> Vec<String> {
    std::iter::once("tensim").chain(words.iter().copied()).map(String::from).collect()
}

#[test]
fn a_run_in_process_prints_what_the_binary_prints() {
    let words = ["run", "loopback", "--size", "2"];
    let inv = tensim::invoke(&argv(&words));
    assert_eq!(inv.exit_code, 0, "{inv:?}");
    assert_eq!(inv.error, None);
    let bin = Command::new(env!("CARGO_BIN_EXE_tensim")).args(words).output().unwrap();
    let text = String::from_utf8_lossy(&bin.stdout);
    // The same report except the wall-clock figures of the last lines.
    let stable = |s: &str| -> Vec<String> {
        s.lines().filter(|l| !l.starts_with("simulated ") && !l.starts_with("host memory")).map(String::from).collect()
    };
    assert_eq!(stable(&inv.stdout), stable(&text));
    assert!(inv.stdout.starts_with("PASS loopback"));
}

#[test]
fn mistakes_come_back_as_messages_and_exit_code_one() {
    let inv = tensim::invoke(&argv(&["run", "loopback", "--size", "0"]));
    assert_eq!(inv.exit_code, 1);
    assert!(inv.error.as_deref().unwrap().starts_with("--size 0"), "{inv:?}");
    let inv = tensim::invoke(&argv(&["run", "loopback", "--size", "many"]));
    assert_eq!(inv.exit_code, 1);
    let e = inv.error.unwrap();
    assert!(e.contains("many") && !e.starts_with("error:") && !e.contains("For more information"), "{e}");
    let inv = tensim::invoke(&argv(&["--version"]));
    assert_eq!((inv.exit_code, inv.error), (0, None));
    assert!(inv.stdout.contains(env!("CARGO_PKG_VERSION")));
}

#[test]
fn captures_of_threads_side_by_side_stay_apart() {
    let runs: Vec<_> = ["loopback", "eltwise_binary", "noc_tile_transfer"]
        .iter()
        .map(|p| std::thread::spawn(move || (p, tensim::invoke(&argv(&["run", p])))))
        .collect();
    for h in runs {
        let (p, inv) = h.join().unwrap();
        assert_eq!(inv.exit_code, 0);
        assert!(inv.stdout.starts_with(&format!("PASS {p} ")), "{p}: {}", inv.stdout);
        assert_eq!(inv.stdout.matches("PASS").count(), 1);
    }
}
