// TensorAccessors as endpoints of the object NoC API (tt-metal's api/tensor/noc_traits.h), written for
// tensim: a page of an accessor (`{.page_id, .offset_bytes}`), a page of a walk, a shard of a sharded
// accessor, and a type-erased accessor are NoC sides of transfers; as a local side an accessor's page must
// be on this core (its low 32 bits are the local address).
#pragma once
#include "api/dataflow/noc.h"

namespace tensim::noc_obj {
struct PageArgs {
    uint32_t page_id{};
    uint32_t offset_bytes = 0;
};
struct ShardArgs {
    uint32_t shard_id{};
    uint32_t offset_bytes = 0;
};
struct OffsetArgs {
    uint32_t offset_bytes = 0;
};
// An accessor's page as a local address: it must be on this core.
template <typename Acc>
uint32_t local_page(const Acc& acc, uint64_t noc_addr) {
    uint32_t xy = tensim::api->noc_xy(noc_addr);
    if ((xy & 0xffff) != my_x[noc_index] || (xy >> 16) != my_y[noc_index]) {
        tensim::fail("a TensorAccessor page used as the local side of a transfer is not on this core");
    }
    return static_cast<uint32_t>(noc_addr);
}
}  // namespace tensim::noc_obj

template <typename A>
struct noc_traits_t<TensorAccessor<A>> {
    using src_args_type = tensim::noc_obj::PageArgs;
    using dst_args_type = tensim::noc_obj::PageArgs;
    static uint64_t noc_addr(const TensorAccessor<A>& t, const src_args_type& a, uint8_t noc) {
        return t.get_noc_addr(a.page_id, a.offset_bytes, noc);
    }
    static uint32_t local_src(const TensorAccessor<A>& t, const src_args_type& a) {
        return tensim::noc_obj::local_page(t, t.get_noc_addr(a.page_id, a.offset_bytes, noc_index));
    }
    static uint32_t local_dst(const TensorAccessor<A>& t, const dst_args_type& a) { return local_src(t, a); }
};
template <typename A>
struct noc_traits_t<PageView<A>> {
    using src_args_type = tensim::noc_obj::PageArgs;
    using dst_args_type = tensim::noc_obj::PageArgs;
    static uint64_t noc_addr(const PageView<A>& v, const src_args_type& a, uint8_t noc) {
        return v.get_noc_addr(a.page_id, a.offset_bytes, noc);
    }
};
template <typename A>
struct noc_traits_t<ShardView<A>> {
    using src_args_type = tensim::noc_obj::ShardArgs;
    using dst_args_type = tensim::noc_obj::ShardArgs;
    static uint64_t noc_addr(const ShardView<A>& v, const src_args_type& a, uint8_t noc) {
        return v.get_noc_addr(a.shard_id, a.offset_bytes, noc);
    }
};
template <>
struct noc_traits_t<tensor_accessor::Page> {
    using src_args_type = tensim::noc_obj::OffsetArgs;
    using dst_args_type = tensim::noc_obj::OffsetArgs;
    static uint64_t noc_addr(const tensor_accessor::Page& p, const src_args_type& a, uint8_t) {
        return p.noc_addr() + a.offset_bytes;
    }
};
template <>
struct noc_traits_t<AbstractTensorAccessorWrapper> {
    using src_args_type = tensim::noc_obj::PageArgs;
    using dst_args_type = tensim::noc_obj::PageArgs;
    static uint64_t noc_addr(const AbstractTensorAccessorWrapper& w, const src_args_type& a, uint8_t noc) {
        return w.get_noc_addr(a.page_id, a.offset_bytes, noc);
    }
};
