//! Speed bench: scheduler throughput. 64 cores × 2 data-movement kernels pass pages through CBs and signal
//! neighbours with NoC semaphore increments — over a million kernel API calls — on one host thread.
//! Run: `cargo bench -p benches --bench scheduler`. Reports API calls, events and simulated cycles per
//! wall-clock second.

use benches::workloads::cb_pingpong;
use sim_device::prelude::*;
use std::time::Instant;

fn main() {
    let (cols, rows, pages, every) = (8, 8, 4096, 16);
    let mut best = f64::MAX;
    let mut last = None;
    for _ in 0..3 {
        let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
        let p = cb_pingpong(&dev, cols, rows, pages, every).unwrap();
        let t = Instant::now();
        let r = dev.enqueue_program(&p).unwrap();
        let secs = t.elapsed().as_secs_f64();
        best = best.min(secs);
        last = Some(r);
    }
    let r = last.unwrap();
    println!("scheduler workload: {cols}x{rows} cores x 2 kernels, {pages} pages each, semaphore every {every}");
    println!("  API calls           {}", r.api_calls);
    println!("  kernel resumptions  {}", r.resumes);
    println!("  hardware events     {}", r.events);
    println!("  simulated cycles    {}", r.cycles.0);
    println!("  wall (best of 3)    {:.3} s", best);
    println!("  API calls / s       {:.2} M", r.api_calls as f64 / best / 1e6);
    println!("  events / s          {:.2} M", (r.events + r.resumes) as f64 / best / 1e6);
    println!("  simulated cycles/s  {:.2} M", r.cycles.0 as f64 / best / 1e6);
}
