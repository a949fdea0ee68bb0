//===- PaperData.cpp - the zero-bubble paper's profiled setups ------------===//
//
// Numbers transcribed from Qi et al., "Zero Bubble Pipeline Parallelism",
// ICLR 2024: Table 3 (h, a), Table 6 of the ICLR version / Table 9 of arXiv
// 2401.10241 (T_F, T_B, T_W, T_comm), Table 5 (bubble rates).
//
//===----------------------------------------------------------------------===//

#include "pp/Schedule/PaperData.h"

using namespace mlir::pp::sched;

namespace {
constexpr int kSequenceLength = 1024;
} // namespace

int64_t ZeroBubblePaperSetup::stashBytes() const {
  return 34LL * hiddenSize + 5LL * numHeads * kSequenceLength;
}

int64_t ZeroBubblePaperSetup::weightStashBytes() const {
  return 32LL * hiddenSize;
}

PipelineModel ZeroBubblePaperSetup::pipeline() const {
  // The paper's memory accounting is the default one (StashAccounting::
  // ConvertAtBackward), so every tool plans these setups as the paper does
  // without options.
  return PipelineModel::uniform(numStages, forwardTime, backwardInputTime,
                                backwardWeightTime, stashBytes(),
                                weightStashBytes(), commTime);
}

const std::vector<ZeroBubblePaperSetup> &
mlir::pp::sched::zeroBubblePaperSetups() {
  static const std::vector<ZeroBubblePaperSetup> setups = {
      // model, p, m, T_F, T_B, T_W, T_comm, h, a, 1F1B, ZB-1p, ZB-2p
      {"1.5B", 8, 24, 18.522, 18.086, 9.337, 0.601, 2304, 24, 0.2431, 0.1585,
       0.0433},
      {"1.5B", 8, 32, 18.513, 18.086, 9.331, 0.626, 2304, 24, 0.1985, 0.1242,
       0.0039},
      {"1.5B", 8, 64, 18.546, 18.097, 9.321, 0.762, 2304, 24, 0.1240, 0.0674,
       0.0026},
      {"6.2B", 8, 24, 29.718, 29.444, 19.927, 0.527, 4096, 32, 0.2347, 0.1323,
       0.0029},
      {"6.2B", 8, 32, 29.802, 29.428, 19.530, 0.577, 4096, 32, 0.1898, 0.1045,
       0.0022},
      {"6.2B", 8, 64, 29.935, 29.621, 19.388, 0.535, 4096, 32, 0.1091, 0.0554,
       0.0010},
      {"14.6B", 16, 48, 11.347, 11.248, 8.132, 0.377, 5120, 40, 0.2552, 0.1397,
       0.0066},
      {"14.6B", 16, 64, 11.307, 11.254, 8.101, 0.379, 5120, 40, 0.2082, 0.1088,
       0.0054},
      {"14.6B", 16, 128, 11.325, 11.308, 8.109, 0.378, 5120, 40, 0.1251, 0.0576,
       0.0028},
      {"28.3B", 32, 96, 10.419, 10.207, 7.715, 0.408, 6144, 48, 0.2646, 0.1421,
       0.0038},
      {"28.3B", 32, 128, 10.408, 10.204, 7.703, 0.408, 6144, 48, 0.2168, 0.1106,
       0.0029},
      {"28.3B", 32, 256, 10.402, 10.248, 7.698, 0.460, 6144, 48, 0.1352, 0.0594,
       0.0018},
  };
  return setups;
}
