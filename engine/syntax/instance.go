package syntax

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// instance is one instantiation of the module: its own memory, parser and
// rules. It serves one parse at a time.
type instance struct {
	mod         api.Module
	fns         map[string]api.Function
	langs       map[string]int32   // language name -> the module's index
	kinds       map[int32][]string // kind of each rule, by language, for the rules set here
	startMemory uint32             // bytes of linear memory when instantiated
	cancelAt    uint32             // address of the module's cancel word (glue.c)

	mu        sync.Mutex // guards the three below against a late cancel
	calls     uint64     // the number of the parse running, counted from 1
	cancelled bool       // the host cancelled it
	cancel    []byte     // the cancel word in memory, as of the call into the module
}

// Statuses of the module's parse (glue.c ST_*).
const (
	stOK = iota
	stNoRules
	stBadLang
	stTimeout
	stNoTree
	stNoMemory
	stCancelled
)

// errStatus is wrapped by the errors the module reports through a parse's
// status: it stopped cleanly and the instance can serve again.
var errStatus = errors.New("tree-sitter")

// errTimeout is a parse or walk that spent its budget of steps.
var errTimeout = fmt.Errorf("%w: parse budget exceeded", errStatus)

// errCancelled is a parse the host stopped through the cancel word.
var errCancelled = fmt.Errorf("%w: cancelled", errStatus)

// headWords and recordWords are the sizes, in 32-bit words, of the result's
// head (status, count, steps spent) and of one definition record.
const (
	headWords   = 3
	recordWords = 7
)

// record is one definition as the module reports it (byte offsets).
// The module writes the rule index twice (the second word was a query's
// pattern index and is kept so the record layout stays as built).
type record struct {
	rule                                     uint32
	start, end, extStart, nameStart, nameEnd uint32
}

func newInstance(ctx context.Context, e *engine) (*instance, error) {
	return instantiate(ctx, e, moduleConfig())
}

// moduleConfig is the configuration of every instance. It gives the module
// no clock but wazero's default, a fake that only ticks when read: the
// budget is in steps and the module never reads one (TestReadsNoClock).
func moduleConfig() wazero.ModuleConfig {
	return wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize")
}

func instantiate(ctx context.Context, e *engine, cfg wazero.ModuleConfig) (*instance, error) {
	var noImage bool
	mod, err := e.rt.InstantiateModule(withMemory(ctx, e.img, &noImage), e.cm, cfg)
	if err != nil {
		return nil, fmt.Errorf("instantiate tree-sitter module: %w", err)
	}
	if noImage {
		_ = mod.Close(ctx)
		return nil, errors.New("instantiate tree-sitter module: the image of its data could not be read")
	}
	in := &instance{mod: mod, fns: map[string]api.Function{}, langs: map[string]int32{}, kinds: map[int32][]string{}}
	for _, name := range []string{"lang_count", "lang_name", "malloc", "free", "rules_set", "parse", "cancel_word"} {
		if in.fns[name] = mod.ExportedFunction(name); in.fns[name] == nil {
			_ = mod.Close(ctx)
			return nil, fmt.Errorf("tree-sitter module lacks %s", name)
		}
	}
	if err := in.readLangs(ctx); err != nil {
		_ = mod.Close(ctx)
		return nil, err
	}
	at, err := in.call(ctx, "cancel_word")
	if err != nil {
		_ = mod.Close(ctx)
		return nil, err
	}
	in.cancelAt = uint32(at)
	in.startMemory = in.memoryBytes()
	return in, nil
}

// begin starts a parse, not cancelled, and returns its number for
// cancelCall.
func (in *instance) begin() uint64 {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.calls++
	in.cancelled, in.cancel = false, nil
	return in.calls
}

// arm writes the cancel word just before the call into the module, and
// keeps where it is for cancelCall.
func (in *instance) arm() {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.cancel, _ = in.mod.Memory().Read(in.cancelAt, 4)
	clear(in.cancel)
	if in.cancelled && in.cancel != nil {
		in.cancel[0] = 1
	}
}

// cancelCall cancels parse n if it is still the instance's last: the
// module stops it at its next step. The cancel word is a store into memory
// the module reads, safe from another goroutine. On Linux the memory is a
// mapping that never moves (withMemory); elsewhere the word is lost if the
// memory grows during the call (a fresh instance's first large file), and
// then the parse runs out its budget.
func (in *instance) cancelCall(n uint64) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.calls != n {
		return
	}
	in.cancelled = true
	if in.cancel != nil {
		in.cancel[0] = 1
	}
}

func (in *instance) call(ctx context.Context, fn string, args ...uint64) (uint64, error) {
	res, err := in.fns[fn].Call(ctx, args...)
	if err != nil {
		return 0, err
	}
	if len(res) == 0 {
		return 0, nil
	}
	return res[0], nil
}

