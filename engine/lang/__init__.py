"""The effect language: the grammar, the parser, the built-in functions, the compiler.

- effects.lark: the grammar, the one place the language's syntax is written;
- parser.py: text to trees, once per rule, with the parse caches;
- recovery.py: the rest of a rule after its syntax error, checked for its other mistakes;
- builtins.py: the one registry of built-in functions (what each takes, does and is);
- compiler.py: trees to Python functions and resumable programs, every name resolved and
  checked at load time;
- types.py: the static type check of every rule at load time (gradual: only what must fail);
- codegen.py: the one module that compiles code, from `ast` trees the compiler built and it
  verified (docs/design-codegen.md);
- docgen.py: docs/effect-language.md, generated from the registry.

May import: core.
Must not import: rules, game, players, analysis, adapters, web, cli.
"""
