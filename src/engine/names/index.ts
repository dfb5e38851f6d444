// Function names: demangling of C++ and Rust symbols. May import src/contracts and src/shared.
export * from './demangle.js';
