; Definitions in TypeScript and TSX, after tree-sitter-typescript's and
; tree-sitter-javascript's queries/tags.scm (MIT).

[
  (method_definition name: (_) @name)
  (method_signature name: (_) @name)
  (abstract_method_signature name: (_) @name)
] @definition.method

(public_field_definition
  name: (_) @name
  value: [(arrow_function) (function_expression)]) @definition.method

(pair
  key: (property_identifier) @name
  value: [(arrow_function) (function_expression)]) @definition.method

[
  (class name: (_) @name)
  (class_declaration name: (_) @name)
  (abstract_class_declaration name: (_) @name)
  (interface_declaration name: (_) @name)
  (enum_declaration name: (_) @name)
] @definition.class

(type_alias_declaration name: (_) @name) @definition.type

[
  (internal_module name: (_) @name)
  (module name: (_) @name)
] @definition.namespace

[
  (function_declaration name: (identifier) @name)
  (generator_function_declaration name: (identifier) @name)
  (function_signature name: (identifier) @name)
] @definition.function

(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function
