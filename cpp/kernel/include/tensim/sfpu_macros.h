// The SFPU call macros of tt-metal's llk_math_eltwise_{unary,binary,ternary}_sfpu_macros.h, written for
// tensim from their documented expansion: a DST-index check (nothing to check in tensim: the Rust side
// bounds DST) then the face-walking params function on `::ckernel::sfpu::FN` (custom face functions must be
// declared in namespace ckernel::sfpu). TEMPLATES is a parenthesised list, e.g. (APPROX, 8). Each call
// macro is one expression, so it can stand inside MATH(( … )).
#pragma once

namespace ckernel {
template <DstSync sync = DstSync::SyncHalf, bool accum = false, class... I>
inline void _sfpu_check_(I...) {}
template <DstSync sync = DstSync::SyncHalf, bool accum = false, class... I>
inline void _sfpu_binary_check_(I...) {}
// Operation names of the init macros: tensim has nothing to configure per operation, so any name is
// accepted and ignored.
template <class Init, class... A>
inline void tensim_sfpu_init(Init&& init, A&&... a) {
    init(std::forward<A>(a)...);
}
}  // namespace ckernel

#define TENSIM_SFPU_STRIP(...) __VA_ARGS__
#define _SFPU_EXPAND(FN, TEMPLATES) ::ckernel::sfpu::FN<TENSIM_SFPU_STRIP TEMPLATES>
#define _SFPU_BIN_EXPAND(FN, TEMPLATES) ::ckernel::sfpu::FN<TENSIM_SFPU_STRIP TEMPLATES>

#define SFPU_UNARY_CALL(DST_SYNC, DST_ACCUM, FN, TEMPLATES, DST_IDX, VECTOR_MODE, ...)                       \
    (::ckernel::_sfpu_check_<DST_SYNC, DST_ACCUM>(DST_IDX, VECTOR_MODE),                                       \
     ::ckernel::_llk_math_eltwise_unary_sfpu_params_(_SFPU_EXPAND(FN, TEMPLATES), DST_IDX, VECTOR_MODE,        \
                                                     ##__VA_ARGS__))
#define SFPU_UNARY_CALL_NO_TEMPLATE_ARGS(DST_SYNC, DST_ACCUM, FN, DST_IDX, VECTOR_MODE, ...)                  \
    (::ckernel::_sfpu_check_<DST_SYNC, DST_ACCUM>(DST_IDX, VECTOR_MODE),                                       \
     ::ckernel::_llk_math_eltwise_unary_sfpu_params_(::ckernel::sfpu::FN, DST_IDX, VECTOR_MODE, ##__VA_ARGS__))
#define SFPU_BINARY_CALL(DST_SYNC, DST_ACCUM, FN, TEMPLATES, DST_IN0, DST_IN1, DST_OUT, VECTOR_MODE, ...)     \
    (::ckernel::_sfpu_binary_check_<DST_SYNC, DST_ACCUM>(DST_IN0, DST_IN1, DST_OUT, VECTOR_MODE),              \
     ::ckernel::_llk_math_eltwise_binary_sfpu_params_(_SFPU_BIN_EXPAND(FN, TEMPLATES), DST_IN0, DST_IN1,       \
                                                      DST_OUT, VECTOR_MODE, ##__VA_ARGS__))
#define SFPU_BINARY_CALL_NO_TEMPLATE_ARGS(DST_SYNC, DST_ACCUM, FN, DST_IN0, DST_IN1, DST_OUT, VECTOR_MODE, ...) \
    (::ckernel::_sfpu_binary_check_<DST_SYNC, DST_ACCUM>(DST_IN0, DST_IN1, DST_OUT, VECTOR_MODE),              \
     ::ckernel::_llk_math_eltwise_binary_sfpu_params_(::ckernel::sfpu::FN, DST_IN0, DST_IN1, DST_OUT,          \
                                                      VECTOR_MODE, ##__VA_ARGS__))
// A ternary function gets its three inputs and the output index; it walks the faces like the binary form.
#define SFPU_TERNARY_CALL_NO_TEMPLATE_ARGS(DST_SYNC, DST_ACCUM, FN, IN0, IN1, IN2, OUT, VECTOR_MODE, ...)     \
    (::ckernel::_sfpu_binary_check_<DST_SYNC, DST_ACCUM>(IN0, IN1, IN2, OUT, VECTOR_MODE),                     \
     ::ckernel::_llk_math_eltwise_binary_sfpu_params_(                                                        \
         [&](uint32_t, uint32_t, uint32_t) { ::ckernel::sfpu::FN(IN0, IN1, IN2, OUT, ##__VA_ARGS__); }, 0, 0, 0, \
         VECTOR_MODE))
#define SFPU_UNARY_INIT(OP, ...) ((void)0)
#define SFPU_UNARY_INIT_FN(OP, INIT_FN, TEMPLATES) (_SFPU_EXPAND(INIT_FN, TEMPLATES)())
#define SFPU_BINARY_INIT(OP) ((void)0)
#define SFPU_BINARY_INIT_FN_NO_ARGS(OP, INIT_FN) (::ckernel::sfpu::INIT_FN())
#define SFPU_BINARY_INIT_FN(OP, INIT_FN, TEMPLATES) (_SFPU_BIN_EXPAND(INIT_FN, TEMPLATES)())
#define SFPU_BINARY_INIT_FN_ARGS(OP, INIT_FN, TEMPLATES, ...) (_SFPU_BIN_EXPAND(INIT_FN, TEMPLATES)(__VA_ARGS__))
