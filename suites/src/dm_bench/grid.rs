//! The grid option of the one-to-all, one-from-all and all-to-all suites: `RxC` or the whole compute grid,
//! checked against the chip from the suite's first core.

use programs::OptionError;
use sim_device::prelude::*;

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
    pub fn parse(s: &str) -> Result<Grid, OptionError> {
        if s == "full" {
            return Ok(Grid::Full);
        }
        let bad = |why: String| OptionError::value("grid", format!("`{s}`"), why);
        let (r, c) = s.split_once(['x', 'X']).ok_or_else(|| bad("expected RxC (e.g. 4x4) or full".into()))?;
        let n = |t: &str| {
            t.trim()
                .parse::<u32>()
                .ok()
                .filter(|v| *v > 0)
                .ok_or_else(|| bad(format!("`{t}` is not a positive number")))
        };
        Ok(Grid::Rc(n(r)?, n(c)?))
    }

    /// (rows, cols) on the device's compute grid from logical `(x0, y0)`; a grid that does not fit is an error.
    pub fn fit(self, dev: &Device, origin: (u32, u32)) -> Result<(u32, u32), OptionError> {
        let g = dev.compute_with_storage_grid_size();
        let (max_rows, max_cols) = (g.y.saturating_sub(origin.1), g.x.saturating_sub(origin.0));
        match self {
            Grid::Full => Ok((max_rows, max_cols)),
            Grid::Rc(r, c) if r <= max_rows && c <= max_cols => Ok((r, c)),
            Grid::Rc(r, c) => Err(OptionError::follows(
                "grid",
                format!(
                    "{r}x{c} does not fit: the {} compute grid is {}x{} (rows x columns) and this suite's grid starts at ({},{}); use at most {max_rows}x{max_cols} or `full`",
                    dev.arch(),
                    g.y,
                    g.x,
                    origin.0,
                    origin.1
                ),
            )),
        }
    }

    pub(super) fn label(&self) -> String {
        match self {
            Grid::Full => "Full Grid".into(),
            Grid::Rc(r, c) => format!("{r}x{c}"),
        }
    }
}
