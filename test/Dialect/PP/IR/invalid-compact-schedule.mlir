// Compact schedules that break pp.schedule's rules, one per split: the
// encoding (generic form), the pipeline's ranges and the library's checks,
// each naming the rank and the action's index.
// RUN: pp-opt %s -split-input-file -verify-diagnostics

pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op has 'rank_action_counts' without 'packed_actions'; a compact schedule needs both}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, rank_action_counts = array<i64: 2>}> : () -> ()

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op has 'packed_actions' without 'rank_action_counts'; a compact schedule needs both}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, packed_actions = array<i32: 0, 0, 0, -1>}> : () -> ()

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op rank 0 has 2147483648 actions; expected 0 to 2147483647}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, rank_action_counts = array<i64: 2147483648>, packed_actions = array<i32>}> : () -> ()

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op rank 0, action 0: word 32 is not an action kind}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, rank_action_counts = array<i64: 2>, packed_actions = array<i32: 32, 0, 0, -1, 1, 0, 0, -1>}> : () -> ()

// -----
// One spelling per schedule: a compute action has no payload and no peer.
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op rank 0, action 0: a compute action has the payload bit set}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, rank_action_counts = array<i64: 2>, packed_actions = array<i32: 8, 0, 0, -1, 1, 0, 0, -1>}> : () -> ()

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op rank 0, action 1: a compute action has peer 77; expected -1}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, rank_action_counts = array<i64: 2>, packed_actions = array<i32: 0, 0, 0, -1, 1, 0, 0, 77>}> : () -> ()

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op has 2 actions in 'rank_action_counts' but 4 words in 'packed_actions'; expected 8 (4 per action)}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, rank_action_counts = array<i64: 2>, packed_actions = array<i32: 0, 0, 0, -1>}> : () -> ()

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op rank 0 has -1 actions; expected 0 to 2147483647}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, rank_action_counts = array<i64: -1>, packed_actions = array<i32>}> : () -> ()

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op rank 0, action 1: word 7 is not an action kind}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, rank_action_counts = array<i64: 2>, packed_actions = array<i32: 0, 0, 0, -1, 7, 0, 0, -1>}> : () -> ()

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op is compact but has 1 rank regions; it has none}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, rank_action_counts = array<i64: 0>, packed_actions = array<i32>}> ({
^bb0:
}) : () -> ()

// -----
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op lists the actions of 1 ranks, but pipeline @p has 2 ranks}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, backward 0 0]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op rank 0, action 1: stage 1 is out of range: pipeline @p has 1 stages}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, backward 1 0]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op rank 0, action 0: micro-batch 3 is out of range: the schedule has 1 micro-batches}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 3, backward 0 0]

// -----
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op rank 0, action 1: peer rank 5 is out of range: pipeline @p has 2 ranks}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, send activation 0 0 to 5, backward 0 0]
rank 1 [forward 1 0, backward 1 0]

// -----
// The library's checks, as for the SSA form.
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op rank 0, action 0: backward of stage 0 micro-batch 0 runs before its forward on rank 0}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [backward 0 0, forward 0 0]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op forward of stage 0 micro-batch 1 never runs}}
// expected-error @below {{'pp.schedule' op backward of stage 0 micro-batch 1 never runs}}
pp.schedule @s pipeline(@p) microbatches(2) compact
rank 0 [forward 0 0, backward 0 0]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op runs 1 forwards, but 1 stages x 100000 micro-batches need 100000}}
pp.schedule @s pipeline(@p) microbatches(100000) compact
rank 0 [forward 0 0, backward 0 0]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
pp.schedule @s pipeline(@p) microbatches(1) compact
// expected-error @below {{expected an action (forward, backward, backward_input, backward_weight, send or recv), got 'fwd'}}
rank 0 [fwd 0 0]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
pp.schedule @s pipeline(@p) microbatches(1) compact
// expected-error @below {{expected 'activation' or 'gradient', got 'weights'}}
rank 0 [send weights 0 0 to 0]

