//! The data-movement tests as tt-metal builds them (../shared/reference/dm-tests.md): which cores run which
//! kernel on which RISC and NoC, in which order they visit their peers, what the table's "Transaction Size"
//! and "Number of Transactions" mean, and how latency and bandwidth are taken over the measuring cores
//! (the median of per-core zone lengths and of per-core bandwidths).
//!
//! Logical cores: the master is (0,0) everywhere. Peers are visited as `corerange_to_cores` lists a grid,
//! x-outer and y-inner. one_to_one/one_from_one pair (0,0) with (1,1); loopback writes (0,0) to itself;
//! one_to_all grids start at (0,0) and hold the master (included with loopback, left out without);
//! one_from_all reads from the 4×4 block (1,1)–(4,4); all_to_all/all_from_all run every core of the grid
//! against every core, itself included; the DRAM test reads then writes DRAM bank 0 from (0,0); the
//! core-bidirectional tests write (0,0)'s L1 base to (1,1)'s and read back from halfway up (1,1)'s L1 to
//! halfway up (0,0)'s, on NoC0 — from two kernels (RISCV_0 writes, RISCV_1 reads, both in dynamic NoC mode)
//! or from one (RISCV_0 alternating a write and a read).

use super::grid::Grid;
use super::kernels;
use super::rows::{Measured, rows};
use super::table::Row;
use programs::{OptionError, ProgramError};
use sim_device::prelude::*;

/// The DRAM sharded read test's page: one bf16 32×32 tile.
const DRAM_SHARDED_PAGE: u32 = 2048;

/// Which data-movement test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SuiteKind {
    /// One core writes to another.
    OneToOne,
    /// One core reads from another.
    OneFromOne,
    /// One core writes to every core of a grid, one destination after another.
    OneToAllUnicast,
    /// One core multicasts to a grid.
    OneToAllMulticast,
    /// One core reads from every core of a block.
    OneFromAll,
    /// Every core of a grid writes to every core.
    AllToAll,
    /// Every core of a grid reads from every core.
    AllFromAll,
    /// One core reads DRAM bank 0, then writes it.
    DramInterleaved,
    /// One core writes to its own L1 through the NoC.
    Loopback,
    /// One core writes to another from RISCV_0 while its RISCV_1 reads from it, both on NoC0.
    CoreBidirectional,
    /// One core's RISCV_0 alternates a write to another core and a read from it, on NoC0.
    CoreBidirectionalSameKernel,
    /// One core reads a DRAM buffer sharded over the banks, page by page, bank after bank.
    DramSharded,
}

/// A suite with its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Suite {
    /// The test.
    pub kind: SuiteKind,
    /// Grid of the one-to-all, one-from-all and all-to-all tests.
    pub grid: Grid,
    /// Multicast: linked transactions.
    pub linked: bool,
    /// One-to-all: the master is also a destination.
    pub loopback: bool,
    /// All to all: the writes of a pair go round-robin over this many VC numbers (`num_vcs`, 1..=4).
    pub vcs: u32,
    /// All to all, all from all: the NoC the kernels use, when not the test's own (NoC0 for writes, NoC1
    /// for reads).
    pub noc: Option<NocId>,
    /// DRAM sharded read: the banks the buffer is sharded over, `0..banks` (`None`: every bank).
    pub banks: Option<u32>,
}

/// The options that choose a suite (the CLI's, bare).
#[derive(Debug, Clone, Default)]
pub struct SuiteArgs<'a> {
    /// `grid`: RxC or full.
    pub grid: Option<&'a str>,
    /// `linked`.
    pub linked: bool,
    /// `loopback`.
    pub loopback: bool,
    /// `vcs`: 1..=4.
    pub vcs: Option<u32>,
    /// `noc`: 0 or 1.
    pub noc: Option<u32>,
    /// `banks`: 1 or more.
    pub banks: Option<u32>,
}

/// An optional option of a suite: its bare name and the values it takes (empty for a switch).
pub type SuiteOption = (&'static str, &'static str);

