// tensim's TT-Metalium host headers: buffers — their configs (interleaved, sharded, buffer regions),
// Buffer (allocated, or at a given address), CreateBuffer/DeallocateBuffer. Written for tensim from the
// documented interface.
#pragma once
#include "tensim/host/idevice.hpp"

namespace tt::tt_metal {

// ---- Buffers ----

enum class BufferType { DRAM, L1, SYSTEM_MEMORY, L1_SMALL, TRACE };

inline uint32_t Allocator::mem(BufferType t) const {
    switch (t) {
        case BufferType::DRAM: return 0;
        case BufferType::L1: return 1;
        default: TT_THROW("Allocator: buffer type {} is not modelled (DRAM and L1 are)", static_cast<int>(t));
    }
}
inline uint32_t Allocator::get_alignment(BufferType t) const {
    return static_cast<uint32_t>(query(mem(t) == 0 ? TENSIM_DEV_DRAM_ALIGNMENT : TENSIM_DEV_L1_ALIGNMENT, 0));
}
inline uint32_t Allocator::get_num_banks(const BufferType& t) const {
    return static_cast<uint32_t>(query(TENSIM_DEV_NUM_BANKS, mem(t)));
}
inline DeviceAddr Allocator::get_bank_size(const BufferType& t) const { return query(TENSIM_DEV_BANK_SIZE, mem(t)); }
inline Allocator::Statistics Allocator::get_statistics(const BufferType& t) const {
    const uint32_t m = mem(t);
    const uint64_t banks = query(TENSIM_DEV_NUM_BANKS, m);
    Statistics s;
    s.total_allocatable_size_bytes = query(TENSIM_DEV_BANK_SIZE, m) * banks;
    s.total_allocated_bytes = query(TENSIM_DEV_ALLOCATED, m) * banks;
    s.total_free_bytes = query(TENSIM_DEV_FREE, m) * banks;
    s.largest_free_block_bytes = query(TENSIM_DEV_LARGEST_FREE, m);
    return s;
}
enum class TensorMemoryLayout { INTERLEAVED, HEIGHT_SHARDED, WIDTH_SHARDED, BLOCK_SHARDED };
enum class ShardOrientation { ROW_MAJOR, COL_MAJOR };

struct BufferConfig {
    IDevice* device;
    DeviceAddr size;
    DeviceAddr page_size;
    BufferType buffer_type;
    TensorMemoryLayout buffer_layout = TensorMemoryLayout::INTERLEAVED;
};
using InterleavedBufferConfig = BufferConfig;

struct ShardSpec {
    CoreRangeSet grid;
    std::array<uint32_t, 2> shape;
    ShardOrientation orientation = ShardOrientation::ROW_MAJOR;
    ShardSpec(const CoreRangeSet& g, const std::array<uint32_t, 2>& s, ShardOrientation o = ShardOrientation::ROW_MAJOR)
        : grid(g), shape(s), orientation(o) {}
    uint32_t num_cores() const { return grid.num_cores(); }
};
struct ShardSpecBuffer {
    ShardSpec tensor_shard_spec;
    std::array<uint32_t, 2> page_shape;
    std::array<uint32_t, 2> tensor2d_shape_in_pages;
    ShardSpecBuffer(const CoreRangeSet& grid, const std::array<uint32_t, 2>& shard_shape, const ShardOrientation& o,
                    const std::array<uint32_t, 2>& page_shape_, const std::array<uint32_t, 2>& tensor2d)
        : tensor_shard_spec(grid, shard_shape, o), page_shape(page_shape_), tensor2d_shape_in_pages(tensor2d) {}
    ShardSpecBuffer(const ShardSpec& s, const std::array<uint32_t, 2>& page_shape_, const std::array<uint32_t, 2>& tensor2d)
        : tensor_shard_spec(s), page_shape(page_shape_), tensor2d_shape_in_pages(tensor2d) {}
    CoreRangeSet grid() const { return tensor_shard_spec.grid; }
    std::array<uint32_t, 2> shape() const { return tensor_shard_spec.shape; }
    ShardOrientation orientation() const { return tensor_shard_spec.orientation; }
};
struct ShardedBufferConfig {
    IDevice* device;
    DeviceAddr size;
    DeviceAddr page_size;
    BufferType buffer_type = BufferType::L1;
    TensorMemoryLayout buffer_layout = TensorMemoryLayout::HEIGHT_SHARDED;
    ShardSpecBuffer shard_parameters;
};
// A byte range of a buffer in host page order (EnqueueWrite/ReadSubBuffer, a shard transfer's region).
struct BufferRegion {
    DeviceAddr offset = 0;
    DeviceAddr size = 0;
    BufferRegion(DeviceAddr offset, DeviceAddr size) : offset(offset), size(size) {}
};

class BufferShardingArgs {
public:
    BufferShardingArgs() = default;
    BufferShardingArgs(std::nullopt_t) {}
    BufferShardingArgs(ShardSpecBuffer spec, TensorMemoryLayout layout) : spec_(std::move(spec)), layout_(layout) {}
    const std::optional<ShardSpecBuffer>& shard_spec() const { return spec_; }
    TensorMemoryLayout buffer_layout() const { return layout_; }

private:
    std::optional<ShardSpecBuffer> spec_;
    TensorMemoryLayout layout_ = TensorMemoryLayout::INTERLEAVED;
};

namespace detail {
inline void push_ranges(std::vector<uint32_t>& out, const CoreRangeSet& s) {
    for (const auto& r : s.ranges()) {
        out.push_back(static_cast<uint32_t>(r.start_coord.x));
        out.push_back(static_cast<uint32_t>(r.start_coord.y));
        out.push_back(static_cast<uint32_t>(r.end_coord.x));
        out.push_back(static_cast<uint32_t>(r.end_coord.y));
    }
}
}  // namespace detail

class Buffer : public std::enable_shared_from_this<Buffer> {
public:
    static std::shared_ptr<Buffer> create(IDevice* device, DeviceAddr size, DeviceAddr page_size, BufferType type,
                                          const BufferShardingArgs& sharding = std::nullopt,
                                          std::optional<bool> bottom_up = std::nullopt,
                                          std::optional<SubDeviceId> = std::nullopt) {
        return create_at(device, std::nullopt, size, page_size, type, sharding, bottom_up);
    }
    // A buffer at `address` (every bank), or allocated where none is given. At an address nothing is
    // allocated: the memory is the program's to manage, as tt-metal's buffers at a given address.
    static std::shared_ptr<Buffer> create_at(IDevice* device, std::optional<DeviceAddr> address, DeviceAddr size,
                                             DeviceAddr page_size, BufferType type,
                                             const BufferShardingArgs& sharding = std::nullopt,
                                             std::optional<bool> bottom_up = std::nullopt) {
        uint32_t t;
        switch (type) {
            case BufferType::DRAM: t = 0; break;
            case BufferType::L1: t = 1; break;
            default: TT_THROW("Buffer::create: buffer type {} is not modelled (DRAM and L1 are)", static_cast<int>(type));
        }
        // bottom_up: allocate from the bottom (true) or the top (false) of the banks; unset, as the memory does.
        if (bottom_up.has_value()) t |= (*bottom_up ? 1u : 2u) << 8;
        std::vector<uint32_t> shard;
        uint32_t layout = static_cast<uint32_t>(sharding.buffer_layout());
        if (layout != 0) {
            if (!sharding.shard_spec()) TT_THROW("Buffer::create: a sharded layout needs a shard spec");
            const auto& s = *sharding.shard_spec();
            shard.push_back(static_cast<uint32_t>(s.grid().ranges().size()));
            detail::push_ranges(shard, s.grid());
            shard.insert(shard.end(), {s.shape()[0], s.shape()[1],
                                       s.orientation() == ShardOrientation::ROW_MAJOR ? 0u : 1u, s.page_shape[0],
                                       s.page_shape[1], s.tensor2d_shape_in_pages[0], s.tensor2d_shape_in_pages[1]});
        }
        uint32_t h = 0;
        tensim::check(tensim::api().create_buffer(device->handle_, size, page_size, t, layout, shard.data(),
                                                  static_cast<uint32_t>(shard.size()),
                                                  address.value_or(~DeviceAddr{0}), &h));
        auto b = std::shared_ptr<Buffer>(new Buffer());
        b->handle_ = h;
        b->device_ = device;
        b->type_ = type;
        b->layout_ = sharding.buffer_layout();
        return b;
    }
    ~Buffer() {
        if (live_ && tensim::host_api) tensim::host_api->free_buffer(handle_);
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    uint32_t address() const { return static_cast<uint32_t>(query(TENSIM_BUF_ADDRESS)); }
    DeviceAddr size() const { return query(TENSIM_BUF_SIZE); }
    DeviceAddr page_size() const { return query(TENSIM_BUF_PAGE_SIZE); }
    DeviceAddr aligned_page_size() const { return query(TENSIM_BUF_ALIGNED_PAGE_SIZE); }
    uint32_t num_pages() const { return static_cast<uint32_t>(size() / page_size()); }
    uint32_t num_banks() const { return static_cast<uint32_t>(query(TENSIM_BUF_NUM_BANKS)); }
    BufferType buffer_type() const { return type_; }
    TensorMemoryLayout buffer_layout() const { return layout_; }
    bool is_dram() const { return type_ == BufferType::DRAM; }
    bool is_l1() const { return type_ == BufferType::L1; }
    bool is_allocated() const { return live_; }
    IDevice* device() const { return device_; }
    void deallocate() {
        if (live_) {
            live_ = false;
            tensim::check(tensim::api().free_buffer(handle_));
        }
    }

    uint32_t handle_ = 0;

private:
    Buffer() = default;
    uint64_t query(uint32_t what) const {
        if (!live_) TT_THROW("the buffer was deallocated");
        uint64_t v = 0;
        tensim::check(tensim::api().buffer_query(handle_, what, &v));
        return v;
    }
    IDevice* device_ = nullptr;
    BufferType type_ = BufferType::DRAM;
    TensorMemoryLayout layout_ = TensorMemoryLayout::INTERLEAVED;
    bool live_ = true;
};

inline std::shared_ptr<Buffer> CreateBuffer(const InterleavedBufferConfig& c) {
    if (c.buffer_layout != TensorMemoryLayout::INTERLEAVED)
        TT_THROW("CreateBuffer: an InterleavedBufferConfig with a sharded layout; use ShardedBufferConfig");
    return Buffer::create(c.device, c.size, c.page_size, c.buffer_type);
}
inline std::shared_ptr<Buffer> CreateBuffer(const InterleavedBufferConfig& c, DeviceAddr address) {
    if (c.buffer_layout != TensorMemoryLayout::INTERLEAVED)
        TT_THROW("CreateBuffer: an InterleavedBufferConfig with a sharded layout; use ShardedBufferConfig");
    return Buffer::create_at(c.device, address, c.size, c.page_size, c.buffer_type);
}
inline std::shared_ptr<Buffer> CreateBuffer(const InterleavedBufferConfig& c, SubDeviceId) { return CreateBuffer(c); }
inline std::shared_ptr<Buffer> CreateBuffer(const ShardedBufferConfig& c) {
    return Buffer::create(c.device, c.size, c.page_size, c.buffer_type, BufferShardingArgs(c.shard_parameters, c.buffer_layout));
}
inline std::shared_ptr<Buffer> CreateBuffer(const ShardedBufferConfig& c, DeviceAddr address) {
    return Buffer::create_at(c.device, address, c.size, c.page_size, c.buffer_type,
                             BufferShardingArgs(c.shard_parameters, c.buffer_layout));
}
inline std::shared_ptr<Buffer> CreateBuffer(const ShardedBufferConfig& c, SubDeviceId) { return CreateBuffer(c); }
inline void DeallocateBuffer(Buffer& b) { b.deallocate(); }

// A buffer argument: a Buffer& or a shared_ptr<Buffer> (tt-metal's variant of the two).
struct BufferRef {
    Buffer* b;
    BufferRef(Buffer& x) : b(&x) {}
    BufferRef(const std::shared_ptr<Buffer>& x) : b(x.get()) {}
    BufferRef(std::reference_wrapper<Buffer> x) : b(&x.get()) {}
};

}  // namespace tt::tt_metal
