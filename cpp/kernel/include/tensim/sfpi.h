// The SFPI programming model for custom SFPU functions, written for tensim: vFloat / vInt / vUInt vectors,
// dst_reg[i] loads and stores over DST, dst_reg++, v_if / v_elseif / v_else / v_endif lane predication, the
// common sfpi intrinsics, and the low-level wrappers that walk a tile's faces
// (_llk_math_eltwise_unary_sfpu_params_, llk_math_eltwise_unary_sfpu_0_param,
// _llk_math_eltwise_binary_sfpu_params_). Vector arithmetic runs here; DST lives in tensim, reached through
// the ABI's sfpi call. Every executed vector instruction is counted by the same rules as tensim's Rust SFPI
// model (sim-tensix compute/sfpi): a load, a store, each operator, an immediate (a literal operand),
// dst_reg++, and each of v_if / v_elseif / v_else / v_endif; constant registers and reinterpretations are
// free; a vector assignment costs one inside v_if (a predicated move) and nothing outside.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "tensim/abi.h"

namespace tensim {
namespace sfpi_detail {
constexpr int LANES = 64;  // the widest SFPU; the arch's lanes (from the open call) are those DST moves
inline uint32_t instructions = 0;
inline int depth = 0;
inline bool masks[16][LANES];
inline void count(uint32_t n = 1) { instructions += n; }
inline const bool* enabled() { return depth == 0 ? nullptr : masks[depth - 1]; }
}  // namespace sfpi_detail
}  // namespace tensim

namespace sfpi {

struct vCond {
    bool v[::tensim::sfpi_detail::LANES];
};

struct vInt;
struct vUInt;

struct vFloat {
    float v[::tensim::sfpi_detail::LANES];
    vFloat() { std::memset(v, 0, sizeof v); }
    vFloat(float x) {  // an immediate load
        ::tensim::sfpi_detail::count();
        for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++) v[l] = x;
    }
    vFloat(const vFloat&) = default;
    vFloat& operator=(const vFloat& o) {
        if (const bool* en = tensim::sfpi_detail::enabled()) {
            ::tensim::sfpi_detail::count();
            for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++)
                if (en[l]) v[l] = o.v[l];
        } else {
            std::memcpy(v, o.v, sizeof v);
        }
        return *this;
    }
    vFloat& operator+=(const vFloat& o);
    vFloat& operator-=(const vFloat& o);
    vFloat& operator*=(const vFloat& o);
    static vFloat raw() { return vFloat(); }
};

#define TENSIM_SFPI_INT(V, T)                                                    \
    struct V {                                                                   \
        T v[::tensim::sfpi_detail::LANES];                                                              \
        V() { std::memset(v, 0, sizeof v); }                                     \
        V(T x) {                                                                 \
            ::tensim::sfpi_detail::count();                                                             \
            for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++) v[l] = x;                            \
        }                                                                        \
        V(const V&) = default;                                                   \
        V& operator=(const V& o) {                                               \
            if (const bool* en = tensim::sfpi_detail::enabled()) {               \
                ::tensim::sfpi_detail::count();                                                         \
                for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++)                                  \
                    if (en[l]) v[l] = o.v[l];                                    \
            } else {                                                             \
                std::memcpy(v, o.v, sizeof v);                                   \
            }                                                                    \
            return *this;                                                        \
        }                                                                        \
    };
TENSIM_SFPI_INT(vInt, int32_t)
TENSIM_SFPI_INT(vUInt, uint32_t)
#undef TENSIM_SFPI_INT

// Element-wise operators: one instruction each (plus one for a literal operand, via the constructor).
#define TENSIM_SFPI_BIN(V, OP, EXPR)                                             \
    inline V operator OP(const V& a, const V& b) {                               \
        ::tensim::sfpi_detail::count();                                                                 \
        V r;                                                                     \
        for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++) {                                        \
            auto x = a.v[l];                                                     \
            auto y = b.v[l];                                                     \
            r.v[l] = EXPR;                                                       \
        }                                                                        \
        return r;                                                                \
    }
