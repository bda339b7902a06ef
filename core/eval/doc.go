// Package eval is the evaluation protocol of the paper (docs/algorithms.md §12):
// task-averaged RMSE and AUC, per-task random and stratified splits, k-fold
// cross-validation folds, grid search over them, and the paired t-test with
// mean, standard deviation and standard error over runs.
//
// Every random choice comes from a PCG generator seeded by the caller, so a
// seed gives the same splits natively and under js/wasm.
package eval
