//! The compute API on a fake host: the three TRISC threads hand tiles through the source registers and DST,
//! copies, element-wise ops and matmuls give the numbers a CPU computes, and misuse is reported.

mod support;

use sim_tensix::hw::compute::shared::SharedTiles;
use sim_tensix::hw::compute::state::ComputeSettings;
use sim_tensix::{CBIndex, Compute, DataFormat, Risc, bfloat16, pack_tiles, unpack_tiles};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use support::{Body, run, run_prepared, unit_costs};

const IN0: (u8, u32, u32, u32, DataFormat) = (0, 0x10000, 2 * 2048, 2048, DataFormat::Float16_b);
const IN1: (u8, u32, u32, u32, DataFormat) = (1, 0x20000, 2 * 2048, 2048, DataFormat::Float16_b);
const OUT: (u8, u32, u32, u32, DataFormat) = (16, 0x30000, 2 * 2048, 2048, DataFormat::Float16_b);

fn settings() -> ComputeSettings {
    ComputeSettings::default()
}

/// A tile of bf16 values `f(i)` in row-major element order, as L1 bytes (faces).
fn tile(f: impl Fn(usize) -> f32) -> (Vec<f32>, Vec<u8>) {
    let vals: Vec<f32> = (0..1024).map(|i| bfloat16::from_f32(f(i)).to_f32()).collect();
    let faces = layout_faces(&vals);
    (vals, pack_tiles(DataFormat::Float16_b, &faces))
}

fn layout_faces(rows: &[f32]) -> Vec<f32> {
    layout::tilize_nfaces(rows, 32, 32)
}

fn rows_of(faces: &[f32]) -> Vec<f32> {
    layout::untilize_nfaces(faces, 32, 32)
}

/// Put `a` (and `b`) in CBs 0 (and 1), run `body` as the compute kernel, return the first output tile.
fn compute(a: &[u8], b: &[u8], body: impl Fn(&mut Compute) + 'static) -> Result<Vec<f32>, String> {
    let (a, b) = (a.to_vec(), b.to_vec());
    let feeder = Body::Dataflow(
        Risc::Ncrisc,
        Box::new(move |k| {
            for (cb, data) in [(CBIndex::c_0, &a), (CBIndex::c_1, &b)] {
                k.cb_reserve_back(cb, 1);
                let w = k.get_write_ptr(cb);
                k.l1_write_bytes(w, data);
                k.cb_push_back(cb, 1);
            }
        }),
    );
    let out = run(&[IN0, IN1, OUT], &[], unit_costs(), vec![feeder, Body::Compute(settings(), Box::new(body))])?;
    let bytes = out.host.core.l1.read(0x30000, 2048).unwrap().to_vec();
    Ok(rows_of(&unpack_tiles(DataFormat::Float16_b, &bytes)))
}

/// One tile of c_0 and c_1 through `op` (which leaves its result in DST 0), packed to c_16.
fn one_tile(c: &mut Compute, op: impl Fn(&mut Compute)) {
    c.cb_wait_front(CBIndex::c_0, 1);
    c.cb_wait_front(CBIndex::c_1, 1);
    c.tile_regs_acquire();
    op(c);
    c.tile_regs_commit();
    c.tile_regs_wait();
    c.cb_reserve_back(CBIndex::c_16, 1);
    c.pack_tile(0, CBIndex::c_16);
    c.cb_push_back(CBIndex::c_16, 1);
    c.tile_regs_release();
}

/// The compute kernel of a one-tile matmul: c_0 · c_1 into c_16.
fn matmul_one_tile(c: &mut Compute) {
    c.mm_init(CBIndex::c_0, CBIndex::c_1, CBIndex::c_16, 0);
    one_tile(c, |c| c.matmul_tiles(CBIndex::c_0, CBIndex::c_1, 0, 0, 0));
}

#[test]
fn add_and_matmul_give_the_cpu_results() {
    let (av, ab) = tile(|i| (i % 13) as f32 * 0.25 - 1.0);
    let (bv, bb) = tile(|i| (i % 7) as f32 * 0.5);
    let sum = compute(&ab, &bb, |c| {
        c.binary_op_init_common(CBIndex::c_0, CBIndex::c_1, CBIndex::c_16);
        c.add_tiles_init(CBIndex::c_0, CBIndex::c_1, false);
        one_tile(c, |c| c.add_tiles(CBIndex::c_0, CBIndex::c_1, 0, 0, 0));
        c.cb_pop_front(CBIndex::c_0, 1);
        c.cb_pop_front(CBIndex::c_1, 1);
    })
    .unwrap();
    for i in 0..1024 {
        assert_eq!(sum[i], bfloat16::from_f32(av[i] + bv[i]).to_f32(), "element {i}");
    }
    let prod = compute(&ab, &bb, matmul_one_tile).unwrap();
    for i in 0..32 {
        for j in 0..32 {
            let want: f64 = (0..32).map(|k| av[i * 32 + k] as f64 * bv[k * 32 + j] as f64).sum();
            let got = prod[i * 32 + j] as f64;
            assert!((got - want).abs() <= want.abs() * 0.02 + 0.05, "({i},{j}): {got} vs {want}");
        }
    }
}

