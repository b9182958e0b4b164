//! Unit tests of cluster descriptor parsing and validation: both YAML styles, legacy keys, and bad files
//! naming the key and value.

use super::*;

const N300: &str = "arch: {0: Wormhole, 1: Wormhole}
chips: {0: [0,0,0,0], 1: [1,0,0,0]}
ethernet_connections: [
   [{chip: 0, chan: 8}, {chip: 1, chan: 0}],
   [{chip: 0, chan: 9}, {chip: 1, chan: 1}, {routing_enabled: true}],
]
chips_with_mmio: [0: 0,]
harvesting: {0: {noc_translation: true, harvest_mask: 65}, 1: {noc_translation: true, harvest_mask: 5}}
boards: [[{board_id: 7}, {board_type: n300}, {chips: [0,1]}]]
";

fn parse(text: &str) -> Result<ClusterDescriptor, SocError> {
    ClusterDescriptor::from_yaml_str(text, "c.yaml")
}

fn bad(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn flow_style_n300_parses() {
    let cd = parse(N300).unwrap();
    assert_eq!(cd.chips.len(), 2);
    assert_eq!(cd.links.len(), 2);
    assert_eq!(cd.chips[0].mmio, Some(0));
    assert_eq!(cd.chips[1].mmio, None);
    assert_eq!(cd.links[1].routing_enabled, Some(true));
    assert_eq!(cd.peer(EthEnd { chip: 0, channel: 9 }), Some(EthEnd { chip: 1, channel: 1 }));
    assert_eq!(cd.channels_between(1, 0), vec![(0, 8), (1, 9)]);
    assert_eq!(cd.chips[0].harvesting.tensix_mask, 65);
    assert_eq!(cd.boards[0].board_type.name(), "n300");
    assert_eq!(cd.chips[1].board, Some(0));
    // Wormhole channel 8 is the ninth entry of the eth list: NoC0 (9, 6).
    assert_eq!(cd.eth_core(&cd.chips[0], 8), Some(Noc0Coord::new(9, 6)));
    let m = cd.mesh();
    assert_eq!((m.rows, m.cols, m.chips.clone()), (1, 2, vec![0, 1]));
}

#[test]
fn blackhole_logical_channels_skip_harvested_ones() {
    let (cd, _) = builtin_system("p150").unwrap();
    // Mask 288 harvests physical channels 5 and 8; logical 5 is physical 6 (4-1), logical 11 is 10-1.
    let chip = &cd.chips[0];
    assert_eq!(cd.num_channels(chip), 12);
    assert_eq!(cd.eth_core(chip, 5), Some(Noc0Coord::new(4, 1)));
    assert_eq!(cd.eth_core(chip, 11), Some(Noc0Coord::new(10, 1)));
    assert_eq!(cd.eth_core(chip, 12), None);
}

#[test]
fn a_repeated_link_is_kept_once() {
    let text = N300.replace(
        "{routing_enabled: true}],",
        "{routing_enabled: true}],\n   [{chip: 1, chan: 1}, {chip: 0, chan: 9}],",
    );
    assert_eq!(parse(&text).unwrap().links.len(), 2);
}

#[test]
fn bad_cluster_files_name_key_and_value() {
    let cases: [(String, &[&str]); 12] = [
        (
            N300.replace("{chip: 1, chan: 0}", "{chip: 5, chan: 0}"),
            &["ethernet_connections[0][1].chip", "without an arch", "`5`"],
        ),
        (
            N300.replace("{chip: 1, chan: 1}, {routing", "{chip: 1, chan: 0}, {routing"),
            &["ethernet_connections[1]", "two links", "chip 1 ch 0"],
        ),
        (N300.replace("{chip: 1, chan: 0}", "{chip: 1, chan: 16}"), &["chan", "does not exist", "`16`", "0..15"]),
        (N300.replace("1: Wormhole}", "1: Wormhole, 2: Grayskull}"), &["arch.2", "unknown architecture", "Grayskull"]),
        (N300.replace("1: Wormhole}", "1: quasar}"), &["arch.1", "not modelled: Quasar"]),
        (N300.replace("1: [1,0,0,0]", "1: [1,0,0]"), &["chips.1", "4 Ethernet coordinates"]),
        (N300.replace("harvest_mask: 5", "harvest_mask: 4096"), &["harvesting.1.harvest_mask", "do not exist"]),
        (N300.replace("harvest_mask: 5", "harvest_mask: 4294967296"), &["harvesting.1.harvest_mask", "32 bits"]),
        (N300.replace("{board_type: n300}, ", ""), &["boards[0]", "exactly", "2 elements"]),
        (N300.replace("chips: [0,1]", "chips: [0,1,3]"), &["boards[0][2].chips", "without an arch", "`3`"]),
        (N300.replace("[0: 0,]", "[0: 0, 0: 1]"), &["chips_with_mmio[1]", "listed twice"]),
        (N300.replace("{chip: 1, chan: 0}]", "{chip: 0, chan: 8}]"), &["ethernet_connections[0]", "itself"]),
    ];
    for (text, wants) in cases {
        let msg = bad(&text);
        for w in wants {
            assert!(msg.contains(w), "`{w}` missing from: {msg}");
        }
        assert!(msg.starts_with("c.yaml"), "{msg}");
    }
}

#[test]
fn unknown_keys_are_refused_and_legacy_keys_read() {
    let msg = bad(&format!("{N300}extra_key: 1\n"));
    assert!(msg.contains("extra_key"), "{msg}");
    assert!(parse(&format!("{N300}boardtype: {{0: n300, 1: n300}}\n")).is_ok());
    let msg = bad(&format!("{N300}boardtype: {{0: n300, 4: n300}}\n"));
    assert!(msg.contains("boardtype.4"), "{msg}");
}

#[test]
fn a_chip_without_harvesting_is_refused() {
    let text = N300.replace(", 1: {noc_translation: true, harvest_mask: 5}", "");
    let msg = bad(&text);
    assert!(msg.contains("harvesting") && msg.contains("`1`"), "{msg}");
}

#[test]
fn builtin_meshes_are_physical_and_named() {
    for (name, _, _) in BUILTIN_SYSTEMS {
        let (cd, mesh) = builtin_system(name).unwrap();
        assert_eq!(mesh.chips.len(), cd.chips.len(), "{name}");
        assert_eq!(cd.source, format!("built-in {name}"));
    }
    assert!(builtin_system("T3000").is_some());
    assert!(builtin_system("n500").is_none());
}
