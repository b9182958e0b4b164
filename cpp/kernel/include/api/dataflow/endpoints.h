// Endpoints of the object NoC API (tt-metal's api/dataflow/endpoints.h), written for tensim: a core's L1 by
// NoC coordinates (unicast), a rectangle of cores (multicast destination only), and a bank of the
// allocator's DRAM or L1 banks (NoC side only).
#pragma once
#include "api/dataflow/noc.h"

struct UnicastEndpoint {
    uint64_t get_noc_unicast_addr(uint32_t noc_x, uint32_t noc_y, uint32_t addr, uint8_t noc) const {
        return get_noc_addr(noc_x, noc_y, addr, noc);
    }
};
struct MulticastEndpoint {
    uint64_t get_noc_multicast_addr(uint32_t x_start, uint32_t y_start, uint32_t x_end, uint32_t y_end, uint32_t addr,
                                    uint8_t noc) const {
        return ::get_noc_multicast_addr(x_start, y_start, x_end, y_end, addr, noc);
    }
};
enum class AllocatorBankType { L1, DRAM };
template <AllocatorBankType bank_type>
struct AllocatorBank {
    uint64_t get_noc_addr_from_bank_id(uint32_t bank_id, uint32_t addr, uint8_t noc) const {
        return ::get_noc_addr_from_bank_id<bank_type == AllocatorBankType::DRAM>(bank_id, addr, noc);
    }
};

namespace tensim::noc_obj {
struct UnicastArgs {
    uint32_t noc_x{};
    uint32_t noc_y{};
    uint32_t addr{};
};
struct McastArgs {
    uint32_t noc_x_start{};
    uint32_t noc_y_start{};
    uint32_t noc_x_end{};
    uint32_t noc_y_end{};
    uint32_t addr{};
};
struct BankArgs {
    uint32_t bank_id{};
    uint32_t addr{};
};
}  // namespace tensim::noc_obj

template <>
struct noc_traits_t<UnicastEndpoint> {
    using src_args_type = tensim::noc_obj::UnicastArgs;
    using dst_args_type = tensim::noc_obj::UnicastArgs;
    static uint64_t noc_addr(const UnicastEndpoint& e, const src_args_type& a, uint8_t noc) {
        return e.get_noc_unicast_addr(a.noc_x, a.noc_y, a.addr, noc);
    }
    static uint32_t local_src(const UnicastEndpoint&, const src_args_type& a) { return a.addr; }
    static uint32_t local_dst(const UnicastEndpoint&, const dst_args_type& a) { return a.addr; }
};
template <>
struct noc_traits_t<MulticastEndpoint> {
    using src_args_type = tensim::noc_obj::McastArgs;
    using dst_args_type = tensim::noc_obj::McastArgs;
    using dst_args_mcast_type = tensim::noc_obj::McastArgs;
    static uint64_t mcast_addr(const MulticastEndpoint& e, const dst_args_mcast_type& a, uint8_t noc) {
        return e.get_noc_multicast_addr(a.noc_x_start, a.noc_y_start, a.noc_x_end, a.noc_y_end, a.addr, noc);
    }
};
template <AllocatorBankType T>
struct noc_traits_t<AllocatorBank<T>> {
    using src_args_type = tensim::noc_obj::BankArgs;
    using dst_args_type = tensim::noc_obj::BankArgs;
    static uint64_t noc_addr(const AllocatorBank<T>& b, const src_args_type& a, uint8_t noc) {
        return b.get_noc_addr_from_bank_id(a.bank_id, a.addr, noc);
    }
};
