//! The data-movement suites: which cores send or receive, what they issue, and which zone is measured.
//!
//! Cores (logical): the master is (0,0); one_to_one/one_from_one use subordinate (1,1); one_to_all and
//! one_from_all use the `rows × cols` grid anchored at (0,0) without the master; multicast without loopback
//! targets the grid just below the master's row, (0,1)–(cols-1,rows), so the rectangle does not hold the
//! sender, and with loopback the grid (0,0)–(cols-1,rows-1) including it; all_to_all/all_from_all run on
//! every core of the grid. A grid larger than the compute grid is an error.

use sim_device::prelude::*;
use std::sync::Arc;

/// A grid size option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grid {
    /// `rows × cols` cores.
    Rc(u32, u32),
    /// The whole compute grid.
    Full,
}

impl Grid {
    /// Parse `RxC` or `full`.
    pub fn parse(s: &str) -> Result<Grid, String> {
        if s == "full" {
            return Ok(Grid::Full);
        }
        let (r, c) =
            s.split_once(['x', 'X']).ok_or_else(|| format!("--grid `{s}`: expected RxC (e.g. 4x4) or full"))?;
        let n = |t: &str| {
            t.trim()
                .parse::<u32>()
                .ok()
                .filter(|v| *v > 0)
                .ok_or_else(|| format!("--grid `{s}`: `{t}` is not a positive number"))
        };
        Ok(Grid::Rc(n(r)?, n(c)?))
    }

    /// (rows, cols) on the device's compute grid, with `skip_rows` rows reserved above it; a grid that does
    /// not fit is an error.
    pub fn fit(self, dev: &Device, skip_rows: u32) -> Result<(u32, u32), DeviceError> {
        let g = dev.compute_with_storage_grid_size();
        let max_rows = g.y.saturating_sub(skip_rows);
        match self {
            Grid::Full => Ok((max_rows, g.x)),
            Grid::Rc(r, c) if r <= max_rows && c <= g.x => Ok((r, c)),
            Grid::Rc(r, c) => Err(DeviceError::api(format!(
                "--grid {r}x{c} does not fit: the {} compute grid is {}x{} (rows x columns){}; use at most {max_rows}x{} or `full`",
                dev.arch(),
                g.y,
                g.x,
                if skip_rows > 0 {
                    format!(" and this suite keeps {skip_rows} row for the sender")
                } else {
                    String::new()
                },
                g.x
            ))),
        }
    }
}

/// Which data-movement pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SuiteKind {
    /// One core writes to another.
    OneToOne,
    /// One core reads from another.
    OneFromOne,
    /// One core writes to every core of a grid, one unicast after another.
    OneToAllUnicast,
    /// One core multicasts to a grid.
    OneToAllMulticast,
    /// One core reads from every core of a grid.
    OneFromAll,
    /// Every core of a grid writes to every other.
    AllToAll,
    /// Every core of a grid reads from every other.
    AllFromAll,
    /// One core reads ("Receiver") and writes ("Sender") an interleaved DRAM buffer.
    DramInterleaved,
    /// One core writes to its own L1 through the NoC.
    Loopback,
}

/// A suite with its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Suite {
    /// The pattern.
    pub kind: SuiteKind,
    /// Grid of the one-to-all / all-to-all patterns.
    pub grid: Grid,
    /// Multicast: keep the path reserved across a run of transactions.
    pub linked: bool,
    /// Multicast: the sender is also a destination.
    pub loopback: bool,
}

/// Every suite: (name, options, what it measures).
pub fn suites() -> &'static [(&'static str, &'static str, &'static str)] {
    &[
        ("one_to_one", "", "core (0,0) RISCV_0 writes N x S bytes to core (1,1) over NOC_0, then a write barrier"),
        ("one_from_one", "", "core (0,0) RISCV_1 reads N x S bytes from core (1,1) over NOC_1, then a read barrier"),
        (
            "one_to_all_unicast",
            "--grid RxC|full",
            "core (0,0) writes N x S bytes to each core of the grid, one unicast after another",
        ),
        (
            "one_to_all_multicast",
            "--grid RxC|full [--linked] [--loopback]",
            "core (0,0) multicasts N x S bytes to the grid",
        ),
        ("one_from_all", "--grid RxC|full", "core (0,0) reads N x S bytes from each core of the grid"),
        (
            "all_to_all",
            "--grid RxC|full (default 4x4)",
            "every core of the grid writes N x S bytes to every other core",
        ),
        (
            "all_from_all",
            "--grid RxC|full (default 4x4)",
            "every core of the grid reads N x S bytes from every other core",
        ),
        (
            "dram_interleaved",
            "",
            "core (0,0) reads (Receiver) / writes (Sender) N pages of S bytes of an interleaved DRAM buffer",
        ),
        ("loopback", "", "core (0,0) writes N x S bytes to its own L1 over NOC_0"),
    ]
}

