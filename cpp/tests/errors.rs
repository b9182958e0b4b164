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

/// SFPI misuse in a C++ kernel: `dst_reg` outside any SFPU wrapper, and a vector past the DST section, are
/// errors naming the call.
#[test]
fn sfpi_misuse_is_named() {
    if let Err(e) = cpp::compile::compiler() {
        panic!("this test compiles C++ kernels and needs the host C++ compiler: {e}");
    }
    for (defines, want) in [
        (vec![("OUTSIDE".to_string(), "1".to_string())], "a dst_reg write outside an SFPU function"),
        (vec![], "_llk_math_eltwise_unary_sfpu_params_: dst_reg[1000]"),
    ] {
        let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
        let mut p = Program::new();
        let cfg = ComputeConfig { defines, ..Default::default() };
        cpp::create_kernel(&mut p, &mut dev, data("sfpi_misuse.cpp"), CoreCoord::new(0, 0), cfg).unwrap();
        let e = dev.enqueue_program(&p).unwrap_err().to_string();
        assert!(e.contains(want), "{e}");
    }
}
