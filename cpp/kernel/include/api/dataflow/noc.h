// The object-style NoC API (tt-metal's api/dataflow/noc.h), written for tensim from the documented
// interface. A `Noc` moves bytes between endpoints — TensorAccessors, circular buffers, core-local memory,
// unicast and multicast endpoints, allocator banks — each described by its `noc_traits_t`. Every method is
// the classic call it stands for (dataflow_api.h), so an object-style kernel times exactly as the classic
// one.
#pragma once
#include "api/dataflow/dataflow_api.h"

struct DataflowBufferArgs {
    uint32_t offset_bytes{};
};

// What a type means as an endpoint of a transfer. Each specialisation gives the argument aggregates
// (src_args_type, dst_args_type, and dst_args_mcast_type where it can be a multicast destination) and the
// addresses they stand for: `noc_addr(endpoint, args, noc)` where it can be the NoC side of a transfer,
// `local_addr(endpoint, args)` where it can be the local L1 side, `mcast_addr(endpoint, args, noc)`.
template <typename T>
struct noc_traits_t {
    static_assert(sizeof(T) == 0, "NoC transactions are not supported for this type");
};

enum class NocOptions : uint32_t {
    DEFAULT = 0,
    TXN_ID = 1,
    POSTED = 2,
    CUSTOM_VC = 4,
    MCAST_INCL_SRC = 8,
    INLINE_L1 = 16,
    INLINE_REG = 32,
};
constexpr NocOptions operator|(NocOptions a, NocOptions b) noexcept {
    return static_cast<NocOptions>(static_cast<uint32_t>(a) | static_cast<uint32_t>(b));
}
constexpr bool has_flag(NocOptions opts, NocOptions flag) noexcept {
    return (static_cast<uint32_t>(opts) & static_cast<uint32_t>(flag)) != 0;
}
struct NocOptVals {
    uint32_t vc = NOC_UNICAST_WRITE_VC;
    uint32_t trid = 0;
};

template <typename T>
using src_args_t = typename noc_traits_t<T>::src_args_type;
template <typename T>
using dst_args_t = typename noc_traits_t<T>::dst_args_type;
template <typename T>
using dst_args_mcast_t = typename noc_traits_t<T>::dst_args_mcast_type;

namespace tensim::noc_obj {
template <typename T>
constexpr bool always_false = false;
template <typename T, typename A, typename = void>
struct has_noc : std::false_type {};
template <typename T, typename A>
struct has_noc<T, A, std::void_t<decltype(noc_traits_t<T>::noc_addr(std::declval<const T&>(), std::declval<const A&>(),
                                                                       uint8_t{}))>> : std::true_type {};
// The NoC address an endpoint stands for (it must be able to be the NoC side of a transfer).
template <typename T, typename A>
uint64_t noc_side(const T& e, const A& a, uint8_t noc) {
    if constexpr (has_noc<T, A>::value) {
        return noc_traits_t<T>::noc_addr(e, a, noc);
    } else {
        static_assert(always_false<T>, "this endpoint is local L1 only: it cannot be the NoC side of a transfer");
        return 0;
    }
}
template <typename T, typename A, typename = void>
struct has_local_src : std::false_type {};
template <typename T, typename A>
struct has_local_src<T, A, std::void_t<decltype(noc_traits_t<T>::local_src(std::declval<const T&>(), std::declval<const A&>()))>>
    : std::true_type {};
template <typename T, typename A, typename = void>
struct has_local_dst : std::false_type {};
template <typename T, typename A>
struct has_local_dst<T, A, std::void_t<decltype(noc_traits_t<T>::local_dst(std::declval<const T&>(), std::declval<const A&>()))>>
    : std::true_type {};
// The local L1 address an endpoint stands for as the source of a write.
template <typename T, typename A>
uint32_t local_src(const T& e, const A& a) {
    if constexpr (has_local_src<T, A>::value) {
        return noc_traits_t<T>::local_src(e, a);
    } else {
        static_assert(always_false<T>, "this endpoint is NoC only: it cannot be the local L1 side of a transfer");
        return 0;
    }
}
// The local L1 address an endpoint stands for as the destination of a read.
template <typename T, typename A>
uint32_t local_dst(const T& e, const A& a) {
    if constexpr (has_local_dst<T, A>::value) {
        return noc_traits_t<T>::local_dst(e, a);
    } else {
        static_assert(always_false<T>, "this endpoint is NoC only: it cannot be the local L1 side of a transfer");
        return 0;
    }
}
}  // namespace tensim::noc_obj

class Noc {
public:
    enum class AddressType { NOC, LOCAL_L1 };
    static constexpr uint32_t INVALID_TXN_ID = 0xFFFFFFFF;

