//! Grid maps: MLIR affine maps whose results may use `floordiv`, `mod` and `ceildiv` by positive constants,
//! as tt-mlir's device attribute writes them (`(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)`). They parse,
//! print in MLIR's form, and evaluate.

use crate::error::LayoutError;
use crate::metal::lex::Parser;
use std::fmt;

/// One result of a grid map.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum GridExpr {
    /// A dimension `d_i`.
    Dim(usize),
    /// A constant.
    Const(i64),
    /// A sum.
    Add(Box<GridExpr>, Box<GridExpr>),
    /// A product with a constant.
    Mul(Box<GridExpr>, i64),
    /// Division rounding down, by a positive constant.
    FloorDiv(Box<GridExpr>, i64),
    /// Division rounding up, by a positive constant.
    CeilDiv(Box<GridExpr>, i64),
    /// The non-negative remainder by a positive constant.
    Mod(Box<GridExpr>, i64),
}

impl GridExpr {
    /// `a + b`, folding constants.
    pub fn sum(a: GridExpr, b: GridExpr) -> GridExpr {
        match (a, b) {
            (GridExpr::Const(0), e) | (e, GridExpr::Const(0)) => e,
            (GridExpr::Const(x), GridExpr::Const(y)) if x.checked_add(y).is_some() => GridExpr::Const(x + y),
            (a, b) => GridExpr::Add(Box::new(a), Box::new(b)),
        }
    }

    /// `e * k`, folding constants.
    pub fn times(e: GridExpr, k: i64) -> GridExpr {
        match (e, k) {
            (_, 0) => GridExpr::Const(0),
            (e, 1) => e,
            (GridExpr::Const(x), k) if x.checked_mul(k).is_some() => GridExpr::Const(x * k),
            (e, k) => GridExpr::Mul(Box::new(e), k),
        }
    }

    /// `e floordiv k`.
    pub fn floordiv(e: GridExpr, k: i64) -> GridExpr {
        if k == 1 { e } else { GridExpr::FloorDiv(Box::new(e), k) }
    }

    /// `e mod k`.
    pub fn modulo(e: GridExpr, k: i64) -> GridExpr {
        if k == 1 { GridExpr::Const(0) } else { GridExpr::Mod(Box::new(e), k) }
    }

    /// The value at `point`; `None` when a step leaves the 64-bit integers it computes in.
    pub fn eval(&self, point: &[i64]) -> Option<i64> {
        Some(match self {
            GridExpr::Dim(d) => point[*d],
            GridExpr::Const(c) => *c,
            GridExpr::Add(a, b) => a.eval(point)?.checked_add(b.eval(point)?)?,
            GridExpr::Mul(e, k) => e.eval(point)?.checked_mul(*k)?,
            GridExpr::FloorDiv(e, k) => e.eval(point)?.checked_div_euclid(*k)?,
            GridExpr::CeilDiv(e, k) => e.eval(point)?.checked_neg()?.checked_div_euclid(*k)?.checked_neg()?,
            GridExpr::Mod(e, k) => e.eval(point)?.checked_rem_euclid(*k)?,
        })
    }

    fn atomic(&self) -> bool {
        matches!(self, GridExpr::Dim(_) | GridExpr::Const(_))
    }
}

impl fmt::Display for GridExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let operand = |f: &mut fmt::Formatter<'_>, e: &GridExpr| {
            if e.atomic() { write!(f, "{e}") } else { write!(f, "({e})") }
        };
        match self {
            GridExpr::Dim(d) => write!(f, "d{d}"),
            GridExpr::Const(c) => write!(f, "{c}"),
            GridExpr::Add(a, b) => match b.as_ref() {
                GridExpr::Mul(e, k) if *k < 0 => {
                    write!(f, "{a} - ")?;
                    if *k == -1 { operand(f, e) } else { write!(f, "{}", GridExpr::Mul(e.clone(), -k)) }
                }
                GridExpr::Const(c) if *c < 0 => write!(f, "{a} - {}", -c),
                _ => write!(f, "{a} + {b}"),
            },
            GridExpr::Mul(e, -1) => {
                f.write_str("-")?;
                operand(f, e)
            }
            GridExpr::Mul(e, k) => {
                operand(f, e)?;
                write!(f, " * {k}")
            }
            GridExpr::FloorDiv(e, k) => {
                operand(f, e)?;
                write!(f, " floordiv {k}")
            }
            GridExpr::CeilDiv(e, k) => {
                operand(f, e)?;
                write!(f, " ceildiv {k}")
            }
            GridExpr::Mod(e, k) => {
                operand(f, e)?;
                write!(f, " mod {k}")
            }
        }
    }
}

