//! The reader of MLIR affine-map text shared by tt.metal_layout's linear maps ([`super::affine`]) and the
//! device grid maps with `floordiv` and `mod` ([`crate::device::map`]): whitespace, tokens, names, numbers,
//! the `(d0, d1) -> (` header and the end.

use crate::error::LayoutError;

/// A reader of MLIR affine-map text.
pub(crate) struct Parser<'a> {
    pub(crate) text: &'a str,
    pub(crate) at: usize,
    /// The dimension names of the header, in order.
    pub(crate) dims: Vec<String>,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(text: &'a str) -> Parser<'a> {
        Parser { text, at: 0, dims: Vec::new() }
    }

    pub(crate) fn err(&self, expected: &str) -> LayoutError {
        LayoutError::parse("affine map", self.text, self.at, expected)
    }

    pub(crate) fn ws(&mut self) {
        // Whitespace may be any Unicode space (NEL, no-break space …): step over whole characters.
        while let Some(c) = self.text[self.at..].chars().next().filter(|c| c.is_whitespace()) {
            self.at += c.len_utf8();
        }
    }

    pub(crate) fn eat(&mut self, s: &str) -> bool {
        self.ws();
        if self.text[self.at..].starts_with(s) {
            self.at += s.len();
            true
        } else {
            false
        }
    }

    pub(crate) fn expect(&mut self, s: &str) -> Result<(), LayoutError> {
        if self.eat(s) { Ok(()) } else { Err(self.err(&format!("`{s}`"))) }
    }

    pub(crate) fn ident(&mut self) -> Option<String> {
        self.ws();
        let rest = &self.text[self.at..];
        let n = rest
            .char_indices()
            .take_while(|&(i, c)| c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit()))
            .count();
        if n == 0 {
            return None;
        }
        self.at += n;
        Some(rest[..n].to_string())
    }

    /// A non-negative decimal number, if one comes next; an error when its digits do not fit 64 bits.
    pub(crate) fn number(&mut self) -> Result<Option<i64>, LayoutError> {
        self.ws();
        let rest = &self.text[self.at..];
        let n = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
        if n == 0 {
            return Ok(None);
        }
        let Ok(v) = rest[..n].parse::<i64>() else {
            return Err(self.err(&format!("a number of at most {} (`{}` does not fit 64 bits)", i64::MAX, &rest[..n])));
        };
        self.at += n;
        Ok(Some(v))
    }

    /// `affine_map<`? `(d0, …) -> (`: reads the dimension names; returns whether the map is wrapped.
    pub(crate) fn header(&mut self) -> Result<bool, LayoutError> {
        let wrapped = self.eat("affine_map<");
        self.expect("(")?;
        if !self.eat(")") {
            loop {
                let start = self.at;
                match self.ident() {
                    Some(d) if !self.dims.contains(&d) => self.dims.push(d),
                    Some(_) => {
                        self.at = start;
                        return Err(self.err("a dimension name not used before"));
                    }
                    None => return Err(self.err("a dimension name such as d0")),
                }
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        self.expect("->")?;
        self.expect("(")?;
        Ok(wrapped)
    }

    /// The closing `>` of a wrapped map, then nothing but whitespace.
    pub(crate) fn finish(&mut self, wrapped: bool) -> Result<(), LayoutError> {
        if wrapped {
            self.expect(">")?;
        }
        self.ws();
        if self.at != self.text.len() {
            return Err(self.err("the end of the map"));
        }
        Ok(())
    }

    /// The index of dimension `name`, or an error listing the dimensions.
    pub(crate) fn dim_index(&mut self, start: usize, name: &str) -> Result<usize, LayoutError> {
        match self.dims.iter().position(|d| d == name) {
            Some(i) => Ok(i),
            None => {
                self.at = start;
                Err(self.err(&format!("one of the dimensions ({})", self.dims.join(", "))))
            }
        }
    }

    /// A whole map: the header, results read by `result` separated by commas, the end. Returns the number
    /// of dimensions and the results.
    pub(crate) fn map<T>(
        text: &'a str,
        mut result: impl FnMut(&mut Parser<'a>) -> Result<T, LayoutError>,
    ) -> Result<(usize, Vec<T>), LayoutError> {
        let mut p = Parser::new(text);
        let wrapped = p.header()?;
        let mut results = Vec::new();
        if !p.eat(")") {
            loop {
                results.push(result(&mut p)?);
                if p.eat(")") {
                    break;
                }
                p.expect(",")?;
            }
        }
        p.finish(wrapped)?;
        Ok((p.dims.len(), results))
    }
}
