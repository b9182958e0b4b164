//! Sharded buffers end to end: the host writes pages in host order and they land on the shard cores (or
//! DRAM banks) `layout` names; a kernel's `TensorAccessor` finds the same pages; the allocator reserves
//! the largest shard in every bank; bad shard specs are refused with the offending value.

use sim_device::prelude::*;

fn l1_height(dev: &mut Device, cores: &str, rows_pages: u32, shard_rows: u32, page: u64) -> Buffer {
    let n = rows_pages as u64;
    dev.create_sharded_buffer(&ShardedBufferConfig {
        size: n * page,
        page_size: page,
        buffer_type: BufferType::L1,
        shards: ShardParameters::Legacy {
            layout: TensorMemoryLayout::HeightSharded,
            spec: ShardSpecBuffer {
                grid: cores.parse().unwrap(),
                shard_shape: [shard_rows, 32],
                orientation: ShardOrientation::RowMajor,
                page_shape: [1, 32],
                tensor2d_shape_in_pages: [rows_pages, 1],
            },
        },
    })
    .unwrap()
}

#[test]
fn host_pages_land_on_their_shard_cores_and_round_trip() {
    for arch in [Arch::WormholeB0, Arch::Blackhole] {
        let mut dev = Device::builtin(arch).unwrap();
        // 10 rows of 32 u32 (128-byte pages), 4 rows per shard over 3 cores: the last shard is half padding.
        let b = l1_height(&mut dev, "(0,0)-(2,0)", 10, 4, 128);
        assert_eq!(b.buffer_layout(), TensorMemoryLayout::HeightSharded);
        assert_eq!(b.aligned_size_per_bank(), 4 * 128);
        assert_eq!(b.num_dev_pages(), 12);
        let data: Vec<u32> = (0..320).collect();
        dev.enqueue_write_buffer(&b, &data).unwrap();
        assert_eq!(dev.enqueue_read_buffer::<u32>(&b).unwrap(), data);
        // Row 9 is the second row of core (2,0)'s shard.
        let row: Vec<u32> = dev.read_from_device_l1(CoreCoord::new(2, 0), b.address() + 128, 32).unwrap();
        assert_eq!(row, (288..320).collect::<Vec<_>>());
        // Lock-step: an interleaved L1 buffer allocated next sits below the sharded one in every bank.
        let i = dev
            .create_buffer(InterleavedBufferConfig { size: 2048, page_size: 2048, buffer_type: BufferType::L1 })
            .unwrap();
        assert!(i.address() + 2048 <= b.address());
    }
}

/// A buffer compared in place with the data expected of it: equal, one element off, wrong length; for a
/// sharded L1 buffer (pages on cores) and an interleaved DRAM one (pages on banks).
#[test]
fn buffers_match_their_expected_data_in_place() {
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let sharded = l1_height(&mut dev, "(0,0)-(2,0)", 10, 4, 128);
    let data: Vec<u32> = (0..320).collect();
    dev.enqueue_write_buffer(&sharded, &data).unwrap();
    let dram = dev
        .create_buffer(InterleavedBufferConfig { size: 6 * 2048, page_size: 2048, buffer_type: BufferType::Dram })
        .unwrap();
    let words: Vec<u16> = (0..6 * 1024).map(|i| (i * 7) as u16).collect();
    dev.enqueue_write_buffer(&dram, &words).unwrap();
    assert!(dev.buffer_matches(&sharded, &data).unwrap());
    assert!(dev.buffer_matches(&dram, &words).unwrap());
    let mut off = data.clone();
    off[317] ^= 1;
    assert!(!dev.buffer_matches(&sharded, &off).unwrap(), "the last page's last-but-two word differs");
    let mut w = words.clone();
    w[0] = w[0].wrapping_add(1);
    assert!(!dev.buffer_matches(&dram, &w).unwrap());
    assert!(!dev.buffer_matches(&dram, &words[..1024]).unwrap(), "one page of six");
}

#[test]
fn dram_sharded_pages_go_to_their_banks() {
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    // 4x4 tiles block-sharded 2x2 tiles per bank over DRAM banks 0..3.
    let b = dev
        .create_sharded_buffer(&ShardedBufferConfig {
            size: 16 * 2048,
            page_size: 2048,
            buffer_type: BufferType::Dram,
            shards: ShardParameters::Legacy {
                layout: TensorMemoryLayout::BlockSharded,
                spec: ShardSpecBuffer {
                    grid: "(0,0)-(3,0)".parse().unwrap(),
                    shard_shape: [64, 64],
                    orientation: ShardOrientation::RowMajor,
                    page_shape: [32, 32],
                    tensor2d_shape_in_pages: [4, 4],
                },
            },
        })
        .unwrap();
    let data: Vec<u16> = (0..16 * 1024).map(|i| i as u16).collect();
    dev.enqueue_write_buffer(&b, &data).unwrap();
    assert_eq!(dev.enqueue_read_buffer::<u16>(&b).unwrap(), data);
}

