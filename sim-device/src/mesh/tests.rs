//! Unit tests of the mesh host API on built-in systems: placement of meshes on systems, submeshes that share
//! devices, reshape, lock-step buffers, replicated and sharded writes and reads, distribution helpers.

use super::distribute::{Placement, compose_2d, concat, map_2d, shard_to_mesh, split};
use super::*;
use crate::buffer::{Buffer, BufferType};
use layout::placement::ShardOrientation;
use soc_descriptors::Arch;

fn open(system: &str, rows: u32, cols: u32) -> MeshDevice {
    let (cd, mesh) = soc_descriptors::builtin_system(system).unwrap();
    let arch = cd.arch().unwrap();
    MeshDevice::open(&cd, &mesh, MeshShape::new(rows, cols), None, &Params::builtin(arch)).unwrap()
}

#[test]
fn device_is_send() {
    fn send<T: Send>() {}
    send::<Device>();
    send::<MeshDevice>();
}

#[test]
fn meshes_sit_on_linked_chips() {
    let m = open("t3000", 2, 4);
    assert_eq!(m.chip_ids(), &[4, 0, 2, 6, 5, 1, 3, 7]);
    // A 1x8 line snakes through the 2x4 system: consecutive chips are linked.
    let line = open("t3000", 1, 8);
    let (cd, _) = soc_descriptors::builtin_system("t3000").unwrap();
    for w in line.chip_ids().windows(2) {
        assert!(!cd.channels_between(w[0], w[1]).is_empty(), "{w:?}");
    }
    let (cd, mesh) = soc_descriptors::builtin_system("n300").unwrap();
    let e = MeshDevice::open(&cd, &mesh, MeshShape::new(2, 2), None, &Params::builtin(Arch::WormholeB0)).unwrap_err();
    assert!(e.to_string().contains("does not fit"), "{e}");
    let e = MeshDevice::open(&cd, &mesh, MeshShape::new(1, 2), None, &Params::builtin(Arch::Blackhole)).unwrap_err();
    assert!(e.to_string().contains("parameters are for blackhole"), "{e}");
}

#[test]
fn submeshes_share_devices_and_reshape_keeps_them() {
    let mut m = open("t3000", 2, 4);
    let buf = MeshBuffer::create(
        &m,
        MeshBufferConfig::Replicated { size: 64 },
        DeviceLocalBufferConfig { page_size: 32, buffer_type: BufferType::Dram },
    )
    .unwrap();
    let data: Vec<u32> = (0..16).collect();
    m.enqueue_write_mesh_buffer(&buf, &data).unwrap();
    let mut sub = m.create_submesh(MeshShape::new(1, 2), MeshCoordinate::new(1, 2)).unwrap();
    assert_eq!(sub.chip_ids(), &[3, 7]);
    // The submesh sees what was written through the parent (same devices, same address).
    let bufs: Vec<Buffer> = (0..2).map(|i| buf.device_buffer(6 + i).clone()).collect();
    for (i, b) in bufs.iter().enumerate() {
        let got: Vec<u32> = sub.get_device(MeshCoordinate::new(0, i as u32)).unwrap().enqueue_read_buffer(b).unwrap();
        assert_eq!(got, data);
    }
    assert_eq!(m.create_submeshes(MeshShape::new(2, 2)).unwrap().len(), 2);
    assert!(m.create_submeshes(MeshShape::new(2, 3)).is_err());
    let (cd, sys) = soc_descriptors::builtin_system("t3000").unwrap();
    let mut line = open("t3000", 1, 8);
    line.reshape(MeshShape::new(8, 1), &cd, &sys).unwrap();
    assert_eq!(line.shape(), MeshShape::new(8, 1));
    line.reshape(MeshShape::new(2, 4), &cd, &sys).unwrap();
    assert_eq!(line.chip_ids(), &[4, 0, 2, 6, 5, 1, 3, 7]);
    assert!(line.reshape(MeshShape::new(3, 3), &cd, &sys).is_err());
    assert!(sub.reshape(MeshShape::new(2, 1), &cd, &sys).is_ok());
}

