//! Affine maps as MLIR writes them: `(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)`. Each result is
//! a linear combination of the dimensions plus a constant (what tt.metal_layout uses); the map parses,
//! prints in MLIR's form, evaluates, bounds its image over a box, and inverts a point when its results are
//! mixed-radix sums (collapsed dimensions, also with bumped strides).

use super::lex::Parser;
use crate::error::LayoutError;
use std::fmt;

/// One result: `Σ coeff · d_dim + constant`, terms sorted by dimension, no zero coefficients.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AffineExpr {
    /// `(dimension, coefficient)`.
    pub terms: Vec<(usize, i64)>,
    /// The constant.
    pub constant: i64,
}

impl AffineExpr {
    /// The expression `d_dim`.
    pub fn dim(dim: usize) -> AffineExpr {
        AffineExpr { terms: vec![(dim, 1)], constant: 0 }
    }

    /// Terms sorted by dimension, one per dimension, none zero; `None` when a coefficient leaves 64 bits.
    fn normalise(mut self) -> Option<AffineExpr> {
        self.terms.sort_by_key(|t| t.0);
        let mut out: Vec<(usize, i64)> = Vec::with_capacity(self.terms.len());
        for (d, c) in self.terms {
            match out.last_mut() {
                Some(last) if last.0 == d => last.1 = last.1.checked_add(c)?,
                _ => out.push((d, c)),
            }
        }
        out.retain(|t| t.1 != 0);
        Some(AffineExpr { terms: out, constant: self.constant })
    }

    /// The value at `point`.
    pub fn eval(&self, point: &[i64]) -> i64 {
        self.terms.iter().fold(self.constant, |a, &(d, c)| a + c * point[d])
    }
}

/// A map from `num_dims` dimensions to its results.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AffineMap {
    /// Number of input dimensions.
    pub num_dims: usize,
    /// The results.
    pub results: Vec<AffineExpr>,
}

impl AffineMap {
    /// The identity over `n` dimensions.
    pub fn identity(n: usize) -> AffineMap {
        AffineMap { num_dims: n, results: (0..n).map(AffineExpr::dim).collect() }
    }

    /// The results at `point` (one coordinate per dimension).
    pub fn eval(&self, point: &[i64]) -> Vec<i64> {
        self.results.iter().map(|r| r.eval(point)).collect()
    }

    /// Per result, the smallest and largest value over the box `0 ≤ d_i < shape[i]` (an empty box counts
    /// as its corner 0). An error when a value there leaves the 64-bit integers the map computes in: every
    /// evaluation inside the box is then exact, since each partial sum lies between the bounds.
    pub fn bounds(&self, shape: &[u64]) -> Result<Vec<(i64, i64)>, LayoutError> {
        self.results
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let (mut lo, mut hi) = (i128::from(r.constant), i128::from(r.constant));
                // A term alone must fit too: `eval` computes each product before adding it.
                let mut terms_fit = true;
                for &(d, c) in &r.terms {
                    // Both factors are below 2^64, so the product fits 128 bits; sums are checked.
                    let top = i128::from(c) * i128::from(shape[d].saturating_sub(1));
                    terms_fit &= i64::try_from(top).is_ok();
                    let side = if c >= 0 { &mut hi } else { &mut lo };
                    *side = side.checked_add(top).unwrap_or(if c >= 0 { i128::MAX } else { i128::MIN });
                }
                let fits = |v: i128| i64::try_from(v).ok();
                match (fits(lo), fits(hi)) {
                    (Some(lo), Some(hi)) if terms_fit => Ok((lo, hi)),
                    _ => Err(LayoutError::value(
                        format!("result {i} of {self}"),
                        if fits(lo).is_none() { lo } else { hi },
                        format!(
                            "over the tensor's extents the map's values must fit 64-bit integers ({} to {})",
                            i64::MIN,
                            i64::MAX
                        ),
                    )),
                }
            })
            .collect()
    }

    /// A point of the box `0 ≤ d_i < shape[i]` the map sends to `target`, if there is one. Each result must
    /// be a mixed-radix sum: its terms, by decreasing positive coefficient, each at least one more than
    /// what the smaller terms can add up to (then the decomposition is unique); otherwise an error.
    pub fn preimage(&self, target: &[i64], shape: &[u64]) -> Result<Option<Vec<i64>>, LayoutError> {
        let mut point: Vec<Option<i64>> = vec![None; self.num_dims];
        for (r, (expr, &want)) in self.results.iter().zip(target).enumerate() {
            let mut terms = expr.terms.clone();
            terms.sort_by_key(|t| std::cmp::Reverse(t.1));
            // Check the mixed-radix condition from the smallest term up.
            let mut reach = 0i64;
            for &(d, c) in terms.iter().rev() {
                if c <= 0 || c <= reach {
                    return Err(LayoutError::Illegal(format!(
                        "result {r} of {self} is not a mixed-radix sum of dimensions (d{d} * {c}), so its points cannot be traced back to tensor elements"
                    )));
                }
                reach += c * (shape[d] as i64 - 1);
            }
            let mut v = want - expr.constant;
            if v < 0 {
                return Ok(None);
            }
            for (k, &(d, c)) in terms.iter().enumerate() {
                let digit = v / c;
                if digit >= shape[d] as i64 || (k + 1 == terms.len() && v % c != 0) {
                    return Ok(None);
                }
                v -= digit * c;
                match point[d] {
                    Some(prev) if prev != digit => return Ok(None),
                    _ => point[d] = Some(digit),
                }
            }
            if v != 0 {
                return Ok(None);
            }
        }
        Ok(Some(point.into_iter().map(|p| p.unwrap_or(0)).collect()))
    }
}

