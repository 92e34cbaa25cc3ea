; Definitions in Rust, after tree-sitter-rust's queries/tags.scm (MIT).
; Methods first: a function in an impl or trait body is a method.

[
  (impl_item body: (declaration_list (function_item name: (identifier) @name) @definition.method))
  (trait_item body: (declaration_list (function_item name: (identifier) @name) @definition.method))
  (trait_item body: (declaration_list (function_signature_item name: (identifier) @name) @definition.method))
]

(function_item name: (identifier) @name) @definition.function

[
  (struct_item name: (type_identifier) @name)
  (enum_item name: (type_identifier) @name)
  (union_item name: (type_identifier) @name)
  (trait_item name: (type_identifier) @name)
] @definition.class

(type_item name: (type_identifier) @name) @definition.type

(impl_item type: (_) @name) @definition.impl

(mod_item name: (identifier) @name) @definition.namespace

(macro_definition name: (identifier) @name) @definition.macro

[
  (const_item name: (identifier) @name)
  (static_item name: (identifier) @name)
] @definition.constant
