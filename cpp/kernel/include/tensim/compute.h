// The compute kernel API (tt-metal's compute_kernel_api/*.h), written for tensim. A compute kernel is
// built three times, with TRISC_UNPACK, TRISC_MATH and TRISC_PACK; each build's calls forward to the
// Rust API, which does that TRISC's part of every call (as the Rust compute kernels do).
#pragma once
#include "tensim/common.h"
#include "tensim/compute_ops.h"
#include "tensim/dprint.h"
#include "tensim/sfpi.h"

#ifdef TRISC_MATH
#define MATH(x) x
#define MAIN math_main()
#else
#define MATH(x)
#endif
#ifdef TRISC_PACK
#define PACK(x) x
#define MAIN pack_main()
#else
#define PACK(x)
#endif
#ifdef TRISC_UNPACK
#define UNPACK(x) x
#define MAIN unpack_main()
#else
#define UNPACK(x)
#endif

#ifndef TENSIM_MATH_FIDELITY
#define TENSIM_MATH_FIDELITY 4
#endif
#ifndef TENSIM_APPROX
#define TENSIM_APPROX 0
#endif
#ifndef TENSIM_DST_ACCUM_MODE
#define TENSIM_DST_ACCUM_MODE 0
#endif
constexpr std::int32_t MATH_FIDELITY = TENSIM_MATH_FIDELITY;
constexpr bool APPROX = TENSIM_APPROX;
constexpr bool DST_ACCUM_MODE = TENSIM_DST_ACCUM_MODE;

namespace ckernel {
enum BroadcastType { NONE = 0, COL, ROW, SCALAR };
enum EltwiseBinaryType { ELWMUL = 0, ELWDIV, ELWADD, ELWSUB, ELWMAX };
enum PoolType { SUM = 0, AVG, MAX, MIN };
enum ReduceDim { REDUCE_ROW = 0, REDUCE_COL, REDUCE_SCALAR };
enum class VectorMode { None = 0, R, C, RC, RC_custom };
enum class DstSync { SyncHalf = 0, SyncFull };
#ifndef TENSIM_DST_SYNC_FULL
#define TENSIM_DST_SYNC_FULL 0
#endif
// How DST is shared between MATH and PACK (ComputeConfig::dst_full_sync_en).
constexpr DstSync DST_SYNC_MODE = TENSIM_DST_SYNC_FULL ? DstSync::SyncFull : DstSync::SyncHalf;

using tensim::compute;
// Hardware start-up and init.
ALWI void compute_kernel_hw_startup(uint32_t icb0, uint32_t icb1, uint32_t ocb) {
    compute(tensim::OP_HW_STARTUP, icb0, icb1, ocb);
}
ALWI void compute_kernel_hw_startup(uint32_t icb0, uint32_t ocb) { compute(tensim::OP_HW_STARTUP, icb0, icb0, ocb); }
ALWI void binary_op_init_common(uint32_t icb0, uint32_t icb1, uint32_t ocb, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_BINARY_OP_INIT_COMMON, icb0, icb1, ocb);
}
ALWI void unary_op_init_common(uint32_t icb, uint32_t ocb, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_UNARY_OP_INIT_COMMON, icb, ocb);
}
ALWI void init_sfpu(uint32_t icb, uint32_t ocb, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_UNARY_OP_INIT_COMMON, icb, ocb);
}

// DST ownership.
ALWI void tile_regs_acquire() { compute(tensim::OP_TILE_REGS, 0); }
ALWI void tile_regs_commit() { compute(tensim::OP_TILE_REGS, 1); }
ALWI void tile_regs_wait() { compute(tensim::OP_TILE_REGS, 2); }
ALWI void tile_regs_release() { compute(tensim::OP_TILE_REGS, 3); }
ALWI void acquire_dst() { compute(tensim::OP_TILE_REGS, 4); }
ALWI void release_dst() { compute(tensim::OP_TILE_REGS, 5); }
// The older spellings with a DST mode (the sync mode is the kernel's configuration either way).
ALWI void acquire_dst(tt::DstMode) { acquire_dst(); }
ALWI void release_dst(tt::DstMode) { release_dst(); }

