; Definitions in PHP, after tree-sitter-php's queries/tags.scm (MIT).

(method_declaration name: (name) @name) @definition.method

(function_definition name: (name) @name) @definition.function

[
  (class_declaration name: (name) @name)
  (interface_declaration name: (name) @name)
  (trait_declaration name: (name) @name)
  (enum_declaration name: (name) @name)
] @definition.class

(namespace_definition name: (namespace_name) @name) @definition.namespace
