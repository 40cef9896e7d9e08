// Package exprwork bounds what an expr expression written by a user may
// do: the steps one evaluation may take, estimated from above at load
// (Estimate), the builtins it may not call (Disabled), and the + that
// could build text or lists without bound (Growth). A policy's rules and a
// scenario's page rule are both held to it, and both charge their
// estimate to the run's budget at each evaluation.
package exprwork
