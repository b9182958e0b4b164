// tensim: the device's allocator (tt-metalium/allocator.hpp: Allocator, reached as device->allocator()) lives
// in tensim/host/device.hpp.
#pragma once
#include "tensim/host.hpp"
