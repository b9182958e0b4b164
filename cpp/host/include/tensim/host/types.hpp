// tensim's TT-Metalium host headers: architectures, data formats, CB indices, constants, kernel
// configurations, enums, logging and the TT_FATAL/TT_THROW/TT_ASSERT checks. Written for tensim from the
// documented interface; field orders follow tt-metal's so designated initialisers compile unchanged.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "tensim/fmt.hpp"
#include "tensim/host_abi.h"

namespace tensim {
// The session's table, or an error saying how to run the program.
inline const tensim_host_api& api() {
    if (!host_api) throw std::runtime_error("this program uses tensim's TT-Metalium headers: run it with `tensim build-and-run DIR`");
    return *host_api;
}
// Throw tensim's message when a host call failed.
inline void check(int32_t rc) {
    if (rc != 0) throw std::runtime_error(host_api->last_error());
}
}  // namespace tensim

namespace tt {
enum class ARCH { GRAYSKULL = 1, WORMHOLE_B0 = 2, BLACKHOLE = 3, QUASAR = 4, Invalid = 0xFF };
inline std::string get_string(ARCH a) {
    switch (a) {
        case ARCH::GRAYSKULL: return "GRAYSKULL";
        case ARCH::WORMHOLE_B0: return "WORMHOLE_B0";
        case ARCH::BLACKHOLE: return "BLACKHOLE";
        default: return "Invalid";
    }
}

enum class DataFormat : uint8_t {
    Float32 = 0, Float16 = 1, Bfp8 = 2, Bfp4 = 3, Tf32 = 4, Float16_b = 5, Bfp8_b = 6, Bfp4_b = 7,
    Int32 = 8, UInt16 = 9, Lf8 = 10, Bfp2 = 11, Int8 = 14, Bfp2_b = 15, UInt32 = 24, Fp8_e4m3 = 0x1A,
    UInt8 = 30, RawUInt8 = 0xf0, RawUInt16 = 0xf1, RawUInt32 = 0xf2, Invalid = 0xff,
};

// Bytes of one 32x32 tile of `f` (block-float formats carry one exponent byte per 16 values).
inline uint32_t tile_size(DataFormat f) {
    switch (f) {
        case DataFormat::Float32: case DataFormat::Int32: case DataFormat::UInt32: case DataFormat::Tf32: return 4096;
        case DataFormat::Float16: case DataFormat::Float16_b: case DataFormat::UInt16: return 2048;
        case DataFormat::Bfp8: case DataFormat::Bfp8_b: return 1088;
        case DataFormat::Bfp4: case DataFormat::Bfp4_b: return 576;
        case DataFormat::Bfp2: case DataFormat::Bfp2_b: return 320;
        case DataFormat::UInt8: case DataFormat::Int8: case DataFormat::Lf8: case DataFormat::Fp8_e4m3: return 1024;
        default: throw std::invalid_argument(fmt::format("tile_size: data format {} has no tile size", static_cast<int>(f)));
    }
}
inline uint32_t datum_size(DataFormat f) { return tile_size(f) / 1024; }

enum CBIndex : uint8_t {
    c_0, c_1, c_2, c_3, c_4, c_5, c_6, c_7, c_8, c_9, c_10, c_11, c_12, c_13, c_14, c_15,
    c_16, c_17, c_18, c_19, c_20, c_21, c_22, c_23, c_24, c_25, c_26, c_27, c_28, c_29, c_30, c_31, SIZE,
};
namespace CB {
enum : uint8_t {
    c_in0 = 0, c_in1, c_in2, c_in3, c_in4, c_in5, c_in6, c_in7,
    dataflow0 = 8, dataflow1, dataflow2, dataflow3, dataflow4, dataflow5, dataflow6, dataflow7,
    c_out0 = 16, c_out1, c_out2, c_out3, c_out4, c_out5, c_out6, c_out7,
    c_intermed0 = 24, c_intermed1, c_intermed2, c_intermed3, c_intermed4, c_intermed5, c_intermed6, c_intermed7,
};
}  // namespace CB
constexpr uint32_t NUM_CIRCULAR_BUFFERS = 32;

namespace constants {
constexpr uint32_t TILE_HEIGHT = 32, TILE_WIDTH = 32, TILE_HW = 1024, FACE_HEIGHT = 16, FACE_WIDTH = 16,
                   FACE_HW = 256, BFLOAT8_B_TILE_HW = 1088, BFLOAT4_B_TILE_HW = 576;
}  // namespace constants

// Logging, as tt-metal's logger prints it (debug and trace only with TT_LOGGER_LEVEL=debug|trace).
enum LogType : uint8_t {
    LogAlways, LogTest, LogTimer, LogDevice, LogLLRuntime, LogLoader, LogMetal, LogMetalTrace, LogOp, LogVerif,
    LogSiliconDriver, LogAPI, LogDistributed, LogFabric, LogProfiler,
};
}  // namespace tt

