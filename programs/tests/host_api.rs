//! Host API behaviour end to end: interleaved page placement agrees between host and kernels (DRAM and L1),
//! programs re-run with changed runtime args, L1 banks follow the core descriptor, examples run on the real
//! SoC descriptor files.

use programs::{ExampleOptions, list};
use sim_device::prelude::*;
use std::path::PathBuf;

/// A kernel that fetches every page of a buffer twice — through an address generator and through the raw
/// bank formula (bank = page % banks, address = base + (page / banks) × aligned page) — and writes both to
/// the output buffer, so the host can compare them with what it wrote.
fn fetch_pages(k: &mut Dataflow) {
    let src: u32 = k.get_arg_val(0);
    let dst: u32 = k.get_arg_val(1);
    let pages: u32 = k.get_arg_val(2);
    let page_size: u32 = k.get_arg_val(3);
    let aligned: u32 = k.get_arg_val(4);
    let banks: u32 = k.get_arg_val(5);
    let is_dram = k.get_compile_time_arg_val(0) == 1;
    let scratch = k.get_write_ptr(CBIndex::c_0);
    let out = InterleavedAddrGen::<true> { bank_base_address: dst, page_size };
    for i in 0..pages {
        let via_gen = if is_dram {
            k.get_noc_addr_page(i, &InterleavedAddrGen::<true> { bank_base_address: src, page_size }, 0)
        } else {
            k.get_noc_addr_page(i, &InterleavedAddrGen::<false> { bank_base_address: src, page_size }, 0)
        };
        let off = src + (i / banks) * aligned;
        let via_bank = if is_dram {
            k.get_noc_addr_from_bank_id::<true>(i % banks, off)
        } else {
            k.get_noc_addr_from_bank_id::<false>(i % banks, off)
        };
        assert_eq!(via_gen, via_bank, "page {i}: address generator and bank formula disagree");
        k.noc_async_read(via_gen, scratch, page_size);
        k.noc_async_read_barrier();
        k.noc_async_write_page(i, &out, scratch, 0, 0);
        k.noc_async_write_barrier();
    }
}

fn check_placement(arch: Arch, buffer_type: BufferType) {
    let mut dev = Device::builtin(arch).unwrap();
    let (pages, page_size) = (37u32, 96u32);
    let src = dev
        .create_buffer(InterleavedBufferConfig {
            size: (pages * page_size) as u64,
            page_size: page_size as u64,
            buffer_type,
        })
        .unwrap();
    let dst = dev
        .create_buffer(InterleavedBufferConfig {
            size: (pages * page_size) as u64,
            page_size: page_size as u64,
            buffer_type: BufferType::Dram,
        })
        .unwrap();
    let data: Vec<u32> = (0..pages * page_size / 4).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    dev.enqueue_write_buffer(&src, &data).unwrap();
    let banks = match buffer_type {
        BufferType::Dram => dev.num_dram_channels() as u32,
        BufferType::L1 => {
            let g = dev.compute_with_storage_grid_size();
            // Banks are the compute cores minus dispatch cores.
            let d = dev.chip().dispatch_cores().iter().filter(|c| c.x < g.x && c.y < g.y).count() as u32;
            g.x * g.y - d
        }
    };
    let mut p = Program::new();
    let c = CoreCoord::new(0, 0);
    p.create_circular_buffer(
        c,
        CircularBufferConfig::new(256, &[(CBIndex::c_0, DataFormat::UInt32)]).set_page_size(CBIndex::c_0, 256),
    )
    .unwrap();
    let k = p
        .create_kernel(
            Kernel::dataflow("fetch_pages", fetch_pages),
            c,
            DataMovementConfig { compile_args: vec![(buffer_type == BufferType::Dram) as u32], ..Default::default() },
        )
        .unwrap();
    p.set_runtime_args(k, c, &[src.address(), dst.address(), pages, page_size, src.aligned_page_size() as u32, banks])
        .unwrap();
    dev.enqueue_program(&p).unwrap();
    let got: Vec<u32> = dev.enqueue_read_buffer(&dst).unwrap();
    assert_eq!(got, data, "{arch} {buffer_type:?}");
}

#[test]
fn interleaved_placement_agrees_between_host_and_kernels() {
    for arch in [Arch::WormholeB0, Arch::Blackhole] {
        check_placement(arch, BufferType::Dram);
        check_placement(arch, BufferType::L1);
    }
}

