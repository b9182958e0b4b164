// tensim: the older spelling of a TT-Metalium host header (all of it is in tensim/host.hpp).
#pragma once
#include "tensim/host.hpp"
