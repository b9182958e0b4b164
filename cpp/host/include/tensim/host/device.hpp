// tensim's TT-Metalium host headers: devices, buffers, programs (kernels, circular buffers, semaphores,
// runtime args), the command queue and the slow-dispatch `detail::` helpers. Each call forwards through
// tensim's host ABI table to the Rust host API. Written for tensim from the documented interface.
#pragma once
#include <array>
#include <cstring>
#include <utility>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <variant>

#include "tensim/host/coords.hpp"
#include "tensim/host/types.hpp"

namespace tt::tt_metal {

class CommandQueue;
class Buffer;

enum class BufferType;
enum class HalMemType : uint8_t { L1 = 0, DRAM = 1, HOST = 2 };
// The device's allocator (tt-metalium/allocator.hpp): its queries of the DRAM and L1 banks. tensim's
// allocator deals every buffer over all banks of its memory at one address (lock-step).
class Allocator {
public:
    struct Statistics {
        size_t total_allocatable_size_bytes = 0;
        size_t total_allocated_bytes = 0;
        size_t total_free_bytes = 0;
        size_t largest_free_block_bytes = 0;
        std::vector<uint32_t> largest_free_block_addrs;
    };
    explicit Allocator(uint32_t device) : device_(device) {}
    // Bytes: DRAM 32 (Wormhole) or 64 (Blackhole); L1 16.
    uint32_t get_alignment(BufferType buffer_type) const;
    uint32_t get_num_banks(const BufferType& buffer_type) const;
    DeviceAddr get_bank_size(const BufferType& buffer_type) const;
    // The first allocatable address of L1 or DRAM.
    DeviceAddr get_base_allocator_addr(const HalMemType& mem_type) const {
        return query(TENSIM_DEV_ALLOC_BASE, mem_type == HalMemType::DRAM ? 0 : 1);
    }
    size_t get_worker_l1_size() const { return query(TENSIM_DEV_BANK_SIZE, 1); }
    Statistics get_statistics(const BufferType& buffer_type) const;
    uint32_t get_dram_channel_from_bank_id(uint32_t bank_id) const { return bank_id; }

private:
    uint64_t query(uint32_t what, uint32_t a) const {
        uint64_t v = 0;
        tensim::check(tensim::api().device_query(device_, what, a, 0, &v));
        return v;
    }
    uint32_t mem(BufferType t) const;
    uint32_t device_;
};

class IDevice {
public:
    IDevice(uint32_t handle, int id) : handle_(handle), id_(id) {}
    IDevice(const IDevice&) = delete;
    IDevice& operator=(const IDevice&) = delete;
    virtual ~IDevice();

