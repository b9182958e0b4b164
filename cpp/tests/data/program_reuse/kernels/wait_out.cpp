// program_reuse writer: the results are written in place (the output CB lives in the output shard).
#include <cstdint>
#include "api/dataflow/dataflow_api.h"

void kernel_main() { cb_wait_front(tt::CBIndex::c_16, get_arg_val<uint32_t>(0)); }
