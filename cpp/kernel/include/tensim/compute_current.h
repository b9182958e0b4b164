// Today's (2026) spellings of the compute API, written for tensim from the documented interface:
// compute_kernel_hw_startup once, then one short init per operation (add_init, matmul_init, bcast_init, …),
// the block forms, and the run-time DST precision switch. Each forwards to the same Rust calls as the
// older names of tensim/compute.h and tensim/compute_fpu.h, which keep working beside them (without the
// upstream [[deprecated]] marks, so kernels built with -Werror still compile).
#pragma once
#include "tensim/compute_fpu.h"

namespace ckernel {
enum class SrcOrder : uint8_t { Regular = 0, Reverse = 1 };

// One-time configuration; SrcOrder::Reverse (in0 into SrcB, as matmuls need) changes nothing functional.
template <SrcOrder src_order>
ALWI void compute_kernel_hw_startup(uint32_t icb0, uint32_t icb1, uint32_t ocb) {
    compute(tensim::OP_HW_STARTUP, icb0, icb1, ocb);
}
template <SrcOrder src_order>
ALWI void compute_kernel_hw_startup(uint32_t icb0, uint32_t ocb) {
    compute(tensim::OP_HW_STARTUP, icb0, icb0, ocb);
}
// DST in 32 bits from here on, or back in 16.
ALWI void enable_fp32_dest_acc() { compute(tensim::OP_FP32_DEST_ACC, 1); }
ALWI void disable_fp32_dest_acc() { compute(tensim::OP_FP32_DEST_ACC, 0); }

// Element-wise binaries.
template <bool full_init, EltwiseBinaryType eltwise_binary_type>
ALWI void binary_tiles_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false, uint32_t = __builtin_LINE()) {
    constexpr uint32_t kind = tensim_detail::binary_kind(eltwise_binary_type);
    static_assert(kind < 3, "binary_tiles_init: tensim models ELWADD, ELWSUB and ELWMUL");
    compute(tensim::OP_BINARY_INIT, kind, icb0, icb1, kind == 2 ? 0 : acc_to_dest);
}
ALWI void add_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_BINARY_INIT, 0, icb0, icb1, acc_to_dest);
}
ALWI void sub_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_BINARY_INIT, 1, icb0, icb1, acc_to_dest);
}
// acc_to_dest has no effect on a multiply on Wormhole and Blackhole (its default is for Quasar).
ALWI void mul_init(uint32_t icb0, uint32_t icb1, bool = true, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_BINARY_INIT, 2, icb0, icb1, 0);
}
#define TENSIM_BLOCK(op)                                                                                       \
    ALWI void op##_block(uint32_t icb0, uint32_t icb1, uint32_t start_itile0, uint32_t start_itile1,          \
                         uint32_t start_idst, uint32_t ntiles) {                                              \
        for (uint32_t i = 0; i < ntiles; i++) op##_tiles(icb0, icb1, start_itile0 + i, start_itile1 + i, start_idst + i); \
    }
TENSIM_BLOCK(add)
TENSIM_BLOCK(sub)
TENSIM_BLOCK(mul)
#undef TENSIM_BLOCK
#define TENSIM_REUSE(op, type)                                                                                 \
    template <EltwiseBinaryReuseDestType reuse_dest>                                                           \
    ALWI void op##_reuse_dest_init(uint32_t icb, uint32_t = __builtin_LINE()) {                                \
        static_assert(reuse_dest != EltwiseBinaryReuseDestType::NONE, #op "_reuse_dest_init: choose a reuse"); \
        binary_dest_reuse_tiles_init<type, reuse_dest>(icb);                                                  \
    }                                                                                                          \
    template <EltwiseBinaryReuseDestType reuse_dest>                                                           \
    ALWI void op##_reuse_dest_tiles(uint32_t in_cb_id, uint32_t in_tile_index, uint32_t dst_tile_index) {      \
        binary_dest_reuse_tiles<type, reuse_dest>(in_cb_id, in_tile_index, dst_tile_index);                  \
    }
TENSIM_REUSE(add, ELWADD)
TENSIM_REUSE(sub, ELWSUB)
TENSIM_REUSE(mul, ELWMUL)
#undef TENSIM_REUSE

