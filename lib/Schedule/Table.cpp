//===- Table.cpp - PyTorch schedule CSV tables ----------------------------===//
//
// Import and export of the schedule tables of PyTorch's
// torch.distributed.pipelining (schedules.py: `_Action.__repr__`,
// `_Action.from_str`, `PipelineScheduleMulti._dump_csv` / `_load_csv`,
// `_PipelineScheduleRuntime._dump_csv` / `_load_csv`). See Table.h for the
// format and the mapping to this library's actions.
//
//===----------------------------------------------------------------------===//

#include "pp/Schedule/Table.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace mlir::pp::sched;
using llvm::StringRef;

llvm::StringRef mlir::pp::sched::tableFormatName(TableFormat format) {
  return format == TableFormat::ComputeOnly ? "compute_only" : "compute_comms";
}

std::optional<TableFormat> mlir::pp::sched::parseTableFormat(StringRef name) {
  if (name == "compute_only")
    return TableFormat::ComputeOnly;
  if (name == "compute_comms")
    return TableFormat::ComputeComms;
  return std::nullopt;
}

bool mlir::pp::sched::hasCommunication(const Schedule &schedule) {
  for (const std::vector<Action> &actions : schedule.ranks)
    for (const Action &action : actions)
      if (action.isComm())
        return true;
  return false;
}

std::string mlir::pp::sched::tableCell(const Action &action) {
  int stage = action.stage;
  const char *type = "?";
  bool activation = action.payload == PayloadKind::Activation;
  switch (action.kind) {
  case ActionKind::Forward:
    type = "F";
    break;
  case ActionKind::Backward:
    type = "B";
    break;
  case ActionKind::BackwardInput:
    type = "I";
    break;
  case ActionKind::BackwardWeight:
    type = "W";
    break;
  case ActionKind::Send:
    // The sender's own stage made the payload.
    type = activation ? "SEND_F" : "SEND_B";
    break;
  case ActionKind::Recv:
    // The cell names the receiving stage: the next one for an activation,
    // the previous one for a gradient.
    type = activation ? "RECV_F" : "RECV_B";
    stage = activation ? stage + 1 : stage - 1;
    break;
  }
  return std::to_string(stage) + type + std::to_string(action.microbatch);
}

//===----------------------------------------------------------------------===//
// Export
//===----------------------------------------------------------------------===//

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error actionError(int rank, size_t index, const Action &action,
                        const llvm::Twine &message) {
  return makeError("rank " + llvm::Twine(rank) + ", action " +
                   llvm::Twine(index) + " (" + describe(action) +
                   "): " + message);
}

/// The stage a communication action's cell names (on the action's own
/// rank) and the stage at the other end.
std::pair<int, int> commStages(const Action &action) {
  bool activation = action.payload == PayloadKind::Activation;
  if (action.kind == ActionKind::Send)
    return {action.stage, activation ? action.stage + 1 : action.stage - 1};
  return {activation ? action.stage + 1 : action.stage - 1, action.stage};
}

/// One cell of a row being written: its text and the (one or two) compute
/// actions in it.
struct OutCell {
  std::string text;
  std::vector<const Action *> compute;
};

/// What a compute action makes that later actions depend on.
enum Made { MadeForward, MadeBackward, MadeInput, kNumMade };

/// Calls `fn` with each Made of `action`: a forward its output, a fused
/// backward or B its input gradient, a B also its W's inputs.
template <typename Fn> void forEachMade(const Action &action, Fn fn) {
  if (action.kind == ActionKind::Forward)
    fn(MadeForward);
  if (action.kind == ActionKind::Backward ||
      action.kind == ActionKind::BackwardInput)
    fn(MadeBackward);
  if (action.kind == ActionKind::BackwardInput)
    fn(MadeInput);
}

