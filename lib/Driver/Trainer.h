//===- Trainer.h - the training loop of the driver (internal) ---*- C++ -*-===//
//
// train() (Driver.h) is a Trainer: Train.cpp compiles the programs, sets up
// parameters and data and runs the steps; ReferenceCheck.cpp compares the first
// step with the unpipelined reference; Report.cpp writes the end-of-run
// figures.
//
//===----------------------------------------------------------------------===//

#ifndef PP_LIB_DRIVER_TRAINER_H
#define PP_LIB_DRIVER_TRAINER_H

#include "pp/Driver/Driver.h"
#include "pp/Execution/Jit.h"
#include "pprt/Runtime.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlir::pp::driver {

/// torch.nn.utils.clip_grad_norm_'s factor on the gradients of global
/// norm `norm` clipped to `maxNorm`: min(1, maxNorm / (norm + 1e-6)); 1
/// when clipping is off (maxNorm 0) or the norm is not finite.
double clipFactor(double norm, double maxNorm);

class Trainer {
public:
  Trainer(ModuleOp module, const CompiledModel &model, Session &session,
          const TrainOptions &options, Progress &progress,
          llvm::raw_ostream &out);

  /// Compiles, initializes and trains every step.
  llvm::Expected<TrainSummary> run();

private:
  using RankProgram = void (*)(pprt_rank *);

  // Train.cpp
  llvm::Error compilePrograms();
  llvm::Error loadInputFiles();
  llvm::Error initializeParameters();
  llvm::Error openDevicePools();
  /// Synthetic data: argument `arg` of micro-batch `mb`, seeded by the
  /// seed and the argument's position as prepared. The same M
  /// micro-batches every step (one fixed batch), so that training fits
  /// them and the loss falls.
  exec::HostTensor syntheticData(const exec::TensorSpec &spec, int mb,
                                 unsigned arg) const;
  /// "argument 10", or for a piece of a split parameter "argument 10 (the
  /// piece at 1792 along dimension 0)": argument `arg` of the loss function
  /// named as prepared (CompiledModel::ArgumentOrigin).
  std::string argumentName(unsigned arg) const;
  /// The M micro-batches of data of step `step`, handed to the world.
  void setStepData(int step);
  llvm::Error runStep(int step, TrainSummary &summary);
  /// Stops a step whose loss or gradients are not finite.
  llvm::Error checkFinite(int step, const std::vector<double> &losses);
  void reportRate(int step);
  /// The leading dimension of stage 0's first data argument (1 if none):
  /// the samples in one micro-batch.
  int64_t samplesPerMicrobatch() const;
  /// For each shared parameter: the stages and ranks that use it, and
  /// whether its gradients are summed on one rank or across ranks.
  void reportSharedParameters();
  /// Fails if the copies of a shared parameter differ after step `step`'s
  /// update (pprt::World::sharedCopiesEqual).
  llvm::Error checkSharedCopies(int step);
  /// The first parameter (lowest model argument) whose gradient (or, with
  /// `values`, whose value) is not finite on this process's stages, with
  /// where it went bad in `what`; -1 if none. firstBadParameter() agrees
  /// on the argument across processes (MPI).
  int64_t localBadParameter(bool values, std::string &what);
  int64_t firstBadParameter(bool values, std::string &what);

  // TrainData.cpp
  /// --dataset: reads and checks the files (dtype and shape per sample, N
  /// samples in each, at least M, no argument also in --inputs).
  llvm::Error loadDatasets();
  /// The sample of the datasets that micro-batch `mb` of step `step`
  /// reads (TrainOptions::datasetFiles).
  int64_t sampleOf(int step, int mb);

  // TrainUpdate.cpp
  /// The L2 norm of every parameter gradient of the last step (a piece and
  /// a shared parameter counted once), its squares summed per parameter
  /// and the parameters in ascending argument order, so every process and
  /// every pipeline layout gets the same bits; a collective under MPI.
  double gradientNorm();
  /// Zero state for every parameter this process holds, or the resumed
  /// checkpoint's (resumedState, sliced for pieces).
  void initializeOptimizerState();
  /// The step's update: the generated update function of each parameter
  /// this process holds, run in place on its value (the first local use's
  /// copy) and state with the gradient scaled by `gradScale`, then copied
  /// to the parameter's other copies on this process.
  llvm::Error applyUpdate(double learningRate, double gradScale);
  /// This process's rank (world numbering) that runs pipeline rank
  /// `pipelineRank` (with data parallelism, that of its replica).
  int localRankOf(int pipelineRank);
  /// Runs the update of argument `arg` on `param` and `state` in place.
  llvm::Error runUpdate(unsigned arg, void *param, const void *grad,
                        std::vector<exec::HostTensor> &state,
                        double learningRate, double gradScale, int64_t t);

