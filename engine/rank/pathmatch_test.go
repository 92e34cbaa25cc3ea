package rank

import (
	"math"
	"testing"
)

// porterStems are words as the index's English analysis (engine/analyze:
// stop_en, then the Porter stemmer) gives them, stop words as "": the
// package may not import the analyzer, so its tests read this table
// (engine's TestPathMatchAnalyzer checks the same matches through the
// analyzer itself).
var porterStems = map[string]string{
	"a": "", "and": "", "how": "", "is": "", "the": "", "are": "", "for": "", "to": "", "of": "", "it": "",
	"log": "log", "logs": "log", "logging": "log", "logger": "logger", "middleware": "middlewar", "access": "access",
	"format": "format", "formatting": "format", "formatter": "formatt",
	"route": "rout", "routes": "rout", "routing": "rout", "router": "router", "matched": "match",
	"parse": "pars", "parsing": "pars", "parser": "parser", "pars": "par", "json": "json",
	"encode": "encod", "encoding": "encod", "encoder": "encod",
	"schedule": "schedul", "scheduling": "schedul", "scheduler": "schedul",
	"handle": "handl", "handling": "handl", "handler": "handler", "request": "request",
	"build": "build", "building": "build", "builder": "builder", "builders": "builder",
	"write": "write", "writing": "write", "writer": "writer", "writ": "writ",
	"read": "read", "reading": "read", "reader": "reader", "file": "file", "files": "file",
	"validate": "valid", "validation": "valid", "validator": "valid",
	"serialize": "serial", "serialization": "serial", "serializer": "serial",
	"execute": "execut", "execution": "execut", "executor": "executor",
	"connect": "connect", "connection": "connect", "connector": "connector",
	"serve": "serv", "serving": "serv", "server": "server", "static": "static",
	"use": "us", "using": "us", "user": "user", "users": "user", "us": "us",
	"order": "order", "ord": "ord", "buffer": "buffer", "buff": "buff", "filter": "filter", "filt": "filt",
	"error": "error", "err": "err", "errors": "error", "context": "context", "mapper": "mapper", "map": "map",
	"emit": "emit", "emitter": "emitt", "run": "run", "running": "run", "runner": "runner",
	"work": "work", "works": "work", "worker": "worker", "queue": "queue", "thread": "thread", "pool": "pool",
	"update": "updat", "delete": "delet", "statement": "statement", "system": "system", "operations": "oper",
	"websocket": "websocket", "client": "client", "implementation": "implement", "generating": "gener",
	"model": "model", "cards": "card", "iterator": "iter", "iter": "iter", "impl": "impl", "fs": "fs",
	"fsevents": "fsevent", "ws": "ws", "wsgi": "wsgi", "modelcards": "modelcard", "hpp": "hpp", "go": "go",
	"web": "web", "recovery": "recoveri", "tokenizer": "token", "tokenize": "token", "token": "token",
	// The words derivedStems makes of the tests' words whose stem is
	// not the word itself.
	"accesser": "access", "connecter": "connect", "emiter": "emit", "encodder": "encodd", "executer": "execut",
	"executter": "executt", "formater": "format", "formator": "format", "formatte": "formatt", "logge": "logg",
	"loggerer": "logger", "loggerrer": "loggerr", "middlewarer": "middlewar", "middlewarrer": "middlewarr",
	"parserer": "parser", "parserrer": "parserr", "requester": "request", "routerer": "router", "routerrer": "routerr",
	"serialer": "serial", "serialler": "serial", "staticcer": "staticc", "staticer": "static", "validder": "validd",
	"valider": "valid", "writerer": "writer", "writerrer": "writerr",
}

// porterStem is porterStems as a stemmer: a word it lacks stays as it is,
// as the analyzer leaves every other word these tests stem.
func porterStem(w string) string {
	if s, ok := porterStems[w]; ok {
		return s
	}
	return w
}