    CoreCoord compute_with_storage_grid_size() const { return xy(TENSIM_DEV_COMPUTE_GRID); }
    CoreCoord logical_grid_size() const { return xy(TENSIM_DEV_LOGICAL_GRID); }
    CoreCoord grid_size() const { return xy(TENSIM_DEV_NOC_GRID); }
    CoreCoord dram_grid_size() const { return xy(TENSIM_DEV_DRAM_GRID); }
    CoreCoord worker_core_from_logical_core(const CoreCoord& c) const {
        return xy(TENSIM_DEV_WORKER_XY, static_cast<uint32_t>(c.x), static_cast<uint32_t>(c.y));
    }
    std::vector<CoreCoord> worker_cores_from_logical_cores(const std::vector<CoreCoord>& cs) const {
        std::vector<CoreCoord> v;
        for (const auto& c : cs) v.push_back(worker_core_from_logical_core(c));
        return v;
    }
    CoreCoord virtual_core_from_logical_core(const CoreCoord& c, const CoreType& t) const {
        if (t == CoreType::ETH || t == CoreType::ACTIVE_ETH || t == CoreType::IDLE_ETH)
            return ethernet_core_from_logical_core(c);
        return worker_core_from_logical_core(c);
    }
    CoreCoord ethernet_core_from_logical_core(const CoreCoord& c) const {
        return xy(TENSIM_DEV_ETH_XY, static_cast<uint32_t>(c.y), 0);
    }
    // Ethernet cores (logical (0, channel)): active ones are linked to another device of the run.
    std::unordered_set<CoreCoord> get_active_ethernet_cores(bool = false) const {
        std::unordered_set<CoreCoord> s;
        for (uint32_t ch = 0; ch < query(TENSIM_DEV_ETH_CHANNELS); ch++)
            if (query(TENSIM_DEV_ETH_PEER, ch) != UINT64_MAX) s.insert(CoreCoord(0, ch));
        return s;
    }
    std::unordered_set<CoreCoord> get_inactive_ethernet_cores() const {
        std::unordered_set<CoreCoord> s;
        for (uint32_t ch = 0; ch < query(TENSIM_DEV_ETH_CHANNELS); ch++)
            if (query(TENSIM_DEV_ETH_PEER, ch) == UINT64_MAX) s.insert(CoreCoord(0, ch));
        return s;
    }
    bool is_active_ethernet_core(CoreCoord c, bool = false) const {
        return c.y < query(TENSIM_DEV_ETH_CHANNELS) && query(TENSIM_DEV_ETH_PEER, static_cast<uint32_t>(c.y)) != UINT64_MAX;
    }
    // The device and logical Ethernet core at the other end of `c`'s link.
    std::tuple<chip_id_t, CoreCoord> get_connected_ethernet_core(CoreCoord c) const {
        const uint64_t p = query(TENSIM_DEV_ETH_PEER, static_cast<uint32_t>(c.y));
        if (p == UINT64_MAX)
            TT_THROW("get_connected_ethernet_core: Ethernet core {} of device {} is not linked to a device of this run "
                     "(run on a `--system` and pick a core from get_active_ethernet_cores)",
                     c.str(), id_);
        return {static_cast<chip_id_t>(p & 0xffffffffu), CoreCoord(0, p >> 32)};
    }
    // The Ethernet cores of this device linked to device `other`, by channel.
    std::vector<CoreCoord> get_ethernet_sockets(chip_id_t other) const {
        std::vector<CoreCoord> v;
        for (uint32_t ch = 0; ch < query(TENSIM_DEV_ETH_CHANNELS); ch++) {
            const uint64_t p = query(TENSIM_DEV_ETH_PEER, ch);
            if (p != UINT64_MAX && static_cast<chip_id_t>(p & 0xffffffffu) == other) v.push_back(CoreCoord(0, ch));
        }
        return v;
    }
    tt::ARCH arch() const {
        switch (query(TENSIM_DEV_ARCH)) {
            case 0: return tt::ARCH::GRAYSKULL;
            case 1: return tt::ARCH::WORMHOLE_B0;
            default: return tt::ARCH::BLACKHOLE;
        }
    }
    chip_id_t id() const { return id_; }
    uint32_t num_dram_channels() const { return static_cast<uint32_t>(query(TENSIM_DEV_DRAM_CHANNELS)); }
    uint32_t l1_size_per_core() const { return static_cast<uint32_t>(query(TENSIM_DEV_L1_SIZE)); }
    uint32_t get_dram_alignment() const { return static_cast<uint32_t>(query(TENSIM_DEV_DRAM_ALIGNMENT)); }
    uint32_t get_l1_alignment() const { return static_cast<uint32_t>(query(TENSIM_DEV_L1_ALIGNMENT)); }
    uint8_t num_hw_cqs() const { return 1; }
    const std::unique_ptr<Allocator>& allocator() const {
        if (!allocator_) allocator_ = std::make_unique<Allocator>(handle_);
        return allocator_;
    }
    const std::unique_ptr<Allocator>& allocator(SubDeviceId) const { return allocator(); }
    bool is_initialized() const { return open_; }
    CommandQueue& command_queue(std::size_t cq_id = 0);
    bool close();

