// tensim: the fabric host calls (tensim/host/fabric.hpp).
#pragma once
#include "tensim/host.hpp"
