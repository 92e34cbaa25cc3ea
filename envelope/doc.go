// Package envelope holds the JSON objects autorag answers with (DESIGN.md,
// "JSON envelopes"): the query, refresh, status and error envelopes that
// `autorag ... --json` prints, and that `autorag mcp` and `autorag serve`
// return as structured results. One definition serves the CLI and the
// servers, so an agent reading either sees the same fields.
//
// Every envelope has ok (bool) and outcome (string). Errors carry a code
// (Code) that names the failure class; the CLI maps the same codes to its
// exit codes.
package envelope