    uint32_t handle_;
    int id_;
    bool open_ = true;

protected:
    uint64_t query(uint32_t what, uint32_t a = 0, uint32_t b = 0) const {
        uint64_t v = 0;
        tensim::check(tensim::api().device_query(handle_, what, a, b, &v));
        return v;
    }
    CoreCoord xy(uint32_t what, uint32_t a = 0, uint32_t b = 0) const {
        uint64_t v = query(what, a, b);
        return {static_cast<std::size_t>(v & 0xffffffffu), static_cast<std::size_t>(v >> 32)};
    }
    std::unique_ptr<CommandQueue> cq_;
    mutable std::unique_ptr<Allocator> allocator_;
};
using Device = IDevice;

class CommandQueue {
public:
    explicit CommandQueue(IDevice* d) : device_(d) {}
    IDevice* device() const { return device_; }
    uint32_t id() const { return 0; }

private:
    IDevice* device_;
};

inline CommandQueue& IDevice::command_queue(std::size_t cq_id) {
    if (cq_id != 0) TT_THROW("command queue {} does not exist: tensim models one command queue per device", cq_id);
    if (!cq_) cq_ = std::make_unique<CommandQueue>(this);
    return *cq_;
}
inline bool IDevice::close() {
    if (!open_) return true;
    open_ = false;
    std::fflush(stdout);
    tensim::check(tensim::api().close_device(handle_));
    return true;
}
inline IDevice::~IDevice() {
    if (open_ && tensim::host_api) tensim::host_api->close_device(handle_);
}

inline std::size_t GetNumAvailableDevices() {
    uint32_t n = 0;
    tensim::check(tensim::api().num_devices(&n));
    return n;
}
inline std::size_t GetNumPCIeDevices() { return GetNumAvailableDevices(); }
inline bool IsGalaxyCluster() { return false; }
inline chip_id_t GetPCIeDeviceID(chip_id_t id) { return id; }

inline IDevice* CreateDevice(chip_id_t device_id, uint8_t num_hw_cqs = 1, std::size_t = DEFAULT_L1_SMALL_SIZE,
                             std::size_t = DEFAULT_TRACE_REGION_SIZE, const DispatchCoreConfig& = DispatchCoreConfig{},
                             const std::vector<uint32_t>& = {}, std::size_t = DEFAULT_WORKER_L1_SIZE) {
    if (num_hw_cqs != 1) TT_THROW("CreateDevice: {} command queues: tensim models one", num_hw_cqs);
    uint32_t h = 0;
    tensim::check(tensim::api().open_device(device_id, &h));
    return new IDevice(h, device_id);
}
inline IDevice* CreateDeviceMinimal(chip_id_t device_id, uint8_t num_hw_cqs = 1, const DispatchCoreConfig& = {}) {
    return CreateDevice(device_id, num_hw_cqs);
}
inline bool CloseDevice(IDevice* device) {
    bool ok = device->close();
    delete device;
    return ok;
}

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

// ---- Programs ----

struct RuntimeArgsData {
    std::vector<uint32_t> args;
    bool set = false;
    uint32_t& operator[](std::size_t i) { return at(i); }
    const uint32_t& operator[](std::size_t i) const { return at(i); }
    uint32_t& at(std::size_t i) {
        if (i >= args.size()) TT_THROW("runtime arg {} is out of range: {} args are set", i, args.size());
        return args[i];
    }
    const uint32_t& at(std::size_t i) const {
        if (i >= args.size()) TT_THROW("runtime arg {} is out of range: {} args are set", i, args.size());
        return args[i];
    }
    uint32_t* data() { return args.data(); }
    const uint32_t* data() const { return args.data(); }
    std::size_t size() const { return args.size(); }
    uint32_t* rt_args_data() { return args.data(); }
};
using RuntimeArgs = std::vector<uint32_t>;

class CircularBufferConfig {
public:
    class Builder {
    public:
        Builder(CircularBufferConfig& c, uint8_t i) : c_(c), i_(i) {}
        Builder& set_data_format(tt::DataFormat f) {
            c_.formats_[i_] = f;
            return *this;
        }
        Builder& set_page_size(uint32_t p) {
            c_.page_sizes_[i_] = p;
            return *this;
        }
        Builder& set_total_size(uint32_t t) {
            c_.total_size_ = t;
            return *this;
        }
        template <typename T>
        Builder& set_tile_dims(const T&) {
            return *this;
        }

