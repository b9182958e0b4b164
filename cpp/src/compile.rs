//! Building a C++ kernel: the host C++ compiler (`$CXX`, else `g++`, `c++` or `clang++` on `PATH`) turns
//! a generated wrapper — tensim's API header, the user's kernel file, and an entry point — into a
//! shared object, one per (file, processor, compile-time args, defines, arch) as tt-metal builds one
//! binary per tuple. Objects are cached under a content hash of all of that plus tensim's headers and
//! the compiler; a hit is re-checked against the contents of every header the kernel included.

use crate::headers::HEADERS;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What a kernel is built for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// BRISC (`riscv` 0) or NCRISC (1), on `noc`.
    DataMovement { riscv: u32, noc: u32, dynamic_noc: bool },
    /// One TRISC's build of a compute kernel.
    Compute { trisc: TriscBuild, fidelity: u32, approx: bool, fp32_dest_acc: bool, dst_full_sync: bool },
    /// An ERISC.
    Ethernet { noc: u32 },
}

/// The three builds of a compute kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TriscBuild {
    Unpack,
    Math,
    Pack,
}

impl TriscBuild {
    fn defines(self) -> (&'static str, &'static str, &'static str, u32) {
        match self {
            TriscBuild::Unpack => ("TRISC_UNPACK", "UCK_CHLKC_UNPACK", "chlkc_unpack", 0),
            TriscBuild::Math => ("TRISC_MATH", "UCK_CHLKC_MATH", "chlkc_math", 1),
            TriscBuild::Pack => ("TRISC_PACK", "UCK_CHLKC_PACK", "chlkc_pack", 2),
        }
    }
}

/// One build.
#[derive(Debug, Clone)]
pub struct Spec {
    /// The kernel file.
    pub source: PathBuf,
    pub target: Target,
    pub compile_args: Vec<u32>,
    pub named_args: Vec<(String, u32)>,
    pub defines: Vec<(String, String)>,
    /// `ARCH_WORMHOLE`, `ARCH_BLACKHOLE` or `ARCH_GRAYSKULL`.
    pub arch_define: &'static str,
    /// Where the host appended TensorAccessorArgs in `compile_args` (today's layout), when known.
    pub accessor_blocks: Vec<u32>,
    /// Build for the older one-word accessor layout: the compile-time args lose each block's page-size word.
    pub one_word_accessors: bool,
}

/// The marker tensim's headers put in the compile error of a kernel that reads accessor args (or
/// compile-time args) at offsets only the one-word layout explains.
const ONE_WORD_MARKER: &str = "tensim-accessor-layout-one-word";

/// 128-bit FNV-1a (two 64-bit lanes): a stable content hash for cache keys.
#[derive(Clone)]
pub(crate) struct Hash([u64; 2]);

