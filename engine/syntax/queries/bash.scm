; Definitions in Bash (tree-sitter-bash ships no tags.scm).

(function_definition name: (word) @name) @definition.function