#define TENSIM_SFPI_CMP(V, OP)                                                   \
    inline vCond operator OP(const V& a, const V& b) {                           \
        ::tensim::sfpi_detail::count();                                                                 \
        vCond r;                                                                 \
        for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++) r.v[l] = a.v[l] OP b.v[l];               \
        return r;                                                                \
    }
TENSIM_SFPI_BIN(vFloat, +, x + y)
TENSIM_SFPI_BIN(vFloat, -, x - y)
TENSIM_SFPI_BIN(vFloat, *, x * y)
inline vFloat operator+(const vFloat& a, float b) { return a + vFloat(b); }
inline vFloat operator-(const vFloat& a, float b) { return a - vFloat(b); }
inline vFloat operator*(const vFloat& a, float b) { return a * vFloat(b); }
inline vFloat operator+(float a, const vFloat& b) { return vFloat(a) + b; }
inline vFloat operator-(float a, const vFloat& b) { return vFloat(a) - b; }
inline vFloat operator*(float a, const vFloat& b) { return vFloat(a) * b; }
inline vFloat operator-(const vFloat& a) {
    ::tensim::sfpi_detail::count();
    vFloat r;
    for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++) r.v[l] = -a.v[l];
    return r;
}
inline vFloat& vFloat::operator+=(const vFloat& o) { return *this = *this + o; }
inline vFloat& vFloat::operator-=(const vFloat& o) { return *this = *this - o; }
inline vFloat& vFloat::operator*=(const vFloat& o) { return *this = *this * o; }
TENSIM_SFPI_CMP(vFloat, <)
TENSIM_SFPI_CMP(vFloat, <=)
TENSIM_SFPI_CMP(vFloat, >)
TENSIM_SFPI_CMP(vFloat, >=)
TENSIM_SFPI_CMP(vFloat, ==)
TENSIM_SFPI_CMP(vFloat, !=)
inline vCond operator<(const vFloat& a, float b) { return a < vFloat(b); }
inline vCond operator<=(const vFloat& a, float b) { return a <= vFloat(b); }
inline vCond operator>(const vFloat& a, float b) { return a > vFloat(b); }
inline vCond operator>=(const vFloat& a, float b) { return a >= vFloat(b); }
inline vCond operator==(const vFloat& a, float b) { return a == vFloat(b); }
inline vCond operator!=(const vFloat& a, float b) { return a != vFloat(b); }

#define TENSIM_SFPI_INT_OPS(V, T)                                                          \
    TENSIM_SFPI_BIN(V, +, (T)((uint32_t)x + (uint32_t)y))                                  \
    TENSIM_SFPI_BIN(V, -, (T)((uint32_t)x - (uint32_t)y))                                  \
    TENSIM_SFPI_BIN(V, &, x & y)                                                           \
    TENSIM_SFPI_BIN(V, |, x | y)                                                           \
    TENSIM_SFPI_BIN(V, ^, x ^ y)                                                           \
    TENSIM_SFPI_CMP(V, <)                                                                  \
    TENSIM_SFPI_CMP(V, <=)                                                                 \
    TENSIM_SFPI_CMP(V, >)                                                                  \
    TENSIM_SFPI_CMP(V, >=)                                                                 \
    TENSIM_SFPI_CMP(V, ==)                                                                 \
    TENSIM_SFPI_CMP(V, !=)                                                                 \
    inline V operator+(const V& a, T b) { return a + V(b); }                               \
    inline V operator-(const V& a, T b) { return a - V(b); }                               \
    inline V operator&(const V& a, T b) { return a & V(b); }                               \
    inline V operator|(const V& a, T b) { return a | V(b); }                               \
    inline vCond operator<(const V& a, T b) { return a < V(b); }                           \
    inline vCond operator>=(const V& a, T b) { return a >= V(b); }                         \
    inline vCond operator>(const V& a, T b) { return a > V(b); }                           \
    inline vCond operator<=(const V& a, T b) { return a <= V(b); }                         \
    inline vCond operator==(const V& a, T b) { return a == V(b); }                         \
    inline vCond operator!=(const V& a, T b) { return a != V(b); }                         \
    inline V operator~(const V& a) {                                                       \
        ::tensim::sfpi_detail::count();                                                                           \
        V r;                                                                               \
        for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++) r.v[l] = ~a.v[l];                                  \
        return r;                                                                          \
    }                                                                                      \
    inline V operator<<(const V& a, uint32_t s) {                                          \
        ::tensim::sfpi_detail::count();                                                                           \
        V r;                                                                               \
        for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++) r.v[l] = s >= 32 ? 0 : (T)((uint32_t)a.v[l] << s); \
        return r;                                                                          \
    }                                                                                      \
    inline V operator>>(const V& a, uint32_t s) {                                          \
        ::tensim::sfpi_detail::count();                                                                           \
        V r;                                                                               \
        for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++) r.v[l] = s >= 32 ? 0 : (T)((uint32_t)a.v[l] >> s); \
        return r;                                                                          \
    }
