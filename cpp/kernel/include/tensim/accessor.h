// TensorAccessorArgs and TensorAccessor on the kernel side (tt-metal's api/tensor/tensor_accessor_args.h,
// tensor_accessor.h and page.h), written for tensim from the documented interface.
//
// Today's compile-time layout at CTA_OFFSET: the ArgsConfig word, the aligned page size, then for a sharded
// buffer the rank, the number of banks, the tensor and shard shapes in pages and the bank coordinates two
// per word; each field whose Runtime* bit is set lives in the common runtime args at the CRTA offset instead.
//
// Kernels written for the layout before the page-size word (one word per interleaved buffer, hard-coded
// offsets such as TensorAccessorArgs<1> for a second buffer) keep working: the host side records where it
// appended each accessor (TENSIM_TA_BLOCKS), and a kernel that asks for an accessor, or a compile-time arg,
// only the older layout explains stops compiling with the marker below; tensim then builds it again with
// the older layout's compile-time args (TENSIM_TA_ONE_WORD). Every address and transfer goes to the Rust
// TensorAccessor by the offset of the accessor in today's layout.
#pragma once
#include <array>
#include <cstddef>
#include <tuple>

#include "hostdevcommon/tensor_accessor/arg_config.hpp"
#include "tensim/common.h"

namespace tensor_accessor {
constexpr std::size_t UNKNOWN = static_cast<std::size_t>(-1);
constexpr std::size_t MAX_RANK = 8;
// tensim's extension: shards dealt block-cyclically over a core grid (two more words: columns, rows).
constexpr uint32_t GRID_2D = 1u << 8;
struct PageMapping {
    size_t bank_id;
    size_t bank_page_offset;
};
}  // namespace tensor_accessor

namespace tensim::ta {
// Whether `o` starts an accessor block in today's layout.
constexpr bool is_block(uint32_t o) {
    for (uint32_t i = 0; i < num_blocks; i++)
        if (blocks[i] == o) return true;
    return false;
}
// Whether `o` starts an accessor block in the one-word layout (each earlier block one word shorter).
constexpr bool is_old_block(uint32_t o) {
    for (uint32_t i = 0; i < num_blocks; i++)
        if (blocks[i] - i == o) return true;
    return false;
}
// Today's offset of the block a one-word-layout kernel names `o`.
constexpr uint32_t current_offset(uint32_t o) {
    if (!one_word) return o;
    for (uint32_t i = 0; i < num_blocks; i++)
        if (blocks[i] - i == o) return blocks[i];
    return o;
}
constexpr uint32_t ct(uint32_t i) { return i < tensim_num_compile_time_args ? kernel_compile_time_args[i] : 0; }
template <typename T>
inline T common_arg(uint32_t i) {
    return get_common_arg_val<T>(static_cast<int>(i));
}
}  // namespace tensim::ta

template <std::size_t CTA_OFFSET, std::size_t CRTA_OFFSET = tensor_accessor::UNKNOWN>
struct TensorAccessorArgs {
    static_assert(CTA_OFFSET < tensim_num_compile_time_args,
                  "TensorAccessorArgs: the offset is past the kernel's compile-time args; append the buffer's "
                  "TensorAccessorArgs on the host");
    static_assert(!(tensim::ta::num_blocks > 0 && !tensim::ta::one_word && !tensim::ta::is_block(CTA_OFFSET) &&
                    tensim::ta::is_old_block(CTA_OFFSET)),
                  "tensim-accessor-layout-one-word: this kernel reads its TensorAccessorArgs at the offsets of the "
                  "layout without the page-size word");