namespace tensim::log {
inline const char* type_name(tt::LogType t) {
    static const char* names[] = {"Always", "Test", "Timer", "Device", "LLRuntime", "Loader", "Metal", "MetalTrace",
                                  "Op", "Verif", "SiliconDriver", "API", "Distributed", "Fabric", "Profiler"};
    return t < sizeof(names) / sizeof(names[0]) ? names[t] : "Unknown";
}
inline int threshold() {
    static int t = [] {
        const char* v = std::getenv("TT_LOGGER_LEVEL");
        std::string s = v ? v : "";
        for (auto& c : s) c = static_cast<char>(std::tolower(c));
        return s == "trace" ? 0 : s == "debug" ? 1 : s == "warning" ? 3 : s == "error" ? 4 : 2;
    }();
    return t;
}
template <typename F, typename... A>
void emit(int level, const char* name, tt::LogType type, const F& f, const A&... a) {
    if (level < threshold()) return;
    std::string m = fmt::format(f, a...);
    std::fflush(stdout);
    fmt::print(level >= 3 ? stderr : stdout, "{:>18} | {:<8} | {}\n", type_name(type), name, m);
}
}  // namespace tensim::log

#define TENSIM_LOG_FN(fn, level, label)                                                           \
    template <typename F, typename... A>                                                          \
    void fn(tt::LogType type, const F& f, const A&... a) {                                        \
        tensim::log::emit(level, label, type, f, a...);                                           \
    }                                                                                             \
    template <typename F, typename... A>                                                          \
        requires(!std::is_same_v<F, tt::LogType>)                                                 \
    void fn(const F& f, const A&... a) {                                                          \
        tensim::log::emit(level, label, tt::LogAlways, f, a...);                                  \
    }
TENSIM_LOG_FN(log_trace, 0, "TRACE")
TENSIM_LOG_FN(log_debug, 1, "DEBUG")
TENSIM_LOG_FN(log_info, 2, "INFO")
TENSIM_LOG_FN(log_warning, 3, "WARNING")
TENSIM_LOG_FN(log_error, 4, "ERROR")
TENSIM_LOG_FN(log_critical, 4, "CRITICAL")
TENSIM_LOG_FN(log_fatal, 4, "FATAL")
#undef TENSIM_LOG_FN
namespace tt {
using ::log_critical;
using ::log_debug;
using ::log_error;
using ::log_fatal;
using ::log_info;
using ::log_trace;
using ::log_warning;
}  // namespace tt

