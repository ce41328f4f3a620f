// The registry: one table of algorithms read by the app, the tests and the bench.
#include "primlab/registry.h"
