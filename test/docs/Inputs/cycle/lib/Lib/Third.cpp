// Mentions first() and second() in comments and "first()" in a string only:
// no dependency.
const char *mlir::pp::lib::third() { return "first()"; }
