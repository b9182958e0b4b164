//! Raw serde shapes of the cluster descriptor (tt-umd ClusterDescriptor YAML; block or flow style, current or
//! legacy keys).

use super::*;

/// Chip ids are the YAML map keys; a `BTreeMap` keeps them in order (duplicates are a YAML error).
pub(crate) type ChipMap<T> = std::collections::BTreeMap<u32, T>;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCluster {
    pub arch: ChipMap<String>,
    pub chips: ChipMap<Vec<i64>>,
    #[serde(default)]
    pub chip_unique_ids: Option<ChipMap<u64>>,
    pub ethernet_connections: Vec<Vec<RawLinkEnd>>,
    #[serde(default)]
    pub ethernet_connections_to_remote_devices: Option<Vec<Vec<RawLinkEnd>>>,
    pub chips_with_mmio: Vec<RawMmio>,
    #[serde(default)]
    pub io_device_type: Option<String>,
    pub harvesting: ChipMap<RawHarvesting>,
    #[serde(default)]
    pub chip_to_bus_id: Option<ChipMap<String>>,
    pub boards: Vec<Vec<RawBoardField>>,
    #[serde(default)]
    pub asic_locations: Option<ChipMap<u32>>,
    #[serde(default)]
    pub chip_pci_bdfs: Option<ChipMap<String>>,
    // Legacy keys (removed from the serializer in 2026; still read).
    #[serde(default)]
    pub chip_to_boardtype: Option<ChipMap<String>>,
    #[serde(default)]
    pub boardtype: Option<ChipMap<String>>,
}

/// One element of a connection entry: `{chip, chan}`, `{remote_chip_id, chan}` or `{routing_enabled}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawLinkEnd {
    #[serde(default)]
    pub chip: Option<u32>,
    #[serde(default)]
    pub chan: Option<u32>,
    #[serde(default)]
    pub remote_chip_id: Option<u64>,
    #[serde(default)]
    pub routing_enabled: Option<bool>,
}

/// One entry of `chips_with_mmio`: `{chip: device_index}` or a bare chip id.
#[derive(Debug)]
pub(crate) struct RawMmio {
    pub chip: u32,
    pub index: Option<u32>,
}

impl<'de> Deserialize<'de> for RawMmio {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawMmio;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a chip id or `chip_id: device_index`")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawMmio, E> {
                let chip = u32::try_from(v).map_err(|_| E::custom(format!("chip id {v} does not fit 32 bits")))?;
                Ok(RawMmio { chip, index: None })
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut m: A) -> Result<RawMmio, A::Error> {
                let (chip, index): (u32, u32) = m
                    .next_entry()?
                    .ok_or_else(|| de::Error::custom("expected `chip_id: device_index`, got an empty mapping"))?;
                if m.next_key::<u32>()?.is_some() {
                    return Err(de::Error::custom("expected one `chip_id: device_index` per list entry"));
                }
                Ok(RawMmio { chip, index: Some(index) })
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawHarvesting {
    pub noc_translation: bool,
    pub harvest_mask: u64,
    #[serde(default)]
    pub dram_harvesting_mask: Option<u64>,
    #[serde(default)]
    pub eth_harvesting_mask: Option<u64>,
    #[serde(default)]
    pub pcie_harvesting_mask: Option<u64>,
    #[serde(default)]
    pub l2cpu_harvesting_mask: Option<u64>,
}

/// One of the three one-key maps of a `boards` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBoardField {
    #[serde(default)]
    pub board_id: Option<u64>,
    #[serde(default)]
    pub board_type: Option<String>,
    #[serde(default)]
    pub chips: Option<Vec<u32>>,
}

/// Parse a cluster descriptor's raw shape.
pub(crate) fn parse_cluster(text: &str, file: &str) -> Result<RawCluster, SocError> {
    parse_yaml(text, file)
}
