// Package scorekey turns a score into an unsigned integer that sorts best
// first, so that a ranking can sort plain integers (and break ties on
// what it packs below them) instead of calling a comparison per pair.
//
// It is shared by engine/rank (fused scores, float64) and engine/vector
// (similarities, float32), which must order scores alike.
package scorekey
