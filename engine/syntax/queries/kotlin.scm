; Definitions in Kotlin (tree-sitter-kotlin ships no tags.scm).

(class_body (function_declaration name: (identifier) @name) @definition.method)

(enum_class_body (function_declaration name: (identifier) @name) @definition.method)

(function_declaration name: (identifier) @name) @definition.function

[
  (class_declaration name: (identifier) @name)
  (object_declaration name: (identifier) @name)
  (companion_object name: (identifier) @name)
] @definition.class

(type_alias type: (identifier) @name) @definition.type

(source_file
  (property_declaration
    (variable_declaration (identifier) @name)) @definition.variable)
