// tensim: the TensorAccessor configuration bits shared by host and kernels
// (hostdevcommon/tensor_accessor/arg_config.hpp), written for tensim from the documented interface.
#pragma once
#include <cstdint>

#include "hostdevcommon/flags.hpp"

namespace tensor_accessor {
enum class ArgConfig : std::uint8_t {
    None = 0,
    Sharded = 1,
    IsDram = 2,
    RuntimeRank = 4,
    RuntimeNumBanks = 8,
    RuntimeTensorShape = 16,
    RuntimeShardShape = 32,
    RuntimeBankCoords = 64,
    Bound = 128,
    Runtime = RuntimeRank | RuntimeNumBanks | RuntimeTensorShape | RuntimeShardShape | RuntimeBankCoords,
};
using ArgsConfig = Flags<ArgConfig>;
constexpr ArgsConfig operator|(ArgConfig a, ArgConfig b) noexcept { return ArgsConfig(a, b); }
constexpr ArgsConfig operator|(ArgConfig a, ArgsConfig b) noexcept { return b | a; }
}  // namespace tensor_accessor