impl Suite {
    /// The suite named `name` with its options.
    pub fn parse(name: &str, grid: Option<&str>, linked: bool, loopback: bool) -> Result<Suite, String> {
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
            other => {
                let names: Vec<&str> = suites().iter().map(|s| s.0).collect();
                return Err(format!("unknown suite `{other}`; available: {}", names.join(", ")));
            }
        };
        if (linked || loopback) && kind != SuiteKind::OneToAllMulticast {
            return Err(format!("--linked and --loopback apply to one_to_all_multicast only, not {name}"));
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
            return Err(format!("--grid does not apply to {name}: it runs between fixed cores"));
        }
        let default = match kind {
            SuiteKind::AllToAll | SuiteKind::AllFromAll => Grid::Rc(4, 4),
            _ => Grid::Rc(2, 2),
        };
        let grid = match grid {
            Some(g) => Grid::parse(g)?,
            None => default,
        };
        Ok(Suite { kind, grid, linked, loopback })
    }

    /// The title tt-metal's tables use.
    pub fn title(&self) -> String {
        let g = match self.grid {
            Grid::Full => "Full Grid".to_string(),
            Grid::Rc(r, c) => format!("{r}x{c}"),
        };
        match self.kind {
            SuiteKind::OneToOne => "One to One Packet Sizes".into(),
            SuiteKind::OneFromOne => "One from One Packet Sizes".into(),
            SuiteKind::OneToAllUnicast => format!("One to All {g} Unicast Packet Sizes"),
            SuiteKind::OneToAllMulticast => format!(
                "One to All {g} Multicast{}{} Packet Sizes",
                if self.linked { " Linked" } else { "" },
                if self.loopback { " Loopback" } else { "" }
            ),
            SuiteKind::OneFromAll => format!("One from All {g} Packet Sizes"),
            SuiteKind::AllToAll => format!("All to All {g} Packet Sizes"),
            SuiteKind::AllFromAll => format!("All from All {g} Packet Sizes"),
            SuiteKind::DramInterleaved => "DRAM Interleaved Packet Sizes".into(),
            SuiteKind::Loopback => "Loopback Packet Sizes".into(),
        }
    }

    /// NoC packets one (size, count) point issues (the work estimate of a sweep).
    pub fn packets(&self, dev: &Device, size: u32, n: u32) -> Result<u64, DeviceError> {
        let per = size.div_ceil(dev.params().noc.max_burst_bytes).max(1) as u64 * n as u64;
        Ok(per
            * match self.kind {
                SuiteKind::OneToOne | SuiteKind::OneFromOne | SuiteKind::Loopback | SuiteKind::OneToAllMulticast => 1,
                SuiteKind::DramInterleaved => 2,
                SuiteKind::OneToAllUnicast | SuiteKind::OneFromAll => {
                    let (r, c) = self.grid.fit(dev, 0)?;
                    (r * c).saturating_sub(1) as u64
                }
                SuiteKind::AllToAll | SuiteKind::AllFromAll => {
                    let (r, c) = self.grid.fit(dev, 0)?;
                    let k = (r * c) as u64;
                    k * k.saturating_sub(1)
                }
            })
    }

    /// Run one (size, count) point: `(kernel label, zone latency, bytes moved by that kernel)` per row.
    pub fn run(&self, dev: &mut Device, size: u32, n: u32) -> Result<Vec<(&'static str, u64, u64)>, DeviceError> {
        let src = dev.mem().l1_unreserved_base;
        let dst = src + 65536;
        let master = CoreCoord::new(0, 0);
        let xy = |dev: &Device, c: CoreCoord| -> Result<(u32, u32), DeviceError> {
            let t = dev.worker_core_from_logical_core(c)?;
            Ok((t.x, t.y))
        };
        let mut p = Program::new();
        let measured: Vec<(CoreCoord, &'static str, u64)> = match self.kind {
            SuiteKind::OneToOne | SuiteKind::Loopback | SuiteKind::OneFromOne => {
                let other = if self.kind == SuiteKind::Loopback { master } else { CoreCoord::new(1, 1) };
                let dests = vec![xy(dev, other)?];
                let label = if self.kind == SuiteKind::OneFromOne { "Receiver" } else { "Sender" };
                let reader = self.kind == SuiteKind::OneFromOne;
                add_unicast(&mut p, master, reader, n, size, &dests, src, dst)?;
                vec![(master, label, size as u64 * n as u64)]
            }
            SuiteKind::OneToAllUnicast | SuiteKind::OneFromAll => {
                let (rows, cols) = self.grid.fit(dev, 0)?;
                let mut dests = Vec::new();
                for y in 0..rows {
                    for x in 0..cols {
                        let c = CoreCoord::new(x, y);
                        if c != master {
                            dests.push(xy(dev, c)?);
                        }
                    }
                }
                if dests.is_empty() {
                    return Err(DeviceError::api(format!(
                        "{}: the {rows}x{cols} grid holds only the master core",
                        self.title()
                    )));
                }
                let reader = self.kind == SuiteKind::OneFromAll;
                add_unicast(&mut p, master, reader, n, size, &dests, src, dst)?;
                vec![(master, if reader { "Receiver" } else { "Sender" }, size as u64 * n as u64 * dests.len() as u64)]
            }
            SuiteKind::OneToAllMulticast => {
                let (rows, cols) = self.grid.fit(dev, if self.loopback { 0 } else { 1 })?;
                let y0 = if self.loopback { 0 } else { 1 };
                let start = xy(dev, CoreCoord::new(0, y0))?;
                let end = xy(dev, CoreCoord::new(cols - 1, y0 + rows - 1))?;
                let num_dests = rows * cols;
                let (linked, loopback) = (self.linked, self.loopback);
                p.create_kernel(
                    Kernel::dataflow("dm_bench/multicast_sender", move |k: &mut Dataflow| {
                        let n: u32 = k.get_arg_val(0);
                        let size: u32 = k.get_arg_val(1);
                        let (src, dst): (u32, u32) = (k.get_arg_val(2), k.get_arg_val(3));
                        let (sx, sy, ex, ey): (u32, u32, u32, u32) =
                            (k.get_arg_val(4), k.get_arg_val(5), k.get_arg_val(6), k.get_arg_val(7));
                        let num_dests: u32 = k.get_arg_val(8);
                        let addr = k.get_noc_multicast_addr(sx, sy, ex, ey, dst);
                        k.zone_begin("RISCV0");
                        for i in 0..n {
                            let link = linked && i + 1 < n;
                            if loopback {
                                k.noc_async_write_multicast_loopback_src(src, addr, size, num_dests, link);
                            } else {
                                k.noc_async_write_multicast(src, addr, size, num_dests, link);
                            }
                        }
                        k.noc_async_write_barrier();
                        k.zone_end();
                    }),
                    master,
                    DataMovementConfig::default(),
                )?;
                p.set_runtime_args(
                    KernelHandle(0),
                    master,
                    &[n, size, src, dst, start.0, start.1, end.0, end.1, num_dests],
                )?;
                vec![(master, "Sender", size as u64 * n as u64 * num_dests as u64)]
            }
            SuiteKind::AllToAll | SuiteKind::AllFromAll => {
                let (rows, cols) = self.grid.fit(dev, 0)?;
                let cores = CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(cols - 1, rows - 1));
                let reader = self.kind == SuiteKind::AllFromAll;
                let mut all = Vec::new();
                for c in cores.iter() {
                    all.push((c, xy(dev, c)?));
                }
                if all.len() < 2 {
                    return Err(DeviceError::api(format!("{}: needs at least two cores", self.title())));
                }
                let kernel = if reader { unicast_reader() } else { unicast_writer() };
                let cfg = if reader {
                    DataMovementConfig {
                        processor: DataMovementProcessor::RISCV_1,
                        noc: NocId::Noc1,
                        ..Default::default()
                    }
                } else {
                    DataMovementConfig::default()
                };
                let k = p.create_kernel(kernel, cores, cfg)?;
                let mut m = Vec::new();
                for (c, me) in &all {
                    let others: Vec<(u32, u32)> = all.iter().filter(|(_, o)| o != me).map(|(_, o)| *o).collect();
                    p.set_runtime_args(k, *c, &args(n, size, src, dst, &others))?;
                    m.push((
                        *c,
                        if reader { "Receiver" } else { "Sender" },
                        size as u64 * n as u64 * others.len() as u64,
                    ));
                }
                m
            }
            SuiteKind::DramInterleaved => {
                return self.dram(dev, size, n, src);
            }
        };
        let r = dev.enqueue_program(&p)?;
        Ok(zone_rows(&r, &measured))
    }

    fn dram(
        &self,
        dev: &mut Device,
        size: u32,
        n: u32,
        local: u32,
    ) -> Result<Vec<(&'static str, u64, u64)>, DeviceError> {
        let buf = dev.create_buffer(InterleavedBufferConfig {
            size: size as u64 * n as u64,
            page_size: size as u64,
            buffer_type: BufferType::Dram,
        })?;
        let master = CoreCoord::new(0, 0);
        let mut out = Vec::new();
        for (label, reader) in [("Receiver", true), ("Sender", false)] {
            let mut p = Program::new();
            let body = move |k: &mut Dataflow| {
                let n: u32 = k.get_arg_val(0);
                let size: u32 = k.get_arg_val(1);
                let addr: u32 = k.get_arg_val(2);
                let local: u32 = k.get_arg_val(3);
                let pages = InterleavedAddrGen::<true> { bank_base_address: addr, page_size: size };
                k.zone_begin(if reader { "RISCV1" } else { "RISCV0" });
                for i in 0..n {
                    if reader {
                        k.noc_async_read_page(i, &pages, local, 0);
                    } else {
                        k.noc_async_write_page(i, &pages, local, 0, 0);
                    }
                }
                if reader {
                    k.noc_async_read_barrier();
                } else {
                    k.noc_async_write_barrier();
                }
                k.zone_end();
            };
            let cfg = if reader {
                DataMovementConfig { processor: DataMovementProcessor::RISCV_1, noc: NocId::Noc0, ..Default::default() }
            } else {
                DataMovementConfig { processor: DataMovementProcessor::RISCV_0, noc: NocId::Noc1, ..Default::default() }
            };
            let k = p.create_kernel(
                Kernel::dataflow(if reader { "dm_bench/dram_reader" } else { "dm_bench/dram_writer" }, body),
                master,
                cfg,
            )?;
            p.set_runtime_args(k, master, &[n, size, buf.address(), local])?;
            let r = dev.enqueue_program(&p)?;
            out.extend(zone_rows(&r, &[(master, label, size as u64 * n as u64)]));
        }
        dev.deallocate_buffer(&buf)?;
        Ok(out)
    }
}

