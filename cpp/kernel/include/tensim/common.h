// What every tensim kernel sees: attribute macros, CB indices, data formats, compile-time and runtime
// arguments, DPRINT and the profiler zone macro. Written for tensim from the documented TT-Metalium
// kernel interface.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "tensim/abi.h"

#define FORCE_INLINE inline __attribute__((always_inline))
#define ALWI inline __attribute__((always_inline))
#define tt_l1_ptr
#define tt_reg_ptr
#define RISC_POST_HEARTBEAT(x)
#define WAYPOINT(x)
#define ASSERT(x)

#ifndef NOC_INDEX
#define NOC_INDEX 0
#endif
#ifndef NOC_MODE
#define NOC_MODE 0
#endif

constexpr uint32_t NUM_NOCS = 2;
constexpr uint32_t NUM_CIRCULAR_BUFFERS = 64;
constexpr uint32_t NOC_UNICAST_WRITE_VC = 1;
constexpr uint32_t NOC_MULTICAST_WRITE_VC = 4;
#ifdef ARCH_BLACKHOLE
constexpr uint32_t L1_ALIGNMENT = 16;
constexpr uint32_t DRAM_ALIGNMENT = 64;
constexpr uint32_t NOC_MAX_BURST_SIZE = 16384;
#else
constexpr uint32_t L1_ALIGNMENT = 16;
constexpr uint32_t DRAM_ALIGNMENT = 32;
constexpr uint32_t NOC_MAX_BURST_SIZE = 8192;
#endif

#include "hostdevcommon/kernel_structs.h"
#include "tt-metalium/constants.hpp"

enum class DataFormat : uint8_t {
    Float32 = 0, Float16 = 1, Bfp8 = 2, Bfp4 = 3, Tf32 = 4, Float16_b = 5, Bfp8_b = 6, Bfp4_b = 7,
    Int32 = 8, UInt16 = 9, Lf8 = 10, Bfp2 = 11, Int8 = 14, Bfp2_b = 15, UInt32 = 24, Fp8_e4m3 = 0x1A,
    UInt8 = 30, Invalid = 0xff,
};

enum class ProgrammableCoreType : uint8_t { TENSIX = 0, ACTIVE_ETH = 1, IDLE_ETH = 2, COUNT = 3 };

// Compile-time arguments: -DKERNEL_COMPILE_TIME_ARGS=v0,v1,... (named: KERNEL_COMPILE_TIME_ARG_MAP).
#ifdef KERNEL_COMPILE_TIME_ARGS
constexpr uint32_t kernel_compile_time_args[] = {KERNEL_COMPILE_TIME_ARGS};
constexpr uint32_t tensim_num_compile_time_args = sizeof(kernel_compile_time_args) / sizeof(uint32_t);
#else
constexpr uint32_t kernel_compile_time_args[1] = {0};
constexpr uint32_t tensim_num_compile_time_args = 0;
#endif
// Where the host appended TensorAccessorArgs (today's layout), and whether this build reads the layout
// before the page-size word (see tensim/accessor.h).
namespace tensim::ta {
#ifdef TENSIM_TA_BLOCKS
constexpr uint32_t blocks[] = {TENSIM_TA_BLOCKS};
constexpr uint32_t num_blocks = sizeof(blocks) / sizeof(uint32_t);
#else
constexpr uint32_t blocks[1] = {0};
constexpr uint32_t num_blocks = 0;
#endif
#ifdef TENSIM_TA_ONE_WORD
constexpr bool one_word = true;
#else
constexpr bool one_word = false;
#endif
// Whether compile-time arg `o` is a page-size word of today's layout: a kernel of today never names one
// directly, so a kernel that does was written for the older layout.
constexpr bool is_page_word(uint32_t o) {
    for (uint32_t i = 0; i < num_blocks; i++)
        if (blocks[i] + 1 == o) return true;
    return false;
}
}  // namespace tensim::ta
template <uint32_t Idx>
constexpr uint32_t get_ct_arg() {
    static_assert(Idx < tensim_num_compile_time_args, "get_compile_time_arg_val: index out of range of the kernel's compile_args");
    static_assert(tensim::ta::num_blocks == 0 || tensim::ta::one_word || !tensim::ta::is_page_word(Idx),
                  "tensim-accessor-layout-one-word: this kernel reads a compile-time arg at an offset of the layout "
                  "without the page-size word");
    return kernel_compile_time_args[Idx];
}
#define get_compile_time_arg_val(arg_idx) get_ct_arg<arg_idx>()

