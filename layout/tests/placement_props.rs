//! Property tests of placement: for random tensors, shards, core counts and strategies, every host page has
//! exactly one (bank, slot), that slot maps back to it, and every other slot is padding.

use layout::placement::{DistributionStrategy, ShardDistribution};
use layout::{Distribution, Shape};
use proptest::prelude::*;
use std::collections::HashSet;

fn check(d: &Distribution) -> Result<(), TestCaseError> {
    let mut seen = HashSet::new();
    for p in 0..d.num_pages() {
        let l = d.locate(p).expect("every host page has a location");
        prop_assert!(l.bank < d.num_banks());
        prop_assert!(l.slot < d.slots_per_bank(), "slot {} of {}", l.slot, d.slots_per_bank());
        prop_assert!(seen.insert((l.bank, l.slot)), "two pages share bank {} slot {}", l.bank, l.slot);
        prop_assert_eq!(d.host_page(l.bank, l.slot), Some(p));
    }
    prop_assert!(d.locate(d.num_pages()).is_none());
    // Every slot not taken is padding.
    let mut real = 0;
    for b in 0..d.num_banks() {
        for s in 0..d.slots_per_bank() {
            if let Some(p) = d.host_page(b, s) {
                prop_assert!(seen.contains(&(b, s)));
                prop_assert!(p < d.num_pages());
                real += 1;
            }
        }
    }
    prop_assert_eq!(real, d.num_pages());
    Ok(())
}

proptest! {
    #[test]
    fn interleaved_is_a_bijection(pages in 1u64..500, banks in 1u32..20) {
        check(&Distribution::interleaved(pages, banks))?;
    }

    #[test]
    fn sharded_is_a_bijection(
        dims in prop::collection::vec((1u64..7, 1u64..5), 1..4),
        cores in 1u32..10,
        grid2d in any::<bool>(),
        cols in 1u32..4,
    ) {
        let tensor = Shape::new(dims.iter().map(|d| d.0).collect::<Vec<_>>());
        let shard = Shape::new(dims.iter().map(|d| d.1.min(d.0)).collect::<Vec<_>>());
        let (cores, strategy) = if grid2d {
            let rows = cores.div_ceil(cols);
            (cols * rows, DistributionStrategy::Grid2D { cols, rows })
        } else {
            (cores, DistributionStrategy::RoundRobin1D)
        };
        let d = ShardDistribution::new(tensor, shard, cores, strategy).unwrap();
        prop_assert!(d.num_cores_with_data() <= d.num_cores());
        check(&Distribution::Sharded(d))?;
    }
}
