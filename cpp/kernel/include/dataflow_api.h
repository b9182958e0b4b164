// The data-movement kernel API (tt-metal's dataflow_api.h), written for tensim: every call forwards
// through tensim's ABI table to the Rust implementation, so C++ and Rust kernels time the same.
#pragma once
#include "tensim/common.h"
#include "tensim/dprint.h"

constexpr uint8_t noc_index = NOC_INDEX;
constexpr uint8_t noc_mode = NOC_MODE;

namespace tensim {
// my_x[noc] / my_y[noc]: this core's NoC coordinates.
struct MyCoord {
    uint32_t which;
    uint8_t operator[](uint32_t noc) const { return static_cast<uint8_t>(api->query(which, noc, 0)); }
};
}  // namespace tensim
inline constexpr tensim::MyCoord my_x{8};
inline constexpr tensim::MyCoord my_y{9};

// Circular-buffer queries.
FORCE_INLINE uint32_t get_write_ptr(uint32_t cb) { return tensim::api->query(0, cb, 0); }
FORCE_INLINE uint32_t get_read_ptr(uint32_t cb) { return tensim::api->query(1, cb, 0); }
inline int32_t get_tile_size(int32_t cb) { return static_cast<int32_t>(tensim::api->query(2, cb, 0)); }
inline DataFormat get_dataformat(int32_t cb) { return static_cast<DataFormat>(tensim::api->query(3, cb, 0)); }
inline uint32_t get_tile_hw(int32_t cb) { return tensim::api->query(4, cb, 0); }
inline uint32_t get_tile_num_faces(int32_t cb) { return tensim::api->query(5, cb, 0); }
FORCE_INLINE bool cb_pages_reservable_at_back(int32_t cb, int32_t n) { return tensim::api->query(6, cb, n) != 0; }
FORCE_INLINE bool cb_pages_available_at_front(int32_t cb, int32_t n) { return tensim::api->query(7, cb, n) != 0; }

// Semaphores.
template <ProgrammableCoreType type = ProgrammableCoreType::TENSIX>
FORCE_INLINE uint32_t get_semaphore(uint32_t semaphore_id) {
    return tensim::api->query(12, semaphore_id, static_cast<uint32_t>(type));
}

