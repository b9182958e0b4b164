//! Raw device memory from the host, outside any buffer: a worker core's L1 (`WriteToDeviceL1` /
//! `ReadFromDeviceL1`), an Ethernet core's L1 (the same calls with `CoreType::ETH`) and a DRAM channel's
//! address space (`WriteToDeviceDRAMChannel` / `ReadFromDeviceDRAMChannel`), each range checked.

use super::Device;
use crate::buffer::{HostData, from_bytes, to_bytes};
use crate::error::DeviceError;
use layout::core_ranges::CoreCoord;

impl Device {
    pub(crate) fn core_index(&self, c: CoreCoord, what: &str) -> Result<usize, DeviceError> {
        let g = self.chip.logical_grid();
        if c.x >= g.x || c.y >= g.y {
            return Err(DeviceError::api(format!("{what}: core ({},{}) is outside the {g} logical grid", c.x, c.y)));
        }
        Ok((c.y * g.x + c.x) as usize)
    }

    /// `WriteToDeviceL1(device, core, addr, data)`.
    pub fn write_to_device_l1<T: HostData>(
        &mut self,
        core: CoreCoord,
        addr: u32,
        data: &[T],
    ) -> Result<(), DeviceError> {
        let i = self.core_index(core, "WriteToDeviceL1")?;
        self.l1[i].write(addr as u64, &to_bytes(data)).map_err(|e| DeviceError::api(format!("WriteToDeviceL1: {e}")))
    }

    /// `ReadFromDeviceL1(device, core, addr, size)`.
    pub fn read_from_device_l1<T: HostData>(
        &self,
        core: CoreCoord,
        addr: u32,
        count: usize,
    ) -> Result<Vec<T>, DeviceError> {
        let i = self.core_index(core, "ReadFromDeviceL1")?;
        let bytes = self.l1[i]
            .read(addr as u64, (count * T::SIZE) as u64)
            .map_err(|e| DeviceError::api(format!("ReadFromDeviceL1: {e}")))?;
        Ok(from_bytes(&bytes))
    }

    /// The DRAM channel `channel`, checked to hold `len` bytes at `addr`.
    fn dram_channel_range(&self, channel: u32, addr: u32, len: u64, what: &str) -> Result<usize, DeviceError> {
        let n = self.dram.num_channels();
        if channel as usize >= n {
            return Err(DeviceError::api(format!(
                "{what}: DRAM channel {channel} does not exist: this chip has channels 0..{n}"
            )));
        }
        let c = self.dram.channel(channel as usize);
        if !c.contains(addr as u64, len) {
            return Err(DeviceError::api(format!(
                "{what}: {len} bytes at {addr:#x} run past the end of DRAM channel {channel} ({:#x} bytes)",
                c.size()
            )));
        }
        Ok(channel as usize)
    }

    /// `WriteToDeviceDRAMChannel(device, channel, addr, data)`: raw bytes into a DRAM channel's address space.
    pub fn write_to_device_dram_channel<T: HostData>(
        &mut self,
        channel: u32,
        addr: u32,
        data: &[T],
    ) -> Result<(), DeviceError> {
        let bytes = to_bytes(data);
        let c = self.dram_channel_range(channel, addr, bytes.len() as u64, "WriteToDeviceDRAMChannel")?;
        self.dram.channel_mut(c).write(addr as u64, &bytes);
        Ok(())
    }

    /// `ReadFromDeviceDRAMChannel(device, channel, addr, size)`.
    pub fn read_from_device_dram_channel<T: HostData>(
        &self,
        channel: u32,
        addr: u32,
        count: usize,
    ) -> Result<Vec<T>, DeviceError> {
        let len = (count * T::SIZE) as u64;
        let c = self.dram_channel_range(channel, addr, len, "ReadFromDeviceDRAMChannel")?;
        let mut bytes = vec![0u8; len as usize];
        self.dram.channel(c).read(addr as u64, &mut bytes);
        Ok(from_bytes(&bytes))
    }

    fn eth_index(&self, channel: u32, what: &str) -> Result<usize, DeviceError> {
        if channel as usize >= self.eth_l1.len() {
            return Err(DeviceError::api(format!(
                "{what}: Ethernet channel {channel} does not exist: this chip has channels 0..{}",
                self.eth_l1.len()
            )));
        }
        Ok(channel as usize)
    }

    /// `WriteToDeviceL1(device, eth_core, addr, data, CoreType::ETH)`: the L1 of Ethernet channel `channel`.
    pub fn write_to_eth_l1<T: HostData>(&mut self, channel: u32, addr: u32, data: &[T]) -> Result<(), DeviceError> {
        let i = self.eth_index(channel, "WriteToDeviceL1 (Ethernet)")?;
        self.eth_l1[i]
            .write(addr as u64, &to_bytes(data))
            .map_err(|e| DeviceError::api(format!("WriteToDeviceL1 (Ethernet channel {channel}): {e}")))
    }

    /// `ReadFromDeviceL1(device, eth_core, addr, size, CoreType::ETH)`.
    pub fn read_from_eth_l1<T: HostData>(&self, channel: u32, addr: u32, count: usize) -> Result<Vec<T>, DeviceError> {
        let i = self.eth_index(channel, "ReadFromDeviceL1 (Ethernet)")?;
        let bytes = self.eth_l1[i]
            .read(addr as u64, (count * T::SIZE) as u64)
            .map_err(|e| DeviceError::api(format!("ReadFromDeviceL1 (Ethernet channel {channel}): {e}")))?;
        Ok(from_bytes(&bytes))
    }
}
