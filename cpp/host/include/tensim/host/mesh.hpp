// tensim's TT-Metalium host headers: the `distributed` mesh API of the newer examples: MeshDevice (a grid
// of devices, ids 0.. in row-major mesh order), MeshCommandQueue, MeshBuffer (replicated, or sharded over
// the mesh), MeshWorkload and the Enqueue*/ReadShard/WriteShard calls, mesh traces and events. Devices of a
// mesh created with MeshDevice::create run their programs together, over the system's Ethernet links and
// fabric when the run is on a `--system`. Written for tensim from the documented interface.
#pragma once
#include <algorithm>
#include <ostream>

#include "tensim/host/device.hpp"
#include "tensim/host/mesh_coord.hpp"
#include "tensim/host/fabric.hpp"

namespace tt::tt_metal::distributed {

class MeshDevice;
class MeshWorkload;
class MeshBuffer;
struct MeshEvent;
// One shard of a mesh buffer moved to or from host memory (today's form: built from the coordinate, the
// host memory set with .host_data(ptr)).
class ShardDataTransfer {
public:
    explicit ShardDataTransfer(const MeshCoordinate& coord) : coord_(coord) {}
    ShardDataTransfer& host_data(void* p) {
        data_ = p;
        return *this;
    }
    // Only this region of the device's buffer (whole pages; unset: all of it).
    ShardDataTransfer& region(const BufferRegion& r) {
        region_ = r;
        return *this;
    }
    const MeshCoordinate& shard_coord() const { return coord_; }
    void* host_data() const { return data_; }
    const std::optional<BufferRegion>& region() const { return region_; }

private:
    MeshCoordinate coord_;
    void* data_ = nullptr;
    std::optional<BufferRegion> region_;
};
class MeshCommandQueue {
public:
    // The 2025 form of a shard transfer (an aggregate nested in the queue).
    struct ShardDataTransfer {
        MeshCoordinate shard_coord;
        void* host_data = nullptr;
        std::optional<BufferRegion> region;
    };
    MeshCommandQueue(MeshDevice* d, uint32_t id) : device_(d), id_(id) {}
    MeshDevice* device() const { return device_; }
    uint32_t id() const { return id_; }
    void enqueue_mesh_workload(MeshWorkload& mesh_workload, bool blocking);
    void enqueue_write_mesh_buffer(const std::shared_ptr<MeshBuffer>& buffer, const void* host_data, bool blocking);
    void enqueue_read_mesh_buffer(void* host_data, const std::shared_ptr<MeshBuffer>& buffer, bool blocking);
    void enqueue_write_shards(const std::shared_ptr<MeshBuffer>& buffer,
                              const std::vector<distributed::ShardDataTransfer>& transfers, bool blocking);
    void enqueue_write_shards(const std::shared_ptr<MeshBuffer>& buffer, const std::vector<ShardDataTransfer>& transfers,
                              bool blocking);
    void enqueue_read_shards(const std::vector<distributed::ShardDataTransfer>& transfers,
                             const std::shared_ptr<MeshBuffer>& buffer, bool blocking);
    void enqueue_read_shards(const std::vector<ShardDataTransfer>& transfers, const std::shared_ptr<MeshBuffer>& buffer,
                             bool blocking);
    MeshEvent enqueue_record_event(tt::stl::Span<const SubDeviceId> = {},
                                   const std::optional<MeshCoordinateRange>& = std::nullopt);
    MeshEvent enqueue_record_event_to_host(tt::stl::Span<const SubDeviceId> = {},
                                           const std::optional<MeshCoordinateRange>& = std::nullopt);
    void enqueue_wait_for_event(const MeshEvent&) {}
    // Queues run in order and to completion: nothing is left to wait for.
    void finish(tt::stl::Span<const SubDeviceId> = {}) {}

private:
    MeshDevice* device_;
    uint32_t id_;
};

struct MeshTraceId {
    uint32_t id = 0;
    bool operator==(const MeshTraceId& o) const { return id == o.id; }
};

// A mesh: device (r, c) is device id r * cols + c. The MeshDevice object is device (0, 0) itself.
// A program as a mesh trace captured it: the devices it runs on, its tensim program and its runtime args then.
struct CapturedProgram {
    MeshCoordinateRange range;
    uint32_t handle;
    std::vector<Program::KernelArgs> kernels;
};

class MeshDevice : public IDevice {
public:
    MeshDevice(uint32_t handle, int id, MeshShape shape, std::size_t num_cqs) : IDevice(handle, id), shape_(shape) {
        for (std::size_t q = 0; q < num_cqs; q++) cqs_.push_back(std::make_unique<MeshCommandQueue>(this, q));
    }
    static std::shared_ptr<MeshDevice> create(const MeshDeviceConfig& config, std::size_t = DEFAULT_L1_SMALL_SIZE,
                                              std::size_t = DEFAULT_TRACE_REGION_SIZE, std::size_t num_cqs = 1,
                                              const DispatchCoreConfig& = DispatchCoreConfig{},
                                              tt::stl::Span<const std::uint32_t> = {},
                                              std::size_t = DEFAULT_WORKER_L1_SIZE) {
        const MeshShape shape = config.mesh_shape();
        if (config.offset().has_value()) {
            for (std::size_t d = 0; d < config.offset()->dims(); d++)
                if ((*config.offset())[d] != 0)
                    TT_THROW("MeshDeviceConfig: not modelled: a mesh offset ({}); tensim places the mesh on the system itself",
                             config.offset()->str());
        }
        if (!config.physical_device_ids().empty())
            TT_THROW("MeshDeviceConfig: not modelled: physical device ids; tensim places the mesh on the system itself");
        if (shape.mesh_size() == 0) TT_THROW("MeshDevice::create({}): a mesh needs at least one device", shape.str());
        if (num_cqs == 0 || num_cqs > 2) TT_THROW("MeshDevice: {} command queues: tensim models 1 or 2", num_cqs);
        // tensim places the mesh on the system's chips (or on independent chips) and opens its devices.
        std::vector<uint32_t> ids(shape.mesh_size());
        tensim::check(tensim::api().open_mesh(shape[0], shape[1], ids.data()));
        auto mesh = std::make_shared<MeshDevice>(ids[0], static_cast<int>(ids[0]), shape, num_cqs);
        mesh->joint_ = true;
        for (std::size_t i = 1; i < ids.size(); i++)
            mesh->others_.push_back(std::make_unique<IDevice>(ids[i], static_cast<int>(ids[i])));
        return mesh;
    }
    static std::shared_ptr<MeshDevice> create_unit_mesh(int device_id, std::size_t = DEFAULT_L1_SMALL_SIZE,
                                                        std::size_t = DEFAULT_TRACE_REGION_SIZE, std::size_t num_cqs = 1,
                                                        const DispatchCoreConfig& = DispatchCoreConfig{},
                                                        tt::stl::Span<const std::uint32_t> = {},
                                                        std::size_t = DEFAULT_WORKER_L1_SIZE) {
        return open(device_id, MeshShape(1, 1), num_cqs);
    }
    static std::map<int, std::shared_ptr<MeshDevice>> create_unit_meshes(const std::vector<int>& ids) {
        std::map<int, std::shared_ptr<MeshDevice>> m;
        for (int id : ids) m[id] = create_unit_mesh(id);
        return m;
    }
    // Command queues run in order and to completion, so every event a second queue waits on has happened:
    // two queues are accepted (their overlap in time is not modelled).
    MeshCommandQueue& mesh_command_queue(std::optional<uint8_t> cq_id = std::nullopt) {
        std::size_t q = cq_id.value_or(0);
        if (q >= cqs_.size()) TT_THROW("mesh command queue {} does not exist: the mesh was created with {}", q, cqs_.size());
        return *cqs_[q];
    }
    const MeshShape& shape() const { return shape_; }
    std::size_t num_rows() const { return shape_[0]; }
    std::size_t num_cols() const { return shape_[1]; }
    std::size_t num_devices() const { return shape_.mesh_size(); }
    std::vector<IDevice*> get_devices() {
        std::vector<IDevice*> v{this};
        for (auto& d : others_) v.push_back(d.get());
        return v;
    }
    // One host holds every device of a tensim mesh.
    bool is_local(const MeshCoordinate& c) const { return c[0] < shape_[0] && c[1] < shape_[1]; }
    IDevice* get_device(const MeshCoordinate& c) {
        if (c[0] >= shape_[0] || c[1] >= shape_[1]) TT_THROW("{} is outside the mesh {}", c.str(), shape_.str());
        uint32_t i = c[0] * shape_[1] + c[1];
        return i == 0 ? static_cast<IDevice*>(this) : others_[i - 1].get();
    }
    bool close() {
        for (auto& d : others_) d->close();
        return IDevice::close();
    }
    // Mesh traces: a capture records the workloads enqueued until its end (without running them); a replay
    // runs them again, in order.
    MeshTraceId begin_mesh_trace(uint8_t) {
        if (capturing_) TT_THROW("BeginTraceCapture: trace {} is still being captured", capture_.id);
        capturing_ = true;
        capture_ = MeshTraceId{static_cast<uint32_t>(traces_.size())};
        traces_.emplace_back();
        released_.push_back(false);
        return capture_;
    }
    void end_mesh_trace(uint8_t, const MeshTraceId& id) {
        if (!capturing_ || !(id == capture_)) TT_THROW("EndTraceCapture: trace {} is not being captured", id.id);
        capturing_ = false;
    }
    void replay_mesh_trace(uint8_t, const MeshTraceId& id, bool);
    void release_mesh_trace(const MeshTraceId& id) {
        release(trace(id, "ReleaseTrace"));
        released_[id.id] = true;
    }
    bool capturing() const { return capturing_; }
    // Capture `w` into the trace: its programs (held until the trace is released, so the workload may go) and
    // their runtime args as they are now, which a replay runs again as tt-metal's recorded commands do.
    void record(MeshWorkload& w);
    ~MeshDevice() {
        for (auto& t : traces_) release(t);
    }
    MeshDevice(const MeshDevice&) = delete;
    MeshDevice& operator=(const MeshDevice&) = delete;
    // Created with MeshDevice::create: its devices run their workloads together (over the system's
    // Ethernet links and fabric); a unit mesh runs on its own.
    bool joint() const { return joint_; }
    // The FabricNodeId of the device at `c` (mesh 0; the chip id is the device id).
    tt::tt_fabric::FabricNodeId get_fabric_node_id(const MeshCoordinate& c) {
        return tt::tt_fabric::FabricNodeId(tt::tt_fabric::MeshId{0}, static_cast<uint32_t>(get_device(c)->id()));
    }

private:
    static std::shared_ptr<MeshDevice> open(int device_id, MeshShape shape, std::size_t num_cqs) {
        if (num_cqs == 0 || num_cqs > 2) TT_THROW("MeshDevice: {} command queues: tensim models 1 or 2", num_cqs);
        uint32_t h = 0;
        tensim::check(tensim::api().open_device(device_id, &h));
        return std::make_shared<MeshDevice>(h, device_id, shape, num_cqs);
    }
    // A trace: the workloads it captured, each as the programs it held.
    using Trace = std::vector<std::vector<CapturedProgram>>;
    Trace& trace(const MeshTraceId& id, const char* api) {
        if (id.id >= traces_.size()) TT_THROW("{}: no trace {} on this mesh ({} captured)", api, id.id, traces_.size());
        if (released_[id.id]) TT_THROW("{}: trace {} was released (ReleaseTrace); capture it again", api, id.id);
        return traces_[id.id];
    }
    static void release(Trace& t) {
        for (auto& w : t)
            for (auto& p : w) tt::tt_metal::detail::unhold_program(p.handle);
        t.clear();
    }
    MeshShape shape_;
    std::vector<std::unique_ptr<MeshCommandQueue>> cqs_;
    std::vector<std::unique_ptr<IDevice>> others_;
    std::vector<Trace> traces_;
    std::vector<bool> released_;
    bool capturing_ = false;
    bool joint_ = false;
    MeshTraceId capture_;
};

// Every generation's members, in an order each one's designated initializers keep: 2026 {page_size,
// buffer_type, sharding_args, bottom_up, sub_device_id}; 2025 {page_size, buffer_type, buffer_layout,
// shard_parameters, bottom_up[, sub_device_id]}. The sharding is sharding_args's, else buffer_layout's with
// shard_parameters.
struct DeviceLocalBufferConfig {
    DeviceAddr page_size = 0;
    BufferType buffer_type = BufferType::DRAM;
    TensorMemoryLayout buffer_layout = TensorMemoryLayout::INTERLEAVED;
    std::optional<ShardSpecBuffer> shard_parameters;
    BufferShardingArgs sharding_args;
    std::optional<bool> bottom_up;
    std::optional<SubDeviceId> sub_device_id;

