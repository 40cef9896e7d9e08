package engine

// ModelVersion numbers the model's figures. A reference outcome recorded
// under one model version is refused under another: the same scenario, seed
// and policy would no longer give the figures it holds, and a student would
// be graded against numbers the engine does not produce.
//
// Raise it by one in the commit that changes what a run computes for the
// same scenario, seed and decisions: a formula, a constant's default, the
// order of a minute's steps, a distribution drawn from a stream, or an
// outcome figure's definition. A change that moves a golden trace while
// scenarios and policies stay the same is such a change. Changes of
// scenarios or reference policies need no bump: references pin those by
// their own hashes.
const ModelVersion = 2
