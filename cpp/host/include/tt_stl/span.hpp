// tensim: ttsl::Span (also reachable as tt::stl::Span), a view of contiguous elements (what TT-Metalium host calls take for argument lists).
#pragma once
#include <array>
#include <cstddef>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "small_vector.hpp"

namespace ttsl {
template <typename T>
class Span {
public:
    using element_type = T;
    using value_type = std::remove_cv_t<T>;
    constexpr Span() = default;
    constexpr Span(T* p, std::size_t n) : p_(p), n_(n) {}
    template <typename A>
    Span(std::vector<value_type, A>& v) : p_(v.data()), n_(v.size()) {}
    template <typename A, typename U = T, typename = std::enable_if_t<std::is_const_v<U>>>
    Span(const std::vector<value_type, A>& v) : p_(v.data()), n_(v.size()) {}
    template <std::size_t N>
    constexpr Span(std::array<value_type, N>& a) : p_(a.data()), n_(N) {}
    template <std::size_t N, typename U = T, typename = std::enable_if_t<std::is_const_v<U>>>
    constexpr Span(const std::array<value_type, N>& a) : p_(a.data()), n_(N) {}
    template <std::size_t N>
    constexpr Span(T (&a)[N]) : p_(a), n_(N) {}
    template <typename U = T, typename = std::enable_if_t<std::is_const_v<U>>>
    constexpr Span(std::initializer_list<value_type> l) : p_(l.begin()), n_(l.size()) {}
    constexpr T* data() const { return p_; }
    constexpr std::size_t size() const { return n_; }
    constexpr bool empty() const { return n_ == 0; }
    constexpr T& operator[](std::size_t i) const { return p_[i]; }
    constexpr T* begin() const { return p_; }
    constexpr T* end() const { return p_ + n_; }

private:
    T* p_ = nullptr;
    std::size_t n_ = 0;
};
template <typename C>
auto make_span(C& c) {
    return Span<std::remove_reference_t<decltype(*c.data())>>(c.data(), c.size());
}
template <typename C>
auto make_const_span(const C& c) {
    return Span<const std::remove_cv_t<std::remove_reference_t<decltype(*c.data())>>>(c.data(), c.size());
}
}  // namespace ttsl
namespace tt {
namespace stl = ::ttsl;
}  // namespace tt
