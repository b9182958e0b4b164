// tensim's fabric API for worker kernels (tt-metal's tt::tt_fabric kernel headers), written for tensim
// from the documented interface (multichip.md §4.3-4.6):
//  - WorkerToFabricEdmSender: a connection to the router on one of this chip's Ethernet cores, built from
//    the runtime args append_fabric_connection_rt_args gave; open / close / wait_for_empty_write_slot and
//    the low-level sends (payload without header, then the header with a flush);
//  - FabricConnectionManager: a forward and a backward connection, each behind a flag argument;
//  - PACKET_HEADER_TYPE with its NoC commands (to_noc_unicast_write, _atomic_inc, _fused_…) and routes
//    (fabric_set_unicast_route, to_chip_unicast / to_chip_multicast); PacketHeaderPool::allocate_header;
//  - the 1-D linear API (tt::tt_fabric::linear::experimental) and the 2-D mesh API
//    (tt::tt_fabric::mesh::experimental), which split a payload into packets.
// The header's first 32 bytes are tensim's packet encoding (sim-tensix's FabricHeader), so a header kept
// in L1 and sent again is read back as written. Every call forwards through the ABI table (op codes in
// cpp/src/abi/multichip.rs). Not modelled: scatter writes, inline writes, NoC multicast commands and
// 2-D multicast (the calls are not declared, so a kernel using them does not compile).
#pragma once
#include "dataflow_api.h"

namespace tt::tt_fabric {

enum NocSendType : uint8_t {
    NOC_UNICAST_WRITE = 0,
    NOC_UNICAST_INLINE_WRITE = 1,
    NOC_UNICAST_ATOMIC_INC = 2,
    NOC_FUSED_UNICAST_ATOMIC_INC = 3,
    NOC_UNICAST_SCATTER_WRITE = 4,
    NOC_MULTICAST_WRITE = 5,
    NOC_MULTICAST_ATOMIC_INC = 6,
};

struct NocUnicastCommandHeader {
    uint64_t noc_address;
};
struct NocUnicastAtomicIncCommandHeader {
    uint64_t noc_address;
    uint32_t val;
    bool flush = true;
    NocUnicastAtomicIncCommandHeader(uint64_t a, uint32_t v, bool f = true) : noc_address(a), val(v), flush(f) {}
    NocUnicastAtomicIncCommandHeader(uint64_t a, uint32_t v, uint16_t /*wrap*/, bool f)
        : noc_address(a), val(v), flush(f) {}
};
struct NocUnicastAtomicIncFusedCommandHeader {
    uint64_t noc_address;
    uint64_t semaphore_noc_address;
    uint32_t val;
    bool flush = true;
    NocUnicastAtomicIncFusedCommandHeader(uint64_t a, uint64_t s, uint32_t v, bool f = true)
        : noc_address(a), semaphore_noc_address(s), val(v), flush(f) {}
    NocUnicastAtomicIncFusedCommandHeader(uint64_t a, uint64_t s, uint32_t v, uint16_t /*wrap*/, bool f)
        : noc_address(a), semaphore_noc_address(s), val(v), flush(f) {}
};
struct MulticastRoutingCommandHeader {
    uint8_t start_distance_in_hops;
    uint8_t range_hops;
};

// tensim's encoding in the first 32 bytes; the rest pads to the fabric's header size (48 B for the 1-D
// low-latency header, 96 B for the default 2-D header).
struct alignas(16) PacketHeader {
    uint8_t noc_send_type;
    uint8_t start_distance;  // 1-D route: hops before the first chip that executes the command
    uint8_t range;           // 1-D route: chips that execute it
    uint8_t hops_done;
    uint32_t payload_size_bytes;
    uint64_t noc_address;
    uint64_t semaphore_noc_address;
    uint32_t val;
    uint8_t route_kind;  // 0 line (hops), 1 mesh (destination device)
    uint8_t dst_dev_id;
    uint16_t dst_mesh_id;
#ifdef FABRIC_2D
    uint8_t padding[64];
#else
    uint8_t padding[16];
#endif