TENSIM_SFPI_INT_OPS(vInt, int32_t)
TENSIM_SFPI_INT_OPS(vUInt, uint32_t)
#undef TENSIM_SFPI_INT_OPS
#undef TENSIM_SFPI_BIN
#undef TENSIM_SFPI_CMP

inline vCond operator&&(const vCond& a, const vCond& b) {
    ::tensim::sfpi_detail::count();
    vCond r;
    for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++) r.v[l] = a.v[l] && b.v[l];
    return r;
}
inline vCond operator||(const vCond& a, const vCond& b) {
    ::tensim::sfpi_detail::count();
    vCond r;
    for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++) r.v[l] = a.v[l] || b.v[l];
    return r;
}
inline vCond operator!(const vCond& a) {
    ::tensim::sfpi_detail::count();
    vCond r;
    for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++) r.v[l] = !a.v[l];
    return r;
}

// Constant registers (free).
inline const vFloat vConst0 = vFloat::raw();
inline const vFloat vConst1 = [] { vFloat r; for (float& x : r.v) x = 1.0f; return r; }();
inline const vFloat vConstNeg1 = [] { vFloat r; for (float& x : r.v) x = -1.0f; return r; }();
inline const vFloat vConst0p8373 = [] { vFloat r; for (float& x : r.v) x = 0.8373f; return r; }();

// Reinterpretation between vector types (free: the same register).
template <class To, class From>
inline To reinterpret(const From& a) {
    static_assert(sizeof(To) == sizeof(From), "reinterpret between SFPI vector types");
    To r;
    std::memcpy(r.v, a.v, sizeof r.v);
    return r;
}

namespace tensim_impl {
inline uint32_t bits(float x) { uint32_t b; std::memcpy(&b, &x, 4); return b; }
inline float from_bits(uint32_t b) { float x; std::memcpy(&x, &b, 4); return x; }
template <class R, class A, class F>
inline R map(const A& a, F f) {
    ::tensim::sfpi_detail::count();
    R r;
    for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++) r.v[l] = f(a.v[l]);
    return r;
}
}  // namespace tensim_impl