    static constexpr uint32_t config_word = tensim::ta::ct(CTA_OFFSET);
    static constexpr tensor_accessor::ArgsConfig args_config =
        tensor_accessor::ArgsConfig(static_cast<uint8_t>(config_word & 0xff));
    static constexpr bool is_sharded = args_config.test(tensor_accessor::ArgConfig::Sharded);
    static constexpr bool is_dram = args_config.test(tensor_accessor::ArgConfig::IsDram);
    static constexpr bool rank_is_crta = is_sharded && args_config.test(tensor_accessor::ArgConfig::RuntimeRank);
    static constexpr bool num_banks_is_crta =
        is_sharded && args_config.test(tensor_accessor::ArgConfig::RuntimeNumBanks);
    static constexpr bool tensor_shape_is_crta =
        is_sharded && args_config.test(tensor_accessor::ArgConfig::RuntimeTensorShape);
    static constexpr bool shard_shape_is_crta =
        is_sharded && args_config.test(tensor_accessor::ArgConfig::RuntimeShardShape);
    static constexpr bool bank_coords_is_crta =
        is_sharded && args_config.test(tensor_accessor::ArgConfig::RuntimeBankCoords);
    static_assert(!rank_is_crta || (tensor_shape_is_crta && shard_shape_is_crta),
                  "TensorAccessorArgs: if rank is runtime, tensor shape and shard shape must also be runtime");
    static_assert(!num_banks_is_crta || bank_coords_is_crta,
                  "TensorAccessorArgs: if number of banks is runtime, bank coordinates must also be runtime");

    static constexpr uint32_t HeaderWords = tensim::ta::one_word ? 1 : 2;
    static constexpr uint32_t AlignedPageSizeCTAOffset = CTA_OFFSET + 1;
    static constexpr uint32_t AlignedPageSize = tensim::ta::one_word ? 0 : tensim::ta::ct(CTA_OFFSET + 1);
    static constexpr uint32_t RankCTAOffset = CTA_OFFSET + HeaderWords;
    static constexpr uint32_t RankCT = is_sharded && !rank_is_crta ? tensim::ta::ct(RankCTAOffset) : 0;
    static constexpr uint32_t NumBanksCTAOffset = RankCTAOffset + (is_sharded && !rank_is_crta ? 1 : 0);
    static constexpr uint32_t NumBanksCT = is_sharded && !num_banks_is_crta ? tensim::ta::ct(NumBanksCTAOffset) : 0;
    static constexpr uint32_t PhysicalNumBanksCT = (NumBanksCT + 1) / 2;
    static constexpr uint32_t TensorShapeCTAOffset = NumBanksCTAOffset + (is_sharded && !num_banks_is_crta ? 1 : 0);
    static constexpr uint32_t ShardShapeCTAOffset = TensorShapeCTAOffset + (tensor_shape_is_crta ? 0 : RankCT);
    static constexpr uint32_t BankCoordsCTAOffset = ShardShapeCTAOffset + (shard_shape_is_crta ? 0 : RankCT);
    static constexpr uint32_t GridWords = is_sharded && (config_word & tensor_accessor::GRID_2D) ? 2 : 0;
    static constexpr uint32_t NumArgsCT =
        is_sharded ? BankCoordsCTAOffset + (bank_coords_is_crta ? 0 : PhysicalNumBanksCT) + GridWords - CTA_OFFSET
                   : HeaderWords;

    uint32_t crta_offset_ = CRTA_OFFSET == tensor_accessor::UNKNOWN ? 0 : static_cast<uint32_t>(CRTA_OFFSET);

