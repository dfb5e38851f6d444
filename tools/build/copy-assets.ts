// Run by `npm run build` after tsc: tsc compiles only TypeScript; the SQL migrations ship beside the
// compiled drivers.
import { cpSync } from 'node:fs';

for (const dialect of ['sqlite', 'postgres']) {
  cpSync(`src/store/${dialect}/migrations`, `dist/src/store/${dialect}/migrations`, { recursive: true });
}
