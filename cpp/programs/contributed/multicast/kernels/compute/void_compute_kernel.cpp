// The compute kernel of tensim's contributed/multicast program: nothing to compute.
#include "compute_kernel_api/common.h"

namespace NAMESPACE {
void MAIN {}
}  // namespace NAMESPACE