    constexpr TensorAccessorArgs() = default;
    constexpr explicit TensorAccessorArgs(uint32_t crta_offset) : crta_offset_(crta_offset) {
        static_assert(CRTA_OFFSET == tensor_accessor::UNKNOWN,
                      "TensorAccessorArgs(crta_offset): the CRTA offset is already a template argument");
    }
    constexpr uint32_t crta_offset() const { return crta_offset_; }
    static constexpr uint32_t get_aligned_page_size() { return AlignedPageSize; }
    constexpr uint32_t rank_crta_offset() const { return crta_offset(); }
    constexpr uint32_t num_banks_crta_offset() const { return rank_crta_offset() + (rank_is_crta ? 1 : 0); }
    constexpr uint32_t tensor_shape_crta_offset() const { return num_banks_crta_offset() + (num_banks_is_crta ? 1 : 0); }
    uint32_t shard_shape_crta_offset() const { return tensor_shape_crta_offset() + (tensor_shape_is_crta ? get_rank() : 0); }
    uint32_t bank_coords_crta_offset() const { return shard_shape_crta_offset() + (shard_shape_is_crta ? get_rank() : 0); }
    uint32_t get_rank() const {
        if constexpr (rank_is_crta) return tensim::ta::common_arg<uint32_t>(rank_crta_offset());
        return RankCT;
    }
    uint32_t get_num_banks() const {
        if constexpr (num_banks_is_crta) return tensim::ta::common_arg<uint32_t>(num_banks_crta_offset());
        return NumBanksCT;
    }
    uint32_t get_physical_num_banks() const { return (get_num_banks() + 1) / 2; }
    // The tensor's and a shard's extent in pages along dim `d` (outermost first).
    uint32_t tensor_dim(uint32_t d) const {
        if (tensor_shape_is_crta) return tensim::ta::common_arg<uint32_t>(tensor_shape_crta_offset() + d);
        return tensim::ta::ct(TensorShapeCTAOffset + d);
    }
    uint32_t shard_dim(uint32_t d) const {
        if (shard_shape_is_crta) return tensim::ta::common_arg<uint32_t>(shard_shape_crta_offset() + d);
        return tensim::ta::ct(ShardShapeCTAOffset + d);
    }
    static constexpr uint32_t num_compile_time_args() { return NumArgsCT; }
    static constexpr uint32_t next_compile_time_args_offset() { return CTA_OFFSET + NumArgsCT; }
    uint32_t num_common_runtime_args() const {
        if constexpr (!is_sharded) return 0;
        return (rank_is_crta ? 1 : 0) + (num_banks_is_crta ? 1 : 0) + (tensor_shape_is_crta ? get_rank() : 0) +
               (shard_shape_is_crta ? get_rank() : 0) + (bank_coords_is_crta ? get_physical_num_banks() : 0);
    }
    uint32_t next_common_runtime_args_offset() const { return crta_offset() + num_common_runtime_args(); }
    // tensim: how the Rust side finds the description (today's offset, the CRTA offset above it).
    uint32_t tensim_desc() const { return tensim::ta::current_offset(CTA_OFFSET) | (crta_offset() << 16); }
    static constexpr uint32_t cta_offset() { return CTA_OFFSET; }
};

namespace tensim::ta {
template <uint32_t N, uint32_t CTA, typename... Done>
constexpr auto args_tuple(std::tuple<Done...> done) {
    if constexpr (N == 0) {
        return done;
    } else {
        using A = TensorAccessorArgs<CTA>;
        return args_tuple<N - 1, A::next_compile_time_args_offset()>(std::tuple_cat(done, std::tuple<A>{}));
    }
}
}  // namespace tensim::ta

// NUM_TENSORS accessor args one after another from CTA_OFFSET.
template <uint32_t NUM_TENSORS, uint32_t CTA_OFFSET>
constexpr auto make_tensor_accessor_args_tuple() {
    return tensim::ta::args_tuple<NUM_TENSORS, CTA_OFFSET>(std::tuple<>{});
}

// get_my_thread_id() / get_num_threads() (api/kernel_thread_globals.h): one data-movement thread per RISC.
inline uint32_t get_my_thread_id() {
#if defined(COMPILE_FOR_NCRISC)
    return 1;
#else
    return 0;
#endif
}
inline uint32_t get_num_threads() { return 2; }