    private:
        CircularBufferConfig& c_;
        uint8_t i_;
    };
    explicit CircularBufferConfig(uint32_t total_size) : total_size_(total_size) {}
    CircularBufferConfig(uint32_t total_size, const std::map<uint8_t, tt::DataFormat>& formats)
        : total_size_(total_size), formats_(formats) {}
    CircularBufferConfig(uint32_t total_size, const std::map<uint8_t, tt::DataFormat>& formats, const Buffer& buffer)
        : total_size_(total_size), formats_(formats), buffer_(buffer.handle_), buffer_address_(buffer.address()) {}
    CircularBufferConfig& set_page_size(uint8_t index, uint32_t page_size) {
        page_sizes_[index] = page_size;
        return *this;
    }
    CircularBufferConfig& set_total_size(uint32_t t) {
        total_size_ = t;
        return *this;
    }
    CircularBufferConfig& set_globally_allocated_address(const Buffer& b) {
        buffer_ = b.handle_;
        buffer_address_ = b.address();
        return *this;
    }
    CircularBufferConfig& set_globally_allocated_address_and_total_size(const Buffer& b, uint32_t t) {
        set_globally_allocated_address(b);
        total_size_ = t;
        return *this;
    }
    template <typename T>
    CircularBufferConfig& set_tile_dims(uint8_t, const T&) {
        return *this;
    }
    Builder index(uint8_t i) { return Builder(*this, i); }
    uint32_t total_size() const { return total_size_; }
    std::optional<uint32_t> globally_allocated_address() const {
        return buffer_ >= 0 ? std::optional<uint32_t>(buffer_address_) : std::nullopt;
    }
    const std::map<uint8_t, tt::DataFormat>& data_formats() const { return formats_; }
    const std::map<uint8_t, uint32_t>& page_sizes() const { return page_sizes_; }
    std::vector<uint32_t> abi_formats() const {
        std::vector<uint32_t> v;
        for (const auto& [i, f] : formats_) {
            auto p = page_sizes_.find(i);
            v.insert(v.end(), {i, static_cast<uint32_t>(f), p == page_sizes_.end() ? 0u : p->second});
        }
        return v;
    }
    int64_t buffer_handle() const { return buffer_; }

private:
    uint32_t total_size_;
    std::map<uint8_t, tt::DataFormat> formats_;
    std::map<uint8_t, uint32_t> page_sizes_;
    int64_t buffer_ = -1;
    uint32_t buffer_address_ = 0;
};

namespace detail {
// Programs that mesh traces hold: a trace replays its programs after the workload that owned them may be gone,
// so a program released while held (its handle's count above zero) is freed with its last hold.
struct ProgramHolds {
    std::unordered_map<uint32_t, uint32_t> count;
    std::unordered_set<uint32_t> released;
};
inline ProgramHolds& program_holds() {
    thread_local ProgramHolds h;
    return h;
}
inline void hold_program(uint32_t handle) { program_holds().count[handle]++; }
inline void unhold_program(uint32_t handle) {
    auto& h = program_holds();
    auto it = h.count.find(handle);
    if (it == h.count.end()) return;
    if (--it->second == 0) {
        h.count.erase(it);
        if (h.released.erase(handle) && tensim::host_api) tensim::host_api->free_program(handle);
    }
}
}  // namespace detail

class Program {
public:
    Program() { tensim::check(tensim::api().create_program(&handle_)); }
    Program(Program&& o) noexcept
        : handle_(std::exchange(o.handle_, UINT32_MAX)), kernels_(std::move(o.kernels_)), cbs_(std::move(o.cbs_)) {}
    Program& operator=(Program&& o) noexcept {
        if (this != &o) {
            release();
            handle_ = std::exchange(o.handle_, UINT32_MAX);
            kernels_ = std::move(o.kernels_);
            cbs_ = std::move(o.cbs_);
        }
        return *this;
    }
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;
    ~Program() { release(); }

    struct KernelArgs {
        CoreRangeSet cores;
        // Indexed [x][y], as GetRuntimeArgs(program, kernel) returns them.
        std::vector<std::vector<RuntimeArgsData>> grid;
        RuntimeArgsData common;
    };
    uint32_t handle_ = UINT32_MAX;
    mutable std::vector<KernelArgs> kernels_;
    std::vector<CircularBufferConfig> cbs_;