namespace tensim {
struct NamedArg {
    std::string_view name;
    uint32_t value;
};
#ifdef KERNEL_COMPILE_TIME_ARG_MAP
constexpr NamedArg named_args[] = {KERNEL_COMPILE_TIME_ARG_MAP};
constexpr size_t num_named_args = sizeof(named_args) / sizeof(NamedArg);
#else
constexpr NamedArg named_args[1] = {{"", 0}};
constexpr size_t num_named_args = 0;
#endif
}  // namespace tensim
constexpr uint32_t get_named_compile_time_arg_val(std::string_view name) {
    for (size_t i = 0; i < tensim::num_named_args; i++) {
        if (tensim::named_args[i].name == name) return tensim::named_args[i].value;
    }
    throw "get_named_compile_time_arg_val: no named compile-time arg of this name";
}

// Runtime arguments.
template <typename T>
FORCE_INLINE T get_arg_val(int arg_idx) {
    static_assert(sizeof(T) == 4, "get_arg_val<T>: T must be a 4-byte type");
    uint32_t v = tensim::api->arg(static_cast<uint32_t>(arg_idx));
    T out;
    std::memcpy(&out, &v, 4);
    return out;
}
template <typename T>
FORCE_INLINE T get_common_arg_val(int arg_idx) {
    static_assert(sizeof(T) == 4, "get_common_arg_val<T>: T must be a 4-byte type");
    uint32_t v = tensim::api->common_arg(static_cast<uint32_t>(arg_idx));
    T out;
    std::memcpy(&out, &v, 4);
    return out;
}
static FORCE_INLINE uint32_t get_arg_addr(int arg_idx) { return tensim::api->query(15, arg_idx, 0); }
static FORCE_INLINE uint32_t get_common_arg_addr(int arg_idx) { return tensim::api->query(16, arg_idx, 0); }
inline uint8_t get_absolute_logical_x() { return tensim::api->query(10, 0, 0); }
inline uint8_t get_absolute_logical_y() { return tensim::api->query(11, 0, 0); }
inline uint8_t get_relative_logical_x() { return tensim::api->query(10, 0, 0); }
inline uint8_t get_relative_logical_y() { return tensim::api->query(11, 0, 0); }

// Circular buffers (the same calls serve data-movement and compute kernels).
FORCE_INLINE void cb_reserve_back(int32_t cb, int32_t n) { tensim::api->cb(0, cb, n); }
FORCE_INLINE void cb_push_back(int32_t cb, int32_t n) { tensim::api->cb(1, cb, n); }
FORCE_INLINE void cb_wait_front(int32_t cb, int32_t n) { tensim::api->cb(2, cb, n); }
FORCE_INLINE void cb_pop_front(int32_t cb, int32_t n) { tensim::api->cb(3, cb, n); }

// The profiler zone: DeviceZoneScopedN("name") marks the enclosing scope.
namespace tensim {
struct Zone {
    const char* name;
    explicit Zone(const char* n) : name(n) { api->zone(n, 1); }
    ~Zone() { api->zone(name, 0); }
};
}  // namespace tensim
#define TENSIM_CAT2(a, b) a##b
#define TENSIM_CAT(a, b) TENSIM_CAT2(a, b)
#define DeviceZoneScopedN(name) tensim::Zone TENSIM_CAT(tensim_zone_, __LINE__)(name)
#define DeviceZoneScopedMainN(name) DeviceZoneScopedN(name)
#define DeviceZoneScopedMainChildN(name) DeviceZoneScopedN(name)
#define DeviceZoneScopedSumN1(name) DeviceZoneScopedN(name)
#define DeviceZoneScopedSumN2(name) DeviceZoneScopedN(name)
// Timestamped values: recorded with the cycle, the core and the RISC (the run's report, --stats, --trace).
#define DeviceTimestampedData(name, data) tensim::api->timestamped_data(name, static_cast<uint64_t>(data))
#define DeviceRecordEvent(event_id) tensim::api->timestamped_data("event", static_cast<uint64_t>(event_id))
// Profiler bookkeeping with nothing to do in a simulator (the buffers never fill).
#define DeviceValidateProfiler(condition)
#define DeviceZoneSetCounter(counter)
#define DeviceProfilerInit()
#define DeviceTraceOnlyProfilerInit()
#define DeviceIncrementTraceCount()
