//! Host-thread settings: the scheduling priority of tensim's background helper threads. The one system call
//! here is FFI, so this module is (with [`crate::simd`]) where sim-core allows `unsafe`.
#![allow(unsafe_code)]

/// Lower the calling host thread's scheduling priority to the least (nice 19), so that it runs only on a
/// processor the simulation and its math helper leave idle. For work whose result is needed only at the
/// end of a run (a CPU reference computed while the simulation runs): on a host with as many cores as
/// busy threads it then takes no time from the simulation thread, which bounds the run. Returns whether
/// the priority was changed; a host without per-thread priorities (not Linux) keeps it, which changes
/// speed only, never results.
pub fn run_in_background() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: setpriority reads its three integer arguments and changes no memory of this process. On
        // Linux, PRIO_PROCESS with `who` 0 names the calling thread (priorities are per thread there).
        unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, 19) == 0 }
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// Host threads that would find a processor idle now: the host's processors less the other threads
/// runnable at this moment (the kernel's count in /proc/loadavg, which includes the caller). At least 1.
/// Multi-chip runs default to this many workers: on a quiet two-core host two workers finish the T3000
/// all_gather 20% sooner than one, but with another busy process they are slower than one.
/// Where the count is not available, every processor.
pub fn spare_cores() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let runnable = std::fs::read_to_string("/proc/loadavg").ok().and_then(|t| {
        t.split_whitespace().nth(3).and_then(|f| f.split('/').next()).and_then(|r| r.parse::<usize>().ok())
    });
    match runnable {
        Some(r) => cores.saturating_sub(r.saturating_sub(1)).max(1),
        None => cores,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn spare_cores_is_between_one_and_the_processors() {
        let n = super::spare_cores();
        assert!(n >= 1 && n <= std::thread::available_parallelism().map_or(1, |n| n.get()), "{n}");
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_background_thread_runs_at_the_least_priority_and_others_keep_theirs() {
        fn nice() -> i32 {
            // Field 19 of /proc/thread-self/stat is the thread's nice value (after the command name, which
            // is in parentheses and may hold spaces).
            let stat = std::fs::read_to_string("/proc/thread-self/stat").expect("procfs");
            let rest = &stat[stat.rfind(')').expect("comm") + 2..];
            rest.split(' ').nth(16).expect("nice field").parse().expect("a number")
        }
        let before = nice();
        let (changed, inside) = std::thread::spawn(|| (super::run_in_background(), nice())).join().unwrap();
        assert!(changed);
        assert_eq!(inside, 19);
        assert_eq!(nice(), before, "only the calling thread is lowered");
    }
}
