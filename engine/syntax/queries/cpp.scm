; Definitions in C++, after tree-sitter-cpp's queries/tags.scm (MIT).
; Methods first: a function in a class body, or defined as Class::name.

(field_declaration_list
  (function_definition
    declarator: (function_declarator declarator: [(field_identifier) (identifier) (destructor_name) (operator_name)] @name)) @definition.method)

(field_declaration_list
  (declaration
    declarator: (function_declarator declarator: [(field_identifier) (identifier) (destructor_name) (operator_name)] @name)) @definition.method)

(field_declaration_list
  (field_declaration
    declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)) @definition.method)

(function_definition
  declarator: [
    (function_declarator declarator: (qualified_identifier name: (_) @name))
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: (_) @name)))
    (reference_declarator (function_declarator declarator: (qualified_identifier name: (_) @name)))
  ]) @definition.method

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (reference_declarator (function_declarator declarator: (identifier) @name))
  ]) @definition.function

[
  (class_specifier name: (_) @name body: (_))
  (struct_specifier name: (_) @name body: (_))
  (union_specifier name: (_) @name body: (_))
] @definition.class

(enum_specifier name: (_) @name body: (_)) @definition.type

[
  (type_definition declarator: (type_identifier) @name)
  (alias_declaration name: (type_identifier) @name)
] @definition.type

(namespace_definition name: (_) @name) @definition.namespace

[
  (preproc_def name: (identifier) @name)
  (preproc_function_def name: (identifier) @name)
] @definition.macro
