// tensim's C++ fabric receiver: wait until the sender's fabric increment has landed on this core's
// semaphore (every page arrived before it), then report.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/debug/dprint.h"

void kernel_main() {
    volatile tt_l1_ptr uint32_t* sem = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(get_arg_val<uint32_t>(0)));
    noc_semaphore_wait(sem, 1);
    DPRINT << "receiver: the pages have arrived" << ENDL();
}
