//===- SVG.cpp - Schedule timelines as SVG ----------------------------------===//

#include "pp/Schedule/Table.h"
