//! A core's L1 SRAM: one flat byte array of the descriptor's `worker_l1_size`, bounds-checked.
//! The array is zero-allocated, so untouched pages cost no host memory.

use std::fmt;

/// An L1 access outside the array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct L1OutOfRange {
    /// First byte accessed.
    pub addr: u64,
    /// Bytes accessed.
    pub len: u64,
    /// L1 size in bytes.
    pub size: u64,
}

impl fmt::Display for L1OutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "L1 access [{:#x}, {:#x}) is outside the {}-byte L1", self.addr, self.addr + self.len, self.size)
    }
}

/// One core's L1.
#[derive(Clone)]
pub struct L1 {
    bytes: Vec<u8>,
}

impl fmt::Debug for L1 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "L1({} bytes)", self.bytes.len())
    }
}

impl L1 {
    /// A zeroed L1 of `size` bytes.
    pub fn new(size: u32) -> L1 {
        L1 { bytes: vec![0; size as usize] }
    }

    /// Size in bytes.
    pub fn size(&self) -> u32 {
        self.bytes.len() as u32
    }

    /// Check that `[addr, addr + len)` lies inside.
    pub fn check(&self, addr: u64, len: u64) -> Result<(), L1OutOfRange> {
        if addr.checked_add(len).is_none_or(|e| e > self.bytes.len() as u64) {
            return Err(L1OutOfRange { addr, len, size: self.bytes.len() as u64 });
        }
        Ok(())
    }

    /// The bytes `[addr, addr + len)`.
    pub fn read(&self, addr: u64, len: u64) -> Result<&[u8], L1OutOfRange> {
        self.check(addr, len)?;
        Ok(&self.bytes[addr as usize..(addr + len) as usize])
    }

    /// Write `data` at `addr`.
    pub fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), L1OutOfRange> {
        self.check(addr, data.len() as u64)?;
        self.bytes[addr as usize..addr as usize + data.len()].copy_from_slice(data);
        Ok(())
    }

    /// A little-endian 32-bit word.
    pub fn read_u32(&self, addr: u64) -> Result<u32, L1OutOfRange> {
        let b = self.read(addr, 4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Write a little-endian 32-bit word.
    pub fn write_u32(&mut self, addr: u64, v: u32) -> Result<(), L1OutOfRange> {
        self.write(addr, &v.to_le_bytes())
    }

    /// Copy `len` bytes inside L1 (overlap allowed).
    pub fn copy_within(&mut self, src: u64, dst: u64, len: u64) -> Result<(), L1OutOfRange> {
        self.check(src, len)?;
        self.check(dst, len)?;
        self.bytes.copy_within(src as usize..(src + len) as usize, dst as usize);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_checked() {
        let mut l1 = L1::new(1024);
        l1.write_u32(1020, 0xdead_beef).unwrap();
        assert_eq!(l1.read_u32(1020).unwrap(), 0xdead_beef);
        let e = l1.write_u32(1022, 1).unwrap_err();
        assert_eq!(e.to_string(), "L1 access [0x3fe, 0x402) is outside the 1024-byte L1");
        assert!(l1.read(u64::MAX, 2).is_err());
    }
}