namespace tensim {
template <typename... A>
[[noreturn]] void throw_at(const char* file, int line, const std::string& what, const A&... a) {
    std::string m = fmt::format("{} @ {}:{}", what, file, line);
    if constexpr (sizeof...(A) > 0) m += "\ninfo:\n" + fmt::format(a...);
    throw std::runtime_error(m);
}
}  // namespace tensim
#define TT_THROW(...) tensim::throw_at(__FILE__, __LINE__, "TT_THROW", __VA_ARGS__)
#define TT_FATAL(cond, ...) \
    do {                                                                                         \
        if (!(cond)) tensim::throw_at(__FILE__, __LINE__, "TT_FATAL: " #cond, ##__VA_ARGS__);   \
    } while (0)
#define TT_ASSERT(cond, ...) \
    do {                                                                                         \
        if (!(cond)) tensim::throw_at(__FILE__, __LINE__, "TT_ASSERT: " #cond, ##__VA_ARGS__);  \
    } while (0)

enum class MathFidelity : uint8_t { LoFi = 0, HiFi2 = 2, HiFi3 = 3, HiFi4 = 4, Invalid = 0xff };
enum class UnpackToDestMode : uint8_t { UnpackToDestFp32, Default };

namespace tt::tt_metal {
using ::MathFidelity;
using ::UnpackToDestMode;
using chip_id_t = int;
using ChipId = int;
using DeviceAddr = uint64_t;
using KernelHandle = std::uint32_t;
using CBHandle = uintptr_t;
constexpr uint32_t max_runtime_args = 341;
constexpr std::size_t DEFAULT_L1_SMALL_SIZE = 0;
constexpr std::size_t DEFAULT_TRACE_REGION_SIZE = 0;
constexpr std::size_t DEFAULT_WORKER_L1_SIZE = 0;

enum class CoreType { WORKER, ETH, DRAM, PCIE, ARC, ROUTER_ONLY, HARVESTED, ACTIVE_ETH, IDLE_ETH, TENSIX = WORKER };
enum class DataMovementProcessor { RISCV_0 = 0, RISCV_1 = 1 };
enum NOC : uint8_t { RISCV_0_default = 0, RISCV_1_default = 1, NOC_0 = 0, NOC_1 = 1 };
enum NOC_MODE : uint8_t { DM_DEDICATED_NOC = 0, DM_DYNAMIC_NOC = 1 };
enum class KernelBuildOptLevel : uint8_t { O1, O2, O3, O0, Os, Ofast, Oz };
enum Eth : uint8_t { SENDER = 0, RECEIVER = 1, IDLE = 2 };
enum class DispatchCoreType : uint32_t { WORKER, ETH, COUNT };
enum class DispatchCoreAxis { ROW, COL, COUNT };
struct DispatchCoreConfig {
    DispatchCoreType type = DispatchCoreType::WORKER;
    DispatchCoreAxis axis = DispatchCoreAxis::ROW;
};
struct SubDeviceId {
    uint8_t id = 0;
};

struct DataMovementConfig {
    DataMovementProcessor processor = DataMovementProcessor::RISCV_0;
    NOC noc = NOC::RISCV_0_default;
    NOC_MODE noc_mode = NOC_MODE::DM_DEDICATED_NOC;
    std::vector<uint32_t> compile_args;
    std::map<std::string, std::string> defines;
    std::unordered_map<std::string, uint32_t> named_compile_args;
    KernelBuildOptLevel opt_level = KernelBuildOptLevel::O2;
};
struct ReaderDataMovementConfig : DataMovementConfig {
    ReaderDataMovementConfig(std::vector<uint32_t> compile_args = {}, std::map<std::string, std::string> defines = {},
                             std::unordered_map<std::string, uint32_t> named_compile_args = {},
                             KernelBuildOptLevel opt_level = KernelBuildOptLevel::O2)
        : DataMovementConfig{DataMovementProcessor::RISCV_1, NOC::NOC_0,
                             NOC_MODE::DM_DEDICATED_NOC, std::move(compile_args), std::move(defines),
                             std::move(named_compile_args), opt_level} {}
};
struct WriterDataMovementConfig : DataMovementConfig {
    WriterDataMovementConfig(std::vector<uint32_t> compile_args = {}, std::map<std::string, std::string> defines = {},
                             std::unordered_map<std::string, uint32_t> named_compile_args = {},
                             KernelBuildOptLevel opt_level = KernelBuildOptLevel::O2)
        : DataMovementConfig{DataMovementProcessor::RISCV_0, NOC::NOC_1, NOC_MODE::DM_DEDICATED_NOC,
                             std::move(compile_args), std::move(defines), std::move(named_compile_args), opt_level} {}
};
struct ComputeConfig {
    MathFidelity math_fidelity = MathFidelity::HiFi4;
    bool fp32_dest_acc_en = false;
    bool dst_full_sync_en = false;
    std::vector<UnpackToDestMode> unpack_to_dest_mode;
    bool bfp8_pack_precise = false;
    bool math_approx_mode = false;
    std::vector<uint32_t> compile_args;
    std::map<std::string, std::string> defines;
    std::unordered_map<std::string, uint32_t> named_compile_args;
    KernelBuildOptLevel opt_level = KernelBuildOptLevel::O3;
};
struct EthernetConfig {
    Eth eth_mode = Eth::SENDER;
    NOC noc = NOC::NOC_0;
    DataMovementProcessor processor = DataMovementProcessor::RISCV_0;
    std::vector<uint32_t> compile_args;
    std::map<std::string, std::string> defines;
    std::unordered_map<std::string, uint32_t> named_compile_args;
    KernelBuildOptLevel opt_level = KernelBuildOptLevel::Os;
};
}  // namespace tt::tt_metal