// Address generators (aggregates, members in tt-metal's order).
template <bool DRAM>
struct InterleavedAddrGen {
    static constexpr bool is_dram = DRAM;
    uint32_t bank_base_address;
    const uint32_t page_size;
    std::uint64_t get_noc_addr(const uint32_t id, const uint32_t offset = 0, uint8_t noc = noc_index) const {
        return tensim::api->noc_addr_page(0, DRAM, bank_base_address, page_size, 0, id, offset, noc);
    }
};
// Page `id` of an interleaved buffer (the free-function forms of InterleavedAddrGen).
FORCE_INLINE uint64_t get_dram_noc_addr(uint32_t id, uint32_t page_size, uint32_t bank_base_address,
                                        uint32_t offset = 0, uint8_t noc = noc_index) {
    return InterleavedAddrGen<true>{bank_base_address, page_size}.get_noc_addr(id, offset, noc);
}
FORCE_INLINE uint64_t get_l1_noc_addr(uint32_t id, uint32_t page_size, uint32_t bank_base_address,
                                      uint32_t offset = 0, uint8_t noc = noc_index) {
    return InterleavedAddrGen<false>{bank_base_address, page_size}.get_noc_addr(id, offset, noc);
}
namespace tensim {
template <typename T>
constexpr bool unsupported = false;
}
// Host (PCIe) memory and reads issued by raw NoC register writes: not modelled, a compile error where used.
template <typename T = void>
FORCE_INLINE uint64_t get_system_memory_noc_addr(uint32_t, uint32_t, uint32_t, uint32_t = 0, uint8_t = 0) {
    static_assert(tensim::unsupported<T>, "tensim: not modelled: host (PCIe) memory as a NoC end point");
    return 0;
}
template <typename T = void>
FORCE_INLINE void noc_async_read_inc_num_issued(std::uint32_t, uint8_t = 0) {
    static_assert(tensim::unsupported<T>,
                  "tensim: not modelled: reads issued by raw NoC register writes (noc_async_read_inc_num_issued)");
}
template <bool DRAM, uint32_t tile_hw = 1024>
struct InterleavedAddrGenFast {
    static constexpr bool is_dram = DRAM;
    uint32_t bank_base_address;
    uint32_t page_size;
    DataFormat data_format;
    std::uint64_t get_noc_addr(const uint32_t id, const uint32_t offset = 0, uint8_t noc = noc_index) const {
        return tensim::api->noc_addr_page(1, DRAM, bank_base_address, page_size,
                                          static_cast<uint32_t>(data_format), id, offset, noc);
    }
};
template <bool DRAM>
struct InterleavedPow2AddrGen {
    static constexpr bool is_dram = DRAM;
    const uint32_t bank_base_address;
    const uint32_t log_base_2_of_page_size;
    std::uint64_t get_noc_addr(const uint32_t id, const uint32_t offset = 0, uint8_t noc = noc_index) const {
        return tensim::api->noc_addr_page(0, DRAM, bank_base_address, 1u << log_base_2_of_page_size, 0, id, offset,
                                          noc);
    }
};
template <bool DRAM>
struct InterleavedPow2AddrGenFast {
    static constexpr bool is_dram = DRAM;
    uint32_t bank_base_address;
    const uint32_t log_base_2_of_page_size;
    std::uint64_t get_noc_addr(const uint32_t id, const uint32_t offset = 0, uint8_t noc = noc_index) const {
        return tensim::api->noc_addr_page(0, DRAM, bank_base_address, 1u << log_base_2_of_page_size, 0, id, offset,
                                          noc);
    }
};
// A generator for an interleaved buffer chosen by its page size: a power of two gets the Pow2 generator (its
// log2), any other size the plain one. The two-argument runtime form takes the page size's log2 when
// `is_size_pow2`, the page size otherwise.
template <bool DRAM, uint32_t page_size>
FORCE_INLINE auto get_interleaved_addr_gen(uint32_t base_addr) {
    if constexpr (page_size != 0 && (page_size & (page_size - 1)) == 0) {
        return InterleavedPow2AddrGenFast<DRAM>{base_addr, static_cast<uint32_t>(__builtin_ctz(page_size))};
    } else {
        return InterleavedAddrGen<DRAM>{base_addr, page_size};
    }
}
template <bool DRAM, bool is_size_pow2>
FORCE_INLINE auto get_interleaved_addr_gen(uint32_t base_addr, uint32_t page_size, uint32_t log2_page_size) {
    if constexpr (is_size_pow2) {
        return InterleavedPow2AddrGen<DRAM>{base_addr, log2_page_size};
    } else {
        return InterleavedAddrGen<DRAM>{base_addr, page_size};
    }
}
template <bool DRAM, bool is_size_pow2>
FORCE_INLINE auto get_interleaved_addr_gen(uint32_t base_addr, uint32_t size) {
    if constexpr (is_size_pow2) {
        return InterleavedPow2AddrGen<DRAM>{base_addr, size};
    } else {
        return InterleavedAddrGen<DRAM>{base_addr, size};
    }
}

