// A circular buffer as an object (tt-metal's api/dataflow/circular_buffer.h), written for tensim: the FIFO
// calls are cb_reserve_back/cb_push_back/cb_wait_front/cb_pop_front; usable from data-movement and
// compute kernels. In a data-movement kernel it is also a local endpoint of the object NoC API (the read
// pointer as a source, the write pointer as a destination, and a multicast destination at the write
// pointer on every core of a rectangle).
#pragma once
#include "tensim/common.h"
#include "api/lock.h"

class CircularBuffer {
public:
    enum class AddrSelector { WRITE_PTR, READ_PTR };
    explicit CircularBuffer(uint32_t cb_id) : cb_id_(cb_id) {}
    uint32_t get_cb_id() const { return cb_id_; }
    void reserve_back(int32_t num_pages) { cb_reserve_back(cb_id_, num_pages); }
    void push_back(int32_t num_pages) { cb_push_back(cb_id_, num_pages); }
    void wait_front(int32_t num_pages) { cb_wait_front(cb_id_, num_pages); }
    void pop_front(int32_t num_pages) { cb_pop_front(cb_id_, num_pages); }
    uint32_t get_write_ptr() const { return tensim::api->query(0, cb_id_, 0); }
    uint32_t get_read_ptr() const { return tensim::api->query(1, cb_id_, 0); }
    uint32_t get_tile_size() const { return tensim::api->query(2, cb_id_, 0); }
    uint32_t get_tile_hw() const { return tensim::api->query(4, cb_id_, 0); }
    DataFormat get_dataformat() const { return static_cast<DataFormat>(tensim::api->query(3, cb_id_, 0)); }
    bool pages_reservable_at_back(int32_t num_pages) const { return tensim::api->query(6, cb_id_, num_pages) != 0; }
    bool pages_available_at_front(int32_t num_pages) const { return tensim::api->query(7, cb_id_, num_pages) != 0; }
    // Compute kernels: the L1 address of tile `tile_index` at the read pointer, and one 32-bit word of it.
    uint32_t get_tile_address(uint32_t tile_index) const { return get_read_ptr() + tile_index * get_tile_size(); }
    uint32_t read_tile_value(uint32_t tile_index, uint32_t element_offset) const {
        return *reinterpret_cast<volatile uint32_t*>(static_cast<uintptr_t>(get_tile_address(tile_index)) +
                                                      element_offset * sizeof(uint32_t));
    }
    [[nodiscard]] auto scoped_lock() { return Lock(); }

private:
    uint32_t cb_id_;
};

template <CircularBuffer::AddrSelector S>
struct CircularBufferView {
    const CircularBuffer& cb;
    explicit constexpr CircularBufferView(const CircularBuffer& c) : cb(c) {}
    uint32_t address() const {
        return S == CircularBuffer::AddrSelector::READ_PTR ? cb.get_read_ptr() : cb.get_write_ptr();
    }
};
template <CircularBuffer::AddrSelector S>
constexpr auto use(const CircularBuffer& cb) {
    return CircularBufferView<S>(cb);
}

#if !defined(TRISC_UNPACK) && !defined(TRISC_MATH) && !defined(TRISC_PACK)
#include "api/dataflow/noc.h"
namespace tensim::noc_obj {
struct CbArgs {
    uint32_t offset_bytes{};
};
struct CbMcastArgs {
    uint32_t noc_x_start{};
    uint32_t noc_y_start{};
    uint32_t noc_x_end{};
    uint32_t noc_y_end{};
    uint32_t offset_bytes{};
};
}  // namespace tensim::noc_obj
template <>
struct noc_traits_t<CircularBuffer> {
    using src_args_type = tensim::noc_obj::CbArgs;
    using dst_args_type = tensim::noc_obj::CbArgs;
    using dst_args_mcast_type = tensim::noc_obj::CbMcastArgs;
    // As a source the read pointer, as a destination the write pointer.
    static uint32_t local_src(const CircularBuffer& cb, const src_args_type& a) { return cb.get_read_ptr() + a.offset_bytes; }
    static uint32_t local_dst(const CircularBuffer& cb, const dst_args_type& a) { return cb.get_write_ptr() + a.offset_bytes; }
    static uint64_t mcast_addr(const CircularBuffer& cb, const dst_args_mcast_type& a, uint8_t noc) {
        return get_noc_multicast_addr(a.noc_x_start, a.noc_y_start, a.noc_x_end, a.noc_y_end,
                                      cb.get_write_ptr() + a.offset_bytes, noc);
    }
};
template <CircularBuffer::AddrSelector S>
struct noc_traits_t<CircularBufferView<S>> {
    using src_args_type = tensim::noc_obj::CbArgs;
    using dst_args_type = tensim::noc_obj::CbArgs;
    using dst_args_mcast_type = tensim::noc_obj::CbMcastArgs;
    static uint32_t local_src(const CircularBufferView<S>& v, const src_args_type& a) { return v.address() + a.offset_bytes; }
    static uint32_t local_dst(const CircularBufferView<S>& v, const dst_args_type& a) { return v.address() + a.offset_bytes; }
    static uint64_t mcast_addr(const CircularBufferView<S>& v, const dst_args_mcast_type& a, uint8_t noc) {
        return get_noc_multicast_addr(a.noc_x_start, a.noc_y_start, a.noc_x_end, a.noc_y_end, v.address() + a.offset_bytes,
                                      noc);
    }
};
#endif
