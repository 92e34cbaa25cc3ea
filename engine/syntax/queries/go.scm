; Definitions in Go, after tree-sitter-go's queries/tags.scm (MIT).

(method_declaration name: (field_identifier) @name) @definition.method

(function_declaration name: (identifier) @name) @definition.function

[
  (type_spec name: (type_identifier) @name)
  (type_alias name: (type_identifier) @name)
] @definition.type