namespace tensor_accessor {
// One page of an accessor's walk (api/tensor/page.h).
class Page {
public:
    Page() = default;
    Page(uint64_t noc_addr, uint32_t page_id, bool padding) : noc_addr_(noc_addr), page_id_(page_id), padding_(padding) {}
    uint64_t noc_addr() const { return noc_addr_; }
    uint32_t page_id() const { return page_id_; }
    bool is_padding() const { return padding_; }

private:
    uint64_t noc_addr_ = 0;
    uint32_t page_id_ = 0;
    bool padding_ = false;
};

// A walk over pages: `first`, `first + step`, … before `end`; `at(i)` makes the page.
template <typename Accessor>
class Pages {
public:
    struct Sentinel {};
    class Iterator {
    public:
        Iterator(const Pages* w, uint32_t i) : w_(w), i_(i) {}
        Page operator*() const { return w_->at(i_); }
        Iterator& operator++() {
            i_ += w_->step_;
            return *this;
        }
        bool operator!=(const Iterator& o) const { return i_ < o.i_; }
        bool operator==(const Iterator& o) const { return !(*this != o); }

    private:
        const Pages* w_;
        uint32_t i_;
    };
    Pages(const Accessor& a, uint32_t first, uint32_t end, uint32_t step, uint8_t noc, int32_t shard = -1)
        : a_(a), first_(first), end_(end), step_(step == 0 ? 1 : step), noc_(noc), shard_(shard) {}
    Iterator begin() const { return Iterator(this, first_); }
    Iterator end() const { return Iterator(this, first_ < end_ ? end_ : first_); }
    Page at(uint32_t i) const { return shard_ < 0 ? a_.page_at(i, noc_) : a_.shard_slot_at(shard_, i, noc_); }

private:
    const Accessor& a_;
    uint32_t first_, end_, step_;
    uint8_t noc_;
    int32_t shard_;
};
}  // namespace tensor_accessor

namespace tensim::ta {
struct NoBase {};
// An interleaved accessor is an InterleavedAddrGen<IsDram> underneath, as upstream's specialisation is.
template <bool Sharded, bool Dram>
struct Base : NoBase {
    constexpr Base(uint32_t, uint32_t) {}
};
template <bool Dram>
struct Base<false, Dram> : InterleavedAddrGen<Dram> {
    constexpr Base(uint32_t addr, uint32_t page) : InterleavedAddrGen<Dram>{addr, page} {}
};
}  // namespace tensim::ta

template <typename Args = TensorAccessorArgs<0>>
struct TensorAccessor : tensim::ta::Base<Args::is_sharded, Args::is_dram> {
    using DSpec = Args;
    Args args;
    uint32_t bank_base_address;
    uint32_t page_size;

