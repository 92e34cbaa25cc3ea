// Package codedef says what a definition in source code is (Def: a class,
// function, method, type or constant with its span, parent and label),
// which languages a syntax parser reads and at which version (LangOf,
// Version, Syntax), and finds the definitions of Go with go/parser
// (ParseGo).
//
// It is the light half of engine/syntax: no WebAssembly, no wazero, no
// embedded tree-sitter module. The chunker, the splitter and the mirror
// import it; only the engine, which runs the parsers, imports
// engine/syntax (TestImportRules), so a program that chunks but never
// parses does not link the module.
//
// It must never import engine/syntax, the engine, a backend or the mirror.
package codedef
