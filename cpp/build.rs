//! Build script of the `cpp` crate: the header trees tensim ships for C++ (`kernel/include/` for kernels,
//! `host/include/` for host programs, `shared/include/` for both) become `headers.rs` in `OUT_DIR`, so a
//! header added to a folder is in the binary without a second step; and the two C ABI tables (`struct
//! tensim_api` of `tensim/abi.h`, `struct tensim_host_api` of `tensim/host_abi.h`) become `abi_check.rs`,
//! compile-time assertions that the Rust tables list the same members, in the same order, at the same
//! offsets, with the same function types.

use std::path::{Path, PathBuf};

fn walk(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.expect("a folder entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                found.push(p.strip_prefix(root).expect("under the root").display().to_string());
            }
        }
    }
    found.sort();
    found
}

/// The Rust type of a C parameter or return type of the ABI headers.
fn rust_type(c: &str) -> String {
    let c = c.trim().replace("struct ", "");
    let c = c.split_whitespace().collect::<Vec<_>>().join(" ");
    // Drop a parameter name: the last word when it is not part of the type.
    let mut t = c.clone();
    if let Some((ty, name)) = c.rsplit_once([' ', '*']) {
        let is_type_word = ["uint32_t", "int32_t", "uint64_t", "int64_t", "uint8_t", "float", "void", "char", "const"]
            .contains(&name)
            || name.starts_with("tensim_");
        if !is_type_word && !name.is_empty() {
            t = if c[ty.len()..].starts_with('*') { format!("{ty}*") } else { ty.to_string() };
        }
    }
    let t = t.replace(" *", "*").replace("* ", "*");
    let stars = t.matches('*').count();
    let base = t.trim_end_matches(['*', ' ']).to_string();
    let (consted, base) = match base.strip_prefix("const ") {
        Some(b) => (true, b.to_string()),
        None => (false, base),
    };
    let base = base.trim_end_matches(" const").to_string();
    let scalar = match base.as_str() {
        "uint32_t" | "unsigned" => "u32",
        "int32_t" => "i32",
        "uint64_t" => "u64",
        "int64_t" => "i64",
        "uint8_t" => "u8",
        "float" => "f32",
        "char" => "c_char",
        "void" if stars == 0 => "()",
        "void" => "c_void",
        "tensim_kernel_config" => "KernelConfigC",
        other => panic!("abi check: no Rust type for C type `{other}` (in `{c}`)"),
    };
    match stars {
        0 => scalar.to_string(),
        1 => format!("*{} {scalar}", if consted { "const" } else { "mut" }),
        // `const char* const*`: a pointer to const pointers to const char.
        _ => format!("*const *const {scalar}"),
    }
}

/// Compile-time checks of one ABI table: `(field, offset)` and each function field's type.
fn abi_check(header: &str, strukt: &str, rust: &str, abi: &str) -> String {
    let start = header.find(&format!("struct {strukt} {{")).unwrap_or_else(|| panic!("abi check: no struct {strukt}"));
    let body = &header[start..];
    let body = &body[body.find('{').expect("a struct body") + 1..body.find("};").expect("the struct's end")];
    let code: String = body.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join(" ");
    let mut out = String::new();
    let mut fields = Vec::new();
    for decl in code.split(';').map(str::trim).filter(|d| !d.is_empty()) {
        if let Some(open) = decl.find("(*") {
            let ret = &decl[..open];
            let name_end = decl[open..].find(')').expect("a pointer name") + open;
            let name = decl[open + 2..name_end].trim();
            let params = decl[name_end + 1..].trim().trim_start_matches('(').trim_end_matches(')');
            let params: Vec<String> = if params.trim() == "void" || params.trim().is_empty() {
                Vec::new()
            } else {
                params.split(',').map(rust_type).collect()
            };
            let ret = rust_type(ret);
            let ret = if ret == "()" { String::new() } else { format!(" -> {ret}") };
            out.push_str(&format!("    let _: extern \"{abi}\" fn({}){ret} = t.{name};\n", params.join(", ")));
            fields.push(name.to_string());
        } else {
            let name = decl.split_whitespace().last().expect("a field name");
            assert_eq!(decl.split_whitespace().next(), Some("uint32_t"), "abi check: {decl}");
            fields.push(name.to_string());
        }
    }
    let mut checks = String::new();
    for (i, f) in fields.iter().enumerate() {
        // The version word is padded to the pointers' 8 bytes.
        checks.push_str(&format!("    assert!(core::mem::offset_of!({rust}, {f}) == {});\n", 8 * i));
    }
    checks.push_str(&format!("    assert!(core::mem::size_of::<{rust}>() == {});\n", 8 * fields.len()));
    format!(
        "/// `struct {strukt}`: every member at the offset C gives it.\nconst _: () = {{\n{checks}}};\n\
         /// `struct {strukt}`: every function member of the C type.\n#[allow(dead_code)]\nfn _{strukt}_types(t: &{rust}) {{\n{out}}}\n"
    )
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let mut s = String::from("// The header trees (generated by build.rs from the folders).\n");
    for (name, dir, what) in [("HEADERS", "kernel/include", "kernel"), ("HOST_HEADERS", "host/include", "host")] {
        s.push_str(&format!("/// Every {what} header: (path under the include root, text).\n"));
        s.push_str(&format!("pub const {name}: &[(&str, &str)] = &[\n"));
        let mut files: Vec<(String, &str)> = walk(&root.join(dir)).into_iter().map(|f| (f, dir)).collect();
        files.extend(walk(&root.join("shared/include")).into_iter().map(|f| (f, "shared/include")));
        files.sort();
        for w in files.windows(2) {
            assert!(w[0].0 != w[1].0, "{} is in both {} and {}: keep one", w[0].0, w[0].1, w[1].1);
        }
        for (f, d) in files {
            let full = root.join(d).join(&f);
            s.push_str(&format!("    ({f:?}, include_str!({:?})),\n", full.display().to_string()));
        }
        s.push_str("];\n");
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("headers.rs");
    std::fs::write(&out, s).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    let kernel_abi = std::fs::read_to_string(root.join("kernel/include/tensim/abi.h")).expect("tensim/abi.h");
    let host_abi = std::fs::read_to_string(root.join("host/include/tensim/host_abi.h")).expect("tensim/host_abi.h");
    let checks = format!(
        "// Generated by build.rs from tensim/abi.h and tensim/host_abi.h.\n{}{}",
        abi_check(&kernel_abi, "tensim_api", "crate::abi::TensimApi", "C-unwind"),
        abi_check(&host_abi, "tensim_host_api", "crate::host::abi::HostApi", "C"),
    );
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("abi_check.rs");
    std::fs::write(&out, checks).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    for d in ["kernel/include", "host/include", "shared/include"] {
        println!("cargo:rerun-if-changed={d}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
