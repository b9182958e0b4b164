// tensim: one spelling of the compute API; all of it is in tensim/compute.h.
#pragma once
#include "tensim/compute.h"
