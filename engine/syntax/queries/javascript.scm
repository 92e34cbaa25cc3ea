; Definitions in JavaScript, after tree-sitter-javascript's queries/tags.scm (MIT).

(method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.method

(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @definition.method

(pair
  key: (property_identifier) @name
  value: [(arrow_function) (function_expression)]) @definition.method

[
  (class name: (_) @name)
  (class_declaration name: (_) @name)
] @definition.class

[
  (function_declaration name: (identifier) @name)
  (generator_function_declaration name: (identifier) @name)
] @definition.function

(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

(expression_statement
  (assignment_expression
    left: [
      (identifier) @name
      (member_expression property: (property_identifier) @name)
    ]
    right: [(arrow_function) (function_expression)])) @definition.function
