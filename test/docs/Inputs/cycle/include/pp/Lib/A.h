#include "pp/Lib/B.h"
int first();