/// Places compute-only cells at the time steps of PyTorch's lock-step
/// execution (see TableExportOptions::alignSteps). Returns, per rank, the
/// step of each cell.
llvm::Expected<std::vector<std::vector<int>>>
alignSteps(const std::vector<std::vector<OutCell>> &rows) {
  using Key = std::pair<int, int>; // (stage, micro-batch)
  // What exists anywhere in the schedule, and the step each was placed at.
  std::map<Key, int> placedAt[kNumMade];
  std::map<Key, bool> existing[kNumMade];
  for (const std::vector<OutCell> &row : rows)
    for (const OutCell &cell : row)
      for (const Action *a : cell.compute)
        forEachMade(*a, [&](Made made) {
          existing[made][{a->stage, a->microbatch}] = true;
        });

  // Raises `step` past the step of a dependency; false if the dependency
  // exists but has not been placed yet.
  auto after = [&](Made made, Key key, int &step) {
    if (!existing[made].count(key))
      return true;
    auto it = placedAt[made].find(key);
    if (it == placedAt[made].end())
      return false;
    step = std::max(step, it->second + 1);
    return true;
  };

  size_t numRanks = rows.size();
  std::vector<std::vector<int>> steps(numRanks);
  std::vector<size_t> pc(numRanks, 0);
  std::vector<int> last(numRanks, -1);
  size_t remaining = 0;
  for (size_t r = 0; r < numRanks; ++r) {
    steps[r].assign(rows[r].size(), 0);
    remaining += rows[r].size();
  }
  while (remaining > 0) {
    bool progress = false;
    for (size_t r = 0; r < numRanks; ++r) {
      while (pc[r] < rows[r].size()) {
        const OutCell &cell = rows[r][pc[r]];
        int step = last[r] + 1;
        bool ready = true;
        for (const Action *a : cell.compute) {
          int s = a->stage, m = a->microbatch;
          switch (a->kind) {
          case ActionKind::Forward:
            ready &= after(MadeForward, {s - 1, m}, step);
            break;
          case ActionKind::Backward:
          case ActionKind::BackwardInput:
            ready &= after(MadeForward, {s, m}, step);
            ready &= after(MadeBackward, {s + 1, m}, step);
            break;
          case ActionKind::BackwardWeight:
            ready &= after(MadeInput, {s, m}, step);
            break;
          default:
            break;
          }
        }
        if (!ready)
          break;
        for (const Action *a : cell.compute)
          forEachMade(*a, [&](Made made) {
            placedAt[made][{a->stage, a->microbatch}] = step;
          });
        steps[r][pc[r]] = step;
        last[r] = step;
        ++pc[r];
        --remaining;
        progress = true;
      }
    }
    if (!progress) {
      std::string blocked;
      for (size_t r = 0; r < numRanks; ++r)
        if (pc[r] < rows[r].size())
          blocked += (blocked.empty() ? "" : ", ") +
                     ("rank " + std::to_string(r) + " at '" +
                      rows[r][pc[r]].text + "'");
      return makeError("cannot align the table's steps: the compute actions "
                       "wait on each other in a cycle (" +
                       blocked + "); export without step alignment");
    }
  }
  return steps;
}

} // namespace