/// A matmul of the tiles whose bytes sit in CBs 0 and 1 before the run: A written there by a tagged
/// (multicast) write with tag 5 when `a_tagged`, B by one with tag 6; `planted`, if any, is the tile the
/// shared table holds for A's bytes (as if another core had decoded them). Returns the product and the
/// table afterwards.
fn matmul_of_multicast_bytes(
    a: &[u8],
    b: &[u8],
    a_tagged: bool,
    planted: Option<Arc<[f32; 1024]>>,
) -> (Vec<f32>, Rc<RefCell<SharedTiles>>) {
    let shared = Rc::new(RefCell::new(SharedTiles::new(16)));
    let (a, b, table) = (a.to_vec(), b.to_vec(), shared.clone());
    let prepare = move |core: &mut sim_tensix::TensixCore| {
        if a_tagged {
            core.l1.write_tagged(u64::from(IN0.1), &a, 5).unwrap();
        } else {
            core.l1.write(u64::from(IN0.1), &a).unwrap();
        }
        core.l1.write_tagged(u64::from(IN1.1), &b, 6).unwrap();
        core.compute.as_mut().unwrap().set_shared(table.clone());
        if let Some(t) = planted {
            table.borrow_mut().insert(5, IN0.1, DataFormat::Float16_b, false, t);
        }
    };
    // The bytes are in place: the feeder only hands the pages over.
    let feeder = Body::Dataflow(
        Risc::Ncrisc,
        Box::new(|k| {
            for cb in [CBIndex::c_0, CBIndex::c_1] {
                k.cb_reserve_back(cb, 1);
                k.cb_push_back(cb, 1);
            }
        }),
    );
    let bodies = vec![feeder, Body::Compute(settings(), Box::new(matmul_one_tile))];
    let out = run_prepared(prepare, &[IN0, IN1, OUT], &[], unit_costs(), bodies).unwrap();
    let bytes = out.host.core.l1.read(u64::from(OUT.1), 2048).unwrap().to_vec();
    (rows_of(&unpack_tiles(DataFormat::Float16_b, &bytes)), shared)
}

#[test]
fn an_unpack_takes_the_tile_another_core_decoded_from_the_same_multicast_bytes() {
    let (_, ab) = tile(|i| (i % 13) as f32 * 0.25 - 1.0);
    let (bv, bb) = tile(|i| (i % 7) as f32 * 0.5);
    // Decoding A's bytes gives a different product from the planted all-twos tile, so the output shows
    // which one the unpack used.
    let twos = Arc::new([2.0f32; 1024]);
    let want_twos: Vec<f32> = (0..1024)
        .map(|e| bfloat16::from_f32((0..32).map(|k| 2.0 * bv[k * 32 + e % 32]).sum::<f32>()).to_f32())
        .collect();
    let (decoded, _) = matmul_of_multicast_bytes(&ab, &bb, false, None);
    assert_ne!(decoded, want_twos);
    // Tagged bytes: the planted tile is taken (one hit), and B, decoded here, is left for the others.
    let (shared_a, table) = matmul_of_multicast_bytes(&ab, &bb, true, Some(twos.clone()));
    assert_eq!(shared_a, want_twos);
    let t = table.borrow_mut().get(6, IN1.1, DataFormat::Float16_b, false).expect("B's tile is shared");
    assert_eq!(t[..], rows_of(&layout_faces(&bv))[..], "B's decoded rows");
    assert_eq!(table.borrow().hits(), 2);
    // Untagged bytes (any plain write since) are decoded here even with a tile under the old tag.
    let (own, table) = matmul_of_multicast_bytes(&ab, &bb, false, Some(twos));
    assert_eq!(own, decoded);
    assert_eq!(table.borrow().hits(), 0);
}

#[test]
fn misuse_is_reported() {
    let (_, ab) = tile(|_| 1.0);
    let e = compute(&ab, &ab, |c| {
        c.tile_regs_acquire();
        c.copy_tile_init(CBIndex::c_0);
        c.cb_wait_front(CBIndex::c_0, 1);
        c.copy_tile(CBIndex::c_0, 0, 9);
        c.tile_regs_commit();
    })
    .unwrap_err();
    assert!(e.starts_with("copy_tile: DST index 9 is over the capacity of 8 tiles"), "{e}");
    // Packing more tiles than the output CB holds.
    let e = compute(&ab, &ab, |c| {
        c.copy_tile_init(CBIndex::c_0);
        c.cb_wait_front(CBIndex::c_0, 1);
        c.tile_regs_acquire();
        c.copy_tile(CBIndex::c_0, 0, 0);
        c.tile_regs_commit();
        c.tile_regs_wait();
        c.cb_reserve_back(CBIndex::c_16, 2);
        for _ in 0..3 {
            c.pack_tile(0, CBIndex::c_16);
        }
        c.tile_regs_release();
    })
    .unwrap_err();
    assert!(e.contains("c_16 has no room for page 2"), "{e}");
}