// Element-wise binary operations on the FPU.
ALWI void add_tiles_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_BINARY_INIT, 0, icb0, icb1, acc_to_dest);
}
ALWI void sub_tiles_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_BINARY_INIT, 1, icb0, icb1, acc_to_dest);
}
ALWI void mul_tiles_init(uint32_t icb0, uint32_t icb1, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_BINARY_INIT, 2, icb0, icb1, 0);
}
// (As upstream, a three-argument call is ambiguous between the two forms.)
ALWI void mul_tiles_init(uint32_t icb0, uint32_t icb1, uint32_t, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_BINARY_INIT, 2, icb0, icb1, 0);
}
ALWI void add_tiles(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
    compute(tensim::OP_BINARY_TILES, 0, icb0, icb1, itile0, itile1, idst);
}
ALWI void sub_tiles(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
    compute(tensim::OP_BINARY_TILES, 1, icb0, icb1, itile0, itile1, idst);
}
ALWI void mul_tiles(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
    compute(tensim::OP_BINARY_TILES, 2, icb0, icb1, itile0, itile1, idst);
}

// Copies into DST.
ALWI void copy_tile_to_dst_init_short(uint32_t cbid, uint32_t transpose = 0, uint32_t = 0,
                                      uint32_t = __builtin_LINE()) {
    compute(tensim::OP_COPY_INIT, cbid, transpose);
}
ALWI void copy_tile_init(uint32_t cbid, uint32_t = __builtin_LINE()) { compute(tensim::OP_COPY_INIT, cbid, 0); }
ALWI void copy_init(uint32_t cbid, uint32_t transpose = 0, uint32_t = 0, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_COPY_INIT, cbid, transpose);
}
ALWI void copy_tile(uint32_t in_cb_id, uint32_t in_tile_index, uint32_t dst_tile_index) {
    compute(tensim::OP_COPY_TILE, in_cb_id, in_tile_index, dst_tile_index);
}

// Packing.
template <bool out_of_order_output = false>
ALWI void pack_tile(uint32_t ifrom_dst, uint32_t icb, std::uint32_t output_tile_index = 0) {
    compute(tensim::OP_PACK_TILE, ifrom_dst, icb, out_of_order_output, output_tile_index);
}
ALWI void pack_tile_block(uint32_t ifrom_dst, uint32_t icb, uint32_t ntiles) {
    compute(tensim::OP_PACK_TILE_BLOCK, ifrom_dst, icb, ntiles);
}
ALWI void pack_reconfig_data_format(uint32_t new_ocb) { compute(tensim::OP_PACK_RECONFIG, new_ocb); }
ALWI void pack_reconfig_data_format(uint32_t, uint32_t new_ocb) { compute(tensim::OP_PACK_RECONFIG, new_ocb); }
template <bool to_from_int8 = false>
ALWI void reconfig_data_format(uint32_t srca_new, uint32_t srcb_new) {
    compute(tensim::OP_RECONFIG_DATA_FORMAT, srca_new, srcb_new);
}
template <bool to_from_int8 = false>
ALWI void reconfig_data_format(uint32_t, uint32_t srca_new, uint32_t, uint32_t srcb_new) {
    compute(tensim::OP_RECONFIG_DATA_FORMAT, srca_new, srcb_new);
}

// Matmul.
ALWI void mm_init(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t out_cb_id, const uint32_t transpose = 0,
                  uint32_t = __builtin_LINE()) {
    compute(tensim::OP_MM_INIT, in0_cb_id, in1_cb_id, out_cb_id, transpose);
}
ALWI void mm_init_short(uint32_t in0_cb_id, uint32_t in1_cb_id, const uint32_t transpose = 0,
                        uint32_t = __builtin_LINE()) {
    compute(tensim::OP_MM_INIT_SHORT, in0_cb_id, in1_cb_id, transpose);
}
ALWI void matmul_tiles(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                       uint32_t idst) {
    compute(tensim::OP_MATMUL_TILES, in0_cb_id, in1_cb_id, in0_tile_index, in1_tile_index, idst);
}
ALWI void matmul_tiles(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                       uint32_t idst, const uint32_t) {
    compute(tensim::OP_MATMUL_TILES, in0_cb_id, in1_cb_id, in0_tile_index, in1_tile_index, idst);
}

