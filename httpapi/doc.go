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
// (403), so a web page cannot reach the API through DNS rebinding. With or
// without a token, a request carrying an Origin header other than the
// server's own (scheme://Host) is refused (403): browsers send Origin on
// every cross-origin request, so a page the user visits cannot start a
// refresh or read a file. Every POST must say Content-Type:
// application/json, an empty body included (400 otherwise): that is the
// one type a cross-origin page cannot send without a CORS preflight,
// which the server never grants. A loopback server without a token serves
// every local user of the machine: any process, of any user, that can
// connect to 127.0.0.1 can search, read and refresh; use --token where
// other users share the machine. Bodies are limited to MaxBody bytes,
// headers to 64 KiB, and each request to its time limit, which holds even
// when the handler is stuck where no context reaches it: the server
// answers 504 at the limit (deadline.go).
package httpapi