namespace tensim {
template <typename G>
struct Gen;
template <bool D>
struct Gen<InterleavedAddrGen<D>> {
    static constexpr uint32_t kind = 0, dram = D;
    static uint32_t page(const InterleavedAddrGen<D>& g) { return g.page_size; }
    static uint32_t format(const InterleavedAddrGen<D>&) { return 0; }
};
template <bool D, uint32_t H>
struct Gen<InterleavedAddrGenFast<D, H>> {
    static constexpr uint32_t kind = 1, dram = D;
    static uint32_t page(const InterleavedAddrGenFast<D, H>& g) { return g.page_size; }
    static uint32_t format(const InterleavedAddrGenFast<D, H>& g) { return static_cast<uint32_t>(g.data_format); }
};
template <bool D>
struct Gen<InterleavedPow2AddrGen<D>> {
    static constexpr uint32_t kind = 0, dram = D;
    static uint32_t page(const InterleavedPow2AddrGen<D>& g) { return 1u << g.log_base_2_of_page_size; }
    static uint32_t format(const InterleavedPow2AddrGen<D>&) { return 0; }
};
template <bool D>
struct Gen<InterleavedPow2AddrGenFast<D>> {
    static constexpr uint32_t kind = 0, dram = D;
    static uint32_t page(const InterleavedPow2AddrGenFast<D>& g) { return 1u << g.log_base_2_of_page_size; }
    static uint32_t format(const InterleavedPow2AddrGenFast<D>&) { return 0; }
};
template <typename G, typename = void>
struct has_get_noc_addr : std::false_type {};
template <typename G>
struct has_get_noc_addr<G, std::void_t<decltype(std::declval<const G&>().get_noc_addr(0u))>> : std::true_type {};
inline uint32_t ptr(uint32_t a) { return a; }
inline uint32_t ptr(const volatile void* p) { return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p)); }
}  // namespace tensim

// NoC addresses.
FORCE_INLINE uint64_t get_noc_addr(uint32_t noc_x, uint32_t noc_y, uint32_t addr, uint8_t noc = noc_index) {
    return tensim::api->noc_addr_xy(noc_x, noc_y, addr, noc);
}
FORCE_INLINE uint64_t get_noc_addr(uint32_t addr, uint8_t noc = noc_index) {
    return tensim::api->noc_addr_xy(my_x[noc], my_y[noc], addr, noc);
}
// A packed coordinate (y << 6 | x, as NOC_XY_ENCODING packs it) and a local address.
#ifndef NOC_XY_ENCODING
#define NOC_XY_ENCODING(x, y) ((((uint32_t)(y)) << 6) | ((uint32_t)(x)))
#endif
FORCE_INLINE uint64_t get_noc_addr_helper(uint32_t noc_xy, uint32_t addr) {
    return tensim::api->noc_addr_xy(noc_xy & 0x3f, (noc_xy >> 6) & 0x3f, addr, noc_index);
}
template <typename AddrGen, typename = std::enable_if_t<tensim::has_get_noc_addr<AddrGen>::value>>
FORCE_INLINE uint64_t get_noc_addr(const uint32_t id, const AddrGen& s, uint32_t offset = 0, uint8_t noc = noc_index) {
    return s.get_noc_addr(id, offset, noc);
}
template <bool DRAM>
FORCE_INLINE uint64_t get_noc_addr_from_bank_id(uint32_t bank_id, uint32_t bank_address_offset, uint8_t noc = noc_index) {
    return tensim::api->noc_addr_bank(DRAM, bank_id, bank_address_offset, noc);
}
FORCE_INLINE uint64_t get_noc_multicast_addr(uint32_t x_start, uint32_t y_start, uint32_t x_end, uint32_t y_end,
                                             uint32_t addr, uint8_t noc = noc_index) {
    return tensim::api->noc_addr_mcast(x_start, y_start, x_end, y_end, addr, noc);
}

