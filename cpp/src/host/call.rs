//! One host call as the ABI runs it: recorded as the host program's last call, panics caught (they must
//! not unwind into C++ frames), errors kept for `last_error`; and opening a device with its L1 ready for
//! C++ kernels' pointers (shared by the device and mesh calls); core ranges as the calls pass them.

use super::session::{Session, session};
use crate::ffi::read_slice;
use sim_device::{CoreCoord, CoreRange, CoreRangeSet};
use std::cell::RefCell;
use std::ffi::{CString, c_char};

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// The message of this thread's last failing host call.
pub(crate) fn last_error_message() -> String {
    LAST_ERROR.with(|e| e.borrow().to_string_lossy().into_owned())
}

pub(super) extern "C" fn last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// Run one call: 0 on success; otherwise the message is kept for `last_error` and -1 returned. A panic
/// is caught here (it must not unwind into the C++ frames) and reported as an internal error.
/// Run a host call (`api`: a type name whose path names it, recorded as the host program's last call):
/// 0, or -1 with the message for `last_error`.
fn call_named(api: &'static str, f: impl FnOnce() -> Result<(), String>) -> i32 {
    crate::ffi::enter_tensim(api);
    let _back = crate::ffi::BackToHost;
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let m = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic".into());
        Err(format!("internal error in tensim: {m}; please report it"))
    });
    match r {
        Ok(()) => 0,
        Err(m) => {
            let c = CString::new(m.replace('\0', " ")).unwrap_or_default();
            LAST_ERROR.with(|e| *e.borrow_mut() = c);
            -1
        }
    }
}

pub(super) fn on_session<F: FnOnce(&mut Session) -> Result<(), String>>(f: F) -> i32 {
    call_named(std::any::type_name::<F>(), || session(f))
}

/// Open device `id` (not open yet) with its L1 ready for C++ kernels' pointers.
pub(super) fn open_one(s: &mut Session, id: u32) -> Result<(), String> {
    let mut dev = (s.cfg.open)(id)?;
    crate::ffi::l1_window::map_device(&mut dev)?;
    s.devices.insert(id, dev);
    Ok(())
}

/// Core ranges passed as quadruples (start x, start y, end x, end y).
pub(super) fn ranges(ptr: *const u32, n: u32) -> Result<CoreRangeSet, String> {
    let v = read_slice(ptr, n as usize * 4);
    let rs: Vec<CoreRange> =
        v.chunks_exact(4).map(|q| CoreRange::new(CoreCoord::new(q[0], q[1]), CoreCoord::new(q[2], q[3]))).collect();
    CoreRangeSet::new(rs).map_err(|e| e.to_string())
}