  /// The types of the parameter arguments, in argument order.
  std::vector<exec::TensorSpec> parameterSpecs() const;

  // TrainUpdateDevice.cpp
  /// runUpdate on the device of `rank` (--device=cuda, cuda-emu): the
  /// update function compiled for the GPU with the rank programs runs on
  /// device copies of `param`, `grad`, `state` and its scalars, allocated
  /// from the rank's pool, and the results come back to the host.
  llvm::Error runUpdateOnDevice(int rank, unsigned arg, void *param,
                                const void *grad,
                                std::vector<exec::HostTensor> &state,
                                double learningRate, double gradScale,
                                int64_t t);

  // TrainState.cpp
  /// --resume: replaces `values` (by argument as prepared) with the
  /// checkpoint's, names it in `origin`, and sets firstStep.
  llvm::Error resumeFrom(std::map<unsigned, exec::HostTensor> &values,
                         std::map<unsigned, std::string> &origin);
  /// --save after `step`, when it is due (every saveEvery steps, and the
  /// last): the parameters and optimizer state whole, pieces reassembled,
  /// gathered from every process (a collective under MPI).
  llvm::Error saveIfDue(int step);
  /// Every parameter's value (`stateIndex` < 0) or its optimizer state
  /// tensor `stateIndex`, by argument of the loss function (pieces apart),
  /// on every process: each process gives those whose first use it holds
  /// (a collective under MPI; inproc holds all).
  /// Errors (the same on every process): malformed parts, a tensor of the
  /// wrong size (one no process holds).
  llvm::Expected<std::map<unsigned, exec::HostTensor>>
  gatherTensors(int stateIndex);

  // ReferenceCheck.cpp
  /// Compares the first step (losses and the world's gradients) with the
  /// unpipelined reference; writes the verdict to `out`.
  llvm::Expected<bool> checkStep(const std::vector<double> &losses);
  /// After the first step's update: every parameter against the update the
  /// unpipelined model's gradients (checkStep) give, with the same rate and
  /// the clipping factor of their own norm; writes the verdict to `out`.
  llvm::Expected<bool> checkUpdate(double learningRate);
  /// checkUpdate's comparison of the optimizer state with `expected` (by
  /// argument, for this process's arguments): "; 8 state tensors: bitwise
  /// equal", or "" without state; `worst` gets the max relative error.
  std::string compareState(
      const std::map<unsigned, std::vector<exec::HostTensor>> &expected,
      double &worst);

  // Report.cpp
  /// Per-rank busy time, stash peaks, device memory, and the measured
  /// makespan next to pp-simulate's prediction from measured stage times.
  void reportLastStep(const pprt::StepTiming &timing);
  /// With replicas: the step sched::simulateDataParallel predicts from the
  /// measured stage times and the ring all-reduce model, overlapped and
  /// reduced at the end, next to the measured step.
  void reportDataParallel(const pprt::StepTiming &timing);
  /// The step just run as predicted from its own trace (predictStep).
  struct StepPrediction {
    /// pp-simulate's pipeline with the step's stage times and message
    /// latency, sharing the replica's cores, and its simulation.
    sched::PipelineModel pipeline;
    sched::SimulationResult withMeasured;
    /// With replicas: the data-parallel step around it (ring all-reduces
    /// placed as pp-insert-allreduce placed them), each replica simulated
    /// with the stage times and message latency it measured, so that an
    /// all-reduce waits for the slowest replica to reach it.
    sched::DataParallelResult dataParallel;
  };
  StepPrediction lastPrediction;
  /// Sets lastPrediction from the step just run.
  void predictStep();
  /// Leader only: predicts the step (predictStep) and appends its measured
  /// makespan over the predicted one (the data-parallel step with
  /// replicas) to stepRatios.
  void recordStepRatio(const pprt::StepTiming &timing);
  /// Every step's measured / predicted makespan (recordStepRatio), in order
  /// from firstStep; NaN for a step with no trace to predict from.
  std::vector<double> stepRatios;
  /// "; median over steps F-L: R" of stepRatios but the run's first step,
  /// or "" over fewer than two steps (one is the last step's ratio).
  std::string medianStepRatio() const;
  /// TrainOptions::calibrateAllReduce: fits allReduceBandwidth and
  /// allReduceLatency to all-gathers among the replicas (a collective).
  void calibrateAllReduce();
  /// The ring model's figures the report uses (TrainOptions, or measured).
  double allReduceBandwidth = 0.0, allReduceLatency = 0.0;
  /// Predicted (pp-simulate of the plan) and measured step time and per-rank
  /// utilisation (busy / makespan), and a warning when the measured busy
  /// times differ by more than 1.5x.
  void reportBalance(const pprt::StepTiming &timing);
  /// The "measured CPU time per rank" line: each rank thread's CPU time in
  /// compute actions (pprt::StepTiming::cpuBusy), which waiting for a core
  /// does not inflate when ranks outnumber cores. Not on Device::CUDA,
  /// where the compute runs on the GPU.
  void reportCpuBalance(const pprt::StepTiming &timing);
  /// The steady state of the run: per rank the median busy and CPU time,
  /// and the median makespan, over steps 2..N (the first warms up; step 1
  /// alone for one step); the rest as the last step measured it. One step
  /// on a shared machine varies by tens of percent.
  pprt::StepTiming steadyTiming() const;
  llvm::Error writeTrace();

