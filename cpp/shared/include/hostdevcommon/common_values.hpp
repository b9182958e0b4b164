// tensim: TT-Metalium's shared default values (hostdevcommon/common_values.hpp): 0 means "the default".
#pragma once
#include <cstddef>
#include <cstdint>

constexpr static std::size_t DEFAULT_L1_SMALL_SIZE = 0;
constexpr static std::size_t DEFAULT_TRACE_REGION_SIZE = 0;
constexpr static std::size_t DEFAULT_WORKER_L1_SIZE = 0;