// -----
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, backward 0 0]
// expected-error @below {{expected the actions of rank 1, got rank 2 (ranks come in order)}}
rank 2 []

// -----
// As in the SSA form: a stage that names only a fused backward function
// cannot run B and W.
func.func private @f()
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 forward @f backward @f
}
// expected-error @below {{'pp.schedule' op rank 0, action 1: B of stage 0 micro-batch 0 is a split backward, but stage 0 names only a fused 'backward' function; use backward}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, backward_input 0 0, backward_weight 0 0]

// -----
// The first eight of the library's problems, then their count.
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op forward of stage 0 micro-batch 0 never runs}}
// expected-error @below {{'pp.schedule' op backward of stage 0 micro-batch 0 never runs}}
// expected-error @below {{'pp.schedule' op forward of stage 0 micro-batch 1 never runs}}
// expected-error @below {{'pp.schedule' op backward of stage 0 micro-batch 1 never runs}}
// expected-error @below {{'pp.schedule' op forward of stage 0 micro-batch 2 never runs}}
// expected-error @below {{'pp.schedule' op backward of stage 0 micro-batch 2 never runs}}
// expected-error @below {{'pp.schedule' op forward of stage 0 micro-batch 3 never runs}}
// expected-error @below {{'pp.schedule' op backward of stage 0 micro-batch 3 never runs}}
// expected-error @below {{'pp.schedule' op has 4 more problems not shown}}
pp.schedule @s pipeline(@p) microbatches(6) compact
rank 0 []

// -----
// All-reduce entries: the encoding.
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op has 'packed_all_reduces' but is not compact; its all-reduces are pp.allreduce ops}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, packed_all_reduces = array<i64: 0, 1, 0, 2, 8, -1>}> : () -> ()

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op has 5 words in 'packed_all_reduces'; expected a multiple of 6}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, rank_action_counts = array<i64: 2>, packed_actions = array<i32: 0, 0, 0, -1, 1, 0, 0, -1>, packed_all_reduces = array<i64: 0, 1, 0, 2, 8>}> : () -> ()

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op all-reduce 0: rank 3 is out of range: the schedule has 1 ranks}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, rank_action_counts = array<i64: 2>, packed_actions = array<i32: 0, 0, 0, -1, 1, 0, 0, -1>, packed_all_reduces = array<i64: 3, 1, 0, 2, 8, -1>}> : () -> ()

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op all-reduce 0: follows action 2 of rank 0, which has 2 actions}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, rank_action_counts = array<i64: 2>, packed_actions = array<i32: 0, 0, 0, -1, 1, 0, 0, -1>, packed_all_reduces = array<i64: 0, 2, 0, 2, 8, -1>}> : () -> ()

// -----
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op all-reduce 1: comes before the all-reduce listed ahead of it; entries are in program order}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, rank_action_counts = array<i64: 2, 2>, packed_actions = array<i32: 0, 0, 0, -1, 1, 0, 0, -1, 0, 1, 0, -1, 1, 1, 0, -1>, packed_all_reduces = array<i64: 1, 1, 1, 2, 8, -1, 0, 1, 0, 2, 8, -1>}> : () -> ()

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op all-reduce 0: needs between 2 and 2147483647 replicas, not 1}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, backward 0 0, allreduce 0 replicas 1 bytes 8]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op all-reduce 0: bytes must be >= 0, not -8}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, backward 0 0, allreduce 0 replicas 2 bytes -8]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op all-reduce 0: bucket must be in [0, 2147483647] (or -1 for none), not 4294967296}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, rank_action_counts = array<i64: 2>, packed_actions = array<i32: 0, 0, 0, -1, 1, 0, 0, -1>, packed_all_reduces = array<i64: 0, 1, 0, 2, 8, 4294967296>}> : () -> ()

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
pp.schedule @s pipeline(@p) microbatches(1) compact
// expected-error @below {{bucket must be >= 0, not -1}}
rank 0 [forward 0 0, backward 0 0, allreduce 0 replicas 2 bytes 8 bucket -1]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
pp.schedule @s pipeline(@p) microbatches(1) compact
// expected-error @below {{an all-reduce must follow an action of its rank}}
rank 0 [allreduce 0 replicas 2 bytes 8, forward 0 0, backward 0 0]

