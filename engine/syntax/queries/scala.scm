; Definitions in Scala, after tree-sitter-scala's queries/tags.scm (MIT).

(template_body (function_definition name: (_) @name) @definition.method)

(template_body (function_declaration name: (_) @name) @definition.method)

[
  (function_definition name: (_) @name)
  (function_declaration name: (_) @name)
] @definition.function

[
  (class_definition name: (_) @name)
  (object_definition name: (_) @name)
  (trait_definition name: (_) @name)
  (enum_definition name: (_) @name)
  (package_object name: (_) @name)
] @definition.class

(type_definition name: (_) @name) @definition.type
