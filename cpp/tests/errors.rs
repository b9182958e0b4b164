//! C++ kernel mistakes give clear errors: a compile error shows the user's file and line, a missing
//! kernel file is named, an API call from the wrong kind of kernel is named.

use sim_device::prelude::*;
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

#[test]
fn a_compile_error_names_the_users_file_and_line() {
    if let Err(e) = cpp::compile::compiler() {
        panic!("this test compiles C++ kernels and needs the host C++ compiler: {e}");
    }
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let mut p = Program::new();
    let path = data("broken_kernel.cpp");
    let e = cpp::create_kernel(&mut p, &mut dev, &path, CoreCoord::new(0, 0), DataMovementConfig::reader(vec![]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("cannot compile kernel") && e.contains("data movement, RISCV_1"), "{e}");
    assert!(e.contains(&format!("{}:5:", path.display())), "the message points at line 5 of the kernel: {e}");
    assert!(e.contains("undeclared_name"), "{e}");
    assert!(!e.contains("-0.cpp") && !e.contains("In file included from"), "tensim's wrapper is hidden: {e}");
}

#[test]
fn a_missing_kernel_file_is_named() {
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let mut p = Program::new();
    let e = cpp::create_kernel(&mut p, &mut dev, "no/such/kernel.cpp", CoreCoord::new(0, 0), ComputeConfig::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("kernel file no/such/kernel.cpp") && e.contains("No such file"), "{e}");
}
