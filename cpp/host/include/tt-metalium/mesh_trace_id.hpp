// tensim: the TT-Metalium host API (all of it is in tensim/host.hpp).
#pragma once
#include "tensim/host.hpp"