// -----
// All-reduce entries against the pipeline and the actions, as
// pp.allreduce's verifier checks the op.
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op all-reduce 0 (rank 0): stage 4 is not in pipeline @p}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, backward 0 0, allreduce 4 replicas 2 bytes 8]

// -----
pp.pipeline @p ranks(2) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
  pp.stage 1 on rank 1 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op all-reduce 0 (rank 0): reduces stage 1, which runs on rank 1, not on rank 0}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, send activation 0 0 to 1, recv gradient 1 0 from 1, backward 0 0, allreduce 1 replicas 2 bytes 8]
rank 1 [recv activation 0 0 from 0, forward 1 0, backward 1 0, send gradient 1 0 to 0]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1, backward_weight = 1) memory(stash = 8, weight_stash = 4)
}
// expected-error @below {{'pp.schedule' op all-reduce 0 (rank 0): starts before the gradients of stage 0 are final: its W of micro-batch 0 follows on this rank}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, backward_input 0 0, allreduce 0 replicas 2 bytes 8, backward_weight 0 0]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op all-reduce 1 (rank 0): stage 0 has a second all-reduce on this rank}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, backward 0 0, allreduce 0 replicas 2 bytes 8, allreduce 0 replicas 2 bytes 8]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op all-reduce 1 (rank 0): is in bucket 0, whose all-reduces do not follow one another (another action comes between them)}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, forward 1 0, backward 1 0, allreduce 1 replicas 2 bytes 8 bucket 0, backward 0 0, allreduce 0 replicas 2 bytes 8 bucket 0]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op all-reduce 0 (rank 0): stage -1 is not in pipeline @p}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, backward 0 0, allreduce -1 replicas 2 bytes 8]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op all-reduce 1: comes before the all-reduce listed ahead of it; entries are in program order}}
"pp.schedule"() <{sym_name = "s", pipeline = @p, num_microbatches = 1 : i64, rank_action_counts = array<i64: 4>, packed_actions = array<i32: 0, 0, 0, -1, 0, 1, 0, -1, 1, 1, 0, -1, 1, 0, 0, -1>, packed_all_reduces = array<i64: 0, 3, 0, 2, 8, -1, 0, 2, 1, 2, 8, -1>}> : () -> ()

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op all-reduce 0 (rank 0): starts before the gradients of stage 0 are final: its backward of micro-batch 1 follows on this rank}}
pp.schedule @s pipeline(@p) microbatches(2) compact
rank 0 [forward 0 0, forward 0 1, backward 0 0, allreduce 0 replicas 2 bytes 8, backward 0 1]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
  pp.stage 2 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op all-reduce 2 (rank 0): is in bucket 0, whose all-reduces do not follow one another (another action comes between them)}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, forward 1 0, forward 2 0, backward 2 0, backward 1 0, backward 0 0, allreduce 2 replicas 2 bytes 8 bucket 0, allreduce 1 replicas 2 bytes 8 bucket 1, allreduce 0 replicas 2 bytes 8 bucket 0]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op has all-reduces, but none for stage 1 on rank 0: its gradients would differ between the 2 replicas (run pp-insert-allreduce to place one per stage)}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, forward 1 0, backward 1 0, backward 0 0, allreduce 0 replicas 2 bytes 8]

// -----
pp.pipeline @p ranks(1) {
  pp.stage 0 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
  pp.stage 1 on rank 0 costs(forward = 1, backward_input = 1) memory(stash = 8, weight_stash = 0)
}
// expected-error @below {{'pp.schedule' op the all-reduce of stage 1 is over 2 replicas, but stage 0's is over 4; a schedule's all-reduces are over one set of replicas}}
pp.schedule @s pipeline(@p) microbatches(1) compact
rank 0 [forward 0 0, forward 1 0, backward 1 0, allreduce 1 replicas 2 bytes 8, backward 0 0, allreduce 0 replicas 4 bytes 8]
