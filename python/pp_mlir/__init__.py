"""pp-mlir's Python front ends (docs/Frontends.md)."""
