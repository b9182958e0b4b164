// Producer of tensim's profiler/test_custom_cycle_count: pushes one (zero) tile into c_0 for the compute
// kernel, which never pops it.
#include <cstdint>

void kernel_main() {
    cb_reserve_back(tt::CBIndex::c_0, 1);
    cb_push_back(tt::CBIndex::c_0, 1);
}
