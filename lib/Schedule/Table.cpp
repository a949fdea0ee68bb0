//===- Table.cpp - PyTorch schedule CSV tables ------------------------------===//

#include "pp/Schedule/Table.h"
