// Function names: demangling of C++ and Rust symbols (the host loads the demangler). May import
// src/contracts and src/shared.
export * from './demangle.js';