    KernelArgs& kernel(KernelHandle k) const {
        if (k >= kernels_.size()) TT_THROW("kernel handle {} does not exist in this program ({} kernels)", k, kernels_.size());
        return kernels_[k];
    }
    RuntimeArgsData& args(KernelHandle k, const CoreCoord& c) const {
        auto& ka = kernel(k);
        if (!ka.cores.contains(c)) TT_THROW("core {} is not one of kernel {}'s cores {}", c.str(), k, ka.cores.str());
        return ka.grid[c.x][c.y];
    }
    // Hand every runtime arg to tensim (before a run).
    void push_args() const { push_args(handle_, kernels_); }
    // Hand the runtime args `kernels` to program `handle` (a trace replays the args it captured).
    static void push_args(uint32_t handle, const std::vector<KernelArgs>& kernels) {
        for (uint32_t k = 0; k < kernels.size(); k++) {
            const auto& ka = kernels[k];
            for (uint32_t x = 0; x < ka.grid.size(); x++)
                for (uint32_t y = 0; y < ka.grid[x].size(); y++)
                    if (ka.grid[x][y].set)
                        tensim::check(tensim::api().set_args(handle, k, x, y, 0, ka.grid[x][y].args.data(),
                                                             static_cast<uint32_t>(ka.grid[x][y].args.size())));
            if (ka.common.set)
                tensim::check(tensim::api().set_args(handle, k, 0, 0, 1, ka.common.args.data(),
                                                     static_cast<uint32_t>(ka.common.args.size())));
        }
    }

private:
    void release() {
        if (handle_ != UINT32_MAX && tensim::host_api) {
            // A trace that holds it frees it after its last replay.
            if (detail::program_holds().count.count(handle_)) {
                detail::program_holds().released.insert(handle_);
            } else {
                tensim::host_api->free_program(handle_);
            }
        }
        handle_ = UINT32_MAX;
    }
};

inline Program CreateProgram() { return Program(); }

namespace detail {
using CoreSpec = std::variant<CoreCoord, CoreRange, CoreRangeSet>;
inline CoreRangeSet core_set(const CoreSpec& s) {
    if (const auto* r = std::get_if<CoreRangeSet>(&s)) return *r;
    if (const auto* r = std::get_if<CoreRange>(&s)) return CoreRangeSet(*r);
    return CoreRangeSet(CoreRange(std::get<CoreCoord>(s)));
}
inline std::vector<uint32_t> ranges(const CoreRangeSet& s) {
    std::vector<uint32_t> v;
    push_ranges(v, s);
    return v;
}
struct Strings {
    std::vector<std::string> keys, values;
    std::vector<const char*> kp, vp;
    void finish() {
        for (const auto& k : keys) kp.push_back(k.c_str());
        for (const auto& v : values) vp.push_back(v.c_str());
    }
};
inline KernelHandle create_kernel(Program& program, const char* path, const char* source, const CoreSpec& spec,
                                  const std::variant<DataMovementConfig, ComputeConfig, EthernetConfig>& config) {
    CoreRangeSet cores = core_set(spec);
    auto rs = ranges(cores);
    tensim_kernel_config c{};
    Strings defines, named;
    std::vector<uint32_t> named_values, unpack_modes;
    auto fill = [&](const auto& cfg) {
        c.compile_args = cfg.compile_args.data();
        c.num_compile_args = static_cast<uint32_t>(cfg.compile_args.size());
        for (const auto& [k, v] : cfg.defines) defines.keys.push_back(k), defines.values.push_back(v);
        // Named args in name order: the same set gives the same kernel build.
        std::map<std::string, uint32_t> sorted(cfg.named_compile_args.begin(), cfg.named_compile_args.end());
        for (const auto& [k, v] : sorted) named.keys.push_back(k), named_values.push_back(v);
    };
    if (const auto* dm = std::get_if<DataMovementConfig>(&config)) {
        c.kind = 0;
        c.processor = static_cast<uint32_t>(dm->processor);
        c.noc = dm->noc;
        c.noc_mode = dm->noc_mode;
        fill(*dm);
    } else if (const auto* cc = std::get_if<ComputeConfig>(&config)) {
        c.kind = 1;
        c.math_fidelity = static_cast<uint32_t>(cc->math_fidelity);
        c.fp32_dest_acc_en = cc->fp32_dest_acc_en;
        c.dst_full_sync_en = cc->dst_full_sync_en;
        c.math_approx_mode = cc->math_approx_mode;
        for (auto m : cc->unpack_to_dest_mode) unpack_modes.push_back(static_cast<uint32_t>(m));
        c.unpack_to_dest = unpack_modes.data();
        c.num_unpack_to_dest = static_cast<uint32_t>(unpack_modes.size());
        fill(*cc);
    } else {
        const auto& e = std::get<EthernetConfig>(config);
        c.kind = 2;
        c.processor = static_cast<uint32_t>(e.processor);
        c.noc = e.noc;
        c.eth_mode = e.eth_mode;
        fill(e);
    }
    defines.finish();
    named.finish();
    c.define_keys = defines.kp.data();
    c.define_values = defines.vp.data();
    c.num_defines = static_cast<uint32_t>(defines.kp.size());
    c.named_keys = named.kp.data();
    c.named_values = named_values.data();
    c.num_named = static_cast<uint32_t>(named_values.size());
    uint32_t k = 0;
    std::fflush(stdout);
    tensim::check(tensim::api().create_kernel(program.handle_, path, source, rs.data(),
                                              static_cast<uint32_t>(rs.size() / 4), &c, &k));
    Program::KernelArgs ka{cores, {}, {}};
    auto bb = cores.bounding_box();
    ka.grid.assign(bb.end_coord.x + 1, std::vector<RuntimeArgsData>(bb.end_coord.y + 1));
    if (program.kernels_.size() != k) TT_THROW("tensim: kernel handles out of step");
    program.kernels_.push_back(std::move(ka));
    return k;
}
}  // namespace detail

inline KernelHandle CreateKernel(Program& program, const std::string& file_name, const detail::CoreSpec& core_spec,
                                 const std::variant<DataMovementConfig, ComputeConfig, EthernetConfig>& config) {
    return detail::create_kernel(program, file_name.c_str(), nullptr, core_spec, config);
}
inline KernelHandle CreateKernelFromString(Program& program, const std::string& source, const detail::CoreSpec& core_spec,
                                           const std::variant<DataMovementConfig, ComputeConfig, EthernetConfig>& config) {
    return detail::create_kernel(program, nullptr, source.c_str(), core_spec, config);
}

inline CBHandle CreateCircularBuffer(Program& program, const detail::CoreSpec& core_spec, const CircularBufferConfig& config) {
    auto rs = detail::ranges(detail::core_set(core_spec));
    auto f = config.abi_formats();
    uint32_t h = 0;
    tensim::check(tensim::api().create_cb(program.handle_, rs.data(), static_cast<uint32_t>(rs.size() / 4),
                                          config.total_size(), f.data(), static_cast<uint32_t>(f.size() / 3),
                                          config.buffer_handle(), &h));
    program.cbs_.push_back(config);
    return h;
}
inline const CircularBufferConfig& GetCircularBufferConfig(Program& program, CBHandle h) {
    if (h >= program.cbs_.size()) TT_THROW("circular buffer handle {} does not exist in this program", h);
    return program.cbs_[h];
}
inline void UpdateCircularBufferTotalSize(Program& program, CBHandle h, uint32_t total_size) {
    tensim::check(tensim::api().update_cb(program.handle_, static_cast<uint32_t>(h), total_size, -1));
    program.cbs_.at(h).set_total_size(total_size);
}
inline void UpdateCircularBufferPageSize(Program& program, CBHandle h, uint8_t index, uint32_t page_size) {
    tensim::check(tensim::api().update_cb_page_size(program.handle_, static_cast<uint32_t>(h), index, page_size));
    program.cbs_.at(h).set_page_size(index, page_size);
}
inline void UpdateDynamicCircularBufferAddress(Program& program, CBHandle h, const Buffer& buffer) {
    tensim::check(tensim::api().update_cb(program.handle_, static_cast<uint32_t>(h), 0, buffer.handle_));
    program.cbs_.at(h).set_globally_allocated_address(buffer);
}
inline void UpdateDynamicCircularBufferAddressAndTotalSize(Program& program, CBHandle h, const Buffer& buffer,
                                                           uint32_t total_size) {
    tensim::check(tensim::api().update_cb(program.handle_, static_cast<uint32_t>(h), total_size, buffer.handle_));
    program.cbs_.at(h).set_globally_allocated_address_and_total_size(buffer, total_size);
}

inline uint32_t CreateSemaphore(Program& program, const std::variant<CoreRange, CoreRangeSet>& core_spec,
                                uint32_t initial_value, CoreType core_type = CoreType::WORKER) {
    const bool eth = core_type == CoreType::ETH || core_type == CoreType::ACTIVE_ETH || core_type == CoreType::IDLE_ETH;
    if (!eth && core_type != CoreType::WORKER)
        TT_THROW("CreateSemaphore: semaphores on core type {} are not modelled (WORKER and ETH are)",
                 static_cast<int>(core_type));
    CoreRangeSet s = std::holds_alternative<CoreRange>(core_spec) ? CoreRangeSet(std::get<CoreRange>(core_spec))
                                                                   : std::get<CoreRangeSet>(core_spec);
    auto rs = detail::ranges(s);
    uint32_t id = 0;
    tensim::check(tensim::api().create_semaphore(program.handle_, rs.data(), static_cast<uint32_t>(rs.size() / 4),
                                                 initial_value, eth ? 1u : 0u, &id));
    return id;
}

inline void SetRuntimeArgs(const Program& program, KernelHandle kernel, const detail::CoreSpec& core_spec,
                           tt::stl::Span<const uint32_t> runtime_args) {
    if (runtime_args.size() > max_runtime_args)
        TT_THROW("SetRuntimeArgs: {} args; at most {} per core", runtime_args.size(), max_runtime_args);
    const CoreRangeSet cores = detail::core_set(core_spec);
    for (const auto& r : cores.ranges())
        for (const auto& c : r) {
            auto& a = program.args(kernel, c);
            a.args.assign(runtime_args.begin(), runtime_args.end());
            a.set = true;
        }
}
inline void SetRuntimeArgs(const Program& program, KernelHandle kernel, const detail::CoreSpec& core_spec,
                           std::initializer_list<uint32_t> runtime_args) {
    SetRuntimeArgs(program, kernel, core_spec, tt::stl::Span<const uint32_t>(runtime_args.begin(), runtime_args.size()));
}
inline void SetRuntimeArgs(const Program& program, KernelHandle kernel, const std::vector<CoreCoord>& cores,
                           const std::vector<std::vector<uint32_t>>& runtime_args) {
    if (cores.size() != runtime_args.size())
        TT_THROW("SetRuntimeArgs: {} cores but {} argument lists", cores.size(), runtime_args.size());
    for (std::size_t i = 0; i < cores.size(); i++) SetRuntimeArgs(program, kernel, cores[i], runtime_args[i]);
}
inline void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel, tt::stl::Span<const uint32_t> args) {
    auto& c = program.kernel(kernel).common;
    c.args.assign(args.begin(), args.end());
    c.set = true;
}
inline void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel, std::initializer_list<uint32_t> args) {
    SetCommonRuntimeArgs(program, kernel, tt::stl::Span<const uint32_t>(args.begin(), args.size()));
}
inline RuntimeArgsData& GetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreCoord& core) {
    return program.args(kernel, core);
}
inline std::vector<std::vector<RuntimeArgsData>>& GetRuntimeArgs(const Program& program, KernelHandle kernel) {
    return program.kernel(kernel).grid;
}
inline RuntimeArgsData& GetCommonRuntimeArgs(const Program& program, KernelHandle kernel) {
    return program.kernel(kernel).common;
}

