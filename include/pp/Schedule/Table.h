//===- Table.h - Schedule tables and pictures -------------------*- C++ -*-===//
//
// Schedules as the CSV tables of PyTorch's torch.distributed.pipelining, and
// as SVG pictures.
//
// The table format is the one `PipelineScheduleMulti._dump_csv` /
// `_PipelineScheduleRuntime._dump_csv` write and `_load_csv` read
// (torch/distributed/pipelining/schedules.py): Python's csv module (excel
// dialect) with one row per rank, rank 0 first, and one action per cell, in
// the rank's program order. A cell is `str(_Action)`:
//
//   <stage><type><micro-batch>        e.g. 0F1, 2I0, 0W3, 0B3, 1SEND_F0
//   (<sub>;<sub>)OVERLAP_F_B          e.g. (0F7;7B3)OVERLAP_F_B
//
// with types F (forward), I (backward for inputs), W (backward for weights),
// B (full backward: I and W fused), SEND_F / RECV_F (activations), SEND_B /
// RECV_B (gradients), and OVERLAP_F_B (DualPipeV's overlapped forward and
// backward pair). The stage of every cell is the stage on the row's own rank:
// SEND_F on stage s sends s's output to stage s + 1, RECV_F on stage s
// receives s - 1's output, SEND_B on stage s sends s's input gradient to
// stage s - 1, RECV_B on stage s receives s + 1's input gradient. An empty
// cell (Python's None) is a bubble: the rank idles for one time step.
//
// Two formats: `compute_only` (F, I, W, B and OVERLAP_F_B; PyTorch inserts
// the communication itself when it loads one) and `compute_comms` (every
// send and receive explicit, as PyTorch's runtime executes them).
//
// Mapping to this library's actions: F -> Forward, I -> BackwardInput, W ->
// BackwardWeight, B -> Backward; SEND_F on stage s -> Send of the activation
// of stage s to the rank of stage s + 1; RECV_F on stage s -> Recv of the
// activation of stage s - 1 from the rank of stage s - 1; SEND_B on stage s
// -> Send of the gradient of stage s to the rank of stage s - 1; RECV_B on
// stage s -> Recv of the gradient of stage s + 1 from its rank;
// (F;B)OVERLAP_F_B -> a Forward with overlapWithNext followed by the Backward
// (or BackwardInput). A data-parallel all-reduce (AllReducePlacement) is
// exported in compute_comms as PyTorch's REDUCE_GRAD of its stage, after
// the action it follows; PyTorch's `_add_reduce_grad` places its own where
// placeAllReduces() does (right after the stage's last W or full
// backward), so the two agree unless the all-reduces were bucketed or
// deferred to the end. PyTorch's UNSHARD and RESHARD (FSDP) have no
// counterpart here, and an import refuses REDUCE_GRAD (a table does not
// say how many replicas or bytes: import without them and run
// pp-insert-allreduce).
//
//===----------------------------------------------------------------------===//

#ifndef PP_SCHEDULE_TABLE_H
#define PP_SCHEDULE_TABLE_H

#include "pp/Schedule/DataParallel.h"
#include "pp/Schedule/Schedule.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::pp::sched {

//===----------------------------------------------------------------------===//
// Schedule tables (PyTorch CSV)
//===----------------------------------------------------------------------===//

/// The two table formats of torch.distributed.pipelining.
enum class TableFormat {
  ComputeOnly,  ///< "compute_only": compute actions only
  ComputeComms, ///< "compute_comms": compute actions and every send/recv
};

/// "compute_only" or "compute_comms".
llvm::StringRef tableFormatName(TableFormat format);

/// The format named `name` ("compute_only", "compute_comms"), or nullopt.
std::optional<TableFormat> parseTableFormat(llvm::StringRef name);

/// True if `schedule` has at least one Send or Recv.
bool hasCommunication(const Schedule &schedule);