/// Every suite: (name, the options it takes, what it measures).
pub fn suites() -> &'static [(&'static str, &'static [SuiteOption], &'static str)] {
    &[
        ("one_to_one", &[], "(0,0) RISCV_0/NoC0 writes N x S bytes to (1,1), then a write barrier"),
        ("one_from_one", &[], "(0,0) RISCV_1/NoC1 reads N x S bytes from (1,1), then a read barrier"),
        ("loopback", &[], "(0,0) RISCV_0/NoC0 writes N x S bytes to its own L1 through the NoC"),
        (
            "one_to_all_unicast",
            &[("grid", "RxC|full"), ("loopback", "")],
            "(0,0) writes N x S bytes to each core of the grid from (0,0), destination after destination (default 2x2)",
        ),
        (
            "one_to_all_multicast",
            &[("grid", "RxC|full"), ("linked", ""), ("loopback", "")],
            "(0,0) multicasts N x S bytes to the grid from (0,0) (default 2x2)",
        ),
        (
            "one_from_all",
            &[("grid", "RxC")],
            "(0,0) RISCV_1/NoC1 reads N x S bytes from each core of the block from (1,1) (default 4x4)",
        ),
        (
            "all_to_all",
            &[("grid", "RxC|full"), ("vcs", "1..4"), ("noc", "0|1")],
            "every core writes N x S bytes to every core, itself included (default full; the i-th write of a pair on VC i mod vcs, NoC0)",
        ),
        (
            "all_from_all",
            &[("grid", "RxC|full"), ("noc", "0|1")],
            "every core reads N x S bytes from every core, itself included (default full; NoC1)",
        ),
        (
            "dram_interleaved",
            &[],
            "(0,0) reads N x S bytes from DRAM bank 0 (RISCV_1/NoC1), then writes them (RISCV_0/NoC0)",
        ),
        (
            "dram_sharded",
            &[("banks", "N")],
            "(0,0) RISCV_0/NoC0 reads S bytes from each DRAM bank (2 KiB pages, bank after bank), N times over; one read barrier (default every bank)",
        ),
        (
            "core_bidirectional",
            &[],
            "(0,0) writes N x S bytes to (1,1) from RISCV_0 while RISCV_1 reads N x S bytes back, both on NoC0",
        ),
        (
            "core_bidirectional_same_kernel",
            &[],
            "(0,0) RISCV_0/NoC0 alternates a write of S bytes to (1,1) and a read of S bytes from it, N times",
        ),
    ]
}

