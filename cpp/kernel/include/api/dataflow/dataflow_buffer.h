// tensim: DataflowBuffer (api/dataflow/dataflow_buffer.h) on Wormhole and Blackhole is a view of the circular
// buffer of the same index. The Metal 2.0 binding tokens and Quasar's richer semantics are not modelled.
#pragma once
#include "api/dataflow/circular_buffer.h"
#include "api/core_local_mem.h"

// Data-movement kernels only (the sizes and counts come from the circular buffer's configuration).
class DataflowBuffer {
public:
    DataflowBuffer(uint16_t logical_dfb_id) : cb_(logical_dfb_id), id_(logical_dfb_id) {}
    uint16_t get_id() const { return id_; }
    // One entry is one page of the circular buffer; on Wormhole and Blackhole the local and ring-span
    // figures are the totals.
    uint32_t get_entry_size() const { return tensim::api->query(17, id_, 0); }
    uint32_t get_stride_size() const { return get_entry_size(); }
    uint32_t get_total_num_entries() const { return tensim::api->query(18, id_, 0); }
    uint32_t get_total_size_bytes() const { return tensim::api->query(19, id_, 0); }
    uint32_t get_local_num_entries() const { return get_total_num_entries(); }
    uint32_t get_local_size_bytes() const { return get_total_size_bytes(); }
    uint32_t get_ring_span_num_entries() const { return get_total_num_entries(); }
    uint32_t get_ring_span_bytes() const { return get_total_size_bytes(); }
    uint32_t get_tile_size() const { return cb_.get_tile_size(); }
    uint32_t get_tile_hw() const { return cb_.get_tile_hw(); }
    uint32_t get_tile_r_dim() const { return 32; }  // tensim models 32 x 32 tiles of four 16 x 16 faces
    uint32_t get_tile_c_dim() const { return 32; }
    uint32_t get_tile_num_faces() const { return tensim::api->query(5, id_, 0); }
    uint32_t get_face_r_dim() const { return 16; }
    DataFormat get_dataformat() const { return cb_.get_dataformat(); }
    void reserve_back(uint16_t n) { cb_.reserve_back(n); }
    void push_back(uint16_t n) { cb_.push_back(n); }
    void wait_front(uint16_t n) { cb_.wait_front(n); }
    void pop_front(uint16_t n) { cb_.pop_front(n); }
    bool pages_reservable_at_back(int32_t n) const { return cb_.pages_reservable_at_back(n); }
    bool pages_available_at_front(int32_t n) const { return cb_.pages_available_at_front(n); }
    uint32_t get_write_ptr() const { return cb_.get_write_ptr(); }
    uint32_t get_read_ptr() const { return cb_.get_read_ptr(); }
    void finish() {}
    template <typename NocT>
    void write_barrier(const NocT& noc) const {
        noc.async_write_barrier();
    }
    void evil_set_write_ptr(uint32_t) { tensim::fail("DataflowBuffer::evil_set_write_ptr: not modelled: moving a circular buffer's pointers"); }
    void evil_set_read_ptr(uint32_t) { tensim::fail("DataflowBuffer::evil_set_read_ptr: not modelled: moving a circular buffer's pointers"); }
    // The scoped locks are access guards (as CircularBuffer::scoped_lock): they do no FIFO operation; their
    // pointer is the write (read) pointer.
    struct Guard {
        uint32_t addr;
        template <typename T = uint32_t>
        CoreLocalMem<T> get_ptr() const {
            return CoreLocalMem<T>(addr);
        }
    };
    [[nodiscard]] Guard scoped_write_lock(uint16_t = 1) { return Guard{get_write_ptr()}; }
    [[nodiscard]] Guard scoped_read_lock(uint16_t = 1) { return Guard{get_read_ptr()}; }
    const CircularBuffer& cb() const { return cb_; }

private:
    CircularBuffer cb_;
    uint16_t id_;
};

#if !defined(TRISC_UNPACK) && !defined(TRISC_MATH) && !defined(TRISC_PACK)
template <>
struct noc_traits_t<DataflowBuffer> {
    using src_args_type = DataflowBufferArgs;
    using dst_args_type = DataflowBufferArgs;
    static uint32_t local_src(const DataflowBuffer& b, const src_args_type& a) { return b.get_read_ptr() + a.offset_bytes; }
    static uint32_t local_dst(const DataflowBuffer& b, const dst_args_type& a) { return b.get_write_ptr() + a.offset_bytes; }
};
#endif
