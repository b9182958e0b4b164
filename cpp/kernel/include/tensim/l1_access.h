// Timing of a kernel's loads and stores through L1 pointers. tensim builds every kernel with the
// compiler's thread-sanitizer instrumentation (-fsanitize=thread, without its runtime): before each load
// and store of memory that is not a private local the compiled code calls the hook of its size and kind
// below — every access, volatile ones too, with none elided as redundant (a poll loop after a store to its
// flag is still seen load by load, and a read-modify-write still reports its store). A hook whose address
// lies in this core's L1 ([256, L1 size)) tells tensim, which charges the RISC-V load or store time and
// lets other kernels catch up; every other address (the kernel's stack, the host heap) returns at once.
// Atomic operations on L1 words are timed as a load and a store. Included once, by the wrapper tensim
// compiles around each kernel; written for tensim.
#pragma once
#include <csetjmp>
#include <cstddef>
#include <cstdint>

#include "tensim/abi.h"

namespace tensim {
// The L1 size of the running kernel's core (set at entry); 0: no kernel yet, nothing is timed.
inline uint32_t l1_end = 0;
// The kernel must stop inside a hook: back to its entry (tensim/kernel_entry.h), which returns to tensim.
// The compiler takes the hooks for calls that cannot throw, so tensim's error cannot unwind through them.
[[noreturn]] __attribute__((no_sanitize_thread)) inline void stop_in_hook() {
    void* jump = api->exit_jump(nullptr);
    if (jump == nullptr) __builtin_trap();
    std::longjmp(*static_cast<std::jmp_buf*>(jump), 2);
}
__attribute__((no_sanitize_thread)) inline void l1_touch(const volatile void* p, uint32_t bytes, uint32_t store) {
    uintptr_t a = reinterpret_cast<uintptr_t>(p);
    if (a >= 256 && a < l1_end && api->l1_access(static_cast<uint32_t>(a), bytes, store) != 0) stop_in_hook();
}
}  // namespace tensim

#define TENSIM_NOSAN extern "C" __attribute__((no_sanitize_thread, visibility("hidden")))
#define TENSIM_TSAN_HOOK(n)                                                                                  \
    TENSIM_NOSAN void __tsan_read##n(void* p) { tensim::l1_touch(p, n, 0); }                                 \
    TENSIM_NOSAN void __tsan_write##n(void* p) { tensim::l1_touch(p, n, 1); }                                \
    TENSIM_NOSAN void __tsan_volatile_read##n(void* p) { tensim::l1_touch(p, n, 0); }                        \
    TENSIM_NOSAN void __tsan_volatile_write##n(void* p) { tensim::l1_touch(p, n, 1); }                       \
    TENSIM_NOSAN void __tsan_unaligned_read##n(void* p) { tensim::l1_touch(p, n, 0); }                       \
    TENSIM_NOSAN void __tsan_unaligned_write##n(void* p) { tensim::l1_touch(p, n, 1); }                      \
    TENSIM_NOSAN void __tsan_unaligned_volatile_read##n(void* p) { tensim::l1_touch(p, n, 0); }              \
    TENSIM_NOSAN void __tsan_unaligned_volatile_write##n(void* p) { tensim::l1_touch(p, n, 1); }
TENSIM_TSAN_HOOK(1)
TENSIM_TSAN_HOOK(2)
TENSIM_TSAN_HOOK(4)
TENSIM_TSAN_HOOK(8)
TENSIM_TSAN_HOOK(16)
#undef TENSIM_TSAN_HOOK
TENSIM_NOSAN void __tsan_read_range(void* p, unsigned long n) { tensim::l1_touch(p, static_cast<uint32_t>(n), 0); }
TENSIM_NOSAN void __tsan_write_range(void* p, unsigned long n) { tensim::l1_touch(p, static_cast<uint32_t>(n), 1); }
TENSIM_NOSAN void __tsan_init() {}
TENSIM_NOSAN void __tsan_func_entry(void*) {}
TENSIM_NOSAN void __tsan_func_exit() {}
TENSIM_NOSAN void __tsan_vptr_update(void**, void*) {}
TENSIM_NOSAN void __tsan_vptr_read(void**) {}
TENSIM_NOSAN void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
TENSIM_NOSAN void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

// Atomics: done with the compiler's builtins (sequentially consistent whatever the order asked: one RISC
// runs at a time), timed as the loads and stores they make.
#define TENSIM_TSAN_ATOMIC_RMW(n, T, op, builtin)                                                            \
    TENSIM_NOSAN T __tsan_atomic##n##_##op(volatile T* a, T v, int) {                                       \
        tensim::l1_touch(a, sizeof(T), 0);                                                                   \
        tensim::l1_touch(a, sizeof(T), 1);                                                                   \
        return builtin(a, v, __ATOMIC_SEQ_CST);                                                              \
    }
#define TENSIM_TSAN_ATOMIC(n, T)                                                                             \
    TENSIM_NOSAN T __tsan_atomic##n##_load(const volatile T* a, int) {                                      \
        tensim::l1_touch(a, sizeof(T), 0);                                                                   \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                         \
    }                                                                                                        \
    TENSIM_NOSAN void __tsan_atomic##n##_store(volatile T* a, T v, int) {                                   \
        tensim::l1_touch(a, sizeof(T), 1);                                                                   \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                            \
    }                                                                                                        \
    TENSIM_TSAN_ATOMIC_RMW(n, T, exchange, __atomic_exchange_n)                                              \
    TENSIM_TSAN_ATOMIC_RMW(n, T, fetch_add, __atomic_fetch_add)                                              \
    TENSIM_TSAN_ATOMIC_RMW(n, T, fetch_sub, __atomic_fetch_sub)                                              \
    TENSIM_TSAN_ATOMIC_RMW(n, T, fetch_and, __atomic_fetch_and)                                              \
    TENSIM_TSAN_ATOMIC_RMW(n, T, fetch_or, __atomic_fetch_or)                                                \
    TENSIM_TSAN_ATOMIC_RMW(n, T, fetch_xor, __atomic_fetch_xor)                                              \
    TENSIM_TSAN_ATOMIC_RMW(n, T, fetch_nand, __atomic_fetch_nand)                                            \
    TENSIM_NOSAN int __tsan_atomic##n##_compare_exchange_strong(volatile T* a, T* c, T v, int, int) {       \
        tensim::l1_touch(a, sizeof(T), 0);                                                                   \
        tensim::l1_touch(a, sizeof(T), 1);                                                                   \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);              \
    }                                                                                                        \
    TENSIM_NOSAN int __tsan_atomic##n##_compare_exchange_weak(volatile T* a, T* c, T v, int, int) {         \
        tensim::l1_touch(a, sizeof(T), 0);                                                                   \
        tensim::l1_touch(a, sizeof(T), 1);                                                                   \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);              \
    }                                                                                                        \
    TENSIM_NOSAN T __tsan_atomic##n##_compare_exchange_val(volatile T* a, T c, T v, int, int) {             \
        tensim::l1_touch(a, sizeof(T), 0);                                                                   \
        tensim::l1_touch(a, sizeof(T), 1);                                                                   \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                    \
        return c;                                                                                            \
    }
TENSIM_TSAN_ATOMIC(8, char)
TENSIM_TSAN_ATOMIC(16, short)
TENSIM_TSAN_ATOMIC(32, int)
TENSIM_TSAN_ATOMIC(64, long)
#undef TENSIM_TSAN_ATOMIC
#undef TENSIM_TSAN_ATOMIC_RMW
#undef TENSIM_NOSAN
