// tensim's C++ reduce_max_mcast: the row maxima of a 2048 × 1024 bf16 matrix on a 4 × 4 core rectangle.
// Core (0,0) builds the reduction's scaler tile once and multicasts it into the other cores' scaler CB,
// with a sender and a receiver semaphore for the hand-shake; every core then reduces its own four
// tile-rows (REDUCE_ROW / MAX) and writes them. Checked exactly against the CPU.
#include <cstdint>
#include <vector>

#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tilize_utils.hpp>

#include "reduce_max/reduce_max_common.hpp"

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt;
using namespace tt::tt_metal;

int main() {
    constexpr uint32_t H = 2048, W = 1024, GX = 4, GY = 4;
    constexpr uint32_t Ht = H / constants::TILE_HEIGHT, Wt = W / constants::TILE_WIDTH;
    constexpr uint32_t rows = Ht / (GX * GY);
    auto mesh_device = distributed::MeshDevice::create_unit_mesh(0);
    std::vector<bfloat16> x = reduce_max::input(H, W, 7);

    auto [src, dst] = reduce_max::buffers(*mesh_device, x, H, W);

    Program program = CreateProgram();
    const CoreCoord first{0, 0}, last{GX - 1, GY - 1};
    const CoreRange all(first, last);
    const CoreRangeSet receivers(std::vector<CoreRange>{CoreRange({1, 0}, {GX - 1, 0}), CoreRange({0, 1}, last)});
    reduce_max::create_cbs(program, all);
    uint32_t sender_sem = CreateSemaphore(program, all, 0);
    uint32_t receiver_sem = CreateSemaphore(program, all, 0);
    // Readers on NoC 0 (the multicast rectangle is given in NoC 0 order), writers on NoC 1.
    auto sender = CreateKernel(
        program, OVERRIDE_KERNEL_PREFIX "reduce_max/reduce_max_mcast/kernels/dataflow/reader_reduce_max_mcast_sender.cpp",
        first, DataMovementConfig{.processor = DataMovementProcessor::RISCV_1, .noc = NOC::NOC_0});
    auto receiver = CreateKernel(
        program,
        OVERRIDE_KERNEL_PREFIX "reduce_max/reduce_max_mcast/kernels/dataflow/reader_reduce_max_mcast_receiver.cpp",
        receivers, DataMovementConfig{.processor = DataMovementProcessor::RISCV_1, .noc = NOC::NOC_0});
    auto writer = CreateKernel(
        program, OVERRIDE_KERNEL_PREFIX "reduce_max/reduce_max_single_core/kernels/dataflow/writer_reduce_max.cpp", all,
        DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::NOC_1});
    auto compute = CreateKernel(
        program, OVERRIDE_KERNEL_PREFIX "reduce_max/reduce_max_single_core/kernels/compute/reduce_max.cpp", all,
        ComputeConfig{.math_fidelity = MathFidelity::HiFi4});

    const CoreCoord n0 = mesh_device->worker_core_from_logical_core(first);
    const CoreCoord n1 = mesh_device->worker_core_from_logical_core(last);
    const uint32_t addr = static_cast<uint32_t>(src->address());
    for (uint32_t y = 0; y < GY; y++) {
        for (uint32_t x = 0; x < GX; x++) {
            const CoreCoord core{x, y};
            const uint32_t row = (y * GX + x) * rows;
            if (x == 0 && y == 0) {
                SetRuntimeArgs(program, sender, core,
                               {addr, row * Wt, rows * Wt, reduce_max::scaler_one, static_cast<uint32_t>(n0.x),
                                static_cast<uint32_t>(n0.y), static_cast<uint32_t>(n1.x), static_cast<uint32_t>(n1.y),
                                GX * GY - 1, sender_sem, receiver_sem});
            } else {
                SetRuntimeArgs(program, receiver, core,
                               {addr, row * Wt, rows * Wt, static_cast<uint32_t>(n0.x), static_cast<uint32_t>(n0.y),
                                sender_sem, receiver_sem});
            }
            SetRuntimeArgs(program, writer, core, {static_cast<uint32_t>(dst->address()), rows, row});
            SetRuntimeArgs(program, compute, core, {rows, Wt});
        }
    }

    return reduce_max::run_and_check(mesh_device, std::move(program), {src, dst}, x, H, W);
}
