"""Reading rulesets: YAML with positions, ``extends``, options, the schema, the safe
expression compiler and the compiled programs. The bottom layer: it imports no other."""
