//! Measured GEMM benchmark results (the benchmark's CSV: `m,k,n,dtype,math_fidelity,use_trace,…,
//! inference_time_avg_ns,…`, `#` comment lines) and their comparison with simulated timings.

use super::Timing;
use layout::ttnn::DataType;
use sim_device::prelude::*;

/// One measured row.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// Line in the file (1-based).
    pub line: usize,
    /// Shape.
    pub shape: (u32, u32, u32),
    /// Data type.
    pub dtype: DataType,
    /// Fidelity.
    pub fidelity: MathFidelity,
    /// Timed with a captured trace (no host dispatch per op).
    pub use_trace: bool,
    /// in0 (and output) block-sharded in L1.
    pub in0_sharded: bool,
    /// Average time per op, ns.
    pub time_ns: f64,
}

const NEEDED: [&str; 7] = ["m", "k", "n", "dtype", "math_fidelity", "use_trace", "inference_time_avg_ns"];

fn dtype(s: &str) -> Option<DataType> {
    match s.trim().rsplit('.').next()?.to_ascii_uppercase().as_str() {
        "BFLOAT16" => Some(DataType::Bf16),
        "BFLOAT8_B" => Some(DataType::Bfp8),
        "BFLOAT4_B" => Some(DataType::Bfp4),
        _ => None,
    }
}

fn fidelity(s: &str) -> Option<MathFidelity> {
    match s.trim().rsplit('.').next()?.to_ascii_lowercase().as_str() {
        "lofi" => Some(MathFidelity::LoFi),
        "hifi2" => Some(MathFidelity::HiFi2),
        "hifi3" => Some(MathFidelity::HiFi3),
        "hifi4" => Some(MathFidelity::HiFi4),
        _ => None,
    }
}

fn boolean(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// Parse the CSV text of `file` (named in errors).
pub fn parse(file: &str, text: &str) -> Result<Vec<Measured>, String> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim_start().starts_with('#') && !l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        return Err(format!("{file}: no header line (expected columns {})", NEEDED.join(", ")));
    };
    let cols: Vec<&str> = header.split(',').map(str::trim).collect();
    let mut at = [0usize; NEEDED.len()];
    for (i, name) in NEEDED.iter().enumerate() {
        at[i] = cols
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| format!("{file}: the header has no `{name}` column (it needs {})", NEEDED.join(", ")))?;
    }
    let sharded_col = cols.iter().position(|c| *c == "in0_sharded");
    let mut rows = Vec::new();
    for (i, l) in lines {
        let line = i + 1;
        let f: Vec<&str> = l.split(',').map(str::trim).collect();
        let get = |k: usize| -> Result<&str, String> {
            f.get(at[k]).copied().ok_or_else(|| {
                format!("{file}:{line}: {} fields, but `{}` is column {}", f.len(), NEEDED[k], at[k] + 1)
            })
        };
        let bad = |k: usize, v: &str, want: &str| format!("{file}:{line}: {} `{v}` is not {want}", NEEDED[k]);
        let dim = |k: usize| -> Result<u32, String> {
            let v = get(k)?;
            match v.parse::<u32>() {
                Ok(x) if x > 0 && x.is_multiple_of(32) => Ok(x),
                _ => Err(bad(k, v, "a positive multiple of 32")),
            }
        };
        let shape = (dim(0)?, dim(1)?, dim(2)?);
        let d = get(3)?;
        let dtype = dtype(d).ok_or_else(|| bad(3, d, "BFLOAT16, BFLOAT8_B or BFLOAT4_B"))?;
        let fi = get(4)?;
        let fidelity = fidelity(fi).ok_or_else(|| bad(4, fi, "LoFi, HiFi2, HiFi3 or HiFi4"))?;
        let t = get(5)?;
        let use_trace = boolean(t).ok_or_else(|| bad(5, t, "True or False"))?;
        let ns = get(6)?;
        let time_ns = match ns.parse::<f64>() {
            Ok(x) if x.is_finite() && x > 0.0 => x,
            _ => return Err(bad(6, ns, "a positive number of nanoseconds")),
        };
        let in0_sharded = match sharded_col.and_then(|c| f.get(c)) {
            Some(v) => boolean(v).ok_or_else(|| format!("{file}:{line}: in0_sharded `{v}` is not True or False"))?,
            None => true,
        };
        rows.push(Measured { line, shape, dtype, fidelity, use_trace, in0_sharded, time_ns });
    }
    if rows.is_empty() {
        return Err(format!("{file}: no data rows"));
    }
    Ok(rows)
}