    volatile PacketHeader* self() volatile { return this; }
    volatile PacketHeader* to_chip_unicast(uint8_t num_hops) volatile {
        route_kind = 0;
        start_distance = num_hops;
        range = 1;
        return this;
    }
    volatile PacketHeader* to_chip_multicast(const MulticastRoutingCommandHeader& m) volatile {
        route_kind = 0;
        start_distance = m.start_distance_in_hops;
        range = m.range_hops;
        return this;
    }
    volatile PacketHeader* to_noc_unicast_write(const NocUnicastCommandHeader& c, std::size_t size) volatile {
        noc_send_type = NOC_UNICAST_WRITE;
        noc_address = c.noc_address;
        payload_size_bytes = static_cast<uint32_t>(size);
        return this;
    }
    volatile PacketHeader* to_noc_unicast_atomic_inc(const NocUnicastAtomicIncCommandHeader& c) volatile {
        noc_send_type = NOC_UNICAST_ATOMIC_INC;
        semaphore_noc_address = c.noc_address;
        val = c.val;
        payload_size_bytes = 0;
        return this;
    }
    volatile PacketHeader* to_noc_fused_unicast_write_atomic_inc(const NocUnicastAtomicIncFusedCommandHeader& c,
                                                                 std::size_t size) volatile {
        noc_send_type = NOC_FUSED_UNICAST_ATOMIC_INC;
        noc_address = c.noc_address;
        semaphore_noc_address = c.semaphore_noc_address;
        val = c.val;
        payload_size_bytes = static_cast<uint32_t>(size);
        return this;
    }
    std::size_t get_payload_size_including_header() volatile const { return payload_size_bytes + sizeof(PacketHeader); }
};
using LowLatencyPacketHeader = PacketHeader;
using HybridMeshPacketHeader = PacketHeader;
using MeshPacketHeader = PacketHeader;

// 1-D: `num_hops` along the connection's line, written on the chip there.
template <bool = false>
inline void fabric_set_unicast_route(volatile PacketHeader* h, uint8_t num_hops) {
    h->to_chip_unicast(num_hops);
}
// 2-D: the destination device (its row-major index in the mesh) of mesh `dst_mesh_id`.
inline void fabric_set_unicast_route(volatile PacketHeader* h, uint16_t dst_dev_id, uint16_t dst_mesh_id) {
    h->route_kind = 1;
    h->dst_dev_id = static_cast<uint8_t>(dst_dev_id);
    h->dst_mesh_id = dst_mesh_id;
}
inline void fabric_set_mcast_route(volatile PacketHeader* h, uint8_t start_distance, uint8_t range) {
    h->to_chip_multicast(MulticastRoutingCommandHeader{start_distance, range});
}

}  // namespace tt::tt_fabric

#define PACKET_HEADER_TYPE tt::tt_fabric::PacketHeader

namespace tensim {
inline uint32_t fabric_call(uint32_t op, uint32_t* conn, const uint64_t* p) { return api->fabric(op, conn, p); }
// The send description of a header (see SEND_WORDS in cpp/src/abi/multichip.rs).
inline void fabric_describe(uint64_t* p, const volatile tt::tt_fabric::PacketHeader* h, uint32_t hdr_addr,
                            uint32_t src, uint32_t size) {
    p[0] = h->noc_send_type;
    p[1] = h->noc_address;
    p[2] = h->semaphore_noc_address;
    p[3] = h->val;
    p[4] = h->route_kind;
    p[5] = h->route_kind ? h->dst_dev_id : h->start_distance;
    p[6] = h->route_kind ? h->dst_mesh_id : h->range;
    p[7] = hdr_addr;
    p[8] = src;
    p[9] = size;
}
}  // namespace tensim