// Reads.
template <uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, bool enable_noc_tracing = true>
FORCE_INLINE void noc_async_read(uint64_t src_noc_addr, uint32_t dst_local_l1_addr, uint32_t size,
                                 uint8_t noc = noc_index, uint32_t read_req_vc = NOC_UNICAST_WRITE_VC) {
    tensim::api->read(src_noc_addr, dst_local_l1_addr, size, noc);
}
template <bool enable_noc_tracing = true>
FORCE_INLINE void noc_async_read_one_packet(uint64_t src_noc_addr, uint32_t dst_local_l1_addr, uint32_t size,
                                            uint8_t noc = noc_index, uint32_t read_req_vc = NOC_UNICAST_WRITE_VC) {
    tensim::api->read(src_noc_addr, dst_local_l1_addr, size, noc);
}
template <typename AddrGen, bool enable_noc_tracing = true>
FORCE_INLINE void noc_async_read_page(const uint32_t id, const AddrGen& g, uint32_t dst_local_l1_addr,
                                      uint32_t offset = 0, uint8_t noc = noc_index) {
    using G = tensim::Gen<AddrGen>;
    tensim::api->read_page(G::kind, G::dram, g.bank_base_address, G::page(g), G::format(g), id, dst_local_l1_addr,
                           offset, noc);
}
template <typename AddrGen>
FORCE_INLINE void noc_async_read_tile(const uint32_t id, const AddrGen& g, uint32_t dst_local_l1_addr,
                                      uint32_t offset = 0, uint8_t noc = noc_index) {
    noc_async_read_page(id, g, dst_local_l1_addr, offset, noc);
}

// Writes.
template <uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, bool enable_noc_tracing = true, bool posted = false>
FORCE_INLINE void noc_async_write(uint32_t src_local_l1_addr, uint64_t dst_noc_addr, uint32_t size,
                                  uint8_t noc = noc_index, uint32_t vc = NOC_UNICAST_WRITE_VC) {
    tensim::api->write_vc(src_local_l1_addr, dst_noc_addr, size, noc, posted, vc);
}
template <bool enable_noc_tracing = true, bool posted = false>
FORCE_INLINE void noc_async_write_one_packet(uint32_t src_local_l1_addr, uint64_t dst_noc_addr, uint32_t size,
                                             uint8_t noc = noc_index, uint32_t vc = NOC_UNICAST_WRITE_VC) {
    tensim::api->write_vc(src_local_l1_addr, dst_noc_addr, size, noc, posted, vc);
}
template <typename AddrGen, bool enable_noc_tracing = true, bool posted = false>
FORCE_INLINE void noc_async_write_page(const uint32_t id, const AddrGen& g, uint32_t src_local_l1_addr,
                                       uint32_t size = 0, uint32_t offset = 0, uint8_t noc = noc_index) {
    using G = tensim::Gen<AddrGen>;
    if (offset > 0xFFFFFF) tensim::fail("noc_async_write_page: a byte offset of 16 MiB or more into a page");
    tensim::api->write_page(G::kind, G::dram, g.bank_base_address, G::page(g), G::format(g), id, src_local_l1_addr,
                            size, uint32_t(noc & 1) | uint32_t(posted) << 1 | offset << 8);
}
template <typename AddrGen>
FORCE_INLINE void noc_async_write_tile(const uint32_t id, const AddrGen& g, uint32_t src_local_l1_addr,
                                       uint8_t noc = noc_index) {
    noc_async_write_page(id, g, src_local_l1_addr, 0, 0, noc);
}

// Multicast.
template <uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1>
FORCE_INLINE void noc_async_write_multicast(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast, uint32_t size,
                                            uint32_t num_dests, bool linked = false, uint8_t noc = noc_index,
                                            uint8_t vc = NOC_MULTICAST_WRITE_VC) {
    tensim::api->write_mcast(src_local_l1_addr, dst_noc_addr_multicast, size, num_dests, linked, 0, noc);
}
FORCE_INLINE void noc_async_write_multicast_one_packet(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast,
                                                       uint32_t size, uint32_t num_dests, bool linked = false,
                                                       uint8_t noc = noc_index) {
    tensim::api->write_mcast(src_local_l1_addr, dst_noc_addr_multicast, size, num_dests, linked, 0, noc);
}
FORCE_INLINE void noc_async_write_multicast_loopback_src(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast,
                                                         uint32_t size, uint32_t num_dests, bool linked = false,
                                                         uint8_t noc = noc_index) {
    tensim::api->write_mcast(src_local_l1_addr, dst_noc_addr_multicast, size, num_dests, linked, 1, noc);
}

