// The kernel of tensim's distributed program-dispatch example: it only says where it runs (one line per core
// and device, from the first core of each device).
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/debug/dprint.h"

void kernel_main() {
    if (get_absolute_logical_x() == 0 && get_absolute_logical_y() == 0) {
        DPRINT("Hello from core {},{}\n", get_absolute_logical_x(), get_absolute_logical_y());
    }
}
