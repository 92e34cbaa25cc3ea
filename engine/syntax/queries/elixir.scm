; Definitions in Elixir, after tree-sitter-elixir's queries/tags.scm (Apache-2.0).

(call
  target: (identifier) @_kw
  (arguments (alias) @name)
  (#any-of? @_kw "defmodule" "defprotocol")) @definition.class

(call
  target: (identifier) @_kw
  (arguments [
    (identifier) @name
    (call target: (identifier) @name)
    (binary_operator left: (call target: (identifier) @name) operator: "when")
  ])
  (#any-of? @_kw "def" "defp" "defdelegate" "defguard" "defguardp" "defn" "defnp")) @definition.function

(call
  target: (identifier) @_kw
  (arguments [
    (identifier) @name
    (call target: (identifier) @name)
    (binary_operator left: (call target: (identifier) @name) operator: "when")
  ])
  (#any-of? @_kw "defmacro" "defmacrop")) @definition.macro

(call
  target: (identifier) @_kw
  (arguments (alias) @name)
  (#eq? @_kw "defimpl")) @definition.impl
