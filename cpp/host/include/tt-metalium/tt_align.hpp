// tensim: tt::align (tt-metalium/tt_align.hpp), with the documented bit formula: ((addr - 1) | (alignment -
// 1)) + 1 in the common type, which rounds up to a multiple of a power-of-two alignment; align(0, a) == 0, and
// for an alignment that is not a power of two the result is not a multiple of it (as upstream).
#pragma once
#include <type_traits>

namespace tt {
template <typename T1, typename T2>
constexpr std::common_type_t<T1, T2> align(T1 addr, T2 alignment) {
    static_assert(std::is_integral_v<T1> && std::is_integral_v<T2>, "tt::align: integral types only");
    using T = std::common_type_t<T1, T2>;
    return ((static_cast<T>(addr) - 1) | (static_cast<T>(alignment) - 1)) + 1;
}
}  // namespace tt
