// tensim's TT-Metalium host headers: devices, buffers and programs (idevice.hpp, buffer.hpp, program.hpp),
// and here running programs and moving data — the command queue calls and the slow-dispatch `detail::`
// helpers. Each call forwards through tensim's host ABI table to the Rust host API. Written for tensim
// from the documented interface.
#pragma once
#include "tensim/host/program.hpp"

namespace tt::tt_metal {

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
