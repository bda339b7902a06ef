// Package seq holds the sequential baselines the paper compares self-paced
// MTFL with (docs/algorithms.md §8 and §9): curriculum learning of multiple tasks
// (CL, the authors' greedy rule) and ELLA with four task-selection rules.
// Both learn one more task per Step, like the self-paced trainer steps one
// outer iteration, so task orderings can be compared side by side.
//
// CL (NewCL) fits every remaining task anchored at the last learned task's
// weight vector and learns the one with the lowest regularized training
// objective. ELLA (NewELLA) encodes each task's single-task optimum in a
// shared basis L with sparse codes and chooses the next task at random, by
// InfoMax, by Diversity or by Diversity++ (select.go; the Lasso codes in
// lasso.go). Both implement mtl.Learner, so mtl.Run and the method
// catalogue (core/method) drive them like the self-paced trainer.
//
// Each Step returns an mtl.Snapshot whose Seq field holds the task learned,
// the order so far, every candidate's selection score and, for ELLA, the
// basis and the codes. Model is usable at any step: CL predicts with zeros
// for tasks it has not learned yet, ELLA with their current encoding. Runs
// are deterministic for a seed, natively and under WebAssembly. Numerical
// failures are errors, never NaN models.
package seq
