// tensim: one spelling of the compute API; all of it is in tensim/compute.h and tensim/compute_fpu.h.
#pragma once
#include "tensim/compute.h"
