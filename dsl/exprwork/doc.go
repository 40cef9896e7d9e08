// Package exprwork is the one compiler of the expr expressions a user
// writes (a policy's conditions and arguments, a scenario's page rule and
// grading bounds, a test file's checks), and the bounds it holds each to,
// the same everywhere: the nesting of brackets, checked before expr's
// parser recurses (Nesting); the builtins it may not call (Disabled); the
// steps one evaluation may take, estimated from above at load (Estimate);
// the + that could build text or lists without bound (Growth); the syntax
// tree's nodes (MaxNodes). A Place holds what differs: the words of its
// messages, the kind of value it wants, the names it may read and where
// its text stands in the file. Each evaluation charges its estimate to
// the run's budget (Expr.Charge), or to a budget of its own (Expr.Eval).
package exprwork