// Intrinsics (one instruction each), as tensim's Rust model defines them.
inline vFloat abs(const vFloat& a) { return tensim_impl::map<vFloat>(a, [](float x) { return x < 0 ? -x : x; }); }
inline vInt abs(const vInt& a) { return tensim_impl::map<vInt>(a, [](int32_t x) { return (int32_t)(x < 0 ? 0u - (uint32_t)x : (uint32_t)x); }); }
inline vFloat setsgn(const vFloat& a, int sign) {
    return tensim_impl::map<vFloat>(a, [sign](float x) { return tensim_impl::from_bits((tensim_impl::bits(x) & 0x7fffffffu) | ((uint32_t)(sign & 1) << 31)); });
}
inline vInt exexp(const vFloat& a) { return tensim_impl::map<vInt>(a, [](float x) { return (int32_t)((tensim_impl::bits(x) >> 23) & 0xff) - 127; }); }
inline vInt exexp_nodebias(const vFloat& a) { return tensim_impl::map<vInt>(a, [](float x) { return (int32_t)((tensim_impl::bits(x) >> 23) & 0xff); }); }
inline vInt exman8(const vFloat& a) { return tensim_impl::map<vInt>(a, [](float x) { return (int32_t)((tensim_impl::bits(x) & 0x7fffff) | 0x800000); }); }
inline vInt exman9(const vFloat& a) { return tensim_impl::map<vInt>(a, [](float x) { return (int32_t)(tensim_impl::bits(x) & 0x7fffff); }); }
inline vFloat setexp(const vFloat& a, uint32_t e) {
    return tensim_impl::map<vFloat>(a, [e](float x) { return tensim_impl::from_bits((tensim_impl::bits(x) & 0x807fffffu) | ((e & 0xff) << 23)); });
}
inline vFloat setman(const vFloat& a, uint32_t m) {
    return tensim_impl::map<vFloat>(a, [m](float x) { return tensim_impl::from_bits((tensim_impl::bits(x) & 0xff800000u) | (m & 0x7fffff)); });
}
inline vFloat addexp(const vFloat& a, int n) {
    return tensim_impl::map<vFloat>(a, [n](float x) {
        uint32_t b = tensim_impl::bits(x);
        int e = (int)((b >> 23) & 0xff) + n;
        e = e < 0 ? 0 : (e > 255 ? 255 : e);
        return tensim_impl::from_bits((b & 0x807fffffu) | ((uint32_t)e << 23));
    });
}
inline vInt lz(const vInt& a) { return tensim_impl::map<vInt>(a, [](int32_t x) { return x == 0 ? 32 : __builtin_clz((uint32_t)x); }); }
inline vFloat int32_to_float(const vInt& a, int = 0) { return tensim_impl::map<vFloat>(a, [](int32_t x) { return (float)x; }); }
inline vFloat float_to_fp16b(const vFloat& a, int = 0) {
    return tensim_impl::map<vFloat>(a, [](float x) {
        uint32_t b = tensim_impl::bits(x);
        if ((b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffff)) return tensim_impl::from_bits(b | 0x400000);  // NaN stays NaN
        b += 0x7fff + ((b >> 16) & 1);
        return tensim_impl::from_bits(b & 0xffff0000u);
    });
}
inline float s2vFloat16b(float x) { return x; }
inline float s2vFloat16a(float x) { return x; }

// DST as the SFPU sees it.
struct DstRef {
    int idx;
    operator vFloat() const {
        ::tensim::sfpi_detail::count();
        vFloat r;
        tensim::api->sfpi(2, idx, 0, r.v, nullptr);
        return r;
    }
    const DstRef& operator=(const vFloat& x) const {
        ::tensim::sfpi_detail::count();
        tensim::api->sfpi(3, idx, 0, const_cast<float*>(x.v), store_mask());
        return *this;
    }
    const DstRef& operator=(const vInt& x) const {
        ::tensim::sfpi_detail::count();
        float bitsv[::tensim::sfpi_detail::LANES];
        std::memcpy(bitsv, x.v, sizeof bitsv);
        tensim::api->sfpi(4, idx, 0, bitsv, store_mask());
        return *this;
    }
    const DstRef& operator=(const vUInt& x) const { return *this = reinterpret<vInt>(x); }
    const DstRef& operator=(const DstRef& o) const { return *this = vFloat(o); }
    const DstRef& operator=(float x) const { return *this = vFloat(x); }

