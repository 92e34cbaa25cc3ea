; Definitions in Python, after tree-sitter-python's queries/tags.scm (MIT).
; Methods first: a function in a class body is a method.

(class_definition
  body: (block
    (function_definition name: (identifier) @name) @definition.method))

(class_definition
  body: (block
    (decorated_definition
      definition: (function_definition name: (identifier) @name) @definition.method)))

(class_definition name: (identifier) @name) @definition.class

(function_definition name: (identifier) @name) @definition.function

(module
  (expression_statement
    (assignment left: (identifier) @name)) @definition.variable)