// SFPU unary operations, in place on DST[idst]. Each init and each operation takes the template arguments
// today's headers give it (approximation flags, exp's scale and clamping, sigmoid's vector mode); the
// approximate mode tensim computes is the kernel's math_approx_mode. Vector modes other than RC are not
// modelled for these built-in operations (an error says so); custom SFPI functions have them.
enum class InputClamping : uint8_t { ClampToNegative = 1, None = 0 };
namespace p_sfpu {
constexpr uint16_t kCONST_1_FP16B = 0x3F80;
}
namespace tensim_detail {
ALWI void sfpu_init(uint32_t code) { compute(tensim::OP_SFPU_INIT, code); }
ALWI void sfpu(uint32_t code, uint32_t idst, uint32_t p0 = 0, uint32_t p1 = 0, uint32_t p2 = 0) {
    compute(tensim::OP_SFPU, code, idst, p0, p1, p2);
}
// An operation whose template argument says whether to approximate (bit 30: given; bit 31: its value).
template <bool approx>
ALWI void sfpu_approx(uint32_t code, uint32_t idst, uint32_t p0 = 0) {
    compute(tensim::OP_SFPU, code | (1u << 30) | (approx ? 1u << 31 : 0u), idst, p0, 0, 0);
}
ALWI void rc_only(const char* api, int vector_mode) {
    if (vector_mode != static_cast<int>(VectorMode::RC)) {
        tensim::fail("not modelled: a built-in SFPU operation in a vector mode other than RC (write it as a custom "
                     "SFPI function to use R, C or None)");
    }
    (void)api;
}
}  // namespace tensim_detail
#define TENSIM_SFPU(name, code)                                                                        \
    template <bool approx = APPROX>                                                                    \
    ALWI void name##_tile_init() { tensim_detail::sfpu_init(code); }                                   \
    template <bool approx = APPROX>                                                                    \
    ALWI void name##_tile(uint32_t idst) { tensim_detail::sfpu_approx<approx>(code, idst); }
TENSIM_SFPU(rsqrt, tensim::SFPU_RSQRT)
TENSIM_SFPU(relu, tensim::SFPU_RELU)
TENSIM_SFPU(abs, tensim::SFPU_ABS)
TENSIM_SFPU(square, tensim::SFPU_SQUARE)
TENSIM_SFPU(silu, tensim::SFPU_SILU)
TENSIM_SFPU(sign, tensim::SFPU_SIGN)
TENSIM_SFPU(signbit, tensim::SFPU_SIGNBIT)
TENSIM_SFPU(exp2, tensim::SFPU_EXP2)
#undef TENSIM_SFPU
// expm1's flag defaults to exact, whatever the kernel's mode.
template <bool approx = false>
ALWI void expm1_tile_init() {
    tensim_detail::sfpu_init(tensim::SFPU_EXPM1);
}
template <bool approx = false>
ALWI void expm1_tile(uint32_t idst) {
    tensim_detail::sfpu_approx<approx>(tensim::SFPU_EXPM1, idst);
}
// exp.h: exp_tile<approx, scale_en, clamping, iterations>(idst, vector_mode, scale): e^(scale·x) with scale_en.
template <bool approx = APPROX, uint32_t scale = 0x3F800000, InputClamping input_clamping = InputClamping::ClampToNegative>
ALWI void exp_tile_init() {
    tensim_detail::sfpu_init(tensim::SFPU_EXP);
}
template <bool approx = APPROX, bool scale_en = false, InputClamping input_clamping = InputClamping::ClampToNegative,
          int iterations = 8>
ALWI void exp_tile(uint32_t idst, VectorMode vector_mode = VectorMode::RC, uint16_t scale = p_sfpu::kCONST_1_FP16B) {
    tensim_detail::rc_only("exp_tile", static_cast<int>(vector_mode));
    if constexpr (scale_en) {
        tensim_detail::sfpu_approx<approx>(tensim::SFPU_EXP_SCALED, idst, scale);
    } else {
        tensim_detail::sfpu_approx<approx>(tensim::SFPU_EXP, idst);
    }
}
// recip.h
template <bool legacy_compat = false>
ALWI void recip_tile_init() {
    tensim_detail::sfpu_init(tensim::SFPU_RECIP);
}
ALWI void recip_tile(uint32_t idst, int vector_mode = static_cast<int>(VectorMode::RC)) {
    tensim_detail::rc_only("recip_tile", vector_mode);
    tensim_detail::sfpu(tensim::SFPU_RECIP, idst);
}
// sqrt.h
template <bool approx = APPROX>
ALWI void sqrt_tile_init() {
    tensim_detail::sfpu_init(tensim::SFPU_SQRT);
}
template <bool fast_approx = false>
ALWI void sqrt_tile(uint32_t idst) {
    tensim_detail::sfpu_approx<fast_approx>(tensim::SFPU_SQRT, idst);
}
// compute_kernel_api.h: sigmoid (vector mode first), log, tanh; gelu.h.
template <bool fast_and_approx = false>
ALWI void sigmoid_tile_init() {
    tensim_detail::sfpu_init(tensim::SFPU_SIGMOID);
}
template <VectorMode vec_mode = VectorMode::RC, bool fast_and_approx = false>
ALWI void sigmoid_tile(uint32_t idst) {
    static_assert(vec_mode == VectorMode::RC,
                  "tensim: not modelled: a built-in SFPU operation in a vector mode other than RC");
    tensim_detail::sfpu_approx<fast_and_approx>(tensim::SFPU_SIGMOID, idst);
}
// The older spelling, approximation flag first.
template <bool fast_and_approx>
ALWI void sigmoid_tile(uint32_t idst) {
    tensim_detail::sfpu_approx<fast_and_approx>(tensim::SFPU_SIGMOID, idst);
}
#define TENSIM_SFPU_APPROX(name, code, dflt)                                                           \
    template <bool fast_and_approx = dflt>                                                             \
    ALWI void name##_tile_init() { tensim_detail::sfpu_init(code); }                                   \
    template <bool fast_and_approx = dflt>                                                             \
    ALWI void name##_tile(uint32_t idst) { tensim_detail::sfpu_approx<fast_and_approx>(code, idst); }