/// The table cell of one action, as PyTorch's `str(_Action)` prints it:
/// "0F1", "2I0", "0W3", "0B3" (fused backward), "0SEND_F1" (Send of the
/// activation of stage 0), "1RECV_F1" (Recv of the activation of stage 0:
/// the cell names the receiving stage 1), "1SEND_B1" (Send of the gradient
/// of stage 1), "0RECV_B1" (Recv of the gradient of stage 1). An overlapped
/// forward prints as a plain forward; exportTable() pairs it.
std::string tableCell(const Action &action);

struct TableExportOptions {
  TableFormat format = TableFormat::ComputeOnly;
  /// compute_only only: put every action in the column of its time step when
  /// all actions take one step and a value made at step t on one rank can be
  /// used at step t + 1 on another (the lock-step execution of PyTorch's
  /// PipelineScheduleMulti), with empty cells for bubbles, like the tables
  /// PyTorch's own schedules write. With false, or with compute_comms (which
  /// PyTorch requires to have no empty cells), every row is the rank's
  /// actions with no gaps.
  bool alignSteps = true;
  /// End rows with "\r\n", as Python's csv.writer does; by default "\n".
  /// Both read back the same.
  bool crlf = false;
  /// The schedule's data-parallel all-reduces: with compute_comms each is
  /// written as a "<stage>REDUCE_GRAD" cell right after the cell of the
  /// action it follows (a bucket's members one cell each). compute_only
  /// leaves them out: PyTorch loads compute actions only there and adds
  /// its REDUCE_GRAD itself (after each stage's last W or full backward).
  std::vector<AllReducePlacement> allReduces;
};

/// Writes `schedule` as a table: one row per rank of schedule.ranks (an empty
/// line for a rank without actions), each row ending in a line terminator.
///
/// compute_only drops Send and Recv. compute_comms writes them, and needs a
/// schedule that has them wherever a value crosses ranks (run
/// insertCommunication() first); a schedule with no Send/Recv is accepted
/// only if no stage's neighbour runs on another rank. An F&B pair (a Forward
/// with Action::overlapWithNext and the backward right after it) is written
/// as one "(F;B)OVERLAP_F_B" cell, like PyTorch's DualPipeV.
///
/// Errors (llvm::StringError, naming rank and action index): a stage whose
/// compute actions are on two ranks; a Send or Recv whose stage or peer does
/// not match where the stages run (a table cannot say that); the Recv of
/// a gradient of stage 0 or a similar action the format cannot express; an
/// overlapped forward that is not directly followed by a backward;
/// compute_comms without the communication; alignSteps on a schedule whose
/// compute actions wait on each other in a cycle (it deadlocks).
llvm::Expected<std::string> exportTable(const Schedule &schedule,
                                        const TableExportOptions &options = {});

/// A 1-based line and column (in bytes) in the text of a table; 0 for none.
struct TableLocation {
  int line = 0;
  int column = 0;
};

/// A table read back as a schedule.
struct ImportedTable {
  /// One program per row; numMicrobatches is the largest micro-batch in the
  /// table plus one.
  Schedule schedule;
  /// stageRanks[s] is the row (rank) that stage s appears on.
  std::vector<int> stageRanks;
  /// The format: the one asked for, or compute_comms if the table has a
  /// send or receive and compute_only if not.
  TableFormat format = TableFormat::ComputeOnly;
  /// steps[r][i] is the 0-based column of schedule.ranks[r][i] in row r (an
  /// OVERLAP_F_B cell gives both of its actions its column), for messages
  /// that name a rank and step.
  std::vector<std::vector<int>> steps;
  /// locations[r][i] is where the cell of schedule.ranks[r][i] starts in the
  /// text.
  std::vector<std::vector<TableLocation>> locations;

  int numRanks() const { return static_cast<int>(schedule.ranks.size()); }
  int numStages() const { return static_cast<int>(stageRanks.size()); }
};