// ---- Running and data transfer ----

namespace detail {
inline void run(IDevice* device, const Program& program) {
    program.push_args();
    std::fflush(stdout);
    tensim::check(tensim::api().run_program(device->handle_, program.handle_));
}
// Run program `handle` with the runtime args `kernels` (a trace's replay of what it captured).
inline void run_captured(IDevice* device, uint32_t handle, const std::vector<Program::KernelArgs>& kernels) {
    Program::push_args(handle, kernels);
    std::fflush(stdout);
    tensim::check(tensim::api().run_program(device->handle_, handle));
}
inline void write(Buffer* b, const void* src, std::size_t bytes) {
    tensim::check(tensim::api().write_buffer(b->handle_, src, bytes));
}
inline void read(Buffer* b, void* dst, std::size_t bytes) {
    tensim::check(tensim::api().read_buffer(b->handle_, dst, bytes));
}
// A BufferRegion of the buffer: offset and size whole pages (or the whole buffer), inside it.
inline void write_region(Buffer* b, const void* src, const BufferRegion& r) {
    tensim::check(tensim::api().buffer_region(b->handle_, r.offset, const_cast<void*>(src), r.size, 1));
}
inline void read_region(Buffer* b, void* dst, const BufferRegion& r) {
    tensim::check(tensim::api().buffer_region(b->handle_, r.offset, dst, r.size, 0));
}
template <typename T>
void read_vec(Buffer* b, std::vector<T>& dst) {
    dst.resize(b->size() / sizeof(T));
    read(b, dst.data(), dst.size() * sizeof(T));
}
}  // namespace detail

