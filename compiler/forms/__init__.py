"""Forms, data composition schemas and roles of a configuration dump (docs/forms.md)."""