TENSIM_SFPU_APPROX(log, tensim::SFPU_LOG, false)
TENSIM_SFPU_APPROX(tanh, tensim::SFPU_TANH, false)
TENSIM_SFPU_APPROX(gelu, tensim::SFPU_GELU, true)
#undef TENSIM_SFPU_APPROX
// Operations with one parameter (its bits: a float's unless said otherwise).
#define TENSIM_SFPU_PARAM(name, code)                                                                  \
    ALWI void name##_tile_init() { tensim_detail::sfpu_init(code); }                                   \
    ALWI void name##_tile(uint32_t idst, uint32_t param0) { tensim_detail::sfpu(code, idst, param0); }
TENSIM_SFPU_PARAM(relu_min, tensim::SFPU_RELU_MIN)    // max(x, param0)
TENSIM_SFPU_PARAM(relu_max, tensim::SFPU_RELU_MAX)    // max(min(x, param0), 0)
TENSIM_SFPU_PARAM(heaviside, tensim::SFPU_HEAVISIDE)  // 0 below 0, param0 at 0, 1 above
TENSIM_SFPU_PARAM(unary_max, tensim::SFPU_UNARY_MAX)  // max(x, param0)
TENSIM_SFPU_PARAM(unary_min, tensim::SFPU_UNARY_MIN)  // min(x, param0)
#undef TENSIM_SFPU_PARAM
ALWI void leaky_relu_tile_init() { tensim_detail::sfpu_init(tensim::SFPU_LEAKY_RELU); }
ALWI void leaky_relu_tile(uint32_t idst, uint32_t slope = 0) { tensim_detail::sfpu(tensim::SFPU_LEAKY_RELU, idst, slope); }
// binop_with_scalar.h: x op scalar (the scalar's float bits), one init for all five.
ALWI void binop_with_scalar_tile_init() { tensim_detail::sfpu_init(tensim::SFPU_ADD_SCALAR); }
ALWI void add_unary_tile(uint32_t idst, uint32_t param1) { tensim_detail::sfpu(tensim::SFPU_ADD_SCALAR, idst, param1); }
ALWI void sub_unary_tile(uint32_t idst, uint32_t param1) { tensim_detail::sfpu(tensim::SFPU_SUB_SCALAR, idst, param1); }
ALWI void mul_unary_tile(uint32_t idst, uint32_t param1) { tensim_detail::sfpu(tensim::SFPU_MUL_SCALAR, idst, param1); }
ALWI void div_unary_tile(uint32_t idst, uint32_t param1) { tensim_detail::sfpu(tensim::SFPU_DIV_SCALAR, idst, param1); }
ALWI void rsub_unary_tile(uint32_t idst, uint32_t param1) { tensim_detail::sfpu(tensim::SFPU_RSUB_SCALAR, idst, param1); }
ALWI void power_tile_init() { compute(tensim::OP_SFPU_INIT, tensim::SFPU_POWER); }
ALWI void power_tile(uint32_t idst, uint32_t param0) { compute(tensim::OP_SFPU, tensim::SFPU_POWER, idst, param0); }
// fill.h: every element of a DST tile set to one value (a float, its bits, or an integer).
ALWI void fill_tile_init() { compute(tensim::OP_SFPU_INIT, tensim::SFPU_FILL); }
ALWI void fill_tile_bitcast(uint32_t idst, uint32_t param0) { compute(tensim::OP_SFPU, tensim::SFPU_FILL, idst, param0); }
ALWI void fill_tile(uint32_t idst, float param0) { fill_tile_bitcast(idst, __builtin_bit_cast(uint32_t, param0)); }
ALWI void fill_tile_int(uint32_t idst, uint32_t param0) { fill_tile(idst, static_cast<float>(param0)); }
// negative.h
ALWI void negative_tile_init() { compute(tensim::OP_SFPU_INIT, tensim::SFPU_NEGATIVE); }
ALWI void negative_tile(uint32_t idst) { compute(tensim::OP_SFPU, tensim::SFPU_NEGATIVE, idst); }
// softplus.h: beta, 1/beta and the threshold as the bits of floats.
ALWI void softplus_tile_init() { compute(tensim::OP_SFPU_INIT, tensim::SFPU_SOFTPLUS); }
ALWI void softplus_tile(uint32_t idst, uint32_t beta, uint32_t beta_reciprocal, uint32_t threshold) {
    compute(tensim::OP_SFPU, tensim::SFPU_SOFTPLUS, idst, beta, beta_reciprocal, threshold);
}
// SFPU binary operations between two DST tiles (both operands in DST): eltwise_binary_sfpu.h and
// binary_max_min.h. Comparisons give 1.0 or 0.0.
#define TENSIM_SFPU_BINARY(name, code)                                                               \
    ALWI void name##_init() { compute(tensim::OP_SFPU_BINARY_INIT, code); }                          \
    ALWI void name(uint32_t idst0, uint32_t idst1, uint32_t odst) {                                  \
        compute(tensim::OP_SFPU_BINARY, code, idst0, idst1, odst);                                   \
    }
