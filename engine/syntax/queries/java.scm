; Definitions in Java, after tree-sitter-java's queries/tags.scm (MIT).

[
  (method_declaration name: (identifier) @name)
  (constructor_declaration name: (identifier) @name)
] @definition.method

[
  (class_declaration name: (identifier) @name)
  (interface_declaration name: (identifier) @name)
  (enum_declaration name: (identifier) @name)
  (record_declaration name: (identifier) @name)
  (annotation_type_declaration name: (identifier) @name)
] @definition.class