template <typename T>
void EnqueueWriteBuffer(CommandQueue&, BufferRef buffer, const std::vector<T>& src, bool /*blocking*/, tt::stl::Span<const SubDeviceId> = {}) {
    detail::write(buffer.b, src.data(), src.size() * sizeof(T));
}
inline void EnqueueWriteBuffer(CommandQueue&, BufferRef buffer, const void* src, bool, tt::stl::Span<const SubDeviceId> = {}) {
    detail::write(buffer.b, src, buffer.b->size());
}
template <typename T>
void EnqueueWriteBuffer(CommandQueue&, BufferRef buffer, const std::shared_ptr<std::vector<T>>& src, bool, tt::stl::Span<const SubDeviceId> = {}) {
    detail::write(buffer.b, src->data(), src->size() * sizeof(T));
}
template <typename T>
void EnqueueReadBuffer(CommandQueue&, BufferRef buffer, std::vector<T>& dst, bool /*blocking*/, tt::stl::Span<const SubDeviceId> = {}) {
    detail::read_vec(buffer.b, dst);
}
inline void EnqueueReadBuffer(CommandQueue&, BufferRef buffer, void* dst, bool, tt::stl::Span<const SubDeviceId> = {}) {
    detail::read(buffer.b, dst, buffer.b->size());
}
// A region of a buffer: offset and size whole pages of it (or the whole buffer), inside it; the data are
// exactly the region's bytes.
inline void EnqueueWriteSubBuffer(CommandQueue&, BufferRef buffer, const void* src, const BufferRegion& region, bool) {
    detail::write_region(buffer.b, src, region);
}
template <typename T>
void EnqueueWriteSubBuffer(CommandQueue& cq, BufferRef buffer, const std::vector<T>& src, const BufferRegion& region,
                           bool blocking) {
    if (src.size() * sizeof(T) < region.size)
        TT_THROW("EnqueueWriteSubBuffer: {} bytes of data for a region of {} bytes", src.size() * sizeof(T), region.size);
    EnqueueWriteSubBuffer(cq, buffer, static_cast<const void*>(src.data()), region, blocking);
}
template <typename T>
void EnqueueWriteSubBuffer(CommandQueue& cq, BufferRef buffer, const std::shared_ptr<std::vector<T>>& src,
                           const BufferRegion& region, bool blocking) {
    EnqueueWriteSubBuffer(cq, buffer, *src, region, blocking);
}
inline void EnqueueReadSubBuffer(CommandQueue&, BufferRef buffer, void* dst, const BufferRegion& region, bool) {
    detail::read_region(buffer.b, dst, region);
}
template <typename T>
void EnqueueReadSubBuffer(CommandQueue& cq, BufferRef buffer, std::vector<T>& dst, const BufferRegion& region,
                          bool blocking) {
    dst.resize(region.size / sizeof(T));
    EnqueueReadSubBuffer(cq, buffer, static_cast<void*>(dst.data()), region, blocking);
}
inline void EnqueueProgram(CommandQueue& cq, Program& program, bool /*blocking*/) { detail::run(cq.device(), program); }
inline void Finish(CommandQueue&, tt::stl::Span<const SubDeviceId> = {}) {}
inline void Synchronize(IDevice*, std::optional<uint8_t> = std::nullopt, tt::stl::Span<const SubDeviceId> = {}) {}
inline void DumpDeviceProfileResults(IDevice*, const Program&) {}
inline void ReadMeshDeviceProfilerResults(IDevice&) {}