fn args(n: u32, size: u32, src: u32, dst: u32, peers: &[(u32, u32)]) -> Vec<u32> {
    let mut a = vec![n, size, src, dst, peers.len() as u32];
    for (x, y) in peers {
        a.extend([*x, *y]);
    }
    a
}

/// Writer: N rounds of one S-byte write to each peer, then a write barrier, inside zone "RISCV0".
fn unicast_writer() -> Kernel {
    Kernel {
        name: "dm_bench/unicast_sender".into(),
        body: sim_device::KernelBody::Dataflow(Arc::new(|k: &mut Dataflow| unicast(k, false))),
    }
}

/// Reader: N rounds of one S-byte read from each peer, then a read barrier, inside zone "RISCV1".
fn unicast_reader() -> Kernel {
    Kernel {
        name: "dm_bench/unicast_receiver".into(),
        body: sim_device::KernelBody::Dataflow(Arc::new(|k: &mut Dataflow| unicast(k, true))),
    }
}

fn unicast(k: &mut Dataflow, reader: bool) {
    let n: u32 = k.get_arg_val(0);
    let size: u32 = k.get_arg_val(1);
    let (src, dst): (u32, u32) = (k.get_arg_val(2), k.get_arg_val(3));
    let peers: u32 = k.get_arg_val(4);
    let addrs: Vec<u64> = (0..peers as usize)
        .map(|i| {
            let (x, y): (u32, u32) = (k.get_arg_val(5 + 2 * i), k.get_arg_val(6 + 2 * i));
            k.get_noc_addr(x, y, if reader { src } else { dst })
        })
        .collect();
    k.zone_begin(if reader { "RISCV1" } else { "RISCV0" });
    for _ in 0..n {
        for &a in &addrs {
            if reader {
                k.noc_async_read(a, dst, size);
            } else {
                k.noc_async_write(src, a, size);
            }
        }
    }
    if reader {
        k.noc_async_read_barrier();
    } else {
        k.noc_async_write_barrier();
    }
    k.zone_end();
}