/// One compared row.
#[derive(Debug, Clone)]
pub struct Compared {
    /// The configuration id.
    pub id: &'static str,
    /// Measured.
    pub measured: Measured,
    /// Simulated ns per op.
    pub sim_ns: f64,
    /// (sim − measured) / measured.
    pub error: f64,
}

/// The measured row of `t` with the given trace mode, if any.
pub fn find<'a>(rows: &'a [Measured], t: &Timing, use_trace: bool) -> Option<&'a Measured> {
    rows.iter().find(|r| {
        r.shape == (t.mm.m, t.mm.k, t.mm.n)
            && r.dtype == t.mm.dtype
            && r.fidelity == t.mm.fidelity
            && r.use_trace == use_trace
            && r.in0_sharded == t.mm.in0_sharded
    })
}

/// Compare every timing with its trace-mode measurement (rows without one are left out).
pub fn compare(rows: &[Measured], timings: &[Timing]) -> Vec<Compared> {
    timings
        .iter()
        .filter_map(|t| {
            let m = find(rows, t, true)?;
            let sim_ns = t.time_ns();
            Some(Compared { id: t.id, measured: m.clone(), sim_ns, error: (sim_ns - m.time_ns) / m.time_ns })
        })
        .collect()
}

/// (rows, median |error|, worst |error|) of a comparison.
pub fn summary(c: &[Compared]) -> (usize, f64, f64) {
    let mut e: Vec<f64> = c.iter().map(|r| r.error.abs()).collect();
    let worst = e.iter().copied().fold(0.0, f64::max);
    let median = if e.is_empty() { 0.0 } else { programs::golden::median(&mut e) };
    (c.len(), median, worst)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSV: &str = "# comment\ntable,m,k,n,dtype,math_fidelity,use_trace,grid,in0_sharded,inference_time_avg_ns\n\
        manual,512,512,512,DataType.BFLOAT16,MathFidelity.HiFi2,True,8x8,True,13051\n\
        manual,4096,4096,4096,DataType.BFLOAT8_B,MathFidelity.LoFi,False,8x8,False,1.1777e+06\n";

    #[test]
    fn parses_the_benchmark_csv() {
        let r = parse("t.csv", CSV).unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].shape, (512, 512, 512));
        assert!(r[0].use_trace && r[0].in0_sharded);
        assert_eq!(r[1].dtype, DataType::Bfp8);
        assert_eq!(r[1].fidelity, MathFidelity::LoFi);
        assert_eq!(r[1].time_ns, 1_177_700.0);
        assert_eq!(r[1].line, 4);
    }

    #[test]
    fn bad_rows_name_file_line_and_value() {
        let bad = CSV.replace("13051", "-3");
        assert!(parse("t.csv", &bad).unwrap_err().contains("t.csv:3: inference_time_avg_ns `-3`"));
        let bad = CSV.replace("HiFi2", "HiFi9");
        assert!(parse("t.csv", &bad).unwrap_err().contains("math_fidelity `MathFidelity.HiFi9`"));
        let bad = CSV.replace(",512,512,512,", ",500,512,512,");
        assert!(parse("t.csv", &bad).unwrap_err().contains("m `500`"));
        assert!(parse("t.csv", "m,k\n1,2\n").unwrap_err().contains("no `n` column"));
        assert!(parse("t.csv", "").unwrap_err().contains("no header"));
    }
}