TENSIM_SFPU_BINARY(add_binary_tile, tensim::SFPU_BIN_ADD)
TENSIM_SFPU_BINARY(sub_binary_tile, tensim::SFPU_BIN_SUB)
TENSIM_SFPU_BINARY(mul_binary_tile, tensim::SFPU_BIN_MUL)
TENSIM_SFPU_BINARY(div_binary_tile, tensim::SFPU_BIN_DIV)
TENSIM_SFPU_BINARY(rsub_binary_tile, tensim::SFPU_BIN_RSUB)
TENSIM_SFPU_BINARY(power_binary_tile, tensim::SFPU_BIN_POW)
TENSIM_SFPU_BINARY(binary_max_tile, tensim::SFPU_BIN_MAX)
TENSIM_SFPU_BINARY(binary_min_tile, tensim::SFPU_BIN_MIN)
TENSIM_SFPU_BINARY(eq_binary_tile, tensim::SFPU_BIN_EQ)
TENSIM_SFPU_BINARY(ne_binary_tile, tensim::SFPU_BIN_NE)
TENSIM_SFPU_BINARY(lt_binary_tile, tensim::SFPU_BIN_LT)
TENSIM_SFPU_BINARY(gt_binary_tile, tensim::SFPU_BIN_GT)
TENSIM_SFPU_BINARY(le_binary_tile, tensim::SFPU_BIN_LE)
TENSIM_SFPU_BINARY(ge_binary_tile, tensim::SFPU_BIN_GE)
TENSIM_SFPU_BINARY(div_no_nan_binary_tile, tensim::SFPU_BIN_DIV_NO_NAN)
#undef TENSIM_SFPU_BINARY

// Low-level calls custom kernels make directly: a tile from each of two CBs into SrcA and SrcB, and
// MATH's datacopy of either source register into DST.
enum DataCopyType { A2D = 0, B2D = 1 };
constexpr bool UnpackToDestEn = true;
template <BroadcastType BType = BroadcastType::NONE>
ALWI void llk_unpack_AB_init(uint32_t icb0, uint32_t icb1, uint32_t = 0, uint32_t = 0) {
    compute(tensim::OP_LLK_UNPACK_AB_INIT, icb0, icb1);
}
template <BroadcastType BType = BroadcastType::NONE>
ALWI void llk_unpack_AB(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, bool = false) {
    compute(tensim::OP_LLK_UNPACK_AB, icb0, icb1, itile0, itile1);
}
template <DataCopyType type, BroadcastType src_b_bcast = BroadcastType::NONE, bool fp32_dest = false,
          bool unpack_to_dest = false>
ALWI void llk_math_eltwise_unary_datacopy_init(bool = false, bool = false, uint32_t operand = 0) {
    compute(tensim::OP_LLK_DATACOPY_INIT, (uint32_t)type, operand);
}
template <DataCopyType type, BroadcastType src_b_bcast = BroadcastType::NONE, bool fp32_dest = false,
          bool unpack_to_dest = false>
ALWI void llk_math_eltwise_unary_datacopy(uint32_t dst_index, uint32_t = 0) {
    compute(tensim::OP_LLK_DATACOPY, (uint32_t)type, dst_index);
}
}  // namespace ckernel
using namespace ckernel;
#include "tensim/compute_fpu.h"
#include "tensim/compute_current.h"
#include "tensim/sfpu_macros.h"
