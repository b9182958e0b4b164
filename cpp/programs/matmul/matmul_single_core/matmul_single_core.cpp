// tensim's C++ matmul_single_core: C = A·B (bf16, 640 × 640 × 640, A and B uniform in [-1, 1)) on one core,
// one output tile at a time, checked by PCC against the CPU. Unit-mesh host API with tilize_nfaces.
#include <cstdint>
#include <random>
#include <vector>

#include <fmt/base.h>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>

#include "bmm_op.hpp"

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    constexpr uint32_t M = 640, N = 640, K = 640;
    constexpr uint32_t Mt = M / constants::TILE_HEIGHT, Nt = N / constants::TILE_WIDTH, Kt = K / constants::TILE_WIDTH;
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh_device->mesh_command_queue();
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<bfloat16> a(M * K), b(K * N);
    for (auto& v : a) v = bfloat16(dist(rng));
    for (auto& v : b) v = bfloat16(dist(rng));
    auto golden = golden_matmul(a, b, M, N, K);

    constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    auto src0 = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Mt * Kt * tile_bytes}, dram, mesh_device.get());
    auto src1 = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Kt * Nt * tile_bytes}, dram, mesh_device.get());
    auto dst = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = Mt * Nt * tile_bytes}, dram, mesh_device.get());
    distributed::EnqueueWriteMeshBuffer(cq, src0, tilize_nfaces(a, M, K), false);
    distributed::EnqueueWriteMeshBuffer(cq, src1, tilize_nfaces(b, K, N), false);

    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};
    for (auto cb : {CBIndex::c_0, CBIndex::c_1, CBIndex::c_16}) {
        CreateCircularBuffer(program, core,
                             CircularBufferConfig(2 * tile_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));
    }
    std::vector<uint32_t> reader_args, writer_args;
    TensorAccessorArgs(*src0).append_to(reader_args);
    TensorAccessorArgs(*src1).append_to(reader_args);
    TensorAccessorArgs(*dst).append_to(writer_args);
    auto reader = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "matmul/matmul_single_core/kernels/dataflow/reader_single_core_mm.cpp",
                               core, ReaderDataMovementConfig(reader_args));
    auto writer = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "matmul/matmul_single_core/kernels/dataflow/writer_single_core_mm.cpp",
                               core, WriterDataMovementConfig(writer_args));
    auto compute = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "matmul/matmul_single_core/kernels/compute/mm.cpp", core,
                                ComputeConfig{.math_fidelity = MathFidelity::HiFi4});
    const uint32_t tiles = Mt * Nt;
    SetRuntimeArgs(program, reader, core,
                   {src0->address(), src1->address(), Mt, Kt, Nt, 0u, tiles});
    SetRuntimeArgs(program, writer, core, {dst->address(), tiles, 0u});
    SetRuntimeArgs(program, compute, core, {tiles, Kt});

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    std::vector<bfloat16> result;
    distributed::EnqueueReadMeshBuffer(cq, result, dst, true);
    result = untilize_nfaces(result, M, N);
    mesh_device->close();

    return report_pcc(golden, result, 0.97f);
}