#[allow(clippy::too_many_arguments)]
fn add_unicast(
    p: &mut Program,
    core: CoreCoord,
    reader: bool,
    n: u32,
    size: u32,
    peers: &[(u32, u32)],
    src: u32,
    dst: u32,
) -> Result<(), DeviceError> {
    let (kernel, cfg) = if reader {
        (
            unicast_reader(),
            DataMovementConfig { processor: DataMovementProcessor::RISCV_1, noc: NocId::Noc1, ..Default::default() },
        )
    } else {
        (unicast_writer(), DataMovementConfig::default())
    };
    let k = p.create_kernel(kernel, core, cfg)?;
    p.set_runtime_args(k, core, &args(n, size, src, dst, peers))
}

/// The rows of the measured kernels: the longest zone of each label.
fn zone_rows(r: &RunReport, measured: &[(CoreCoord, &'static str, u64)]) -> Vec<(&'static str, u64, u64)> {
    let mut rows: Vec<(&'static str, u64, u64)> = Vec::new();
    for (c, label, bytes) in measured {
        let lat = r.zones.iter().filter(|z| z.core == (c.x, c.y)).map(|z| (z.end - z.start).0).max().unwrap_or(0);
        match rows.iter_mut().find(|row| row.0 == *label) {
            Some(row) => {
                if lat > row.1 {
                    row.1 = lat;
                    row.2 = *bytes;
                }
            }
            None => rows.push((label, lat, *bytes)),
        }
    }
    rows
}
