package codedef

// Def is one definition found in a source file.
type Def struct {
	Name      string // the defined identifier: "TypeAdapter", "include_router"
	Kind      string // one of the Kind* constants
	StartByte int    // first byte of the definition, its doc comment and decorators included
	EndByte   int    // one past its last byte
	StartLine int    // 1-based line of StartByte
	EndLine   int    // 1-based line of the last byte
	Parent    int    // index in the same slice of the enclosing definition; -1 at top level
	Label     string // the header a reader knows it by: "class TypeAdapter", "def include_router", "impl FromRequest for Foo"
}

// Kinds of definition.
const (
	KindClass     = "class" // class, struct, interface, trait, enum, object, record, module
	KindFunction  = "function"
	KindMethod    = "method"
	KindType      = "type" // type alias or Go type declaration
	KindConstant  = "constant"
	KindVariable  = "variable"
	KindImpl      = "impl" // Rust impl block, Swift/Kotlin extension
	KindNamespace = "namespace"
	KindMacro     = "macro"
)
