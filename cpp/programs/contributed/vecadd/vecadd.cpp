// tensim's C++ contributed/vecadd: c = a + b for 64 tiles of random bf16 (built packed two per word with
// create_random_vector_of_bfloat16) on core (0,0), the workload enqueued blocking. Prints the first ten
// sums, as the classic example does, and checks every value against the CPU (bf16 rounding allowed).
#include <cmath>
#include <cstdint>
#include <vector>

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
    constexpr uint32_t tiles = 64;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * constants::TILE_HW;
    constexpr uint32_t bytes = tiles * tile_bytes;
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh_device->mesh_command_queue();

    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    distributed::ReplicatedBufferConfig size{.size = bytes};
    auto a = distributed::MeshBuffer::create(size, dram, mesh_device.get());
    auto b = distributed::MeshBuffer::create(size, dram, mesh_device.get());
    auto c = distributed::MeshBuffer::create(size, dram, mesh_device.get());
    std::vector<uint32_t> a_data = create_random_vector_of_bfloat16(bytes, 10, 1);
    std::vector<uint32_t> b_data = create_random_vector_of_bfloat16(bytes, 10, 2);
    distributed::EnqueueWriteMeshBuffer(cq, a, a_data, false);
    distributed::EnqueueWriteMeshBuffer(cq, b, b_data, false);

    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};
    for (auto cb : {CBIndex::c_0, CBIndex::c_1, CBIndex::c_16}) {
        CreateCircularBuffer(program, core,
                             CircularBufferConfig(2 * tile_bytes, {{cb, tt::DataFormat::Float16_b}})
                                 .set_page_size(cb, tile_bytes));
    }
    std::vector<uint32_t> reader_ct;
    TensorAccessorArgs(*a).append_to(reader_ct);
    TensorAccessorArgs(*b).append_to(reader_ct);
    std::vector<uint32_t> writer_ct;
    TensorAccessorArgs(*c).append_to(writer_ct);
    auto reader = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "contributed/vecadd/kernels/interleaved_tile_read.cpp",
                               core,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_1,
                                                  .noc = NOC::RISCV_1_default,
                                                  .compile_args = reader_ct});
    auto writer = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "contributed/vecadd/kernels/tile_write.cpp", core,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_0,
                                                  .noc = NOC::RISCV_0_default,
                                                  .compile_args = writer_ct});
    auto compute = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "contributed/vecadd/kernels/add.cpp", core,
                                ComputeConfig{.math_fidelity = MathFidelity::HiFi4});
    SetRuntimeArgs(program, reader, core, {static_cast<uint32_t>(a->address()), static_cast<uint32_t>(b->address()), tiles});
    SetRuntimeArgs(program, writer, core, {static_cast<uint32_t>(c->address()), tiles});
    SetRuntimeArgs(program, compute, core, {tiles});

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh_device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, true);
    std::vector<uint32_t> c_data;
    distributed::EnqueueReadMeshBuffer(cq, c_data, c, true);
    mesh_device->close();

    auto av = unpack_uint32_vec_into_bfloat16_vec(a_data);
    auto bv = unpack_uint32_vec_into_bfloat16_vec(b_data);
    auto cv = unpack_uint32_vec_into_bfloat16_vec(c_data);
    for (uint32_t i = 0; i < 10; i++) {
        fmt::print("{} + {} = {}\n", av[i].to_float(), bv[i].to_float(), cv[i].to_float());
    }
    uint32_t wrong = 0;
    for (size_t i = 0; i < cv.size(); i++) {
        float want = bfloat16(av[i].to_float() + bv[i].to_float()).to_float();
        if (std::fabs(cv[i].to_float() - want) > 1e-2f * std::fabs(want) + 1e-3f) wrong++;
    }
    fmt::print("{} of {} sums differ\n", wrong, cv.size());
    if (wrong > 0) {
        fmt::print("Test Failed\n");
        return 1;
    }
    fmt::print("Test Passed\n");
    return 0;
}
