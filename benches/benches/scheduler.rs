//! Speed bench: scheduler throughput. 64 cores × 2 data-movement kernels pass pages through CBs and signal
//! neighbours with NoC semaphore increments — over a million kernel API calls — on one host thread.
//! Run: `cargo bench -p benches --bench scheduler`. Reports API calls, events and simulated cycles per
//! wall-clock second, with the scheduler's lookahead (the default) and without it (`sim.lookahead=0`);
//! both runs must give the same cycles.

use benches::workloads::cb_pingpong;
use sim_device::prelude::*;
use sim_device::{ChipSpec, Params};
use std::time::Instant;

fn main() {
    let (cols, rows, pages, every) = (8, 8, 4096, 16);
    println!("scheduler workload: {cols}x{rows} cores x 2 kernels, {pages} pages each, semaphore every {every}");
    let mut cycles = Vec::new();
    for lookahead in [true, false] {
        let mut params = Params::builtin(Arch::WormholeB0);
        params.sim.lookahead = lookahead;
        let mut best = f64::MAX;
        let mut last = None;
        for _ in 0..3 {
            let mut dev = Device::open_with_params(&ChipSpec::builtin(Arch::WormholeB0), params.clone()).unwrap();
            let p = cb_pingpong(&dev, cols, rows, pages, every).unwrap();
            let t = Instant::now();
            let r = dev.enqueue_program(&p).unwrap();
            let secs = t.elapsed().as_secs_f64();
            best = best.min(secs);
            last = Some(r);
        }
        let r = last.unwrap();
        println!("lookahead {}", if lookahead { "on (default)" } else { "off" });
        println!("  API calls           {}", r.api_calls);
        println!("  kernel resumptions  {}", r.resumes);
        println!("  hardware events     {}", r.events);
        println!("  simulated cycles    {}", r.cycles.0);
        println!("  wall (best of 3)    {:.3} s", best);
        println!("  API calls / s       {:.2} M", r.api_calls as f64 / best / 1e6);
        println!("  events / s          {:.2} M", (r.events + r.resumes) as f64 / best / 1e6);
        println!("  simulated cycles/s  {:.2} M", r.cycles.0 as f64 / best / 1e6);
        cycles.push(r.cycles);
    }
    assert_eq!(cycles[0], cycles[1], "lookahead changed the simulated cycles");
}
