; Definitions in C#, after tree-sitter-c-sharp's queries/tags.scm (MIT).

[
  (method_declaration name: (identifier) @name)
  (constructor_declaration name: (identifier) @name)
] @definition.method

[
  (class_declaration name: (identifier) @name)
  (struct_declaration name: (identifier) @name)
  (record_declaration name: (identifier) @name)
  (interface_declaration name: (identifier) @name)
  (enum_declaration name: (identifier) @name)
] @definition.class

(delegate_declaration name: (identifier) @name) @definition.type

[
  (namespace_declaration name: (_) @name)
  (file_scoped_namespace_declaration name: (_) @name)
] @definition.namespace
