// tensim: TT-Metalium's host/device shared kernel structures (hostdevcommon/kernel_structs.h), written for
// tensim from the documented interface: unscoped enums in namespace tt, so `tt::CBIndex::c_0` converts to
// an integer on both sides.
#pragma once
#include <cstdint>

namespace tt {
enum CBIndex : std::uint8_t {
    c_0, c_1, c_2, c_3, c_4, c_5, c_6, c_7, c_8, c_9, c_10, c_11, c_12, c_13, c_14, c_15,
    c_16, c_17, c_18, c_19, c_20, c_21, c_22, c_23, c_24, c_25, c_26, c_27, c_28, c_29, c_30, c_31,
    c_32, c_33, c_34, c_35, c_36, c_37, c_38, c_39, c_40, c_41, c_42, c_43, c_44, c_45, c_46, c_47,
    c_48, c_49, c_50, c_51, c_52, c_53, c_54, c_55, c_56, c_57, c_58, c_59, c_60, c_61, c_62, c_63,
    SIZE,
};
// The older names of the CB indices (deprecated upstream, still in examples).
enum CB : std::uint8_t {
    c_in0 = 0, c_in1, c_in2, c_in3, c_in4, c_in5, c_in6, c_in7,
    dataflow0 = 8, dataflow1, dataflow2, dataflow3, dataflow4, dataflow5, dataflow6, dataflow7,
    c_out0 = 16, c_out1, c_out2, c_out3, c_out4, c_out5, c_out6, c_out7,
    c_intermed0 = 24, c_intermed1, c_intermed2, c_intermed3, c_intermed4, c_intermed5, c_intermed6, c_intermed7,
};
enum DstMode : std::uint8_t { Full = 0, Half = 1, Tile = 2, NUM_DST_MODES = 3 };
enum HlkOperand : std::uint8_t {
    in0, in1, in2, in3, in4, in5, in6, in7,
    param0, param1, param2, param3, param4, param5, param6, param7,
    out0, out1, out2, out3, out4, out5, out6, out7,
    intermed0, intermed1, intermed2, intermed3, intermed4, intermed5, intermed6, intermed7,
};
constexpr std::uint32_t NUM_MAX_IN_BUFFERS_PER_CORE = 8;
constexpr std::uint32_t NUM_MAX_PARAM_BUFFERS_PER_CORE = 8;
constexpr std::uint32_t NUM_MAX_OUT_BUFFERS_PER_CORE = 8;
constexpr std::uint32_t NUM_MAX_INTERMED_BUFFERS_PER_CORE = 8;
}  // namespace tt
