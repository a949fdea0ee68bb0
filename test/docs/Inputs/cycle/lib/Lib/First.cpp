// second() in a comment is no call.
int mlir::pp::lib::first() { return mlir::pp::lib::second(); }
