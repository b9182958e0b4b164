//! The five RISC-V processors of a Tensix core and the host-side names for them.

use std::fmt;

/// One of the five RISCs of a Tensix core.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Risc {
    /// BRISC (RISCV_0): data movement, default NoC 0.
    Brisc = 0,
    /// NCRISC (RISCV_1): data movement, default NoC 1.
    Ncrisc = 1,
    /// TRISC0: the UNPACK thread of the compute kernel.
    Trisc0 = 2,
    /// TRISC1: the MATH thread.
    Trisc1 = 3,
    /// TRISC2: the PACK thread.
    Trisc2 = 4,
    /// ERISC0: the (first) RISC of an Ethernet core.
    Erisc0 = 5,
    /// ERISC1: the second RISC of a Blackhole Ethernet core.
    Erisc1 = 6,
}

impl Risc {
    /// The five RISCs of a Tensix core, in id order.
    pub const ALL: [Risc; 5] = [Risc::Brisc, Risc::Ncrisc, Risc::Trisc0, Risc::Trisc1, Risc::Trisc2];
    /// Number of RISC kinds (Tensix and Ethernet): the size of per-RISC arrays.
    pub const COUNT: usize = 7;

    /// 0..7.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The name used in reports and traces.
    pub fn name(self) -> &'static str {
        match self {
            Risc::Brisc => "BRISC",
            Risc::Ncrisc => "NCRISC",
            Risc::Trisc0 => "TRISC0",
            Risc::Trisc1 => "TRISC1",
            Risc::Trisc2 => "TRISC2",
            Risc::Erisc0 => "ERISC0",
            Risc::Erisc1 => "ERISC1",
        }
    }
}

impl Risc {
    /// How tt-metal's print server names the RISC in a DPRINT line's prefix.
    pub fn dprint_name(self) -> &'static str {
        match self {
            Risc::Brisc => "BR",
            Risc::Ncrisc => "NC",
            Risc::Trisc0 => "TR0",
            Risc::Trisc1 => "TR1",
            Risc::Trisc2 => "TR2",
            Risc::Erisc0 => "ER0",
            Risc::Erisc1 => "ER1",
        }
    }
}

impl fmt::Display for Risc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// tt-metal's `DataMovementProcessor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[allow(non_camel_case_types)]
pub enum DataMovementProcessor {
    /// BRISC.
    #[default]
    RISCV_0,
    /// NCRISC.
    RISCV_1,
}

impl DataMovementProcessor {
    /// The RISC it names.
    pub fn risc(self) -> Risc {
        match self {
            DataMovementProcessor::RISCV_0 => Risc::Brisc,
            DataMovementProcessor::RISCV_1 => Risc::Ncrisc,
        }
    }
}
