// tensim: the fabric's control plane as programs reach it (fabric node ids of mesh coordinates, routing
// planes) lives with the fabric API in tensim/host/fabric.hpp.
#pragma once
#include "tensim/host.hpp"
