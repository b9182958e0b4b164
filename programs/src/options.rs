//! What every runnable program of the registry shares: the options a run takes ([`ExampleOptions`]), what
//! it produced ([`Outcome`]), which options it uses ([`Takes`]), its work estimate ([`Work`]) and the entry
//! itself ([`Example`]). The programs live in the `examples` and `ops` modules; the list is
//! `examples::list`.

use sim_device::{Device, DeviceError, MathFidelity, RunReport};
use std::fmt;

/// How a front end writes an option: the command line says `--size 5`, Python `size=5`. Programs name
/// options by their bare names (`size`, `m`, `check`…) and leave the spelling to the front end.
#[derive(Clone, Copy)]
pub struct Spelling {
    /// The option alone (`--size`).
    pub option: fn(&str) -> String,
    /// The option with the value given (`--size 5`).
    pub with_value: fn(&str, &str) -> String,
}

/// A neutral spelling (`size`, `size = 5`), for messages read outside any front end (tests, logs).
pub const PLAIN: Spelling = Spelling { option: |o| o.to_string(), with_value: |o, v| format!("{o} = {v}") };

/// An option a program cannot use: which one (bare name), the value as given, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionError {
    /// The option's bare name (`size`, `to`, `grid`).
    pub option: &'static str,
    /// The value as given (`None`: the option's presence is the problem).
    pub value: Option<String>,
    /// What is wrong.
    pub problem: OptionProblem,
}

/// What is wrong with an option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionProblem {
    /// The program does not take it; it takes these options (besides the seed).
    NotTaken {
        /// The program (or suite).
        program: String,
        /// What it takes.
        takes: Vec<Takes>,
    },
    /// The value is wrong: why, and what would fix it (written after the option and a colon).
    Value(String),
    /// Words that follow the option (`applies to one_to_all_multicast only, not one_to_one`).
    Follows(String),
}

impl OptionError {
    /// An error about the value `value` of `option`.
    pub fn value(option: &'static str, value: impl fmt::Display, why: impl Into<String>) -> OptionError {
        OptionError { option, value: Some(value.to_string()), problem: OptionProblem::Value(why.into()) }
    }

    /// An error about `option` as a whole, in words that follow it.
    pub fn follows(option: &'static str, words: impl Into<String>) -> OptionError {
        OptionError { option, value: None, problem: OptionProblem::Follows(words.into()) }
    }

    /// The message, with options spelled as `spell` writes them.
    pub fn render(&self, spell: &Spelling) -> String {
        let head = match &self.value {
            Some(v) if !v.is_empty() => (spell.with_value)(self.option, v),
            _ => (spell.option)(self.option),
        };
        match &self.problem {
            OptionProblem::NotTaken { program, takes } => {
                format!("{head} does not apply to {program}; it takes {}", describe(takes, spell))
            }
            OptionProblem::Value(why) => format!("{head}: {why}"),
            OptionProblem::Follows(words) => format!("{head} {words}"),
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&PLAIN))
    }
}

impl std::error::Error for OptionError {}

/// Why a program did not run: an option it cannot use, or an error of the host API.
#[derive(Debug)]
pub enum ProgramError {
    /// An option it cannot use.
    Option(OptionError),
    /// The device refused or the run failed.
    Device(DeviceError),
    /// A name the registry does not know (a program or suite), and the names it does.
    Unknown(String),
}

impl ProgramError {
    /// The message, with options spelled as `spell` writes them.
    pub fn render(&self, spell: &Spelling) -> String {
        match self {
            ProgramError::Option(e) => e.render(spell),
            ProgramError::Device(e) => e.to_string(),
            ProgramError::Unknown(m) => m.clone(),
        }
    }
}

impl fmt::Display for ProgramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&PLAIN))
    }
}

impl std::error::Error for ProgramError {}

impl From<DeviceError> for ProgramError {
    fn from(e: DeviceError) -> Self {
        ProgramError::Device(e)
    }
}

impl From<layout::LayoutError> for ProgramError {
    fn from(e: layout::LayoutError) -> Self {
        ProgramError::Device(e.into())
    }
}

impl From<OptionError> for ProgramError {
    fn from(e: OptionError) -> Self {
        ProgramError::Option(e)
    }
}

