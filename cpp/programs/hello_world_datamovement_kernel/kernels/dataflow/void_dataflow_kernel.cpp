// tensim's hello-world data-movement kernel: print this core's logical coordinates.
#include "debug/dprint.h"

void kernel_main() {
    DPRINT << "My logical coordinates are " << (uint32_t)get_absolute_logical_x() << ","
           << (uint32_t)get_absolute_logical_y() << ENDL();
}
