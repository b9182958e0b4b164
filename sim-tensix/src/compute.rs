//! The compute kernel context. A compute kernel is compiled three times on hardware — for TRISC0 (UNPACK),
//! TRISC1 (MATH) and TRISC2 (PACK) — and so tensim runs its body three times, as three threads with one
//! [`ComputeRole`] each. Every API call acts only in the role(s) that own it (tt-metal-api.md §3.1); plain
//! code between calls runs on all three.

use crate::args::KernelInstance;
use crate::core::Wait;
use crate::dataflow::{ArgValue, CbId, KernelCtx};
use crate::host::KernelHost;
use sim_core::{Cycle, Cycles, Yielder};
use std::cell::RefCell;
use std::rc::Rc;

/// Which TRISC thread a compute body runs as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ComputeRole {
    /// TRISC0: moves tiles from CBs into the source registers.
    Unpack,
    /// TRISC1: drives the FPU/SFPU on the DST register.
    Math,
    /// TRISC2: moves tiles from DST into CBs.
    Pack,
}

/// The context of one thread of a compute kernel.
pub struct Compute<'y> {
    pub(crate) ctx: KernelCtx<'y>,
    role: ComputeRole,
}

impl<'y> Compute<'y> {
    /// A context for kernel `k` running as `role`, starting at `start`.
    pub fn new(
        host: Rc<RefCell<dyn KernelHost>>,
        yielder: &'y Yielder,
        k: Rc<KernelInstance>,
        role: ComputeRole,
        start: Cycle,
    ) -> Self {
        Compute { ctx: KernelCtx::new(host, yielder, k, start), role }
    }

    /// Report the thread's statistics.
    pub fn finish(self) {
        self.ctx.finish();
    }

    /// The role this body runs as.
    pub fn role(&self) -> ComputeRole {
        self.role
    }

    /// `get_arg_val<T>(i)` (all three threads read it).
    pub fn get_arg_val<T: ArgValue>(&self, i: usize) -> T {
        self.ctx.spend(self.ctx.costs.arg_read);
        T::from_arg_bits(self.ctx.arg("get_arg_val", false, i))
    }

    /// `get_common_arg_val<T>(i)`.
    pub fn get_common_arg_val<T: ArgValue>(&self, i: usize) -> T {
        self.ctx.spend(self.ctx.costs.arg_read);
        T::from_arg_bits(self.ctx.arg("get_common_arg_val", true, i))
    }

    /// `get_compile_time_arg_val(i)`.
    pub fn get_compile_time_arg_val(&self, i: usize) -> u32 {
        match self.ctx.k.args.compile.get(i) {
            Some(v) => *v,
            None => self.ctx.fail(format!(
                "get_compile_time_arg_val({i}): only {} compile-time args were given",
                self.ctx.k.args.compile.len()
            )),
        }
    }

    /// `get_named_compile_time_arg_val("name")`.
    pub fn get_named_compile_time_arg_val(&self, name: &str) -> u32 {
        match self.ctx.k.args.named.iter().find(|(n, _)| n == name) {
            Some((_, v)) => *v,
            None => {
                self.ctx.fail(format!("get_named_compile_time_arg_val(\"{name}\"): no such named compile-time arg"))
            }
        }
    }

    /// The value of define `name`.
    pub fn get_define(&self, name: &str) -> Option<&str> {
        self.ctx.k.args.defines.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Spend `cycles` on this thread.
    pub fn delay(&self, cycles: u64) {
        self.ctx.spend(Cycles(cycles));
    }

    /// A debug line (`DPRINT_UNPACK/MATH/PACK`).
    pub fn dprint(&mut self, text: impl std::fmt::Display) {
        let text = text.to_string();
        // DPRINT stores the message into the core's print buffer, one word at a time.
        self.ctx.spend(Cycles(self.ctx.costs.l1_store.0 * (text.len() as u64 / 4 + 1)));
        let now = self.ctx.now();
        self.ctx.host.borrow_mut().dprint(self.ctx.k.fiber, now, text);
    }

    /// `cb_wait_front(cb, n)` — UNPACK.
    pub fn cb_wait_front(&mut self, cb: impl CbId, n: u32) {
        if self.role != ComputeRole::Unpack {
            return;
        }
        let cb = self.ctx.cb_index("cb_wait_front", cb.cb_index());
        self.ctx.spend(self.ctx.costs.cb_poll);
        self.ctx.cb_checked("cb_wait_front", cb, n);
        let lat = self.ctx.costs.cb_wake;
        self.ctx.wait_for(Wait::CbFront { cb, pages: n }, lat);
    }

    /// `cb_pop_front(cb, n)` — UNPACK.
    pub fn cb_pop_front(&mut self, cb: impl CbId, n: u32) {
        if self.role != ComputeRole::Unpack {
            return;
        }
        let cb = self.ctx.cb_index("cb_pop_front", cb.cb_index());
        self.ctx.spend(self.ctx.costs.cb_update);
        self.ctx.cb_checked("cb_pop_front", cb, n);
        self.ctx.sync();
        let risc = self.ctx.k.risc;
        self.ctx.with_core(|c| c.cb_mut(cb).expect("checked").pop(risc, n));
        self.ctx.notify();
    }

    /// `cb_reserve_back(cb, n)` — PACK.
    pub fn cb_reserve_back(&mut self, cb: impl CbId, n: u32) {
        if self.role != ComputeRole::Pack {
            return;
        }
        let cb = self.ctx.cb_index("cb_reserve_back", cb.cb_index());
        self.ctx.spend(self.ctx.costs.cb_poll);
        self.ctx.cb_checked("cb_reserve_back", cb, n);
        let lat = self.ctx.costs.cb_wake;
        self.ctx.wait_for(Wait::CbBack { cb, pages: n }, lat);
    }

    /// `cb_push_back(cb, n)` — PACK.
    pub fn cb_push_back(&mut self, cb: impl CbId, n: u32) {
        if self.role != ComputeRole::Pack {
            return;
        }
        let cb = self.ctx.cb_index("cb_push_back", cb.cb_index());
        self.ctx.spend(self.ctx.costs.cb_update);
        self.ctx.cb_checked("cb_push_back", cb, n);
        self.ctx.sync();
        let risc = self.ctx.k.risc;
        self.ctx.with_core(|c| c.cb_mut(cb).expect("checked").push(risc, n));
        self.ctx.notify();
    }
}
