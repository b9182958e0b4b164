// tensim: the SFPU call macros (tensim/sfpu_macros.h, reached through tensim/compute.h).
#pragma once
#include "tensim/compute.h"