namespace tt::tt_fabric {

// A worker's connection to one router (words: the connection's runtime args, then packets written).
class WorkerToFabricEdmSender {
public:
    template <ProgrammableCoreType = ProgrammableCoreType::TENSIX>
    static WorkerToFabricEdmSender build_from_args(std::size_t& arg_idx) {
        WorkerToFabricEdmSender s;
        uint64_t p[1] = {arg_idx};
        arg_idx = tensim::fabric_call(0, s.words_, p);
        s.built_ = true;
        return s;
    }
    bool is_logically_connected() const { return built_; }
    void open() { tensim::fabric_call(1, words_, nullptr); }
    void open_start() { open(); }
    void open_finish() {}
    void close() { tensim::fabric_call(2, words_, nullptr); }
    void close_start() { close(); }
    void close_finish() {}
    void wait_for_empty_write_slot() { tensim::fabric_call(3, words_, nullptr); }
    // The payload goes out with the header (send_payload_flush_…): it must be one packet.
    void send_payload_without_header_non_blocking_from_address(uint32_t src, std::size_t size) {
        pending_src_ = src;
        pending_size_ = static_cast<uint32_t>(size);
        pending_ = true;
    }
    void send_payload_non_blocking_from_address(uint32_t src, std::size_t size) {
        send_payload_without_header_non_blocking_from_address(src, size);
    }
    // The header at `hdr` (its command and route) with the payload given before, if any.
    void send_payload_flush_blocking_from_address(uint32_t hdr, std::size_t /*header bytes*/) { send_header(hdr); }
    void send_payload_flush_non_blocking_from_address(uint32_t hdr, std::size_t bytes) {
        send_payload_flush_blocking_from_address(hdr, bytes);
    }
    void send_payload_blocking_from_address(uint32_t hdr, std::size_t bytes) {
        send_payload_flush_blocking_from_address(hdr, bytes);
    }
    // Used by the linear and mesh calls: `size` bytes from `src` split into packets, described by `h` (built
    // on the stack, so it costs no L1 stores: tensim writes the header at `hdr` as each packet goes, as the
    // Rust calls do).
    void send_split(const PacketHeader& h, uint32_t hdr, uint32_t src, uint32_t size) {
        uint64_t p[10];
        tensim::fabric_describe(p, &h, hdr, src, size);
        tensim::fabric_call(5, words_, p);
    }

private:
    void send_header(uint32_t hdr) {
        const volatile PacketHeader* h = reinterpret_cast<const volatile PacketHeader*>(static_cast<uintptr_t>(hdr));
        uint64_t p[10];
        tensim::fabric_describe(p, h, hdr, pending_src_, h->payload_size_bytes);
        // tensim checks that the payload given matches the header's (bit 63: a payload was given).
        p[8] = pending_ ? (uint64_t(1) << 63) | (uint64_t(pending_size_) << 32) | pending_src_ : 0;
        pending_ = false;
        tensim::fabric_call(4, words_, p);
    }
    uint32_t words_[9] = {};
    bool built_ = false;
    bool pending_ = false;
    uint32_t pending_src_ = 0, pending_size_ = 0;
};
using WorkerToFabricEdmSenderImpl = WorkerToFabricEdmSender;

// Forward and backward connections, each preceded in the args by a flag word (1: present).
class FabricConnectionManager {
public:
    enum BuildFromArgsMode : uint8_t { BUILD_ONLY, BUILD_AND_OPEN_CONNECTION, BUILD_AND_OPEN_CONNECTION_START_ONLY };
    template <BuildFromArgsMode mode = BUILD_ONLY>
    static FabricConnectionManager build_from_args(std::size_t& arg_idx) {
        FabricConnectionManager m;
        m.has_fwd_ = get_arg_val<uint32_t>(arg_idx++) != 0;
        if (m.has_fwd_) m.fwd_ = WorkerToFabricEdmSender::build_from_args(arg_idx);
        m.has_bwd_ = get_arg_val<uint32_t>(arg_idx++) != 0;
        if (m.has_bwd_) m.bwd_ = WorkerToFabricEdmSender::build_from_args(arg_idx);
        if (mode != BUILD_ONLY) m.open();
        return m;
    }
    bool is_logically_connected() const { return has_fwd_ || has_bwd_; }
    bool has_forward_connection() const { return has_fwd_; }
    bool has_backward_connection() const { return has_bwd_; }
    WorkerToFabricEdmSender& get_forward_connection() { return fwd_; }
    WorkerToFabricEdmSender& get_backward_connection() { return bwd_; }
    void open() {
        if (has_fwd_) fwd_.open();
        if (has_bwd_) bwd_.open();
    }
    void open_start() { open(); }
    void open_finish() {}
    void close() {
        if (has_fwd_) fwd_.close();
        if (has_bwd_) bwd_.close();
    }

private:
    bool has_fwd_ = false, has_bwd_ = false;
    WorkerToFabricEdmSender fwd_, bwd_;
};

// Headers in this RISC's reserved pool of L1 (12 of them per RISC).
struct PacketHeaderPool {
    static volatile PACKET_HEADER_TYPE* allocate_header(uint8_t = 1) {
        return reinterpret_cast<volatile PACKET_HEADER_TYPE*>(
            static_cast<uintptr_t>(tensim::fabric_call(6, nullptr, nullptr)));
    }
};

namespace linear::experimental {
// 1-D: `num_hops` (unicast) or chips start_distance .. start_distance + range - 1 hops away (multicast).
inline void fabric_unicast_noc_unicast_write(WorkerToFabricEdmSender* c, volatile PacketHeader* h, uint32_t src,
                                             uint32_t size, NocUnicastCommandHeader cmd, uint8_t num_hops) {
    PacketHeader l{};
    l.to_chip_unicast(num_hops)->to_noc_unicast_write(cmd, size);
    c->send_split(l, tensim::ptr(h), src, size);
}
inline void fabric_multicast_noc_unicast_write(WorkerToFabricEdmSender* c, volatile PacketHeader* h, uint32_t src,
                                               uint32_t size, NocUnicastCommandHeader cmd, uint8_t start_distance,
                                               uint8_t range) {
    PacketHeader l{};
    l.to_chip_multicast({start_distance, range})->to_noc_unicast_write(cmd, size);
    c->send_split(l, tensim::ptr(h), src, size);
}
inline void fabric_unicast_noc_unicast_atomic_inc(WorkerToFabricEdmSender* c, volatile PacketHeader* h,
                                                  NocUnicastAtomicIncCommandHeader cmd, uint8_t num_hops) {
    PacketHeader l{};
    l.to_chip_unicast(num_hops)->to_noc_unicast_atomic_inc(cmd);
    c->send_split(l, tensim::ptr(h), 0, 0);
}
inline void fabric_multicast_noc_unicast_atomic_inc(WorkerToFabricEdmSender* c, volatile PacketHeader* h,
                                                    NocUnicastAtomicIncCommandHeader cmd, uint8_t start_distance,
                                                    uint8_t range) {
    PacketHeader l{};
    l.to_chip_multicast({start_distance, range})->to_noc_unicast_atomic_inc(cmd);
    c->send_split(l, tensim::ptr(h), 0, 0);
}
inline void fabric_unicast_noc_fused_unicast_with_atomic_inc(WorkerToFabricEdmSender* c, volatile PacketHeader* h,
                                                             uint32_t src, uint32_t size,
                                                             NocUnicastAtomicIncFusedCommandHeader cmd,
                                                             uint8_t num_hops) {
    PacketHeader l{};
    l.to_chip_unicast(num_hops)->to_noc_fused_unicast_write_atomic_inc(cmd, size);
    c->send_split(l, tensim::ptr(h), src, size);
}
inline void fabric_multicast_noc_fused_unicast_with_atomic_inc(WorkerToFabricEdmSender* c, volatile PacketHeader* h,
                                                               uint32_t src, uint32_t size,
                                                               NocUnicastAtomicIncFusedCommandHeader cmd,
                                                               uint8_t start_distance, uint8_t range) {
    PacketHeader l{};
    l.to_chip_multicast({start_distance, range})->to_noc_fused_unicast_write_atomic_inc(cmd, size);
    c->send_split(l, tensim::ptr(h), src, size);
}
}  // namespace linear::experimental

namespace mesh::experimental {
// 2-D: to device `dst_dev_id` of mesh `dst_mesh_id`, routed dimension-ordered (X first).
inline void fabric_unicast_noc_unicast_write(WorkerToFabricEdmSender* c, volatile PacketHeader* h, uint8_t dst_dev_id,
                                             uint16_t dst_mesh_id, uint32_t src, uint32_t size,
                                             NocUnicastCommandHeader cmd) {
    PacketHeader l{};
    fabric_set_unicast_route(&l, dst_dev_id, dst_mesh_id);
    l.to_noc_unicast_write(cmd, size);
    c->send_split(l, tensim::ptr(h), src, size);
}
inline void fabric_unicast_noc_unicast_atomic_inc(WorkerToFabricEdmSender* c, volatile PacketHeader* h,
                                                  uint8_t dst_dev_id, uint16_t dst_mesh_id,
                                                  NocUnicastAtomicIncCommandHeader cmd) {
    PacketHeader l{};
    fabric_set_unicast_route(&l, dst_dev_id, dst_mesh_id);
    l.to_noc_unicast_atomic_inc(cmd);
    c->send_split(l, tensim::ptr(h), 0, 0);
}
inline void fabric_unicast_noc_fused_unicast_with_atomic_inc(WorkerToFabricEdmSender* c, volatile PacketHeader* h,
                                                             uint8_t dst_dev_id, uint16_t dst_mesh_id, uint32_t src,
                                                             uint32_t size, NocUnicastAtomicIncFusedCommandHeader cmd) {
    PacketHeader l{};
    fabric_set_unicast_route(&l, dst_dev_id, dst_mesh_id);
    l.to_noc_fused_unicast_write_atomic_inc(cmd, size);
    c->send_split(l, tensim::ptr(h), src, size);
}
}  // namespace mesh::experimental

}  // namespace tt::tt_fabric
