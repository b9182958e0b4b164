// tensim's TT-Metalium host headers: devices — IDevice (grid, cores, DRAM and Ethernet queries, its allocator),
// CreateDevice/CloseDevice and the command queue object. Each call forwards through tensim's host ABI table
// to the Rust host API. Written for tensim from the documented interface.
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

}  // namespace tt::tt_metal
