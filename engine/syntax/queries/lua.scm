; Definitions in Lua, after tree-sitter-lua's queries/tags.scm (MIT).

(function_declaration name: (method_index_expression method: (identifier) @name)) @definition.method

(function_declaration name: (dot_index_expression field: (identifier) @name)) @definition.function

(function_declaration name: (identifier) @name) @definition.function

(variable_declaration
  (assignment_statement
    (variable_list name: (identifier) @name)
    (expression_list value: (function_definition)))) @definition.function

(assignment_statement
  (variable_list name: (dot_index_expression field: (identifier) @name))
  (expression_list value: (function_definition))) @definition.function