    TensorAccessor(const Args& a, size_t base, uint32_t page = Args::AlignedPageSize)
        : tensim::ta::Base<Args::is_sharded, Args::is_dram>(static_cast<uint32_t>(base), page),
          args(a),
          bank_base_address(static_cast<uint32_t>(base)),
          page_size(page) {}
    uint32_t desc() const { return args.tensim_desc(); }
    uint32_t get_aligned_page_size() const { return page_size; }
    constexpr uint32_t get_bank_base_address() const { return bank_base_address; }
    uint64_t get_noc_addr(uint32_t page_id, uint32_t offset = 0, uint8_t noc = noc_index) const {
        return tensim::api->ta_noc_addr(desc(), bank_base_address, page_size, page_id, offset, noc, 0);
    }
    // The page at coordinate `page_coord` (in pages, outermost first) of a sharded tensor.
    template <class Arr, typename = decltype(std::declval<const Arr&>()[0])>
    uint64_t get_noc_addr(const Arr& page_coord, uint32_t offset = 0, uint8_t noc = noc_index) const {
        static_assert(Args::is_sharded, "get_noc_addr(page coordinate): the accessor's buffer is interleaved");
        uint32_t id = 0;
        for (uint32_t d = 0; d < args.get_rank(); d++) id = id * args.tensor_dim(d) + static_cast<uint32_t>(page_coord[d]);
        return get_noc_addr(id, offset, noc);
    }
    uint64_t get_shard_noc_addr(uint32_t shard_id, uint32_t offset = 0, uint8_t noc = noc_index) const {
        return tensim::api->ta_noc_addr(desc(), bank_base_address, page_size, shard_id, offset, noc, 1);
    }
    template <class Arr, typename = decltype(std::declval<const Arr&>()[0])>
    uint64_t get_shard_noc_addr(const Arr& shard_coord, uint32_t offset = 0, uint8_t noc = noc_index) const {
        static_assert(Args::is_sharded, "get_shard_noc_addr: the accessor's buffer is interleaved");
        uint32_t id = 0;
        for (uint32_t d = 0; d < args.get_rank(); d++) {
            uint32_t grid = (args.tensor_dim(d) + args.shard_dim(d) - 1) / args.shard_dim(d);
            id = id * grid + static_cast<uint32_t>(shard_coord[d]);
        }
        return get_shard_noc_addr(id, offset, noc);
    }
    tensor_accessor::PageMapping get_bank_and_offset(uint32_t page_id) const {
        uint64_t v = tensim::api->ta_info(desc(), 0, page_id, 0);
        return {static_cast<size_t>(v >> 32), static_cast<size_t>(v & 0xffffffffu)};
    }
    bool is_local_bank(uint32_t virtual_x, uint32_t virtual_y, uint8_t noc = noc_index) const {
        static_assert(Args::is_sharded, "is_local_bank: the accessor's buffer is interleaved");
        return virtual_x == my_x[noc] && virtual_y == my_y[noc];
    }
    bool is_local_addr(uint64_t noc_addr, uint8_t noc = noc_index) const {
        static_assert(Args::is_sharded, "is_local_addr: the accessor's buffer is interleaved");
        uint32_t xy = tensim::api->noc_xy(noc_addr);
        return is_local_bank(xy & 0xffff, xy >> 16, noc);
    }
    bool is_local_page(uint32_t page_id, uint8_t noc = noc_index) const {
        return is_local_addr(get_noc_addr(page_id, 0, noc), noc);
    }
    bool is_local_shard(uint32_t shard_id, uint8_t noc = noc_index) const {
        return is_local_addr(get_shard_noc_addr(shard_id, 0, noc), noc);
    }
    // Walks: pages [start, end); a shard's slots [start, end) (0: to the shard's end); every page of this
    // thread (page i goes to thread i % get_num_threads()).
    tensor_accessor::Pages<TensorAccessor> pages(uint32_t start_page_id = 0, uint32_t end_page_id = 0,
                                                 uint8_t noc = noc_index) const {
        if constexpr (!Args::is_sharded) {
            // Interleaved: the volume is unknown to the accessor, both bounds are required.
        } else if (end_page_id == 0) {
            end_page_id = static_cast<uint32_t>(tensim::api->ta_info(desc(), 2, 0, 0));
        }
        return tensor_accessor::Pages<TensorAccessor>(*this, start_page_id, end_page_id, 1, noc);
    }
    tensor_accessor::Pages<TensorAccessor> shard_pages(uint32_t shard_id, uint32_t start_page_offset = 0,
                                                       uint32_t end_page_offset = 0, uint8_t noc = noc_index) const {
        static_assert(Args::is_sharded, "shard_pages: the accessor's buffer is interleaved");
        if (end_page_offset == 0) end_page_offset = static_cast<uint32_t>(tensim::api->ta_info(desc(), 4, 0, 0));
        return tensor_accessor::Pages<TensorAccessor>(*this, start_page_offset, end_page_offset, 1, noc,
                                                      static_cast<int32_t>(shard_id));
    }
    tensor_accessor::Pages<TensorAccessor> strided_pages(uint8_t noc = noc_index) const {
        static_assert(Args::is_sharded, "strided_pages(): an interleaved accessor needs the number of pages");
        uint32_t n = static_cast<uint32_t>(tensim::api->ta_info(desc(), 2, 0, 0));
        return tensor_accessor::Pages<TensorAccessor>(*this, get_my_thread_id(), n, get_num_threads(), noc);
    }
    tensor_accessor::Pages<TensorAccessor> strided_pages(uint32_t total_pages, uint8_t noc) const {
        return tensor_accessor::Pages<TensorAccessor>(*this, get_my_thread_id(), total_pages, get_num_threads(), noc);
    }
    template <typename T = uint32_t, typename = std::enable_if_t<!Args::is_sharded && std::is_integral_v<T>>>
    tensor_accessor::Pages<TensorAccessor> strided_pages(T total_pages) const {
        return strided_pages(static_cast<uint32_t>(total_pages), noc_index);
    }
    // tensim: the page of a walk.
    tensor_accessor::Page page_at(uint32_t id, uint8_t noc) const { return {get_noc_addr(id, 0, noc), id, false}; }
    tensor_accessor::Page shard_slot_at(int32_t shard, uint32_t slot, uint8_t noc) const {
        uint64_t page = tensim::api->ta_info(desc(), 1, static_cast<uint32_t>(shard), slot);
        uint64_t shard_addr = get_shard_noc_addr(static_cast<uint32_t>(shard), slot * page_size, noc);
        return {shard_addr, static_cast<uint32_t>(page), page == ~uint64_t(0)};
    }
};
template <std::size_t C, std::size_t R>
TensorAccessor(const TensorAccessorArgs<C, R>&, size_t) -> TensorAccessor<TensorAccessorArgs<C, R>>;
template <std::size_t C, std::size_t R>
TensorAccessor(const TensorAccessorArgs<C, R>&, size_t, uint32_t) -> TensorAccessor<TensorAccessorArgs<C, R>>;

