// The registry a Windows guest sees: a hive in memory seeded with the keys samples read to learn about the
// machine (product name, machine GUID, the Run keys), keys and value names without regard to case.
import { COMPUTER } from './files.js';

/** Predefined keys (winreg.h): their handle values and the names the views print. */
export const ROOTS = new Map<bigint, string>([
  [0x8000_0000n, 'HKCR'],
  [0x8000_0001n, 'HKCU'],
  [0x8000_0002n, 'HKLM'],
  [0x8000_0003n, 'HKU'],
  [0x8000_0005n, 'HKCC'],
]);

/** Value types (winnt.h). */
export const REG = { SZ: 1, EXPAND_SZ: 2, BINARY: 3, DWORD: 4, MULTI_SZ: 7, QWORD: 11 };

export interface RegValue {
  name: string;
  type: number;
  data: Uint8Array;
}

const sz = (s: string) => ({ type: REG.SZ, data: new TextEncoder().encode(`${s}\0`) });

const SEEDED: Record<string, Record<string, { type: number; data: Uint8Array }>> = {
  'HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion': {
    ProductName: sz('Windows 10 Pro'),
    CurrentBuild: sz('19045'),
    EditionID: sz('Professional'),
    RegisteredOwner: sz('user'),
  },
  'HKLM\\SOFTWARE\\Microsoft\\Cryptography': { MachineGuid: sz('6f1c3a52-9d0e-4b8f-a7e2-53c41d9b0e17') },
  'HKLM\\SYSTEM\\CurrentControlSet\\Control\\ComputerName\\ComputerName': { ComputerName: sz(COMPUTER) },
  'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run': { SecurityHealth: sz('SecurityHealthSystray.exe') },
  'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run': {},
  'HKCU\\Environment': { TEMP: sz('%USERPROFILE%\\AppData\\Local\\Temp') },
};

export class Registry {
  private readonly keys = new Map<string, { path: string; values: Map<string, RegValue> }>();

  constructor() {
    for (const [path, values] of Object.entries(SEEDED)) {
      const key = this.create(path);
      for (const [name, v] of Object.entries(values)) key.values.set(name.toLowerCase(), { name, ...v });
    }
  }

  has(path: string): boolean {
    return this.keys.has(path.toLowerCase());
  }

  /** The key at `path`, created with its parents when missing. */
  create(path: string): { path: string; values: Map<string, RegValue> } {
    const parts = path.split('\\').filter(Boolean);
    let key = this.keys.get(parts[0]!.toLowerCase());
    for (let i = 1; i <= parts.length; i++) {
      const p = parts.slice(0, i).join('\\');
      key = this.keys.get(p.toLowerCase());
      if (!key) this.keys.set(p.toLowerCase(), (key = { path: p, values: new Map() }));
    }
    return key!;
  }

  value(path: string, name: string): RegValue | undefined {
    return this.keys.get(path.toLowerCase())?.values.get(name.toLowerCase());
  }

  set(path: string, value: RegValue): void {
    this.create(path).values.set(value.name.toLowerCase(), value);
  }

  deleteValue(path: string, name: string): boolean {
    return this.keys.get(path.toLowerCase())?.values.delete(name.toLowerCase()) ?? false;
  }

  deleteKey(path: string): boolean {
    return this.keys.delete(path.toLowerCase());
  }
}