namespace detail {
template <typename T>
void WriteToBuffer(Buffer& buffer, const std::vector<T>& src) {
    write(&buffer, src.data(), src.size() * sizeof(T));
}
template <typename T>
void WriteToBuffer(const std::shared_ptr<Buffer>& buffer, const std::vector<T>& src) {
    write(buffer.get(), src.data(), src.size() * sizeof(T));
}
template <typename T>
void ReadFromBuffer(Buffer& buffer, std::vector<T>& dst) {
    read_vec(&buffer, dst);
}
template <typename T>
void ReadFromBuffer(const std::shared_ptr<Buffer>& buffer, std::vector<T>& dst) {
    read_vec(buffer.get(), dst);
}
inline void LaunchProgram(IDevice* device, Program& program, bool = true) { run(device, program); }
inline void LaunchProgram(IDevice* device, std::shared_ptr<Program> program, bool = true) { run(device, *program); }
inline bool CompileProgram(IDevice*, Program&, bool = false) { return true; }
// A worker core's L1 (logical coordinates), an Ethernet core's (CoreType::ETH: logical (0, channel)), or a
// DRAM channel's address space.
inline uint32_t l1_flags(bool write, CoreType t) {
    const bool eth = t == CoreType::ETH || t == CoreType::ACTIVE_ETH || t == CoreType::IDLE_ETH;
    if (t != CoreType::WORKER && !eth)
        TT_THROW("WriteToDeviceL1/ReadFromDeviceL1: core type {} is not modelled (worker and Ethernet cores are)", static_cast<int>(t));
    return (write ? 1u : 0u) | (eth ? 2u : 0u);
}
inline bool WriteToDeviceL1(IDevice* device, const CoreCoord& core, uint32_t address, std::vector<uint32_t>& data,
                            CoreType core_type = CoreType::WORKER) {
    tensim::check(tensim::api().l1(device->handle_, static_cast<uint32_t>(core.x), static_cast<uint32_t>(core.y), address,
                                   data.data(), data.size() * 4, l1_flags(true, core_type)));
    return true;
}
inline bool ReadFromDeviceL1(IDevice* device, const CoreCoord& core, uint32_t address, uint32_t size,
                             std::vector<uint32_t>& data, CoreType core_type = CoreType::WORKER) {
    data.resize((size + 3) / 4);
    tensim::check(tensim::api().l1(device->handle_, static_cast<uint32_t>(core.x), static_cast<uint32_t>(core.y), address,
                                   data.data(), size, l1_flags(false, core_type)));
    return true;
}
inline bool WriteToDeviceDRAMChannel(IDevice* device, int dram_channel, uint32_t address, std::vector<uint32_t>& host_buffer) {
    if (dram_channel < 0) TT_THROW("WriteToDeviceDRAMChannel: DRAM channel {} is negative", dram_channel);
    tensim::check(tensim::api().l1(device->handle_, static_cast<uint32_t>(dram_channel), 0, address, host_buffer.data(),
                                   host_buffer.size() * 4, 1 | 4));
    return true;
}
inline bool ReadFromDeviceDRAMChannel(IDevice* device, int dram_channel, uint32_t address, uint32_t size,
                                      std::vector<uint32_t>& host_buffer) {
    if (dram_channel < 0) TT_THROW("ReadFromDeviceDRAMChannel: DRAM channel {} is negative", dram_channel);
    host_buffer.resize((size + 3) / 4);
    tensim::check(tensim::api().l1(device->handle_, static_cast<uint32_t>(dram_channel), 0, address, host_buffer.data(),
                                   size, 4));
    return true;
}
inline uint32_t TileSize(const tt::DataFormat& f) { return tt::tile_size(f); }
}  // namespace detail

}  // namespace tt::tt_metal