llvm::Expected<std::string>
mlir::pp::sched::exportTable(const Schedule &schedule,
                             const TableExportOptions &options) {
  bool comms = options.format == TableFormat::ComputeComms;
  int numRanks = static_cast<int>(schedule.ranks.size());

  // Where every stage runs, from the compute actions.
  std::map<int, int> rankOf;
  for (int r = 0; r < numRanks; ++r)
    for (size_t i = 0; i < schedule.ranks[r].size(); ++i) {
      const Action &a = schedule.ranks[r][i];
      if (!a.isCompute())
        continue;
      auto [it, inserted] = rankOf.try_emplace(a.stage, r);
      if (!inserted && it->second != r)
        return actionError(r, i, a,
                           "stage " + llvm::Twine(a.stage) +
                               " also runs on rank " + llvm::Twine(it->second) +
                               "; a table puts each stage on one rank");
    }

  if (comms) {
    if (!hasCommunication(schedule)) {
      // Fine only if no value has to cross ranks.
      for (auto [stage, rank] : rankOf) {
        auto next = rankOf.find(stage + 1);
        if (next != rankOf.end() && next->second != rank)
          return makeError(
              "format compute_comms needs a schedule with send/recv, but "
              "this one has none and stage " +
              llvm::Twine(stage) + " (rank " + llvm::Twine(rank) +
              ") and stage " + llvm::Twine(stage + 1) + " (rank " +
              llvm::Twine(next->second) +
              ") are on different ranks; insert the communication first or "
              "export compute_only");
      }
    }
    // Every send/recv must be what its cell will say when read back.
    for (int r = 0; r < numRanks; ++r)
      for (size_t i = 0; i < schedule.ranks[r].size(); ++i) {
        const Action &a = schedule.ranks[r][i];
        if (!a.isComm())
          continue;
        auto [local, remote] = commStages(a);
        if (local < 0 || remote < 0)
          return actionError(r, i, a,
                             "a table cannot express it (stage " +
                                 llvm::Twine(std::min(local, remote)) + ")");
        auto localRank = rankOf.find(local);
        if (localRank != rankOf.end() && localRank->second != r)
          return actionError(r, i, a,
                             "its cell '" + tableCell(a) + "' names stage " +
                                 llvm::Twine(local) + ", which runs on rank " +
                                 llvm::Twine(localRank->second));
        auto remoteRank = rankOf.find(remote);
        if (remoteRank == rankOf.end())
          return actionError(r, i, a,
                             "stage " + llvm::Twine(remote) +
                                 " at the other end runs on no rank");
        if (remoteRank->second != a.peer)
          return actionError(r, i, a,
                             "stage " + llvm::Twine(remote) +
                                 " at the other end runs on rank " +
                                 llvm::Twine(remoteRank->second));
      }
  }

  // The cells of every row; with compute_comms, after action i of rank r
  // its all-reduces (compute_only has compute actions only).
  std::vector<std::vector<OutCell>> rows(numRanks);
  std::multimap<std::pair<int, size_t>, int> reduceAfter;
  if (comms)
    for (const AllReducePlacement &p : options.allReduces)
      reduceAfter.insert({{p.rank, p.after}, p.stage});
  auto reduceGrads = [&](int r, size_t i) {
    auto [first, last] = reduceAfter.equal_range({r, i});
    for (auto it = first; it != last; ++it)
      rows[r].push_back({std::to_string(it->second) + "REDUCE_GRAD", {}});
  };
  for (int r = 0; r < numRanks; ++r) {
    const std::vector<Action> &actions = schedule.ranks[r];
    for (size_t i = 0; i < actions.size(); reduceGrads(r, i++)) {
      const Action &a = actions[i];
      if (a.isComm()) {
        if (comms)
          rows[r].push_back({tableCell(a), {}});
        continue;
      }
      if (a.kind != ActionKind::Forward || !a.overlapWithNext) {
        rows[r].push_back({tableCell(a), {&a}});
        continue;
      }
      // An F&B pair (see Action::overlapWithNext) is one cell. The Recvs of
      // both halves come before it and the Sends after it, as in PyTorch.
      if (!startsOverlapPair(actions, i))
        return actionError(r, i, a,
                           "it is overlapped with the next action, which "
                           "must be a backward");
      rows[r].push_back({"(" + tableCell(a) + ";" + tableCell(actions[i + 1]) +
                             ")OVERLAP_F_B",
                         {&a, &actions[i + 1]}});
      reduceGrads(r, i++);
    }
  }

  std::vector<std::vector<int>> steps(numRanks);
  if (!comms && options.alignSteps) {
    auto aligned = alignSteps(rows);
    if (!aligned)
      return aligned.takeError();
    steps = std::move(*aligned);
  } else {
    for (int r = 0; r < numRanks; ++r)
      for (size_t c = 0; c < rows[r].size(); ++c)
        steps[r].push_back(static_cast<int>(c));
  }

  std::string out;
  const char *eol = options.crlf ? "\r\n" : "\n";
  for (int r = 0; r < numRanks; ++r) {
    // Cell c goes to column steps[r][c]; the columns between are empty.
    std::vector<StringRef> line(rows[r].empty() ? 0 : steps[r].back() + 1);
    for (size_t c = 0; c < rows[r].size(); ++c)
      line[steps[r][c]] = rows[r][c].text;
    out += llvm::join(line, ",");
    out += eol;
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Import
//===----------------------------------------------------------------------===//

namespace {

/// One CSV field and where it starts (1-based line and byte column).
struct Field {
  std::string text;
  int line = 0;
  int column = 0;
};

/// Splits `text` into rows of fields like Python's csv.reader with the excel
/// dialect (non-strict).
llvm::Expected<std::vector<std::vector<Field>>> readCSV(StringRef text,
                                                        TableLocation *where) {
  std::vector<std::vector<Field>> rows;
  if (text.starts_with("\xEF\xBB\xBF"))
    text = text.drop_front(3);
  size_t n = text.size(), pos = 0, lineStart = 0;
  int line = 1;
  auto atEol = [&] {
    return pos < n && (text[pos] == '\n' || text[pos] == '\r');
  };
  // Consumes one line break at pos (which must be at one).
  auto newline = [&] {
    if (text[pos] == '\r' && pos + 1 < n && text[pos + 1] == '\n')
      ++pos;
    ++pos;
    ++line;
    lineStart = pos;
  };
  while (pos < n) {
    std::vector<Field> &row = rows.emplace_back();
    if (atEol()) { // A blank line: a row without fields.
      newline();
      continue;
    }
    while (true) {
      Field field;
      field.line = line;
      field.column = static_cast<int>(pos - lineStart) + 1;
      if (pos < n && text[pos] == '"') {
        ++pos;
        bool closed = false;
        while (pos < n) {
          char c = text[pos];
          if (c == '"') {
            if (pos + 1 < n && text[pos + 1] == '"') {
              field.text += '"';
              pos += 2;
              continue;
            }
            ++pos;
            closed = true;
            break;
          }
          if (c == '\n' || c == '\r') {
            field.text += c;
            if (c == '\r' && pos + 1 < n && text[pos + 1] == '\n')
              field.text += text[++pos];
            ++pos;
            ++line;
            lineStart = pos;
            continue;
          }
          field.text += c;
          ++pos;
        }
        if (!closed) {
          if (where)
            *where = {field.line, field.column};
          return makeError("line " + llvm::Twine(field.line) +
                           ": a quoted cell is not closed");
        }
      }
      // Unquoted text (or text after a closing quote, which Python keeps).
      while (pos < n && text[pos] != ',' && !atEol())
        field.text += text[pos++];
      row.push_back(std::move(field));
      if (pos < n && text[pos] == ',') {
        ++pos;
        continue;
      }
      break;
    }
    if (atEol())
      newline();
  }
  return rows;
}

enum class CellType {
  Forward,
  BackwardInput,
  BackwardWeight,
  Backward,
  SendF,
  RecvF,
  SendB,
  RecvB,
  Unshard,
  Reshard,
  ReduceGrad,
  OverlapFB,
};

/// Type names as `_ComputationType` spells them; longer names first so that
/// a prefix match finds the longest.
const std::pair<const char *, CellType> kCellTypes[] = {
    {"OVERLAP_F_B", CellType::OverlapFB},
    {"REDUCE_GRAD", CellType::ReduceGrad},
    {"UNSHARD", CellType::Unshard},
    {"RESHARD", CellType::Reshard},
    {"SEND_F", CellType::SendF},
    {"RECV_F", CellType::RecvF},
    {"SEND_B", CellType::SendB},
    {"RECV_B", CellType::RecvB},
    {"F", CellType::Forward},
    {"I", CellType::BackwardInput},
    {"W", CellType::BackwardWeight},
    {"B", CellType::Backward},
};

/// A parsed cell: one action, or an OVERLAP_F_B with two sub-actions.
struct CellAction {
  CellType type = CellType::Forward;
  int stage = 0;
  int microbatch = 0;
  std::vector<CellAction> subs;
};

/// Largest stage or micro-batch number accepted.
constexpr int64_t kMaxNumber = 1 << 30;

/// Parses one non-empty, stripped cell; returns an error message (without
/// the "rank R, step T: " prefix) on failure.
std::optional<std::string> parseCell(StringRef cell, CellAction &out,
                                     bool allowOverlap = true) {
  std::string quoted = "'" + cell.str() + "'";
  if (cell.starts_with("(")) {
    size_t close = cell.find(')');
    if (!allowOverlap || close == StringRef::npos)
      return "cannot parse action " + quoted;
    StringRef type = cell.drop_front(close + 1);
    if (type != "OVERLAP_F_B")
      return "cannot parse action " + quoted +
             " (only OVERLAP_F_B has sub-actions)";
    llvm::SmallVector<StringRef> parts;
    cell.slice(1, close).split(parts, ';');
    for (StringRef part : parts) {
      part = part.trim();
      if (part.empty())
        continue;
      CellAction sub;
      if (auto error = parseCell(part, sub, /*allowOverlap=*/false))
        return *error + " in " + quoted;
      out.subs.push_back(sub);
    }
    if (out.subs.size() != 2 || out.subs[0].type != CellType::Forward ||
        (out.subs[1].type != CellType::Backward &&
         out.subs[1].type != CellType::BackwardInput))
      return "OVERLAP_F_B must pair one forward with one backward, as in "
             "'(0F1;1B0)OVERLAP_F_B'; got " +
             quoted;
    out.type = CellType::OverlapFB;
    out.stage = out.subs[0].stage;
    out.microbatch = out.subs[0].microbatch;
    return std::nullopt;
  }

  StringRef rest = cell;
  size_t digits = 0;
  while (digits < rest.size() && llvm::isDigit(rest[digits]))
    ++digits;
  if (digits == 0)
    return "cannot parse action " + quoted +
           " (expected <stage><type><micro-batch>, e.g. '2F0')";
  int64_t stage = 0;
  if (rest.take_front(digits).getAsInteger(10, stage) || stage > kMaxNumber)
    return "stage number out of range in " + quoted;
  rest = rest.drop_front(digits);
  const char *typeName = nullptr;
  for (auto [name, type] : kCellTypes)
    if (rest.starts_with(name)) {
      typeName = name;
      out.type = type;
      break;
    }
  if (!typeName)
    return "cannot parse action " + quoted +
           " (expected <stage><type><micro-batch>, e.g. '2F0')";
  rest = rest.drop_front(StringRef(typeName).size());
  if (!llvm::all_of(rest, llvm::isDigit)) {
    std::string message = "cannot parse action " + quoted;
    if (out.type == CellType::Backward && rest.starts_with("W"))
      message += " (older PyTorch tables wrote 'BW' for a full backward and "
                 "'B' for a backward for inputs; today they are 'B' and 'I')";
    return message;
  }
  switch (out.type) {
  case CellType::Unshard:
  case CellType::Reshard:
  case CellType::ReduceGrad:
    if (out.type == CellType::ReduceGrad)
      return "action " + quoted +
             ": REDUCE_GRAD is not imported (a table does not say how many "
             "replicas or bytes): drop the REDUCE_GRAD cells and run "
             "pp-insert-allreduce, which places them where PyTorch does";
    return "action " + quoted + ": " + typeName +
           " is not supported (pp-mlir has no FSDP unshard/reshard)";
  case CellType::OverlapFB:
    return "cannot parse action " + quoted +
           " (OVERLAP_F_B is written '(<F>;<B>)OVERLAP_F_B')";
  default:
    break;
  }
  if (rest.empty())
    return "action " + quoted + " has no micro-batch";
  int64_t microbatch = 0;
  if (rest.getAsInteger(10, microbatch) || microbatch > kMaxNumber)
    return "micro-batch number out of range in " + quoted;
  out.stage = static_cast<int>(stage);
  out.microbatch = static_cast<int>(microbatch);
  return std::nullopt;
}

bool isCommType(CellType type) {
  return type == CellType::SendF || type == CellType::RecvF ||
         type == CellType::SendB || type == CellType::RecvB;
}

/// importTable() in two passes over the CSV rows: parse every cell and infer
/// the placement, then turn the cells into actions.
class TableImporter {
public:
  TableImporter(const std::vector<std::vector<Field>> &rows,
                std::optional<TableFormat> format, TableLocation *where)
      : rows(rows), format(format), where(where),
        numRanks(static_cast<int>(rows.size())), cells(numRanks) {}

  /// Reads the table into `table`.
  llvm::Error import(ImportedTable &table);

private:
  /// Pass 1: parses every cell into `cells` and infers `rankOf`.
  llvm::Error parseCells();
  /// Checks the stage numbering and sizes `table`.
  llvm::Error startTable(ImportedTable &table) const;
  /// Pass 2: appends the actions of cell (r, c) to `table`.
  llvm::Error addActions(ImportedTable &table, int r, int c) const;
  /// "rank R, step T: <message>", with `where` set to the cell.
  llvm::Error cellError(int rank, int step, const Field &field,
                        const llvm::Twine &message) const {
    if (where)
      *where = {field.line, field.column};
    return makeError("rank " + llvm::Twine(rank) + ", step " +
                     llvm::Twine(step) + ": " + message);
  }
  /// Parses cell (r, c), non-empty text `text`, into `action` and notes
  /// where its stages run.
  llvm::Error readCell(int r, int c, StringRef text, CellAction &action);

  const std::vector<std::vector<Field>> &rows;
  std::optional<TableFormat> format;
  TableLocation *where;
  int numRanks;
  /// cells[r][c]: the action of the cell, none for an empty one.
  std::vector<std::vector<std::optional<CellAction>>> cells;
  std::map<int, int> rankOf;
  int maxStage = -1, maxMicrobatch = -1;
  bool anyComm = false;
};

} // namespace

llvm::Error TableImporter::import(ImportedTable &table) {
  if (llvm::Error error = parseCells())
    return error;
  if (llvm::Error error = startTable(table))
    return error;
  for (int r = 0; r < numRanks; ++r)
    for (int c = 0; c < static_cast<int>(cells[r].size()); ++c)
      if (cells[r][c])
        if (llvm::Error error = addActions(table, r, c))
          return error;
  return llvm::Error::success();
}

llvm::Error TableImporter::readCell(int r, int c, StringRef text,
                                    CellAction &action) {
  const Field &field = rows[r][c];
  if (auto error = parseCell(text, action))
    return cellError(r, c, field, *error);
  if (isCommType(action.type)) {
    if (format == TableFormat::ComputeOnly)
      return cellError(r, c, field,
                       "communication action '" + text +
                           "' in a compute_only table");
    anyComm = true;
  }
  std::vector<const CellAction *> parts;
  if (action.type == CellType::OverlapFB)
    for (const CellAction &sub : action.subs)
      parts.push_back(&sub);
  else
    parts.push_back(&action);
  for (const CellAction *part : parts) {
    auto [it, inserted] = rankOf.try_emplace(part->stage, r);
    if (!inserted && it->second != r)
      return cellError(r, c, field,
                       "stage " + llvm::Twine(part->stage) +
                           " is on both rank " + llvm::Twine(it->second) +
                           " and rank " + llvm::Twine(r) + " ('" + text + "')");
    maxStage = std::max(maxStage, part->stage);
    maxMicrobatch = std::max(maxMicrobatch, part->microbatch);
  }
  return llvm::Error::success();
}

llvm::Error TableImporter::parseCells() {
  for (int r = 0; r < numRanks; ++r) {
    const std::vector<Field> &row = rows[r];
    for (int c = 0; c < static_cast<int>(row.size()); ++c) {
      StringRef text = StringRef(row[c].text).trim();
      std::optional<CellAction> &slot = cells[r].emplace_back();
      if (text.empty())
        continue;
      CellAction action;
      if (llvm::Error error = readCell(r, c, text, action))
        return error;
      slot = std::move(action);
    }
  }
  return llvm::Error::success();
}

llvm::Error TableImporter::startTable(ImportedTable &table) const {
  if (maxStage < 0)
    return makeError("the table has no actions");
  for (int s = 0; s <= maxStage; ++s)
    if (!rankOf.count(s))
      return makeError("stage " + llvm::Twine(s) +
                       " appears in no row; stages must be numbered 0.." +
                       llvm::Twine(maxStage) + " without gaps");
  table.format =
      format ? *format
             : (anyComm ? TableFormat::ComputeComms : TableFormat::ComputeOnly);
  table.stageRanks.resize(maxStage + 1);
  for (auto [stage, rank] : rankOf)
    table.stageRanks[stage] = rank;
  table.schedule.numMicrobatches = maxMicrobatch + 1;
  table.schedule.ranks.resize(numRanks);
  table.steps.resize(numRanks);
  table.locations.resize(numRanks);
  return llvm::Error::success();
}

llvm::Error TableImporter::addActions(ImportedTable &table, int r,
                                      int c) const {
  const CellAction &cell = *cells[r][c];
  const Field &field = rows[r][c];
  std::string text = StringRef(field.text).trim().str();
  std::vector<Action> &actions = table.schedule.ranks[r];
  auto push = [&](Action action) {
    actions.push_back(action);
    table.steps[r].push_back(c);
    table.locations[r].push_back({field.line, field.column});
  };
  auto compute = [](ActionKind kind, const CellAction &a) {
    Action action;
    action.kind = kind;
    action.stage = a.stage;
    action.microbatch = a.microbatch;
    return action;
  };
  // A communication action whose other end is stage `peer`.
  auto comm = [&](ActionKind kind, PayloadKind payload, int stage,
                  int peer) -> llvm::Error {
    if (peer < 0 || peer > maxStage)
      return cellError(
          r, c, field,
          "'" + text + "' " +
              (kind == ActionKind::Send ? "sends to" : "receives from") +
              " stage " + llvm::Twine(peer) +
              ", which the table does not have (its stages are 0.." +
              llvm::Twine(maxStage) + ")");
    Action action;
    action.kind = kind;
    action.payload = payload;
    action.stage = stage;
    action.microbatch = cell.microbatch;
    action.peer = table.stageRanks[peer];
    push(action);
    return llvm::Error::success();
  };
  int s = cell.stage;
  switch (cell.type) {
  case CellType::Forward:
    push(compute(ActionKind::Forward, cell));
    break;
  case CellType::BackwardInput:
    push(compute(ActionKind::BackwardInput, cell));
    break;
  case CellType::BackwardWeight:
    push(compute(ActionKind::BackwardWeight, cell));
    break;
  case CellType::Backward:
    push(compute(ActionKind::Backward, cell));
    break;
  case CellType::OverlapFB: {
    Action forward = compute(ActionKind::Forward, cell.subs[0]);
    forward.overlapWithNext = true;
    push(forward);
    push(compute(cell.subs[1].type == CellType::Backward
                     ? ActionKind::Backward
                     : ActionKind::BackwardInput,
                 cell.subs[1]));
    break;
  }
  case CellType::SendF:
    return comm(ActionKind::Send, PayloadKind::Activation, s, s + 1);
  case CellType::RecvF:
    return comm(ActionKind::Recv, PayloadKind::Activation, s - 1, s - 1);
  case CellType::SendB:
    return comm(ActionKind::Send, PayloadKind::Gradient, s, s - 1);
  case CellType::RecvB:
    return comm(ActionKind::Recv, PayloadKind::Gradient, s + 1, s + 1);
  default:
    break; // Rejected by parseCell().
  }
  return llvm::Error::success();
}

llvm::Expected<ImportedTable>
mlir::pp::sched::importTable(StringRef text, std::optional<TableFormat> format,
                             TableLocation *where) {
  if (where)
    *where = {};
  auto rows = readCSV(text, where);
  if (!rows)
    return rows.takeError();
  ImportedTable table;
  if (llvm::Error error = TableImporter(*rows, format, where).import(table))
    return std::move(error);
  return table;
}