func TestPathMatchPorter(t *testing.T) {
	d := DerivedCredit
	for _, c := range []struct {
		query string
		paths map[string]float64 // the stem score each file's name gets
	}{
		// Agent nouns (-er, -or) match their verbs and the verbs' other forms.
		{"logging middleware and access log format", map[string]float64{"logger.go": d, "recovery.go": 0}},
		{"how a route is matched", map[string]float64{"router.ts": d, "route.ts": 1}},
		{"JSON parsing", map[string]float64{"parser.hpp": d, "json_parser.hpp": (1 + d) / 2}},
		{"request handling", map[string]float64{"handler.py": d, "web_request.py": 0.5}},
		{"building", map[string]float64{"builder.go": d}},
		{"formatting", map[string]float64{"formatter.ts": d}},
		{"writing a file", map[string]float64{"writer.go": d, "file_writer.go": (1 + d) / 2}},
		{"reading", map[string]float64{"reader.go": d}},
		{"execution", map[string]float64{"executor.kt": d}},
		{"connection", map[string]float64{"connector.py": d}},
		{"serving static files", map[string]float64{"server.py": d, "web_server.py": d / 2}},
		{"emit", map[string]float64{"emitter.js": d}},
		{"running", map[string]float64{"runner.py": d}},
		{"map", map[string]float64{"mapper.java": d}},
		// The other way: a query's agent noun matches a file named by the
		// verb (before, only a verb its prefix, as an abbreviation).
		{"router", map[string]float64{"route.ts": d, "routing.py": d}},
		{"logger", map[string]float64{"log.go": d, "logging.py": d}},
		{"formatter", map[string]float64{"format.go": d}},
		{"JSON parser", map[string]float64{"parse.hpp": d, "json_parse.hpp": (1 + d) / 2}},
		{"writer", map[string]float64{"write.c": d}},
		// The stemmer already joins these: a full match.
		{"encoding", map[string]float64{"encoder.py": 1}},
		{"validation", map[string]float64{"validator.java": 1}},
		{"serialization", map[string]float64{"serializer.py": 1}},
		// A word that only looks like an agent noun of a query word stays
		// apart when the rest is shorter than three letters (user: "us").
		{"how to use the client", map[string]float64{"user.go": 0, "client.go": 1}},
	} {
		q := NewPathQuery(c.query, porterStem)
		for p, want := range c.paths {
			if got, _ := PathMatch(q, p, porterStem); math.Abs(got-want) > 1e-9 {
				t.Errorf("PathMatch(%q, %s) = %g, want %g", c.query, p, got, want)
			}
		}
	}
	// Folders too: a query's "routing" finds the router/ folder.
	if _, dir := PathMatch(NewPathQuery("routing", porterStem), "lib/router/scope.ex", porterStem); dir != 1 {
		t.Errorf("folder router/ for routing: %g, want 1", dir)
	}
}

// TestPathMatchNoAllocs: matching a derived word allocates nothing more
// than matching a query's own word.
func TestPathMatchNoAllocs(t *testing.T) {
	q := NewPathQuery("logging", porterStem)
	own := testing.AllocsPerRun(100, func() { PathMatch(q, "src/log.go", porterStem) })
	derived := testing.AllocsPerRun(100, func() { PathMatch(q, "src/logger.go", porterStem) })
	if derived != own {
		t.Errorf("a derived word costs %v allocations, the query's own %v", derived, own)
	}
}

// benchQueries and benchNames are a code query's window as PathMatchRare
// reads it: each query against each file of the window.
var (
	benchQueries = []string{
		"logging middleware and access log format", "how a tRPC router is created", "update and delete statement builders",
		"file system operations like read write open stat", "JSON parser and tokenizer", "WebSocket client implementation",
	}
	benchNames = []string{
		"gin/logger.go", "gin/recovery.go", "gin/routergroup.go", "gin/context.go", "gin/render/json.go",
		"exposed/sql/statements/UpdateStatement.kt", "exposed/sql/statements/DeleteStatement.kt",
		"src/unix/fs.c", "src/unix/core.c", "src/win/fs-event.c", "include/nlohmann/detail/input/parser.hpp",
		"include/nlohmann/detail/input/lexer.hpp", "aiohttp/client_ws.py", "aiohttp/web_urldispatcher.py",
		"src/server/router.ts", "tests/test_client.py", "docs/logging.md", "lib/colors.bash",
		"src/main/java/org/apache/commons/lang3/builder/HashCodeBuilder.java", "model2vec/tokenizer/tokenizer.py",
	}
)

// BenchmarkPathMatch: PathMatchRare of every file of a window, per query,
// with a remembering stemmer (as analyze.Stemmer answers after a word's
// first time) and the window's rarity.
func BenchmarkPathMatch(b *testing.B) {
	qs := make([]*PathQuery, len(benchQueries))
	for i, t := range benchQueries {
		qs[i] = NewPathQuery(t, porterStem)
	}
	rare := NameRarity(benchNames, porterStem)
	b.ReportAllocs()
	for b.Loop() {
		for _, q := range qs {
			for _, p := range benchNames {
				_, _ = PathMatchRare(q, p, porterStem, rare)
			}
		}
	}
}