/// A map from `num_dims` dimensions to its results.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GridMap {
    /// Number of input dimensions.
    pub num_dims: usize,
    /// The results.
    pub results: Vec<GridExpr>,
}

impl GridMap {
    /// The results at `point`; `None` when one leaves the 64-bit integers the map computes in.
    pub fn eval(&self, point: &[i64]) -> Option<Vec<i64>> {
        self.results.iter().map(|r| r.eval(point)).collect()
    }
}

impl fmt::Display for GridMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dims: Vec<String> = (0..self.num_dims).map(|d| format!("d{d}")).collect();
        let results: Vec<String> = self.results.iter().map(|r| r.to_string()).collect();
        write!(f, "({}) -> ({})", dims.join(", "), results.join(", "))
    }
}

impl Parser<'_> {
    fn g_factor(&mut self) -> Result<GridExpr, LayoutError> {
        if self.eat("-") {
            let e = self.g_factor()?;
            return Ok(GridExpr::times(e, -1));
        }
        if self.eat("(") {
            let e = self.g_expr()?;
            self.expect(")")?;
            return Ok(e);
        }
        if let Some(v) = self.number()? {
            return Ok(GridExpr::Const(v));
        }
        let start = self.at;
        match self.ident() {
            Some(name) => Ok(GridExpr::Dim(self.dim_index(start, &name)?)),
            None => Err(self.err("a dimension, a number or `(`")),
        }
    }

    /// A positive constant after `floordiv`, `ceildiv` or `mod`.
    fn g_divisor(&mut self, op: &str) -> Result<i64, LayoutError> {
        let start = self.at;
        match self.g_factor()? {
            GridExpr::Const(k) if k > 0 => Ok(k),
            _ => {
                self.at = start;
                Err(self.err(&format!("a positive constant after `{op}`")))
            }
        }
    }

    fn g_term(&mut self) -> Result<GridExpr, LayoutError> {
        let mut e = self.g_factor()?;
        loop {
            if self.eat("*") {
                let f = self.g_factor()?;
                e = match (e, f) {
                    (e, GridExpr::Const(k)) | (GridExpr::Const(k), e) => GridExpr::times(e, k),
                    _ => return Err(self.err("a constant factor (a product of two dimensions is not affine)")),
                };
            } else if self.eat("floordiv") {
                e = GridExpr::FloorDiv(Box::new(e), self.g_divisor("floordiv")?);
            } else if self.eat("ceildiv") {
                e = GridExpr::CeilDiv(Box::new(e), self.g_divisor("ceildiv")?);
            } else if self.eat("mod") {
                e = GridExpr::Mod(Box::new(e), self.g_divisor("mod")?);
            } else {
                return Ok(e);
            }
        }
    }

    fn g_expr(&mut self) -> Result<GridExpr, LayoutError> {
        let mut e = self.g_term()?;
        loop {
            if self.eat("+") {
                let t = self.g_term()?;
                e = GridExpr::sum(e, t);
            } else if self.eat("-") {
                let t = self.g_term()?;
                e = GridExpr::sum(e, GridExpr::times(t, -1));
            } else {
                return Ok(e);
            }
        }
    }
}

impl std::str::FromStr for GridMap {
    type Err = LayoutError;

    /// MLIR syntax, optionally wrapped in `affine_map<…>`.
    fn from_str(text: &str) -> Result<GridMap, LayoutError> {
        let (num_dims, results) = Parser::map(text, |p| p.g_expr())?;
        Ok(GridMap { num_dims, results })
    }
}
