package vector

// dotRows sets out[i] = dot(q, row i) for each i < len(out), where rows
// holds len(out) consecutive rows of len(q) components: the same bits as
// dot row by row (the assembly kernel sums in vek32.Dot's order,
// TestDotRowsMatchesDot), in one call for a block of rows, two rows at a
// time, without a call and its checks per row.
func dotRows(q, rows, out []float32) {
	if len(out) == 0 {
		return
	}
	d := len(q)
	_ = rows[len(out)*d-1]
	if dotRowsAsm(q, rows, out) {
		return
	}
	for i := range out {
		out[i] = dot(q, rows[i*d:i*d+d])
	}
}
