//! Building a host program folder as it stands: its host sources (those its CMakeLists.txt names for
//! `add_executable`/`target_sources`, else every `.cpp` at its top level) compiled as C++20 against
//! tensim's TT-Metalium headers into one shared object with an entry point tensim calls, cached under a
//! content hash like kernels (re-checked against every header the program included).

use crate::compile::{Hash, cache_dir, compiler, dep_paths, deps_unchanged, user_messages, write_tree};
use crate::headers::HOST_HEADERS;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The entry point: runs `main` and turns an exception into a message (tt-metal's TT_THROW/TT_FATAL
/// throw, and so do tensim's host calls when tensim reports an error). `exit`, `_exit`, `_Exit` and
/// `quick_exit` called by the program (linked with `--wrap`, [`LINK_FLAGS`]) end `main` as `exit` would —
/// without unwinding its frames — and come back here with their code, so tensim can say so and print the
/// run summary; from a thread of the program's own, they end the process as usual.
const ENTRY: &str = r#"#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <exception>
#include <pthread.h>
#include "tensim/host_abi.h"
int main(int, char**);
namespace {
std::jmp_buf tensim_exit_jump;
volatile int tensim_exit_code = 0;
volatile bool tensim_in_main = false;
pthread_t tensim_main_thread;
[[noreturn]] void tensim_exit(int code, void (*real)(int)) {
    if (tensim_in_main && pthread_equal(pthread_self(), tensim_main_thread)) {
        tensim_exit_code = code;
        std::fflush(nullptr);
        std::longjmp(tensim_exit_jump, 1);
    }
    real(code);
    __builtin_unreachable();
}
}  // namespace
extern "C" {
void __real_exit(int);
void __real__exit(int);
void __real__Exit(int);
void __real_quick_exit(int);
[[noreturn]] void __wrap_exit(int code) { tensim_exit(code, __real_exit); }
[[noreturn]] void __wrap__exit(int code) { tensim_exit(code, __real__exit); }
[[noreturn]] void __wrap__Exit(int code) { tensim_exit(code, __real__Exit); }
[[noreturn]] void __wrap_quick_exit(int code) { tensim_exit(code, __real_quick_exit); }
}
extern "C" __attribute__((visibility("default"))) unsigned tensim_host_abi_version() { return TENSIM_HOST_ABI_VERSION; }
extern "C" __attribute__((visibility("default"))) int tensim_host_entry(const tensim_host_api* api, int argc,
                                                                         char** argv, char* err, unsigned errlen) {
    tensim::host_api = api;
    tensim_main_thread = pthread_self();
    tensim_in_main = true;
    if (setjmp(tensim_exit_jump) != 0) {
        tensim_in_main = false;
        std::snprintf(err, errlen, "%d", tensim_exit_code);
        return -2147483647;
    }
    try {
        int r = main(argc, argv);
        tensim_in_main = false;
        std::fflush(stdout);
        return r <= (-2147483647) ? 1 : r;
    } catch (const std::exception& e) {
        tensim_in_main = false;
        std::fflush(stdout);
        std::snprintf(err, errlen, "%s", e.what());
    } catch (...) {
        tensim_in_main = false;
        std::fflush(stdout);
        std::snprintf(err, errlen, "%s", "the host program ended with an exception that is not a std::exception");
    }
    return -2147483647 - 1;
}
"#;

/// Link flags of every host program: the exit calls come back to the entry (see [`ENTRY`]), and nothing may
/// stay undefined (a program without `main` is a link error tensim explains, not a loader error).
pub(crate) const LINK_FLAGS: &[&str] =
    &["-Wl,--wrap=exit,--wrap=_exit,--wrap=_Exit,--wrap=quick_exit", "-Wl,--no-undefined"];

/// tensim's stand-in for TT-Metalium's CMake package: `find_package(TT-Metalium)` finds it under the
/// prefix [`cmake_prefix`] returns. `TT::Metalium` (and `TT::STL`) carry tensim's host headers, C++20,
/// `-Wno-narrowing` (today's examples brace 64-bit addresses into `uint32_t` argument lists, as upstream's
/// tree build allows), the entry point tensim calls, and link the "executable" as a shared object that
/// `tensim build-and-run` loads (it cannot run on its own: the simulator is in tensim). `TT::CommonPCH` is
/// an empty target, and `execinfo` (a library tt-metal's assert header needs where the C library has no
/// `backtrace`) an empty one where the C library has it.
const CMAKE_CONFIG: &str = r#"# tensim's stand-in for the TT-Metalium CMake package (written by tensim for CMake builds of host programs).
# A target linking TT::Metalium builds into a shared object that `tensim build-and-run` loads and runs.
get_filename_component(_tensim_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET TT::Metalium)
    add_library(tensim_metalium INTERFACE)
    target_include_directories(tensim_metalium INTERFACE "${_tensim_prefix}/include")
    target_compile_features(tensim_metalium INTERFACE cxx_std_20)
    target_compile_options(tensim_metalium INTERFACE -fPIC $<$<CXX_COMPILER_ID:GNU>:-Wno-narrowing>
                           $<$<CXX_COMPILER_ID:Clang>:-Wno-c++11-narrowing>)
    target_compile_definitions(tensim_metalium INTERFACE TENSIM TENSIM_HOST)
    target_sources(tensim_metalium INTERFACE "${_tensim_prefix}/src/tensim_host_entry.cpp")
    target_link_options(tensim_metalium INTERFACE -shared "-Wl,--wrap=exit,--wrap=_exit,--wrap=_Exit,--wrap=quick_exit"
                        -Wl,--no-undefined)
    add_library(TT::Metalium ALIAS tensim_metalium)
    add_library(tensim_stl INTERFACE)
    target_include_directories(tensim_stl INTERFACE "${_tensim_prefix}/include")
    add_library(TT::STL ALIAS tensim_stl)
    target_link_libraries(tensim_metalium INTERFACE tensim_stl)
    add_library(tensim_common_pch INTERFACE)
    add_library(TT::CommonPCH ALIAS tensim_common_pch)
    include(CheckFunctionExists)
    check_function_exists(backtrace TENSIM_HAVE_BACKTRACE)
    if(TENSIM_HAVE_BACKTRACE AND NOT TARGET execinfo)
        add_library(execinfo INTERFACE IMPORTED GLOBAL)
        message(STATUS "tensim: backtrace() is in the C library here: linking execinfo links nothing")
    endif()
endif()
set(TT-Metalium_FOUND TRUE)
"#;

/// Write the CMake package (headers, config, entry point) into the cache once per content; returns the
/// prefix to give CMake as `CMAKE_PREFIX_PATH`.
pub fn cmake_prefix() -> Result<PathBuf, String> {
    let cache = cache_dir()?;
    let mut files: Vec<(String, &str)> = HOST_HEADERS.iter().map(|(p, t)| (format!("include/{p}"), *t)).collect();
    files.push(("lib/cmake/TT-Metalium/TT-MetaliumConfig.cmake".into(), CMAKE_CONFIG));
    files.push(("src/tensim_host_entry.cpp".into(), ENTRY));
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    write_tree(&cache, "cmake-prefix", &refs)
}

/// The folder CMake configures to build the program in `dir`: `dir`, or the highest parent folder whose
/// CMakeLists reaches it through `add_subdirectory` (a program whose CMakeLists uses targets its parent
/// defines, such as a shared `…::Common` header target, builds only from there).
pub fn cmake_root(dir: &Path) -> PathBuf {
    let mut root = dir.to_path_buf();
    while let Some(parent) = root.parent() {
        let Ok(text) = std::fs::read_to_string(parent.join("CMakeLists.txt")) else { break };
        let name = root.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let adds = cmake_calls(&without_comments(&text), "add_subdirectory")
            .iter()
            .any(|c| c.first().is_some_and(|s| s.trim_end_matches('/') == name));
        if !adds {
            break;
        }
        root = parent.to_path_buf();
    }
    root
}

/// Build the program folder with CMake and return the built host program: the target of its first
/// `add_executable`. A generated top-level project finds tensim's package as TT-Metalium and adds the
/// folder (or the parent folder that adds it, [`cmake_root`]); the build folder lives in the cache.
pub fn build_with_cmake(dir: &Path) -> Result<PathBuf, String> {
    let lists = dir.join("CMakeLists.txt");
    let text = std::fs::read_to_string(&lists)
        .map_err(|e| format!("{}: {e} (a CMake build needs a CMakeLists.txt)", lists.display()))?;
    let target = cmake_calls(&without_comments(&text), "add_executable")
        .into_iter()
        .find_map(|c| c.first().map(|t| t.to_string()))
        .filter(|t| !t.is_empty() && !t.contains("${"))
        .ok_or_else(|| format!("{}: no add_executable(NAME …) to build", lists.display()))?;
    let prefix = cmake_prefix()?;
    let cxx = compiler()?;
    let dir = dir.canonicalize().map_err(|e| format!("program folder {}: {e}", dir.display()))?;
    let root = cmake_root(&dir);
    let build =
        cache_dir()?.join("cmake-builds").join(&Hash::new().add(dir.display().to_string().as_bytes()).hex()[..16]);
    let wrapper = build.join("tensim-project");
    std::fs::create_dir_all(&wrapper).map_err(|e| format!("cannot create {}: {e}", wrapper.display()))?;
    let quote = |p: &Path| p.display().to_string().replace('\\', "/").replace('"', "\\\"");
    let project = format!(
        "# Written by tensim: builds {dir} with tensim's TT-Metalium package.\n\
         cmake_minimum_required(VERSION 3.22)\n\
         project(tensim_build LANGUAGES C CXX)\n\
         find_package(TT-Metalium REQUIRED)\n\
         add_subdirectory(\"{root}\" \"${{CMAKE_BINARY_DIR}}/program\")\n\
         file(GENERATE OUTPUT \"${{CMAKE_BINARY_DIR}}/tensim-target.txt\" CONTENT \"$<TARGET_FILE:{target}>\")\n",
        dir = quote(&dir),
        root = quote(&root),
    );
    let lists_path = wrapper.join("CMakeLists.txt");
    if std::fs::read_to_string(&lists_path).ok().as_deref() != Some(project.as_str()) {
        std::fs::write(&lists_path, &project).map_err(|e| format!("cannot write {}: {e}", lists_path.display()))?;
    }
    let out_dir = build.join("build");
    // Nothing CMake reads changed since the last build of this folder: its product is current.
    let stamp = build.join("tensim-inputs.hash");
    let inputs = tree_hash(&root, &[&prefix, &cxx], &project);
    if std::fs::read_to_string(&stamp).ok().as_deref() == Some(inputs.as_str())
        && let Ok(recorded) = std::fs::read_to_string(out_dir.join("tensim-target.txt"))
        && Path::new(recorded.trim()).is_file()
    {
        return Ok(PathBuf::from(recorded.trim()));
    }
    let run = |args: &[&std::ffi::OsStr]| -> Result<(), String> {
        let out = Command::new("cmake").args(args).output().map_err(|e| {
            format!(
                "cannot run cmake: {e} (install CMake 3.22 or newer, e.g. `pip install cmake`, or build without CMake)"
            )
        })?;
        if !out.status.success() {
            return Err(format!(
                "cmake failed for {}:\n{}{}",
                dir.display(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(())
    };
    let prefix_arg = format!("-DCMAKE_PREFIX_PATH={}", prefix.display());
    // Named outright: a build folder's cache would otherwise keep the package of an earlier tensim.
    let package_arg = format!("-DTT-Metalium_DIR={}", prefix.join("lib/cmake/TT-Metalium").display());
    let cxx_arg = format!("-DCMAKE_CXX_COMPILER={}", cxx.display());
    run(&[
        "-S".as_ref(),
        wrapper.as_os_str(),
        "-B".as_ref(),
        out_dir.as_os_str(),
        prefix_arg.as_ref(),
        package_arg.as_ref(),
        cxx_arg.as_ref(),
        "-DCMAKE_BUILD_TYPE=Release".as_ref(),
    ])?;
    run(&["--build".as_ref(), out_dir.as_os_str(), "--target".as_ref(), target.as_ref()])?;
    let recorded = std::fs::read_to_string(out_dir.join("tensim-target.txt"))
        .map_err(|e| format!("cmake built {target} but tensim cannot find where: {e}"))?;
    let built = PathBuf::from(recorded.trim());
    if !built.is_file() {
        return Err(format!("cmake built no {} (expected at {})", target, built.display()));
    }
    std::fs::write(&stamp, inputs).map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    Ok(built)
}

/// A hash of every file of a program tree CMake may read (CMake scripts and C/C++ sources and headers, by
/// path and content), of `paths` and of `extra`.
fn tree_hash(root: &Path, paths: &[&Path], extra: &str) -> String {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| {
                ["txt", "cmake", "cpp", "cc", "cxx", "c", "h", "hpp", "hh", "inl"]
                    .contains(&x.to_string_lossy().as_ref())
            }) {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut h = Hash::new();
    for f in files {
        h.add(f.display().to_string().as_bytes()).add(&std::fs::read(&f).unwrap_or_default());
    }
    for p in paths {
        h.add(p.display().to_string().as_bytes());
    }
    h.add(extra.as_bytes());
    h.hex()
}

/// The host sources of a program folder.
pub fn host_sources(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let cmake = dir.join("CMakeLists.txt");
    let mut found = Vec::new();
    if let Ok(text) = std::fs::read_to_string(&cmake) {
        for src in cmake_sources(&text) {
            let p = dir.join(&src);
            if !p.is_file() {
                return Err(format!(
                    "{}: names source `{src}`, which is not a file in {}",
                    cmake.display(),
                    dir.display()
                ));
            }
            found.push(p);
        }
    }
    if found.is_empty() {
        let rd = std::fs::read_dir(dir).map_err(|e| format!("program folder {}: {e}", dir.display()))?;
        let mut v: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "cpp" || x == "cc" || x == "cxx"))
            .collect();
        v.sort();
        found = v;
    }
    if found.is_empty() {
        return Err(format!(
            "{}: no host program found (no CMakeLists.txt naming sources and no .cpp file at the top of the folder)",
            dir.display()
        ));
    }
    Ok(found)
}

/// The source files a CMakeLists names in `add_executable(…)` and `target_sources(…)` (variables and
/// generator expressions are not expanded: such sources are skipped).
fn cmake_sources(text: &str) -> Vec<String> {
    let text = without_comments(text);
    let mut out = Vec::new();
    for cmd in ["add_executable", "target_sources"] {
        for call in cmake_calls(&text, cmd) {
            for tok in call.iter().skip(1) {
                let tok = tok.strip_prefix("${CMAKE_CURRENT_SOURCE_DIR}/").unwrap_or(tok);
                if (tok.ends_with(".cpp") || tok.ends_with(".cc") || tok.ends_with(".cxx")) && !tok.contains("${") {
                    let tok = tok.to_string();
                    if !out.contains(&tok) {
                        out.push(tok);
                    }
                }
            }
        }
    }
    out
}

/// The arguments of every `command(…)` call in a CMakeLists text (comments removed; one level of parentheses).
fn cmake_calls<'a>(text: &'a str, command: &str) -> Vec<Vec<&'a str>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(command) {
        let before_ok = rest[..i].chars().last().is_none_or(|c| !c.is_alphanumeric() && c != '_');
        rest = &rest[i + command.len()..];
        let Some(open) = rest.trim_start().strip_prefix('(') else { continue };
        let Some(close) = open.find(')') else { break };
        if before_ok {
            out.push(open[..close].split_whitespace().map(|t| t.trim_matches('"')).collect());
        }
    }
    out
}