  ModuleOp module;
  const CompiledModel &model;
  Session &session;
  const TrainOptions &options;
  /// The learning rate of each step, from options.
  LearningRateSchedule learningRates;
  /// Each parameter argument's first use (stage, index in its parameters):
  /// where the pipeline keeps its value and gradient (a shared parameter's
  /// copies all hold the same after a step).
  std::map<unsigned, std::pair<int, int>> firstUse;
  /// The uses of each parameter argument on this process's ranks, in stage
  /// order (arguments with none are absent).
  std::map<unsigned, std::vector<std::pair<int, int>>> localUses;
  /// The optimizer's state of each argument in localUses
  /// (exec::optimizerStateNames), and its copy before the update of a
  /// checked step (checkUpdate's starting point).
  std::map<unsigned, std::vector<exec::HostTensor>> optimizerState,
      stateBeforeUpdate;
  /// A resumed checkpoint's state, by argument as prepared (whole).
  std::map<unsigned, std::vector<exec::HostTensor>> resumedState;
  /// Updates applied so far (the bias corrections' t of the next is one
  /// more); skipped steps apply none.
  int64_t updates = 0;
  /// Parameter updates runUpdateOnDevice ran (this process).
  int64_t deviceUpdates = 0;
  /// The first step this run trains: 1, or the step after a resumed
  /// checkpoint's.
  int firstStep = 1;
  /// The unpipelined model's gradients of the first step (checkStep), by
  /// argument, for checkUpdate.
  std::map<unsigned, exec::HostTensor> referenceGradients;
  /// The step checkStep and checkUpdate compare.
  int checkedStep = 1;
  /// Steps skipped for non-finite values (TrainOptions::skipNonFinite).
  int skippedSteps = 0;
  Progress &progress;
  llvm::raw_ostream &out;
  bool leader;
  /// numMicrobatches: the step's, D*M over the replicas (data, losses,
  /// the reference); replicas: D (SessionOptions::dataParallel).
  int numStages, numMicrobatches, replicas;
  /// Where numMicrobatches comes from, for messages: "(--microbatches)",
  /// or with replicas "(2 replicas x 4 --microbatches)".
  std::string microbatchesOrigin() const;

  /// The host module (reference, initializer, optimizer updates), the rank
  /// programs on the CPU (one module per group of ranks, compiled in
  /// parallel) or on a GPU.
  std::unique_ptr<exec::JitModule> hostJit, gpuJit;
  std::vector<std::unique_ptr<exec::JitModule>> rankJits;
  std::vector<RankProgram> programs;
  double compileSeconds = 0.0;
  /// Where the JIT spent compileSeconds, by phase.
  exec::CompileTimes jitTimes;
  /// Parameter values by argument of the loss function.
  std::map<unsigned, exec::HostTensor> parameters;
  /// --inputs: argument a's micro-batch m is slice m of its file.
  std::map<unsigned, exec::HostTensor> dataFiles;
  /// --dataset: argument a's sample i is slice i of its file; the samples
  /// in each, and the epoch whose order `epochOrder` holds (shuffled).
  std::map<unsigned, exec::HostTensor> datasets;
  int64_t datasetSamples = 0;
  int64_t orderedEpoch = -1;
  std::vector<int64_t> epochOrder;
  /// This step's data: data[m][k] is stage 0's data input k.
  std::vector<std::vector<exec::HostTensor>> data;
  /// pp-simulate's result for the schedule.
  sched::SimulationResult predicted;
  /// The order in which each stage accumulates its micro-batches'
  /// gradients (its W or fused backward actions in program order).
  std::vector<std::vector<int>> accumulationOrder;
  /// Every step's timing (pprt::World::stepTiming), in order.
  std::vector<pprt::StepTiming> stepTimings;
  double lastRateReport = 0.0;
  std::chrono::steady_clock::time_point trainingStart;
};

} // namespace mlir::pp::driver

#endif // PP_LIB_DRIVER_TRAINER_H