// Barriers.
FORCE_INLINE void noc_async_read_barrier(uint8_t noc = noc_index) { tensim::api->barrier(0, noc); }
FORCE_INLINE void noc_async_write_barrier(uint8_t noc = noc_index) { tensim::api->barrier(1, noc); }
FORCE_INLINE void noc_async_writes_flushed(uint8_t noc = noc_index) { tensim::api->barrier(2, noc); }
FORCE_INLINE void noc_async_posted_writes_flushed(uint8_t noc = noc_index) { tensim::api->barrier(3, noc); }
FORCE_INLINE void noc_async_atomic_barrier(uint8_t noc = noc_index) { tensim::api->barrier(4, noc); }
FORCE_INLINE void noc_async_full_barrier(uint8_t noc = noc_index) { tensim::api->barrier(5, noc); }

// Command-buffer state (`*_set_state` once, then cheaper `*_with_state` calls giving local addresses only).
template <bool use_vc = false>
FORCE_INLINE void noc_async_read_one_packet_set_state(uint64_t src_noc_addr, uint32_t size, const uint32_t vc = 0,
                                                      uint8_t noc = noc_index) {
    tensim::api->noc_state(0, src_noc_addr, size, 0, 0);
}
template <bool inc_num_issued = true, bool use_vc = false>
FORCE_INLINE void noc_async_read_one_packet_with_state(uint32_t src_local_l1_addr, uint32_t dst_local_l1_addr,
                                                       const uint32_t vc = 0, uint8_t noc = noc_index) {
    tensim::api->noc_state(1, 0, src_local_l1_addr, dst_local_l1_addr, 0);
}
FORCE_INLINE void noc_async_read_set_state(uint64_t src_noc_addr, uint8_t noc = noc_index) {
    tensim::api->noc_state(2, src_noc_addr, 0, 0, 0);
}
template <bool inc_num_issued = true>
FORCE_INLINE void noc_async_read_with_state(uint32_t src_local_l1_addr, uint32_t dst_local_l1_addr, uint32_t size,
                                            uint8_t noc = noc_index) {
    tensim::api->noc_state(3, 0, src_local_l1_addr, dst_local_l1_addr, size);
}
template <bool posted = false>
FORCE_INLINE void noc_async_write_one_packet_set_state(uint64_t dst_noc_addr, uint32_t size, uint8_t noc = noc_index,
                                                       uint8_t vc = NOC_UNICAST_WRITE_VC) {
    tensim::api->noc_state(4, dst_noc_addr, size, uint32_t(posted) | uint32_t(vc) << 8, 0);
}
template <bool posted = false>
FORCE_INLINE void noc_async_write_one_packet_with_state(uint32_t src_local_l1_addr, uint32_t dst_local_l1_addr,
                                                        uint8_t noc = noc_index) {
    tensim::api->noc_state(5, 0, src_local_l1_addr, dst_local_l1_addr, 0);
}