    BufferShardingArgs sharding() const {
        const bool older = buffer_layout != TensorMemoryLayout::INTERLEAVED || shard_parameters.has_value();
        if (sharding_args.buffer_layout() != TensorMemoryLayout::INTERLEAVED) {
            if (older)
                TT_THROW("DeviceLocalBufferConfig: both sharding_args and buffer_layout/shard_parameters are set; "
                         "give one of them");
            return sharding_args;
        }
        if (!older) return sharding_args;
        if (buffer_layout == TensorMemoryLayout::INTERLEAVED)
            TT_THROW("DeviceLocalBufferConfig: shard_parameters with an INTERLEAVED buffer_layout; name the sharded layout");
        if (!shard_parameters)
            TT_THROW("DeviceLocalBufferConfig: a sharded buffer_layout without shard_parameters");
        return BufferShardingArgs(*shard_parameters, buffer_layout);
    }
};
struct ReplicatedBufferConfig {
    DeviceAddr size;
};
struct Shape2D {
    uint32_t h, w;
    Shape2D(uint32_t h_, uint32_t w_) : h(h_), w(w_) {}
    uint32_t height() const { return h; }
    uint32_t width() const { return w; }
};
struct ShardedBufferConfig {
    DeviceAddr global_size;
    Shape2D global_buffer_shape;
    Shape2D shard_shape;
    ShardOrientation shard_orientation = ShardOrientation::ROW_MAJOR;
    uint32_t compute_datum_size_bytes() const {
        return static_cast<uint32_t>(global_size / (uint64_t(global_buffer_shape.h) * global_buffer_shape.w));
    }
    // A shard dimension of 0 is replicated: the shard spans the global extent there, and every device along
    // that mesh dimension holds the same shards.
    std::pair<bool, bool> replicated_dims() const { return {shard_shape.h == 0, shard_shape.w == 0}; }
    Shape2D physical_shard_shape() const {
        return {shard_shape.h == 0 ? global_buffer_shape.h : shard_shape.h,
                shard_shape.w == 0 ? global_buffer_shape.w : shard_shape.w};
    }
};
using MeshBufferConfig = std::variant<ReplicatedBufferConfig, ShardedBufferConfig>;
enum class MeshBufferLayout : uint8_t { REPLICATED, SHARDED };

// One buffer per device of the mesh, at the same address on each. Sharded: the global (h × w elements)
// buffer cut into shards of the physical shard shape, shard (i, j) on device (i, j) — along a dimension that
// is not replicated the shard grid must be the mesh's; along a replicated one (a shard dimension of 0) every
// device holds the one shard of that dimension.
class MeshBuffer {
public:
    static std::shared_ptr<MeshBuffer> create(const MeshBufferConfig& config, const DeviceLocalBufferConfig& local,
                                              MeshDevice* device, std::optional<DeviceAddr> address = std::nullopt) {
        auto m = std::shared_ptr<MeshBuffer>(new MeshBuffer());
        m->device_ = device;
        m->config_ = config;
        DeviceAddr size = 0;
        if (const auto* r = std::get_if<ReplicatedBufferConfig>(&config)) {
            size = r->size;
        } else {
            const auto& c = std::get<ShardedBufferConfig>(config);
            const Shape2D g = c.global_buffer_shape, sh = c.physical_shard_shape();
            const auto [rep_h, rep_w] = c.replicated_dims();
            if (sh.h == 0 || sh.w == 0 || g.h % sh.h != 0 || g.w % sh.w != 0)
                TT_THROW("ShardedBufferConfig: shard shape ({}, {}) does not tile the global shape ({}, {})", sh.h,
                         sh.w, g.h, g.w);
            if ((!rep_h && g.h / sh.h != device->num_rows()) || (!rep_w && g.w / sh.w != device->num_cols()))
                TT_THROW("ShardedBufferConfig: a {}x{} grid of shards on the mesh {}: not modelled: along each "
                         "dimension that is not replicated (a shard dimension of 0 replicates) the shards must map "
                         "one to one onto the mesh's devices",
                         g.h / sh.h, g.w / sh.w, device->shape().str());
            m->rep_h_ = rep_h;
            m->rep_w_ = rep_w;
            if (uint64_t(g.h) * g.w == 0 || c.global_size % (uint64_t(g.h) * g.w) != 0)
                TT_THROW("ShardedBufferConfig: global size {} is not a whole number of bytes per element of ({}, {})",
                         c.global_size, g.h, g.w);
            m->sharded_ = true;
            m->global_ = g;
            m->shard_ = sh;
            m->elem_bytes_ = c.global_size / (uint64_t(g.h) * g.w);
            size = m->elem_bytes_ * sh.h * sh.w;
        }
        for (IDevice* d : device->get_devices()) {
            auto b = Buffer::create_at(d, address, size, local.page_size, local.buffer_type, local.sharding(),
                                       local.bottom_up);
            if (!m->buffers_.empty() && b->address() != m->buffers_[0]->address())
                TT_THROW("MeshBuffer::create: device {} placed the buffer at {} and device 0 at {}: allocate "
                         "on every device of the mesh alike",
                         d->id(), b->address(), m->buffers_[0]->address());
            m->buffers_.push_back(std::move(b));
        }
        return m;
    }
    DeviceAddr address() const { return buffers_[0]->address(); }
    DeviceAddr size() const {
        return sharded_ ? elem_bytes_ * global_.h * global_.w : buffers_[0]->size();
    }
    DeviceAddr device_local_size() const { return buffers_[0]->size(); }
    DeviceAddr page_size() const { return buffers_[0]->page_size(); }
    uint32_t num_pages() const { return buffers_[0]->num_pages(); }
    Buffer* get_device_buffer(const MeshCoordinate& c) const {
        return buffers_.at(c[0] * device_->num_cols() + c[1]).get();
    }
    Buffer* get_reference_buffer() const { return buffers_[0].get(); }
    Buffer* get_backing_buffer() const { return buffers_[0].get(); }
    MeshDevice* device() const { return device_; }
    bool is_allocated() const { return buffers_[0]->is_allocated(); }
    void deallocate() {
        for (auto& b : buffers_) b->deallocate();
    }
    bool sharded() const { return sharded_; }
    MeshBufferLayout global_layout() const { return sharded_ ? MeshBufferLayout::SHARDED : MeshBufferLayout::REPLICATED; }
    const ShardedBufferConfig& global_shard_spec() const {
        if (!sharded_) TT_THROW("MeshBuffer::global_shard_spec: the buffer is replicated, not sharded");
        return std::get<ShardedBufferConfig>(config_);
    }
    // Copy between a global host vector and the shards: `to_device` scatters (every copy of a replicated
    // shard), else gathers (each shard from the first device holding it).
    void scatter_gather(uint8_t* global, bool to_device) const {
        const uint64_t row = elem_bytes_ * shard_.w;
        std::vector<uint8_t> shard(elem_bytes_ * shard_.h * shard_.w);
        for (std::size_t i = 0; i < buffers_.size(); i++) {
            const uint64_t mr = i / device_->num_cols(), mc = i % device_->num_cols();
            if (!to_device && ((rep_h_ && mr != 0) || (rep_w_ && mc != 0))) continue;
            const uint64_t r0 = (rep_h_ ? 0 : mr) * shard_.h, c0 = (rep_w_ ? 0 : mc) * shard_.w;
            if (!to_device) tt::tt_metal::detail::read(buffers_[i].get(), shard.data(), shard.size());
            for (uint32_t r = 0; r < shard_.h; r++) {
                uint8_t* g = global + ((r0 + r) * global_.w + c0) * elem_bytes_;
                if (to_device) std::memcpy(shard.data() + r * row, g, row);
                else std::memcpy(g, shard.data() + r * row, row);
            }
            if (to_device) tt::tt_metal::detail::write(buffers_[i].get(), shard.data(), shard.size());
        }
    }

private:
    MeshBuffer() = default;
    MeshDevice* device_ = nullptr;
    MeshBufferConfig config_ = ReplicatedBufferConfig{0};
    std::vector<std::shared_ptr<Buffer>> buffers_;
    bool sharded_ = false, rep_h_ = false, rep_w_ = false;
    Shape2D global_{0, 0}, shard_{0, 0};
    uint64_t elem_bytes_ = 0;
};

class MeshWorkload {
public:
    MeshWorkload() = default;
    explicit MeshWorkload(Program&& program,
                          const MeshCoordinateRange& device_range = MeshCoordinateRange(MeshCoordinate(0, 0),
                                                                                        MeshCoordinate(0, 0))) {
        add_program(device_range, std::move(program));
    }
    MeshWorkload(MeshWorkload&&) noexcept = default;
    MeshWorkload& operator=(MeshWorkload&&) noexcept = default;
    MeshWorkload(const MeshWorkload&) = delete;
    MeshWorkload& operator=(const MeshWorkload&) = delete;
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

namespace detail {
// Run every program of `workload` on each device of its range: a created mesh's devices together (one
// program each), a unit mesh's one device on its own.
// Run `n` programs on `mesh`: program `i` on the devices of `range_of(i)`, with `run_on(i, device)` running it
// alone on a device (a unit mesh) and `push(i)` handing its args to tensim and giving its handle (a joint mesh).
template <typename RangeOf, typename RunOn, typename Push>
void run_programs(MeshDevice* mesh, std::size_t n, RangeOf range_of, RunOn run_on, Push push) {
    std::vector<int64_t> progs(mesh->num_devices(), -1);
    for (std::size_t i = 0; i < n; i++) {
        const MeshCoordinateRange& range = range_of(i);
        const auto s = range.start_coord(), e = range.end_coord();
        if (e[0] >= mesh->num_rows() || e[1] >= mesh->num_cols() || s[0] > e[0] || s[1] > e[1])
            TT_THROW("EnqueueMeshWorkload: the range {}..{} is not inside the mesh {}", s.str(), e.str(),
                     mesh->shape().str());
        for (uint32_t r = s[0]; r <= e[0]; r++)
            for (uint32_t c = s[1]; c <= e[1]; c++) {
                if (!mesh->joint()) {
                    run_on(i, mesh->get_device({r, c}));
                    continue;
                }
                int64_t& p = progs[r * mesh->num_cols() + c];
                if (p >= 0)
                    TT_THROW("EnqueueMeshWorkload: device ({}, {}) is in the ranges of two programs; a device runs one "
                             "program",
                             r, c);
                p = push(i);
            }
    }
    if (!mesh->joint()) return;
    std::fflush(stdout);
    tensim::check(tensim::api().run_mesh(progs.data(), static_cast<uint32_t>(progs.size())));
}

inline void run_workload(MeshDevice* mesh, MeshWorkload& workload) {
    auto& ps = workload.get_programs();
    run_programs(
        mesh, ps.size(), [&](std::size_t i) -> const MeshCoordinateRange& { return ps[i].first; },
        [&](std::size_t i, IDevice* d) { tt::tt_metal::detail::run(d, ps[i].second); },
        [&](std::size_t i) {
            ps[i].second.push_args();
            return static_cast<int64_t>(ps[i].second.handle_);
        });
}
}  // namespace detail

inline void MeshDevice::record(MeshWorkload& w) {
    std::vector<CapturedProgram> captured;
    for (auto& [range, program] : w.get_programs()) {
        tt::tt_metal::detail::hold_program(program.handle_);
        captured.push_back(CapturedProgram{range, program.handle_, program.kernels_});
    }
    traces_.back().push_back(std::move(captured));
}

inline void MeshDevice::replay_mesh_trace(uint8_t, const MeshTraceId& id, bool) {
    if (capturing_) TT_THROW("ReplayTrace: trace {} is still being captured", capture_.id);
    for (const auto& ps : trace(id, "ReplayTrace"))
        detail::run_programs(
            this, ps.size(), [&](std::size_t i) -> const MeshCoordinateRange& { return ps[i].range; },
            [&](std::size_t i, IDevice* d) { tt::tt_metal::detail::run_captured(d, ps[i].handle, ps[i].kernels); },
            [&](std::size_t i) {
                Program::push_args(ps[i].handle, ps[i].kernels);
                return static_cast<int64_t>(ps[i].handle);
            });
}

inline void EnqueueMeshWorkload(MeshCommandQueue& cq, MeshWorkload& workload, bool /*blocking*/) {
    if (cq.device()->capturing()) {
        cq.device()->record(workload);
        return;
    }
    detail::run_workload(cq.device(), workload);
}
template <typename T>
void EnqueueWriteMeshBuffer(MeshCommandQueue&, std::shared_ptr<MeshBuffer>& buffer, const std::vector<T>& src,
                            bool /*blocking*/ = false) {
    // As today's tt-metal: the host data must cover the buffer (more is ignored).
    if (src.size() * sizeof(T) < buffer->size())
        TT_THROW("EnqueueWriteMeshBuffer: {} bytes of host data for a buffer of {} bytes", src.size() * sizeof(T),
                 buffer->size());
    if (buffer->sharded()) {
        std::vector<uint8_t> copy(reinterpret_cast<const uint8_t*>(src.data()),
                                  reinterpret_cast<const uint8_t*>(src.data()) + buffer->size());
        buffer->scatter_gather(copy.data(), true);
        return;
    }
    for (uint32_t r = 0; r < buffer->device()->num_rows(); r++)
        for (uint32_t c = 0; c < buffer->device()->num_cols(); c++)
            tt::tt_metal::detail::write(buffer->get_device_buffer({r, c}), src.data(), buffer->size());
}
template <typename T>
void EnqueueReadMeshBuffer(MeshCommandQueue&, std::vector<T>& dst, std::shared_ptr<MeshBuffer>& buffer,
                           bool /*blocking*/ = true) {
    if (buffer->sharded()) {
        dst.resize(buffer->size() / sizeof(T));
        buffer->scatter_gather(reinterpret_cast<uint8_t*>(dst.data()), false);
        return;
    }
    tt::tt_metal::detail::read_vec(buffer->get_reference_buffer(), dst);
}
template <typename T>
void WriteShard(MeshCommandQueue&, const std::shared_ptr<MeshBuffer>& buffer, std::vector<T>& src,
                const MeshCoordinate& coord, bool = false) {
    tt::tt_metal::detail::write(buffer->get_device_buffer(coord), src.data(), src.size() * sizeof(T));
}
template <typename T>
void ReadShard(MeshCommandQueue&, std::vector<T>& dst, const std::shared_ptr<MeshBuffer>& buffer,
               const MeshCoordinate& coord, bool = true) {
    tt::tt_metal::detail::read_vec(buffer->get_device_buffer(coord), dst);
}

// Traces (free-function spelling).
inline MeshTraceId BeginTraceCapture(MeshDevice* mesh, uint8_t cq_id) { return mesh->begin_mesh_trace(cq_id); }
inline void EndTraceCapture(MeshDevice* mesh, uint8_t cq_id, const MeshTraceId& id) { mesh->end_mesh_trace(cq_id, id); }
inline void ReplayTrace(MeshDevice* mesh, uint8_t cq_id, const MeshTraceId& id, bool blocking) {
    mesh->replay_mesh_trace(cq_id, id, blocking);
}
inline void ReleaseTrace(MeshDevice* mesh, const MeshTraceId& id) { mesh->release_mesh_trace(id); }

// Events: queues run in order and to completion, so recording and waiting only order what is already
// ordered.
struct MeshEvent {
    uint32_t id = 0;
    MeshDevice* device = nullptr;
};
inline MeshEvent EnqueueRecordEvent(MeshCommandQueue& cq, tt::stl::Span<const SubDeviceId> = {},
                                    const std::optional<MeshCoordinateRange>& = std::nullopt) {
    static uint32_t next = 0;
    return MeshEvent{next++, cq.device()};
}
inline MeshEvent EnqueueRecordEventToHost(MeshCommandQueue& cq, tt::stl::Span<const SubDeviceId> = {},
                                          const std::optional<MeshCoordinateRange>& range = std::nullopt) {
    return EnqueueRecordEvent(cq, {}, range);
}
inline void EnqueueWaitForEvent(MeshCommandQueue&, const MeshEvent&) {}
inline MeshEvent MeshCommandQueue::enqueue_record_event(tt::stl::Span<const SubDeviceId>,
                                                        const std::optional<MeshCoordinateRange>& range) {
    return EnqueueRecordEvent(*this, {}, range);
}
inline MeshEvent MeshCommandQueue::enqueue_record_event_to_host(tt::stl::Span<const SubDeviceId>,
                                                                const std::optional<MeshCoordinateRange>& range) {
    return EnqueueRecordEvent(*this, {}, range);
}
inline void MeshCommandQueue::enqueue_mesh_workload(MeshWorkload& w, bool blocking) {
    EnqueueMeshWorkload(*this, w, blocking);
}
inline void MeshCommandQueue::enqueue_write_mesh_buffer(const std::shared_ptr<MeshBuffer>& buffer, const void* host_data,
                                                        bool) {
    std::shared_ptr<MeshBuffer> b = buffer;
    std::vector<uint8_t> bytes(static_cast<const uint8_t*>(host_data), static_cast<const uint8_t*>(host_data) + b->size());
    EnqueueWriteMeshBuffer(*this, b, bytes, false);
}
inline void MeshCommandQueue::enqueue_read_mesh_buffer(void* host_data, const std::shared_ptr<MeshBuffer>& buffer, bool) {
    std::shared_ptr<MeshBuffer> b = buffer;
    std::vector<uint8_t> bytes;
    EnqueueReadMeshBuffer(*this, bytes, b, true);
    std::memcpy(host_data, bytes.data(), bytes.size());
}
inline void MeshCommandQueue::enqueue_write_shards(const std::shared_ptr<MeshBuffer>& buffer,
                                                   const std::vector<distributed::ShardDataTransfer>& transfers, bool) {
    for (const auto& t : transfers) {
        Buffer* d = buffer->get_device_buffer(t.shard_coord());
        tt::tt_metal::detail::write_region(d, t.host_data(), t.region().value_or(BufferRegion(0, d->size())));
    }
}
inline void MeshCommandQueue::enqueue_write_shards(const std::shared_ptr<MeshBuffer>& buffer,
                                                   const std::vector<ShardDataTransfer>& transfers, bool) {
    for (const auto& t : transfers) {
        Buffer* d = buffer->get_device_buffer(t.shard_coord);
        tt::tt_metal::detail::write_region(d, t.host_data, t.region.value_or(BufferRegion(0, d->size())));
    }
}
inline void MeshCommandQueue::enqueue_read_shards(const std::vector<distributed::ShardDataTransfer>& transfers,
                                                  const std::shared_ptr<MeshBuffer>& buffer, bool) {
    for (const auto& t : transfers) {
        Buffer* d = buffer->get_device_buffer(t.shard_coord());
        tt::tt_metal::detail::read_region(d, t.host_data(), t.region().value_or(BufferRegion(0, d->size())));
    }
}
inline void MeshCommandQueue::enqueue_read_shards(const std::vector<ShardDataTransfer>& transfers,
                                                  const std::shared_ptr<MeshBuffer>& buffer, bool) {
    for (const auto& t : transfers) {
        Buffer* d = buffer->get_device_buffer(t.shard_coord);
        tt::tt_metal::detail::read_region(d, t.host_data, t.region.value_or(BufferRegion(0, d->size())));
    }
}
inline void EventSynchronize(const MeshEvent&) {}
// Every enqueued command has completed by the time the call returns, so an event is always reached.
inline bool EventQuery(const MeshEvent&) { return true; }

inline void Finish(MeshCommandQueue&, tt::stl::Span<const SubDeviceId> = {}) {}
inline void Synchronize(MeshDevice*, std::optional<uint8_t> = std::nullopt, tt::stl::Span<const SubDeviceId> = {}) {}

}  // namespace tt::tt_metal::distributed
