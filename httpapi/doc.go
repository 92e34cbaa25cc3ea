// Package httpapi is the HTTP JSON transport of package agentapi (`autorag
// serve`), and the listener, guard and limits that `autorag mcp --http`
// shares:
//
//	GET  /v1/search?q=TEXT&k=&mode=&path=&per_file=&explain=&root=&max_tokens=
//	POST /v1/search     {"query":..,"k":..,"mode":..,"path":..,"per_file":..,"explain":..,"root":..,"max_tokens":..}
//	GET  /v1/status?root=
//	POST /v1/refresh    {"root":..,"paths":[..]} (body optional)
//	GET  /v1/read?root=R&path=P&start=&end=   (POST with {"root","path","start","end"} too)
//
// The server answers for a workspace of one root or several (package
// agentapi): root names one (default: every root for search, status and
// refresh; read needs it when there are several).
//
// Every answer is one JSON envelope (package envelope). Errors carry their
// code and an HTTP status: usage 400, not authorized 401, refused 403,
// not_found 404, no_index 409, busy 503 (with Retry-After), a request past
// its time limit 504, anything else 500.
//
// # Security
//
// The server binds to loopback unless told otherwise; any other address
// requires a bearer token (CheckBind), compared in constant time. Without a
// token, requests whose Host header is not a loopback name are refused
// (403), so a web page cannot reach the API through DNS rebinding, and POST
// bodies must be application/json, which a cross-origin page cannot send
// without a CORS preflight that the server never grants. Bodies are
// limited to MaxBody bytes, headers to 64 KiB, and each request to its
// time limit.
package httpapi
