package syntax

import "github.com/autorag/autorag/engine/codedef"

// Def is one definition found in a source file (codedef.Def: the type lives
// in the light package so that what chunks need not link this one).
type Def = codedef.Def

// Kinds of definition (codedef.Kind*).
const (
	KindClass     = codedef.KindClass
	KindFunction  = codedef.KindFunction
	KindMethod    = codedef.KindMethod
	KindType      = codedef.KindType
	KindConstant  = codedef.KindConstant
	KindVariable  = codedef.KindVariable
	KindImpl      = codedef.KindImpl
	KindNamespace = codedef.KindNamespace
	KindMacro     = codedef.KindMacro
)
