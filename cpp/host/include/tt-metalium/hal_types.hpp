// tensim: HalMemType and the other HAL enums (tt-metalium/hal_types.hpp) live in tensim/host/device.hpp.
#pragma once
#include "tensim/host.hpp"