#[test]
fn a_kernel_reads_sharded_pages_through_its_tensor_accessor() {
    for arch in [Arch::WormholeB0, Arch::Blackhole] {
        let mut dev = Device::builtin(arch).unwrap();
        let src = l1_height(&mut dev, "(1,0)-(3,1)", 22, 4, 128);
        let dst = dev
            .create_buffer(InterleavedBufferConfig { size: 22 * 128, page_size: 128, buffer_type: BufferType::Dram })
            .unwrap();
        let data: Vec<u32> = (0..22 * 32).map(|i| i * 7 + 1).collect();
        dev.enqueue_write_buffer(&src, &data).unwrap();
        let mut p = Program::new();
        let core = CoreCoord::new(0, 0);
        p.create_circular_buffer(
            core,
            CircularBufferConfig::new(128, &[(CBIndex::c_0, DataFormat::UInt32)]).set_page_size(CBIndex::c_0, 128),
        )
        .unwrap();
        let mut ct = tensor_accessor_args(&src);
        ct.extend(tensor_accessor_args(&dst));
        let k = p
            .create_kernel(
                Kernel::dataflow("copy_pages", |k: &mut Dataflow| {
                    let (a, b, n): (u32, u32, u32) = (k.get_arg_val(0), k.get_arg_val(1), k.get_arg_val(2));
                    let sa = k.tensor_accessor_args(0);
                    let da = k.tensor_accessor_args(sa.next_compile_time_args_offset());
                    let s = TensorAccessor::new(sa, a, 128);
                    let d = TensorAccessor::new(da, b, 128);
                    let l1 = k.get_write_ptr(CBIndex::c_0);
                    for i in 0..n {
                        k.noc_async_read_page(i, &s, l1, 0);
                        k.noc_async_read_barrier();
                        k.noc_async_write_page(i, &d, l1, 0, 0);
                        k.noc_async_write_barrier();
                    }
                }),
                core,
                DataMovementConfig { compile_args: ct, ..Default::default() },
            )
            .unwrap();
        p.set_runtime_args(k, core, &[src.address(), dst.address(), 22]).unwrap();
        dev.enqueue_program(&p).unwrap();
        assert_eq!(dev.enqueue_read_buffer::<u32>(&dst).unwrap(), data, "{arch}");
    }
}

#[test]
fn whole_shards_move_with_read_shard_and_show_in_the_memory_reports() {
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    // 12 rows of 128 bytes, 4 rows per shard on 3 cores.
    let src = l1_height(&mut dev, "(0,0)-(2,0)", 12, 4, 128);
    let detailed = dev.memory_reports().detailed_memory_usage;
    assert!(detailed.contains(&format!("{}", src.address())), "the sharded buffer is in the report:\n{detailed}");
    let dst = dev
        .create_buffer(InterleavedBufferConfig { size: 512, page_size: 512, buffer_type: BufferType::Dram })
        .unwrap();
    let data: Vec<u32> = (0..12 * 32).collect();
    dev.enqueue_write_buffer(&src, &data).unwrap();
    let mut p = Program::new();
    let core = CoreCoord::new(5, 5);
    p.create_circular_buffer(
        core,
        CircularBufferConfig::new(512, &[(CBIndex::c_0, DataFormat::UInt32)]).set_page_size(CBIndex::c_0, 512),
    )
    .unwrap();
    let k = p
        .create_kernel(
            Kernel::dataflow("read_shard", |k: &mut Dataflow| {
                let (a, d): (u32, u32) = (k.get_arg_val(0), k.get_arg_val(1));
                let args = k.tensor_accessor_args(0);
                let s = TensorAccessor::new(args, a, 128);
                let l1 = k.get_write_ptr(CBIndex::c_0);
                k.noc_async_read_shard(2, &s, l1);
                k.noc_async_read_barrier();
                let out = k.get_noc_addr_from_bank_id::<true>(0, d);
                k.noc_async_write(l1, out, 512);
                k.noc_async_write_barrier();
            }),
            core,
            DataMovementConfig { compile_args: tensor_accessor_args(&src), ..Default::default() },
        )
        .unwrap();
    p.set_runtime_args(k, core, &[src.address(), dst.address()]).unwrap();
    dev.enqueue_program(&p).unwrap();
    // Shard 2 is rows 8..12.
    assert_eq!(dev.enqueue_read_buffer::<u32>(&dst).unwrap(), (8 * 32..12 * 32).collect::<Vec<_>>());
}

#[test]
fn bad_shard_specs_are_refused_with_the_value() {
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let spec = |grid: &str, rows: u32| ShardedBufferConfig {
        size: 8 * 128,
        page_size: 128,
        buffer_type: BufferType::L1,
        shards: ShardParameters::Legacy {
            layout: TensorMemoryLayout::HeightSharded,
            spec: ShardSpecBuffer {
                grid: grid.parse().unwrap(),
                shard_shape: [rows, 32],
                orientation: ShardOrientation::RowMajor,
                page_shape: [1, 32],
                tensor2d_shape_in_pages: [8, 1],
            },
        },
    };
    let e = dev.create_sharded_buffer(&spec("(0,0)-(1,0)", 2)).unwrap_err().to_string();
    assert!(e.contains("4 shards") && e.contains("only 2 cores"), "{e}");
    // More cores than shards is fine: the extra cores hold nothing.
    assert!(dev.create_sharded_buffer(&spec("(0,0)-(0,7),(1,0)-(1,7)", 1)).is_ok());
    let e = dev.create_sharded_buffer(&spec("(0,10)-(0,17)", 1)).unwrap_err().to_string();
    assert!(e.contains("(0,10)") && e.contains("not a worker core"), "{e}");
    let big = ShardedBufferConfig { size: 8 * 4_000_000, page_size: 4_000_000, ..spec("(0,0)-(0,7)", 1) };
    let e = dev.create_sharded_buffer(&big).unwrap_err().to_string();
    assert!(e.contains("out of L1 memory"), "{e}");
    let mut wrong = spec("(0,0)-(0,7)", 1);
    wrong.size = 9 * 128;
    let e = dev.create_sharded_buffer(&wrong).unwrap_err().to_string();
    assert!(e.contains("8 pages") && e.contains("9 pages"), "{e}");
}
