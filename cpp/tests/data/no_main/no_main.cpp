// A host source with no main(): tensim must say so instead of a loader error.
#include <tt-metalium/host_api.hpp>
int not_main() { return 0; }
