//! Decoded operand tiles shared by the cores of one run: a multicast puts the same bytes at the same L1
//! address of every destination, and L1 says so with the write's tag ([`crate::hw::l1::L1::content_tag`]).
//! The first destination to unpack those bytes decodes them; the others take its tile instead of decoding
//! their own copy (a blocked matmul multicasts each operand tile to a row or column of cores). A tile is a
//! pure function of the bytes, the format and the transposition, so results are the same either way; the
//! cache only saves host time and memory.

use super::math::Tile;
use layout::format::DataFormat;
use std::sync::Arc;

/// What identifies a decoded tile across cores: the multicast's tag, the L1 address, the format and
/// whether it was transposed on the way in.
type Key = (u64, u32, DataFormat, bool);

/// A slot of the table: a key and its tile, or nothing yet.
type Slot = Option<(Key, Arc<Tile>)>;

/// Decoded tiles of multicast bytes in a direct-mapped table: each key has one slot, and a tile replaces
/// whatever held its slot (the destinations of one multicast unpack it at about the same time, so a
/// table of a few tiles per core keeps them; one lookup costs a multiply and one cache line).
#[derive(Debug)]
pub struct SharedTiles {
    slots: Box<[Slot]>,
    /// Lookups that found a tile (for tests and diagnostics).
    hits: u64,
}

impl SharedTiles {
    /// An empty table of `capacity` slots, rounded up to a power of two.
    pub fn new(capacity: usize) -> SharedTiles {
        SharedTiles { slots: vec![None; capacity.max(1).next_power_of_two()].into_boxed_slice(), hits: 0 }
    }

    fn slot(&self, key: &Key) -> usize {
        let (tag, addr, format, transposed) = *key;
        let h = (tag ^ (u64::from(addr) << 20) ^ ((format as u64) << 56) ^ (u64::from(transposed) << 63))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> 32) as usize & (self.slots.len() - 1)
    }

    /// The tile decoded from the bytes multicast with `tag` at `addr`, if some core kept it.
    pub fn get(&mut self, tag: u64, addr: u32, format: DataFormat, transposed: bool) -> Option<Arc<Tile>> {
        let key = (tag, addr, format, transposed);
        let t = match &self.slots[self.slot(&key)] {
            Some((k, t)) if *k == key => Some(t.clone()),
            _ => None,
        };
        self.hits += u64::from(t.is_some());
        t
    }

    /// Keep `tile`, decoded from the bytes multicast with `tag` at `addr`, in place of its slot's tile,
    /// which is returned (for reuse when no one else holds it).
    pub fn insert(
        &mut self,
        tag: u64,
        addr: u32,
        format: DataFormat,
        transposed: bool,
        tile: Arc<Tile>,
    ) -> Option<Arc<Tile>> {
        let key = (tag, addr, format, transposed);
        let i = self.slot(&key);
        self.slots[i].replace((key, tile)).map(|(_, t)| t)
    }

    /// Lookups that found a tile so far.
    pub fn hits(&self) -> u64 {
        self.hits
    }

    /// Tiles held.
    pub fn len(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some()).count()
    }

    /// Whether none is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_are_found_by_every_part_of_their_key_and_a_slot_holds_the_latest() {
        let mut s = SharedTiles::new(3);
        let t = |v: f32| Arc::new([v; 1024]);
        s.insert(7, 0x1000, DataFormat::Float16_b, false, t(1.0));
        assert_eq!(s.get(7, 0x1000, DataFormat::Float16_b, false).map(|x| x[0]), Some(1.0));
        assert!(s.get(8, 0x1000, DataFormat::Float16_b, false).is_none());
        assert!(s.get(7, 0x1800, DataFormat::Float16_b, false).is_none());
        assert!(s.get(7, 0x1000, DataFormat::Float32, false).is_none());
        assert!(s.get(7, 0x1000, DataFormat::Float16_b, true).is_none());
        assert_eq!(s.hits(), 1);
        // Four slots: of five keys, some share a slot, and a slot answers for its latest key only.
        for tag in 8..12 {
            s.insert(tag, 0x1000, DataFormat::Float16_b, false, t(tag as f32));
        }
        assert!(s.len() <= 4);
        let found: Vec<u64> =
            (7..12).filter(|&tag| s.get(tag, 0x1000, DataFormat::Float16_b, false).is_some()).collect();
        assert_eq!(found.len(), s.len(), "each held tile under its own key");
        assert!(found.contains(&11), "the latest insert is always found");
        for tag in found {
            assert_eq!(s.get(tag, 0x1000, DataFormat::Float16_b, false).map(|x| x[0]), Some(tag as f32));
        }
    }
}