#[test]
fn programs_rerun_with_changed_runtime_args() {
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let c = CoreCoord::new(0, 0);
    let cfg = InterleavedBufferConfig { size: 4, page_size: 4, buffer_type: BufferType::Dram };
    let (a, b, out) =
        (dev.create_buffer(cfg).unwrap(), dev.create_buffer(cfg).unwrap(), dev.create_buffer(cfg).unwrap());
    let l1 = InterleavedBufferConfig { size: 4, page_size: 4, buffer_type: BufferType::L1 };
    let (la, lb, lo) = (dev.create_buffer(l1).unwrap(), dev.create_buffer(l1).unwrap(), dev.create_buffer(l1).unwrap());
    let mut p = Program::new();
    // The kernel reads three TensorAccessorArgs (a, b, out) from its compile-time args.
    let mut ct = tensor_accessor_args(&a);
    ct.extend(tensor_accessor_args(&b));
    ct.extend(tensor_accessor_args(&out));
    let k = p
        .create_kernel(
            Kernel::dataflow("add", programs::examples::add_2_integers_in_riscv::reader_writer_add_in_riscv),
            c,
            DataMovementConfig { compile_args: ct, ..Default::default() },
        )
        .unwrap();
    p.set_runtime_args(k, c, &[a.address(), b.address(), out.address(), la.address(), lb.address(), lo.address()])
        .unwrap();
    dev.enqueue_write_buffer(&a, &[40u32]).unwrap();
    dev.enqueue_write_buffer(&b, &[2u32]).unwrap();
    let r1 = dev.enqueue_program(&p).unwrap();
    assert_eq!(dev.enqueue_read_buffer::<u32>(&out).unwrap(), vec![42]);
    // Swap the operands' roles in place: out = a + a.
    p.runtime_args_mut(k, c).unwrap()[1] = a.address();
    let r2 = dev.enqueue_program(&p).unwrap();
    assert_eq!(dev.enqueue_read_buffer::<u32>(&out).unwrap(), vec![80]);
    assert_eq!((r1.program_id, r2.program_id), (0, 1));
    assert_eq!(dev.finish(), r1.cycles + r2.cycles);
}

#[test]
fn grayskull_storage_cores_add_l1_banks() {
    let dev = Device::builtin(Arch::Grayskull).unwrap();
    let r = dev.memory_reports();
    // E150: 12x9 compute cores plus 10 storage cores of two 512 KiB banks each.
    assert!(r.memory_usage_summary.contains("\nL1,128,524288,"), "{}", r.memory_usage_summary);
    assert!(r.memory_usage_summary.contains("\nDRAM,8,"), "{}", r.memory_usage_summary);
}

fn soc_dir() -> Option<PathBuf> {
    let d = std::env::var_os("TENSIM_SOC_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/soc"));
    let key = "programs/host_api: example runs on the real SoC files";
    if d.join("tt-metal").is_dir() {
        soc_descriptors::test_skips::note(env!("CARGO_TARGET_TMPDIR"), key, None);
        Some(d)
    } else {
        soc_descriptors::test_skips::note(
            env!("CARGO_TARGET_TMPDIR"),
            key,
            Some("../shared/soc not found (TENSIM_SOC_DIR)"),
        );
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "\n*** WARNING: TENSIM_SOC_DIR not set / ../shared/soc missing: real-YAML example runs SKIPPED ***\n"
        );
        None
    }
}

#[test]
fn examples_run_on_the_real_soc_descriptors() {
    let Some(dir) = soc_dir() else { return };
    for f in ["wormhole_b0_80_arch.yaml", "blackhole_140_arch.yaml"] {
        let spec =
            ChipSpec { soc: SocSource::File(dir.join("tt-metal/soc_descriptors").join(f)), ..Default::default() };
        for ex in list() {
            let mut dev = Device::open(&spec).unwrap();
            let out = (ex.run)(&mut dev, &ExampleOptions::default()).unwrap();
            assert!(out.passed, "{} on {f}: {}", ex.name, out.check);
            // The real file and the built-in description are the same chip: same cycles.
            let mut builtin = Device::builtin(dev.arch()).unwrap();
            let b = (ex.run)(&mut builtin, &ExampleOptions::default()).unwrap();
            assert_eq!(out.report.cycles, b.report.cycles, "{} on {f}", ex.name);
        }
    }
}