/// Options shared by the examples (each uses what applies to it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExampleOptions {
    /// Seed of the input data.
    pub seed: u64,
    /// Problem size override (tiles, elements…) where the example has one; `None` keeps its default.
    pub size: Option<u32>,
    /// Matmul M (rows of the output), elements; a multiple of 32.
    pub m: Option<u32>,
    /// Matmul N (columns of the output), elements; a multiple of 32.
    pub n: Option<u32>,
    /// Matmul K (the inner dimension), elements; a multiple of 32.
    pub k: Option<u32>,
    /// Math fidelity of the compute kernels (each example has its own default).
    pub fidelity: Option<MathFidelity>,
    /// Where a layout op's input lives (`--from`, the placement syntax of `ops::spec`).
    pub from: Option<String>,
    /// Where a layout op's output goes (`--to`).
    pub to: Option<String>,
    /// The tensor shape of a layout op (`--shape 2x1024x512`).
    pub shape: Option<String>,
    /// Pages of a layout op: `tile` or `row_major` (`--page`).
    pub page: Option<String>,
    /// Data type of an op's tensors (`--dtype bf16|bfp8_b|bfp4_b`).
    pub dtype: Option<String>,
    /// How the output is checked against the CPU reference (`--check`; default full).
    pub check: Option<CheckMode>,
}

/// How much of a program's output is compared with its CPU reference (`--check`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CheckMode {
    /// Every output element (the default).
    #[default]
    Full,
    /// A deterministic subset of output tiles (at most [`SAMPLED_TILES`]), said in the check line.
    Sample,
    /// No comparison: the run times the program and says the output was not checked.
    Off,
}

/// Output tiles a sampled check compares.
pub const SAMPLED_TILES: usize = 64;

impl std::str::FromStr for CheckMode {
    type Err = String;
    fn from_str(s: &str) -> Result<CheckMode, String> {
        match s {
            "full" => Ok(CheckMode::Full),
            "sample" => Ok(CheckMode::Sample),
            "off" => Ok(CheckMode::Off),
            _ => Err(format!("`{s}` is not a check mode: use full, sample or off")),
        }
    }
}

impl Default for ExampleOptions {
    fn default() -> Self {
        ExampleOptions {
            seed: 0x7e5,
            size: None,
            m: None,
            n: None,
            k: None,
            fidelity: None,
            from: None,
            to: None,
            shape: None,
            page: None,
            dtype: None,
            check: None,
        }
    }
}

/// What an example run produced.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Whether the output matched the reference.
    pub passed: bool,
    /// One line on what was checked and how it went.
    pub check: String,
    /// The timing report of the (last) program run.
    pub report: RunReport,
    /// Further figures worth printing (achieved TFLOP/s of a matmul …).
    pub metrics: Vec<String>,
}

/// An option of [`ExampleOptions`] an example uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// `--size`: what it means and its allowed range.
    Size {
        /// What the number counts.
        meaning: &'static str,
        /// Smallest value.
        min: u32,
        /// Largest value.
        max: u32,
    },
    /// `--m`.
    M,
    /// `--n`.
    N,
    /// `--k`.
    K,
    /// `--fidelity`.
    Fidelity,
    /// `--from`.
    From,
    /// `--to`.
    To,
    /// `--shape`.
    Shape,
    /// `--page`.
    Page,
    /// `--dtype`.
    Dtype,
    /// `--check`.
    Check,
}

/// How much simulation a run asks for, estimated before it starts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Work {
    /// Tile operations of the compute engines (one tile product, element-wise op or copy each).
    pub tile_ops: u64,
    /// Bytes the NoC carries.
    pub noc_bytes: u64,
    /// Peak host memory of the run, bytes: the process itself, the simulated DRAM and L1 it fills, and
    /// the program's host copies (inputs, the data read back, the reference). Each program's work function
    /// lists its copies; `tensim/tests/memory_estimates.rs` keeps them within 2x of the measured peak.
    pub host_bytes: u64,
}

