//===- TableTest.cpp - Tests of schedule tables and SVG pictures ---------===//
//
// Import and export of torch.distributed.pipelining's schedule CSV (see
// Table.h for the format and its source), and renderSVG().
//
//===----------------------------------------------------------------------===//

#include "pp/Schedule/Table.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include "TestUtil.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir::pp::sched;
using namespace pp_test;

namespace {

/// PyTorch writes the backward for inputs as "I".
Action I(int stage, int mb) { return BI(stage, mb); }

Schedule build(llvm::StringRef name, int numRanks, int numMicrobatches) {
  PipelineModel model = PipelineModel::uniform(numRanks, 1, 1, 0, 1);
  llvm::Expected<Schedule> schedule =
      buildSchedule(name, model, numMicrobatches);
  EXPECT_TRUE(static_cast<bool>(schedule)) << name.str();
  if (!schedule) {
    llvm::consumeError(schedule.takeError());
    return Schedule();
  }
  return std::move(*schedule);
}

std::string exportOrDie(const Schedule &schedule, TableFormat format,
                        bool align = true) {
  TableExportOptions options;
  options.format = format;
  options.alignSteps = align;
  llvm::Expected<std::string> text = exportTable(schedule, options);
  EXPECT_TRUE(static_cast<bool>(text));
  if (!text)
    return "error: " + llvm::toString(text.takeError());
  return *text;
}

std::string exportError(const Schedule &schedule, TableFormat format) {
  TableExportOptions options;
  options.format = format;
  llvm::Expected<std::string> text = exportTable(schedule, options);
  if (text)
    return "";
  return llvm::toString(text.takeError());
}

ImportedTable importOrDie(llvm::StringRef text,
                          std::optional<TableFormat> format = std::nullopt) {
  llvm::Expected<ImportedTable> table = importTable(text, format);
  EXPECT_TRUE(static_cast<bool>(table)) << text.str();
  if (!table) {
    ADD_FAILURE() << llvm::toString(table.takeError());
    return ImportedTable();
  }
  return std::move(*table);
}

/// The message of the error importTable() returns, or "" on success.
std::string importError(llvm::StringRef text,
                        std::optional<TableFormat> format = std::nullopt,
                        TableLocation *where = nullptr) {
  llvm::Expected<ImportedTable> table = importTable(text, format, where);
  if (table)
    return "";
  return llvm::toString(table.takeError());
}

void expectSameSchedule(const Schedule &a, const Schedule &b) {
  EXPECT_EQ(a.numMicrobatches, b.numMicrobatches);
  ASSERT_EQ(a.ranks.size(), b.ranks.size());
  for (size_t r = 0; r < a.ranks.size(); ++r) {
    ASSERT_EQ(a.ranks[r].size(), b.ranks[r].size()) << "rank " << r;
    for (size_t i = 0; i < a.ranks[r].size(); ++i)
      EXPECT_TRUE(a.ranks[r][i] == b.ranks[r][i])
          << "rank " << r << ", action " << i << ": " << describe(a.ranks[r][i])
          << " vs " << describe(b.ranks[r][i]);
  }
}

/// The schedule without Send/Recv.
Schedule computeOnly(const Schedule &schedule) {
  Schedule out;
  out.numMicrobatches = schedule.numMicrobatches;
  for (const std::vector<Action> &actions : schedule.ranks) {
    std::vector<Action> &kept = out.ranks.emplace_back();
    for (const Action &a : actions)
      if (a.isCompute())
        kept.push_back(a);
  }
  return out;
}

/// Split backward by hand on two ranks, M = 2: B before W, W deferred.
Schedule splitSchedule() {
  Schedule s;
  s.numMicrobatches = 2;
  s.ranks = {{F(0, 0), F(0, 1), I(0, 0), I(0, 1), W(0, 0), W(0, 1)},
             {F(1, 0), I(1, 0), F(1, 1), I(1, 1), W(1, 0), W(1, 1)}};
  return s;
}

//===----------------------------------------------------------------------===//
// Cells and formats
//===----------------------------------------------------------------------===//

TEST(Table, Cells) {
  using PK = PayloadKind;
  EXPECT_EQ(tableCell(F(0, 1)), "0F1");
  EXPECT_EQ(tableCell(I(2, 0)), "2I0");
  EXPECT_EQ(tableCell(W(0, 3)), "0W3");
  EXPECT_EQ(tableCell(B(0, 3)), "0B3");
  EXPECT_EQ(tableCell(comm(ActionKind::Send, PK::Activation, 1, 0, 2)),
            "1SEND_F0");
  // A received activation of stage 0 is stage 1's input.
  EXPECT_EQ(tableCell(comm(ActionKind::Recv, PK::Activation, 0, 0, 0)),
            "1RECV_F0");
  EXPECT_EQ(tableCell(comm(ActionKind::Send, PK::Gradient, 1, 2, 0)),
            "1SEND_B2");
  // A received gradient of stage 2 is stage 1's.
  EXPECT_EQ(tableCell(comm(ActionKind::Recv, PK::Gradient, 2, 2, 2)),
            "1RECV_B2");
}

TEST(Table, FormatNames) {
  EXPECT_EQ(tableFormatName(TableFormat::ComputeOnly), "compute_only");
  EXPECT_EQ(tableFormatName(TableFormat::ComputeComms), "compute_comms");
  EXPECT_EQ(parseTableFormat("compute_only"), TableFormat::ComputeOnly);
  EXPECT_EQ(parseTableFormat("compute_comms"), TableFormat::ComputeComms);
  EXPECT_EQ(parseTableFormat("simple"), std::nullopt);
}

//===----------------------------------------------------------------------===//
// Export
//===----------------------------------------------------------------------===//

// Lock-step columns: a value made at step t on one rank is used at t + 1 on
// the next; empty cells are bubbles.
TEST(Table, ExportGPipe) {
  Schedule gpipe = build("gpipe", 2, 2);
  EXPECT_EQ(exportOrDie(gpipe, TableFormat::ComputeOnly), "0F0,0F1,,,0B1,0B0\n"
                                                          ",1F0,1F1,1B1,1B0\n");
  EXPECT_EQ(exportOrDie(gpipe, TableFormat::ComputeOnly, /*align=*/false),
            "0F0,0F1,0B1,0B0\n"
            "1F0,1F1,1B1,1B0\n");
}

TEST(Table, Export1F1B) {
  Schedule s = build("1f1b", 2, 3);
  EXPECT_EQ(exportOrDie(s, TableFormat::ComputeOnly),
            "0F0,0F1,,0B0,0F2,0B1,,0B2\n"
            ",1F0,1B0,1F1,1B1,1F2,1B2\n");
}

TEST(Table, ExportCRLF) {
  TableExportOptions options;
  options.crlf = true;
  llvm::Expected<std::string> text = exportTable(build("gpipe", 2, 1), options);
  ASSERT_TRUE(static_cast<bool>(text));
  EXPECT_EQ(*text, "0F0,,,0B0\r\n,1F0,1B0\r\n");
}

TEST(Table, ExportComputeComms) {
  PipelineModel model = PipelineModel::uniform(2, 1, 1, 0, 1);
  Schedule s = insertCommunication(model, build("gpipe", 2, 1));
  EXPECT_EQ(exportOrDie(s, TableFormat::ComputeComms),
            "0F0,0SEND_F0,0RECV_B0,0B0\n"
            "1RECV_F0,1F0,1B0,1SEND_B0\n");
  // compute_only drops the communication.
  EXPECT_EQ(exportOrDie(s, TableFormat::ComputeOnly), "0F0,,,0B0\n"
                                                      ",1F0,1B0\n");
}

TEST(Table, ExportEmptyRank) {
  Schedule s;
  s.numMicrobatches = 1;
  s.ranks = {{F(0, 0), B(0, 0)}, {}};
  EXPECT_EQ(exportOrDie(s, TableFormat::ComputeOnly), "0F0,0B0\n\n");
  // No value crosses ranks: compute_comms needs no send/recv.
  EXPECT_EQ(exportOrDie(s, TableFormat::ComputeComms), "0F0,0B0\n\n");
}

TEST(Table, ExportOverlap) {
  // Rank 0 runs stages 0 and 3, rank 1 stages 1 and 2 (V placement); F of
  // stage 0 mb 1 overlaps the B of stage 3 mb 0.
  Schedule s;
  s.numMicrobatches = 2;
  Action overlapped = F(0, 1);
  overlapped.overlapWithNext = true;
  s.ranks = {
      {F(0, 0), F(3, 0), overlapped, B(3, 0), F(3, 1), B(3, 1), B(0, 0),
       B(0, 1)},
      {F(1, 0), F(2, 0), F(1, 1), F(2, 1), B(2, 0), B(1, 0), B(2, 1), B(1, 1)}};
  std::string text = exportOrDie(s, TableFormat::ComputeOnly, false);
  EXPECT_EQ(text, "0F0,3F0,(0F1;3B0)OVERLAP_F_B,3F1,3B1,0B0,0B1\n"
                  "1F0,2F0,1F1,2F1,2B0,1B0,2B1,1B1\n");
  ImportedTable table = importOrDie(text);
  expectSameSchedule(table.schedule, s);
  EXPECT_EQ(table.stageRanks, (std::vector<int>{0, 1, 1, 0}));
  EXPECT_EQ(table.steps[0], (std::vector<int>{0, 1, 2, 2, 3, 4, 5, 6}));

  // With communication: receives before the pair, sends after it.
  Schedule comms;
  comms.numMicrobatches = 2;
  Action f = F(0, 0);
  f.overlapWithNext = true;
  comms.ranks = {
      {F(0, 1), comm(ActionKind::Send, PayloadKind::Activation, 0, 1, 1),
       comm(ActionKind::Recv, PayloadKind::Activation, 2, 0, 1), f, B(3, 0),
       comm(ActionKind::Send, PayloadKind::Activation, 0, 0, 1)},
      {F(1, 1), F(1, 0), F(2, 0)}};
  TableExportOptions options;
  options.format = TableFormat::ComputeComms;
  llvm::Expected<std::string> out = exportTable(comms, options);
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ(*out, "0F1,0SEND_F1,3RECV_F0,(0F0;3B0)OVERLAP_F_B,0SEND_F0\n"
                  "1F1,1F0,2F0\n");
  expectSameSchedule(importOrDie(*out).schedule, comms);

  // An all-reduce after the backward half of a pair follows the pair's
  // cell (no valid schedule ends a stage's backwards inside a pair, but a
  // placement can name it), one after a plain action follows its cell.
  // compute_only leaves them out.
  options.allReduces = {{0, 3, 4, -1}, {0, 0, 0, -1}};
  out = exportTable(comms, options);
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ(*out, "0F1,0REDUCE_GRAD,0SEND_F1,3RECV_F0,(0F0;3B0)OVERLAP_F_B,"
                  "3REDUCE_GRAD,0SEND_F0\n"
                  "1F1,1F0,2F0\n");
  options.format = TableFormat::ComputeOnly;
  options.alignSteps = false;
  out = exportTable(comms, options);
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  EXPECT_EQ(*out, "0F1,(0F0;3B0)OVERLAP_F_B\n1F1,1F0,2F0\n");
}

TEST(Table, ExportErrors) {
  // compute_comms of a compute-only schedule whose values cross ranks.
  EXPECT_EQ(exportError(build("gpipe", 2, 1), TableFormat::ComputeComms),
            "format compute_comms needs a schedule with send/recv, but this "
            "one has none and stage 0 (rank 0) and stage 1 (rank 1) are on "
            "different ranks; insert the communication first or export "
            "compute_only");
  // A stage on two ranks.
  Schedule twice;
  twice.numMicrobatches = 1;
  twice.ranks = {{F(0, 0)}, {B(0, 0)}};
  EXPECT_EQ(exportError(twice, TableFormat::ComputeOnly),
            "rank 1, action 0 (backward of stage 0 micro-batch 0): stage 0 "
            "also runs on rank 0; a table puts each stage on one rank");
  // An overlapped forward with no backward after it.
  Schedule lonely;
  lonely.numMicrobatches = 1;
  Action f = F(0, 0);
  f.overlapWithNext = true;
  lonely.ranks = {{f, W(0, 0)}};
  EXPECT_EQ(exportError(lonely, TableFormat::ComputeOnly),
            "rank 0, action 0 (forward of stage 0 micro-batch 0): it is "
            "overlapped with the next action, which must be a backward");
  // A send to a rank where the next stage does not run.
  Schedule wrongPeer;
  wrongPeer.numMicrobatches = 1;
  wrongPeer.ranks = {
      {F(0, 0), comm(ActionKind::Send, PayloadKind::Activation, 0, 0, 2)},
      {comm(ActionKind::Recv, PayloadKind::Activation, 0, 0, 0), F(1, 0)},
      {}};
  EXPECT_EQ(exportError(wrongPeer, TableFormat::ComputeComms),
            "rank 0, action 1 (send of activation of stage 0 micro-batch 0 to "
            "rank 2): stage 1 at the other end runs on rank 1");
  // A cycle cannot be aligned.
  Schedule cycle;
  cycle.numMicrobatches = 1;
  cycle.ranks = {{B(0, 0), F(0, 0)}};
  EXPECT_EQ(exportError(cycle, TableFormat::ComputeOnly),
            "cannot align the table's steps: the compute actions wait on "
            "each other in a cycle (rank 0 at '0B0'); export without step "
            "alignment");
}

//===----------------------------------------------------------------------===//
// Round trips
//===----------------------------------------------------------------------===//

TEST(Table, RoundTripGPipeAnd1F1B) {
  for (const char *name : {"gpipe", "1f1b"})
    for (int p = 1; p <= 5; ++p)
      for (int m = 1; m <= 6; ++m) {
        SCOPED_TRACE(std::string(name) + " P=" + std::to_string(p) +
                     " M=" + std::to_string(m));
        PipelineModel model = PipelineModel::uniform(p, 1, 1, 0, 1);
        Schedule s = build(name, p, m);
        for (bool align : {true, false}) {
          ImportedTable table =
              importOrDie(exportOrDie(s, TableFormat::ComputeOnly, align),
                          TableFormat::ComputeOnly);
          expectSameSchedule(table.schedule, s);
          EXPECT_EQ(table.format, TableFormat::ComputeOnly);
          ASSERT_EQ(table.numStages(), p);
          for (int stage = 0; stage < p; ++stage)
            EXPECT_EQ(table.stageRanks[stage], model.rankOf(stage));
        }
        Schedule withComms = insertCommunication(model, s);
        ImportedTable table =
            importOrDie(exportOrDie(withComms, TableFormat::ComputeComms));
        // One rank needs no communication: the table reads as compute_only.
        EXPECT_EQ(table.format,
                  p > 1 ? TableFormat::ComputeComms : TableFormat::ComputeOnly);
        expectSameSchedule(table.schedule, withComms);
        EXPECT_TRUE(checkSchedule(model, table.schedule).empty());
        // compute_only of a schedule with comms gives back the computation.
        expectSameSchedule(
            importOrDie(exportOrDie(withComms, TableFormat::ComputeOnly))
                .schedule,
            s);
      }
}

TEST(Table, RoundTripSplitBackward) {
  Schedule s = splitSchedule();
  PipelineModel model = PipelineModel::uniform(2, 1, 1, 1, 1, 1);
  ASSERT_TRUE(checkSchedule(model, s).empty());
  std::string text = exportOrDie(s, TableFormat::ComputeOnly);
  EXPECT_EQ(text, "0F0,0F1,,0I0,,0I1,0W0,0W1\n"
                  ",1F0,1I0,1F1,1I1,1W0,1W1\n");
  expectSameSchedule(importOrDie(text).schedule, s);
  Schedule withComms = insertCommunication(model, s);
  expectSameSchedule(
      importOrDie(exportOrDie(withComms, TableFormat::ComputeComms)).schedule,
      withComms);
}

// Every schedule of the registry that builds for a shape: export, import,
// same schedule (generators that refuse the shape are skipped).
TEST(Table, RoundTripRegistry) {
  int tested = 0;
  for (const std::string &name : scheduleNames())
    for (int v : {1, 2})
      for (int p : {1, 2, 4}) {
        PipelineModel model = PipelineModel::uniform(p, 1, 1, 1, 1, 1);
        if (v == 2) {
          model.stages.clear();
          for (int s = 0; s < 2 * p; ++s) {
            StageInfo info;
            info.rank = s < p ? s : 2 * p - 1 - s; // V placement
            model.stages.push_back(info);
          }
        }
        llvm::Expected<Schedule> s = buildSchedule(name, model, 2 * p);
        if (!s) {
          llvm::consumeError(s.takeError());
          continue;
        }
        SCOPED_TRACE(name + " P=" + std::to_string(p) +
                     " V=" + std::to_string(v));
        if (!checkSchedule(model, *s).empty())
          continue; // Another test's concern.
        ++tested;
        Schedule compute = computeOnly(*s);
        expectSameSchedule(
            importOrDie(exportOrDie(*s, TableFormat::ComputeOnly)).schedule,
            compute);
        Schedule withComms =
            hasCommunication(*s) ? *s : insertCommunication(model, *s);
        expectSameSchedule(
            importOrDie(exportOrDie(withComms, TableFormat::ComputeComms))
                .schedule,
            withComms);
      }
  // GPipe and 1F1B at least (3 shapes each with V = 1).
  EXPECT_GE(tested, 6);
}

//===----------------------------------------------------------------------===//
// Import of literal tables
//===----------------------------------------------------------------------===//

// As PipelineScheduleMulti writes a compute-only 1F1B (P = 2, M = 2): a
// leading bubble on rank 1, bubbles as empty cells, CRLF line ends.
TEST(Table, ImportComputeOnlyFixture) {
  ImportedTable table = importOrDie("0F0,0F1,,0B0,,0B1\r\n"
                                    ",1F0,1B0,1F1,1B1\r\n");
  EXPECT_EQ(table.format, TableFormat::ComputeOnly);
  EXPECT_EQ(table.numRanks(), 2);
  EXPECT_EQ(table.stageRanks, (std::vector<int>{0, 1}));
  EXPECT_EQ(table.schedule.numMicrobatches, 2);
  Schedule expected;
  expected.numMicrobatches = 2;
  expected.ranks = {{F(0, 0), F(0, 1), B(0, 0), B(0, 1)},
                    {F(1, 0), B(1, 0), F(1, 1), B(1, 1)}};
  expectSameSchedule(table.schedule, expected);
  EXPECT_EQ(table.steps[0], (std::vector<int>{0, 1, 3, 5}));
  EXPECT_EQ(table.steps[1], (std::vector<int>{1, 2, 3, 4}));
  PipelineModel model = PipelineModel::uniform(2, 1, 1, 0, 1);
  EXPECT_TRUE(checkSchedule(model, table.schedule).empty());
}

// Interleaved placement (stage s on rank s mod 2) with split backward, in
// the style of PyTorch's zero-bubble test artifacts.
TEST(Table, ImportInterleavedSplitFixture) {
  ImportedTable table =
      importOrDie("0F0,2F0,0F1,2F1,2I0,2W0,0I0,2I1,0W0,2W1,0I1,0W1\n"
                  "1F0,3F0,1F1,3I0,3F1,3I1,1I0,3W0,1I1,3W1,1W0,1W1\n");
  EXPECT_EQ(table.stageRanks, (std::vector<int>{0, 1, 0, 1}));
  EXPECT_EQ(table.schedule.numMicrobatches, 2);
  PipelineModel model;
  model.numRanks = 2;
  for (int s = 0; s < 4; ++s) {
    StageInfo info;
    info.rank = s % 2;
    model.stages.push_back(info);
  }
  EXPECT_TRUE(checkSchedule(model, table.schedule).empty());
  EXPECT_TRUE(findDeadlock(model, table.schedule).completed);
}

TEST(Table, ImportComputeCommsFixture) {
  // _add_send_recv's layout for P = 2, M = 1.
  ImportedTable table = importOrDie("0F0,0SEND_F0,0RECV_B0,0B0\n"
                                    "1RECV_F0,1F0,1B0,1SEND_B0\n");
  EXPECT_EQ(table.format, TableFormat::ComputeComms);
  using PK = PayloadKind;
  Schedule expected;
  expected.numMicrobatches = 1;
  expected.ranks = {{F(0, 0), comm(ActionKind::Send, PK::Activation, 0, 0, 1),
                     comm(ActionKind::Recv, PK::Gradient, 1, 0, 1), B(0, 0)},
                    {comm(ActionKind::Recv, PK::Activation, 0, 0, 0), F(1, 0),
                     B(1, 0), comm(ActionKind::Send, PK::Gradient, 1, 0, 0)}};
  expectSameSchedule(table.schedule, expected);
  PipelineModel model = PipelineModel::uniform(2, 1, 1, 0, 1);
  EXPECT_TRUE(checkSchedule(model, table.schedule).empty());
  EXPECT_TRUE(findDeadlock(model, table.schedule).completed);
}

TEST(Table, ImportLexical) {
  // White space around cells, quoted cells, a missing final line end, a
  // byte-order mark, a blank row (a rank with no actions), "\r" line ends.
  ImportedTable table =
      importOrDie("\xEF\xBB\xBF 0F0 ,\"0B0\"\r\r\"\",1F0,\t1B0");
  ASSERT_EQ(table.numRanks(), 3);
  EXPECT_EQ(table.schedule.ranks[0].size(), 2u);
  EXPECT_TRUE(table.schedule.ranks[1].empty());
  EXPECT_EQ(table.schedule.ranks[2].size(), 2u);
  EXPECT_EQ(table.steps[2], (std::vector<int>{1, 2}));
  EXPECT_EQ(table.stageRanks, (std::vector<int>{0, 2}));
  // Large numbers.
  EXPECT_EQ(importOrDie("0F41,0B41\n").schedule.numMicrobatches, 42);
  // A format given explicitly is kept.
  EXPECT_EQ(importOrDie("0F0,0B0\n", TableFormat::ComputeComms).format,
            TableFormat::ComputeComms);
}

TEST(Table, ImportOverlapFixture) {
  // DualPipeV's cell, as in PyTorch's dualpipev test artifact.
  ImportedTable table = importOrDie("0F0,1F0,(0F1;1B0)OVERLAP_F_B,1F1,1B1,"
                                    "0B0,0B1\n");
  ASSERT_EQ(table.schedule.ranks[0].size(), 8u);
  EXPECT_TRUE(table.schedule.ranks[0][2].overlapWithNext);
  EXPECT_TRUE(table.schedule.ranks[0][3] == B(1, 0));
  EXPECT_EQ(table.steps[0], (std::vector<int>{0, 1, 2, 2, 3, 4, 5, 6}));
}

//===----------------------------------------------------------------------===//
// Import errors
//===----------------------------------------------------------------------===//

TEST(Table, ImportErrors) {
  TableLocation where;
  EXPECT_EQ(importError("0F0,0F1\n1F0,1F1,,X9\n", std::nullopt, &where),
            "rank 1, step 3: cannot parse action 'X9' (expected "
            "<stage><type><micro-batch>, e.g. '2F0')");
  EXPECT_EQ(where.line, 2);
  EXPECT_EQ(where.column, 10);
  EXPECT_EQ(importError("0F0,0Q1\n"),
            "rank 0, step 1: cannot parse action '0Q1' (expected "
            "<stage><type><micro-batch>, e.g. '2F0')");
  EXPECT_EQ(importError("0F0,0F1x\n"),
            "rank 0, step 1: cannot parse action '0F1x'");
  EXPECT_EQ(importError("0F0,0BW0\n"),
            "rank 0, step 1: cannot parse action '0BW0' (older PyTorch tables "
            "wrote 'BW' for a full backward and 'B' for a backward for "
            "inputs; today they are 'B' and 'I')");
  EXPECT_EQ(importError("0F\n"), "rank 0, step 0: action '0F' has no "
                                 "micro-batch");
  EXPECT_EQ(importError("0F99999999999\n"),
            "rank 0, step 0: micro-batch number out of range in "
            "'0F99999999999'");
  // Stage 0 in two rows.
  EXPECT_EQ(importError("0F0,1F0\n,,0B0\n", std::nullopt, &where),
            "rank 1, step 2: stage 0 is on both rank 0 and rank 1 ('0B0')");
  EXPECT_EQ(where.line, 2);
  EXPECT_EQ(where.column, 3);
  // PyTorch's FSDP actions, and REDUCE_GRAD, which says nothing of the
  // replicas or bytes.
  for (const char *type : {"UNSHARD", "RESHARD"})
    EXPECT_EQ(importError(std::string("0F0,0") + type + "\n"),
              std::string("rank 0, step 1: action '0") + type + "': " + type +
                  " is not supported (pp-mlir has no FSDP unshard/reshard)");
  EXPECT_EQ(importError("0F0,0B0,0REDUCE_GRAD\n"),
            "rank 0, step 2: action '0REDUCE_GRAD': REDUCE_GRAD is not "
            "imported (a table does not say how many replicas or bytes): "
            "drop the REDUCE_GRAD cells and run pp-insert-allreduce, which "
            "places them where PyTorch does");
  // Communication in a table read as compute_only.
  EXPECT_EQ(
      importError("0F0,0SEND_F0\n1RECV_F0,1F0\n", TableFormat::ComputeOnly),
      "rank 0, step 1: communication action '0SEND_F0' in a "
      "compute_only table");
  // Peers that do not exist.
  EXPECT_EQ(importError("0F0,0SEND_F0\n"),
            "rank 0, step 1: '0SEND_F0' sends to stage 1, which the table "
            "does not have (its stages are 0..0)");
  EXPECT_EQ(importError("0RECV_F0,0F0\n"),
            "rank 0, step 0: '0RECV_F0' receives from stage -1, which the "
            "table does not have (its stages are 0..0)");
  // OVERLAP_F_B must be a forward and a backward.
  EXPECT_EQ(importError("(0F0;0F1)OVERLAP_F_B\n"),
            "rank 0, step 0: OVERLAP_F_B must pair one forward with one "
            "backward, as in '(0F1;1B0)OVERLAP_F_B'; got "
            "'(0F0;0F1)OVERLAP_F_B'");
  EXPECT_EQ(importError("(0F0;1B0)F\n"),
            "rank 0, step 0: cannot parse action '(0F0;1B0)F' (only "
            "OVERLAP_F_B has sub-actions)");
  // The table as a whole.
  EXPECT_EQ(importError(""), "the table has no actions");
  EXPECT_EQ(importError(",,\n\n"), "the table has no actions");
  EXPECT_EQ(importError("0F0,2F0\n"),
            "stage 1 appears in no row; stages must be numbered 0..2 without "
            "gaps");
  EXPECT_EQ(importError("0F0,\"0B0\n", std::nullopt, &where),
            "line 1: a quoted cell is not closed");
  EXPECT_EQ(where.column, 5);
}

//===----------------------------------------------------------------------===//
// SVG
//===----------------------------------------------------------------------===//

/// Counts occurrences of `needle`.
size_t count(llvm::StringRef text, llvm::StringRef needle) {
  return text.count(needle);
}

/// A small XML well-formedness check: tags nest, every element is closed,
/// attribute values are quoted, text has no bare '<' or '&'.
bool wellFormed(llvm::StringRef xml, std::string &why) {
  std::vector<std::string> open;
  size_t pos = 0;
  if (xml.starts_with("<?xml")) {
    pos = xml.find("?>");
    if (pos == llvm::StringRef::npos)
      return why = "unterminated declaration", false;
    pos += 2;
  }
  bool root = false;
  while (pos < xml.size()) {
    size_t lt = xml.find('<', pos);
    llvm::StringRef text = xml.slice(pos, lt);
    for (size_t amp = text.find('&'); amp != llvm::StringRef::npos;
         amp = text.find('&', amp + 1)) {
      llvm::StringRef entity = text.drop_front(amp);
      if (!entity.starts_with("&amp;") && !entity.starts_with("&lt;") &&
          !entity.starts_with("&gt;") && !entity.starts_with("&quot;") &&
          !entity.starts_with("&apos;"))
        return why = "bare '&'", false;
    }
    if (lt == llvm::StringRef::npos)
      break;
    size_t gt = xml.find('>', lt);
    if (gt == llvm::StringRef::npos)
      return why = "unterminated tag", false;
    llvm::StringRef tag = xml.slice(lt + 1, gt);
    if (tag.contains('<'))
      return why = "'<' in a tag", false;
    if (tag.count('"') % 2)
      return why = "unbalanced quotes in <" + tag.str() + ">", false;
    if (tag.starts_with("/")) {
      if (open.empty() || open.back() != tag.drop_front().trim())
        return why = "mismatched </" + tag.drop_front().str() + ">", false;
      open.pop_back();
    } else {
      if (open.empty() && root)
        return why = "two root elements", false;
      root = true;
      std::string name = tag.take_until([](char c) {
                              return c == ' ' || c == '/' || c == '\n';
                            })
                             .str();
      if (!tag.ends_with("/"))
        open.push_back(name);
    }
    pos = gt + 1;
  }
  if (!open.empty())
    return why = "unclosed <" + open.back() + ">", false;
  return root || (why = "no root element", false);
}

TEST(Table, SVG) {
  PipelineModel model = PipelineModel::uniform(4, 1, 1, 0, 1);
  Schedule s = build("1f1b", 4, 8);
  SimulationResult result = simulate(model, s);
  std::string svg = renderSVG(model, s, result, "p4_1f1b");
  std::string why;
  EXPECT_TRUE(wellFormed(svg, why)) << why;
  // Canvas, 4 row backgrounds, 4 legend swatches, 64 blocks.
  EXPECT_EQ(count(svg, "<rect "), 1u + 4 + 4 + 64);
  EXPECT_EQ(count(svg, "fill=\"#4e79a7\""), 32u + 1); // F blocks + legend
  EXPECT_EQ(count(svg, "fill=\"#59a14f\""), 32u + 1); // fused B + legend
  EXPECT_NE(svg.find("p4_1f1b: 4 ranks, 4 stages, 8 micro-batches"),
            std::string::npos);
  EXPECT_NE(svg.find("makespan 22 µs, bubble rate 27.2727%"),
            std::string::npos);
  EXPECT_NE(svg.find(">Rank 3</text>"), std::string::npos);
  EXPECT_NE(svg.find(">time (µs)</text>"), std::string::npos);
  EXPECT_NE(svg.find("<title>rank 0: forward of stage 0 micro-batch 0, 0–1 "
                     "µs</title>"),
            std::string::npos);

  // Split backward with zero-time W (drawn as thin ticks), a second chunk
  // in a darker shade, names that need escaping.
  PipelineModel split = PipelineModel::uniform(2, 1, 1, 0, 1, 1);
  Schedule ss = splitSchedule();
  std::string svg2 = renderSVG(split, ss, simulate(split, ss), "a<b&c");
  EXPECT_TRUE(wellFormed(svg2, why)) << why;
  EXPECT_EQ(count(svg2, "<rect "), 1u + 2 + 4 + 12);
  EXPECT_NE(svg2.find("a&lt;b&amp;c: 2 ranks"), std::string::npos);
  EXPECT_EQ(count(svg2, "fill=\"#f28e2b\""), 4u + 1);
}

} // namespace
