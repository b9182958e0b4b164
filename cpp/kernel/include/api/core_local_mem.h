// Core-local memory (tt-metal's api/core_local_mem.h), written for tensim: a typed view of this core's L1 at
// an address. On the host L1 address A sits at host address A while a C++ kernel runs, so the view is a
// plain pointer, and every access through it is a timed L1 load or store. In a data-movement kernel it is a
// local endpoint of the object NoC API.
#pragma once
#include <cstddef>

#include "tensim/common.h"
#include "api/lock.h"

template <typename T, typename AddressType = uintptr_t>
class CoreLocalMem {
public:
    CoreLocalMem(AddressType address) : address_(address) {}
    CoreLocalMem(T* ptr) : address_(static_cast<AddressType>(reinterpret_cast<uintptr_t>(ptr))) {}
    tt_l1_ptr T* get_unsafe_ptr() const { return reinterpret_cast<T*>(static_cast<uintptr_t>(address_)); }
    AddressType get_address() const { return address_; }
    T& operator[](uint32_t index) const { return get_unsafe_ptr()[index]; }
    T& operator*() const { return *get_unsafe_ptr(); }
    tt_l1_ptr T* operator->() const { return get_unsafe_ptr(); }
    CoreLocalMem& operator+=(ptrdiff_t n) {
        address_ += static_cast<AddressType>(n * static_cast<ptrdiff_t>(sizeof(T)));
        return *this;
    }
    CoreLocalMem& operator-=(ptrdiff_t n) {
        address_ -= static_cast<AddressType>(n * static_cast<ptrdiff_t>(sizeof(T)));
        return *this;
    }
    CoreLocalMem& operator++() { return *this += 1; }
    CoreLocalMem& operator--() { return *this -= 1; }
    CoreLocalMem operator++(int) {
        CoreLocalMem old = *this;
        *this += 1;
        return old;
    }
    CoreLocalMem operator--(int) {
        CoreLocalMem old = *this;
        *this -= 1;
        return old;
    }
    CoreLocalMem operator+(ptrdiff_t n) const {
        CoreLocalMem r = *this;
        return r += n;
    }
    CoreLocalMem operator-(ptrdiff_t n) const {
        CoreLocalMem r = *this;
        return r -= n;
    }
    ptrdiff_t operator-(const CoreLocalMem& o) const {
        return (static_cast<ptrdiff_t>(address_) - static_cast<ptrdiff_t>(o.address_)) / static_cast<ptrdiff_t>(sizeof(T));
    }
    [[nodiscard]] auto scoped_lock(size_t) { return Lock(); }
    bool operator==(const CoreLocalMem& o) const { return address_ == o.address_; }
    bool operator!=(const CoreLocalMem& o) const { return address_ != o.address_; }
    bool operator<(const CoreLocalMem& o) const { return address_ < o.address_; }
    bool operator<=(const CoreLocalMem& o) const { return address_ <= o.address_; }
    bool operator>(const CoreLocalMem& o) const { return address_ > o.address_; }
    bool operator>=(const CoreLocalMem& o) const { return address_ >= o.address_; }
    explicit operator bool() const { return address_ != 0; }

private:
    AddressType address_;
};

#if !defined(TRISC_UNPACK) && !defined(TRISC_MATH) && !defined(TRISC_PACK)
#include "api/dataflow/noc.h"
namespace tensim::noc_obj {
template <typename A>
struct LocalArgs {
    A offset_bytes = 0;
};
struct NoMcast {};
}  // namespace tensim::noc_obj
template <typename T, typename A>
struct noc_traits_t<CoreLocalMem<T, A>> {
    using src_args_type = tensim::noc_obj::LocalArgs<A>;
    using dst_args_type = tensim::noc_obj::LocalArgs<A>;
    using dst_args_mcast_type = tensim::noc_obj::NoMcast;
    static uint32_t local_src(const CoreLocalMem<T, A>& m, const src_args_type& a) {
        return static_cast<uint32_t>(m.get_address() + a.offset_bytes);
    }
    static uint32_t local_dst(const CoreLocalMem<T, A>& m, const dst_args_type& a) {
        return static_cast<uint32_t>(m.get_address() + a.offset_bytes);
    }
};
#endif