#[test]
fn sharded_mesh_buffers_round_trip_in_both_orientations() {
    for orientation in [ShardOrientation::RowMajor, ShardOrientation::ColMajor] {
        let mut m = open("t3000", 2, 4);
        // 8x16 u32 elements in 4x4 shards: a 2x4 shard grid.
        let cfg = MeshBufferConfig::Sharded {
            global_size: 8 * 16 * 4,
            global_shape: (8, 16),
            shard_shape: (4, 4),
            orientation,
        };
        let buf = MeshBuffer::create(&m, cfg, DeviceLocalBufferConfig { page_size: 64, buffer_type: BufferType::Dram })
            .unwrap();
        assert_eq!(buf.device_size(), 64);
        let data: Vec<u32> = (0..128).collect();
        m.enqueue_write_mesh_buffer(&buf, &data).unwrap();
        assert_eq!(m.enqueue_read_mesh_buffer::<u32>(&buf).unwrap(), data);
        // Device 1 holds shard (0, 1) row-major, or shard (1, 0) column-major.
        let shard: Vec<u32> = m.read_shard(&buf, MeshCoordinate::new(0, 1)).unwrap();
        let first = match orientation {
            ShardOrientation::RowMajor => 4,
            ShardOrientation::ColMajor => 64,
        };
        assert_eq!(&shard[..4], &[first, first + 1, first + 2, first + 3]);
        assert_eq!(shard[4], first + 16);
    }
    // A replicated dimension: 0 rows means the whole height.
    let mut m = open("n300", 1, 2);
    let cfg = MeshBufferConfig::Sharded {
        global_size: 4 * 8 * 4,
        global_shape: (4, 8),
        shard_shape: (0, 4),
        orientation: ShardOrientation::RowMajor,
    };
    let buf =
        MeshBuffer::create(&m, cfg, DeviceLocalBufferConfig { page_size: 64, buffer_type: BufferType::L1 }).unwrap();
    let data: Vec<u32> = (0..32).collect();
    m.enqueue_write_mesh_buffer(&buf, &data).unwrap();
    assert_eq!(m.enqueue_read_mesh_buffer::<u32>(&buf).unwrap(), data);
    let e = MeshBuffer::create(
        &m,
        MeshBufferConfig::Sharded {
            global_size: 128,
            global_shape: (4, 8),
            shard_shape: (1, 1),
            orientation: ShardOrientation::RowMajor,
        },
        DeviceLocalBufferConfig { page_size: 4, buffer_type: BufferType::L1 },
    )
    .unwrap_err();
    assert!(e.to_string().contains("32 shards for 2 devices"), "{e}");
}

#[test]
fn mappers_and_composers() {
    let shape = [2, 8];
    let data: Vec<u32> = (0..16).collect();
    // The header comment's example: [2, 8] on 2x2 with {Replicate, Shard(1)}.
    let mesh = MeshShape::new(2, 2);
    let (ps, pieces) = map_2d(mesh, &shape, &data, [Placement::Replicate, Placement::Shard(1)]).unwrap();
    assert_eq!(ps, vec![2, 4]);
    assert_eq!(pieces[0], vec![0, 1, 2, 3, 8, 9, 10, 11]);
    assert_eq!(pieces[1], vec![4, 5, 6, 7, 12, 13, 14, 15]);
    assert_eq!(pieces[2], pieces[0]);
    let (s8, eight) = shard_to_mesh(MeshShape::new(2, 4), &shape, &data, 1).unwrap();
    assert_eq!((s8.clone(), eight[7].clone()), (vec![2, 1], vec![7, 15]));
    assert_eq!(concat(&s8, &eight, 1).unwrap(), (shape.to_vec(), data.clone()));
    let (ps, pieces) = map_2d(mesh, &shape, &data, [Placement::Shard(0), Placement::Shard(1)]).unwrap();
    assert_eq!(compose_2d(mesh, &ps, &pieces, [0, 1]).unwrap(), (shape.to_vec(), data.clone()));
    assert!(split(&shape, &data, 1, 3).is_err());
    assert!(split(&shape, &data, 2, 2).is_err());
}

#[test]
fn a_live_device_guard_is_an_error_not_a_hang() {
    let mut m = open("t3000", 1, 4);
    m.set_fabric_config(sim_chip::fabric_config::FabricConfig::Fabric1D).unwrap();
    let (a, b) = (MeshCoordinate::new(0, 0), MeshCoordinate::new(0, 1));
    let guard = m.get_device(a).unwrap();
    let mut args = Vec::new();
    let e = m.append_fabric_connection_rt_args(a, b, 0, 1, &mut args).unwrap_err();
    assert!(e.to_string().contains("get_device() guard that is still alive"), "{e}");
    assert!(m.get_device(a).is_err());
    drop(guard);
    m.append_fabric_connection_rt_args(a, b, 0, 1, &mut args).unwrap();
    assert!(!args.is_empty());
}