/// Reads a table. The text is split into rows and cells as Python's
/// csv.reader does (excel dialect: ',' separates cells, '"' quotes, rows end
/// at "\r\n", "\n" or "\r", a blank line is a row with no cells; a final line
/// terminator is optional; a leading UTF-8 byte-order mark is skipped).
/// Each row is a rank, each cell is stripped of white space like
/// `_Action.from_str`, and empty cells are bubbles. Unlike `from_str`, which
/// matches a prefix, the whole cell must be one action.
///
/// The stage placement is inferred from the row every stage appears on; the
/// stages must be numbered 0..S-1. With `format` compute_only, a send or
/// receive is an error; with compute_comms or none, each is mapped as the
/// file comment of Table.h says, with the peer rank from the placement.
///
/// Errors (llvm::StringError): "rank R, step T: ..." for a cell that cannot
/// be parsed ("cannot parse action 'X9'"), an action with no micro-batch, an
/// UNSHARD / RESHARD / REDUCE_GRAD action (not supported here), an
/// OVERLAP_F_B that is not a forward and a backward, a stage that appears on
/// two ranks, a communication action in a compute_only table, or one whose
/// peer stage does not exist; and, for the table as a whole, no actions at
/// all or a stage number with no row, or an unclosed quote. `where`, if
/// given, receives the line and column of the cell (0 if the error is not
/// about one cell).
llvm::Expected<ImportedTable>
importTable(llvm::StringRef text,
            std::optional<TableFormat> format = std::nullopt,
            TableLocation *where = nullptr);

/// A problem checkTable() found: its message and, unless it is of the
/// table as a whole (rank -1), the rank, the 0-based step (column) and where
/// the cell starts in the text.
struct TableProblem {
  int rank = -1;
  int step = -1;
  TableLocation location;
  std::string message;
};

/// The checks every importer of a table makes before it builds a schedule
/// from it (import-pp-csv, pp-schedule's table option): the schedule is
/// valid for `model` (checkSchedule(); the model's ranks beyond the table's
/// rows are idle, rows beyond its ranks must be empty) and, if it is, runs
/// to the end under blocking send/recv (findDeadlock(); those messages
/// begin "deadlock under blocking send/recv: "). Empty when the table is
/// fine. `model` must have table.numStages() stages.
std::vector<TableProblem> checkTable(const PipelineModel &model,
                                     const ImportedTable &table);

/// `table.schedule` with one program per rank of `model` (the missing rows
/// idle; checkTable() has checked that rows beyond them are empty).
Schedule scheduleOf(const PipelineModel &model, const ImportedTable &table);

//===----------------------------------------------------------------------===//
// Pictures
//===----------------------------------------------------------------------===//

/// Draws a simulated schedule as a standalone SVG 1.1 document (UTF-8, one
/// element per line): a title with the schedule's name (if `name` is not
/// empty), P, S, M, the makespan and bubble rate; one row per rank with a
/// grey background (idle time) and one block per compute action from its
/// simulated start to its end, labelled with its micro-batch and with a
/// <title> tooltip naming the action and its times. Colours: F blue, fused
/// B green, B (backward for inputs) teal, W orange; a rank's second, fourth,
/// ... model chunk in a darker shade. An overlapped F&B pair shares its time
/// span, F in the upper half of the row and B in the lower. Actions that
/// take no time are drawn 1.5 px wide. Below the rows, a time axis in
/// microseconds; under it, a legend.
///
/// With `allReduces` (data parallelism, as pp-simulate's trace has them)
/// each rank's all-reduces are purple bars in a strip under its row (a
/// bucket's one interval is one bar naming its stages and bytes), the
/// subtitle gives the step with them, the picture spans to the last one's
/// end, and the legend has a fifth swatch.
///
/// The document has exactly 1 (canvas) + P (row backgrounds) + 4 (legend
/// swatches) + (number of compute actions) <rect> elements, and with
/// all-reduces 1 more swatch and one per all-reduce interval.
std::string renderSVG(const PipelineModel &model, const Schedule &schedule,
                      const SimulationResult &result, llvm::StringRef name = "",
                      const std::vector<TraceSpan> &allReduces = {});

} // namespace mlir::pp::sched

#endif // PP_SCHEDULE_TABLE_H
