// Package batch runs one scenario over many seeds at once, on every core, and
// sums the runs up: the distribution of each outcome figure (mean, p50, p90,
// worst) and, for two policies run on the same seeds, the paired difference
// with a 95 % confidence interval.
//
// Each seed is an independent run of one shift.Shift, with the seed of the
// run and its own scenario instance and policy instance; the results are
// stored by seed, so they do not depend on the number of workers nor on the
// order in which the workers finish.
package batch
