//! Device buffers: interleaved buffers in DRAM or L1, their page → bank placement, host data conversion,
//! and the compile-time args describing a buffer to a kernel's `TensorAccessor`.

use sim_tensix::bfloat16;

/// Where a buffer lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BufferType {
    /// DRAM, interleaved over the DRAM banks.
    Dram,
    /// L1, interleaved over the L1 banks (one per compute core).
    L1,
}

/// tt-metal's `InterleavedBufferConfig{device, size, page_size, buffer_type}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InterleavedBufferConfig {
    /// Total size, bytes.
    pub size: u64,
    /// Page size, bytes.
    pub page_size: u64,
    /// DRAM or L1.
    pub buffer_type: BufferType,
}

/// An allocated device buffer (a handle; the bytes live in the device).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Buffer {
    pub(crate) id: u32,
    pub(crate) address: u64,
    pub(crate) size: u64,
    pub(crate) page_size: u64,
    pub(crate) aligned_page_size: u64,
    pub(crate) buffer_type: BufferType,
}

impl Buffer {
    /// `address()`: the buffer's address, the same in every bank.
    pub fn address(&self) -> u32 {
        self.address as u32
    }

    /// `size()`, bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// `page_size()`, bytes.
    pub fn page_size(&self) -> u64 {
        self.page_size
    }

    /// Page size rounded up to the bank alignment.
    pub fn aligned_page_size(&self) -> u64 {
        self.aligned_page_size
    }

    /// `num_pages()`.
    pub fn num_pages(&self) -> u64 {
        self.size.div_ceil(self.page_size)
    }

    /// `buffer_type()`.
    pub fn buffer_type(&self) -> BufferType {
        self.buffer_type
    }

    /// `is_dram()`.
    pub fn is_dram(&self) -> bool {
        self.buffer_type == BufferType::Dram
    }
}

/// `TensorAccessorArgs(buffer).append_to(compile_args)`: an interleaved buffer appends one arg, its
/// `ArgsConfig` bitmask (`IsDram = 2`).
pub fn tensor_accessor_args(b: &Buffer) -> Vec<u32> {
    vec![if b.is_dram() { sim_tensix::addrgen::args_config::IS_DRAM } else { 0 }]
}

/// Element types the host can write to and read from buffers (little-endian).
pub trait HostData: Sized + Copy {
    /// Bytes per element.
    const SIZE: usize;
    /// Append the element's bytes.
    fn put(&self, out: &mut Vec<u8>);
    /// Read one element.
    fn get(b: &[u8]) -> Self;
}

macro_rules! host_data {
    ($($t:ty),*) => {$(
        impl HostData for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b[..Self::SIZE].try_into().expect("element size"))
            }
        }
    )*};
}
host_data!(u8, u16, u32, u64, i8, i16, i32, i64, f32);

impl HostData for bfloat16 {
    const SIZE: usize = 2;
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0.to_le_bytes());
    }
    fn get(b: &[u8]) -> Self {
        bfloat16(u16::from_le_bytes([b[0], b[1]]))
    }
}

/// Elements as little-endian bytes.
pub fn to_bytes<T: HostData>(v: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.len() * T::SIZE);
    for x in v {
        x.put(&mut out);
    }
    out
}

/// Little-endian bytes as elements (a trailing partial element is dropped).
pub fn from_bytes<T: HostData>(b: &[u8]) -> Vec<T> {
    b.chunks_exact(T::SIZE).map(T::get).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_data_round_trips() {
        let v = vec![1.5f32, -2.0, 3.25];
        assert_eq!(from_bytes::<f32>(&to_bytes(&v)), v);
        let b = vec![bfloat16::from_f32(1.0), bfloat16::from_f32(-3.0)];
        assert_eq!(to_bytes(&b), vec![0x80, 0x3f, 0x40, 0xc0]);
        assert_eq!(from_bytes::<u16>(&[1, 0, 2, 0, 9]), vec![1, 2]);
    }
}
