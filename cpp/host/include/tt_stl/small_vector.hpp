// tensim: ttsl::SmallVector<T, N> (also reachable as tt::stl::SmallVector), a vector with N elements of inline
// capacity upstream; here a std::vector underneath, which behaves the same for everything a program observes.
#pragma once
#include <cstddef>
#include <initializer_list>
#include <utility>
#include <vector>

namespace ttsl {
template <typename T, std::size_t PREALLOCATED_SIZE = 8>
class SmallVector : public std::vector<T> {
public:
    using std::vector<T>::vector;
    SmallVector() = default;
    SmallVector(const std::vector<T>& v) : std::vector<T>(v) {}
    SmallVector(std::vector<T>&& v) : std::vector<T>(std::move(v)) {}
};
}  // namespace ttsl
namespace tt {
namespace stl = ::ttsl;
}  // namespace tt