  private:
    static const uint8_t* store_mask() {
        static uint8_t m[::tensim::sfpi_detail::LANES];
        const bool* en = tensim::sfpi_detail::enabled();
        if (!en) return nullptr;
        for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++) m[l] = en[l];
        return m;
    }
};
struct DstReg {
    DstRef operator[](int i) const { return DstRef{i}; }
    void operator++(int) const {
        ::tensim::sfpi_detail::count();
        tensim::api->sfpi(5, 0, 0, nullptr, nullptr);
    }
    void operator++() const { (*this)++; }
    void operator+=(int n) const {
        for (int i = 0; i < n; i++) (*this)++;
    }
};
inline constexpr DstReg dst_reg{};

// Lane predication: v_if / v_elseif / v_else / v_endif (one instruction each).
class CCCtrl {
  public:
    CCCtrl() {
        using namespace tensim::sfpi_detail;
        const bool* en = enabled();
        for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++) {
            outer_[l] = en ? en[l] : true;
            taken_[l] = false;
        }
        if (depth >= 16) __builtin_trap();  // deeper than the hardware's condition-code stack
        depth++;
    }
    ~CCCtrl() {
        ::tensim::sfpi_detail::count();  // v_endif
        tensim::sfpi_detail::depth--;
    }
    void cc_if(const vCond& c) { branch(&c); }
    void cc_elseif(const vCond& c) { branch(&c); }
    void cc_else() { branch(nullptr); }

  private:
    void branch(const vCond* c) {
        ::tensim::sfpi_detail::count();
        bool* m = tensim::sfpi_detail::masks[tensim::sfpi_detail::depth - 1];
        for (int l = 0; l < ::tensim::sfpi_detail::LANES; l++) {
            m[l] = outer_[l] && !taken_[l] && (c ? c->v[l] : true);
            taken_[l] = taken_[l] || m[l];
        }
    }
    bool outer_[::tensim::sfpi_detail::LANES];
    bool taken_[::tensim::sfpi_detail::LANES];
};
}  // namespace sfpi

#define v_if(x)                    \
    {                              \
        ::sfpi::CCCtrl __tensim_cc; \
        __tensim_cc.cc_if(x);      \
        {
#define v_elseif(x)            \
    }                          \
    __tensim_cc.cc_elseif(x); \
    {
#define v_else              \
    }                       \
    __tensim_cc.cc_else(); \
    {
#define v_endif \
    }           \
    }

// The wrappers that run a face function over a tile (MATH only; on the other threads they do nothing).
namespace tensim {
namespace sfpi_detail {
inline uint32_t open(uint32_t wrapper, uint32_t start) {
    instructions = 0;
    depth = 0;
    return api->sfpi(0, (int32_t)wrapper, start, nullptr, nullptr);
}
inline void close() { api->sfpi(6, 0, instructions, nullptr, nullptr); }
// Faces walked for a vector mode (None 0, R 1, C 2, RC 3, RC_custom 4).
inline int faces(int mode, int out[4]) {
    switch (mode) {
        case 0: out[0] = 0; return 1;
        case 1: out[0] = 0; out[1] = 1; return 2;
        case 2: out[0] = 0; out[1] = 2; return 2;
        default: out[0] = 0; out[1] = 1; out[2] = 2; out[3] = 3; return 4;
    }
}
template <class M>
inline int mode_code(M m) { return (int)m; }
}  // namespace sfpi_detail
}  // namespace tensim

