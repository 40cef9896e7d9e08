// Package modelpage builds the model page: every relation with its source,
// the line of constants, where the model departs from the original and why,
// the approximations, how the simulator draws its random numbers, the
// sources and the disclaimer, in any language of the catalogue. `oncall
// model` prints it and the web console shows it, from the same Page.
//
// The formulas and the texts print the values of the constants in force:
// the model's defaults.
package modelpage
