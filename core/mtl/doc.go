// Package mtl is the self-paced multitask learner of Murugesan & Carbonell,
// "Self-Paced Multitask Learning with Shared Knowledge" (IJCAI 2017), with
// the MTL methods it wraps: ITL, STL, MMTL (mean-regularized), MTFL
// (convex feature learning) and MTASO (alternating structure optimization).
//
// Prepare computes a training set's per-task statistics once; NewTrainer
// starts a run with a Config; Trainer.Step advances one outer iteration
// (W-step for every task given the shared knowledge Θ, task costs, the τ
// re-weighting, λ ← cλ, the Θ-step, the stopping test) and returns a
// Snapshot. The MTL baseline is the same trainer with SelfPaced off.
//
// docs/algorithms.md states every update as this package implements it;
// where the paper and the authors' code disagree, Config.Variant selects
// Paper (default) or Reference (§13). High-dimensional data (sparse, or d
// well above the rows of a task) is solved in the span of the training rows
// with a low-rank D (§11), so no d×d matrix is formed. JointMMTL is the
// authors' MMTL row as a single joint fit (§5.2). Every learner here, and
// the sequential ones of core/seq, implements Learner.
package mtl