impl Hash {
    pub fn new() -> Hash {
        Hash([0xcbf2_9ce4_8422_2325, 0x6c62_272e_07bb_0142])
    }
    pub fn add(&mut self, bytes: &[u8]) -> &mut Hash {
        for lane in &mut self.0 {
            for &b in bytes.iter().chain(&(bytes.len() as u64).to_le_bytes()) {
                *lane ^= b as u64;
                *lane = lane.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        self
    }
    pub fn hex(&self) -> String {
        format!("{:016x}{:016x}", self.0[0], self.0[1])
    }
}

/// Where compiled kernels and the header tree live: `$TENSIM_CACHE_DIR`, else `$XDG_CACHE_HOME/tensim`,
/// else `~/.cache/tensim`.
pub fn cache_dir() -> Result<PathBuf, String> {
    let dir = if let Some(d) = std::env::var_os("TENSIM_CACHE_DIR") {
        PathBuf::from(d)
    } else if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        PathBuf::from(d).join("tensim")
    } else if let Some(h) = std::env::var_os("HOME") {
        PathBuf::from(h).join(".cache").join("tensim")
    } else {
        std::env::temp_dir().join("tensim-cache")
    };
    std::fs::create_dir_all(dir.join("kernels")).map_err(|e| {
        format!("cannot create the kernel cache {}: {e} (set TENSIM_CACHE_DIR to a writable folder)", dir.display())
    })?;
    Ok(dir)
}

/// Write tensim's kernel header tree into the cache (once per content) and return its root.
pub fn header_root(cache: &Path) -> Result<PathBuf, String> {
    write_tree(cache, "include", HEADERS)
}

/// A name part unique to this call in this process and among processes (the process id and a counter), for
/// temporary files that threads and processes building the same thing at once must not share.
pub(crate) fn unique_suffix() -> String {
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    format!("{}-{}", std::process::id(), CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
}

/// Write a header tree into the cache as `<name>-<content hash>` (once per content) and return its root.
pub(crate) fn write_tree(cache: &Path, name: &str, headers: &[(&str, &str)]) -> Result<PathBuf, String> {
    let mut h = Hash::new();
    for (p, t) in headers {
        h.add(p.as_bytes()).add(t.as_bytes());
    }
    let root = cache.join(format!("{name}-{}", &h.hex()[..16]));
    if root.join(".complete").exists() {
        return Ok(root);
    }
    let tmp = cache.join(format!("{name}-tmp-{}", unique_suffix()));
    let _ = std::fs::remove_dir_all(&tmp);
    for (p, t) in headers {
        let f = tmp.join(p);
        std::fs::create_dir_all(f.parent().expect("a header path has a folder"))
            .and_then(|()| std::fs::write(&f, t))
            .map_err(|e| format!("cannot write tensim's headers into {}: {e}", tmp.display()))?;
    }
    std::fs::write(tmp.join(".complete"), b"").map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    // Another process may have finished first: its copy is the same.
    if std::fs::rename(&tmp, &root).is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    Ok(root)
}

/// The host C++ compiler: `$CXX`, else the first of `g++`, `c++`, `clang++` on `$PATH`.
pub fn compiler() -> Result<PathBuf, String> {
    find_compiler(std::env::var_os("CXX").as_deref(), std::env::var_os("PATH").as_deref())
}

fn find_compiler(cxx: Option<&std::ffi::OsStr>, path: Option<&std::ffi::OsStr>) -> Result<PathBuf, String> {
    if let Some(cxx) = cxx {
        let p = PathBuf::from(cxx);
        if p.is_absolute() && p.is_file() {
            return Ok(p);
        }
        if let Some(found) = on_path(&cxx.to_string_lossy(), path) {
            return Ok(found);
        }
        return Err(format!(
            "CXX={} is not an executable file or a program on PATH; point CXX at a C++20 compiler",
            cxx.to_string_lossy()
        ));
    }
    for name in ["g++", "c++", "clang++"] {
        if let Some(p) = on_path(name, path) {
            return Ok(p);
        }
    }
    Err("no C++ compiler found: tensim compiles C++ kernels with the host compiler (g++ 12 or newer, \
         C++20). Install it (Debian/Ubuntu: apt install g++) or set CXX"
        .into())
}

fn on_path(name: &str, path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    path.and_then(|paths| std::env::split_paths(paths).map(|d| d.join(name)).find(|p| p.is_file()))
}

impl Spec {
    fn flags(&self) -> Vec<String> {
        let mut f = vec![format!("-D{}", self.arch_define), "-DKERNEL_BUILD".into(), "-DTENSIM".into()];
        match &self.target {
            Target::DataMovement { riscv, noc, dynamic_noc } => {
                f.push(if *riscv == 0 { "-DCOMPILE_FOR_BRISC".into() } else { "-DCOMPILE_FOR_NCRISC".into() });
                f.push(format!("-DPROCESSOR_INDEX={riscv}"));
                f.push(format!("-DNOC_INDEX={noc}"));
                f.push(format!("-DNOC_MODE={}", *dynamic_noc as u32));
            }
            Target::Ethernet { noc } => {
                f.push("-DCOMPILE_FOR_ERISC".into());
                f.push(format!("-DNOC_INDEX={noc}"));
            }
            Target::Compute { trisc, fidelity, approx, fp32_dest_acc, dst_full_sync } => {
                let (t, uck, ns, n) = trisc.defines();
                f.push(format!("-D{t}"));
                f.push(format!("-D{uck}"));
                f.push(format!("-DNAMESPACE={ns}"));
                f.push(format!("-DCOMPILE_FOR_TRISC={n}"));
                f.push(format!("-DPROCESSOR_INDEX={}", n + 2));
                f.push(format!("-DTENSIM_MATH_FIDELITY={fidelity}"));
                f.push(format!("-DTENSIM_APPROX={}", *approx as u32));
                f.push(format!("-DTENSIM_DST_ACCUM_MODE={}", *fp32_dest_acc as u32));
                f.push(format!("-DTENSIM_DST_SYNC_FULL={}", *dst_full_sync as u32));
            }
        }
        let compile_args = self.kernel_compile_args();
        if !compile_args.is_empty() {
            let list: Vec<String> = compile_args.iter().map(|v| v.to_string()).collect();
            f.push(format!("-DKERNEL_COMPILE_TIME_ARGS={}", list.join(",")));
        }
        if !self.accessor_blocks.is_empty() {
            let list: Vec<String> = self.accessor_blocks.iter().map(|v| v.to_string()).collect();
            f.push(format!("-DTENSIM_TA_BLOCKS={}", list.join(",")));
        }
        if self.one_word_accessors {
            f.push("-DTENSIM_TA_ONE_WORD=1".into());
        }
        if !self.named_args.is_empty() {
            let list: Vec<String> = self.named_args.iter().map(|(k, v)| format!("{{\"{k}\",{v}}}")).collect();
            f.push(format!("-DKERNEL_COMPILE_TIME_ARG_MAP={}", list.join(",")));
        }
        for (k, v) in &self.defines {
            f.push(format!("-D{k}={v}"));
        }
        // With a tt-metal checkout, headers tensim does not ship (kernel helper libraries such as
        // ttnn/cpp/ttnn/kernel_lib/…) are found there, after tensim's own.
        if let Some(home) = std::env::var_os("TT_METAL_HOME").map(PathBuf::from).filter(|h| h.is_dir()) {
            for sub in ["", "ttnn/cpp", "ttnn", "tt_metal"] {
                let d = if sub.is_empty() { home.clone() } else { home.join(sub) };
                if d.is_dir() {
                    f.push("-idirafter".into());
                    f.push(d.display().to_string());
                }
            }
        }
        f
    }

    /// The compile-time args the kernel sees: as given, or without each accessor block's page-size word in
    /// the one-word layout.
    fn kernel_compile_args(&self) -> Vec<u32> {
        if !self.one_word_accessors {
            return self.compile_args.clone();
        }
        let drop: Vec<usize> = self.accessor_blocks.iter().map(|&b| b as usize + 1).collect();
        self.compile_args.iter().enumerate().filter(|(i, _)| !drop.contains(i)).map(|(_, &v)| v).collect()
    }

    /// The wrapper translation unit: the API, the kernel, and the entry point.
    fn wrapper(&self, source: &str) -> String {
        let path = self.source.display().to_string().replace('\\', "\\\\").replace('"', "\\\"");
        let mut w = String::new();
        let call = match &self.target {
            Target::Compute { .. } => {
                w.push_str("#include \"tensim/compute.h\"\n");
                // The simplified form (a global kernel_main and no NAMESPACE/MAIN) runs as is.
                if source.contains("void kernel_main")
                    && !source.contains("namespace NAMESPACE")
                    && !source.contains("void MAIN")
                {
                    "kernel_main();"
                } else {
                    "NAMESPACE::MAIN;"
                }
            }
            _ => {
                w.push_str("#include \"dataflow_api.h\"\n");
                "kernel_main();"
            }
        };
        let _ = write!(
            w,
            "#include \"tensim/l1_access.h\"\n#include \"{path}\"\n#include \"tensim/kernel_entry.h\"\nextern \"C\" __attribute__((visibility(\"default\"))) void tensim_kernel_entry(const tensim_api* api) {{\n  tensim::enter(api);\n  TENSIM_RUN_KERNEL({call})\n}}\n"
        );
        w
    }
}

/// The compiler flags of every kernel build. Every load and store calls a hook first (the thread-sanitizer
/// instrumentation without its runtime — [`LINK_LIBS`] replaces the default libraries, so its runtime is
/// never linked; unlike the address sanitizer's, it elides no access as redundant, so every poll of a flag
/// and every store is seen): `tensim/l1_access.h` times those that reach L1. Kernels are
/// written for 32-bit RISC-V cores, where `(uint32_t)ptr` on an L1 pointer is exact, and on the host L1
/// address A sits at host address A (below 4 GiB), so such casts stay exact: `-fpermissive` lets them
/// compile (with their warning silenced). Large stack frames probe their pages one by one
/// (`-fstack-clash-protection`), so a local array too large for the kernel's stack faults on the stack's
/// guard page and is reported as a stack overflow instead of writing past it; `exit` and its kin end the
/// kernel with an error (`tensim/kernel_entry.h`) instead of the process.
const BUILD_FLAGS: &[&str] = &[
    "-std=c++20",
    "-O2",
    "-fpermissive",
    "-w",
    "-fPIC",
    "-shared",
    "-fvisibility=hidden",
    "-fsanitize=thread",
    "--param",
    "tsan-instrument-func-entry-exit=0",
    "--param",
    "tsan-distinguish-volatile=1",
    "-fstack-clash-protection",
    "-Wl,--wrap=exit,--wrap=_exit,--wrap=_Exit,--wrap=quick_exit",
    "-Wl,--no-undefined",
    "-nodefaultlibs",
    "-MMD",
];

/// The libraries a kernel links (after its source): the C++ runtime and the C library, and not the
/// sanitizer's runtime the compiler would add.
const LINK_LIBS: &[&str] = &["-lstdc++", "-lm", "-lc", "-lgcc_s", "-lgcc"];

/// Build (or find in the cache) the shared object of `spec`. A kernel written for the one-word accessor
/// layout (its build stops at the headers' marker) is built again for that layout; a marker file in the
/// cache remembers it, so later runs build it that way at once.
pub fn build(spec: &Spec) -> Result<PathBuf, String> {
    if spec.accessor_blocks.is_empty() || spec.one_word_accessors {
        return build_one(spec);
    }
    let mut one_word = spec.clone();
    one_word.one_word_accessors = true;
    let marker = cache_dir()?.join("kernels").join(format!("{}.one-word", build_key(spec)?));
    if marker.exists() {
        return build_one(&one_word);
    }
    match build_one(spec) {
        Err(e) if e.contains(ONE_WORD_MARKER) => {
            let so = build_one(&one_word)?;
            let _ = std::fs::write(&marker, b"");
            Ok(so)
        }
        r => r,
    }
}

/// The cache key of a build: the kernel's text and path, the header tree, the compiler and every flag.
fn build_key(spec: &Spec) -> Result<String, String> {
    let source = std::fs::read_to_string(&spec.source).map_err(|e| {
        format!("kernel file {}: {e} (paths are relative to the current folder, or absolute)", spec.source.display())
    })?;
    let cxx = compiler()?;
    let include = header_root(&cache_dir()?)?;
    let mut h = Hash::new();
    h.add(source.as_bytes()).add(spec.source.display().to_string().as_bytes());
    h.add(include.display().to_string().as_bytes()).add(cxx.display().to_string().as_bytes());
    for f in BUILD_FLAGS.iter().chain(LINK_LIBS).copied().chain(spec.flags().iter().map(String::as_str)) {
        h.add(f.as_bytes());
    }
    Ok(h.hex())
}

fn build_one(spec: &Spec) -> Result<PathBuf, String> {
    let source = std::fs::read_to_string(&spec.source).map_err(|e| {
        format!("kernel file {}: {e} (paths are relative to the current folder, or absolute)", spec.source.display())
    })?;
    let cxx = compiler()?;
    let cache = cache_dir()?;
    let include = header_root(&cache)?;
    let flags = spec.flags();
    let key = build_key(spec)?;
    let dir = cache.join("kernels");
    let so = dir.join(format!("{key}.so"));
    let deps = dir.join(format!("{key}.deps"));
    if so.exists() && deps_unchanged(&deps) {
        return Ok(so);
    }
    // Other processes and other threads of this one may be building the same kernel at the same time (the
    // last rename wins; the objects are identical).
    let pid = unique_suffix();
    let cpp = dir.join(format!("{key}-{pid}.cpp"));
    let tmp = dir.join(format!("{key}-{pid}.so.tmp"));
    let dfile = dir.join(format!("{key}-{pid}.d"));
    std::fs::write(&cpp, spec.wrapper(&source)).map_err(|e| format!("cannot write {}: {e}", cpp.display()))?;
    let kernel_dir = spec.source.parent().map(Path::to_path_buf).unwrap_or_default();
    let out = Command::new(&cxx)
        .args(BUILD_FLAGS)
        .arg("-MF")
        .arg(&dfile)
        .arg("-I")
        .arg(&include)
        .arg("-iquote")
        .arg(if kernel_dir.as_os_str().is_empty() { Path::new(".") } else { &kernel_dir })
        .args(&flags)
        .arg("-o")
        .arg(&tmp)
        .arg(&cpp)
        .args(LINK_LIBS)
        .output()
        .map_err(|e| format!("cannot run the C++ compiler {}: {e}", cxx.display()))?;
    let _ = std::fs::remove_file(&cpp);
    if !out.status.success() {
        let _ = std::fs::remove_file(&tmp);
        let _ = std::fs::remove_file(&dfile);
        return Err(format!(
            "cannot compile kernel {} ({}):\n{}",
            spec.source.display(),
            spec.target.describe(),
            user_messages(&String::from_utf8_lossy(&out.stderr), &cpp)
        ));
    }
    let d = std::fs::read_to_string(&dfile).unwrap_or_default();
    let _ = std::fs::remove_file(&dfile);
    let mut record = String::new();
    for p in dep_paths(&d) {
        if p == cpp || p.starts_with(&include) || p == spec.source {
            continue;
        }
        if let Ok(bytes) = std::fs::read(&p) {
            let _ = writeln!(record, "{}\t{}", Hash::new().add(&bytes).hex(), p.display());
        }
    }
    std::fs::write(&deps, record).map_err(|e| format!("cannot write {}: {e}", deps.display()))?;
    std::fs::rename(&tmp, &so).map_err(|e| format!("cannot move the compiled kernel into {}: {e}", so.display()))?;
    Ok(so)
}

impl Target {
    fn describe(&self) -> String {
        match self {
            Target::DataMovement { riscv, .. } => format!("data movement, RISCV_{riscv}"),
            Target::Ethernet { .. } => "ethernet".into(),
            Target::Compute { trisc, .. } => format!("compute, {} build", trisc.defines().0),
        }
    }
}

/// The compiler's messages without the lines about tensim's wrapper file: they start at the user's file.
pub(crate) fn user_messages(stderr: &str, wrapper: &Path) -> String {
    let w = wrapper.display().to_string();
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| {
            !(l.contains(&w) && (l.starts_with("In file included from") || l.trim_start().starts_with("from ")))
        })
        .collect();
    let text = lines.join("\n");
    if text.trim().is_empty() {
        let cxx = compiler().map(|c| c.display().to_string()).unwrap_or_else(|_| "the C++ compiler".into());
        return format!(
            "the compiler ({cxx}) failed and printed nothing: check that $CXX (or g++ on PATH) is a working C++20 compiler"
        );
    }
    text
}

/// The files a make-style dependency list names.
pub(crate) fn dep_paths(d: &str) -> Vec<PathBuf> {
    let joined = d.replace("\\\n", " ");
    let Some((_, deps)) = joined.split_once(": ") else { return Vec::new() };
    deps.split_whitespace().map(PathBuf::from).collect()
}

/// Whether every header recorded for a cached kernel still has the content it was built with.
pub(crate) fn deps_unchanged(deps: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(deps) else { return false };
    text.lines().all(|l| {
        let Some((hash, path)) = l.split_once('\t') else { return false };
        std::fs::read(path).is_ok_and(|b| Hash::new().add(&b).hex() == hash)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_stable_and_sensitive() {
        assert_eq!(Hash::new().add(b"kernel").hex(), Hash::new().add(b"kernel").hex());
        assert_ne!(Hash::new().add(b"kernel").hex(), Hash::new().add(b"kernels").hex());
        assert_ne!(Hash::new().add(b"ab").add(b"c").hex(), Hash::new().add(b"a").add(b"bc").hex());
    }

    #[test]
    fn a_missing_compiler_is_named() {
        let e = find_compiler(None, Some(std::ffi::OsStr::new("/nonexistent"))).unwrap_err();
        assert!(e.contains("no C++ compiler found") && e.contains("apt install g++"), "{e}");
        let e = find_compiler(Some(std::ffi::OsStr::new("no-such-c++")), Some(std::ffi::OsStr::new("/nonexistent")))
            .unwrap_err();
        assert!(e.contains("CXX=no-such-c++"), "{e}");
    }

    #[test]
    fn dependency_lists_are_parsed() {
        let d = "x.so: /a/b.cpp \\\n /a/c.h /d/e.hpp\n";
        assert_eq!(dep_paths(d), vec![PathBuf::from("/a/b.cpp"), PathBuf::from("/a/c.h"), PathBuf::from("/d/e.hpp")]);
    }

    #[test]
    fn wrapper_lines_are_dropped_from_messages() {
        let w = Path::new("/cache/k.cpp");
        let m = "In file included from /cache/k.cpp:2:\n/home/u/k.cpp:3:5: error: 'x' was not declared\n";
        assert_eq!(user_messages(m, w), "/home/u/k.cpp:3:5: error: 'x' was not declared");
    }
}
