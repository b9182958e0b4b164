// tensim: the Ethernet dataflow API of ERISC kernels (tensim/eth.h).
#pragma once
#include "tensim/eth.h"
