// Reader of tensim's vecadd_sharding program: the shard's n tiles of a and b already sit in their CBs
// (which alias the sharded L1 buffers); publish them. Runtime arg 0: n.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    uint32_t n = get_arg_val<uint32_t>(0);
    for (uint32_t cb : {(uint32_t)tt::CBIndex::c_0, (uint32_t)tt::CBIndex::c_1}) {
        cb_reserve_back(cb, n);
        cb_push_back(cb, n);
    }
}
