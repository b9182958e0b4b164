// Timing of a kernel's loads and stores through L1 pointers. tensim builds every kernel with the
// compiler's address-sanitizer instrumentation in its call-per-access form (-fsanitize=kernel-address,
// no shadow memory, no stack or global checks): before each load and store the compiled code calls the
// hook of its size below. A hook whose address lies in this core's L1 ([256, L1 size)) tells tensim, which
// charges the RISC-V load or store time and lets other kernels catch up; every other address (the
// kernel's stack, the host heap) returns at once. Included once, by the wrapper tensim compiles around
// each kernel; written for tensim.
#pragma once
#include <cstddef>
#include <cstdint>

#include "tensim/abi.h"

namespace tensim {
// The L1 size of the running kernel's core (set at entry); 0: no kernel yet, nothing is timed.
inline uint32_t l1_end = 0;
__attribute__((no_sanitize_address)) inline void l1_touch(const void* p, uint32_t bytes, uint32_t store) {
    uintptr_t a = reinterpret_cast<uintptr_t>(p);
    if (a >= 256 && a < l1_end) api->l1_access(bytes, store);
}
}  // namespace tensim

#define TENSIM_ASAN_HOOK(n)                                                                                 \
    extern "C" __attribute__((no_sanitize_address)) void __asan_load##n##_noabort(void* p) {                \
        tensim::l1_touch(p, n, 0);                                                                          \
    }                                                                                                       \
    extern "C" __attribute__((no_sanitize_address)) void __asan_store##n##_noabort(void* p) {               \
        tensim::l1_touch(p, n, 1);                                                                          \
    }
TENSIM_ASAN_HOOK(1)
TENSIM_ASAN_HOOK(2)
TENSIM_ASAN_HOOK(4)
TENSIM_ASAN_HOOK(8)
TENSIM_ASAN_HOOK(16)
#undef TENSIM_ASAN_HOOK
extern "C" __attribute__((no_sanitize_address)) void __asan_loadN_noabort(void* p, long n) {
    tensim::l1_touch(p, static_cast<uint32_t>(n), 0);
}
extern "C" __attribute__((no_sanitize_address)) void __asan_storeN_noabort(void* p, long n) {
    tensim::l1_touch(p, static_cast<uint32_t>(n), 1);
}
extern "C" __attribute__((no_sanitize_address)) void __asan_handle_no_return() {}
extern "C" __attribute__((no_sanitize_address)) void __asan_before_dynamic_init(const char*) {}
extern "C" __attribute__((no_sanitize_address)) void __asan_after_dynamic_init() {}
