//===- TableFuzzer.cpp - the PyTorch CSV schedule importer ----------------===//
//
// Reads the input as a schedule table (include/pp/Schedule/Table.h) in each
// of the three ways pp-translate can (format inferred, compute_only,
// compute_comms). A table that imports is checked on a pipeline with the
// placement it implies; one that passes checkSchedule() and completes
// findDeadlock() must satisfy every invariant of ScheduleInvariants.h.
// An error must have a message and a location inside the text.
//
//===----------------------------------------------------------------------===//

#include "ScheduleInvariants.h"

using namespace ppfuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  const std::optional<TableFormat> formats[] = {
      std::nullopt, TableFormat::ComputeOnly, TableFormat::ComputeComms};
  for (std::optional<TableFormat> format : formats) {
    TableLocation where;
    llvm::Expected<ImportedTable> table = importTable(text, format, &where);
    if (!table) {
      (void)takeMessage(table.takeError(), "importTable");
      if (where.line < 0 || where.column < 0 ||
          (where.line == 0) != (where.column == 0))
        fail("importTable gave an error location out of range");
      continue;
    }
    const Schedule &schedule = table->schedule;
    if (table->steps.size() != schedule.ranks.size() ||
        table->locations.size() != schedule.ranks.size())
      fail("importTable: steps or locations do not cover every rank");
    for (size_t r = 0; r < schedule.ranks.size(); ++r)
      if (table->steps[r].size() != schedule.ranks[r].size() ||
          table->locations[r].size() != schedule.ranks[r].size())
        fail("importTable: steps or locations do not cover every action");
    if (format && table->format != *format)
      fail("importTable: the table's format is not the one asked for");

    PipelineModel model;
    model.numRanks = std::max(1, table->numRanks());
    for (int rank : table->stageRanks) {
      if (rank < 0 || rank >= table->numRanks())
        fail("importTable: a stage on a rank with no row");
      StageInfo stage;
      stage.rank = rank;
      stage.backwardWeightTime = 1;
      stage.stashBytes = 4;
      stage.weightStashBytes = 2;
      model.stages.push_back(stage);
    }
    model.latency = 0.5;
    if (table->numRanks() == 0)
      continue;
    if (!checkSchedule(model, schedule).empty())
      continue;
    if (!findDeadlock(model, schedule).completed)
      continue;
    checkValidSchedule(model, schedule, "the imported table");
  }
  return 0;
}
