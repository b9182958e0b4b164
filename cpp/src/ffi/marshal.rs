//! Marshalling between C++ and Rust: strings and slices the kernel and host ABIs receive, out-parameters.
#![allow(unsafe_code)]

/// The text of a C string the kernel passed (`len` bytes).
pub(crate) fn text(ptr: *const u8, len: u32) -> String {
    if ptr.is_null() {
        return String::new();
    }
    // SAFETY: the headers pass a pointer to `len` bytes of a live std::string.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len as usize) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// The text of a NUL-terminated C string the kernel passed (a zone name: a string literal).
pub(crate) fn c_str(ptr: *const std::ffi::c_char) -> String {
    if ptr.is_null() {
        return String::new();
    }
    // SAFETY: `DeviceZoneScopedN` passes a string literal, NUL-terminated and static.
    unsafe { std::ffi::CStr::from_ptr(ptr) }.to_string_lossy().into_owned()
}

/// The `n` elements at `ptr` (empty for a null pointer or `n == 0`).
pub(crate) fn read_slice<'a, T>(ptr: *const T, n: usize) -> &'a [T] {
    if ptr.is_null() || n == 0 {
        return &[];
    }
    // SAFETY: the host headers pass a pointer to `n` live elements (a vector's data, an array), which
    // stay alive and unchanged for the duration of the call that reads them; the SFPI header passes
    // its vectors' lane arrays (`MAX_LANES` elements) the same way.
    unsafe { std::slice::from_raw_parts(ptr, n) }
}

/// Copy `data` to `ptr` (which has room for `data.len()` elements; nothing for a null pointer).
pub(crate) fn write_slice<T: Copy>(ptr: *mut T, data: &[T]) {
    if ptr.is_null() || data.is_empty() {
        return;
    }
    // SAFETY: the host headers pass a destination sized for the bytes requested, and `data` is no longer
    // than that request (callers take the minimum).
    unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), ptr, data.len()) }
}

/// Store `v` in the out-parameter `ptr` (ignored when null).
pub(crate) fn set_out<T>(ptr: *mut T, v: T) {
    if !ptr.is_null() {
        // SAFETY: out-parameters point to a local of the calling header function.
        unsafe { ptr.write(v) }
    }
}

/// A NUL-terminated string from a host program (`None` for a null pointer).
pub(crate) fn c_string(ptr: *const std::ffi::c_char) -> Option<String> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: the headers pass `std::string::c_str()` of a live string.
    Some(unsafe { std::ffi::CStr::from_ptr(ptr) }.to_string_lossy().into_owned())
}