/// The resident memory of tensim with one chip open and a few kernels, before any data: the binary, the
/// chip's descriptors, parameters, allocator and NoC model (measured: 10.1 MiB for `tensim run loopback`
/// of one tile on Wormhole B0).
pub const BASE_HOST_BYTES: u64 = 10 << 20;
/// Each further chip of a mesh (measured: 28 MiB for an 8-chip all_gather of one tile, 99 MiB for 32).
pub const CHIP_HOST_BYTES: u64 = 3 << 20;
/// Each kernel thread of a program: its coroutine stack pages and the L1 pages its CBs touch (fitted to
/// one measurement: 24 MiB peak for a 256³ multicast matmul on 64 cores × 5 threads, against 10 MiB for
/// one core; checked within 2× for every program by tests/memory_estimates.rs).
pub const KERNEL_THREAD_HOST_BYTES: u64 = 44 << 10;
/// Cores of a program spread over "the compute grid" (Wormhole B0's 8×8; a Blackhole grid is about twice
/// that, which the 2× the estimates are held to absorbs).
pub const GRID_CORES: u64 = 64;

/// Host memory of `cores` cores running `threads_per_core` kernel threads each.
pub fn grid_host_bytes(cores: u64, threads_per_core: u64) -> u64 {
    cores.min(GRID_CORES) * threads_per_core * KERNEL_THREAD_HOST_BYTES
}

/// A runnable example.
pub struct Example {
    /// Name used on the command line.
    pub name: &'static str,
    /// One line on what it does.
    pub about: &'static str,
    /// The options it uses besides `--seed` (anything else given is an error).
    pub takes: &'static [Takes],
    /// Its work for the options given.
    pub work: fn(&ExampleOptions) -> Work,
    /// Run it on `device`.
    pub run: fn(&mut Device, &ExampleOptions) -> Result<Outcome, ProgramError>,
}

impl Takes {
    /// The option's bare name.
    pub fn name(&self) -> &'static str {
        match self {
            Takes::Size { .. } => "size",
            Takes::M => "m",
            Takes::N => "n",
            Takes::K => "k",
            Takes::Fidelity => "fidelity",
            Takes::From => "from",
            Takes::To => "to",
            Takes::Shape => "shape",
            Takes::Page => "page",
            Takes::Dtype => "dtype",
            Takes::Check => "check",
        }
    }

    /// How the option is described in a list of options.
    fn describe(&self, spell: &Spelling) -> String {
        let name = (spell.option)(self.name());
        match self {
            Takes::Size { meaning, .. } => format!("{name} ({meaning})"),
            Takes::Check => format!("{name} full|sample|off"),
            _ => name,
        }
    }
}

/// `takes` and the seed, for help and errors.
fn describe(takes: &[Takes], spell: &Spelling) -> String {
    let mut v: Vec<String> = takes.iter().map(|t| t.describe(spell)).collect();
    v.push((spell.option)("seed"));
    v.join(", ")
}

impl Example {
    /// Check that `o` only sets options this example uses, within their ranges.
    pub fn check_options(&self, o: &ExampleOptions) -> Result<(), OptionError> {
        type Given = (bool, fn(&Takes) -> bool, &'static str);
        let given: [Given; 11] = [
            (o.size.is_some(), |t| matches!(t, Takes::Size { .. }), "size"),
            (o.m.is_some(), |t| *t == Takes::M, "m"),
            (o.n.is_some(), |t| *t == Takes::N, "n"),
            (o.k.is_some(), |t| *t == Takes::K, "k"),
            (o.fidelity.is_some(), |t| *t == Takes::Fidelity, "fidelity"),
            (o.from.is_some(), |t| *t == Takes::From, "from"),
            (o.to.is_some(), |t| *t == Takes::To, "to"),
            (o.shape.is_some(), |t| *t == Takes::Shape, "shape"),
            (o.page.is_some(), |t| *t == Takes::Page, "page"),
            (o.dtype.is_some(), |t| *t == Takes::Dtype, "dtype"),
            (o.check.is_some(), |t| *t == Takes::Check, "check"),
        ];
        for (set, is, option) in given {
            if set && !self.takes.iter().any(is) {
                return Err(OptionError {
                    option,
                    value: None,
                    problem: OptionProblem::NotTaken { program: self.name.to_string(), takes: self.takes.to_vec() },
                });
            }
        }
        if let (Some(v), Some(Takes::Size { meaning, min, max })) =
            (o.size, self.takes.iter().find(|t| matches!(t, Takes::Size { .. })))
            && (v < *min || v > *max)
        {
            return Err(OptionError::value("size", v, format!("{} takes {min}..={max} ({meaning})", self.name)));
        }
        Ok(())
    }

    /// The options it takes, for help and errors, spelled as `spell` writes them.
    pub fn describe_options(&self, spell: &Spelling) -> String {
        describe(self.takes, spell)
    }
}