fn without_comments(text: &str) -> String {
    text.lines().map(|l| l.split('#').next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// Folders whose headers a program gets through interface targets its parents define: for each of the two
/// parent folders' CMakeLists, every `add_subdirectory(X)` whose own CMakeLists exports
/// `target_include_directories(… INTERFACE ${CMAKE_CURRENT_SOURCE_DIR}…)` gives `X` (or the named
/// sub-folder).
fn interface_includes(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for parent in dir.ancestors().skip(1).take(2) {
        let Ok(text) = std::fs::read_to_string(parent.join("CMakeLists.txt")) else { continue };
        for call in cmake_calls(&without_comments(&text), "add_subdirectory") {
            let Some(sub) = call.first() else { continue };
            let sub_dir = parent.join(sub);
            let Ok(sub_text) = std::fs::read_to_string(sub_dir.join("CMakeLists.txt")) else { continue };
            for args in cmake_calls(&without_comments(&sub_text), "target_include_directories") {
                if !args.contains(&"INTERFACE") {
                    continue;
                }
                for a in args.iter().filter(|a| a.starts_with("${CMAKE_CURRENT_SOURCE_DIR}")) {
                    let rel = a.trim_start_matches("${CMAKE_CURRENT_SOURCE_DIR}").trim_start_matches('/');
                    let inc = if rel.is_empty() { sub_dir.clone() } else { sub_dir.join(rel) };
                    if inc.is_dir() && !out.contains(&inc) {
                        out.push(inc);
                    }
                }
            }
        }
    }
    out
}

/// Build (or find in the cache) the shared object of the host program in `dir`.
pub fn build(dir: &Path) -> Result<PathBuf, String> {
    // Absolute from here on: the cache key and the compiler's paths must not depend on the current folder.
    let dir = dir.canonicalize().map_err(|e| format!("program folder {}: {e}", dir.display()))?;
    let sources = host_sources(&dir)?;
    let cxx = compiler()?;
    let cache = cache_dir()?;
    let include = write_tree(&cache, "host-include", HOST_HEADERS)?;
    // The folder and its two parents (examples include their siblings' headers, `matmul_common/…`), and the
    // folders interface targets of the parents' CMakeLists export (`Matmul::Common` → `matmul_common/`).
    let mut includes = vec![dir.clone()];
    includes.extend(dir.ancestors().skip(1).take(2).map(Path::to_path_buf));
    for extra in interface_includes(&dir) {
        if !includes.contains(&extra) {
            includes.push(extra);
        }
    }
    let mut h = Hash::new();
    h.add(ENTRY.as_bytes()).add(include.display().to_string().as_bytes()).add(cxx.display().to_string().as_bytes());
    for s in &sources {
        let text = std::fs::read(s).map_err(|e| format!("host source {}: {e}", s.display()))?;
        h.add(s.display().to_string().as_bytes()).add(&text);
    }
    for i in &includes {
        h.add(i.display().to_string().as_bytes());
    }
    let key = h.hex();
    let out_dir = cache.join("hosts");
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    let so = out_dir.join(format!("{key}.so"));
    let deps = out_dir.join(format!("{key}.deps"));
    if so.exists() && deps_unchanged(&deps) {
        return Ok(so);
    }
    // Temporary names unique to this build (other processes and threads may build the same program).
    let pid = crate::compile::unique_suffix();
    let entry = out_dir.join(format!("{key}-{pid}-entry.cpp"));
    let tmp = out_dir.join(format!("{key}-{pid}.so.tmp"));
    std::fs::write(&entry, ENTRY).map_err(|e| format!("cannot write {}: {e}", entry.display()))?;
    let mut record = String::new();
    let mut objects = Vec::new();
    let mut result = Ok(());
    for (i, src) in sources.iter().chain(std::iter::once(&entry)).enumerate() {
        let obj = out_dir.join(format!("{key}-{pid}-{i}.o"));
        let dfile = out_dir.join(format!("{key}-{pid}-{i}.d"));
        let mut cmd = Command::new(&cxx);
        cmd.args(["-std=c++20", "-O1", "-fPIC", "-Wno-narrowing", "-c", "-MMD", "-MF"]).arg(&dfile);
        cmd.arg("-I").arg(&include);
        for inc in &includes {
            cmd.arg("-I").arg(inc);
        }
        cmd.args(["-DTENSIM", "-DTENSIM_HOST"]).arg("-o").arg(&obj).arg(src);
        let out = cmd.output().map_err(|e| format!("cannot run the C++ compiler {}: {e}", cxx.display()))?;
        if !out.status.success() {
            result = Err(format!(
                "cannot compile host source {}:\n{}",
                src.display(),
                user_messages(&String::from_utf8_lossy(&out.stderr), &entry)
            ));
            let _ = std::fs::remove_file(&dfile);
            break;
        }
        let d = std::fs::read_to_string(&dfile).unwrap_or_default();
        let _ = std::fs::remove_file(&dfile);
        for p in dep_paths(&d) {
            if p.starts_with(&include) || p == entry || sources.contains(&p) {
                continue;
            }
            if let Ok(bytes) = std::fs::read(&p) {
                let _ = writeln!(record, "{}\t{}", Hash::new().add(&bytes).hex(), p.display());
            }
        }
        objects.push(obj);
    }
    if result.is_ok() {
        let out = Command::new(&cxx)
            .args(["-shared", "-o"])
            .arg(&tmp)
            .args(&objects)
            .args(LINK_FLAGS)
            .output()
            .map_err(|e| format!("cannot run the C++ compiler {}: {e}", cxx.display()))?;
        if !out.status.success() {
            result = Err(link_error(&dir, &sources, &String::from_utf8_lossy(&out.stderr)));
        }
    }
    let _ = std::fs::remove_file(&entry);
    for o in &objects {
        let _ = std::fs::remove_file(o);
    }
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    std::fs::write(&deps, record).map_err(|e| format!("cannot write {}: {e}", deps.display()))?;
    std::fs::rename(&tmp, &so).map_err(|e| format!("cannot move the host program into {}: {e}", so.display()))?;
    Ok(so)
}

/// The message of a failed host link: a missing `main` said plainly, else the linker's words.
pub(crate) fn link_error(dir: &Path, sources: &[PathBuf], stderr: &str) -> String {
    if stderr.contains("undefined reference to `main'") || stderr.contains("undefined reference to 'main'") {
        let names: Vec<String> = sources.iter().map(|s| s.display().to_string()).collect();
        return format!(
            "the host program of {} has no `main`: none of its host sources ({}) defines `int main(int argc, char** argv)`{}",
            dir.display(),
            names.join(", "),
            if dir.join("CMakeLists.txt").exists() {
                " (the sources are those its CMakeLists.txt names in add_executable/target_sources)"
            } else {
                ""
            }
        );
    }
    let stderr = stderr.trim();
    if stderr.is_empty() {
        return format!("cannot link the host program of {}: the linker failed and printed nothing", dir.display());
    }
    format!("cannot link the host program of {}:\n{stderr}", dir.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cmake_sources_are_found() {
        let t = "project(x)\nadd_executable(metal_example_loopback)\n# add_executable(old old.cpp)\ntarget_sources(metal_example_loopback PRIVATE loopback.cpp ${CMAKE_CURRENT_SOURCE_DIR}/extra.cpp ${GEN}/gen.cpp)\n";
        assert_eq!(cmake_sources(t), vec!["loopback.cpp".to_string(), "extra.cpp".to_string()]);
        assert_eq!(cmake_sources("add_executable(a a.cpp b.cc)"), vec!["a.cpp".to_string(), "b.cc".to_string()]);
    }
}
