// tensim's TT-Metalium host headers: the `distributed` mesh API of the newer examples, for a unit mesh (one
// device): MeshDevice, MeshCommandQueue, MeshBuffer, MeshWorkload and the Enqueue*/ReadShard/WriteShard
// calls. Larger meshes say they are not modelled from C++. Written for tensim from the documented interface.
#pragma once
#include "tensim/host/device.hpp"

namespace tt::tt_metal::distributed {

class MeshShape {
public:
    MeshShape(uint32_t rows, uint32_t cols) : dims_{rows, cols} {}
    explicit MeshShape(uint32_t n) : dims_{n, 1} {}
    uint32_t operator[](std::size_t i) const { return dims_.at(i); }
    std::size_t dims() const { return 2; }
    std::size_t mesh_size() const { return static_cast<std::size_t>(dims_[0]) * dims_[1]; }
    std::string str() const { return fmt::format("MeshShape([{}, {}])", dims_[0], dims_[1]); }

private:
    std::array<uint32_t, 2> dims_;
};
class MeshCoordinate {
public:
    MeshCoordinate(uint32_t row, uint32_t col) : c_{row, col} {}
    uint32_t operator[](std::size_t i) const { return c_.at(i); }
    std::string str() const { return fmt::format("MeshCoordinate([{}, {}])", c_[0], c_[1]); }

private:
    std::array<uint32_t, 2> c_;
};
class MeshCoordinateRange {
public:
    MeshCoordinateRange(const MeshShape& s) : start_(0, 0), end_(s[0] - 1, s[1] - 1) {}
    MeshCoordinateRange(const MeshCoordinate& start, const MeshCoordinate& end) : start_(start), end_(end) {}
    const MeshCoordinate& start_coord() const { return start_; }
    const MeshCoordinate& end_coord() const { return end_; }

private:
    MeshCoordinate start_, end_;
};
struct MeshDeviceConfig {
    MeshShape mesh_shape;
    MeshDeviceConfig(const MeshShape& shape) : mesh_shape(shape) {}
    template <typename... Rest>
    MeshDeviceConfig(const MeshShape& shape, const Rest&...) : mesh_shape(shape) {}
};

class MeshDevice;
class MeshCommandQueue {
public:
    explicit MeshCommandQueue(MeshDevice* d) : device_(d) {}
    MeshDevice* device() const { return device_; }
    uint32_t id() const { return 0; }

private:
    MeshDevice* device_;
};

class MeshDevice : public IDevice {
public:
    MeshDevice(uint32_t handle, int id, MeshShape shape) : IDevice(handle, id), shape_(shape), cq_(this) {}
    static std::shared_ptr<MeshDevice> create(const MeshDeviceConfig& config, std::size_t = DEFAULT_L1_SMALL_SIZE,
                                              std::size_t = DEFAULT_TRACE_REGION_SIZE, std::size_t num_cqs = 1,
                                              const DispatchCoreConfig& = DispatchCoreConfig{},
                                              tt::stl::Span<const std::uint32_t> = {},
                                              std::size_t = DEFAULT_WORKER_L1_SIZE) {
        if (config.mesh_shape.mesh_size() != 1)
            TT_THROW("MeshDevice::create({}): not modelled: C++ host programs run on a unit mesh (1x1); tensim "
                     "simulates larger meshes through its Rust API and `tensim run` collectives",
                     config.mesh_shape.str());
        return create_unit_mesh(0, 0, 0, num_cqs);
    }
    static std::shared_ptr<MeshDevice> create_unit_mesh(int device_id, std::size_t = DEFAULT_L1_SMALL_SIZE,
                                                        std::size_t = DEFAULT_TRACE_REGION_SIZE, std::size_t num_cqs = 1,
                                                        const DispatchCoreConfig& = DispatchCoreConfig{},
                                                        tt::stl::Span<const std::uint32_t> = {},
                                                        std::size_t = DEFAULT_WORKER_L1_SIZE) {
        if (num_cqs != 1) TT_THROW("MeshDevice: {} command queues: tensim models one", num_cqs);
        uint32_t h = 0;
        tensim::check(tensim::api().open_device(device_id, &h));
        return std::make_shared<MeshDevice>(h, device_id, MeshShape(1, 1));
    }
    static std::map<int, std::shared_ptr<MeshDevice>> create_unit_meshes(const std::vector<int>& ids) {
        std::map<int, std::shared_ptr<MeshDevice>> m;
        for (int id : ids) m[id] = create_unit_mesh(id);
        return m;
    }
    MeshCommandQueue& mesh_command_queue(std::optional<uint8_t> cq_id = std::nullopt) {
        if (cq_id.value_or(0) != 0) TT_THROW("mesh command queue {} does not exist: tensim models one", *cq_id);
        return cq_;
    }
    const MeshShape& shape() const { return shape_; }
    std::size_t num_rows() const { return shape_[0]; }
    std::size_t num_cols() const { return shape_[1]; }
    std::size_t num_devices() const { return shape_.mesh_size(); }
    std::vector<IDevice*> get_devices() { return {this}; }
    IDevice* get_device(const MeshCoordinate&) { return this; }

private:
    MeshShape shape_;
    MeshCommandQueue cq_;
};

struct DeviceLocalBufferConfig {
    DeviceAddr page_size = 0;
    BufferType buffer_type = BufferType::DRAM;
    BufferShardingArgs sharding_args;
    std::optional<bool> bottom_up;
    std::optional<SubDeviceId> sub_device_id;
};
struct ReplicatedBufferConfig {
    DeviceAddr size;
};
struct Shape2D {
    uint32_t h, w;
    Shape2D(uint32_t h_, uint32_t w_) : h(h_), w(w_) {}
};
struct ShardedBufferConfig {
    DeviceAddr global_size;
    Shape2D global_buffer_shape;
    Shape2D shard_shape;
    ShardOrientation shard_orientation = ShardOrientation::ROW_MAJOR;
};
using MeshBufferConfig = std::variant<ReplicatedBufferConfig, ShardedBufferConfig>;

class MeshBuffer {
public:
    static std::shared_ptr<MeshBuffer> create(const MeshBufferConfig& config, const DeviceLocalBufferConfig& local,
                                              MeshDevice* device, std::optional<DeviceAddr> address = std::nullopt) {
        if (address) TT_THROW("MeshBuffer::create at a given address is not modelled");
        DeviceAddr size = std::holds_alternative<ReplicatedBufferConfig>(config)
                              ? std::get<ReplicatedBufferConfig>(config).size
                              : std::get<ShardedBufferConfig>(config).global_size;
        auto m = std::shared_ptr<MeshBuffer>(new MeshBuffer());
        m->device_ = device;
        m->buffer_ = Buffer::create(device, size, local.page_size, local.buffer_type, local.sharding_args, local.bottom_up);
        return m;
    }
    DeviceAddr address() const { return buffer_->address(); }
    DeviceAddr size() const { return buffer_->size(); }
    DeviceAddr device_local_size() const { return buffer_->size(); }
    DeviceAddr page_size() const { return buffer_->page_size(); }
    uint32_t num_pages() const { return buffer_->num_pages(); }
    Buffer* get_device_buffer(const MeshCoordinate&) const { return buffer_.get(); }
    Buffer* get_reference_buffer() const { return buffer_.get(); }
    Buffer* get_backing_buffer() const { return buffer_.get(); }
    MeshDevice* device() const { return device_; }
    bool is_allocated() const { return buffer_->is_allocated(); }
    void deallocate() { buffer_->deallocate(); }

private:
    MeshBuffer() = default;
    MeshDevice* device_ = nullptr;
    std::shared_ptr<Buffer> buffer_;
};

class MeshWorkload {
public:
    MeshWorkload() = default;
    void add_program(const MeshCoordinateRange& range, Program&& program) {
        programs_.emplace_back(range, std::move(program));
    }
    std::vector<std::pair<MeshCoordinateRange, Program>>& get_programs() { return programs_; }

private:
    std::vector<std::pair<MeshCoordinateRange, Program>> programs_;
};
inline MeshWorkload CreateMeshWorkload() { return MeshWorkload(); }
inline void AddProgramToMeshWorkload(MeshWorkload& w, Program&& p, const MeshCoordinateRange& range) {
    w.add_program(range, std::move(p));
}

inline void EnqueueMeshWorkload(MeshCommandQueue& cq, MeshWorkload& workload, bool /*blocking*/) {
    for (auto& [range, program] : workload.get_programs()) tt::tt_metal::detail::run(cq.device(), program);
}
template <typename T>
void EnqueueWriteMeshBuffer(MeshCommandQueue&, std::shared_ptr<MeshBuffer>& buffer, const std::vector<T>& src,
                            bool /*blocking*/ = false) {
    tt::tt_metal::detail::write(buffer->get_reference_buffer(), src.data(), src.size() * sizeof(T));
}
template <typename T>
void EnqueueReadMeshBuffer(MeshCommandQueue&, std::vector<T>& dst, std::shared_ptr<MeshBuffer>& buffer,
                           bool /*blocking*/ = true) {
    tt::tt_metal::detail::read_vec(buffer->get_reference_buffer(), dst);
}
template <typename T>
void WriteShard(MeshCommandQueue&, const std::shared_ptr<MeshBuffer>& buffer, std::vector<T>& src,
                const MeshCoordinate&, bool = false) {
    tt::tt_metal::detail::write(buffer->get_reference_buffer(), src.data(), src.size() * sizeof(T));
}
template <typename T>
void ReadShard(MeshCommandQueue&, std::vector<T>& dst, const std::shared_ptr<MeshBuffer>& buffer,
               const MeshCoordinate&, bool = true) {
    tt::tt_metal::detail::read_vec(buffer->get_reference_buffer(), dst);
}
inline void Finish(MeshCommandQueue&, tt::stl::Span<const SubDeviceId> = {}) {}
inline void Synchronize(MeshDevice*, std::optional<uint8_t> = std::nullopt, tt::stl::Span<const SubDeviceId> = {}) {}

}  // namespace tt::tt_metal::distributed
