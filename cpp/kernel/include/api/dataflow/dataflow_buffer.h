// tensim: DataflowBuffer (api/dataflow/dataflow_buffer.h) on Wormhole and Blackhole is a view of the circular
// buffer of the same index. The Metal 2.0 binding tokens and Quasar's richer semantics are not modelled.
#pragma once
#include "api/dataflow/circular_buffer.h"

class DataflowBuffer {
public:
    DataflowBuffer(uint16_t logical_dfb_id) : cb_(logical_dfb_id), id_(logical_dfb_id) {}
    uint16_t get_id() const { return id_; }
    uint32_t get_entry_size() const { return cb_.get_tile_size(); }
    uint32_t get_stride_size() const { return cb_.get_tile_size(); }
    uint32_t get_tile_size() const { return cb_.get_tile_size(); }
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
