// tensim's TT-Metalium host headers: programs — circular buffer configs, Program, CreateKernel, circular
// buffers and their updates, semaphores and runtime args. Written for tensim from the documented interface.
#pragma once
#include "tensim/host/buffer.hpp"

namespace tt::tt_metal {

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

}  // namespace tt::tt_metal
