//! The bad-input table's fixtures: a temporary folder of broken descriptors, parameter files, traces,
//! workloads and tables, removed when the test ends.

use std::path::PathBuf;
use std::process::Command;

/// A folder of fixtures: broken descriptors, parameter files, traces, workloads and tables.
pub struct Fixtures {
    pub dir: PathBuf,
}

impl Fixtures {
    pub fn new() -> Fixtures {
        let dir = std::env::temp_dir().join(format!("tensim-bad-inputs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("empty")).unwrap();
        std::fs::create_dir_all(dir.join("notraces")).unwrap();
        std::fs::write(dir.join("notraces/readme.txt"), "no traces here").unwrap();
        let f = Fixtures { dir };
        let ev = |body: &str| format!("[{body}]");
        let ok =
            r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"dx":0,"dy":11,"num_bytes":64,"type":"READ","timestamp":5}"#;
        for (name, text) in [
            ("foreign.json", "{\"mine\": true}".to_string()),
            ("soc_like.yaml", "arch_name: WORMHOLE_B0\ngrid:\n  x_size: 10\n  y_size: 12\n".to_string()),
            ("params_dup.yaml", "noc.hop_cycles: 3\nnoc.hop_cycles: 4\n".to_string()),
            ("deep.yaml", format!("{}{}", "[".repeat(100_000), "]".repeat(100_000))),
            ("t_dyneg.json", ev(r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"dx":0,"dy":-3,"num_bytes":64,"type":"READ","timestamp":5}"#)),
            ("t_back.json", format!("[{},{}]", r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"dx":0,"dy":11,"num_bytes":64,"type":"READ","timestamp":900}"#, r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"dx":0,"dy":11,"num_bytes":64,"type":"READ","timestamp":5}"#)),
            ("foreign.svg", "<svg>my drawing</svg>".to_string()),
            ("bad.yaml", "grid: [unclosed".to_string()),
            ("notsoc.yaml", "hello: world\n".to_string()),
            ("params_unknown.yaml", "noc.hop_cylces: 3\n".to_string()),
            ("params_fraction.yaml", "noc.hop_cycles: 2.5\n".to_string()),
            ("params_negative.yaml", "noc.hop_cycles: -1\n".to_string()),
            ("params_text.yaml", "noc.hop_cycles: fast\n".to_string()),
            ("params_huge.yaml", "mem.l1_unreserved_base: 4295069696\n".to_string()),
            ("params_badfield.yaml", "noc.hop_cycles: { value: 3, sauce: x }\n".to_string()),
            ("params_list.yaml", "- 1\n- 2\n".to_string()),
            ("params_zero_clock.yaml", "clock_mhz: 0\n".to_string()),
            ("notjson.json", "hello".to_string()),
            ("gemm_header.csv", "m,k,dtype\n512,512,x\n".to_string()),
            ("gemm_time.csv", "m,k,n,dtype,math_fidelity,use_trace,inference_time_avg_ns\n512,512,512,DataType.BFLOAT16,MathFidelity.HiFi2,True,abc\n".to_string()),
            ("gemm_dtype.csv", "m,k,n,dtype,math_fidelity,use_trace,inference_time_avg_ns\n512,512,512,DataType.FLOAT32,MathFidelity.HiFi2,True,100\n".to_string()),
            ("broken.json", "[{\"proc\":".to_string()),
            ("empty.json", "[]".to_string()),
            ("numbers.json", "[1, 2, 3]".to_string()),
            ("t_noproc.json", ev(r#"{"sx":1,"sy":1,"timestamp":1}"#)),
            ("t_risc.json", ev(r#"{"proc":"TRISC7","sx":1,"sy":1,"timestamp":1}"#)),
            ("t_teleport.json", ev(r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"type":"TELEPORT","timestamp":1}"#)),
            ("t_nonoc.json", ev(r#"{"proc":"BRISC","sx":1,"sy":1,"dx":0,"dy":1,"num_bytes":32,"type":"READ","timestamp":1}"#)),
            ("t_noc2.json", ev(r#"{"proc":"BRISC","noc":"NOC_2","sx":1,"sy":1,"dx":0,"dy":1,"num_bytes":32,"type":"READ","timestamp":1}"#)),
            ("t_negbytes.json", ev(r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"dx":0,"dy":1,"num_bytes":-5,"type":"WRITE","timestamp":1}"#)),
            ("t_nodx.json", ev(r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"num_bytes":32,"type":"WRITE","timestamp":1}"#)),
            ("t_nobytes.json", ev(r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"dx":0,"dy":1,"type":"WRITE","timestamp":1}"#)),
            ("t_notime.json", ev(r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"dx":0,"dy":1,"num_bytes":32,"type":"WRITE"}"#)),
            ("t_nosx.json", ev(r#"{"proc":"BRISC","sy":1,"timestamp":1,"zone":"Z","zone_phase":"begin"}"#)),
            ("t_phase.json", ev(r#"{"proc":"BRISC","zone":"Z","zone_phase":"middle","sx":1,"sy":1,"timestamp":1}"#)),
            ("t_nophase.json", ev(r#"{"proc":"BRISC","zone":"Z","sx":1,"sy":1,"timestamp":1}"#)),
            ("t_notype.json", ev(r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"timestamp":1}"#)),
            ("t_sxtext.json", ev(r#"{"proc":"BRISC","sx":"one","sy":1,"timestamp":1}"#)),
            ("t_farcore.json", ev(r#"{"proc":"BRISC","noc":"NOC_0","sx":40,"sy":40,"dx":0,"dy":11,"num_bytes":64,"type":"READ","timestamp":5}"#)),
            ("t_dram_src.json", ev(r#"{"proc":"BRISC","noc":"NOC_0","sx":0,"sy":11,"dx":1,"dy":1,"num_bytes":64,"type":"WRITE","timestamp":5}"#)),
            ("t_fardst.json", ev(r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"dx":70,"dy":1,"num_bytes":64,"type":"READ","timestamp":5}"#)),
            ("t_mcast_corner.json", ev(r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"mcast_start_x":1,"mcast_start_y":2,"num_bytes":64,"type":"WRITE_MULTICAST","timestamp":5}"#)),
            ("t_hugebytes.json", ev(r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"dx":0,"dy":11,"num_bytes":99999999999,"type":"READ","timestamp":5}"#)),
            ("t_ok.json", ev(ok)),
            ("t_bigint.json", ev(r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"dx":0,"dy":11,"num_bytes":18446744073709551615,"type":"READ","timestamp":5}"#)),
            ("t_late.json", format!("[{ok},{}]", r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"type":"WRITE_BARRIER_START","timestamp":18446744073709551615}"#)),
            ("t_beyond.json", format!("[{ok},{}]", r#"{"proc":"BRISC","noc":"NOC_0","sx":1,"sy":1,"type":"WRITE_BARRIER_START","timestamp":1000000000000000}"#)),
            ("w_late.json", r#"{"phases":[{"transfers":[{"packet_size":64,"num_packets":1,"src_x":1,"src_y":1,"noc_type":"NOC_0","dst_x":2,"dst_y":2,"phase_cycle_offset":18446744073709551615}]}]}"#.to_string()),
            ("w_slow.json", r#"{"phases":[{"transfers":[{"packet_size":8192,"num_packets":4,"src_x":1,"src_y":1,"noc_type":"NOC_0","dst_x":2,"dst_y":2,"injection_rate":1e-300}]}]}"#.to_string()),
            ("w_zero.json", r#"{"phases":[{"transfers":[{"packet_size":0,"num_packets":1,"src_x":1,"src_y":1,"noc_type":"NOC_0","dst_x":1,"dst_y":2}]}]}"#.to_string()),
            ("w_nodst.json", r#"{"phases":[{"transfers":[{"packet_size":64,"num_packets":1,"src_x":1,"src_y":1,"noc_type":"NOC_0"}]}]}"#.to_string()),
            ("w_both.json", r#"{"phases":[{"transfers":[{"packet_size":64,"num_packets":1,"src_x":1,"src_y":1,"noc_type":"NOC_0","dst_x":2,"dst_y":2,"mcast_start_x":1,"mcast_start_y":1,"mcast_end_x":2,"mcast_end_y":2}]}]}"#.to_string()),
            ("w_rate.json", r#"{"phases":[{"transfers":[{"packet_size":64,"num_packets":1,"src_x":1,"src_y":1,"noc_type":"NOC_0","dst_x":2,"dst_y":2,"injection_rate":-3}]}]}"#.to_string()),
            ("w_noc.json", r#"{"phases":[{"transfers":[{"packet_size":64,"num_packets":1,"src_x":1,"src_y":1,"noc_type":"NOC_7","dst_x":2,"dst_y":2}]}]}"#.to_string()),
            ("w_many.json", r#"{"phases":[{"transfers":[{"packet_size":64,"num_packets":90000000000,"src_x":1,"src_y":1,"noc_type":"NOC_0","dst_x":2,"dst_y":2}]}]}"#.to_string()),
            ("w_nophases.json", r#"{"golden_result":{"cycles":5}}"#.to_string()),
            ("w_extra.json", r#"{"phases":[{"transfers":[{"packet_size":64,"num_packets":1,"src_x":1,"src_y":1,"noc_type":"NOC_0","dst_x":2,"dst_y":2,"warp":9}]}]}"#.to_string()),
            ("w_outside.json", r#"{"phases":[{"transfers":[{"packet_size":64,"num_packets":1,"src_x":1,"src_y":1,"noc_type":"NOC_0","dst_x":99,"dst_y":2}]}]}"#.to_string()),
            ("w_ok.json", r#"{"golden_result":{"cycles":450},"phases":[{"transfers":[{"packet_size":128,"num_packets":1,"src_x":1,"src_y":1,"noc_type":"NOC_0","dst_x":2,"dst_y":2}]}]}"#.to_string()),
            ("table_none.md", "no table in here\n".to_string()),
            ("cl_missing_chip.yaml", "arch: {0: wormhole_b0}\nchips: {}\nethernet_connections: [[{chip: 0, chan: 1}, {chip: 3, chan: 0}]]\nchips_with_mmio: [0]\nharvesting: {0: {noc_translation: true, harvest_mask: 0}}\nboards: []\n".to_string()),
            ("cl_twice.yaml", "arch: {0: wormhole_b0, 1: wormhole_b0, 2: wormhole_b0}\nchips: {}\nethernet_connections: [[{chip: 0, chan: 1}, {chip: 1, chan: 0}], [{chip: 0, chan: 1}, {chip: 2, chan: 0}]]\nchips_with_mmio: [0]\nharvesting: {0: {noc_translation: true, harvest_mask: 0}, 1: {noc_translation: true, harvest_mask: 0}, 2: {noc_translation: true, harvest_mask: 0}}\nboards: []\n".to_string()),
            ("cl_noarch.yaml", "arch: {0: wormhole_b0}\nchips: {}\nethernet_connections: []\nchips_with_mmio: [0]\nharvesting: {0: {noc_translation: true, harvest_mask: 0}, 7: {noc_translation: true, harvest_mask: 0}}\nboards: []\n".to_string()),
            ("cl_chan.yaml", "arch: {0: blackhole, 1: blackhole}\nchips: {}\nethernet_connections: [[{chip: 0, chan: 12}, {chip: 1, chan: 0}]]\nchips_with_mmio: [0]\nharvesting: {0: {noc_translation: true, harvest_mask: 0, eth_harvesting_mask: 288}, 1: {noc_translation: true, harvest_mask: 0}}\nboards: []\n".to_string()),
            ("table_title.md", "# Something Else Entirely\n\n| Kernel | Run Host ID | Transaction Size (bytes) | Number of Transactions | Latency (cycles) | Bandwidth (bytes/cycle) |\n|---|---|---|---|---|---|\n| Sender | 0 | 32 | 1 | 300 | 0.1 |\n".to_string()),
            ("table_other_test.md", "# One from One Packet Sizes\n\n| Kernel | Run Host ID | Transaction Size (bytes) | Number of Transactions | Latency (cycles) | Bandwidth (bytes/cycle) |\n|---|---|---|---|---|---|\n| Receiver | 0 | 32 | 1 | 300 | 0.1 |\n".to_string()),
            ("table_nan.md", "# One to One Packet Sizes\n\n| Kernel | Run Host ID | Transaction Size (bytes) | Number of Transactions | Latency (cycles) | Bandwidth (bytes/cycle) |\n|---|---|---|---|---|---|\n| Sender | 0 | 32 | 1 | slow | 0.1 |\n".to_string()),
            ("table_nanlat.md", "# One to One Packet Sizes\n\n| Kernel | Run Host ID | Transaction Size (bytes) | Number of Transactions | Latency (cycles) | Bandwidth (bytes/cycle) |\n|---|---|---|---|---|---|\n| Sender | 0 | 32 | 1 | NaN | 0.1 |\n".to_string()),
            ("table_zerolat.md", "# One to One Packet Sizes\n\n| Kernel | Run Host ID | Transaction Size (bytes) | Number of Transactions | Latency (cycles) | Bandwidth (bytes/cycle) |\n|---|---|---|---|---|---|\n| Sender | 0 | 32 | 1 | 0 | 0.1 |\n".to_string()),
            ("table_negsize.md", "# One to One Packet Sizes\n\n| Kernel | Run Host ID | Transaction Size (bytes) | Number of Transactions | Latency (cycles) | Bandwidth (bytes/cycle) |\n|---|---|---|---|---|---|\n| Sender | 0 | -64 | 1 | 300 | 0.1 |\n".to_string()),
            ("table_fracsize.md", "# One to One Packet Sizes\n\n| Kernel | Run Host ID | Transaction Size (bytes) | Number of Transactions | Latency (cycles) | Bandwidth (bytes/cycle) |\n|---|---|---|---|---|---|\n| Sender | 0 | 1.5 | 1 | 300 | 0.1 |\n".to_string()),
            ("table_bigcount.md", "# One to One Packet Sizes\n\n| Kernel | Run Host ID | Transaction Size (bytes) | Number of Transactions | Latency (cycles) | Bandwidth (bytes/cycle) |\n|---|---|---|---|---|---|\n| Sender | 0 | 32 | 99999999999999999999 | 300 | 0.1 |\n".to_string()),
            ("table_nomatch.md", "# One to One Packet Sizes\n\n| Kernel | Run Host ID | Transaction Size (bytes) | Number of Transactions | Latency (cycles) | Bandwidth (bytes/cycle) |\n|---|---|---|---|---|---|\n| Sender | 0 | 33 | 7 | 300 | 0.1 |\n".to_string()),
            ("table_short.md", "# One to One Packet Sizes\n\n| Kernel | Run Host ID | Transaction Size (bytes) |\n|---|---|---|\n| Sender | 0 | 32 |\n".to_string()),
        ] {
            std::fs::write(f.dir.join(name), text).unwrap();
        }
        std::fs::create_dir_all(f.dir.join("blackhole")).unwrap();
        std::fs::write(
            f.dir.join("blackhole/One to One Packet Sizes.md"),
            "# One to One Packet Sizes\n\n| Kernel | Run Host ID | Transaction Size (bytes) | Number of Transactions | Latency (cycles) | Bandwidth (bytes/cycle) |\n|---|---|---|---|---|---|\n| Sender | 0 | 64 | 1 | 300 | 0.2 |\n",
        )
        .unwrap();
        std::fs::write(f.dir.join("mem_not_dir"), "a file").unwrap();
        #[cfg(unix)]
        let _ = std::os::unix::fs::symlink(f.dir.join("gone.yaml"), f.dir.join("dangling.yaml"));
        let fifo = f.dir.join("fifo");
        let _ = Command::new("mkfifo").arg(&fifo).status();
        f
    }

    pub fn p(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }
}

impl Drop for Fixtures {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
