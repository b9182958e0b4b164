// Writer of tensim's vecadd_sharding program: wait until the output shard is complete (it stays in L1).
// Runtime arg 0: n.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    uint32_t n = get_arg_val<uint32_t>(0);
    cb_wait_front(tt::CBIndex::c_2, n);
}
