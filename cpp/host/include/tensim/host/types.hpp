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

#include "hostdevcommon/common_values.hpp"
#include "hostdevcommon/kernel_structs.h"
#include "tensim/fmt.hpp"
#include "tensim/host_abi.h"
#include "tt-logger/tt-logger.hpp"
#include "tt-metalium/constants.hpp"
#include "tt_stl/assert.hpp"

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

constexpr uint32_t NUM_CIRCULAR_BUFFERS = 32;

}  // namespace tt

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
using ::DEFAULT_L1_SMALL_SIZE;
using ::DEFAULT_TRACE_REGION_SIZE;
using ::DEFAULT_WORKER_L1_SIZE;

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