// Transaction ids (0..15): reads and writes carry the id last set on their command buffer (0 until set),
// and the *_with_trid barriers wait only for the transactions with their id.
FORCE_INLINE void noc_async_read_set_trid(uint32_t trid = 0, uint8_t noc = noc_index) {
    tensim::api->noc_state(6, 0, trid, 0, 0);
}
FORCE_INLINE void noc_async_write_set_trid(uint32_t trid = 0, uint8_t noc = noc_index) {
    tensim::api->noc_state(6, 0, trid, 1, 0);
}
FORCE_INLINE void noc_async_read_barrier_with_trid(uint32_t trid, uint8_t noc = noc_index) {
    tensim::api->noc_state(7, 0, trid, 0, 0);
}
FORCE_INLINE void noc_async_write_barrier_with_trid(uint32_t trid, uint8_t noc = noc_index) {
    tensim::api->noc_state(8, 0, trid, 0, 0);
}
FORCE_INLINE void noc_async_write_flushed_with_trid(uint32_t trid, uint8_t noc = noc_index) {
    tensim::api->noc_state(9, 0, trid, 0, 0);
}
template <bool skip_ptr_update = false, bool skip_cmdbuf_chk = false>
FORCE_INLINE void noc_async_read_one_packet_with_state_with_trid(uint32_t src_base_addr, uint32_t src_addr,
                                                                 uint32_t dest_addr, uint32_t trid = 0,
                                                                 uint8_t noc = noc_index) {
    noc_async_read_set_trid(trid, noc);
    tensim::api->noc_state(1, 0, src_base_addr + src_addr, dest_addr, 0);
}
template <bool update_counter = true, bool posted = false>
FORCE_INLINE void noc_async_write_one_packet_with_trid(uint32_t src_local_l1_addr, uint64_t dst_noc_addr, uint32_t size,
                                                       uint32_t trid, uint8_t cmd_buf = 0, uint8_t noc = noc_index,
                                                       uint8_t vc = NOC_UNICAST_WRITE_VC) {
    noc_async_write_set_trid(trid, noc);
    noc_async_write_one_packet(src_local_l1_addr, dst_noc_addr, size, noc);
}
template <bool posted = false>
FORCE_INLINE void noc_async_write_one_packet_with_trid_set_state(uint64_t dst_noc_addr, uint8_t cmd_buf = 0,
                                                                 uint8_t noc = noc_index,
                                                                 uint8_t vc = NOC_UNICAST_WRITE_VC) {
    tensim::api->noc_state(10, dst_noc_addr, posted ? 1 : 0, 0, 0);
}
FORCE_INLINE void noc_async_write_one_packet_with_trid_with_state(uint32_t src_local_l1_addr, uint32_t dst_local_addr,
                                                                  uint32_t size, uint32_t trid, uint8_t cmd_buf = 0,
                                                                  uint8_t noc = noc_index) {
    tensim::api->noc_state(11, (uint64_t(trid) << 32) | size, src_local_l1_addr, dst_local_addr, 0);
}

