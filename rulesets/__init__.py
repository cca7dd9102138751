"""The shipped rulesets: data read by engine.resources, each known by the stem of its file."""
