//! The NoC command buffers a RISC programs: which one a call uses, and what the `*_set_state` calls store
//! in them for the `*_with_state` calls that follow.

/// What a `set_state` call left in a command buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CmdState {
    /// The remote NoC address given to `set_state` (its coordinates are kept; `with_state` replaces the
    /// low 32 bits of its local address).
    pub remote: u64,
    /// The size of the one-packet forms (`None`: the call gives it).
    pub size: Option<u32>,
    /// Writes: posted.
    pub posted: bool,
    /// Writes: the static VC number.
    pub vc: u8,
}

/// What an inline write's command buffer holds after `noc_inline_dw_write_set_state`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct InlineState {
    /// The destination NoC address.
    pub remote: u64,
    /// The value, if one was stored.
    pub val: Option<u32>,
    pub byte_enable: u8,
    pub vc: u8,
}

/// The NoC command buffers a RISC programs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CmdBuf {
    Read = 0,
    Write = 1,
    Atomic = 2,
}
