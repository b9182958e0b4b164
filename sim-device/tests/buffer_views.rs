//! Buffers at a given address and regions of buffers: a buffer created at another's address is a view of
//! the same pages (interleaved and sharded, DRAM and L1) and freeing it frees nothing; a region reads and
//! writes whole pages in host page order; misplaced buffers and regions are refused with the value at fault.

use sim_device::prelude::*;
use sim_device::{BufferPlacement, DeviceError};

fn dram(pages: u64, page: u64) -> InterleavedBufferConfig {
    InterleavedBufferConfig { size: pages * page, page_size: page, buffer_type: BufferType::Dram }
}

fn err_text<T: std::fmt::Debug>(r: Result<T, DeviceError>) -> String {
    r.expect_err("an error").to_string()
}

#[test]
fn a_buffer_at_another_buffers_address_sees_its_pages_and_frees_nothing() {
    for arch in [Arch::WormholeB0, Arch::Blackhole] {
        let mut dev = Device::builtin(arch).unwrap();
        let a = dev.create_buffer(dram(12, 1024)).unwrap();
        let data: Vec<u32> = (0..12 * 256).collect();
        dev.enqueue_write_buffer(&a, &data).unwrap();
        let view = dev.create_buffer_at(dram(12, 1024), a.address() as u64).unwrap();
        assert_eq!(view.address(), a.address());
        assert_eq!(dev.enqueue_read_buffer::<u32>(&view).unwrap(), data);
        dev.deallocate_buffer(&view).unwrap();
        // The owner keeps its memory: the next buffer goes elsewhere, the data stay.
        let b = dev.create_buffer(dram(12, 1024)).unwrap();
        assert_ne!(b.address(), a.address(), "{arch}");
        assert_eq!(dev.enqueue_read_buffer::<u32>(&a).unwrap(), data);
        // Freeing the owner frees it: the address is allocated again.
        dev.deallocate_buffer(&a).unwrap();
        let c = dev.create_buffer(dram(12, 1024)).unwrap();
        assert_eq!(c.address(), a.address(), "{arch}");
    }
}

#[test]
fn a_sharded_view_finds_the_shards_on_their_cores() {
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let cfg = ShardedBufferConfig {
        size: 4 * 2048,
        page_size: 2048,
        buffer_type: BufferType::L1,
        shards: ShardParameters::Legacy {
            layout: TensorMemoryLayout::HeightSharded,
            spec: ShardSpecBuffer {
                grid: "(0,0)-(1,0)".parse().unwrap(),
                shard_shape: [64, 32],
                orientation: ShardOrientation::RowMajor,
                page_shape: [32, 32],
                tensor2d_shape_in_pages: [4, 1],
            },
        },
    };
    let s = dev.create_sharded_buffer(&cfg).unwrap();
    let data: Vec<u32> = (0..4 * 512).collect();
    dev.enqueue_write_buffer(&s, &data).unwrap();
    let view = dev.create_sharded_buffer_placed(&cfg, BufferPlacement::At(s.address() as u64)).unwrap();
    // Pages 2 and 3 are core (1,0)'s shard.
    let part: Vec<u32> = from_le(&dev.enqueue_read_buffer_region(&view, 2 * 2048, 2 * 2048).unwrap());
    assert_eq!(part, (1024..2048).collect::<Vec<u32>>());
    let on_core: Vec<u32> = dev.read_from_device_l1(CoreCoord::new(1, 0), s.address(), 512).unwrap();
    assert_eq!(on_core, (1024..1536).collect::<Vec<u32>>());
}

fn from_le(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

#[test]
fn regions_write_and_read_whole_pages_in_host_order() {
    let mut dev = Device::builtin(Arch::Blackhole).unwrap();
    let a = dev.create_buffer(dram(10, 512)).unwrap();
    dev.enqueue_write_buffer(&a, &vec![0u32; 10 * 128]).unwrap();
    let mid: Vec<u8> = (0..3 * 512).map(|i| (i % 251) as u8).collect();
    dev.enqueue_write_buffer_region(&a, 4 * 512, &mid).unwrap();
    let all = dev.enqueue_read_buffer_bytes(&a).unwrap();
    assert!(all[..4 * 512].iter().all(|&b| b == 0));
    assert_eq!(&all[4 * 512..7 * 512], &mid[..]);
    assert!(all[7 * 512..].iter().all(|&b| b == 0));
    assert_eq!(dev.enqueue_read_buffer_region(&a, 4 * 512, 3 * 512).unwrap(), mid);
    // The whole buffer is a region too; an empty one moves nothing.
    assert_eq!(dev.enqueue_read_buffer_region(&a, 0, 10 * 512).unwrap(), all);
    assert!(dev.enqueue_read_buffer_region(&a, 512, 0).unwrap().is_empty());
}

#[test]
fn misplaced_buffers_and_regions_are_refused_with_the_value_at_fault() {
    let mut dev = Device::builtin(Arch::WormholeB0).unwrap();
    let a = dev.create_buffer(dram(4, 1024)).unwrap();
    let addr = a.address() as u64;
    let t = err_text(dev.create_buffer_at(dram(4, 1024), addr + 4));
    assert!(t.contains(&format!("{:#x}", addr + 4)) && t.contains("alignment"), "{t}");
    let t = err_text(dev.create_buffer_at(dram(4, 1024), 1 << 40));
    assert!(t.contains("0x10000000000") && t.contains("buffer space"), "{t}");
    // Below the L1 banks' buffer space (firmware, circular buffers).
    let l1 = InterleavedBufferConfig { size: 1024, page_size: 1024, buffer_type: BufferType::L1 };
    let t = err_text(dev.create_buffer_at(l1, 0));
    assert!(t.contains("buffer space"), "{t}");
    // An address whose range would wrap past 2^64.
    let t = err_text(dev.create_buffer_at(dram(4, 1024), u64::MAX - 63));
    assert!(t.contains("buffer space") || t.contains("alignment"), "{t}");

    let t = err_text(dev.enqueue_read_buffer_region(&a, 100, 1024));
    assert!(t.contains("(100)") && t.contains("whole 1024-byte pages"), "{t}");
    let t = err_text(dev.enqueue_read_buffer_region(&a, 0, 1000));
    assert!(t.contains("(1000)"), "{t}");
    let t = err_text(dev.enqueue_write_buffer_region(&a, 3 * 1024, &[0u8; 2048]));
    assert!(t.contains("2048 bytes at offset 3072") && t.contains("4096-byte"), "{t}");
    let t = err_text(dev.enqueue_read_buffer_region(&a, u64::MAX, 2));
    assert!(t.contains("does not lie inside"), "{t}");
    dev.deallocate_buffer(&a).unwrap();
    let t = err_text(dev.enqueue_read_buffer_region(&a, 0, 1024));
    assert!(t.contains("deallocated"), "{t}");
}
