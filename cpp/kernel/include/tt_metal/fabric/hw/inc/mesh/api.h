// tensim: the fabric API of worker kernels (tensim/fabric.h).
#pragma once
#include "tensim/fabric.h"
