int mlir::pp::lib::second() { return first() + 1; }