// Matmuls: DST[idst] += A × B (B transposed when `transpose`).
ALWI void matmul_init(uint32_t in0_cb_id, uint32_t in1_cb_id, const uint32_t transpose = 0,
                      uint32_t = __builtin_LINE()) {
    compute(tensim::OP_MM_INIT_SHORT, in0_cb_id, in1_cb_id, transpose);
}
ALWI void matmul_tile(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                      uint32_t dest_tile_index, const uint32_t = 0) {
    compute(tensim::OP_MATMUL_TILES, in0_cb_id, in1_cb_id, in0_tile_index, in1_tile_index, dest_tile_index);
}
ALWI void matmul_init_reconfig_data_format(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t old_srca_cb,
                                           const uint32_t transpose = 0) {
    mm_init_short_with_dt(in0_cb_id, in1_cb_id, old_srca_cb, transpose);
}
ALWI void matmul_block_init(uint32_t in0_cb_id, uint32_t in1_cb_id, const uint32_t transpose = 0, uint32_t ct_dim = 1,
                            uint32_t rt_dim = 1, uint32_t kt_dim = 1, uint32_t = __builtin_LINE()) {
    mm_block_init_short(in0_cb_id, in1_cb_id, transpose, ct_dim, rt_dim, kt_dim);
}
ALWI void matmul_block_init_reconfig_data_format(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t old_in1_cb_id,
                                                 const uint32_t transpose = 0, uint32_t ct_dim = 1, uint32_t rt_dim = 1,
                                                 uint32_t kt_dim = 1) {
    mm_block_init_short_with_dt(in0_cb_id, in1_cb_id, old_in1_cb_id, transpose, ct_dim, rt_dim, kt_dim);
}
#ifdef ARCH_BLACKHOLE
// Blackhole's throttled block matmul: the same arithmetic (the throttle's power management is not modelled).
ALWI void matmul_block_math_dynamic_throttle(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t idst,
                                             const uint32_t transpose, uint32_t ct_dim, uint32_t rt_dim) {
    matmul_block(in0_cb_id, in1_cb_id, 0, 0, idst, transpose, ct_dim, rt_dim, 1);
}
#endif
#ifndef MM_THROTTLE
#define MM_THROTTLE 0
#endif

// Broadcast inits of today (no _short) and the generic forms.
template <EltwiseBinaryType tBcastOp, BroadcastType tBcastDim>
ALWI void bcast_init(uint32_t icb0, uint32_t icb1, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_BCAST_INIT, tensim_detail::binary_kind(tBcastOp), tBcastDim, icb0, icb1, 0, 0);
}
template <EltwiseBinaryType tBcastOp, BroadcastType tBcastDim, bool fp32 = DST_ACCUM_MODE>
ALWI void any_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0) {
    compute(tensim::OP_BCAST_TILES,
            tensim_detail::binary_kind(tBcastOp) | (uint32_t(tBcastDim) << 8) | (tensim_detail::row16(bcast_row_idx) << 16),
            icb0, icb1, itile0, itile1, idst);
}
#define TENSIM_BCAST_INIT(op, dim, bt)                                                                         \
    ALWI void op##_bcast_##dim##_init(uint32_t icb0, uint32_t icb1, uint32_t = __builtin_LINE()) {             \
        op##_bcast_##dim##_init_short(icb0, icb1);                                                            \
    }
TENSIM_BCAST_INIT(add, rows, ROW)
TENSIM_BCAST_INIT(add, cols, COL)
TENSIM_BCAST_INIT(add, scalar, SCALAR)
TENSIM_BCAST_INIT(sub, rows, ROW)
TENSIM_BCAST_INIT(sub, cols, COL)
TENSIM_BCAST_INIT(sub, scalar, SCALAR)
TENSIM_BCAST_INIT(mul, rows, ROW)
TENSIM_BCAST_INIT(mul, cols, COL)
TENSIM_BCAST_INIT(mul, scalar, SCALAR)
#undef TENSIM_BCAST_INIT

// A CB tile into DST with a broadcast (NONE: a plain copy); its init is the copy's.
template <BroadcastType bcast_type, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void unary_bcast_init(uint32_t icb) {
    compute(tensim::OP_COPY_INIT, icb, 0);
}
template <BroadcastType bcast_type>
ALWI void unary_bcast_init(uint32_t icb, uint32_t ocb, uint32_t = __builtin_LINE()) {
    compute(tensim::OP_UNARY_OP_INIT_COMMON, icb, ocb);
    compute(tensim::OP_COPY_INIT, icb, 0);
}
template <BroadcastType bcast_type, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void unary_bcast(uint32_t icb, uint32_t in_tile_index, uint32_t dst_tile_index) {
    compute(tensim::OP_UNARY_BCAST, bcast_type, icb, in_tile_index, dst_tile_index);
}
template <BroadcastType bcast_type>
ALWI void unary_bcast_uninit(uint32_t) {}
template <BroadcastType old_bcast_type, BroadcastType new_bcast_type, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
void reconfigure_unary_bcast(uint32_t, uint32_t new_icb, uint32_t, uint32_t new_ocb) {
    pack_reconfig_data_format(new_ocb);
    compute(tensim::OP_COPY_INIT, new_icb, 0);
}
}  // namespace ckernel