impl fmt::Display for AffineExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for &(d, c) in &self.terms {
            let (neg, mag) = (c < 0, c.unsigned_abs());
            match (first, neg) {
                (true, false) => {}
                (true, true) => f.write_str("-")?,
                (false, false) => f.write_str(" + ")?,
                (false, true) => f.write_str(" - ")?,
            }
            if mag == 1 {
                write!(f, "d{d}")?;
            } else {
                write!(f, "d{d} * {mag}")?;
            }
            first = false;
        }
        if self.constant != 0 || first {
            match (first, self.constant < 0) {
                (true, _) => write!(f, "{}", self.constant)?,
                (false, false) => write!(f, " + {}", self.constant)?,
                (false, true) => write!(f, " - {}", self.constant.unsigned_abs())?,
            }
        }
        Ok(())
    }
}

impl fmt::Display for AffineMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for d in 0..self.num_dims {
            if d > 0 {
                f.write_str(", ")?;
            }
            write!(f, "d{d}")?;
        }
        f.write_str(") -> (")?;
        for (i, r) in self.results.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{r}")?;
        }
        f.write_str(")")
    }
}

impl Parser<'_> {
    fn too_large(&self) -> LayoutError {
        self.err("coefficients and constants that fit 64-bit integers")
    }

    /// A factor: a dimension, a number, or a parenthesised expression; possibly negated.
    fn factor(&mut self) -> Result<AffineExpr, LayoutError> {
        if self.eat("-") {
            let e = self.factor()?;
            return scale(e, -1).ok_or_else(|| self.too_large());
        }
        if self.eat("(") {
            let e = self.expr()?;
            self.expect(")")?;
            return Ok(e);
        }
        if let Some(v) = self.number()? {
            return Ok(AffineExpr { terms: vec![], constant: v });
        }
        let start = self.at;
        match self.ident() {
            Some(name) => Ok(AffineExpr::dim(self.dim_index(start, &name)?)),
            None => Err(self.err("a dimension, a number or `(`")),
        }
    }

    /// A term: factors joined by `*` (at most one of them not a constant).
    fn term(&mut self) -> Result<AffineExpr, LayoutError> {
        let mut e = self.factor()?;
        while self.eat("*") {
            let f = self.factor()?;
            e = if f.terms.is_empty() {
                scale(e, f.constant)
            } else if e.terms.is_empty() {
                scale(f, e.constant)
            } else {
                return Err(self.err("a constant factor (a product of two dimensions is not affine)"));
            }
            .ok_or_else(|| self.too_large())?;
        }
        Ok(e)
    }

    fn expr(&mut self) -> Result<AffineExpr, LayoutError> {
        let mut e = self.term()?;
        loop {
            if self.eat("+") {
                let t = self.term()?;
                e = add(e, t).ok_or_else(|| self.too_large())?;
            } else if self.eat("-") {
                let t = self.term()?;
                e = scale(t, -1).and_then(|t| add(e, t)).ok_or_else(|| self.too_large())?;
            } else {
                return e.normalise().ok_or_else(|| self.too_large());
            }
        }
    }
}

/// `k · e`; `None` when a coefficient or the constant leaves 64 bits.
fn scale(e: AffineExpr, k: i64) -> Option<AffineExpr> {
    let terms = e.terms.into_iter().map(|(d, c)| Some((d, c.checked_mul(k)?))).collect::<Option<Vec<_>>>()?;
    Some(AffineExpr { terms, constant: e.constant.checked_mul(k)? })
}

/// `a + b`; `None` when the constant leaves 64 bits (coefficients add up in [`AffineExpr::normalise`]).
fn add(a: AffineExpr, b: AffineExpr) -> Option<AffineExpr> {
    let mut terms = a.terms;
    terms.extend(b.terms);
    Some(AffineExpr { terms, constant: a.constant.checked_add(b.constant)? })
}

