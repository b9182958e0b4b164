// tensim: the SFPI model and the low-level compute calls live in tensim/compute.h (SFPI in tensim/sfpi.h).
#pragma once
#include "tensim/compute.h"
