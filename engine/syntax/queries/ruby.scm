; Definitions in Ruby, after tree-sitter-ruby's queries/tags.scm (MIT).

[
  (class body: (body_statement (method name: (_) @name) @definition.method))
  (module body: (body_statement (method name: (_) @name) @definition.method))
  (singleton_class body: (body_statement (method name: (_) @name) @definition.method))
]

(singleton_method name: (_) @name) @definition.method

(method name: (_) @name) @definition.function

(class name: (_) @name) @definition.class

(module name: (_) @name) @definition.namespace
