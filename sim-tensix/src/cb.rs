//! Circular-buffer bookkeeping with tt-metal's semantics: two shared 16-bit counters per (core, CB) —
//! pages received (bumped by push) and pages acknowledged (bumped by pop) — compared modulo 2^16.

/// The shared counters of one circular buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CbCounters {
    /// `tiles_received`: pages pushed so far, modulo 2^16.
    pub received: u16,
    /// `tiles_acked`: pages popped so far, modulo 2^16.
    pub acked: u16,
}

impl CbCounters {
    /// Pages pushed and not yet popped.
    pub fn pages_available(&self) -> u16 {
        self.received.wrapping_sub(self.acked)
    }

    /// Pages a producer may still reserve, for a CB of `num_pages` pages (negative when over-pushed).
    pub fn pages_free(&self, num_pages: u32) -> i64 {
        num_pages as i64 - self.pages_available() as i64
    }

    /// `cb_push_back(n)`.
    pub fn push(&mut self, n: u16) {
        self.received = self.received.wrapping_add(n);
    }

    /// `cb_pop_front(n)`.
    pub fn pop(&mut self, n: u16) {
        self.acked = self.acked.wrapping_add(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_wrap_modulo_2_16() {
        let mut c = CbCounters {
            received: 65534,
            acked: 65533,
        };
        assert_eq!(c.pages_available(), 1);
        c.push(3);
        assert_eq!(c.received, 1);
        assert_eq!(c.pages_available(), 4);
        assert_eq!(c.pages_free(8), 4);
        c.pop(4);
        assert_eq!(c.pages_available(), 0);
        assert_eq!(c.pages_free(8), 8);
    }
}