impl std::str::FromStr for AffineMap {
    type Err = LayoutError;

    /// MLIR syntax, optionally wrapped in `affine_map<…>`.
    fn from_str(text: &str) -> Result<AffineMap, LayoutError> {
        let (num_dims, results) = Parser::map(text, |p| p.expr())?;
        Ok(AffineMap { num_dims, results })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_prints_and_evaluates_the_seed_map() {
        let m: AffineMap = "(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)".parse().unwrap();
        assert_eq!(m.to_string(), "(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3)");
        assert_eq!(m.eval(&[1, 1, 6, 100]), vec![262, 100]);
        assert_eq!(m.bounds(&[2, 3, 64, 128]).unwrap(), vec![(0, 383), (0, 127)]);
        // Other spellings normalise to the same map.
        let n: AffineMap = "affine_map<(a, b, c, d) -> (192*a + (b * 64) + c, d)>".parse().unwrap();
        assert_eq!(n, m);
        let k: AffineMap = "(d0) -> (d0 - 1, 3, -d0 + 2 * d0)".parse().unwrap();
        assert_eq!(k.to_string(), "(d0) -> (d0 - 1, 3, d0)");
        for bad in
            ["(d0) -> (d1)", "(d0, d0) -> (d0)", "(d0) -> (d0 * d0)", "(d0) -> (d0", "d0 -> d0", "(d0) -> (d0) x"]
        {
            assert!(bad.parse::<AffineMap>().is_err(), "{bad}");
        }
    }

    #[test]
    fn any_unicode_whitespace_is_skipped_whole() {
        // U+0085 (NEL) and U+00A0 (no-break space) are two bytes each (a fuzzer found the first).
        let m: AffineMap = "(d0,\u{85}d1)\u{a0}->\u{85}(d0,\u{a0}d1)".parse().unwrap();
        assert_eq!(m, AffineMap::identity(2));
        assert!("\u{85}2".parse::<AffineMap>().is_err());
        assert!("(d0) -> (d0 *\u{3000})".parse::<AffineMap>().is_err());
    }

    #[test]
    fn arithmetic_beyond_64_bits_is_an_error_not_a_wrapped_map() {
        // Parsing: products, sums and numbers that leave i64.
        for bad in [
            "(d0) -> (d0 * 9223372036854775807 * 2)",
            "(d0) -> (d0 - 9223372036854775807 - 9223372036854775807)",
            "(d0) -> (d0 * 4611686018427387904 + d0 * 4611686018427387904)",
            "(d0) -> (d0 * 99999999999999999999)",
            "(d0) -> (-(-9223372036854775807 - 1))",
        ] {
            assert!(bad.parse::<AffineMap>().is_err(), "{bad}");
        }
        // Bounds: each value over the box must fit, and so must each term on its own.
        let m: AffineMap = "(d0, d1) -> (d0 * 4611686018427387904 + d1 * 4611686018427387904)".parse().unwrap();
        assert_eq!(m.bounds(&[2, 1]).unwrap(), vec![(0, 4611686018427387904)]);
        assert!(m.bounds(&[2, 2]).is_err(), "2^62 + 2^62 leaves i64");
        let t: AffineMap = "(d0) -> (d0 * 4611686018427387904 - 9223372036854775807)".parse().unwrap();
        assert!(t.bounds(&[3]).is_err(), "the sum fits but d0 * 2^62 alone does not");
        assert!(m.bounds(&[u64::MAX, 1]).is_err());
    }

    #[test]
    fn preimages_of_collapsed_and_bumped_maps() {
        let m: AffineMap = "(d0, d1, d2) -> (d0 * 32 + d1, d2)".parse().unwrap();
        let shape = [2, 8, 32];
        assert_eq!(m.preimage(&[33, 5], &shape).unwrap(), Some(vec![1, 1, 5]));
        assert_eq!(m.preimage(&[9, 5], &shape).unwrap(), None, "row 9 is in the gap the bumped stride leaves");
        let dup: AffineMap = "(d0, d1, d2) -> (d0 * 96 + d1, d1, d2)".parse().unwrap();
        assert_eq!(dup.preimage(&[100, 4, 0], &[8, 96, 32]).unwrap(), Some(vec![1, 4, 0]));
        assert_eq!(dup.preimage(&[100, 5, 0], &[8, 96, 32]).unwrap(), None, "d1 disagrees between results");
        let bad: AffineMap = "(d0, d1) -> (d0 + d1)".parse().unwrap();
        assert!(bad.preimage(&[3], &[4, 4]).is_err());
    }
}
