// Whether a program the tests drive (a compiler, a cross compiler) is on this machine: tests that need one
// skip with a message without it.
import { spawnSync } from 'node:child_process';

export const hasCommand = (cmd: string): boolean => spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;
