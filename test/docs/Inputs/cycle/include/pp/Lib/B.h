#include "pp/Lib/A.h"
int second();
