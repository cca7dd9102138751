"""The JSON Schemas of rulesets and extension files: data read by engine.resources, no code."""