    Noc() : noc_(noc_index) {}
    explicit Noc(uint8_t noc_id) : noc_(noc_id) {}
    uint8_t get_noc_id() const { return noc_; }
    bool is_local_bank(uint32_t virtual_x, uint32_t virtual_y) const {
        return virtual_x == my_x[noc_] && virtual_y == my_y[noc_];
    }
    bool is_local_addr(uint64_t noc_addr) const {
        uint32_t xy = tensim::api->noc_xy(noc_addr);
        return is_local_bank(xy & 0xffff, xy >> 16);
    }

    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              bool enable_noc_tracing = true, typename Src, typename Dst>
    void async_read(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                    const dst_args_t<Dst>& dst_args, const NocOptVals& o = {}) const {
        if constexpr (has_flag(opts, NocOptions::TXN_ID)) noc_async_read_set_trid(o.trid, noc_);
        noc_async_read<max_page_size, enable_noc_tracing>(tensim::noc_obj::noc_side(src, src_args, noc_),
                                                          tensim::noc_obj::local_dst(dst, dst_args), size_bytes, noc_,
                                                          vc<opts>(o));
    }
    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Src>
    void set_async_read_state(const Src& src, uint32_t size_bytes, const src_args_t<Src>& src_args,
                              const NocOptVals& o = {}) const {
        uint64_t a = tensim::noc_obj::noc_side(src, src_args, noc_);
        if constexpr (max_page_size <= NOC_MAX_BURST_SIZE) {
            noc_async_read_one_packet_set_state(a, size_bytes, vc<opts>(o), noc_);
        } else {
            noc_async_read_set_state(a, noc_);
        }
    }
    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Src,
              typename Dst>
    void async_read_with_state(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                               const dst_args_t<Dst>& dst_args, const NocOptVals& o = {}) const {
        // The source is given as its low 32 bits: the address inside the core the state names.
        uint32_t s = static_cast<uint32_t>(tensim::noc_obj::noc_side(src, src_args, noc_));
        uint32_t d = tensim::noc_obj::local_dst(dst, dst_args);
        if constexpr (max_page_size <= NOC_MAX_BURST_SIZE) {
            if constexpr (has_flag(opts, NocOptions::TXN_ID)) {
                noc_async_read_one_packet_with_state_with_trid(0, s, d, o.trid, noc_);
            } else {
                noc_async_read_one_packet_with_state(s, d, vc<opts>(o), noc_);
            }
        } else {
            static_assert(!has_flag(opts, NocOptions::TXN_ID), "async_read_with_state: TXN_ID needs one packet");
            noc_async_read_with_state(s, d, size_bytes, noc_);
        }
    }
    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              bool enable_noc_tracing = true, typename Src, typename Dst>
    void async_write(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                     const dst_args_t<Dst>& dst_args, const NocOptVals& o = {}) const {
        uint32_t s = tensim::noc_obj::local_src(src, src_args);
        uint64_t d = tensim::noc_obj::noc_side(dst, dst_args, noc_);
        constexpr bool posted = has_flag(opts, NocOptions::POSTED);
        if constexpr (has_flag(opts, NocOptions::TXN_ID)) {
            noc_async_write_one_packet_with_trid<true, posted>(s, d, size_bytes, o.trid, 0, noc_, vc<opts>(o));
        } else {
            noc_async_write<max_page_size, enable_noc_tracing, posted>(s, d, size_bytes, noc_, vc<opts>(o));
        }
    }
    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              bool enable_noc_tracing = true, typename Src, typename Dst>
    void async_write_multicast(const Src& src, const Dst& dst, uint32_t size_bytes, uint32_t num_dsts,
                               const src_args_t<Src>& src_args, const dst_args_mcast_t<Dst>& dst_args,
                               bool linked = false) const {
        static_assert(!has_flag(opts, NocOptions::TXN_ID) && !has_flag(opts, NocOptions::POSTED),
                      "async_write_multicast: TXN_ID and POSTED are not allowed");
        uint32_t s = tensim::noc_obj::local_src(src, src_args);
        uint64_t d = noc_traits_t<Dst>::mcast_addr(dst, dst_args, noc_);
        if constexpr (has_flag(opts, NocOptions::MCAST_INCL_SRC)) {
            noc_async_write_multicast_loopback_src(s, d, size_bytes, num_dsts, linked, noc_);
        } else {
            noc_async_write_multicast<max_page_size>(s, d, size_bytes, num_dsts, linked, noc_);
        }
    }
    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Dst>
    void set_async_write_state(const Dst& dst, uint32_t size_bytes, const dst_args_t<Dst>& dst_args,
                               const NocOptVals& o = {}) const {
        static_assert(!has_flag(opts, NocOptions::TXN_ID), "set_async_write_state: TXN_ID is not allowed");
        noc_async_write_one_packet_set_state<has_flag(opts, NocOptions::POSTED)>(
            tensim::noc_obj::noc_side(dst, dst_args, noc_), size_bytes, noc_, vc<opts>(o));
    }
    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Src,
              typename Dst>
    void async_write_with_state(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                                const dst_args_t<Dst>& dst_args, const NocOptVals& o = {}) const {
        static_assert(!has_flag(opts, NocOptions::TXN_ID), "async_write_with_state: TXN_ID is not allowed");
        noc_async_write_one_packet_with_state<has_flag(opts, NocOptions::POSTED)>(
            tensim::noc_obj::local_src(src, src_args),
            static_cast<uint32_t>(tensim::noc_obj::noc_side(dst, dst_args, noc_)), noc_);
    }
    template <NocOptions opts = NocOptions::DEFAULT, typename Dst>
    void inline_dw_write(const Dst& dst, uint32_t val, const dst_args_t<Dst>& dst_args, uint8_t be = 0xF,
                         const NocOptVals& o = {}) const {
        constexpr InlineWriteDst kind = has_flag(opts, NocOptions::INLINE_REG)  ? InlineWriteDst::REG
                                        : has_flag(opts, NocOptions::INLINE_L1) ? InlineWriteDst::L1
                                                                                : InlineWriteDst::DEFAULT;
        noc_inline_dw_write<kind, has_flag(opts, NocOptions::POSTED)>(tensim::noc_obj::noc_side(dst, dst_args, noc_),
                                                                       val, be, noc_, vc<opts>(o));
    }
    // tensim: a read with this id still outstanding makes this wait until it is done (a poll loop on
    // the answer ends at the same cycle).
    bool is_read_trid_flushed(uint32_t trid) const {
        noc_async_read_barrier_with_trid(trid, noc_);
        return true;
    }
    template <NocOptions opts = NocOptions::DEFAULT>
    void async_read_barrier(const NocOptVals& o = {}) const {
        if constexpr (has_flag(opts, NocOptions::TXN_ID)) {
            noc_async_read_barrier_with_trid(o.trid, noc_);
        } else {
            noc_async_read_barrier(noc_);
        }
    }
    template <NocOptions opts = NocOptions::DEFAULT>
    void async_write_barrier(const NocOptVals& o = {}) const {
        if constexpr (has_flag(opts, NocOptions::TXN_ID)) {
            noc_async_write_barrier_with_trid(o.trid, noc_);
        } else {
            noc_async_write_barrier(noc_);
        }
    }
    template <NocOptions opts = NocOptions::DEFAULT>
    void async_writes_flushed(const NocOptVals& o = {}) const {
        if constexpr (has_flag(opts, NocOptions::POSTED)) {
            noc_async_posted_writes_flushed(noc_);
        } else if constexpr (has_flag(opts, NocOptions::TXN_ID)) {
            noc_async_write_flushed_with_trid(o.trid, noc_);
        } else {
            noc_async_writes_flushed(noc_);
        }
    }
    void async_atomic_barrier() const { noc_async_atomic_barrier(noc_); }
    void async_full_barrier() const { noc_async_full_barrier(noc_); }
    // Zero `size_bytes` of local L1 at a circular (or dataflow) buffer's write pointer + offset: a NoC read
    // of this core's own zeros, as the hardware does it; complete with write_zeros_l1_barrier().
    template <typename Dst>
    void async_write_zeros(const Dst& dst, uint32_t size_bytes, const dst_args_t<Dst>& args = {}) const {
        tensim::api->noc_state(13, 0, tensim::noc_obj::local_dst(dst, args), size_bytes, noc_);
    }
    // Zero a page through a pre-zeroed scratch buffer (copied from its read pointer); complete with
    // write_zeros_dram_barrier().
    template <typename Acc, typename Scratch>
    void async_write_zeros(const Acc& accessor, uint32_t size_bytes, const dst_args_t<Acc>& args,
                           const Scratch& scratch) const {
        noc_async_write(scratch.get_read_ptr(), tensim::noc_obj::noc_side(accessor, args, noc_), size_bytes, noc_);
    }
    void write_zeros_l1_barrier() const { noc_async_read_barrier(noc_); }
    void write_zeros_dram_barrier() const { noc_async_write_barrier(noc_); }

private:
    template <NocOptions opts>
    static uint32_t vc(const NocOptVals& o) {
        return has_flag(opts, NocOptions::CUSTOM_VC) ? o.vc : NOC_UNICAST_WRITE_VC;
    }
    uint8_t noc_;
};

#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/endpoints.h"
#include "api/core_local_mem.h"
#include "api/tensor/noc_traits.h"
