// tensim: the late-2025 spelling (namespace experimental) of the object kernel API; see experimental/noc.h.
// Compute kernels get the class alone (the NoC side of it is for data-movement kernels).
#pragma once
#if defined(TRISC_UNPACK) || defined(TRISC_MATH) || defined(TRISC_PACK)
#include "api/dataflow/circular_buffer.h"
namespace experimental {
using ::CircularBuffer;
}  // namespace experimental
#else
#include "experimental/noc.h"
#endif
