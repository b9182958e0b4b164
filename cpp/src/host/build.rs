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
/// throw, and so do tensim's host calls when tensim reports an error).
const ENTRY: &str = r#"#include <cstdio>
#include <cstring>
#include <exception>
#include "tensim/host_abi.h"
int main(int, char**);
extern "C" __attribute__((visibility("default"))) int tensim_host_entry(const tensim_host_api* api, int argc,
                                                                         char** argv, char* err, unsigned errlen) {
    tensim::host_api = api;
    try {
        int r = main(argc, argv);
        std::fflush(stdout);
        return r == (-2147483647 - 1) ? 1 : r;
    } catch (const std::exception& e) {
        std::fflush(stdout);
        std::snprintf(err, errlen, "%s", e.what());
    } catch (...) {
        std::fflush(stdout);
        std::snprintf(err, errlen, "%s", "the host program ended with an exception that is not a std::exception");
    }
    return -2147483647 - 1;
}
"#;

/// tensim's stand-in for TT-Metalium's CMake package: `find_package(TT-Metalium)` finds it under the
/// prefix [`cmake_prefix`] returns. `TT::Metalium` (and `TT::STL`) carry tensim's host headers, C++20, the
/// entry point tensim calls, and link the "executable" as a shared object that `tensim build-and-run`
/// loads (it cannot run on its own: the simulator is in tensim).
const CMAKE_CONFIG: &str = r#"# tensim's stand-in for the TT-Metalium CMake package (written by tensim; see `tensim build-and-run --cmake`).
# A target linking TT::Metalium builds into a shared object that `tensim build-and-run` loads and runs.
get_filename_component(_tensim_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET TT::Metalium)
    add_library(tensim_metalium INTERFACE)
    target_include_directories(tensim_metalium INTERFACE "${_tensim_prefix}/include")
    target_compile_features(tensim_metalium INTERFACE cxx_std_20)
    target_compile_options(tensim_metalium INTERFACE -fPIC)
    target_compile_definitions(tensim_metalium INTERFACE TENSIM TENSIM_HOST)
    target_sources(tensim_metalium INTERFACE "${_tensim_prefix}/src/tensim_host_entry.cpp")
    target_link_options(tensim_metalium INTERFACE -shared)
    add_library(TT::Metalium ALIAS tensim_metalium)
    add_library(tensim_stl INTERFACE)
    add_library(TT::STL ALIAS tensim_stl)
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

/// Build the program folder with CMake (its own CMakeLists.txt, tensim's package as TT-Metalium) in a
/// build folder in the cache, and return the built host program: the target of its first
/// `add_executable`.
pub fn build_with_cmake(dir: &Path) -> Result<PathBuf, String> {
    let lists = dir.join("CMakeLists.txt");
    let text = std::fs::read_to_string(&lists)
        .map_err(|e| format!("{}: {e} (--cmake needs a CMakeLists.txt)", lists.display()))?;
    let target = text
        .split("add_executable(")
        .nth(1)
        .and_then(|r| r.split(|c: char| c.is_whitespace() || c == ')').next())
        .filter(|t| !t.is_empty())
        .ok_or_else(|| format!("{}: no add_executable(NAME …) to build", lists.display()))?
        .to_string();
    let prefix = cmake_prefix()?;
    let cxx = compiler()?;
    let dir = dir.canonicalize().map_err(|e| format!("program folder {}: {e}", dir.display()))?;
    let build =
        cache_dir()?.join("cmake-builds").join(&Hash::new().add(dir.display().to_string().as_bytes()).hex()[..16]);
    let run = |args: &[&std::ffi::OsStr]| -> Result<(), String> {
        let out = Command::new("cmake").args(args).output().map_err(|e| {
            format!("cannot run cmake: {e} (install CMake 3.22 or newer, or leave out --cmake to build without it)")
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
    let cxx_arg = format!("-DCMAKE_CXX_COMPILER={}", cxx.display());
    run(&[
        "-S".as_ref(),
        dir.as_os_str(),
        "-B".as_ref(),
        build.as_os_str(),
        prefix_arg.as_ref(),
        cxx_arg.as_ref(),
        "-DCMAKE_BUILD_TYPE=Release".as_ref(),
    ])?;
    run(&["--build".as_ref(), build.as_os_str(), "--target".as_ref(), target.as_ref()])?;
    let built = build.join(&target);
    if !built.is_file() {
        return Err(format!("cmake built no {} in {}", target, build.display()));
    }
    Ok(built)
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
    let no_comments: String = text.lines().map(|l| l.split('#').next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    let mut out = Vec::new();
    for cmd in ["add_executable", "target_sources"] {
        let mut rest = no_comments.as_str();
        while let Some(i) = rest.find(cmd) {
            rest = &rest[i + cmd.len()..];
            let Some(open) = rest.trim_start().strip_prefix('(') else { continue };
            let Some(close) = open.find(')') else { break };
            for tok in open[..close].split_whitespace().skip(1) {
                let tok = tok.trim_matches('"');
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

/// Build (or find in the cache) the shared object of the host program in `dir`.
pub fn build(dir: &Path) -> Result<PathBuf, String> {
    // Absolute from here on: the cache key and the compiler's paths must not depend on the current folder.
    let dir = dir.canonicalize().map_err(|e| format!("program folder {}: {e}", dir.display()))?;
    let sources = host_sources(&dir)?;
    let cxx = compiler()?;
    let cache = cache_dir()?;
    let include = write_tree(&cache, "host-include", HOST_HEADERS)?;
    // The folder and its two parents: examples include their siblings' headers (`matmul_common/…`).
    let mut includes = vec![dir.clone()];
    includes.extend(dir.ancestors().skip(1).take(2).map(Path::to_path_buf));
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
            .output()
            .map_err(|e| format!("cannot run the C++ compiler {}: {e}", cxx.display()))?;
        if !out.status.success() {
            result = Err(format!(
                "cannot link the host program of {}:\n{}",
                dir.display(),
                String::from_utf8_lossy(&out.stderr)
            ));
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
