//! Run a closure repeatedly and report the median and spread of its wall time.

use std::time::{Duration, Instant};

/// Timing of one benchmark.
#[derive(Debug, Clone)]
pub struct Measurement {
    /// Benchmark name.
    pub name: String,
    /// Number of timed iterations.
    pub iterations: usize,
    /// Median wall time of one iteration.
    pub median: Duration,
    /// Fastest iteration.
    pub min: Duration,
    /// Slowest iteration.
    pub max: Duration,
}

impl std::fmt::Display for Measurement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:<40} median {:>10.3} µs   min {:>10.3} µs   max {:>10.3} µs   ({} iterations)",
            self.name,
            self.median.as_secs_f64() * 1e6,
            self.min.as_secs_f64() * 1e6,
            self.max.as_secs_f64() * 1e6,
            self.iterations
        )
    }
}

/// Time `f` for about `budget` of wall time (at least 5 iterations, after 2 warm-up runs).
pub fn measure<T>(name: &str, budget: Duration, mut f: impl FnMut() -> T) -> Measurement {
    for _ in 0..2 {
        std::hint::black_box(f());
    }
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 5 || (start.elapsed() < budget && times.len() < 100_000) {
        let t = Instant::now();
        std::hint::black_box(f());
        times.push(t.elapsed());
    }
    times.sort();
    Measurement {
        name: name.to_string(),
        iterations: times.len(),
        median: times[times.len() / 2],
        min: times[0],
        max: *times.last().unwrap_or(&Duration::ZERO),
    }
}
