// Where the C library lives on each platform: the C standard modules are shared by all three.
export const C_LIBRARY = { linux: 'libc.so.6', windows: 'msvcrt.dll', macos: 'libSystem.B.dylib' } as const;