func (in *instance) readLangs(ctx context.Context) error {
	n, err := in.call(ctx, "lang_count")
	if err != nil {
		return err
	}
	for i := range int32(n) {
		p, err := in.call(ctx, "lang_name", uint64(i))
		if err != nil {
			return err
		}
		name, ok := in.cString(uint32(p))
		if !ok {
			return fmt.Errorf("tree-sitter module: bad name of language %d", i)
		}
		in.langs[name] = i
	}
	return nil
}

// cString reads the NUL-terminated string at p.
func (in *instance) cString(p uint32) (string, bool) {
	mem := in.mod.Memory()
	var b []byte
	for i := p; p != 0; i++ {
		c, ok := mem.ReadByte(i)
		if !ok || len(b) > 256 {
			return "", false
		}
		if c == 0 {
			return string(b), true
		}
		b = append(b, c)
	}
	return "", false
}

// bytesIn copies b into a fresh buffer of the module; the caller frees it.
func (in *instance) bytesIn(ctx context.Context, b []byte) (uint32, error) {
	p, err := in.call(ctx, "malloc", uint64(max(len(b), 1)))
	if err != nil {
		return 0, err
	}
	if p == 0 || !in.mod.Memory().Write(uint32(p), b) {
		return 0, errors.New("tree-sitter module: out of memory")
	}
	return uint32(p), nil
}

// rules returns the kind of each definition rule of lang, setting the
// rules in this instance on first use.
func (in *instance) rules(ctx context.Context, idx int32, name string) ([]string, error) {
	if kinds, ok := in.kinds[idx]; ok {
		return kinds, nil
	}
	l, ok := lookup(name)
	if !ok {
		return nil, fmt.Errorf("%s: %w", name, ErrUnsupported)
	}
	rs, err := loadRules(l)
	if err != nil {
		return nil, err
	}
	p, err := in.bytesIn(ctx, []byte(rs.text))
	if err != nil {
		return nil, err
	}
	line, err := in.call(ctx, "rules_set", uint64(idx), uint64(p), uint64(len(rs.text)))
	if _, ferr := in.call(ctx, "free", uint64(p)); err == nil {
		err = ferr
	}
	if err != nil {
		return nil, err
	}
	if line != 0 {
		return nil, fmt.Errorf("%s: rule %d: unknown node type or field, or bad syntax", l.rulesFile(), line)
	}
	in.kinds[idx] = rs.kinds
	return rs.kinds, nil
}

// parse parses src as lang (whose rules are set) within budget steps
// (glue.c) and returns the module's records and the steps it spent.
func (in *instance) parse(ctx context.Context, lang int32, src []byte, budget uint32) ([]record, uint32, error) {
	p, err := in.bytesIn(ctx, src)
	if err != nil {
		return nil, 0, err
	}
	defer func() { _, _ = in.call(ctx, "free", uint64(p)) }()
	in.arm()
	res, err := in.call(ctx, "parse", uint64(lang), uint64(p), uint64(len(src)), uint64(budget))
	if err != nil {
		return nil, 0, err
	}
	mem := in.mod.Memory()
	head, ok := mem.Read(uint32(res), headWords*4)
	if !ok {
		return nil, 0, errors.New("tree-sitter module: result out of range")
	}
	status, n := binary.LittleEndian.Uint32(head), binary.LittleEndian.Uint32(head[4:])
	steps := binary.LittleEndian.Uint32(head[8:])
	if err := statusErr(status); err != nil {
		return nil, steps, err
	}
	words, ok := mem.Read(uint32(res)+headWords*4, n*recordWords*4)
	if !ok {
		return nil, steps, errors.New("tree-sitter module: result out of range")
	}
	return decodeRecords(words, int(n)), steps, nil
}

func statusErr(status uint32) error {
	switch status {
	case stOK:
		return nil
	case stTimeout:
		return errTimeout
	case stNoMemory:
		return fmt.Errorf("%w: out of memory for the definitions", errStatus)
	case stCancelled:
		return errCancelled
	case stNoTree:
		return fmt.Errorf("%w: parser gave no tree", errStatus)
	default:
		return fmt.Errorf("tree-sitter module: status %d", status)
	}
}

func decodeRecords(words []byte, n int) []record {
	recs := make([]record, n)
	for i := range recs {
		w := func(k int) uint32 { return binary.LittleEndian.Uint32(words[(i*recordWords+k)*4:]) }
		recs[i] = record{rule: w(0), start: w(2), end: w(3), extStart: w(4), nameStart: w(5), nameEnd: w(6)}
	}
	return recs
}

// memoryBytes is the size of the instance's linear memory now.
func (in *instance) memoryBytes() uint32 { return in.mod.Memory().Size() }

// close closes the module, which frees (on Linux unmaps) its memory: the
// cancel word is forgotten first, so a late cancelCall writes nowhere.
func (in *instance) close(ctx context.Context) {
	in.mu.Lock()
	in.cancel = nil
	in.mu.Unlock()
	_ = in.mod.Close(context.WithoutCancel(ctx))
}
