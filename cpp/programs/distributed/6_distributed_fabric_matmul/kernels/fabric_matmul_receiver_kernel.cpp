// tensim's C++ fabric matmul receiver: wait until the other chip's tiles of C have all landed here.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    volatile tt_l1_ptr uint32_t* sem = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(get_arg_val<uint32_t>(0)));
    noc_semaphore_wait(sem, 1);
}
