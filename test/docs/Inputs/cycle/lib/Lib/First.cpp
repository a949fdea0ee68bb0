// second() in a comment is no call.
int mlir::pp::lib::first() { third(); return mlir::pp::lib::second(); }
