"""The code domain: every BSL module of a dump (Designer and EDT, Russian and English script,
extensions with their annotations) → procedures, calls and metadata usages (docs/code.md)."""