impl Suite {
    /// What this test relies on that tensim does not model, when its runs depend on it (`routers`: the NoC
    /// is timed by a router-level model, `noc.model` router or packets).
    pub fn not_modelled(&self, routers: bool) -> Option<&'static str> {
        match self.kind {
            // On the calendar model All to All's collapse is found run by run (rows marked back-pressure);
            // the router-level models time it, but not as silicon has it.
            SuiteKind::AllToAll if routers => Some(
                "approximate: NoC congestion collapse of many-to-many writes (silicon holds about 3.4 B/cycle \
                 per core once the cores' zones overlap, however many do); the router-level models lose more \
                 rate the more cores overlap, so overlapping rows can be off by 2x either way (README: the \
                 router model packet by packet)",
            ),
            // All to All's collapse is found run by run (rows marked back-pressure); the reads' is not.
            SuiteKind::AllFromAll if routers => Some(
                "approximate: NoC congestion collapse of many-to-many reads (silicon falls to 1-3 B/cycle per \
                 core once a core reads 16 KiB or more from each of the grid's cores, or the cores' zones \
                 overlap); the routers' buffers and arbitration are modelled, the end points under many \
                 concurrent read responses are not, so those rows can be off by 2x either way",
            ),
            SuiteKind::AllFromAll => Some(
                "not modelled: NoC congestion collapse of many-to-many reads (silicon falls to 1-3 B/cycle per \
                 core once a core reads 16 KiB or more from each of the grid's cores, or the cores' zones \
                 overlap); tensim's links queue without limit, so those rows run 2-20x faster than silicon",
            ),
            _ => None,
        }
    }

    /// A suite by name with the CLI's options; options that do not apply are errors.
    pub fn parse(name: &str, args: &SuiteArgs<'_>) -> Result<Suite, ProgramError> {
        let SuiteArgs { grid, linked, loopback, vcs, noc, banks } = *args;
        let kind = match name {
            "one_to_one" => SuiteKind::OneToOne,
            "one_from_one" => SuiteKind::OneFromOne,
            "one_to_all_unicast" => SuiteKind::OneToAllUnicast,
            "one_to_all_multicast" => SuiteKind::OneToAllMulticast,
            "one_from_all" => SuiteKind::OneFromAll,
            "all_to_all" => SuiteKind::AllToAll,
            "all_from_all" => SuiteKind::AllFromAll,
            "dram_interleaved" => SuiteKind::DramInterleaved,
            "loopback" => SuiteKind::Loopback,
            "dram_sharded" => SuiteKind::DramSharded,
            "core_bidirectional" => SuiteKind::CoreBidirectional,
            "core_bidirectional_same_kernel" => SuiteKind::CoreBidirectionalSameKernel,
            other => {
                let names: Vec<&str> = suites().iter().map(|s| s.0).collect();
                return Err(ProgramError::Unknown(format!("unknown suite `{other}`; available: {}", names.join(", "))));
            }
        };
        if linked && kind != SuiteKind::OneToAllMulticast {
            return Err(
                OptionError::follows("linked", format!("applies to one_to_all_multicast only, not {name}")).into()
            );
        }
        if loopback && !matches!(kind, SuiteKind::OneToAllMulticast | SuiteKind::OneToAllUnicast) {
            return Err(OptionError::follows(
                "loopback",
                format!("applies to one_to_all_unicast and one_to_all_multicast only, not {name}"),
            )
            .into());
        }
        if let Some(v) = vcs {
            if kind != SuiteKind::AllToAll {
                return Err(OptionError::follows("vcs", format!("applies to all_to_all only, not {name}")).into());
            }
            if !(1..=4).contains(&v) {
                return Err(OptionError::value("vcs", v, "the unicast request VCs are 1..=4").into());
            }
        }
        let noc = match noc {
            None => None,
            Some(_) if !matches!(kind, SuiteKind::AllToAll | SuiteKind::AllFromAll) => {
                return Err(OptionError::follows(
                    "noc",
                    format!("applies to all_to_all and all_from_all only, not {name}"),
                )
                .into());
            }
            Some(0) => Some(NocId::Noc0),
            Some(1) => Some(NocId::Noc1),
            Some(n) => return Err(OptionError::value("noc", n, "give 0 or 1").into()),
        };
        if let Some(b) = banks {
            if kind != SuiteKind::DramSharded {
                return Err(OptionError::follows("banks", format!("applies to dram_sharded only, not {name}")).into());
            }
            if b == 0 {
                return Err(OptionError::value("banks", b, "give at least one DRAM bank").into());
            }
        }
        let uses_grid = matches!(
            kind,
            SuiteKind::OneToAllUnicast
                | SuiteKind::OneToAllMulticast
                | SuiteKind::OneFromAll
                | SuiteKind::AllToAll
                | SuiteKind::AllFromAll
        );
        if grid.is_some() && !uses_grid {
            return Err(
                OptionError::follows("grid", format!("does not apply to {name}: it runs between fixed cores")).into()
            );
        }
        let default = match kind {
            SuiteKind::AllToAll | SuiteKind::AllFromAll => Grid::Full,
            SuiteKind::OneFromAll => Grid::Rc(4, 4),
            _ => Grid::Rc(2, 2),
        };
        let grid = match grid {
            Some(g) => Grid::parse(g)?,
            None => default,
        };
        if kind == SuiteKind::OneFromAll && grid == Grid::Full {
            return Err(OptionError::value(
                "grid",
                "full",
                "one_from_all reads from a block starting at (1,1); give RxC",
            )
            .into());
        }
        Ok(Suite { kind, grid, linked, loopback, vcs: vcs.unwrap_or(1), noc, banks })
    }

    /// The title of its table.
    pub fn title(&self) -> String {
        let g = self.grid.label();
        let lb = if self.loopback { " with Loopback" } else { " without Loopback" };
        match self.kind {
            SuiteKind::OneToOne => "One to One Packet Sizes".into(),
            SuiteKind::OneFromOne => "One from One Packet Sizes".into(),
            SuiteKind::Loopback => "Loopback Packet Sizes".into(),
            SuiteKind::OneToAllUnicast => format!("One to All Unicast {g} Packet Sizes{lb}"),
            SuiteKind::OneToAllMulticast => {
                format!("One to All Multicast{} {g} Packet Sizes{lb}", if self.linked { " Linked" } else { "" })
            }
            SuiteKind::OneFromAll => format!("One from All {g} Packet Sizes"),
            SuiteKind::AllToAll => format!("All to All {g} Packet Sizes{}", self.what_if()),
            SuiteKind::AllFromAll => format!("All from All {g} Packet Sizes{}", self.what_if()),
            SuiteKind::DramInterleaved => "DRAM Interleaved Packet Sizes".into(),
            SuiteKind::DramSharded => match self.banks {
                None => "DRAM Sharded Read Packet Sizes".into(),
                Some(b) => format!("DRAM Sharded Read Packet Sizes ({b} banks)"),
            },
            SuiteKind::CoreBidirectional => "Core Bidirectional Packet Sizes".into(),
            SuiteKind::CoreBidirectionalSameKernel => "Core Bidirectional Same Kernel Packet Sizes".into(),
        }
    }

    /// The VCs and NoC when not the test's own (a what-if the measured tables do not hold).
    fn what_if(&self) -> String {
        let mut w = Vec::new();
        if self.vcs != 1 {
            w.push(format!("{} VCs", self.vcs));
        }
        if let Some(n) = self.noc {
            w.push(format!("NoC{}", n.index()));
        }
        if w.is_empty() { String::new() } else { format!(" ({})", w.join(", ")) }
    }

    /// Where the grid starts (logical).
    fn origin(&self) -> (u32, u32) {
        if self.kind == SuiteKind::OneFromAll { (1, 1) } else { (0, 0) }
    }

    /// The peers of the master (or of every core, for all-to-all), in `corerange_to_cores` order.
    /// The suite's grid fits `dev` (checked before a sweep, so that the error names the option).
    pub fn check_fits(&self, dev: &Device) -> Result<(), OptionError> {
        if let Some(b) = self.banks {
            let have = dev.num_dram_channels() as u32;
            if b > have {
                return Err(OptionError::value(
                    "banks",
                    b,
                    format!("the {} has {have} DRAM banks; give 1..={have}", dev.arch()),
                ));
            }
        }
        self.grid.fit(dev, self.origin()).map(|_| ())
    }

    /// DRAM sharded read: the banks read.
    fn dram_banks(&self, dev: &Device) -> u32 {
        self.banks.unwrap_or(dev.num_dram_channels() as u32)
    }

    fn grid_cores(&self, dev: &Device) -> Result<Vec<CoreCoord>, DeviceError> {
        let (rows, cols) = self.grid.fit(dev, self.origin()).map_err(|e| DeviceError::api(e.to_string()))?;
        let (x0, y0) = self.origin();
        let r = CoreRange::new(CoreCoord::new(x0, y0), CoreCoord::new(x0 + cols - 1, y0 + rows - 1));
        Ok(r.iter_col_major().collect())
    }

    /// Destinations or sources the table's Size is multiplied by.
    pub fn peers(&self, dev: &Device) -> Result<u32, DeviceError> {
        Ok(match self.kind {
            SuiteKind::OneToOne
            | SuiteKind::OneFromOne
            | SuiteKind::Loopback
            | SuiteKind::DramInterleaved
            | SuiteKind::CoreBidirectional
            | SuiteKind::CoreBidirectionalSameKernel => 1,
            SuiteKind::OneToAllMulticast => 1,
            SuiteKind::DramSharded => self.dram_banks(dev),
            SuiteKind::OneToAllUnicast => self.grid_cores(dev)?.len() as u32 - u32::from(!self.loopback),
            SuiteKind::OneFromAll | SuiteKind::AllToAll | SuiteKind::AllFromAll => self.grid_cores(dev)?.len() as u32,
        })
    }

    /// NoC packets one (size, count) point delivers (the work estimate of a sweep): a multicast packet is
    /// delivered, and simulated, once per destination of its grid.
    pub fn packets(&self, dev: &Device, size: u32, n: u32) -> Result<u64, DeviceError> {
        let packet =
            if self.kind == SuiteKind::DramSharded { DRAM_SHARDED_PAGE } else { dev.params().noc.max_burst_bytes };
        let per = size.div_ceil(packet).max(1) as u64 * n as u64;
        Ok(per * self.deliveries(dev)?)
    }

    /// Payload bytes one (size, count) point delivers, counted as [`Suite::packets`] counts packets.
    pub fn payload_bytes(&self, dev: &Device, size: u32, n: u32) -> Result<u64, DeviceError> {
        Ok(u64::from(size) * u64::from(n) * self.deliveries(dev)?)
    }

    /// How many deliveries each of a point's transactions makes.
    fn deliveries(&self, dev: &Device) -> Result<u64, DeviceError> {
        Ok(match self.kind {
            SuiteKind::AllToAll | SuiteKind::AllFromAll => {
                let k = self.grid_cores(dev)?.len() as u64;
                k * k
            }
            SuiteKind::OneToAllMulticast => self.grid_cores(dev)?.len() as u64,
            SuiteKind::DramSharded => self.dram_banks(dev) as u64,
            SuiteKind::DramInterleaved | SuiteKind::CoreBidirectional | SuiteKind::CoreBidirectionalSameKernel => 2,
            _ => self.peers(dev)? as u64,
        })
    }

    /// Run one point (transactions of `size` bytes, `n` per peer): the rows of its table, each the median
    /// over the measuring cores of their zone lengths and bandwidths.
    pub fn run(&self, dev: &mut Device, size: u32, n: u32) -> Result<Vec<Row>, DeviceError> {
        let base = dev.mem().l1_unreserved_base;
        let master = CoreCoord::new(0, 0);
        let xy = |dev: &Device, c: CoreCoord| -> Result<(u32, u32), DeviceError> {
            let t = dev.worker_core_from_logical_core(c)?;
            Ok((t.x, t.y))
        };
        let writer =
            DataMovementConfig { processor: DataMovementProcessor::RISCV_0, noc: NocId::Noc0, ..Default::default() };
        let reader =
            DataMovementConfig { processor: DataMovementProcessor::RISCV_1, noc: NocId::Noc1, ..Default::default() };
        // One-to-one tests set their single address up before the zone; the rest compute each peer's in it.
        let in_zone = !matches!(
            self.kind,
            SuiteKind::OneToOne
                | SuiteKind::OneFromOne
                | SuiteKind::Loopback
                | SuiteKind::CoreBidirectional
                | SuiteKind::CoreBidirectionalSameKernel
        ) as u32;
        let peer_args = |n: u32, local: u32, remote: u32, peers: &[(u32, u32)]| {
            let mut a = vec![n, size, local, remote, peers.len() as u32, in_zone];
            for (x, y) in peers {
                a.extend([*x, *y]);
            }
            a
        };
        let mut p = Program::new();
        let measured: Vec<Measured> = match self.kind {
            SuiteKind::OneToOne | SuiteKind::Loopback => {
                let (peer, remote) =
                    if self.kind == SuiteKind::Loopback { (master, base + size) } else { (CoreCoord::new(1, 1), base) };
                let k = p.create_kernel(Kernel::dataflow("dm_bench/sender", kernels::sender), master, writer)?;
                p.set_runtime_args(k, master, &peer_args(n, base, remote, &[xy(dev, peer)?]))?;
                vec![Measured { core: master, label: "Sender", zone: "RISCV0", bytes: size as u64 * n as u64 }]
            }
            SuiteKind::OneFromOne => {
                let k = p.create_kernel(Kernel::dataflow("dm_bench/requestor", kernels::requestor), master, reader)?;
                p.set_runtime_args(k, master, &peer_args(n, base, base, &[xy(dev, CoreCoord::new(1, 1))?]))?;
                vec![Measured { core: master, label: "Receiver", zone: "RISCV1", bytes: size as u64 * n as u64 }]
            }
            SuiteKind::OneToAllUnicast => {
                // Without loopback the destinations are the grid less the master, as sub-ranges: the columns
                // right of the master first, then the rest of the master's column. (dm-tests.md leaves the
                // order unverified; the tables' single-transaction rows show the last destination sharing
                // the master's column, whose acknowledgement returns without a lap of the x ring.)
                let cores = self.grid_cores(dev)?;
                let order: Vec<CoreCoord> = if self.loopback {
                    cores
                } else {
                    let (right, column): (Vec<CoreCoord>, Vec<CoreCoord>) =
                        cores.into_iter().filter(|c| *c != master).partition(|c| c.x != master.x);
                    right.into_iter().chain(column).collect()
                };
                let mut peers = Vec::new();
                for c in order {
                    peers.push(xy(dev, c)?);
                }
                if peers.is_empty() {
                    return Err(DeviceError::api(format!("{}: the grid holds only the master", self.title())));
                }
                let remote = if self.loopback { base } else { base + size };
                let k =
                    p.create_kernel(Kernel::dataflow("dm_bench/sender_unicast", kernels::sender), master, writer)?;
                p.set_runtime_args(k, master, &peer_args(n, base, remote, &peers))?;
                vec![Measured {
                    core: master,
                    label: "Sender",
                    zone: "RISCV0",
                    bytes: size as u64 * n as u64 * peers.len() as u64,
                }]
            }
            SuiteKind::OneToAllMulticast => {
                let cores = self.grid_cores(dev)?;
                let (last, first) = (*cores.last().expect("a grid"), cores[0]);
                let num_dests = cores.len() as u32 - u32::from(!self.loopback);
                if num_dests == 0 {
                    return Err(DeviceError::api(format!("{}: the grid holds only the master", self.title())));
                }
                let (s, e) = (xy(dev, first)?, xy(dev, last)?);
                let remote = if self.loopback { base } else { base + size };
                let k = p.create_kernel(
                    Kernel::dataflow("dm_bench/sender_multicast", kernels::multicast_sender),
                    master,
                    writer,
                )?;
                let args =
                    [n, size, base, remote, s.0, s.1, e.0, e.1, num_dests, self.linked as u32, self.loopback as u32];
                p.set_runtime_args(k, master, &args)?;
                vec![Measured { core: master, label: "Sender", zone: "RISCV0", bytes: size as u64 * n as u64 }]
            }
            SuiteKind::OneFromAll => {
                let peers: Vec<(u32, u32)> =
                    self.grid_cores(dev)?.into_iter().map(|c| xy(dev, c)).collect::<Result<_, _>>()?;
                let k = p.create_kernel(Kernel::dataflow("dm_bench/gatherer", kernels::requestor), master, reader)?;
                p.set_runtime_args(k, master, &peer_args(n, base, base, &peers))?;
                vec![Measured {
                    core: master,
                    label: "Receiver",
                    zone: "RISCV1",
                    bytes: size as u64 * n as u64 * peers.len() as u64,
                }]
            }
            SuiteKind::AllToAll | SuiteKind::AllFromAll => {
                let cores = self.grid_cores(dev)?;
                let peers: Vec<(u32, u32)> = cores.iter().map(|&c| xy(dev, c)).collect::<Result<_, _>>()?;
                let set = CoreRangeSet::new(cores.iter().map(|&c| CoreRange::single(c)).collect())?;
                let read = self.kind == SuiteKind::AllFromAll;
                let (body, mut cfg, label, zone, name): (fn(&mut Dataflow), _, _, _, _) = if read {
                    (kernels::requestor, reader, "Receiver", "RISCV1", "dm_bench/requestor")
                } else {
                    (kernels::sender, writer, "Sender", "RISCV0", "dm_bench/sender")
                };
                if let Some(n) = self.noc {
                    cfg.noc = n;
                }
                // The sender's compile-time arg 0: VCs round-robin (tt-metal's `num_vcs`).
                cfg.compile_args = vec![self.vcs];
                let k = p.create_kernel(Kernel::dataflow(name, body), &set, cfg)?;
                // Writes land at base + size on every subordinate; reads land at base + size on the master.
                let (local, remote) = if read { (base + size, base) } else { (base, base + size) };
                let args = peer_args(n, local, remote, &peers);
                let mut m = Vec::new();
                for &c in &cores {
                    p.set_runtime_args(k, c, &args)?;
                    m.push(Measured { core: c, label, zone, bytes: size as u64 * n as u64 * peers.len() as u64 });
                }
                m
            }
            SuiteKind::CoreBidirectional | SuiteKind::CoreBidirectionalSameKernel => {
                // Writes go from the master's L1 base to the subordinate's; reads come back from halfway up the
                // subordinate's L1 to halfway up the master's (dm-tests.md §11).
                let half = (dev.l1_size_per_core() / 2) as u32;
                let (sub, bytes) = (xy(dev, CoreCoord::new(1, 1))?, size as u64 * n as u64);
                if base.max(half) as u64 + size as u64 > dev.l1_size_per_core()
                    || base as u64 + size as u64 > half as u64
                {
                    return Err(DeviceError::api(format!(
                        "{}: {size} bytes do not fit below and above half of the {} bytes of L1",
                        self.title(),
                        dev.l1_size_per_core()
                    )));
                }
                if self.kind == SuiteKind::CoreBidirectional {
                    // The requestor runs on RISCV_1 but on NoC0 as well, which the test allows by putting both
                    // kernels in dynamic NoC mode.
                    let dynamic = DataMovementConfig { noc_mode: NocMode::Dynamic, ..writer };
                    let k = p.create_kernel(Kernel::dataflow("dm_bench/sender", kernels::sender), master, dynamic)?;
                    p.set_runtime_args(k, master, &peer_args(n, base, base, &[sub]))?;
                    let on_noc0 = DataMovementConfig { noc: NocId::Noc0, noc_mode: NocMode::Dynamic, ..reader };
                    let r =
                        p.create_kernel(Kernel::dataflow("dm_bench/requestor", kernels::requestor), master, on_noc0)?;
                    p.set_runtime_args(r, master, &peer_args(n, base + half, base + half, &[sub]))?;
                    vec![
                        Measured { core: master, label: "Sender", zone: "RISCV0", bytes },
                        Measured { core: master, label: "Receiver", zone: "RISCV1", bytes },
                    ]
                } else {
                    let k = p.create_kernel(
                        Kernel::dataflow("dm_bench/sender_and_requestor", kernels::sender_and_requestor),
                        master,
                        writer,
                    )?;
                    p.set_runtime_args(k, master, &[n, size, base, base, base + half, base + half, sub.0, sub.1])?;
                    // Bandwidth as the test's plots take it: Size × Number over the zone, one direction's bytes.
                    vec![Measured { core: master, label: "Sender", zone: "RISCV0", bytes }]
                }
            }
            SuiteKind::DramSharded => {
                // One page of `size` bytes per bank at the same address in every bank (an interleaved buffer
                // of one page per bank is exactly that), read as the test's 2 KiB pages into consecutive L1.
                let channels = dev.num_dram_channels() as u64;
                let banks = self.dram_banks(dev);
                let (page, pages) = (size.min(DRAM_SHARDED_PAGE), size.div_ceil(DRAM_SHARDED_PAGE));
                let l1_bytes = banks as u64 * pages as u64 * page as u64;
                if base as u64 + l1_bytes > dev.l1_size_per_core() {
                    return Err(DeviceError::api(format!(
                        "{}: {banks} banks x {size} bytes do not fit in the {} bytes of L1 above {base}; give fewer banks or smaller sizes",
                        self.title(),
                        dev.l1_size_per_core()
                    )));
                }
                let shard = pages as u64 * page as u64;
                let buf = dev.create_buffer(InterleavedBufferConfig {
                    size: channels * shard,
                    page_size: shard,
                    buffer_type: BufferType::Dram,
                })?;
                let k = p.create_kernel(
                    Kernel::dataflow("dm_bench/dram_sharded_read", kernels::dram_sharded_reader),
                    master,
                    writer,
                )?;
                p.set_runtime_args(k, master, &[n, banks, pages, page, buf.address(), base])?;
                let report = dev.enqueue_program(&p)?;
                dev.deallocate_buffer(&buf)?;
                let bytes = l1_bytes * n as u64;
                // The reads run on RISCV_0 (zone RISCV0).
                return Ok(rows(&report, &[Measured { core: master, label: "Receiver", zone: "RISCV0", bytes }]));
            }
            SuiteKind::DramInterleaved => {
                let buf = dev.create_buffer(InterleavedBufferConfig {
                    size: 2 * size as u64,
                    page_size: 2 * size as u64,
                    buffer_type: BufferType::Dram,
                })?;
                let sem = p.create_semaphore(master, 0)?;
                let r =
                    p.create_kernel(Kernel::dataflow("dm_bench/reader_unary", kernels::dram_reader), master, reader)?;
                let w =
                    p.create_kernel(Kernel::dataflow("dm_bench/writer_unary", kernels::dram_writer), master, writer)?;
                // One page holding the whole buffer sits in bank 0: input at its start, output after it.
                p.set_runtime_args(r, master, &[n, size, buf.address(), base, sem])?;
                p.set_runtime_args(w, master, &[n, size, buf.address() + size, base, sem])?;
                let report = dev.enqueue_program(&p)?;
                dev.deallocate_buffer(&buf)?;
                let bytes = size as u64 * n as u64;
                return Ok(rows(
                    &report,
                    &[
                        Measured { core: master, label: "Receiver", zone: "RISCV1", bytes },
                        Measured { core: master, label: "Sender", zone: "RISCV0", bytes },
                    ],
                ));
            }
        };
        let report = dev.enqueue_program(&p)?;
        Ok(rows(&report, &measured))
    }
}