// make_tensor_accessor_tuple(args tuple, first): one accessor per args, base address i from unique
// runtime arg `first + i`, each with its default page size.
template <typename... A, std::size_t... I>
auto tensim_make_accessors(const std::tuple<A...>& args, uint32_t first, std::index_sequence<I...>) {
    return std::make_tuple(TensorAccessor<A>(std::get<I>(args), get_arg_val<uint32_t>(first + I))...);
}
template <typename... A>
auto make_tensor_accessor_tuple(const std::tuple<A...>& args, uint32_t address_rt_arg_index_start) {
    return tensim_make_accessors(args, address_rt_arg_index_start, std::index_sequence_for<A...>{});
}

// A type-erased accessor (AbstractTensorAccessorWrapper).
class AbstractTensorAccessorWrapper {
public:
    AbstractTensorAccessorWrapper() = default;
    template <typename A>
    explicit AbstractTensorAccessorWrapper(const TensorAccessor<A>& a)
        : desc_(a.desc()), base_(a.bank_base_address), page_(a.page_size) {}
    uint64_t get_noc_addr(uint32_t page_idx, uint32_t offset = 0, uint8_t noc = noc_index) const {
        return tensim::api->ta_noc_addr(desc_, base_, page_, page_idx, offset, noc, 0);
    }

private:
    uint32_t desc_ = 0, base_ = 0, page_ = 0;
};
template <typename... A, std::size_t... I>
auto tensim_wrap_accessors(const std::tuple<A...>& t, std::index_sequence<I...>) {
    return std::array<AbstractTensorAccessorWrapper, sizeof...(A)>{AbstractTensorAccessorWrapper(std::get<I>(t))...};
}
template <typename... A>
auto make_abstract_tensor_accessor_wrappers(const std::tuple<A...>& t) {
    return tensim_wrap_accessors(t, std::index_sequence_for<A...>{});
}

