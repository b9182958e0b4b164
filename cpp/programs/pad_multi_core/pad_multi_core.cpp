// tensim's C++ pad_multi_core: pads a 64 × 32 bf16 row-major matrix (two values per 4-byte page) to
// 64 × 64 with the value 2, on cores (0,0)–(0,3), each taking a quarter of the output's 4-byte sticks.
// One circular-buffer config holds c_0, c_1 and c_2 (pages of 64, 64 and 4 bytes, sharing one region);
// the kernels use c_0. Prints the corners of both matrices and checks every output value.
#include <cstdint>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    constexpr uint32_t H = 64, W = 32, PW = 64, stick = 4, slot = 64, block = 16, cores_n = 4;
    constexpr uint32_t src_row = W / 2, dst_row = PW / 2, sticks = H * dst_row;
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh_device->mesh_command_queue();

    std::vector<uint32_t> src_vec(H * src_row);
    for (uint32_t i = 0; i < src_vec.size(); i++) {
        src_vec[i] = pack_two_bfloat16_into_uint32({bfloat16(static_cast<float>(2 * i % 100)),
                                                    bfloat16(static_cast<float>((2 * i + 1) % 100))});
    }
    const uint32_t pad = pack_two_bfloat16_into_uint32({bfloat16(2.0f), bfloat16(2.0f)});
    distributed::DeviceLocalBufferConfig dram{.page_size = stick, .buffer_type = BufferType::DRAM};
    auto src = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = H * src_row * stick}, dram,
                                               mesh_device.get());
    auto dst = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = sticks * stick}, dram,
                                               mesh_device.get());
    distributed::EnqueueWriteMeshBuffer(cq, src, src_vec, false);

    Program program = CreateProgram();
    const CoreRange cores({0, 0}, {0, cores_n - 1});
    CreateCircularBuffer(program, cores,
                         CircularBufferConfig(2 * block * slot, {{CBIndex::c_0, tt::DataFormat::UInt32},
                                                                 {CBIndex::c_1, tt::DataFormat::UInt32},
                                                                 {CBIndex::c_2, tt::DataFormat::UInt32}})
                             .set_page_size(CBIndex::c_0, slot)
                             .set_page_size(CBIndex::c_1, slot)
                             .set_page_size(CBIndex::c_2, stick));
    std::vector<uint32_t> reader_ct = {CBIndex::c_0, src_row, dst_row, pad, stick, slot, block};
    TensorAccessorArgs(*src).append_to(reader_ct);
    std::vector<uint32_t> writer_ct = {CBIndex::c_0, stick, slot, block};
    TensorAccessorArgs(*dst).append_to(writer_ct);
    auto reader = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "pad_multi_core/kernels/pad_reader_dims_rm_interleaved.cpp",
                               cores,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_0,
                                                  .noc = NOC::RISCV_0_default,
                                                  .compile_args = reader_ct});
    auto writer = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "pad_multi_core/kernels/pad_writer_dims_rm_interleaved.cpp",
                               cores,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_1,
                                                  .noc = NOC::RISCV_1_default,
                                                  .compile_args = writer_ct});
    const uint32_t per_core = sticks / cores_n;
    for (uint32_t c = 0; c < cores_n; c++) {
        SetRuntimeArgs(program, reader, CoreCoord{0, c}, {src->address(), c * per_core, per_core});
        SetRuntimeArgs(program, writer, CoreCoord{0, c}, {dst->address(), c * per_core, per_core});
    }

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    std::vector<uint32_t> result;
    distributed::EnqueueReadMeshBuffer(cq, result, dst, true);
    mesh_device->close();

    auto print = [](const char* name, const std::vector<uint32_t>& m, uint32_t row_sticks) {
        fmt::print("{} (top-left 4 x 8, and the last row's last 8):\n", name);
        for (uint32_t r = 0; r < 4; r++) {
            for (uint32_t c = 0; c < 4; c++) {
                auto [lo, hi] = unpack_two_bfloat16_from_uint32(m[r * row_sticks + c]);
                fmt::print("{} {} ", lo.to_float(), hi.to_float());
            }
            fmt::print("\n");
        }
        for (uint32_t c = row_sticks - 4; c < row_sticks; c++) {
            auto [lo, hi] = unpack_two_bfloat16_from_uint32(m[m.size() - row_sticks + c]);
            fmt::print("{} {} ", lo.to_float(), hi.to_float());
        }
        fmt::print("\n");
    };
    print("input", src_vec, src_row);
    print("padded", result, dst_row);
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < sticks; i++) {
        uint32_t r = i / dst_row, c = i % dst_row;
        uint32_t want = c < src_row ? src_vec[r * src_row + c] : pad;
        if (result[i] != want) wrong++;
    }
    fmt::print("{} of {} sticks differ\n", wrong, sticks);
    if (wrong > 0) {
        fmt::print("Test Failed\n");
        return 1;
    }
    fmt::print("Test Passed\n");
    return 0;
}
