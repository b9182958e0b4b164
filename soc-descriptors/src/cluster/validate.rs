//! Checks a raw cluster descriptor into a [`ClusterDescriptor`]: every chip named anywhere has an arch;
//! channels exist on their chip and are used by one link each; masks fit their chip; boards have tt-umd's
//! three-map shape. Each error names the file, the key path and the value.

use super::{Board, BoardType, ChipHarvesting, ChipId, ClusterChip, ClusterDescriptor, EthEnd, EthLink, RemoteLink};
use crate::arch::Arch;
use crate::chip::{Chip, ChipOptions};
use crate::error::SocError;
use crate::yaml::{RawCluster, RawLinkEnd};
use std::collections::BTreeMap;

fn arch_of(name: &str) -> Option<Arch> {
    match name.to_ascii_lowercase().as_str() {
        "wormhole_b0" | "wormhole" => Some(Arch::WormholeB0),
        "blackhole" => Some(Arch::Blackhole),
        _ => None,
    }
}

fn mask32(file: &str, key: String, v: u64) -> Result<u32, SocError> {
    u32::try_from(v).map_err(|_| SocError::new(file, "mask does not fit 32 bits").key(key).value(v))
}

pub(super) fn validate(raw: RawCluster, file: &str) -> Result<ClusterDescriptor, SocError> {
    let err = |key: String, msg: &str| SocError::new(file, msg.to_string()).key(key);
    // Chips: every key of `arch`.
    let mut chips: BTreeMap<ChipId, ClusterChip> = BTreeMap::new();
    for (&id, name) in &raw.arch {
        let arch = match arch_of(name) {
            Some(a) => a,
            None if name.eq_ignore_ascii_case("quasar") => {
                return Err(err(format!("arch.{id}"), "not modelled: Quasar chips")
                    .value(name)
                    .hint("tensim models wormhole_b0 and blackhole clusters"));
            }
            None => {
                return Err(err(format!("arch.{id}"), "unknown architecture")
                    .value(name)
                    .hint("use wormhole_b0 (or Wormhole) or blackhole"));
            }
        };
        chips.insert(
            id,
            ClusterChip {
                id,
                arch,
                eth_coord: None,
                unique_id: u64::from(id) << 32,
                mmio: None,
                harvesting: ChipHarvesting::default(),
                board: None,
                asic_location: None,
                bus_id: None,
            },
        );
    }
    let known = |key: String, id: ChipId, chips: &BTreeMap<ChipId, ClusterChip>| -> Result<(), SocError> {
        if chips.contains_key(&id) {
            Ok(())
        } else {
            Err(SocError::new(file, "names a chip without an arch")
                .key(key)
                .value(id)
                .hint(format!("add `{id}: wormhole_b0` (or blackhole) under `arch`, or fix the chip id")))
        }
    };
    for (&id, v) in &raw.chips {
        known(format!("chips.{id}"), id, &chips)?;
        let c: [i64; 4] = v.as_slice().try_into().map_err(|_| {
            err(format!("chips.{id}"), "expected 4 Ethernet coordinates [x, y, rack, shelf]").value(format!("{v:?}"))
        })?;
        chips.get_mut(&id).expect("checked").eth_coord = Some(c);
    }
    for (&id, &uid) in raw.chip_unique_ids.iter().flatten() {
        known(format!("chip_unique_ids.{id}"), id, &chips)?;
        chips.get_mut(&id).expect("checked").unique_id = uid;
    }
    for (i, m) in raw.chips_with_mmio.iter().enumerate() {
        known(format!("chips_with_mmio[{i}]"), m.chip, &chips)?;
        let c = chips.get_mut(&m.chip).expect("checked");
        if c.mmio.is_some() {
            return Err(err(format!("chips_with_mmio[{i}]"), "chip listed twice").value(m.chip));
        }
        c.mmio = Some(m.index.unwrap_or(m.chip));
    }
    for (&id, h) in &raw.harvesting {
        let key = format!("harvesting.{id}");
        known(key.clone(), id, &chips)?;
        let c = chips.get_mut(&id).expect("checked");
        let hv = ChipHarvesting {
            noc_translation: h.noc_translation,
            tensix_mask: mask32(file, format!("{key}.harvest_mask"), h.harvest_mask)?,
            dram_mask: mask32(file, format!("{key}.dram_harvesting_mask"), h.dram_harvesting_mask.unwrap_or(0))?,
            eth_mask: mask32(file, format!("{key}.eth_harvesting_mask"), h.eth_harvesting_mask.unwrap_or(0))?,
            pcie_mask: mask32(file, format!("{key}.pcie_harvesting_mask"), h.pcie_harvesting_mask.unwrap_or(0))?,
            l2cpu_mask: mask32(file, format!("{key}.l2cpu_harvesting_mask"), h.l2cpu_harvesting_mask.unwrap_or(0))?,
        };
        let channels = super::eth_channels(c.arch);
        if hv.eth_mask >> channels != 0 {
            return Err(err(format!("{key}.eth_harvesting_mask"), "names Ethernet channels the chip does not have")
                .value(hv.eth_mask)
                .hint(format!("{} has {channels} channels: use bits 0..{}", c.arch, channels - 1)));
        }
        // The Tensix mask must describe a product of the arch (the same check a single chip gets).
        Chip::builtin(c.arch, ChipOptions { harvest_mask: hv.tensix_mask, ..Default::default() }).map_err(|e| {
            let mut out = SocError::new(file, e.message).key(format!("{key}.harvest_mask")).value(hv.tensix_mask);
            out.hint = e.hint;
            out
        })?;
        c.harvesting = hv;
    }
    if let Some(id) = chips.keys().find(|id| !raw.harvesting.contains_key(id)) {
        return Err(err("harvesting".into(), "chip has no harvesting entry")
            .value(id)
            .hint(format!("add `{id}: {{noc_translation: true, harvest_mask: 0}}` under `harvesting`")));
    }
    for (&id, bus) in raw.chip_to_bus_id.iter().flatten() {
        known(format!("chip_to_bus_id.{id}"), id, &chips)?;
        if !bus.starts_with("0x") {
            return Err(err(format!("chip_to_bus_id.{id}"), "a PCI bus id starts with 0x").value(bus));
        }
        chips.get_mut(&id).expect("checked").bus_id = Some(bus.clone());
    }
    for (&id, &loc) in raw.asic_locations.iter().flatten() {
        known(format!("asic_locations.{id}"), id, &chips)?;
        chips.get_mut(&id).expect("checked").asic_location = Some(loc);
    }
    for (&id, _) in raw.chip_pci_bdfs.iter().flatten() {
        known(format!("chip_pci_bdfs.{id}"), id, &chips)?;
        if chips[&id].mmio.is_none() {
            return Err(err(format!("chip_pci_bdfs.{id}"), "a PCI address is allowed only for an MMIO chip")
                .value(id)
                .hint("list the chip under chips_with_mmio or drop its PCI address"));
        }
    }
    for (key, map) in [("chip_to_boardtype", &raw.chip_to_boardtype), ("boardtype", &raw.boardtype)] {
        for (&id, _) in map.iter().flatten() {
            known(format!("{key}.{id}"), id, &chips)?;
        }
    }

    // Links.
    let channel_ok = |key: &str, end: EthEnd, chips: &BTreeMap<ChipId, ClusterChip>| -> Result<(), SocError> {
        known(format!("{key}.chip"), end.chip, chips)?;
        let c = &chips[&end.chip];
        let n = super::eth_channels(c.arch) - c.harvesting.eth_mask.count_ones();
        if end.channel >= n {
            return Err(SocError::new(file, "Ethernet channel does not exist on this chip")
                .key(format!("{key}.chan"))
                .value(end.channel)
                .hint(format!("chip {} ({}) has channels 0..{}", end.chip, c.arch, n.saturating_sub(1))));
        }
        Ok(())
    };
    let end_of = |key: &str, e: &RawLinkEnd| -> Result<EthEnd, SocError> {
        match (e.chip, e.chan, e.remote_chip_id, e.routing_enabled) {
            (Some(chip), Some(channel), None, None) => Ok(EthEnd { chip, channel }),
            _ => Err(SocError::new(file, "expected `{chip: ID, chan: N}`").key(key.to_string())),
        }
    };
    let mut used: BTreeMap<EthEnd, (String, EthEnd)> = BTreeMap::new();
    let mut links: Vec<EthLink> = Vec::new();
    for (i, entry) in raw.ethernet_connections.iter().enumerate() {
        let key = format!("ethernet_connections[{i}]");
        if !(2..=3).contains(&entry.len()) {
            return Err(err(
                key,
                "expected two ends `[{chip, chan}, {chip, chan}]` and optionally `{routing_enabled}`",
            )
            .value(format!("{} elements", entry.len())));
        }
        let a = end_of(&format!("{key}[0]"), &entry[0])?;
        let b = end_of(&format!("{key}[1]"), &entry[1])?;
        channel_ok(&format!("{key}[0]"), a, &chips)?;
        channel_ok(&format!("{key}[1]"), b, &chips)?;
        let routing_enabled = match entry.get(2) {
            None => None,
            Some(RawLinkEnd { chip: None, chan: None, remote_chip_id: None, routing_enabled: Some(r) }) => Some(*r),
            Some(_) => return Err(err(format!("{key}[2]"), "expected `{routing_enabled: true|false}`")),
        };
        if a == b {
            return Err(err(key, "a link joins a channel to itself").value(a));
        }
        let mut repeat = false;
        for (me, other) in [(a, b), (b, a)] {
            match used.get(&me) {
                Some((_, prev)) if *prev == other => repeat = true,
                Some((where_, prev)) => {
                    return Err(err(key.clone(), "channel used by two links")
                        .value(me)
                        .hint(format!("{where_} already links it to {prev}; a channel carries one link")));
                }
                None => {}
            }
        }
        if !repeat {
            used.insert(a, (key.clone(), b));
            used.insert(b, (key.clone(), a));
            links.push(EthLink { a, b, routing_enabled });
        }
    }
    let mut remote_links = Vec::new();
    for (i, entry) in raw.ethernet_connections_to_remote_devices.iter().flatten().enumerate() {
        let key = format!("ethernet_connections_to_remote_devices[{i}]");
        let ok = entry.len() == 2;
        let local = ok.then(|| end_of(&format!("{key}[0]"), &entry[0])).transpose()?;
        match (local, entry.get(1)) {
            (
                Some(local),
                Some(RawLinkEnd { chip: None, chan: Some(ch), remote_chip_id: Some(uid), routing_enabled: None }),
            ) => {
                channel_ok(&format!("{key}[0]"), local, &chips)?;
                if let Some((where_, prev)) = used.get(&local) {
                    return Err(err(key, "channel used by two links")
                        .value(local)
                        .hint(format!("{where_} already links it to {prev}")));
                }
                remote_links.push(RemoteLink { local, remote_unique_id: *uid, remote_channel: *ch });
            }
            _ => return Err(err(key, "expected `[{chip, chan}, {remote_chip_id, chan}]`")),
        }
    }

    // Boards.
    let mut boards = Vec::new();
    for (i, entry) in raw.boards.iter().enumerate() {
        let key = format!("boards[{i}]");
        let shape = "expected exactly `[{board_id: N}, {board_type: NAME}, {chips: [..]}]`";
        let [id, ty, cs] = entry.as_slice() else {
            return Err(err(key, shape).value(format!("{} elements", entry.len())));
        };
        let (Some(id), None, None) = (id.board_id, &id.board_type, &id.chips) else {
            return Err(err(format!("{key}[0]"), shape));
        };
        let (None, Some(ty), None) = (ty.board_id, &ty.board_type, &ty.chips) else {
            return Err(err(format!("{key}[1]"), shape));
        };
        let (None, None, Some(list)) = (cs.board_id, &cs.board_type, &cs.chips) else {
            return Err(err(format!("{key}[2]"), shape));
        };
        for &c in list {
            known(format!("{key}[2].chips"), c, &chips)?;
            let chip = chips.get_mut(&c).expect("checked");
            if chip.board.is_some() {
                return Err(err(format!("{key}[2].chips"), "chip is on two boards").value(c));
            }
            chip.board = Some(i);
        }
        boards.push(Board { id, board_type: BoardType::parse(ty), chips: list.clone() });
    }
    if let Some(io) = &raw.io_device_type
        && io != "PCIe"
        && io != "JTAG"
    {
        return Err(err("io_device_type".into(), "expected PCIe or JTAG").value(io));
    }
    if chips.is_empty() {
        return Err(err("arch".into(), "the cluster has no chips").hint("list each chip under `arch`"));
    }
    Ok(ClusterDescriptor {
        source: file.to_string(),
        chips: chips.into_values().collect(),
        links,
        remote_links,
        boards,
        io_device_type: raw.io_device_type,
    })
}