// Views for the object NoC API: the pages, or the shards, of an accessor.
template <class A>
struct PageView {
    const A& accessor;
    explicit PageView(const A& a) : accessor(a) {}
    uint64_t get_noc_addr(uint32_t page_id, uint32_t offset, uint8_t noc) const {
        return accessor.get_noc_addr(page_id, offset, noc);
    }
};
template <class A>
struct ShardView {
    const A& accessor;
    explicit ShardView(const A& a) : accessor(a) {}
    bool is_local_shard(uint32_t shard_id, uint8_t noc) const { return accessor.is_local_shard(shard_id, noc); }
    uint64_t get_noc_addr(uint32_t shard_id, uint32_t offset, uint8_t noc) const {
        return accessor.get_shard_noc_addr(shard_id, offset, noc);
    }
};

// The page calls on an accessor (a page size of 0 moves the accessor's page).
template <typename A>
FORCE_INLINE uint64_t get_noc_addr(const uint32_t id, const TensorAccessor<A>& s, uint32_t offset = 0,
                                   uint8_t noc = noc_index) {
    return s.get_noc_addr(id, offset, noc);
}
template <typename A>
FORCE_INLINE void noc_async_read_page(const uint32_t id, const TensorAccessor<A>& s, uint32_t dst_local_l1_addr,
                                      uint32_t offset = 0, uint8_t noc = noc_index) {
    tensim::api->ta_read(s.desc(), s.bank_base_address, s.page_size, id, dst_local_l1_addr, offset, noc);
}
template <typename A>
FORCE_INLINE void noc_async_read_tile(const uint32_t id, const TensorAccessor<A>& s, uint32_t dst_local_l1_addr,
                                      uint32_t offset = 0, uint8_t noc = noc_index) {
    noc_async_read_page(id, s, dst_local_l1_addr, offset, noc);
}
template <typename A>
FORCE_INLINE void noc_async_write_page(const uint32_t id, const TensorAccessor<A>& s, uint32_t src_local_l1_addr,
                                       uint32_t size = 0, uint32_t offset = 0, uint8_t noc = noc_index) {
    if (offset > 0xFFFFFF) tensim::fail("noc_async_write_page: a byte offset of 16 MiB or more into a page");
    tensim::api->ta_write(s.desc(), s.bank_base_address, s.page_size, id, src_local_l1_addr, size,
                          uint32_t(noc & 1) | (offset << 8));
}
template <typename A>
FORCE_INLINE void noc_async_write_tile(const uint32_t id, const TensorAccessor<A>& s, uint32_t src_local_l1_addr,
                                       uint8_t noc = noc_index) {
    noc_async_write_page(id, s, src_local_l1_addr, 0, 0, noc);
}
// One whole shard (its full volume of pages, edge shards too): contiguous in its bank.
template <typename A>
FORCE_INLINE uint32_t tensim_shard_bytes(const TensorAccessor<A>& s) {
    static_assert(A::is_sharded, "noc_async_read_shard / noc_async_write_shard: the accessor's buffer is interleaved");
    return static_cast<uint32_t>(tensim::api->ta_info(s.desc(), 4, 0, 0)) * s.page_size;
}
template <typename A>
FORCE_INLINE void noc_async_read_shard(const uint32_t shard_id, const TensorAccessor<A>& s, uint32_t dst_local_l1_addr,
                                       uint8_t noc = noc_index) {
    noc_async_read(s.get_shard_noc_addr(shard_id, 0, noc), dst_local_l1_addr, tensim_shard_bytes(s), noc);
}
template <typename A, bool posted = false>
FORCE_INLINE void noc_async_write_shard(const uint32_t shard_id, const TensorAccessor<A>& s, uint32_t src_local_l1_addr,
                                        uint8_t noc = noc_index) {
    noc_async_write<NOC_MAX_BURST_SIZE + 1, true, posted>(src_local_l1_addr, s.get_shard_noc_addr(shard_id, 0, noc),
                                                          tensim_shard_bytes(s), noc);
}