// Semaphores.
template <typename P>
FORCE_INLINE void noc_semaphore_set(P sem_addr, uint32_t val) { tensim::api->sem_set(tensim::ptr(sem_addr), val); }
template <typename P>
FORCE_INLINE void noc_semaphore_wait(P sem_addr, uint32_t val) { tensim::api->sem_wait(tensim::ptr(sem_addr), val, 0); }
template <typename P>
FORCE_INLINE void noc_semaphore_wait_min(P sem_addr, uint32_t val) {
    tensim::api->sem_wait(tensim::ptr(sem_addr), val, 1);
}
template <bool posted = false>
FORCE_INLINE void noc_semaphore_inc(uint64_t addr, uint32_t incr, uint8_t noc_id = noc_index,
                                    uint8_t vc = NOC_UNICAST_WRITE_VC) {
    tensim::api->sem_inc(addr, incr, uint32_t(noc_id) | uint32_t(posted) << 8 | uint32_t(vc) << 16);
}
FORCE_INLINE void noc_semaphore_set_remote(uint32_t src_local_l1_addr, uint64_t dst_noc_addr, uint8_t noc = noc_index) {
    tensim::api->sem_set_remote(src_local_l1_addr, dst_noc_addr, noc);
}
FORCE_INLINE void noc_semaphore_set_multicast(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast,
                                              uint32_t num_dests, bool linked = false, uint8_t noc = noc_index,
                                              uint8_t vc = NOC_MULTICAST_WRITE_VC) {
    tensim::api->sem_set_mcast(src_local_l1_addr, dst_noc_addr_multicast, num_dests, linked, 0, noc);
}
FORCE_INLINE void noc_semaphore_set_multicast_loopback_src(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast,
                                                           uint32_t num_dests, bool linked = false,
                                                           uint8_t noc = noc_index) {
    tensim::api->sem_set_mcast(src_local_l1_addr, dst_noc_addr_multicast, num_dests, linked, 1, noc);
}
// An atomic increment on every core of a multicast rectangle (timed as one increment per destination).
FORCE_INLINE void noc_semaphore_inc_multicast(uint64_t dst_noc_addr_multicast, uint32_t incr, uint32_t num_dests,
                                              uint8_t noc = noc_index) {
    tensim::api->noc_state(12, dst_noc_addr_multicast, incr, num_dests, noc);
}
// Inline (register-sourced) writes of one 32-bit word; `be` enables bytes 0..3 of it. Two spellings: the 2024
// one (template <bool write_to_stream_reg, bool posted>) and today's (template <InlineWriteDst, bool posted,
// bool flush>), both with today's arguments. `customized_src_addr` (a Blackhole scratch word) and `flush` do
// not change what tensim does.
enum class InlineWriteDst : uint8_t { DEFAULT, L1, REG };
namespace tensim_detail {
FORCE_INLINE void inline_write(uint64_t addr, uint32_t val, uint8_t be, uint8_t noc, bool posted, uint8_t vc) {
    tensim::api->inline_write(addr, val,
                              uint32_t(noc) | uint32_t(be) << 8 | uint32_t(posted) << 16 | uint32_t(vc) << 24);
}
}  // namespace tensim_detail
template <bool write_to_stream_reg = false, bool posted = false, bool flush = true>
FORCE_INLINE void noc_inline_dw_write(uint64_t addr, uint32_t val, uint8_t be = 0xF, uint8_t noc = noc_index,
                                      uint8_t vc = NOC_UNICAST_WRITE_VC, uint32_t customized_src_addr = 0) {
    static_assert(!write_to_stream_reg, "tensim: not modelled: inline writes to stream registers");
    (void)customized_src_addr;
    tensim_detail::inline_write(addr, val, be, noc, posted, vc);
}
template <InlineWriteDst dst_type, bool posted = false, bool flush = true>
FORCE_INLINE void noc_inline_dw_write(uint64_t addr, uint32_t val, uint8_t be = 0xF, uint8_t noc = noc_index,
                                      uint8_t vc = NOC_UNICAST_WRITE_VC, uint32_t customized_src_addr = 0) {
    static_assert(dst_type != InlineWriteDst::REG, "tensim: not modelled: inline writes to stream registers");
    (void)customized_src_addr;
    tensim_detail::inline_write(addr, val, be, noc, posted, vc);
}
// The command buffers a RISC's NoC calls use (tensim keys the inline-write state by them).
constexpr uint8_t write_cmd_buf = 0, read_cmd_buf = 1, write_reg_cmd_buf = 2, write_at_cmd_buf = 3;
template <bool posted = false, bool set_val = false>
FORCE_INLINE void noc_inline_dw_write_set_state(uint64_t addr, uint32_t val = 0, uint8_t be = 0xF,
                                                uint8_t cmd_buf = write_at_cmd_buf, uint8_t noc = noc_index,
                                                uint8_t vc = NOC_UNICAST_WRITE_VC) {
    (void)noc;  // the kernel's own NoC's command buffers, as the calls that use them
    tensim::api->noc_state(14, addr, val, uint32_t(be) | uint32_t(set_val) << 8 | uint32_t(vc) << 16, cmd_buf);
}
template <bool update_addr_lo = false, bool update_counter = true, bool posted = false, bool update_addr_hi = false,
          bool update_val = false, InlineWriteDst dst_type = InlineWriteDst::DEFAULT>
FORCE_INLINE void noc_inline_dw_write_with_state(uint32_t val, uint32_t addr = 0, uint8_t cmd_buf = write_at_cmd_buf,
                                                 uint8_t noc = noc_index) {
    static_assert(!update_addr_hi, "tensim: noc_inline_dw_write_with_state<update_addr_hi = true> is not supported; "
                                   "set the destination core with noc_inline_dw_write_set_state");
    static_assert(dst_type != InlineWriteDst::REG, "tensim: not modelled: inline writes to stream registers");
    (void)noc;
    tensim::api->noc_state(15, addr, val,
                           uint32_t(update_addr_lo) | uint32_t(update_val) << 1 | uint32_t(posted || !update_counter) << 2,
                           cmd_buf);
}
#include "tensim/accessor.h"
