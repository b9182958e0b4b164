//! NoC addresses as kernels build them: a local address in the low `local_bits` bits, then the node's x and
//! y (unicast) or the start and end corners of a rectangle (multicast), `NOC_ADDR_NODE_ID_BITS` each.
//! The width of the local part depends on the chip (hardware.md §3.4: `NOC_ADDR_LOCAL_BITS` is 32 on
//! Grayskull, 36 on Wormhole B0 and Blackhole).

use soc_descriptors::Arch;

/// `NOC_ADDR_NODE_ID_BITS`: bits of one NoC coordinate.
pub const NODE_ID_BITS: u32 = 6;
const NODE_MASK: u64 = (1 << NODE_ID_BITS) - 1;

/// The NoC address encoding of one chip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NocAddrMap {
    /// `NOC_ADDR_LOCAL_BITS`.
    pub local_bits: u32,
}

impl NocAddrMap {
    /// The encoding `arch` uses.
    pub fn of(arch: Arch) -> NocAddrMap {
        match arch {
            Arch::Grayskull => NocAddrMap { local_bits: 32 },
            Arch::WormholeB0 | Arch::Blackhole => NocAddrMap { local_bits: 36 },
        }
    }

    fn local_mask(self) -> u64 {
        (1u64 << self.local_bits) - 1
    }

    /// `NOC_XY_ADDR(x, y, addr)`.
    pub fn xy(self, x: u32, y: u32, addr: u64) -> u64 {
        let b = self.local_bits;
        ((y as u64 & NODE_MASK) << (b + NODE_ID_BITS)) | ((x as u64 & NODE_MASK) << b) | (addr & self.local_mask())
    }

    /// Split a unicast NoC address into (x, y, local address).
    pub fn decode(self, a: u64) -> (u32, u32, u64) {
        let b = self.local_bits;
        let x = (a >> b) & NODE_MASK;
        let y = (a >> (b + NODE_ID_BITS)) & NODE_MASK;
        (x as u32, y as u32, a & self.local_mask())
    }

    /// `NOC_MULTICAST_ADDR(x_start, y_start, x_end, y_end, addr)`.
    pub fn multicast(self, x_start: u32, y_start: u32, x_end: u32, y_end: u32, addr: u64) -> u64 {
        let (b, n) = (self.local_bits, NODE_ID_BITS);
        ((y_start as u64 & NODE_MASK) << (b + 3 * n))
            | ((x_start as u64 & NODE_MASK) << (b + 2 * n))
            | ((y_end as u64 & NODE_MASK) << (b + n))
            | ((x_end as u64 & NODE_MASK) << b)
            | (addr & self.local_mask())
    }

    /// Split a multicast NoC address into (x_start, y_start, x_end, y_end, local address).
    pub fn decode_multicast(self, a: u64) -> (u32, u32, u32, u32, u64) {
        let (b, n) = (self.local_bits, NODE_ID_BITS);
        let f = |s: u32| ((a >> s) & NODE_MASK) as u32;
        (f(b + 2 * n), f(b + 3 * n), f(b), f(b + n), a & self.local_mask())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_round_trip_per_arch() {
        let wh = NocAddrMap::of(Arch::WormholeB0);
        let a = wh.xy(18, 19, 0x1_2345_6789);
        assert_eq!(a, (19u64 << 42) | (18u64 << 36) | 0x1_2345_6789);
        assert_eq!(wh.decode(a), (18, 19, 0x1_2345_6789));
        let m = wh.multicast(18, 18, 25, 25, 0x1000);
        assert_eq!(wh.decode_multicast(m), (18, 18, 25, 25, 0x1000));
        // Grayskull keeps 32 local bits: the coordinates sit lower and a 36-bit address loses its top bits.
        let gs = NocAddrMap::of(Arch::Grayskull);
        let g = gs.xy(1, 1, 0x1_0000_1000);
        assert_eq!(g, (1u64 << 38) | (1u64 << 32) | 0x1000);
        assert_eq!(gs.decode(g), (1, 1, 0x1000));
        assert_eq!(gs.decode_multicast(gs.multicast(1, 2, 3, 4, 0x20)), (1, 2, 3, 4, 0x20));
    }
}
