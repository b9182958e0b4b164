// Compute kernel of tensim's hello_world_compute_kernel program: each TRISC thread prints a greeting.
#include "compute_kernel_api/common.h"
#include "debug/dprint.h"

namespace NAMESPACE {
void MAIN {
    DPRINT_UNPACK(DPRINT << "Hello, Master, I am running a void unpack kernel." << ENDL());
    DPRINT_MATH(DPRINT << "Hello, Master, I am running a void math kernel." << ENDL());
    DPRINT_PACK(DPRINT << "Hello, Master, I am running a void pack kernel." << ENDL());
}
}  // namespace NAMESPACE
