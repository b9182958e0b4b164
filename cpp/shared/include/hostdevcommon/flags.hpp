// tensim: a set of bits of an enum (hostdevcommon/flags.hpp), written for tensim from the documented
// interface; shared by host programs and kernels.
#pragma once
#include <type_traits>

template <typename E>
class Flags {
    static_assert(std::is_enum_v<E>, "Flags<E>: E must be an enum");

public:
    using Underlying = std::underlying_type_t<E>;
    constexpr Flags() noexcept = default;
    constexpr Flags(E value) noexcept : bits_(static_cast<Underlying>(value)) {}
    constexpr Flags(E a, E b) noexcept : bits_(static_cast<Underlying>(static_cast<Underlying>(a) | static_cast<Underlying>(b))) {}
    constexpr explicit Flags(Underlying bits) noexcept : bits_(bits) {}
    constexpr Flags operator|(E v) const noexcept { return Flags(static_cast<Underlying>(bits_ | static_cast<Underlying>(v))); }
    constexpr Flags operator|(Flags f) const noexcept { return Flags(static_cast<Underlying>(bits_ | f.bits_)); }
    constexpr Flags operator&(E v) const noexcept { return Flags(static_cast<Underlying>(bits_ & static_cast<Underlying>(v))); }
    constexpr Flags operator&(Flags f) const noexcept { return Flags(static_cast<Underlying>(bits_ & f.bits_)); }
    constexpr bool operator==(Flags f) const noexcept { return bits_ == f.bits_; }
    constexpr bool operator!=(Flags f) const noexcept { return bits_ != f.bits_; }
    // Whether every bit of `single` is set.
    constexpr bool test(E single) const noexcept {
        return (bits_ & static_cast<Underlying>(single)) == static_cast<Underlying>(single);
    }
    void set(E single, bool value = true) noexcept {
        if (value) {
            bits_ = static_cast<Underlying>(bits_ | static_cast<Underlying>(single));
        } else {
            bits_ = static_cast<Underlying>(bits_ & ~static_cast<Underlying>(single));
        }
    }
    constexpr Underlying raw() const noexcept { return bits_; }

private:
    Underlying bits_ = 0;
};
