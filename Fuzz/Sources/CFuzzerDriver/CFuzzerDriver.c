// Intentionally empty: the target only exists to export CFuzzerDriver.h to Swift.
#include "CFuzzerDriver.h"
