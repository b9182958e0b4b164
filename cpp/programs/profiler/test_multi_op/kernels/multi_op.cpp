// Kernel of tensim's profiler/test_multi_op: one zone around `loops` L1 stores through a pointer (timed as
// RISC-V stores). Runtime args: L1 address, loops.
#include <cstdint>

#include "tools/profiler/kernel_profiler.hpp"

void kernel_main() {
    volatile tt_l1_ptr uint32_t* p = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_arg_val<uint32_t>(0));
    uint32_t loops = get_arg_val<uint32_t>(1);
    DeviceZoneScopedN("OP");
    for (uint32_t i = 0; i < loops; i++) p[i % 64] = i;
}
