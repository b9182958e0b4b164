//! Raw serde shapes of the SoC descriptor (tt-metal soc_descriptors/*.yaml and tt-umd soc_descs/*.yaml).

use super::*;

/// A coordinate string `X-Y` as written (parsed and checked by the descriptor validation).
pub(crate) type RawCoord = String;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSoc {
    pub grid: RawGrid,
    pub arc: Vec<RawCoord>,
    pub pcie: Vec<RawCoord>,
    pub dram: Vec<RawDramChannel>,
    #[serde(default)]
    pub dram_views: Option<Vec<RawDramView>>,
    #[serde(default)]
    pub dram_view_size: Option<u64>,
    // Older tt-metal flattened form of the DRAM views.
    #[serde(default)]
    pub dram_preferred_eth_endpoint: Option<Vec<RawCoord>>,
    #[serde(default)]
    pub dram_preferred_worker_endpoint: Option<Vec<RawCoord>>,
    #[serde(default)]
    pub dram_address_offsets: Option<Vec<u64>>,
    pub eth: Vec<RawCoord>,
    pub functional_workers: Vec<RawCoord>,
    #[serde(default)]
    pub harvested_workers: Option<Vec<RawCoord>>,
    pub router_only: Vec<RawCoord>,
    #[serde(default)]
    pub security: Option<Vec<RawCoord>>,
    #[serde(default)]
    pub l2cpu: Option<Vec<RawCoord>>,
    #[serde(default)]
    pub dispatch: Option<Vec<RawCoord>>,
    #[serde(default)]
    pub noc0_x_to_noc1_x: Option<Vec<u32>>,
    #[serde(default)]
    pub noc0_y_to_noc1_y: Option<Vec<u32>>,
    pub worker_l1_size: u64,
    pub dram_bank_size: u64,
    pub eth_l1_size: u64,
    pub arch_name: String,
    pub features: RawFeatures,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawGrid {
    pub x_size: u32,
    pub y_size: u32,
}

/// One entry of `dram`: a list of subchannel endpoints, or (flat form) a single endpoint.
#[derive(Debug)]
pub(crate) struct RawDramChannel(pub Vec<RawCoord>);

impl<'de> Deserialize<'de> for RawDramChannel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawDramChannel;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a coordinate `X-Y` or a list of them")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(RawDramChannel(vec![v.to_string()]))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(RawDramChannel(vec![v.to_string()]))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Ok(RawDramChannel(vec![v.to_string()]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut v = Vec::new();
                while let Some(s) = seq.next_element::<String>()? {
                    v.push(s);
                }
                Ok(RawDramChannel(v))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDramView {
    pub channel: u32,
    pub eth_endpoint: RawEndpoint,
    pub worker_endpoint: RawEndpoint,
    pub address_offset: u64,
}

/// A DRAM view endpoint: one subchannel for both NoCs (Grayskull) or `[noc0, noc1]`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RawEndpoint(pub [u32; 2]);

impl<'de> Deserialize<'de> for RawEndpoint {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawEndpoint;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a subchannel index or a list `[noc0, noc1]` of two")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                let v = u32::try_from(v).map_err(|_| E::custom("subchannel index too large"))?;
                Ok(RawEndpoint([v, v]))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                let v = u32::try_from(v).map_err(|_| E::custom(format!("subchannel index {v} is negative")))?;
                Ok(RawEndpoint([v, v]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let a: u32 = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let b: u32 = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, &self))?;
                if seq.next_element::<u32>()?.is_some() {
                    return Err(de::Error::invalid_length(3, &self));
                }
                Ok(RawEndpoint([a, b]))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawFeatures {
    #[serde(default)]
    pub noc: Option<RawNocFeatures>,
    pub unpacker: RawUnpacker,
    pub math: RawMath,
    pub packer: RawVersion,
    pub overlay: RawVersion,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawNocFeatures {
    #[serde(default)]
    pub translation_id_enabled: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawUnpacker {
    pub version: u32,
    pub inline_srca_trans_without_srca_trans_instr: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawMath {
    pub dst_size_alignment: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawVersion {
    pub version: u32,
}

pub(crate) fn parse_soc(text: &str, file: &str) -> Result<RawSoc, SocError> {
    parse_yaml(text, file)
}