namespace ckernel {
using namespace sfpi;

template <bool APPROXIMATE, class F, class M = int, class... ARGS>
inline void _llk_math_eltwise_unary_sfpu_params_(F&& sfpu_func, uint32_t dst_index, M vector_mode = (M)3,
                                                 ARGS&&... args) {
    using namespace tensim::sfpi_detail;
    if (!open(0, dst_index)) return;
    int f[4];
    int n = faces(mode_code(vector_mode), f);
    for (int i = 0; i < n; i++) {
        tensim::api->sfpi(1, (int32_t)dst_index, (uint32_t)f[i], nullptr, nullptr);
        sfpu_func(std::forward<ARGS>(args)...);
    }
    close();
}

template <bool APPROXIMATE, class F, class M = int>
inline void llk_math_eltwise_unary_sfpu_0_param(F&& first_func, F&& func, uint32_t dst_index, M vector_mode = (M)3) {
    using namespace tensim::sfpi_detail;
    if (!open(1, dst_index)) return;
    int f[4];
    int code = mode_code(vector_mode);
    int n = faces(code, f);
    for (int i = 0; i < n; i++) {
        tensim::api->sfpi(1, (int32_t)dst_index, (uint32_t)f[i], nullptr, nullptr);
        if (code == 1) first_func(); else func();
    }
    close();
}

template <bool APPROXIMATE, class F, class M = int, class... ARGS>
inline void _llk_math_eltwise_binary_sfpu_params_(F&& sfpu_func, uint32_t dst_index_in0, uint32_t dst_index_in1,
                                                  uint32_t dst_index_out, M vector_mode = (M)3, ARGS&&... args) {
    using namespace tensim::sfpi_detail;
    if (!open(2, 0)) return;
    int f[4];
    int n = faces(mode_code(vector_mode), f);
    for (int i = 0; i < n; i++) {
        tensim::api->sfpi(1, 0, (uint32_t)f[i], nullptr, nullptr);
        if constexpr (std::is_invocable_v<F, uint32_t, uint32_t, uint32_t, ARGS...>) {
            sfpu_func(dst_index_in0, dst_index_in1, dst_index_out, std::forward<ARGS>(args)...);
        } else {
            sfpu_func(std::forward<ARGS>(args)...);
        }
    }
    close();
}
template <bool APPROXIMATE, class F, class M = int, class... ARGS>
inline void llk_math_eltwise_binary_sfpu_params(F&& sfpu_func, uint32_t in0, uint32_t in1, uint32_t out,
                                                M vector_mode = (M)3, ARGS&&... args) {
    _llk_math_eltwise_binary_sfpu_params_<APPROXIMATE>(std::forward<F>(sfpu_func), in0, in1, out, vector_mode,
                                                       std::forward<ARGS>(args)...);
}
template <bool APPROXIMATE, class F, class M = int, class... ARGS>
inline void llk_math_eltwise_unary_sfpu_params(F&& sfpu_func, uint32_t dst_index, M vector_mode = (M)3,
                                               ARGS&&... args) {
    _llk_math_eltwise_unary_sfpu_params_<APPROXIMATE>(std::forward<F>(sfpu_func), dst_index, vector_mode,
                                                      std::forward<ARGS>(args)...);
}
// Today's tt-llk spellings: the params functions without the APPROXIMATE template argument, taking the
// vector mode (the face walk is the same).
template <class F, class M, class... ARGS, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, bool>>>
inline void _llk_math_eltwise_unary_sfpu_params_(F&& sfpu_func, uint32_t dst_index, M vector_mode, ARGS&&... args) {
    _llk_math_eltwise_unary_sfpu_params_<false>(std::forward<F>(sfpu_func), dst_index, vector_mode,
                                                std::forward<ARGS>(args)...);
}
template <class F, class M, class... ARGS, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, bool>>>
inline void _llk_math_eltwise_binary_sfpu_params_(F&& sfpu_func, uint32_t dst_index_in0, uint32_t dst_index_in1,
                                                  uint32_t dst_index_out, M vector_mode, ARGS&&... args) {
    _llk_math_eltwise_binary_sfpu_params_<false>(std::forward<F>(sfpu_func), dst_index_in0, dst_index_in1,
                                                 dst_index_out, vector_mode, std::forward<ARGS>(args)...);
}

// The SFPU init the wrappers' ops call before a custom function (nothing to configure in tensim).
template <bool APPROXIMATE = false>
inline void llk_math_eltwise_unary_sfpu_init() {}
template <bool APPROXIMATE = false>
inline void _llk_math_eltwise_unary_sfpu_init_() {}
}  // namespace ckernel
